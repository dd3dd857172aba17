"""Backups of random clubs (hypothesis). A club the web could make, with every model
filled and days at the ends of what the forms take, comes back whole from
``export_club`` then ``import_club``. A backup with one value anywhere replaced by
something hostile is either refused in one line with nothing saved, or restored as a
club whose every page answers without a server error."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError
from django.db.models import CharField, Value
from django.db.models.functions import Cast, Concat
from hypothesis import HealthCheck, Phase, example, given, settings
from hypothesis import strategies as st

from pitchkeeper.backups.services import club_export
from pitchkeeper.clubs.models import Club, Membership, Role
from pitchkeeper.clubs.players import roster
from pitchkeeper.clubs.services import club_create, invitation_create
from pitchkeeper.core.limits import FIRST_DAY, LAST_DAY, MOST_CHIPS
from pitchkeeper.games.hands import hand_delete, hand_record
from pitchkeeper.games.models import Game
from pitchkeeper.games.services import games_import
from pitchkeeper.rules import HandRecord
from pitchkeeper.seasons.ledger import payment_record
from pitchkeeper.seasons.models import Season
from pitchkeeper.seasons.spans import Span
from tests.backups.pages import assert_pages_answer, import_file
from tests.backups.test_backup import team_record, without_ids
from tests.conftest import example_record
from tests.test_fuzz import paths, replaced, snapshot

pytestmark = pytest.mark.django_db

# Few examples, each a whole club imported and every page of it read: the file runs in
# well under a minute; the explicit examples are the findings that once broke a page.
BACKUPS = settings(
    max_examples=8,
    deadline=None,
    # A failing club is shown as found: shrinking one rebuilds clubs for minutes.
    phases=[Phase.explicit, Phase.reuse, Phase.generate],
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

NAMES = ["Ann", "Bob", "Cy", "Dee", "Zoë", "名前", "O'Neil", "<b>Eve</b>"]
# The ends of the days a season may have, and a few between.
DAYS = st.one_of(st.sampled_from([FIRST_DAY, LAST_DAY]), st.dates(FIRST_DAY, LAST_DAY))
TIMES = st.one_of(
    st.sampled_from([datetime(1900, 1, 2, tzinfo=UTC), datetime(2999, 12, 30, tzinfo=UTC)]),
    st.datetimes(datetime(1900, 1, 2), datetime(2999, 12, 30), timezones=st.just(UTC)),
)
CHIP_VALUES = st.one_of(st.none(), st.sampled_from([Decimal("0.00"), Decimal("999999.99")]))


def account(name: str) -> Any:
    return get_user_model().objects.get_or_create(username=name)[0]


@st.composite
def clubs(draw: Any, owner: Any) -> Club:
    """A club made as the web makes one, every model of it filled. The clubs of earlier
    examples (and their restored copies) are renamed out of the way first: one owner's
    clubs may not share a name, and the name drawn must be free in every example."""
    Club.objects.update(name=Concat(Value("Earlier "), Cast("pk", CharField())))
    club = club_create(
        name=draw(st.sampled_from(["Thursday table", "Ｃlub", "x" * 60])), owner=owner
    )
    sam, vic = account("sam"), account("vic")
    Membership.objects.create(club=club, user=sam, role=draw(st.sampled_from(Role.values)))
    Membership.objects.create(club=club, user=vic, role=Role.VIEWER)
    names = draw(st.lists(st.sampled_from(NAMES), min_size=4, max_size=6, unique=True))
    players = roster(names, club=club)
    first = players[names[0]]
    first.user, first.retired = sam, draw(st.booleans())
    first.full_clean()
    first.save()
    for role in draw(st.lists(st.sampled_from(Role.values), max_size=2)):
        invitation = invitation_create(club=club, role=role, by=draw(st.sampled_from([owner, sam])))
        invitation.revoked = draw(st.booleans())
        invitation.expires = draw(TIMES)
        invitation.full_clean()
        invitation.save()
    seasons = []
    for _number in range(draw(st.integers(0, 3))):
        start = draw(DAYS)
        season = Season(
            club=club,
            name=draw(st.sampled_from(["Winter", "Весна", "Ever"])),
            start=start,
            end=draw(st.one_of(st.none(), st.sampled_from([start, LAST_DAY]))),
            chip_value=draw(CHIP_VALUES),
        )
        season.full_clean()
        season.save()
        seasons.append(season)
    four = names[:4]
    records = [
        example_record(players=four, first_dealer=four[0], hands=[]),
        example_record(
            players=four[:3],
            first_dealer=four[0],
            hands=[{"pitcher": four[1], "bid": 4, "points": dict.fromkeys(SMUDGE, four[1])}],
        ),
        draw(st.sampled_from([team_record(), example_record(hands=[{"misdeal": True}])])),
    ]
    games = games_import(club=club, games=draw(st.lists(st.sampled_from(records), min_size=1)))
    # The history first: a deleted game's hands cannot change.
    playing = [g for g in games if g.finished_at is None and g.rules["preset"] == "setback"]
    if playing:
        hand_record(game=playing[0], record=HandRecord(misdeal=True), user=sam)
        hand_record(game=playing[0], record=HandRecord(misdeal=True), user=None)
        hand_delete(game=playing[0], number=1, user=vic)
    for game in games:
        created = draw(TIMES)
        finished = created + timedelta(hours=1) if game.finished_at is not None else None
        Game.objects.filter(pk=game.pk).update_counted(
            created=created,
            finished_at=finished,
            counts=draw(st.booleans()),
            chip_value=draw(CHIP_VALUES),
            deleted_at=draw(st.one_of(st.none(), TIMES)),
        )
    payer, payee = players[names[1]], players[names[2]]
    for season in draw(st.lists(st.sampled_from([None, *seasons]), max_size=2)):
        chips = draw(st.sampled_from([1, MOST_CHIPS]))
        payment_record(
            club=club, span=Span(season), payer=payer, payee=payee, chips=chips, by=owner
        )
    return club


SMUDGE = ("high", "low", "jack", "game")


def comparable(data: dict[str, Any]) -> dict[str, Any]:
    """The backup without what a copy in the same database cannot share: the games'
    ids and the tokens of its links."""
    data = without_ids(data)
    for invitation in data["invitations"]:
        del invitation["token"]
    return data


@BACKUPS
@given(data=st.data())
def test_a_backup_of_any_club_restores_the_same_club(user, tmp_path_factory, data):
    club = data.draw(clubs(user))
    backup = json.loads(json.dumps(club_export(club=club)))

    restored = Club.objects.get(pk=int(import_file(tmp_path_factory.mktemp("b"), backup, "owner")))

    assert comparable(club_export(club=restored)) == comparable(backup)
    assert_pages_answer(restored, user)


# Values that have broken imports or pages: tokens of other characters, history records
# of other shapes, NUL and control characters, booleans and fractions for numbers, days
# and times at and past the ends, markup.
HOSTILE = [
    "../../admin",
    "a b<script>",
    "\x00",
    "Win\x00ter",
    "\x1b[31m",
    "\u202eevil",
    "<script>alert(1)</script>",
    "",
    " ",
    "x" * 100,
    True,
    False,
    None,
    0,
    -1,
    1.5,
    1.0,
    2**31,
    "1",
    [],
    {},
    ["high"],
    {"points": 5},
    {"pitcher": "Ann", "bid": True},
    "1900-01-01",
    "2999-12-31",
    "1899-12-31",
    "3000-01-01",
    "1900-01-01T00:00:00+00:00",
    "2999-12-31T23:59:59-12:00",
    "owner",
    "Ann",
]
FINDINGS = [
    (("invitations", 0, "token"), "../../admin"),
    (("games", 0, "share_token"), "a b<script>"),
    *((("games", 0, "changes", 0, "before"), v) for v in ["x", ["x"], 5, True, {"points": 5}]),
    (("seasons", 0, "name"), "Win\x00ter"),
    (("games", 1, "share_token"), "\x00"),
    (("games", 0, "changes", 0, "after"), {"pitcher": "\x00"}),
    (("payments", 0, "season"), True),
    (("seasons", 0, "start"), "1900-01-01"),
    (("seasons", 0, "end"), "2999-12-31"),
]


@settings(BACKUPS, max_examples=20)
@given(
    where=st.one_of(st.integers(min_value=0), st.sampled_from([path for path, _v in FINDINGS])),
    value=st.one_of(st.sampled_from(HOSTILE), st.text(max_size=5), st.integers()),
)
@example(where=FINDINGS[0][0], value=FINDINGS[0][1])
@example(where=FINDINGS[1][0], value=FINDINGS[1][1])
@example(where=FINDINGS[2][0], value=FINDINGS[2][1])
@example(where=FINDINGS[5][0], value=FINDINGS[5][1])
@example(where=FINDINGS[6][0], value=FINDINGS[6][1])
@example(where=FINDINGS[7][0], value=FINDINGS[7][1])
@example(where=FINDINGS[8][0], value=FINDINGS[8][1])
@example(where=FINDINGS[9][0], value=FINDINGS[9][1])
@example(where=FINDINGS[10][0], value=FINDINGS[10][1])
@example(where=FINDINGS[11][0], value=FINDINGS[11][1])
def test_a_changed_backup_is_refused_in_one_line_or_every_page_answers(
    whole_club, user, tmp_path_factory, where, value
):
    backup = club_export(club=whole_club)
    places = paths(backup)
    path = where if isinstance(where, tuple) else places[where % len(places)]
    changed = replaced(backup, path, value)
    before = snapshot()
    try:
        new_id = import_file(tmp_path_factory.mktemp("f"), changed, user.username)
    except CommandError as refused:
        assert len(str(refused).splitlines()) == 1, str(refused)
        assert snapshot() == before
    else:
        assert_pages_answer(Club.objects.get(pk=int(new_id)), user)
