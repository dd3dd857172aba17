"""The words the screens use for the engine's terms: points, bids, moon bids and the
presets with their groups, in the user's language."""

from __future__ import annotations

import json

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext_lazy

from pitchkeeper.rules import (
    GROUPS,
    PRESET_INFO,
    PRESETS,
    Bid,
    Category,
    Ruleset,
)
from pitchkeeper.rules import ruleset as _ruleset
from pitchkeeper.rules.bids import DOUBLED

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


def category_label(category: Category) -> str:
    if category.key in CATEGORY_LABELS and category.label == STANDARD_LABELS.get(
        category.key, category.label
    ):
        return str(CATEGORY_LABELS[category.key])
    return str(OTHER_LABELS.get(category.label, category.label))


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


# The presets' names, and a line each on how they play, for picking one at a new game,
# in the engine's words (presets.PRESET_INFO) made translatable; a preset the engine
# adds later shows its own words until it is added here.
PRESET_LABELS = {
    **{name: info.label for name, info in PRESET_INFO.items()},
    "setback": gettext_lazy("Setback"),
    "auction-pitch": gettext_lazy("Auction Pitch"),
    "partnership": gettext_lazy("Partnership"),
    "pitch-with-bidding": gettext_lazy("Pitch with bidding"),
    "blind-all-fours": gettext_lazy("Blind All Fours"),
    "ten-point": gettext_lazy("Ten-point (Oklahoma)"),
    "campbell-ten": gettext_lazy("Campbell ten-point"),
    "campbell-eleven": gettext_lazy("Campbell eleven-point"),
    "razzle-dazzle": gettext_lazy("Razzle-Dazzle"),
    "wahoo-ten": gettext_lazy("Wahoo ten-point"),
    "susqy-river": gettext_lazy("Susqy River ten-point"),
    "roadhouse": gettext_lazy("Roadhouse"),
    "cell": gettext_lazy("Cell (Kentucky seven-point)"),
    "seven-point": gettext_lazy("Seven-point (Nebraska)"),
    "seventeen-point": gettext_lazy("Seventeen-point"),
    "maryland-jack": gettext_lazy("Maryland jack"),
    "high-five": gettext_lazy("High five"),
    "partnership-draw": gettext_lazy("Partnership draw (New Yorker)"),
    "nine-five": gettext_lazy("Nine-five"),
    "nine-five-hotshot": gettext_lazy("Nine-five, hotshot"),
    "nine-five-connecticut": gettext_lazy("Nine-five (northwest Connecticut)"),
    "five-nine-connecticut": gettext_lazy("Five-nine (northeast Connecticut)"),
    "bonanza": gettext_lazy("Bonanza"),
    "contway-six": gettext_lazy("Contway six-point"),
    "five-point-joker": gettext_lazy("Five-point joker pitch"),
    "six-point-joker": gettext_lazy("Six-point joker pitch"),
    "smear": gettext_lazy("Smear (5-point)"),
    "partnership-21": gettext_lazy("Partnership to 21"),
    "plain-auction-pitch": gettext_lazy("Plain auction pitch"),
    "chicago-pitch": gettext_lazy("Chicago pitch"),
    "three-pitch": gettext_lazy("Three of trumps pitch"),
    "off-three-pitch": gettext_lazy("Off-three pitch"),
    "all-fours": gettext_lazy("All fours (pub game)"),
}


PRESET_DESCRIPTIONS = {
    **{name: info.description for name, info in PRESET_INFO.items()},
    "setback": gettext_lazy("Bids 2–4, to 7; a made bid of 4 wins at once; losers pay chips."),
    "auction-pitch": gettext_lazy(
        "Bids 1–4, to 7; the dealer must bid if all pass; only the bidder goes out."
    ),
    "partnership": gettext_lazy(
        "Teams, partners sitting opposite; bids 2–4 or a smudge of 5, to 11."
    ),
    "pitch-with-bidding": gettext_lazy(
        "Open bids; each Jack 1, Queen 2, King 3, Ace 4 taken counts; the highest total wins."
    ),
    "blind-all-fours": gettext_lazy("No bidding: the player left of the dealer pitches; to 11."),
    "ten-point": gettext_lazy(
        "Jick, two jokers and a Three worth 3; bids 1–9, doubled or the moon; to 52."
    ),
    "campbell-ten": gettext_lazy(
        "Teams of two; the Two is its player's point; bids 5–9 or the moon for 10; to 32."
    ),
    "campbell-eleven": gettext_lazy(
        "Campbell ten-point with the off-ace; bids 1–11; the moon wins or loses; to 51."
    ),
    "razzle-dazzle": gettext_lazy(
        "Ten-point where the pitcher calls a partner each hand; scores stay your own."
    ),
    "wahoo-ten": gettext_lazy(
        "Ten-point with bids from 5; the dealer is dumped a 5 when all pass."
    ),
    "susqy-river": gettext_lazy(
        "Each for himself; the Five is worth 5 and the last trick 1; to 50."
    ),
    "roadhouse": gettext_lazy("Bids 2–4 or the moon for 15 (every trick); to 15, win by two."),
    "cell": gettext_lazy("Seven points: High, Low, Jack, jick, two jokers, Game; bids 3–7; to 21."),
    "seven-point": gettext_lazy(
        "Ten-point without the Three: bids 1–6, doubled or the moon; to 21."
    ),
    "seventeen-point": gettext_lazy(
        "Ten-point with the Five and off-five worth 5 instead of the Three; to 52."
    ),
    "maryland-jack": gettext_lazy(
        "The bidder scores only its bid (+1 if exact); others score only if it is set."
    ),
    "high-five": gettext_lazy(
        "Teams of two; Five and off-five worth 5; bids 6–16 or the moon; to 52."
    ),
    "partnership-draw": gettext_lazy(
        "Teams; bids 2–3, or 4 to shoot the moon and win or lose the game; to 15."
    ),
    "nine-five": gettext_lazy(
        "Teams; the Nine is worth 9 and the Five 5; over 100 on a made bid; out at -100."
    ),
    "nine-five-hotshot": gettext_lazy(
        "Nine-five with bids 9–17 and the hotshot, 18, that wins or loses the game."
    ),
    "nine-five-connecticut": gettext_lazy(
        "Nine-five to 100 by anybody; when all pass the deal moves on."
    ),
    "five-nine-connecticut": gettext_lazy(
        "Bids 5–18 or double-18 (36, every trick); over 100 on a made bid."
    ),
    "bonanza": gettext_lazy(
        "Teams; 18 points with the Nine and Five; the moon wins or loses; to 64."
    ),
    "contway-six": gettext_lazy(
        "Teams; jick and a joker; scores never below 0; losers pay for their hickeys."
    ),
    "five-point-joker": gettext_lazy(
        "Auction pitch with a joker worth a point: five points a hand; to 11."
    ),
    "six-point-joker": gettext_lazy(
        "Auction pitch with two jokers worth a point each: six points a hand; to 11."
    ),
    "smear": gettext_lazy(
        "High, Low, Jack, jick and Game; bids 2–5; the highest score wins, ties to the bidder."
    ),
    "partnership-21": gettext_lazy("Teams; bids 1–4 or a smudge of 5 (every trick); to 21."),
    "plain-auction-pitch": gettext_lazy(
        "Bids 1–4, to 11; a made 4 wins at once unless in the hole; all pass: redeal."
    ),
    "chicago-pitch": gettext_lazy(
        "Auction pitch where the Five of trumps is worth 5; bids 1–9; to 11."
    ),
    "three-pitch": gettext_lazy(
        "Auction pitch where the Three of trumps is worth 3; bids 1–7; to 11."
    ),
    "off-three-pitch": gettext_lazy(
        "Auction pitch where the off-three is worth 3, the Three of trumps nothing; to 11."
    ),
    "all-fours": gettext_lazy(
        "Two teams, no bidding, to 11; a chip from the others for taking all four points."
    ),
}


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
    return str(PRESET_LABELS.get(preset, preset))


# A sample count for each plural category the browser may name (Intl.PluralRules):
# the catalog's own plural formula then picks the form for that category.
PLURAL_SAMPLES = {"one": 1, "few": 2, "many": 5, "other": 2}


def offline_phrases() -> str:
    """What the game screen says of hands kept on the phone, in the user's language, for
    the script that keeps them: {n}, {dealer} and {message} are filled in there."""
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
        "conflict": _("Hand %(number)s from this phone was not recorded: %(message)s")
        % {**number, "message": "{message}"},
        "incomplete": _(
            "Not kept: the entry is not complete. Check the pitcher and the bid, and who "
            "took each point."
        ),
        "later": _(
            "The server did not take the waiting hands just now; they stay on this phone "
            "and are sent again shortly."
        ),
        "nostorage": _(
            "This browser cannot keep hands on this phone (a private window?); save them "
            "while the network is there."
        ),
    }
    return json.dumps(phrases, ensure_ascii=False)
