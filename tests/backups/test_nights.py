"""A club's nights in its backup: written and read back with their players, rounds,
tables, games and payout; a night that points at nothing is refused and saves nothing."""

from __future__ import annotations

import pytest

from pitchkeeper.backups.services import club_export, club_import
from pitchkeeper.nights.models import Night
from pitchkeeper.nights.services import night_close, player_leave, round_next, round_start
from pitchkeeper.rules import RuleError
from tests.backups.test_backup import counts
from tests.conftest import finish

pytestmark = pytest.mark.django_db


@pytest.fixture
def night_club(club, user, make_night):
    """A club with a closed night of seven cutthroat players: one round played and
    paid out, a second proposed, Ann gone after the first."""
    night = make_night("setback", ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus"))
    played = round_start(night_round=night.night_rounds.get())
    for table in played.tables.all():
        finish(table.game)
    round_next(night=night)
    player_leave(night=night, player=club.players.get(name="Ann"))
    night_close(night=night, by=user)
    return club


def shape(night: Night) -> dict:
    """A night as names, numbers and game records' places, nothing of its ids."""
    names = dict(night.club.players.values_list("pk", "name"))
    games = list(night.club.games.order_by("created", "pk").values_list("pk", flat=True))
    return {
        "fields": (night.rules, night.rounds, night.progressive, night.order, night.seed),
        "times": (night.started_at, night.closed_at),
        "here": sorted(
            (names[a.player_id], a.first_round, a.last_round) for a in night.attendance.all()
        ),
        "rounds": [
            (
                r.number,
                r.started_at,
                [names[pk] for pk in r.sitting_out],
                [
                    (t.number, [[names[pk] for pk in team] for team in t.teams],
                     games.index(t.game_id) if t.game_id else None)
                    for t in r.tables.all()
                ],
            )
            for r in night.night_rounds.all()
        ],
        "payout": sorted((p.payer.name, p.payee.name, p.chips) for p in night.payments.all()),
    }  # fmt: skip


def test_a_night_comes_back_as_it_was(night_club, user):
    data = club_export(club=night_club)
    assert [g.get("night", {}).get("round") for g in [r["record"] for r in data["games"]]] == [1, 1]
    restored = club_import(data=data, owner=user).club
    old, new = night_club.nights.get(), restored.nights.get()
    assert shape(new) == shape(old) and shape(old)["payout"]
    assert new.share_token != old.share_token  # a link's token is not taken twice
    # Exported again, the same nights but for the links' tokens, new in this database.
    assert without_tokens(club_export(club=restored)["nights"]) == without_tokens(data["nights"])


def without_tokens(data):
    if isinstance(data, dict):
        return {k: without_tokens(v) for k, v in data.items() if k not in ("token", "share_token")}
    if isinstance(data, list):
        return [without_tokens(v) for v in data]
    return data


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (lambda n: n["night_rounds"][0]["tables"][0].update(game=9), "night 1: there is no game 9"),
        (
            lambda n: n["night_rounds"][0]["tables"][0].update(teams=[["Zed"]]),
            "night 1: 'Zed' is not",
        ),
        (lambda n: n.update(payments=[0]), "night 1: there is no payment 0"),
        (lambda n: n.update(order="loudest"), 'night 1: "order"'),
        (lambda n: n.update(rounds=0), "night 1:"),
        (lambda n: n["attendance"].append({"player": "Bob"}), "night 1:"),
        (lambda n: n.update(colour="green"), "night 1: unknown field colour"),
        (lambda n: n["night_rounds"][0]["tables"][0].update(teams=[]), 'night 1: "teams" must'),
    ],
)
def test_a_night_that_points_at_nothing_is_refused(night_club, user, change, words):
    data = club_export(club=night_club)
    change(data["nights"][0])
    before = counts()
    with pytest.raises(RuleError) as refused:
        club_import(data=data, owner=user)
    assert counts() == before
    assert str(refused.value).startswith(words), str(refused.value)
