"""The screens' words for the engine's terms: a point named from its key alone, and who
took the points of a hand."""

from __future__ import annotations

import pytest
from django.utils import translation

from pitchkeeper.games.hand_words import entered_row, history
from pitchkeeper.games.hands import hand_record
from pitchkeeper.games.words import STANDARD_LABELS, category_label, point_name
from pitchkeeper.rules import PRESETS, HandRecord


def test_a_point_is_named_from_its_key_as_the_game_screen_names_it():
    with translation.override("ru"):
        for rules in PRESETS.values():
            for category in rules.categories:
                if category.label == STANDARD_LABELS.get(category.key, category.label):
                    assert point_name(category.key) == category_label(category)
        assert point_name("high") == "Старший"
    # A preset that renames a ready-made point (Campbell's High joker) does not rename it
    # in the statistics, which gather every ruleset's.
    assert point_name("big_joker") == "Big joker"
    assert point_name("a_rulesets_own") == "a_rulesets_own"


@pytest.mark.django_db
def test_a_hand_replayed_and_as_entered_is_put_in_the_same_words(make_game):
    state = make_game("pitch-with-bidding", ("Ann", "Bob"))
    counts = {"jacks": {"Ann": 2, "Bob": 0}, "queens": {"Ann": 0, "Bob": 0}}
    points = {"high": "Ann", "low": "Bob", **counts, "kings": {}, "aces": {"Ann": 1}}
    state = hand_record(game=state.game, record=HandRecord(pitcher="Ann", bid=2, points=points))
    change = state.game.changes.get()

    replayed = history(state)[0]
    entered = entered_row(change.after, state.record.rules, number=1)
    shown = ("number", "dealer", "kind", "pitcher", "bid", "points", "revoked", "forced")
    assert [getattr(entered, name) for name in shown] == [getattr(replayed, name) for name in shown]
    listed = [f"{taken.label}: {taken.went_to}" for taken in replayed.points]
    assert listed == [
        "High: Ann",
        "Low: Bob",
        "Jacks: Ann 2",
        "Queens: —",
        "Kings: —",
        "Aces: Ann 1",
    ]
