"""Seed 004's variants of pitch, each a preset: the ten-point and nine-five families,
Roadhouse, Cell, Maryland jack, Contway and the joker pitches. Unless a section of the
seed says otherwise they play as its Auction pitch: no steal, and the same dealer deals
again when all pass. docs/rules.md says where a value comes from."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from .errors import gettext_noop
from .ruleset import (
    BIG_JOKER,
    FIVE,
    GAME,
    HIGH,
    JACK,
    JOKER,
    JOKERS,
    LAST_TRICK,
    LITTLE_JOKER,
    LOW,
    NINE,
    OFF_ACE,
    OFF_FIVE,
    OFF_JACK,
    TEN,
    THREE,
    TWO,
    MoonBid,
    Preset,
    Ruleset,
)


def _moon(value: int, **settings: Any) -> MoonBid:
    return MoonBid("moon", "Shoot the moon", value, **settings)


# Seed 004, Oklahoma ten-point: the ten points (without the occasional Off-three).
TEN_POINTS = (HIGH, LOW, JACK, OFF_JACK, BIG_JOKER, LITTLE_JOKER, THREE, GAME)

# Ten-point without the Three (seed 004: Cell pitch, Seven point).
SEVEN_POINTS = (HIGH, LOW, JACK, OFF_JACK, BIG_JOKER, LITTLE_JOKER, GAME)

# Seed 004, Campbell ten-point: the Ace is High, and every card is in play.
CAMPBELL_POINTS = (
    HIGH,
    JACK,
    OFF_JACK,
    replace(BIG_JOKER, label="High joker"),
    replace(LITTLE_JOKER, label="Low joker"),
    TEN,
    THREE,
    TWO,
)

# Seed 004, nine-five: High, Low, Jack and one more point, the nine and the five.
NINE_FIVE_POINTS = (HIGH, LOW, JACK, GAME, NINE, FIVE)

# Seed 004, Oklahoma ten-point: "straight" or doubled bids, and the Shoot the Moon
# rule (seed 004, "Shoot the moon": made it wins the game, set it loses it).
TEN_POINT = Ruleset(
    min_players=4,
    max_players=6,
    partnership=True,
    target=52,
    min_bid=1,
    max_bid=9,
    doubled_bids=True,
    moon_bids=(_moon(10, decides_game=True),),
    dealer_may_steal=False,
    categories=TEN_POINTS,
)


VARIANTS: tuple[Preset, ...] = (
    Preset(
        "ten-point",
        gettext_noop("Ten-point (Oklahoma)"),
        "ten-point",
        gettext_noop("Jick, two jokers and a Three worth 3; bids 1–9, doubled or the moon; to 52."),
        "seed 004, Oklahoma ten-point",
        TEN_POINT,
    ),
    Preset(
        "campbell-ten",
        gettext_noop("Campbell ten-point"),
        "ten-point",
        gettext_noop(
            "Teams of two; the Two is its player's point; bids 5–9 or the moon for 10; to 32."
        ),
        "seed 004, Campbell ten-point",
        replace(
            TEN_POINT,
            max_players=4,
            target=32,
            min_bid=5,
            moon_bids=(_moon(10),),
            all_pass="dealer_forced",
            categories=CAMPBELL_POINTS,
            # Campbell has no Low point.
            tiebreak=("high", "jack"),
        ),
    ),
    Preset(
        "campbell-eleven",
        gettext_noop("Campbell eleven-point"),
        "ten-point",
        gettext_noop(
            "Campbell ten-point with the off-ace; bids 1–11; the moon wins or loses; to 51."
        ),
        "seed 004, Campbell eleven-point",
        replace(
            TEN_POINT,
            max_players=4,
            target=51,
            min_bid=1,
            max_bid=11,
            moon_bids=(_moon(11, decides_game=True),),
            all_pass="dealer_forced",
            forced_min_bid=1,
            categories=(HIGH, OFF_ACE, *CAMPBELL_POINTS[1:]),
            tiebreak=("high", "jack"),
        ),
    ),
    Preset(
        "razzle-dazzle",
        gettext_noop("Razzle-Dazzle"),
        "ten-point",
        gettext_noop(
            "Ten-point where the pitcher calls a partner each hand; scores stay your own."
        ),
        "seed 004, Razzle-Dazzle",
        replace(
            TEN_POINT,
            partnership=False,
            called_partner=True,
        ),
    ),
    Preset(
        "wahoo-ten",
        gettext_noop("Wahoo ten-point"),
        "ten-point",
        gettext_noop("Ten-point with bids from 5; the dealer is dumped a 5 when all pass."),
        "seed 004, Wahoo ten-point",
        replace(
            TEN_POINT,
            min_bid=5,
            all_pass="dealer_forced",
        ),
    ),
    Preset(
        "susqy-river",
        gettext_noop("Susqy River ten-point"),
        "ten-point",
        gettext_noop("Each for himself; the Five is worth 5 and the last trick 1; to 50."),
        "seed 004, Susqy River ten-point",
        Ruleset(
            min_players=3,
            max_players=6,
            target=50,
            min_bid=1,
            max_bid=10,
            dealer_may_steal=False,
            all_pass="dealer_forced",
            forced_min_bid=1,
            categories=(HIGH, LOW, JACK, GAME, FIVE, LAST_TRICK),
        ),
    ),
    Preset(
        "roadhouse",
        gettext_noop("Roadhouse"),
        "classic",
        gettext_noop("Bids 2–4 or the moon for 15 (every trick); to 15, win by two."),
        "seed 004, Roadhouse pitch",
        Ruleset(
            target=15,
            win_by=2,
            moon_bids=(_moon(15, all_tricks=True),),
            dealer_may_steal=False,
            all_pass="dealer_forced",
        ),
    ),
    Preset(
        "cell",
        gettext_noop("Cell (Kentucky seven-point)"),
        "ten-point",
        gettext_noop("Seven points: High, Low, Jack, jick, two jokers, Game; bids 3–7; to 21."),
        "seed 004, Cell pitch",
        Ruleset(
            min_players=4,
            max_players=6,
            partnership=True,
            target=21,
            min_bid=3,
            max_bid=7,
            dealer_may_steal=False,
            categories=SEVEN_POINTS,
        ),
    ),
    Preset(
        "seven-point",
        gettext_noop("Seven-point (Nebraska)"),
        "ten-point",
        gettext_noop("Ten-point without the Three: bids 1–6, doubled or the moon; to 21."),
        "seed 004, Seven point",
        replace(
            TEN_POINT,
            target=21,
            max_bid=6,
            moon_bids=(_moon(7, decides_game=True),),
            categories=SEVEN_POINTS,
        ),
    ),
    Preset(
        "seventeen-point",
        gettext_noop("Seventeen-point"),
        "ten-point",
        gettext_noop("Ten-point with the Five and off-five worth 5 instead of the Three; to 52."),
        "seed 004, Seventeen point",
        replace(
            TEN_POINT,
            max_bid=16,
            moon_bids=(_moon(17, decides_game=True),),
            categories=(*SEVEN_POINTS[:-1], FIVE, OFF_FIVE, GAME),
        ),
    ),
    Preset(
        "maryland-jack",
        gettext_noop("Maryland jack"),
        "classic",
        gettext_noop(
            "The bidder scores only its bid (+1 if exact); others score only if it is set."
        ),
        "seed 004, Maryland jack",
        Ruleset(
            target=11,
            dealer_may_steal=False,
            categories=(HIGH, LOW, JACK, OFF_JACK),
            made_scores="bid",
            exact_bid_bonus=1,
            non_pitchers_score=False,
            non_pitchers_score_when_set=True,
            anyone_scores=("off_jack",),
        ),
    ),
    Preset(
        "high-five",
        gettext_noop("High five"),
        "ten-point",
        gettext_noop("Teams of two; Five and off-five worth 5; bids 6–16 or the moon; to 52."),
        "seed 004, High five",
        Ruleset(
            min_players=4,
            max_players=4,
            partnership=True,
            target=52,
            min_bid=6,
            max_bid=16,
            moon_bids=(_moon(17, decides_game=True),),
            dealer_may_steal=False,
            categories=(
                HIGH,
                LOW,
                JACK,
                OFF_JACK,
                BIG_JOKER,
                LITTLE_JOKER,
                TEN,
                FIVE,
                OFF_FIVE,
            ),
        ),
    ),
    Preset(
        "partnership-draw",
        gettext_noop("Partnership draw (New Yorker)"),
        "partnership",
        gettext_noop("Teams; bids 2–3, or 4 to shoot the moon and win or lose the game; to 15."),
        "seed 004, Partnership draw pitch",
        Ruleset(
            min_players=4,
            max_players=6,
            partnership=True,
            target=15,
            max_bid=3,
            moon_bids=(_moon(4, decides_game=True),),
            dealer_may_steal=False,
            all_pass="dealer_forced",
        ),
    ),
    # Every nine-five: "Минимальная ставка 9 вынуждена, если игрок держит 9 и другую
    # карту той же масти" (forced_bid).
    Preset(
        "nine-five",
        gettext_noop("Nine-five"),
        "nine-five",
        gettext_noop(
            "Teams; the Nine is worth 9 and the Five 5; over 100 on a made bid; out at -100."
        ),
        "seed 004, Nine-five",
        Ruleset(
            min_players=4,
            max_players=4,
            partnership=True,
            target=101,
            min_bid=4,
            max_bid=18,
            # Seed 004's smudge bid needs every trick too; nine-five changes only its value.
            moon_bids=(
                MoonBid("smudge", "Smudge", 19, all_tricks=True),
                MoonBid("blind", "Blind smudge", 20, all_tricks=True),
            ),
            dealer_may_steal=False,
            forced_bid=9,
            categories=NINE_FIVE_POINTS,
            winner="bidder_out",
            lose_at=-100,
        ),
    ),
    Preset(
        "nine-five-hotshot",
        gettext_noop("Nine-five, hotshot"),
        "nine-five",
        gettext_noop("Nine-five with bids 9–17 and the hotshot, 18, that wins or loses the game."),
        "seed 004, Nine-five, Вариант",
        Ruleset(
            min_players=4,
            max_players=4,
            partnership=True,
            target=101,
            min_bid=9,
            max_bid=17,
            moon_bids=(MoonBid("hotshot", "Hotshot", 18, decides_game=True),),
            dealer_may_steal=False,
            forced_bid=9,
            categories=NINE_FIVE_POINTS,
            winner="bidder_out",
            lose_at=-100,
        ),
    ),
    Preset(
        "nine-five-connecticut",
        gettext_noop("Nine-five (northwest Connecticut)"),
        "nine-five",
        gettext_noop("Nine-five to 100 by anybody; when all pass the deal moves on."),
        "seed 004, Nine-five (northwestern Connecticut)",
        Ruleset(
            min_players=4,
            max_players=4,
            partnership=True,
            target=100,
            min_bid=4,
            max_bid=18,
            dealer_may_steal=False,
            forced_bid=9,
            redeal_passes_deal=True,
            categories=NINE_FIVE_POINTS,
        ),
    ),
    Preset(
        "five-nine-connecticut",
        gettext_noop("Five-nine (northeast Connecticut)"),
        "nine-five",
        gettext_noop("Bids 5–18 or double-18 (36, every trick); over 100 on a made bid."),
        "seed 004, Five-nine (northeastern Connecticut)",
        Ruleset(
            min_players=4,
            max_players=4,
            partnership=True,
            target=101,
            min_bid=5,
            max_bid=18,
            moon_bids=(MoonBid("double-18", "Double 18", 36, all_tricks=True),),
            dealer_may_steal=False,
            forced_bid=9,
            all_pass="dealer_forced",
            categories=NINE_FIVE_POINTS,
            winner="bidder_out",
        ),
    ),
    Preset(
        "bonanza",
        gettext_noop("Bonanza"),
        "nine-five",
        gettext_noop("Teams; 18 points with the Nine and Five; the moon wins or loses; to 64."),
        "seed 004, Bonanza pitch",
        Ruleset(
            min_players=4,
            max_players=4,
            partnership=True,
            target=64,
            min_bid=1,
            max_bid=18,
            moon_bids=(_moon(18, decides_game=True, allowed_in_hole=False, allowed_under=46),),
            dealer_may_steal=False,
            # "Есть аукционная ставка, которая продолжается до тех пор, пока все, кроме
            # одного игрока, не пасуют."
            auction_until_one=True,
            all_pass="dealer_forced",
            forced_min_bid=1,
            categories=(HIGH, LOW, JACK, TEN, NINE, FIVE),
        ),
    ),
    Preset(
        "contway-six",
        gettext_noop("Contway six-point"),
        "partnership",
        gettext_noop(
            "Teams; jick and a joker; scores never below 0; losers pay for their hickeys."
        ),
        "seed 004, Contway 6-point",
        Ruleset(
            min_players=4,
            max_players=4,
            partnership=True,
            target=11,
            max_bid=6,
            dealer_may_steal=False,
            all_pass="dealer_forced",
            categories=(HIGH, LOW, JACK, OFF_JACK, JOKER, GAME),
            score_floor=0,
            # Every loser pays 1, and 1 more for each of its hickeys (setbacks).
            settlement="chips",
            chips_plus=1,
            chips_zero_or_minus=1,
            chips_per_setback=1,
            settle_each="player",
        ),
    ),
    Preset(
        "five-point-joker",
        gettext_noop("Five-point joker pitch"),
        "classic",
        gettext_noop("Auction pitch with a joker worth a point: five points a hand; to 11."),
        "seed 004, Off-jack, jokers and unusual trumps",
        Ruleset(
            target=11,
            min_bid=1,
            max_bid=5,
            dealer_may_steal=False,
            categories=(HIGH, LOW, JACK, JOKER, GAME),
        ),
    ),
    Preset(
        "six-point-joker",
        gettext_noop("Six-point joker pitch"),
        "classic",
        gettext_noop("Auction pitch with two jokers worth a point each: six points a hand; to 11."),
        "seed 004, Common minor variants",
        Ruleset(
            target=11,
            min_bid=1,
            max_bid=6,
            dealer_may_steal=False,
            categories=(HIGH, LOW, JACK, JOKERS, GAME),
        ),
    ),
    Preset(
        "smear",
        gettext_noop("Smear (5-point)"),
        "other",
        gettext_noop(
            "High, Low, Jack, jick and Game; bids 2–5; the highest score wins, ties to the bidder."
        ),
        "house preset: seed 004 only points to smear for the jick and jokers",
        Ruleset(
            target=11,
            max_bid=5,
            dealer_may_steal=False,
            all_pass="dealer_forced",
            categories=(HIGH, LOW, JACK, OFF_JACK, GAME),
            winner="highest_total",
        ),
    ),
)
