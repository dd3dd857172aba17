"""Each way a backup once got past the import and broke a page, or a club the web
accepted failed to restore: refused now in one line naming the place, with nothing
saved; and the club at the ends of the days a season may have restores whole."""

from __future__ import annotations

import json
from datetime import date

import pytest
from django.core.management import CommandError

from pitchkeeper.backups.services import club_export
from pitchkeeper.clubs.models import Club
from pitchkeeper.rules import FORMAT, RuleError
from pitchkeeper.rules.record import load_document
from pitchkeeper.seasons.models import Season
from tests.backups.pages import assert_pages_answer, import_file
from tests.test_fuzz import snapshot

pytestmark = pytest.mark.django_db

# Each was a 500 on every load of the club's or the game's page (NoReverseMatch), or of
# the game's history (AttributeError); a NUL a DataError from PostgreSQL.
NOT_A_HAND = ["a hand", ["high"], 5, 2.5, True, {"points": 5}, "", [], {"bid": True}]
FINDINGS = {
    "invitation token with slashes": (
        lambda d: d["invitations"][0].update(token="../../admin"),
        'invitation 1: "token": A link\'s token is letters, digits, - and _ only.',
    ),
    "live token with a space and HTML": (
        lambda d: d["games"][0].update(share_token="a b<script>"),
        'game 1: "share_token": A link\'s token is letters, digits, - and _ only.',
    ),
    **{
        f"history {field} {value!r}": (
            lambda d, field=field, value=value: d["games"][0]["changes"][0].update({field: value}),
            f'game 1: change 1: "{field}": Not a hand as a game record writes it',
        )
        for value in NOT_A_HAND
        for field in ("before", "after")
    },
    "NUL in a season's name": (
        lambda d: d["seasons"][0].update(name="Win\x00ter"),
        'season 1: "name": a text holds the control character U+0000',
    ),
    "NUL in a token": (
        lambda d: d["games"][1].update(share_token="abc\x00"),
        'game 2: "share_token": a text holds the control character U+0000',
    ),
    "NUL in a change": (
        lambda d: d["games"][0]["changes"][0].update(after={"pitcher": "A\x00nn"}),
        'game 1: change 1: "after": "pitcher": a text holds the control character U+0000',
    ),
    "NUL in a username": (
        lambda d: d["members"][0].update(user="sam\x00"),
        'member 1: "user": a text holds the control character U+0000',
    ),
    "escape character in a key": (
        lambda d: d["players"][0].update({"name\x1b": "x"}),
        "player 1: a text holds the control character U+001B",
    ),
    **{
        f"season {value!r}": (
            lambda d, value=value: d["payments"][0].update(season=value),
            'payment 1: "season" must be a whole number, the season\'s place in the file',
        )
        for value in (True, 1.0, "1")
    },
    "chips true": (
        lambda d: d["payments"][0].update(chips=True),
        'payment 1: "chips" must be a whole number',
    ),
}


@pytest.mark.parametrize("case", FINDINGS)
def test_a_backup_that_would_break_a_page_is_refused_in_one_line(whole_club, user, tmp_path, case):
    change, message = FINDINGS[case]
    data = club_export(club=whole_club)
    change(data)
    before = snapshot()

    with pytest.raises(CommandError) as refused:
        import_file(tmp_path, data, user.username)

    assert message in str(refused.value)
    assert len(str(refused.value).splitlines()) == 1
    assert snapshot() == before


def test_a_club_at_the_ends_of_the_days_restores_whole(whole_club, user, tmp_path):
    """The web takes a season from 1900-01-01 and to 2999-12-31: its backup restores
    (the import once took the ends as out of bounds), and every page answers."""
    Season.objects.create(
        club=whole_club, name="Ever", start=date(1900, 1, 1), end=date(2999, 12, 31)
    ).full_clean()
    data = club_export(club=whole_club)

    restored = Club.objects.get(pk=int(import_file(tmp_path, data, user.username)))

    assert {(s.start, s.end) for s in restored.seasons.all()} >= {
        (date(1900, 1, 1), date(2999, 12, 31))
    }
    assert_pages_answer(restored, user)


def test_an_unclosed_string_of_escaped_quotes_is_refused_at_once():
    """The pre-scan once tried every later quote as a string's start and read to the
    end from each: 51 s at 64 KB, hours for this megabyte."""
    with pytest.raises(RuleError, match="the text that opens at line 1 column 1 is never closed"):
        load_document('"' + '\\"' * 500_000)


@pytest.mark.parametrize("item", ["{}", "[]", '{"a":0}', "[[[[[[[[]]]]]]]]"])
def test_a_file_of_nothing_but_small_objects_is_refused_before_it_is_read(item):
    text = "[" + ",".join([item] * 200_000) + "]"

    with pytest.raises(RuleError, match="more objects and lists than 10 characters each"):
        load_document(text)


def test_games_written_without_spaces_are_not_too_dense():
    """The densest records there are, all auctions of one-letter names, in a file
    without a space, are read."""
    auction = {"auction": [["A", None], ["B", 2], ["C", None]], "points": {"high": "B"}}
    games = [{"format": FORMAT, "hands": [auction] * 200}] * 100
    text = json.dumps(games, separators=(",", ":"))
    assert len(load_document(text)) == 100
