"""The words the screens use for the engine's terms: points, bids, moon bids, the
presets with their groups and the engine's refusals, in the user's language."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from django.utils.functional import lazy
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext_lazy

from pitchkeeper.games.chips import CHIP_PHRASES
from pitchkeeper.rules import (
    GROUPS,
    PRESET_INFO,
    PRESETS,
    Bid,
    Category,
    RuleError,
    Ruleset,
    all_bids,
)
from pitchkeeper.rules import ruleset as _ruleset
from pitchkeeper.rules.bids import DOUBLED
from pitchkeeper.rules.errors import REFUSALS

# The table's own words for the points (Russian from seed 000, Norwegian from seed 001).
# In the "point" context: the Game point is not the game being played (Гейм, not Партия).
CATEGORY_LABELS = {
    "high": pgettext_lazy("point", "High"),
    "low": pgettext_lazy("point", "Low"),
    "jack": pgettext_lazy("point", "Jack"),
    "game": pgettext_lazy("point", "Game"),
    "jacks": pgettext_lazy("point", "Jacks"),
    "queens": pgettext_lazy("point", "Queens"),
    "kings": pgettext_lazy("point", "Kings"),
    "aces": pgettext_lazy("point", "Aces"),
    # Seed 004's points: the jick, jokers, the trumps worth more than one.
    "off_jack": pgettext_lazy("point", "Off-jack"),
    "joker": pgettext_lazy("point", "Joker"),
    "big_joker": pgettext_lazy("point", "Big joker"),
    "little_joker": pgettext_lazy("point", "Little joker"),
    "jokers": pgettext_lazy("point", "Jokers"),
    "two": pgettext_lazy("point", "Two"),
    "three": pgettext_lazy("point", "Three"),
    "off_three": pgettext_lazy("point", "Off-three"),
    "five": pgettext_lazy("point", "Five"),
    "off_five": pgettext_lazy("point", "Off-five"),
    "nine": pgettext_lazy("point", "Nine"),
    "ten": pgettext_lazy("point", "Ten"),
    "off_ace": pgettext_lazy("point", "Off-ace"),
    "last_trick": pgettext_lazy("point", "Last trick"),
}


# The engine's own label of each ready-made point: a category that keeps it is worded
# as above; one a preset or an imported game relabels is worded by OTHER_LABELS, or as
# it comes.
STANDARD_LABELS = {
    category.key: category.label
    for category in vars(_ruleset).values()
    if isinstance(category, Category)
}


OTHER_LABELS = {
    # Campbell ten-point's names for the big and little jokers.
    "High joker": pgettext_lazy("point", "High joker"),
    "Low joker": pgettext_lazy("point", "Low joker"),
}


# What "nobody took it" means for a point: a card point was not dealt; Game was tied.
NOT_DEALT = gettext_lazy("not dealt")


NOBODY_WORDS = {
    "game": gettext_lazy("tied"),
    **{
        key: NOT_DEALT
        for key in CATEGORY_LABELS
        if key not in ("high", "low", "game", "last_trick", "jacks", "queens", "kings", "aces")
    },
}


# The moon bids of the presets (shoot the moon, nine-five's smudges, hotshot, double-18).
MOON_LABELS = {
    "Shoot the moon": pgettext_lazy("bid", "Shoot the moon"),
    "Smudge": pgettext_lazy("bid", "Smudge"),
    "Blind smudge": pgettext_lazy("bid", "Blind smudge"),
    "Hotshot": pgettext_lazy("bid", "Hotshot"),
    "Double 18": pgettext_lazy("bid", "Double 18"),
}


# A point as the engine's refusals name it, by its label, in the user's language.
POINT_WORDS = {
    **{label: CATEGORY_LABELS[key] for key, label in STANDARD_LABELS.items()},
    **OTHER_LABELS,
}


def category_label(category: Category) -> str:
    """A point's name in the reader's language: the table's word for a ready-made
    point, a preset's own name for one it relabels."""
    if category.key in CATEGORY_LABELS and category.label == STANDARD_LABELS.get(
        category.key, category.label
    ):
        return str(CATEGORY_LABELS[category.key])
    return str(OTHER_LABELS.get(category.label, category.label))


# Every point a preset has, by key, the ready-made one where a preset relabels it: what
# a point is called where only its key is known (the statistics, across rulesets).
KNOWN_POINTS = {
    **{c.key: c for rules in PRESETS.values() for c in rules.categories},
    **{c.key: c for c in vars(_ruleset).values() if isinstance(c, Category)},
}


def point_name(key: str) -> str:
    """A point's name from its key alone, as category_label words it; a key no preset
    has, by the table's word for it, or as it is (a ruleset's own point)."""
    category = KNOWN_POINTS.get(key)
    return str(CATEGORY_LABELS.get(key, key)) if category is None else category_label(category)


def points_taken(points: Mapping[str, Any], rules: Ruleset) -> list[tuple[str, str]]:
    """Who took each point of a hand, in words: ``(point, who)``, as the hand list and
    the history of changes both show a hand. ``points`` as the engine and the record
    keep them: a side (None when nobody took it), or each side's count. In the ruleset's
    order, whatever order they were stored in (PostgreSQL's JSON keeps its own)."""
    labels = {category.key: category_label(category) for category in rules.categories}
    order = {key: index for index, key in enumerate(labels)}
    words = []
    for key, went_to in sorted(points.items(), key=lambda item: order.get(item[0], len(order))):
        if isinstance(went_to, Mapping):
            who = ", ".join(f"{side} {count}" for side, count in went_to.items()) or "—"
        else:
            who = went_to or str(NOBODY_WORDS.get(key, "—"))
        words.append((labels.get(key, key), who))
    return words


def bid_label(rules: Ruleset, bid: Bid) -> str:
    """A bid in words: 3, "6 for 12" for six doubled, a moon bid by its name."""
    if isinstance(bid, str):
        moon = rules.moon(bid)
        if moon is not None:
            return str(MOON_LABELS.get(moon.label, moon.label))
        doubled = DOUBLED.fullmatch(bid)
        if doubled:
            number = int(doubled[1])
            return _("%(bid)d for %(doubled)d") % {"bid": number, "doubled": 2 * number}
    return str(bid)


# The groups the new-game screen lists the presets in, in presets.GROUPS' order.
GROUP_LABELS = {
    **GROUPS,
    "classic": pgettext_lazy("presets", "Classic"),
    "partnership": pgettext_lazy("presets", "Partnership"),
    "ten-point": pgettext_lazy("presets", "10-point family"),
    "nine-five": pgettext_lazy("presets", "Nine-five family"),
    "other": pgettext_lazy("presets", "Other"),
}


def preset_groups() -> list[tuple[str, str, list[str]]]:
    """The presets by group, in GROUPS' order: (group, its name, its presets)."""
    return [
        (
            group,
            str(GROUP_LABELS[group]),
            [name for name in PRESETS if PRESET_INFO[name].group == group],
        )
        for group in GROUPS
    ]


def preset_label(preset: str) -> str:
    """A preset's name in the user's language, from its Preset record (where it is
    marked for translation); a key the engine no longer knows is shown as it is."""
    info = PRESET_INFO.get(preset)
    return _(info.label) if info else preset


def preset_description(preset: str) -> str:
    """A preset's line on how it plays, in the user's language."""
    return _(PRESET_INFO[preset].description)


# For the new-game form's choices, made when the form class is: each name is put into
# the user's language when it is shown.
preset_label_lazy = lazy(preset_label, str)


# A sample count for each plural category the browser may name (Intl.PluralRules):
# the catalog's own plural formula then picks the form for that category.
PLURAL_SAMPLES = {"one": 1, "few": 2, "many": 5, "other": 2}


def offline_phrases(rules: Ruleset) -> str:
    """What the game screen says of hands kept on the phone, in the user's language, for
    the script that keeps them: {n}, {dealer}, {message} and {refusal} are filled in there.
    With them the words of every refusal of the engine (``refusals``, as REFUSALS has
    them, translated) and the words of the bids and points of the game's ``rules`` that
    a refusal may name (``params``, by parameter), for the phone's engine's refusals."""
    waiting = {
        category: ngettext(
            "%(count)s hand waiting to be sent", "%(count)s hands waiting to be sent", sample
        )
        % {"count": "{n}"}
        for category, sample in PLURAL_SAMPLES.items()
    }
    number = {"number": "{n}"}
    phrases = {
        "waiting": waiting,
        "offline": _(
            "No connection: hands saved now are kept on this phone and sent when it returns."
        ),
        "hand": _("Hand %(number)s") % number,
        "deals": _("Hand %(number)s: %(dealer)s deals") % {**number, "dealer": "{dealer}"},
        "roles": _("%(dealer)s deals, %(first)s bids first.")
        % {"dealer": "{dealer}", "first": "{first}"},
        "conflict": _("Hand %(number)s from this phone was not recorded: %(message)s")
        % {**number, "message": "{message}"},
        "incomplete": _(
            "Not kept: the entry is not complete. Check the pitcher and the bid, and who "
            "took each point."
        ),
        "refused": _("Not kept: %(refusal)s") % {"refusal": "{refusal}"},
        "refusals": {code: _(text) for code, text in REFUSALS.items()},
        "params": refusal_params(rules),
        "later": _(
            "The server did not take the waiting hands just now; they stay on this phone "
            "and are sent again shortly."
        ),
        "nostorage": _(
            "This browser cannot keep hands on this phone (a private window?); save them "
            "while the network is there."
        ),
        "undo": _("The undo of hand %(number)s from this phone was not done: %(message)s")
        % {**number, "message": "{message}"},
        "member": _(
            "Hand %(number)s was entered by %(member)s: it waits on this phone until "
            "%(member)s signs in here again."
        )
        % {**number, "member": "{member}"},
        "signedout": _("Signed out: the waiting hands are sent once %(member)s signs in again.")
        % {"member": "{member}"},
        "forbidden": _(
            "Hand %(number)s from this phone was not recorded: the account signed in here "
            "may not score this game."
        )
        % number,
        "discard": _(
            "Discard hand %(number)s? It is kept on this phone only and is recorded nowhere."
        )
        % number,
        "over": _("%(winner)s wins") % {"winner": "{winner}"},
        "drawn": _("The game is over: nobody wins."),
        # The settlement's words of every screen, a form for each plural category.
        "pays": {
            category: CHIP_PHRASES["pays"]
            % {"count": sample, "chips": "{n}", "payer": "{payer}", "payee": "{payee}"}
            for category, sample in PLURAL_SAMPLES.items()
        },
    }
    return json.dumps(phrases, ensure_ascii=False)


# The parameters of a refusal that are a bid, worded by bid_label.
BID_PARAMS = frozenset({"bid", "high_bid", "moons"})


def refusal_params(rules: Ruleset) -> dict[str, dict[str, str]]:
    """The words of the parameters of a refusal under ``rules`` that are not shown as
    they are, by parameter and value, as refusal_text words them: each bid that has a
    name or is doubled, each point and each preset."""
    bids = {str(bid): bid_label(rules, bid) for bid in all_bids(rules) if isinstance(bid, str)}
    points = {c.label: str(POINT_WORDS.get(c.label, c.label)) for c in rules.categories}
    presets = {name: preset_label(name) for name in PRESETS}
    return {**dict.fromkeys(BID_PARAMS, bids), "point": points, "preset": presets}


def refusal_text(error: RuleError, rules: Ruleset | None = None, *, numbered: bool = False) -> str:
    """The engine's refusal in the user's language: the words of its code translated,
    the bids (under ``rules``), points and presets it names in words. An error raised
    with words already in the user's language (no code) is shown as it is. ``numbered``:
    with the number of the hand it is about first, as ``str(error)`` has it."""
    text = error.message
    if error.code is not None:
        words = {name: _param_words(name, value, rules) for name, value in error.params.items()}
        text = _(REFUSALS[error.code]) % words
    if numbered and error.hand is not None:
        return _("hand %(number)d: %(refusal)s") % {"number": error.hand, "refusal": text}
    return text


def _param_words(name: str, value: object, rules: Ruleset | None) -> object:
    if isinstance(value, RuleError):
        return refusal_text(value, rules)
    if isinstance(value, tuple):
        return ", ".join(str(_param_words(name, item, rules)) for item in value)
    if name in BID_PARAMS and rules is not None and isinstance(value, int | str):
        return bid_label(rules, value)
    if name == "point":
        return str(POINT_WORDS.get(str(value), value))
    if name == "preset":
        return preset_label(str(value))
    return value
