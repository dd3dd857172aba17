"""Seasons, statistics, ratings and the ledger against figures worked out by hand."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import date, datetime, timedelta
from unittest import mock

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from openskill.models import PlackettLuce

from pitchkeeper.clubs.models import Player
from pitchkeeper.games.hands import hand_delete, hand_edit, hand_record
from pitchkeeper.games.models import Game
from pitchkeeper.games.replay import game_state
from pitchkeeper.games.services import game_counts_set, game_delete, game_restore
from pitchkeeper.rules import GameResult, HandRecord
from pitchkeeper.seasons.derive import (
    COUNT_COMPARED,
    LINE_COMPARED,
    places,
    rollups_rebuild,
    split_chips,
    stats_game_saved,
    stats_rebuild,
)
from pitchkeeper.seasons.ledger import ledger, payment_record, season_games
from pitchkeeper.seasons.models import (
    MONTH_FIELDS,
    GameCount,
    GameLine,
    MonthChipValue,
    MonthCount,
    MonthLine,
    MonthPair,
    MonthRun,
    RatingPoint,
    Season,
    TotalCount,
)
from pitchkeeper.seasons.rollups import PAIR_FIELDS
from pitchkeeper.seasons.spans import Span, span_for
from pitchkeeper.seasons.standings import Streaks, bid_order, leaderboard, player_stats, streaks

pytestmark = pytest.mark.django_db


def pts(high, low, jack, game) -> dict:
    return {"high": high, "low": low, "jack": jack, "game": game}


@contextmanager
def at(moment: datetime) -> Iterator[None]:
    """Everything saved inside happens at ``moment`` (a game finished then)."""
    with mock.patch("django.utils.timezone.now", return_value=moment):
        yield


def moment(year: int, month: int, day: int) -> datetime:
    return timezone.make_aware(datetime(year, month, day, 20, 0))


def smudge_game(make_game, names=("Ann", "Bob", "Cy")) -> Game:
    """Cy bids 3 and is set back (Ann takes Low, Jack and Game); then Bob smudges.

    By hand: Ann 3, Bob 4 (wins), Cy -3 (in the hole). Chips: Ann is above zero and pays
    1, Cy pays 2, Bob gets 3.
    """
    a, b, c = names
    game = make_game("setback", names).game
    hand_record(game=game, record=HandRecord(pitcher=c, bid=3, points=pts(c, a, a, a)))
    hand_record(game=game, record=HandRecord(pitcher=b, bid=4, points=pts(b, b, b, b)))
    return game


TEAMS = {"Us": ["Ann", "Cy"], "Them": ["Bob", "Dee"]}


def team_game(make_game) -> Game:
    """Ann pitches 4 three times for Us and takes every point: 12, Us win at 11. Them,
    at zero, pay 2 chips, one from each member, one to each of Us."""
    game = make_game(
        {"preset": "partnership", "settlement": "chips"}, ("Ann", "Bob", "Cy", "Dee"), TEAMS
    ).game
    for _hand in range(3):
        state = game_state(game=game)
        order = state.record.seating.players
        dealer = state.result.dealer
        # The dealer is forced when all pass; everybody but Ann passes.
        auction = []
        start = order.index(dealer) + 1
        for i in range(4):
            name = order[(start + i) % 4]
            auction.append((name, 4 if name == "Ann" else None))
        hand_record(
            game=game,
            record=HandRecord(auction=tuple(auction), points=pts("Us", "Us", "Us", "Us")),
        )
    return game


CONTWAY_ALL = ("high", "low", "jack", "off_jack", "joker", "game")


def contway_game(make_game) -> Game:
    """Ann bids 3 for Us and Them take all six points: Us are hickeyed (and stay at
    zero); then Bob bids 6 for Them and takes all six: Them 12, out. Us, at zero with
    one hickey, pay 1 + 1: each of Ann and Cy pays 2, each of Bob and Dee gets 2."""
    game = make_game("contway-six", ("Ann", "Bob", "Cy", "Dee"), TEAMS).game
    them = dict.fromkeys(CONTWAY_ALL, "Them")
    hand_record(game=game, record=HandRecord(pitcher="Ann", bid=3, points=them))
    hand_record(game=game, record=HandRecord(pitcher="Bob", bid=6, points=them))
    return game


def board(club, key="all"):
    found = leaderboard(club=club, span=span_for(club=club, key=key))
    return {s.name: s for s in found.standings}


def test_places_rank_the_winner_first_then_by_score():
    result = GameResult(
        sides=("A", "B", "C", "D"),
        hands=(),
        scores={"A": 5, "B": 7, "C": 5, "D": -2},
        setbacks={},
        dealer=None,
        winner="A",
        won_by="count_order",
    )
    assert places(result) == {"A": 1, "B": 2, "C": 3, "D": 4}
    drawn = GameResult(("A", "B", "C"), (), {"A": 3, "B": 3, "C": 1}, {}, None, None, "draw")
    assert places(drawn) == {"A": 1, "B": 1, "C": 3}


@pytest.mark.parametrize(("net", "size"), [(3, 2), (-3, 2), (5, 3), (-4, 3), (0, 2), (7, 3)])
def test_a_team_settlement_is_split_in_whole_chips(net, size):
    members = list(range(size))
    shares = [split_chips(net, members, turn) for turn in range(size)]
    for share in shares:
        assert sum(share.values()) == net
        assert max(share.values()) - min(share.values()) <= 1
    # Over a round of games the odd chips went to each member alike.
    totals = [sum(share[m] for share in shares) for m in members]
    assert len(set(totals)) == 1


def test_a_small_season_by_hand(make_game, club):
    smudge_game(make_game)
    figures = board(club)

    ann, bob, cy = figures["Ann"], figures["Bob"], figures["Cy"]
    assert (ann.games, ann.wins, ann.place_sum, ann.hands, ann.taken, ann.chips) == (
        1,
        0,
        2,
        2,
        3,
        -1,
    )
    assert (bob.wins, bob.pitched, bob.bids, bob.made, bob.smudges, bob.smudges_made) == (
        1,
        1,
        1,
        1,
        1,
        1,
    )
    assert bob.chips == 3 and bob.win_rate == 1 and bob.points_per_hand == 2
    assert (cy.set_back, cy.in_hole, cy.made, cy.bids, cy.chips, cy.average_place) == (
        1,
        1,
        0,
        1,
        -2,
        3,
    )
    assert bob.by_bid == {"4": (1, 1)} and cy.by_bid == {"3": (0, 1)}
    # Per hand played: Cy took High once in two hands, Ann Low, Jack and Game once each.
    assert cy.by_category["high"] == (1, 2) and cy.category_rate("low") == 0
    assert ann.category_rate("game") == 0.5
    assert ann.smudge_share is None and cy.bid_share == 0


def test_team_games_count_for_every_member(make_game, club):
    team_game(make_game)
    figures = board(club)

    for name in ("Ann", "Cy"):
        us = figures[name]
        assert (us.games, us.team_games, us.wins, us.team_wins, us.place_sum) == (1, 1, 1, 1, 1)
        assert (us.taken, us.hands, us.chips) == (12, 3, 1)
        assert us.by_category["high"] == (3, 3)
    for name in ("Bob", "Dee"):
        them = figures[name]
        assert (them.wins, them.place_sum, them.taken, them.chips) == (0, 2, 0, -1)
    # Bids are the pitcher's own, not the team's.
    assert (figures["Ann"].pitched, figures["Ann"].made) == (3, 3)
    assert (figures["Cy"].pitched, figures["Cy"].bids) == (0, 0)
    assert GameLine.objects.filter(team=True).count() == 4


def test_a_game_in_progress_is_not_counted_until_it_is_won(make_game, club):
    game = make_game("setback", ("Ann", "Bob", "Cy")).game
    hand_record(
        game=game, record=HandRecord(pitcher="Cy", bid=3, points=pts("Cy", "Ann", "Ann", "Ann"))
    )
    assert board(club) == {}
    assert not GameLine.objects.exists() and not RatingPoint.objects.exists()


def test_the_statistics_are_written_in_the_saves_own_transaction(make_game, club):
    """With no savepoint of their own (a failure rolls the whole save back anyway): the
    one savepoint here is the save's, which the test's own transaction makes of it."""
    game = make_game("setback", ("Ann", "Bob", "Cy")).game
    with CaptureQueriesContext(connection) as queries:
        hand_record(game=game, record=HandRecord(pitcher="Cy", bid=4, points=pts(*["Cy"] * 4)))

    assert GameLine.objects.filter(game=game).count() == 3
    statements = [q["sql"].split()[0] for q in queries.captured_queries]
    assert statements.count("SAVEPOINT") == 1


def test_a_game_in_progress_before_and_after_a_save_reads_no_derived_row(make_game, club):
    game = make_game("setback", ("Ann", "Bob", "Cy")).game
    with CaptureQueriesContext(connection) as queries:
        hand_record(game=game, record=HandRecord(pitcher="Cy", bid=2, points=pts(*["Cy"] * 4)))

    assert not any('"pitchkeeper_gameline"' in q["sql"] for q in queries.captured_queries)


def test_a_won_game_taken_back_to_in_progress_leaves_the_statistics(make_game, club):
    game = make_game("setback", ("Ann", "Bob", "Cy")).game
    hand_record(game=game, record=HandRecord(pitcher="Cy", bid=4, points=pts(*["Cy"] * 4)))
    assert GameLine.objects.filter(game=game).count() == 3

    hand_delete(game=game, number=1, undo=True)

    assert not GameLine.objects.filter(game=game).exists() and board(club) == {}
    rollups_match_the_games(club)


def rollups_match_the_games(club) -> None:
    """The incrementally kept rollups equal the ones summed afresh from the games."""
    kept_lines = sorted(
        MonthLine.objects.filter(club=club, games__gt=0).values_list(
            "player_id", "month", *MONTH_FIELDS
        )
    )
    kept_counts = sorted(
        MonthCount.objects.filter(club=club, out_of__gt=0).values_list(
            "player_id", "month", "kind", "key", "count", "out_of"
        )
    )
    pair_columns = ("player_id", "other_id", "month", *PAIR_FIELDS)
    kept_pairs = sorted(MonthPair.objects.filter(club=club, games__gt=0).values_list(*pair_columns))
    run_columns = [f.attname for f in MonthRun._meta.concrete_fields if f.name != "id"]
    kept_runs = sorted(MonthRun.objects.filter(club=club).values_list(*run_columns))
    total_columns = ("player_id", "kind", "key", "count", "out_of")
    kept_totals = sorted(
        TotalCount.objects.filter(club=club, out_of__gt=0).values_list(*total_columns)
    )
    chip_columns = [f.attname for f in MonthChipValue._meta.concrete_fields if f.name != "id"]
    kept_chips = sorted(MonthChipValue.objects.filter(club=club).values_list(*chip_columns))
    rollups_rebuild(club_id=club.pk)
    assert kept_chips == sorted(MonthChipValue.objects.filter(club=club).values_list(*chip_columns))
    assert kept_totals == sorted(TotalCount.objects.filter(club=club).values_list(*total_columns))
    assert kept_pairs == sorted(MonthPair.objects.filter(club=club).values_list(*pair_columns))
    assert kept_runs == sorted(MonthRun.objects.filter(club=club).values_list(*run_columns))
    assert kept_lines == sorted(
        MonthLine.objects.filter(club=club).values_list("player_id", "month", *MONTH_FIELDS)
    )
    assert kept_counts == sorted(
        MonthCount.objects.filter(club=club).values_list(
            "player_id", "month", "kind", "key", "count", "out_of"
        )
    )


def test_editing_an_old_hand_rewrites_only_that_game(make_game, club):
    old = smudge_game(make_game)
    later = smudge_game(make_game, ("Bob", "Cy", "Dee"))
    later_rows = set(GameLine.objects.filter(game=later).values_list("pk", flat=True))

    # Cy now takes High, Low and Jack: the bid of 3 is made, nobody is in the hole.
    hand_edit(
        game=old,
        number=1,
        record=HandRecord(pitcher="Cy", bid=3, points=pts("Cy", "Cy", "Cy", "Ann")),
    )

    figures = board(club)
    cy = figures["Cy"]
    # The old game: made the 3, not set back, never in the hole; the later one: Cy's smudge.
    assert (cy.made, cy.bids, cy.set_back, cy.in_hole) == (2, 2, 0, 0)
    assert GameLine.objects.get(game=old, player__name="Cy").score == 3
    assert figures["Ann"].taken == 1  # Game only
    assert set(GameLine.objects.filter(game=later).values_list("pk", flat=True)) == later_rows
    rollups_match_the_games(club)


def test_practice_games_do_not_count(client, make_game, club):
    practice = smudge_game(make_game)
    smudge_game(make_game)
    assert board(club)["Bob"].games == 2

    game_counts_set(game=practice, counts=False)
    assert board(club)["Bob"].games == 1
    assert not RatingPoint.objects.filter(game=practice).exists()
    rollups_match_the_games(club)

    game_counts_set(game=practice, counts=True)
    assert board(club)["Bob"].games == 2
    assert RatingPoint.objects.filter(game=practice).count() == 3
    rollups_match_the_games(club)


def test_a_deleted_game_leaves_the_season(make_game, club):
    game = smudge_game(make_game)
    game_delete(game=game)
    assert board(club) == {}
    game_restore(game=game)
    assert board(club)["Bob"].wins == 1
    game.delete()
    assert board(club) == {} and not MonthLine.objects.filter(games__gt=0).exists()


def test_games_fall_in_the_seasons_their_finish_date_is_in(make_game, club):
    # Before, on the edge of, inside, on the other edge of, and after the season.
    for when in [(2024, 3, 10), (2024, 3, 20), (2024, 4, 15), (2024, 5, 5), (2024, 5, 20)]:
        with at(moment(*when)):
            smudge_game(make_game)
    spring = Season.objects.create(
        club=club, name="Spring", start=date(2024, 3, 15), end=date(2024, 5, 10)
    )
    april = Season.objects.create(
        club=club, name="April", start=date(2024, 4, 1), end=date(2024, 4, 30)
    )
    inside = Season.objects.create(
        club=club, name="Mid-March", start=date(2024, 3, 12), end=date(2024, 3, 25)
    )

    assert board(club, str(spring.pk))["Bob"].games == 3
    assert board(club, str(april.pk))["Bob"].games == 1
    assert board(club, str(inside.pk))["Bob"].games == 1
    assert board(club)["Bob"].games == 5
    # Every span agrees with counting the games' finish dates directly.
    for season in (spring, april, inside):
        span = span_for(club=club, key=str(season.pk))
        direct = GameLine.objects.filter(span.moments(), player__name="Bob").count()
        assert board(club, str(season.pk))["Bob"].games == direct


def test_the_current_season_is_the_default(club):
    Season.objects.create(club=club, name="Old", start=date(2020, 1, 1), end=date(2020, 12, 31))
    assert span_for(club=club, key=None, today=date(2024, 6, 1)).season is None
    now = Season.objects.create(club=club, name="Now", start=date(2024, 1, 1))
    assert span_for(club=club, key=None, today=date(2024, 6, 1)).season == now
    with pytest.raises(Season.DoesNotExist):
        span_for(club=club, key="999")


def test_ratings_are_computed_in_order_and_again_from_an_edited_game(make_game, club):
    with at(moment(2024, 1, 1)):
        first = smudge_game(make_game)  # Bob wins, Ann second, Cy third
    with at(moment(2024, 1, 2)):
        second = smudge_game(make_game, ("Cy", "Ann", "Bob"))  # Ann, Cy, Bob
    model = PlackettLuce()

    def expected(games: list[tuple[list[str], list[int]]]) -> dict[str, float]:
        ratings = {name: model.rating() for name in ("Ann", "Bob", "Cy")}
        for order, ranks in games:
            new = model.rate([[ratings[name]] for name in order], ranks=ranks)
            for name, (rating,) in zip(order, new, strict=True):
                ratings[name] = rating
        return {
            f"{name} {part}": getattr(r, part)
            for name, r in ratings.items()
            for part in ("mu", "sigma")
        }

    def stored() -> dict[str, float]:
        return {
            f"{s.name} {part}": getattr(s, part)
            for s in board(club).values()
            for part in ("mu", "sigma")
        }

    later = (["Ann", "Cy", "Bob"], [1, 2, 3])
    assert stored() == pytest.approx(expected([(["Bob", "Ann", "Cy"], [1, 2, 3]), later]))
    second_points = set(RatingPoint.objects.filter(game=second).values_list("pk", flat=True))

    # The old game, edited: Cy makes a bid of 2 and ties Ann for second. It keeps its
    # finish time, so it is rated first again and the later game after it.
    hand_edit(
        game=first,
        number=1,
        record=HandRecord(pitcher="Cy", bid=2, points=pts("Cy", "Cy", "Ann", "Ann")),
    )
    assert stored() == pytest.approx(expected([(["Bob", "Ann", "Cy"], [1, 2, 2]), later]))
    assert not second_points & set(RatingPoint.objects.values_list("pk", flat=True))

    # Edited again so that nobody has won it: only the later game is rated.
    hand_edit(
        game=first,
        number=2,
        record=HandRecord(pitcher="Bob", bid=4, points=pts("Cy", "Cy", "Cy", "Cy")),
    )
    assert game_state(game=first).result.winner is None
    assert stored() == pytest.approx(expected([later]))


def test_a_new_game_rates_only_itself(make_game, club):
    with at(moment(2024, 1, 1)):
        smudge_game(make_game)
    before = set(RatingPoint.objects.values_list("pk", "mu"))
    with at(moment(2024, 1, 2)):
        smudge_game(make_game)
    assert before <= set(RatingPoint.objects.values_list("pk", "mu"))
    assert RatingPoint.objects.count() == 6


def test_a_team_game_is_rated_as_teams(make_game, club):
    team_game(make_game)
    model = PlackettLuce()
    us, them = model.rate([[model.rating(), model.rating()], [model.rating(), model.rating()]])
    figures = board(club)
    assert figures["Ann"].mu == pytest.approx(us[0].mu)
    assert figures["Dee"].sigma == pytest.approx(them[0].sigma)


def test_streaks(make_game, club):
    # Bob: win, win, loss, win, win, win (the last run is the current one).
    for day, bob_wins in enumerate([True, True, False, True, True, True], start=1):
        with at(moment(2024, 2, day)):
            smudge_game(make_game, ("Ann", "Bob", "Cy") if bob_wins else ("Bob", "Cy", "Ann"))
    bob = Player.objects.get(name="Bob")
    found = streaks(player=bob, span=Span(None))
    assert found == Streaks(longest_wins=3, longest_without=1, current=3, current_won=True)
    two_days = Span(None, date(2024, 2, 3), date(2024, 2, 4))
    assert streaks(player=bob, span=two_days) == Streaks(1, 1, 1, True)


def streaks_by_hand(results: list[bool]) -> Streaks:
    longest = {True: 0, False: 0}
    length = 0
    for index, won in enumerate(results):
        length = length + 1 if index and results[index - 1] == won else 1
        longest[won] = max(longest[won], length)
    return Streaks(longest[True], longest[False], length, results[-1] if results else None)


def test_streaks_join_up_across_months_and_part_months(make_game, club):
    # Runs that cross month ends, a month of one result, and spans cut mid-month.
    bob_wins = [True, True, False, False, True, True, True, True, False, True, True, False]
    days = [(3, 5), (3, 28), (3, 30), (4, 2), (4, 9), (4, 20), (5, 1), (5, 31), (6, 3)]
    days += [(6, 4), (7, 15), (7, 16)]
    results = []
    for (month, day), won in zip(days, bob_wins, strict=True):
        with at(moment(2024, month, day)):
            smudge_game(make_game, ("Ann", "Bob", "Cy") if won else ("Bob", "Cy", "Ann"))
        results.append((date(2024, month, day), won))
    rollups_match_the_games(club)
    bob = Player.objects.get(name="Bob")
    spans = [(None, None), (date(2024, 3, 29), date(2024, 6, 3)), (date(2024, 4, 1), None)]
    spans += [(date(2024, 3, 6), date(2024, 3, 31)), (date(2024, 5, 2), date(2024, 5, 30))]
    spans += [(None, date(2024, 4, 30)), (date(2024, 4, 5), date(2024, 7, 15))]
    for start, end in spans:
        inside = [won for day, won in results if (start or day) <= day <= (end or day)]
        assert streaks(player=bob, span=Span(None, start, end)) == streaks_by_hand(inside)


def test_head_to_head_over_part_months_is_the_games_own(make_game, club):
    tables = [("Ann", "Bob", "Cy"), ("Bob", "Dee", "Ann"), ("Cy", "Ann", "Dee")]
    days = [(3, 30), (3, 31), (4, 1), (4, 15), (5, 2), (5, 20), (6, 1)]
    for index, (month, day) in enumerate(days):
        with at(moment(2024, month, day)):
            smudge_game(make_game, tables[index % 3])
    team_game(make_game)
    rollups_match_the_games(club)
    ann = Player.objects.get(name="Ann")
    for start, end in [
        (None, None),
        (date(2024, 3, 31), date(2024, 5, 10)),
        (date(2024, 4, 2), None),
    ]:
        span = Span(None, start, end)
        mine = {
            line.game_id: line
            for line in GameLine.objects.filter(span.moments(), player=ann, counted=True)
        }
        expected: dict[str, list[int]] = {}
        for other in GameLine.objects.filter(game__in=list(mine)).exclude(player=ann):
            me, apart = mine[other.game_id], mine[other.game_id].side != other.side
            tally = expected.setdefault(other.player.name, [0, 0, 0, 0, 0])
            for index, value in enumerate(
                (1, not apart, me.won and apart, other.won and apart, other.place > me.place)
            ):
                tally[index] += value
        found = player_stats(player=ann, span=span).opponents
        assert {
            o.name: [o.games, o.partners, o.wins_against, o.losses_to, o.ahead] for o in found
        } == expected
        assert [o.games for o in found] == sorted((o.games for o in found), reverse=True)


def test_a_long_rating_history_is_drawn_from_evenly_spaced_moments(make_game, club, monkeypatch):
    monkeypatch.setattr("pitchkeeper.seasons.standings.HISTORY_POINTS", 4)
    for day in range(1, 10):
        with at(moment(2024, 2, day * 3)):
            smudge_game(make_game)
    bob = Player.objects.get(name="Bob")
    every = list(
        RatingPoint.objects.filter(player=bob)
        .order_by("finished_at")
        .values_list("finished_at", "mu", "sigma")
    )
    drawn = player_stats(player=bob, span=Span(None)).history
    # Games on days 3, 6, ..., 27; the four moments are days 3, 11, 19 and 27, and each
    # draws the latest rating by then: days 3, 9, 18 and 27.
    assert len(every) == 9
    assert drawn == [every[0], every[2], every[5], every[8]]
    # Within the limit, every game is drawn.
    short = Span(None, date(2024, 2, 1), date(2024, 2, 10))
    assert player_stats(player=bob, span=short).history == every[:3]


def test_head_to_head(make_game, club):
    smudge_game(make_game)  # Bob beats Ann and Cy
    team_game(make_game)  # Ann and Cy beat Bob and Dee
    found = player_stats(player=Player.objects.get(name="Ann"), span=Span(None))
    by = {o.name: o for o in found.opponents}
    assert (by["Bob"].games, by["Bob"].partners, by["Bob"].wins_against, by["Bob"].losses_to) == (
        2,
        0,
        1,
        1,
    )
    assert (by["Cy"].games, by["Cy"].partners, by["Cy"].wins_against, by["Cy"].ahead) == (
        2,
        1,
        0,
        1,
    )
    assert (by["Dee"].games, by["Dee"].wins_against) == (1, 1)


# ---- The ledger ----


def test_the_ledger_nets_chips_and_payments(make_game, club, user):
    smudge_game(make_game)  # Ann -1, Bob +3, Cy -2
    team_game(make_game)  # Ann +1, Cy +1, Bob -1, Dee -1
    span = Span(None)
    found = ledger(club=club, span=span)
    # Ann is square (-1 + 1), and listed: she played.
    assert {b.name: b.balance for b in found.balances} == {"Ann": 0, "Bob": 2, "Cy": -1, "Dee": -1}
    assert {(p.name, q.name, n) for p, q, n in found.payments} == {
        ("Cy", "Bob", 1),
        ("Dee", "Bob", 1),
    }

    players = {p.name: p for p in Player.objects.all()}
    payment_record(
        club=club, span=span, payer=players["Cy"], payee=players["Bob"], chips=1, by=user
    )
    found = ledger(club=club, span=span)
    assert {b.name: b.balance for b in found.balances}["Cy"] == 0
    assert [(p.name, q.name, n) for p, q, n in found.payments] == [("Dee", "Bob", 1)]
    assert found.chip_value is None


def test_the_chip_value_comes_from_the_season_or_the_games(make_game, club):
    game = smudge_game(make_game)
    Game.objects.filter(pk=game.pk).update_counted(chip_value="0.25")
    assert str(ledger(club=club, span=Span(None)).chip_value) == "0.25"
    season = Season.objects.create(club=club, name="S", start=date(2000, 1, 1), chip_value="1.50")
    span = span_for(club=club, key=str(season.pk))
    assert str(ledger(club=club, span=span).chip_value) == "1.50"


@pytest.mark.parametrize(
    ("values", "shown"),
    [
        (["0.25", "0.25"], "0.25"),
        (["0.25", None], None),
        ([None, "0.25"], None),
        (["0.25", "0.50"], None),
        (["0.50", "0.25"], None),
        (["0.50", "0.25", "0.50"], None),
        (["0.25", "0.50", "0.25"], None),
        (["0.25", "0.25", "0.25"], "0.25"),
        ([None, None], None),
    ],
)
def test_the_games_chip_value_only_when_every_game_has_the_same(make_game, club, values, shown):
    for value in values:
        game = smudge_game(make_game)
        Game.objects.filter(pk=game.pk).update_counted(chip_value=value)
    found = ledger(club=club, span=Span(None)).chip_value
    assert (None if found is None else str(found)) == shown


def chip_value_by_hand(club, span: Span) -> str | None:
    """The span's chip value counted from its games one by one."""
    values = {
        str(v) for v in season_games(club=club, span=span).values_list("chip_value", flat=True)
    }
    return values.pop() if len(values) == 1 and "None" not in values else None


def test_the_chip_value_of_months_and_part_months_follows_every_change(make_game, club):
    games = {}
    for day, value in [(10, "0.25"), (28, "0.25"), (45, "0.50"), (62, None), (80, "0.25")]:
        with at(moment(2024, 3, 1) + timedelta(days=day - 1)):
            games[day] = smudge_game(make_game)
        Game.objects.filter(pk=games[day].pk).update_counted(chip_value=value)
    spans = [Span(None), Span(None, date(2024, 3, 20), date(2024, 3, 30))]
    spans += [Span(None, date(2024, 3, 1), d) for d in (date(2024, 3, 31), date(2024, 5, 10))]
    spans += [Span(None, date(2024, 4, 1), date(2024, 4, 30)), Span(None, date(2024, 5, 10))]
    spans += [Span(None, date(2024, 3, 15), date(2024, 4, 30)), Span(None, None, date(2024, 4, 1))]

    def shown() -> list[str | None]:
        rollups_match_the_games(club)
        found = [ledger(club=club, span=span).chip_value for span in spans]
        found = [None if value is None else str(value) for value in found]
        assert found == [chip_value_by_hand(club, span) for span in spans]
        return found

    assert shown() == [None, "0.25", "0.25", None, "0.50", "0.25", None, "0.25"]
    game_counts_set(game=games[62], counts=False)  # May's game without a chip value
    assert shown()[5] == "0.25"
    game_delete(game=games[45])
    assert shown() == [*["0.25"] * 4, None, *["0.25"] * 3]
    game_restore(game=games[45])
    assert shown()[0] is None
    games[45].delete()
    assert shown()[0] == "0.25"
    Game.objects.filter(pk=games[10].pk).update_counted(chip_value="0.50")
    assert shown() == [None, "0.25", None, None, None, "0.25", "0.25", None]


def test_rebuilding_from_the_hands_gives_the_same_rows(make_game, club):
    smudge_game(make_game)
    team_game(make_game)
    smudge_game(make_game, ("Dee", "Cy", "Bob"))

    def snapshot():
        lines = sorted(GameLine.objects.values_list("game_id", "player_id", *LINE_COMPARED[1:]))
        counts = sorted(GameCount.objects.values_list("game_id", *COUNT_COMPARED))
        ratings = sorted(RatingPoint.objects.values_list("game_id", "player_id", "mu", "sigma"))
        return lines, counts, ratings

    before = snapshot()
    stats_rebuild(club=club)
    assert snapshot() == before
    rollups_match_the_games(club)


def test_bids_are_listed_in_their_order():
    keys = ["moon", "10", "6x2", "6", "2", "7"]
    assert sorted(keys, key=bid_order) == ["2", "6", "6x2", "7", "10", "moon"]


def test_a_synthetic_league_is_legal_and_the_same_for_a_seed(capsys):
    from django.core.management import call_command

    from pitchkeeper.clubs.models import Club
    from pitchkeeper.games.models import Hand
    from pitchkeeper.games.replay import games_replayed

    call_command("generate_league", games=40, seed=5, club="One", years=1)
    call_command("generate_league", games=40, seed=5, club="Two", years=1)
    one, two = Club.objects.get(name="One"), Club.objects.get(name="Two")
    assert "40/40 games" in capsys.readouterr().out

    def hands(club):
        """The club's hands with players by name (the two clubs' ids differ)."""
        names = {pk: name for pk, name in club.players.values_list("pk", "name")}
        rows = Hand.objects.filter(game__club=club).order_by("game_id", "number")
        return [
            (number, kind, bid, made, names[pitcher] if pitcher else None, tuple(points))
            for number, kind, bid, made, pitcher, points in rows.values_list(
                "number", "kind", "bid", "made", "pitcher_id", "points"
            )
        ]

    assert hands(one) and hands(one) == hands(two)
    # Every game replays through the engine to what was stored.
    for state in games_replayed(games=one.games.all()):
        assert bool(state.game.finished_at) == state.result.finished
        assert [h.kind for h in state.hands] == [h.kind for h in state.result.hands]
    assert Season.objects.filter(club=one).exists()

    # Written in bulk, the derived rows are what the incremental path writes: the same
    # club's rows made again game by game, in the order the games finished, through the
    # receiver every saved game reaches.
    bulk = derived_rows(one)
    for model in DERIVED:
        model.objects.filter(club=one).delete()
    finished = one.games.exclude(finished_at=None)
    states = sorted(games_replayed(games=finished), key=lambda s: (s.game.finished_at, s.game.pk))
    for state in states:
        ids = {name: pk for pk, name in state.names.items()}
        stats_game_saved(game=state.game, record=state.record, result=state.result, ids=ids)
    assert derived_rows(one) == bulk


DERIVED = (
    GameLine,
    GameCount,
    MonthLine,
    MonthCount,
    MonthPair,
    MonthRun,
    MonthChipValue,
    TotalCount,
    RatingPoint,
)


def derived_rows(club) -> dict[str, list[tuple]]:
    """Every derived row of ``club``, by table, without ids; ratings to 9 places (the
    bulk and the incremental path add the same numbers in another order)."""
    rows = {}
    for model in DERIVED:
        columns = [f.attname for f in model._meta.concrete_fields if f.name != "id"]
        values = model.objects.filter(club=club).values_list(*columns)
        rows[model.__name__] = sorted(
            tuple(round(v, 9) if isinstance(v, float) else v for v in row) for row in values
        )
    return rows


def test_the_rebuild_command_fills_in_games_saved_before_the_statistics(make_game, club, capsys):
    from django.core.management import call_command

    smudge_game(make_game)
    GameLine.objects.all().delete()
    MonthLine.objects.all().delete()
    RatingPoint.objects.all().delete()
    assert board(club) == {}

    call_command("stats_rebuild")

    assert board(club)["Bob"].wins == 1 and RatingPoint.objects.count() == 3
    assert "Thursday table: 1 games" in capsys.readouterr().out


# ---- Settled per player (Contway) ----


def test_a_contway_team_game_pays_each_player_the_sides_amount(make_game, club):
    game = contway_game(make_game)

    assert game_state(game=game).result.settlement == {"Us": -2, "Them": 2}
    chips = dict(GameLine.objects.filter(game=game).values_list("player__name", "chips"))
    assert chips == {"Ann": -2, "Cy": -2, "Bob": 2, "Dee": 2}
    balances = {b.name: b.balance for b in ledger(club=club, span=Span(None)).balances}
    assert balances == {"Ann": -2, "Cy": -2, "Bob": 2, "Dee": 2}
    assert {s.name: s.chips for s in board(club).values()} == balances


def test_a_team_game_settled_per_side_still_shares_the_amount(make_game, club):
    team_game(make_game)  # Them, at zero, pay 2 between them.

    chips = dict(GameLine.objects.values_list("player__name", "chips"))
    assert chips == {"Ann": 1, "Cy": 1, "Bob": -1, "Dee": -1}


def test_the_migration_puts_shared_contway_rows_right_in_place(make_game, club):
    """Rows written when Contway's amount was shared (each player +-1) become each
    player's +-2, the rollups with them, exactly as stats_rebuild writes them."""
    from importlib import import_module

    from django.apps import apps

    migration = import_module("pitchkeeper.migrations.0009_ledger_per_player")
    game = contway_game(make_game)
    practice = contway_game(make_game)
    game_counts_set(game=practice, counts=False)
    rebuilt = (
        sorted(GameLine.objects.values_list("game", "player", "chips")),
        sorted(MonthLine.objects.values_list("player", "month", "chips")),
    )
    for old in (game, practice):
        for line in GameLine.objects.filter(game=old):
            share = 1 if line.chips > 0 else -1
            if line.counted:
                MonthLine.objects.filter(player=line.player, month=line.month).update(chips=share)
            GameLine.objects.filter(pk=line.pk).update(chips=share)
    assert ledger(club=club, span=Span(None)).balances[0].balance == 1

    migration.ledger_per_player(apps, None)

    assert (
        sorted(GameLine.objects.values_list("game", "player", "chips")),
        sorted(MonthLine.objects.values_list("player", "month", "chips")),
    ) == rebuilt
    stats_rebuild(club=club)
    assert sorted(GameLine.objects.values_list("game", "player", "chips")) == rebuilt[0]
    assert ledger(club=club, span=Span(None)).balances[0].balance == 2
