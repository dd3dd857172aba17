"""The presets: each written once as a Preset (its key, name, group, description, seed
and rules), in the order the new-game screen lists them.

Every preset is settings only: the engine never looks at a preset's name. Where the
seeds leave a value open the choice is the common one, and docs/rules.md says which.
"""

from __future__ import annotations

from dataclasses import replace

from .errors import gettext_noop
from .ruleset import (
    FIVE,
    GAME,
    HIGH,
    JACK,
    LOW,
    OFF_THREE,
    THREE,
    Category,
    Group,
    Preset,
    Ruleset,
)
from .variants import VARIANTS

# The groups the new-game screen lists the presets in, in this order.
GROUPS: dict[Group, str] = {
    "classic": "Classic",
    "partnership": "Partnership",
    "ten-point": "10-point family",
    "nine-five": "Nine-five family",
    "other": "Other",
}


HLJ = (HIGH, LOW, JACK)

# Seed 004, Auction pitch, as it gives it: "минимальная ставка — 1", the bid of four
# is the smudge, "если никто не делает ставку, раздача отменяется и тот же раздающий
# раздаёт снова", the pitcher counted first and then High, Low, Jack, Game; and its
# minor variant, the smudge that "если не «in the hole» … автоматически выигрывает
# всю игру". The game is to 11: the other targets are "не до 11 очков, а до 7, 9, 15
# или 21".
PLAIN_AUCTION_PITCH = Ruleset(
    target=11,
    min_bid=1,
    dealer_may_steal=False,
    smudge="wins_game",
)

PRESET_LIST: tuple[Preset, ...] = (
    Preset(
        "setback",
        gettext_noop("Setback"),
        "classic",
        gettext_noop("Bids 2–4, to 7; a made bid of 4 wins at once; losers pay chips."),
        "seed 000",
        Ruleset(
            smudge="wins_game",
            settlement="chips",
        ),
    ),
    Preset(
        "auction-pitch",
        gettext_noop("Auction Pitch"),
        "classic",
        gettext_noop("Bids 1–4, to 7; the dealer must bid if all pass; only the bidder goes out."),
        "seed 001",
        Ruleset(
            min_players=2,
            min_bid=1,
            all_pass="dealer_forced",
            winner="bidder_out",
        ),
    ),
    Preset(
        "partnership",
        gettext_noop("Partnership"),
        "partnership",
        gettext_noop("Teams, partners sitting opposite; bids 2–4 or a smudge of 5, to 11."),
        "seeds 001 and 004, Partnership pitch",
        Ruleset(
            min_players=4,
            max_players=6,
            partnership=True,
            target=11,
            max_bid=5,
            # Seed 001: the steal only over 1, 2 or 3 ("Hvis andre spillere har bud 1, 2
            # eller 3 ... kan forhandleren «stjele budet»"); seed 000: a four cannot be taken.
            steal_up_to=3,
            all_pass="dealer_forced",
            smudge="all_tricks",
        ),
    ),
    Preset(
        "pitch-with-bidding",
        gettext_noop("Pitch with bidding"),
        "other",
        gettext_noop(
            "Open bids; each Jack 1, Queen 2, King 3, Ace 4 taken counts; the highest total wins."
        ),
        "seed 003",
        Ruleset(
            min_bid=1,
            max_bid=None,
            dealer_may_steal=False,
            # Seed 003 is not a pitch game ("не имеет ничего общего с игрой Питч"): its
            # "Валет" is any Jack, counted per card like the other court cards.
            categories=(
                HIGH,
                LOW,
                Category("jacks", "Jacks", kind="count", max_count=4),
                Category("queens", "Queens", value=2, kind="count", max_count=4),
                Category("kings", "Kings", value=3, kind="count", max_count=4),
                Category("aces", "Aces", value=4, kind="count", max_count=4),
            ),
            winner="highest_total",
            # "очки … за старшего или младшего козыря или Валетов"
            tiebreak=("high", "low", "jacks"),
        ),
    ),
    Preset(
        "blind-all-fours",
        gettext_noop("Blind All Fours"),
        "classic",
        gettext_noop("No bidding: the player left of the dealer pitches; to 11."),
        "seed 004, Pitch or blind all fours",
        Ruleset(
            target=11,
            bidding=False,
            min_bid=1,
            max_bid=None,
            dealer_may_steal=False,
        ),
    ),
    *VARIANTS,
    # --- The readings and variants added for the seeds' second look.
    # Seed 004's partnership pitch with seeds 001 and 004's lowest bid: "минимальная
    # ставка — 1", played "до более высокого количества очков, например 21".
    Preset(
        "partnership-21",
        gettext_noop("Partnership to 21"),
        "partnership",
        gettext_noop("Teams; bids 1–4 or a smudge of 5 (every trick); to 21."),
        "seed 004, Partnership pitch; seed 001 for the bids",
        Ruleset(
            min_players=4,
            max_players=6,
            partnership=True,
            target=21,
            min_bid=1,
            max_bid=5,
            # Seed 001: the steal only over 1, 2 or 3 ("Hvis andre spillere har bud 1, 2
            # eller 3 ... kan forhandleren «stjele budet»"); seed 000: a four cannot be taken.
            steal_up_to=3,
            all_pass="dealer_forced",
            smudge="all_tricks",
        ),
    ),
    Preset(
        "plain-auction-pitch",
        gettext_noop("Plain auction pitch"),
        "classic",
        gettext_noop(
            "Bids 1–4, to 11; a made 4 wins at once unless in the hole; all pass: redeal."
        ),
        "seed 004, Auction pitch",
        PLAIN_AUCTION_PITCH,
    ),
    # Seed 004: "пятёрка козырей может стоить 5 очков («Chicago pitch»)". The top bid
    # is still the smudge, now of every point there is.
    Preset(
        "chicago-pitch",
        gettext_noop("Chicago pitch"),
        "classic",
        gettext_noop("Auction pitch where the Five of trumps is worth 5; bids 1–9; to 11."),
        "seed 004, Off-jack, jokers and unusual trumps",
        replace(PLAIN_AUCTION_PITCH, max_bid=9, categories=(*HLJ, FIVE, GAME)),
    ),
    # Seed 004: "или тройка козырей 3 очка".
    Preset(
        "three-pitch",
        gettext_noop("Three of trumps pitch"),
        "classic",
        gettext_noop("Auction pitch where the Three of trumps is worth 3; bids 1–7; to 11."),
        "seed 004, Off-jack, jokers and unusual trumps",
        replace(PLAIN_AUCTION_PITCH, max_bid=7, categories=(*HLJ, THREE, GAME)),
    ),
    # Seed 004: "off-three может стоить 3 очка, в то время как тройка козырей
    # сохраняет обычную стоимость 0 очков".
    Preset(
        "off-three-pitch",
        gettext_noop("Off-three pitch"),
        "classic",
        gettext_noop(
            "Auction pitch where the off-three is worth 3, the Three of trumps nothing; to 11."
        ),
        "seed 004, Off-jack, jokers and unusual trumps",
        replace(
            PLAIN_AUCTION_PITCH,
            max_bid=7,
            categories=(*HLJ, OFF_THREE, GAME),
        ),
    ),
    # Seed 004: the pub game of the north of England, "четырёхигровой вариант питча в
    # партнёрстве, играемый до 11 очков. Боковые ставки делаются за выигрыш всех
    # четырёх очков в одной руке". It is blind all fours: no bidding.
    Preset(
        "all-fours",
        gettext_noop("All fours (pub game)"),
        "partnership",
        gettext_noop(
            "Two teams, no bidding, to 11; a chip from the others for taking all four points."
        ),
        "seed 004, Pitch or blind all fours",
        Ruleset(
            min_players=4,
            max_players=4,
            partnership=True,
            target=11,
            bidding=False,
            min_bid=1,
            max_bid=None,
            dealer_may_steal=False,
            sweep_chips=1,
        ),
    ),
)

DEFAULT_PRESET = "setback"
PRESET_INFO: dict[str, Preset] = {preset.key: preset for preset in PRESET_LIST}
PRESETS: dict[str, Ruleset] = {preset.key: preset.rules for preset in PRESET_LIST}
