"""The screens' words for the engine's terms: a point named from its key alone."""

from __future__ import annotations

from django.utils import translation

from pitchkeeper.games.words import STANDARD_LABELS, category_label, point_name
from pitchkeeper.rules import PRESETS


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
