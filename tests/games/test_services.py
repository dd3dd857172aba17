from __future__ import annotations

import pytest
from django.db import IntegrityError, connection
from django.test.utils import CaptureQueriesContext

from pitchkeeper.clubs.models import Player
from pitchkeeper.clubs.players import roster
from pitchkeeper.games.hands import hand_delete, hand_edit, hand_record
from pitchkeeper.games.models import Game, Hand, Seat
from pitchkeeper.games.replay import game_state
from pitchkeeper.games.services import game_export, games_import
from pitchkeeper.rules import HandRecord, RuleError

pytestmark = pytest.mark.django_db


def played(pitcher: str, bid: int, high: str, low: str, jack: str | None, game: str | None):
    return HandRecord(
        pitcher=pitcher, bid=bid, points={"high": high, "low": low, "jack": jack, "game": game}
    )


def test_hand_record_saves_facts_and_derived_columns(make_game):
    state = make_game()

    state = hand_record(game=state.game, record=played("Bob", 2, "Bob", "Bob", None, "Cy"))

    hand = Hand.objects.get()
    assert hand.number == 1
    assert hand.kind == "played"
    assert hand.dealer.name == "Ann"
    assert hand.pitcher.name == "Bob"
    assert hand.made is True
    ids = {p.name: p.pk for p in Player.objects.all()}
    assert hand.points == {"high": ids["Bob"], "low": ids["Bob"], "jack": None, "game": ids["Cy"]}
    assert state.result.scores == {"Ann": 0, "Bob": 2, "Cy": 1, "Dee": 0}
    assert state.result.dealer == "Bob"


def test_illegal_hand_is_refused_and_nothing_saved(make_game):
    state = make_game()

    with pytest.raises(RuleError, match="bids go from 2 to 4") as caught:
        hand_record(game=state.game, record=played("Bob", 5, "Bob", "Bob", None, "Cy"))

    assert caught.value.field == "bid"
    assert caught.value.hand == 1
    assert not Hand.objects.exists()


def test_winning_hand_finishes_the_game_and_a_later_hand_is_refused(make_game):
    state = make_game()
    game = state.game
    # Bob smudges from zero: the game is over at once.
    hand_record(game=game, record=played("Bob", 4, "Bob", "Bob", "Bob", "Bob"))
    game.refresh_from_db()
    assert game.winner.name == "Bob"
    assert game.won_by == "smudge"
    assert game.finished_at is not None

    with pytest.raises(RuleError, match="won on hand 1"):
        hand_record(game=game, record=played("Cy", 2, "Cy", "Cy", None, None))
    assert Hand.objects.count() == 1


def test_deleting_the_winning_hand_reopens_the_game(make_game):
    game = make_game().game
    hand_record(game=game, record=played("Bob", 4, "Bob", "Bob", "Bob", "Bob"))

    state = hand_delete(game=game, number=1)

    game.refresh_from_db()
    assert state.result.winner is None
    assert (game.winner, game.won_by, game.finished_at) == (None, "", None)
    assert not Hand.objects.exists()


def test_editing_an_early_hand_replays_the_dealers_of_later_hands(make_game):
    game = make_game().game
    hand_record(game=game, record=HandRecord(misdeal=True))
    hand_record(game=game, record=played("Cy", 2, "Cy", "Cy", None, None))
    assert [h.dealer.name for h in Hand.objects.order_by("number")] == ["Ann", "Bob"]

    # The first hand turns out to have been all passed: Ann deals again.
    all_passed = HandRecord(auction=(("Bob", None), ("Cy", None), ("Dee", None), ("Ann", None)))
    state = hand_edit(game=game, number=1, record=all_passed)

    hands = list(Hand.objects.order_by("number"))
    assert [(h.kind, h.dealer.name) for h in hands] == [("redeal", "Ann"), ("played", "Ann")]
    assert state.result.scores["Cy"] == 2


def test_an_edit_that_breaks_a_later_hand_is_refused_with_its_number(make_game):
    game = make_game().game
    hand_record(game=game, record=HandRecord(misdeal=True))
    auction = (("Cy", None), ("Dee", 2), ("Ann", None), ("Bob", None))
    hand_record(game=game, record=HandRecord(auction=auction, points=_points("Dee")))
    before = list(Hand.objects.values_list("kind", "dealer", "auction"))

    # Ann keeps the deal after an all-pass, so hand 2's auction would be out of order.
    all_passed = HandRecord(auction=(("Bob", None), ("Cy", None), ("Dee", None), ("Ann", None)))
    with pytest.raises(RuleError, match="Bob bids before Cy") as caught:
        hand_edit(game=game, number=1, record=all_passed)

    assert caught.value.hand == 2
    assert list(Hand.objects.values_list("kind", "dealer", "auction")) == before


def _points(side: str) -> dict[str, str | None]:
    return {"high": side, "low": side, "jack": None, "game": None}


def test_deleting_a_middle_hand_renumbers_the_rest(make_game):
    game = make_game().game
    for _ in range(3):
        hand_record(game=game, record=HandRecord(misdeal=True))
    hand_record(game=game, record=played("Ann", 2, "Ann", "Ann", None, None))

    hand_delete(game=game, number=2)

    hands = list(Hand.objects.order_by("number"))
    assert [h.number for h in hands] == [1, 2, 3]
    assert [h.dealer.name for h in hands] == ["Ann", "Bob", "Cy"]
    assert hands[2].pitcher.name == "Ann"


def test_missing_hand_number_is_an_error(make_game):
    game = make_game().game
    with pytest.raises(RuleError, match="no hand 3"):
        hand_delete(game=game, number=3)


def test_team_game_stores_sides_as_team_names(make_game):
    state = make_game("partnership", teams={"Us": ["Ann", "Cy"], "Them": ["Bob", "Dee"]})

    state = hand_record(game=state.game, record=played("Bob", 2, "Dee", "Bob", "Ann", "Them"))

    hand = Hand.objects.get()
    assert hand.points == {"high": "Them", "low": "Them", "jack": "Us", "game": "Them"}
    assert state.result.scores == {"Us": 1, "Them": 3}
    assert game_state(game=state.game).result == state.result


def test_game_screen_queries_do_not_grow_with_the_game(make_game, django_assert_num_queries):
    game = make_game().game
    for _ in range(2):
        hand_record(game=game, record=HandRecord(misdeal=True))
    with CaptureQueriesContext(connection) as short:
        game_state(game=game)
    for _ in range(20):
        hand_record(game=game, record=HandRecord(misdeal=True))
    with django_assert_num_queries(len(short.captured_queries)):
        game_state(game=game)


def test_hand_submit_queries_do_not_grow_with_the_game(make_game):
    game = make_game().game
    hand_record(game=game, record=HandRecord(misdeal=True))
    with CaptureQueriesContext(connection) as short:
        hand_record(game=game, record=HandRecord(misdeal=True))
    for _ in range(20):
        hand_record(game=game, record=HandRecord(misdeal=True))
    with CaptureQueriesContext(connection) as long:
        hand_record(game=game, record=HandRecord(misdeal=True))
    assert len(long.captured_queries) == len(short.captured_queries)


def test_import_then_export_round_trips(club, game_data):
    data = game_data()

    [game] = games_import(club=club, games=[data])
    exported = game_export(game=game)

    assert exported["id"] == game.pk
    assert exported["players"] == data["players"]
    assert exported["hands"] == data["hands"]
    assert exported["result"]["scores"] == {"Ann": -3, "Bob": -2, "Cy": 2, "Dee": 1}
    [again] = games_import(club=club, games=[exported])
    assert {**game_export(game=again), "id": game.pk} == exported


def test_import_reuses_roster_players_ignoring_case(club, game_data):
    Player.objects.create(club=club, name="ANN")

    [game] = games_import(club=club, games=[game_data()])

    assert Player.objects.count() == 4
    assert [s.player.name for s in game.seats.all()] == ["ANN", "Bob", "Cy", "Dee"]


def test_import_is_all_or_nothing(club, game_data):
    bad = game_data(hands=[{"auction": [["Bob", 3], ["Cy", 2], ["Dee", None], ["Ann", None]]}])

    with pytest.raises(RuleError) as caught:
        games_import(club=club, games=[game_data(), bad])

    assert (
        str(caught.value)
        == "game 2: hand 1: Cy bid 2 but Bob already bid 3; each bid must be higher"
    )
    assert not Game.objects.exists()
    assert not Player.objects.exists()


def test_roster_refuses_an_empty_name(club):
    with pytest.raises(RuleError, match="non-empty"):
        roster(["  "], club=club)


def test_database_refuses_duplicate_hand_numbers(make_game):
    game = make_game().game
    hand_record(game=game, record=HandRecord(misdeal=True))
    hand = Hand.objects.get()
    hand.pk = None
    with pytest.raises(IntegrityError):
        hand.save()


def test_database_refuses_a_second_player_of_the_same_name_in_other_case(club):
    Player.objects.create(club=club, name="Ann")
    with pytest.raises(IntegrityError):
        Player.objects.create(club=club, name="ann")


def test_database_refuses_a_player_seated_twice(make_game):
    game = make_game().game
    seat = Seat.objects.filter(game=game).first()
    with pytest.raises(IntegrityError):
        Seat.objects.create(game=game, player=seat.player, position=6)


def test_a_game_stored_with_the_dropped_low_to_setting_loads_plays_and_imports(
    make_game, club, game_data
):
    # Games saved while the ruleset had low_to keep it in their stored rules.
    game = make_game("auction-pitch").game
    game.rules = {**game.rules, "low_to": "capturer"}
    game.save(update_fields=["rules"])

    state = hand_record(game=game, record=played("Bob", 2, "Bob", "Cy", None, "Cy"))

    # Bob bid 2 and took High only; Low is Cy's, as the scorekeeper recorded it.
    assert state.result.scores == {"Ann": 0, "Bob": -2, "Cy": 2, "Dee": 0}
    assert game_state(game=Game.objects.get(pk=game.pk)).record.rules.preset == "auction-pitch"
    assert "low_to" not in game_export(game=game)["rules"]
    record = game_data()
    [imported] = games_import(
        club=club, games=[{**record, "rules": {"preset": "setback", "low_to": "holder"}}]
    )
    assert "low_to" not in imported.rules
