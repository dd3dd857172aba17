"""Running a night: its rounds proposed, changed, started once, the players coming and
going, and the night closed with its payout on the ledger."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from pitchkeeper.clubs.models import Player
from pitchkeeper.games.models import Game
from pitchkeeper.games.replay import game_state
from pitchkeeper.nights.models import NightRound, NightTable
from pitchkeeper.nights.services import (
    as_round,
    night_close,
    night_games,
    player_arrive,
    player_leave,
    round_next,
    round_start,
    round_swap,
)
from pitchkeeper.rules import RuleError
from pitchkeeper.rules.nights import Meetings
from pitchkeeper.seasons.models import Payment
from tests.conftest import EIGHT, finish
from tests.games.test_integrity import race

pytestmark = pytest.mark.django_db
SEVEN = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus")


def player(name: str) -> Player:
    return Player.objects.get(name=name)


def play_round(night, winners=None):
    """The night's current round started and every table's game finished."""
    night_round = round_start(night_round=night.night_rounds.order_by("-number").first())
    for table in night_round.tables.order_by("number"):
        finish(table.game, (winners or {}).get(table.number))
    return night_round


def test_a_night_starts_with_its_first_round_proposed(make_night):
    night = make_night()
    (first,) = night.night_rounds.all()
    assert first.number == 1 and first.started_at is None
    assert [len(t.teams) for t in first.tables.all()] == [2, 2]
    assert sorted(as_round(first).seated) == sorted(str(player(n).pk) for n in EIGHT)


def test_starting_a_round_makes_each_tables_game_once(make_night):
    night = make_night()
    night_round = round_start(night_round=night.night_rounds.get())
    assert Game.objects.count() == 2
    for table in night_round.tables.all():
        game = table.game
        seats = list(game.seats.order_by("position").values_list("player_id", "team"))
        # Partners sit apart, each team named after its two players.
        assert [pk for pk, _ in seats] == [
            table.teams[0][0],
            table.teams[1][0],
            table.teams[0][1],
            table.teams[1][1],
        ]
        assert seats[0][1] == seats[2][1] and seats[0][1] != seats[1][1]
    again = round_start(night_round=night_round)
    assert again.started_at == night_round.started_at and Game.objects.count() == 2


@pytest.mark.django_db(transaction=True)
def test_two_scorers_starting_a_round_at_once_make_one_set_of_games(make_night):
    night = make_night()
    night_round = night.night_rounds.get()
    outcomes = race(
        lambda: round_start(night_round=night_round),
        lambda: round_start(night_round=night_round),
    )
    assert all(isinstance(o, NightRound) for o in outcomes), outcomes
    assert Game.objects.count() == 2


def test_a_swap_changes_the_proposal_and_is_checked(make_night):
    night = make_night("setback", ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus"))
    night_round = night.night_rounds.get()
    tables = {t.number: t.teams for t in night_round.tables.all()}
    a, b = tables[1][0][0], tables[2][0][0]
    round_swap(night_round=night_round, first=Player(pk=a), second=Player(pk=b))
    swapped = {t.number: t.teams for t in night_round.tables.all()}
    assert swapped[1][0][0] == b and swapped[2][0][0] == a
    with pytest.raises(ValidationError, match="two different players"):
        round_swap(night_round=night_round, first=Player(pk=a), second=Player(pk=a))
    stranger = Player.objects.create(club=night.club, name="Zed")
    with pytest.raises(RuleError) as refused:
        round_swap(night_round=night_round, first=Player(pk=a), second=stranger)
    assert refused.value.code == "night_not_here"
    round_start(night_round=night_round)
    with pytest.raises(ValidationError, match="has started"):
        round_swap(night_round=night_round, first=Player(pk=a), second=Player(pk=b))


def test_the_next_round_waits_for_every_game(make_night):
    night = make_night()
    night_round = round_start(night_round=night.night_rounds.get())
    first, second = night_round.tables.order_by("number")
    finish(first.game)
    with pytest.raises(ValidationError, match="table 2"):
        round_next(night=night)
    finish(second.game)
    proposal = round_next(night=night)
    assert proposal.number == 2 and round_next(night=night) == proposal


def test_eight_players_get_new_partners_each_round(make_night):
    night = make_night(rounds=3)
    for _ in range(3):
        play_round(night)
        if night.night_rounds.count() < 3:
            round_next(night=night)
    with pytest.raises(ValidationError, match="All 3 rounds"):
        round_next(night=night)
    meetings = Meetings.of(as_round(r) for r in night.night_rounds.all())
    assert meetings.repeated_partners == 0


def test_players_come_and_go_between_rounds(make_night):
    night = make_night("setback", ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus"))
    play_round(night)
    round_next(night=night)
    tables = NightTable.objects.filter(night_round__number=2).order_by("number")
    links = list(tables.values_list("number", "token"))
    newcomer = Player.objects.create(club=night.club, name="Ivy")
    player_arrive(night=night, player=newcomer)
    player_leave(night=night, player=player("Ann"))
    proposal = night.night_rounds.get(number=2)
    # Planned again, the tables keep their links: one handed out still opens its table.
    assert list(proposal.tables.order_by("number").values_list("number", "token")) == links
    seated = as_round(proposal).seated
    assert str(newcomer.pk) in seated and str(player("Ann").pk) not in seated
    assert len(seated) == 7
    with pytest.raises(ValidationError, match="already here"):
        player_arrive(night=night, player=newcomer)
    # Ann played round 1: her game stays in the night.
    assert any("Ann" in game.scores for game in night_games(night))


def test_too_few_left_is_refused_and_nothing_changes(make_night):
    night = make_night("setback", ("Ann", "Bob", "Cy"))
    with pytest.raises(RuleError) as refused:
        player_leave(night=night, player=player("Ann"))
    assert refused.value.code == "night_too_few"
    assert night.attendance.filter(last_round__isnull=False).count() == 0


def test_closing_with_a_game_in_play_asks_first(make_night, user):
    night = make_night()
    round_start(night_round=night.night_rounds.get())
    with pytest.raises(ValidationError, match="close the night anyway"):
        night_close(night=night, by=user)
    night.refresh_from_db()
    assert night.closed_at is None
    night_close(night=night, by=user, unfinished_ok=True)
    night.refresh_from_db()
    assert night.closed_at is not None


def test_the_payout_is_recorded_on_the_ledger_as_the_nights(make_night, user):
    night = make_night("setback", ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus"), rounds=1)
    play_round(night)
    night_close(night=night, by=user)
    payments = list(night.payments.all())
    assert payments and set(Payment.objects.all()) == set(payments)
    # Independently: every game's chips per person, from each game's settlement.
    owed: dict[str, int] = {}
    for game in Game.objects.all():
        for name, chips in game_state(game=game).result.settlement.items():
            owed[name] = owed.get(name, 0) + chips
    for p in payments:
        owed[p.payer.name] += p.chips
        owed[p.payee.name] -= p.chips
    assert set(owed.values()) == {0}
    assert night_close(night=night, by=user).payments.count() == len(payments)


def test_winners_move_up_a_table_on_a_progressive_night(make_night):
    night = make_night("setback", SEVEN, rounds=2, progressive=True)
    played = round_start(night_round=night.night_rounds.get())
    top, bottom = played.tables.order_by("number")
    winners = {}
    for table in (top, bottom):
        seated = [pk for team in table.teams for pk in team]
        winners[table.number] = Player.objects.get(pk=seated[-1])
        finish(table.game, winners[table.number].name)
    proposal = round_next(night=night)
    tables = {t.number: {pk for team in t.teams for pk in team} for t in proposal.tables.all()}
    # Both winners at the top table now; its last went down, the sizes kept.
    assert {winners[1].pk, winners[2].pk} <= tables[1]
    assert sorted(map(len, tables.values())) == sorted(
        len([pk for team in t.teams for pk in team]) for t in (top, bottom)
    )
    moved_down = tables[2] - {pk for team in bottom.teams for pk in team}
    assert len(moved_down) == 1 and moved_down <= {pk for team in top.teams for pk in team}


def test_a_round_that_cannot_be_played_is_refused_at_its_start(make_night):
    """A proposal changed behind the screens' back (a player at two tables): the check
    at the start refuses it, and no game is made."""
    night = make_night("setback", SEVEN)
    night_round = night.night_rounds.get()
    first, second = night_round.tables.order_by("number")
    second.teams = [[first.teams[0][0]], *second.teams[1:]]
    second.save()
    with pytest.raises(RuleError) as refused:
        round_start(night_round=night_round)
    assert refused.value.code == "night_seated_twice"
    assert not Game.objects.exists() and night.night_rounds.get().started_at is None


@pytest.mark.parametrize("seed", [5, 7])
def test_eight_players_partner_each_other_once_over_seven_rounds_proposed_one_by_one(
    make_night, seed
):
    """Each round is proposed when the last is over, from the plan the night stored (a
    plan made again at each round could repeat a partner in the last rounds: these two
    seeds did)."""
    night = make_night(rounds=7, seed=seed)
    for number in range(1, 8):
        if number > 1:
            round_next(night=night)
        play_round(night)
    meetings = Meetings.of(as_round(r) for r in night.night_rounds.all())
    assert len(meetings.partners) == 28 and meetings.repeated_partners == 0


def test_a_swap_or_a_newcomer_plans_the_rest_again(make_night, club):
    night = make_night("setback", SEVEN, rounds=3)
    night_round = night.night_rounds.get()
    first, second = night_round.tables.order_by("number")
    round_swap(
        night_round=night_round,
        first=Player(pk=first.teams[0][0]),
        second=Player(pk=second.teams[0][0]),
    )
    play_round(night)
    round_next(night=night)
    night.refresh_from_db()
    assert night.plan_from == 2  # the swapped round was not the plan's
    player_arrive(night=night, player=Player.objects.create(club=club, name="Ivy"))
    night.refresh_from_db()
    assert night.plan_from == 2 and len(as_round(night.night_rounds.get(number=2)).seated) == 8


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"order": "loudest"}, "Choose how the night is won."),
        ({"rounds": 0}, "A night has 1 to 99 rounds"),
        ({"rounds": 2**63}, "A night has 1 to 99 rounds"),
        ({"preset": "snap"}, "Choose one of the presets."),
    ],
)
def test_a_night_the_service_cannot_start_is_refused_and_nothing_saved(make_night, change, words):
    from pitchkeeper.nights.models import Night

    with pytest.raises(ValidationError, match=words):
        make_night(**{"preset": "setback", "names": SEVEN, **change})
    assert not Night.objects.exists()
