"""The presets, what to call them, and resolving a preset plus overrides into a ruleset.

Every preset is settings only: the engine never looks at a preset's name. Where the
seeds leave a value open the choice is the common one, and docs/rules.md says which.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields, replace
from typing import Any, Literal

from .errors import RuleError
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
    OFF_THREE,
    TEN,
    THREE,
    TWO,
    Category,
    MoonBid,
    Ruleset,
)

Group = Literal["classic", "partnership", "ten-point", "nine-five", "other"]

# The groups the new-game screen lists the presets in, in this order.
GROUPS: dict[Group, str] = {
    "classic": "Classic",
    "partnership": "Partnership",
    "ten-point": "10-point family",
    "nine-five": "Nine-five family",
    "other": "Other",
}


@dataclass(frozen=True)
class PresetInfo:
    """How to show a preset: its name, its group, a line on how it plays, and the
    seed (and section of seed 004) it comes from."""

    label: str
    group: Group
    description: str
    source: str


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
    preset="ten-point",
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

HLJ = (HIGH, LOW, JACK)

# Seed 004, Auction pitch, as it gives it: "минимальная ставка — 1", the bid of four
# is the smudge, "если никто не делает ставку, раздача отменяется и тот же раздающий
# раздаёт снова", the pitcher counted first and then High, Low, Jack, Game; and its
# minor variant, the smudge that "если не «in the hole» … автоматически выигрывает
# всю игру". The game is to 11: the other targets are "не до 11 очков, а до 7, 9, 15
# или 21".
PLAIN_AUCTION_PITCH = Ruleset(
    preset="plain-auction-pitch",
    target=11,
    min_bid=1,
    dealer_may_steal=False,
    smudge="wins_game",
)

PRESETS: dict[str, Ruleset] = {
    "setback": Ruleset(
        preset="setback",
        smudge="wins_game",
        settlement="chips",
    ),
    "auction-pitch": Ruleset(
        preset="auction-pitch",
        min_players=2,
        min_bid=1,
        all_pass="dealer_forced",
        low_to="capturer",
        winner="bidder_out",
    ),
    "partnership": Ruleset(
        preset="partnership",
        min_players=4,
        max_players=6,
        partnership=True,
        target=11,
        max_bid=5,
        # Seed 001: the steal only over 1, 2 or 3 ("Hvis andre spillere har bud 1, 2
        # eller 3 ... kan forhandleren «stjele budet»"); seed 000: a four cannot be taken.
        steal_up_to=3,
        all_pass="dealer_forced",
        low_to="capturer",
        smudge="all_tricks",
    ),
    "pitch-with-bidding": Ruleset(
        preset="pitch-with-bidding",
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
        low_to="capturer",
        winner="highest_total",
        # "очки … за старшего или младшего козыря или Валетов"
        tiebreak=("high", "low", "jacks"),
    ),
    "blind-all-fours": Ruleset(
        preset="blind-all-fours",
        target=11,
        bidding=False,
        min_bid=1,
        max_bid=None,
        dealer_may_steal=False,
    ),
    # --- Seed 004's variants. Unless a section says otherwise they play as its
    # Auction pitch: no steal, the same dealer deals again when all pass.
    "ten-point": TEN_POINT,
    "campbell-ten": replace(
        TEN_POINT,
        preset="campbell-ten",
        max_players=4,
        target=32,
        min_bid=5,
        moon_bids=(_moon(10),),
        all_pass="dealer_forced",
        categories=CAMPBELL_POINTS,
        # Campbell has no Low point.
        tiebreak=("high", "jack"),
    ),
    "campbell-eleven": replace(
        TEN_POINT,
        preset="campbell-eleven",
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
    "razzle-dazzle": replace(
        TEN_POINT,
        preset="razzle-dazzle",
        partnership=False,
        called_partner=True,
    ),
    "wahoo-ten": replace(
        TEN_POINT,
        preset="wahoo-ten",
        min_bid=5,
        all_pass="dealer_forced",
    ),
    "susqy-river": Ruleset(
        preset="susqy-river",
        min_players=3,
        max_players=6,
        target=50,
        min_bid=1,
        max_bid=10,
        dealer_may_steal=False,
        all_pass="dealer_forced",
        forced_min_bid=1,
        categories=(HIGH, LOW, JACK, GAME, FIVE, LAST_TRICK),
        low_to="capturer",
    ),
    "roadhouse": Ruleset(
        preset="roadhouse",
        target=15,
        win_by=2,
        moon_bids=(_moon(15, all_tricks=True),),
        dealer_may_steal=False,
        all_pass="dealer_forced",
        low_to="capturer",
    ),
    "cell": Ruleset(
        preset="cell",
        min_players=4,
        max_players=6,
        partnership=True,
        target=21,
        min_bid=3,
        max_bid=7,
        dealer_may_steal=False,
        categories=SEVEN_POINTS,
    ),
    "seven-point": replace(
        TEN_POINT,
        preset="seven-point",
        target=21,
        max_bid=6,
        moon_bids=(_moon(7, decides_game=True),),
        categories=SEVEN_POINTS,
    ),
    "seventeen-point": replace(
        TEN_POINT,
        preset="seventeen-point",
        max_bid=16,
        moon_bids=(_moon(17, decides_game=True),),
        categories=(*SEVEN_POINTS[:-1], FIVE, OFF_FIVE, GAME),
    ),
    "maryland-jack": Ruleset(
        preset="maryland-jack",
        target=11,
        dealer_may_steal=False,
        categories=(HIGH, LOW, JACK, OFF_JACK),
        made_scores="bid",
        exact_bid_bonus=1,
        non_pitchers_score=False,
        non_pitchers_score_when_set=True,
        anyone_scores=("off_jack",),
    ),
    "high-five": Ruleset(
        preset="high-five",
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
    "partnership-draw": Ruleset(
        preset="partnership-draw",
        min_players=4,
        max_players=6,
        partnership=True,
        target=15,
        max_bid=3,
        moon_bids=(_moon(4, decides_game=True),),
        dealer_may_steal=False,
        all_pass="dealer_forced",
        low_to="capturer",
    ),
    # Every nine-five: "Минимальная ставка 9 вынуждена, если игрок держит 9 и другую
    # карту той же масти" (forced_bid).
    "nine-five": Ruleset(
        preset="nine-five",
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
    "nine-five-hotshot": Ruleset(
        preset="nine-five-hotshot",
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
    "nine-five-connecticut": Ruleset(
        preset="nine-five-connecticut",
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
    "five-nine-connecticut": Ruleset(
        preset="five-nine-connecticut",
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
    "bonanza": Ruleset(
        preset="bonanza",
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
    "contway-six": Ruleset(
        preset="contway-six",
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
    "five-point-joker": Ruleset(
        preset="five-point-joker",
        target=11,
        min_bid=1,
        max_bid=5,
        dealer_may_steal=False,
        categories=(HIGH, LOW, JACK, JOKER, GAME),
        low_to="capturer",
    ),
    "six-point-joker": Ruleset(
        preset="six-point-joker",
        target=11,
        min_bid=1,
        max_bid=6,
        dealer_may_steal=False,
        categories=(HIGH, LOW, JACK, JOKERS, GAME),
        low_to="capturer",
    ),
    "smear": Ruleset(
        preset="smear",
        target=11,
        max_bid=5,
        dealer_may_steal=False,
        all_pass="dealer_forced",
        categories=(HIGH, LOW, JACK, OFF_JACK, GAME),
        winner="highest_total",
    ),
    # --- The readings and variants added for the seeds' second look.
    # Seed 004's partnership pitch with seeds 001 and 004's lowest bid: "минимальная
    # ставка — 1", played "до более высокого количества очков, например 21".
    "partnership-21": Ruleset(
        preset="partnership-21",
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
        low_to="capturer",
        smudge="all_tricks",
    ),
    "plain-auction-pitch": PLAIN_AUCTION_PITCH,
    # Seed 004: "пятёрка козырей может стоить 5 очков («Chicago pitch»)". The top bid
    # is still the smudge, now of every point there is.
    "chicago-pitch": replace(
        PLAIN_AUCTION_PITCH, preset="chicago-pitch", max_bid=9, categories=(*HLJ, FIVE, GAME)
    ),
    # Seed 004: "или тройка козырей 3 очка".
    "three-pitch": replace(
        PLAIN_AUCTION_PITCH, preset="three-pitch", max_bid=7, categories=(*HLJ, THREE, GAME)
    ),
    # Seed 004: "off-three может стоить 3 очка, в то время как тройка козырей
    # сохраняет обычную стоимость 0 очков".
    "off-three-pitch": replace(
        PLAIN_AUCTION_PITCH,
        preset="off-three-pitch",
        max_bid=7,
        categories=(*HLJ, OFF_THREE, GAME),
    ),
    # Seed 004: the pub game of the north of England, "четырёхигровой вариант питча в
    # партнёрстве, играемый до 11 очков. Боковые ставки делаются за выигрыш всех
    # четырёх очков в одной руке". It is blind all fours: no bidding.
    "all-fours": Ruleset(
        preset="all-fours",
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
}

DEFAULT_PRESET = "setback"

PRESET_INFO: dict[str, PresetInfo] = {
    "setback": PresetInfo(
        "Setback",
        "classic",
        "Bids 2–4, to 7; a made bid of 4 wins at once; losers pay chips.",
        "seed 000",
    ),
    "auction-pitch": PresetInfo(
        "Auction Pitch",
        "classic",
        "Bids 1–4, to 7; the dealer must bid if all pass; only the bidder goes out.",
        "seed 001",
    ),
    "partnership": PresetInfo(
        "Partnership",
        "partnership",
        "Teams, partners sitting opposite; bids 2–4 or a smudge of 5, to 11.",
        "seeds 001 and 004, Partnership pitch",
    ),
    "pitch-with-bidding": PresetInfo(
        "Pitch with bidding",
        "other",
        "Open bids; each Jack 1, Queen 2, King 3, Ace 4 taken counts; the highest total wins.",
        "seed 003",
    ),
    "blind-all-fours": PresetInfo(
        "Blind All Fours",
        "classic",
        "No bidding: the player left of the dealer pitches; to 11.",
        "seed 004, Pitch or blind all fours",
    ),
    "ten-point": PresetInfo(
        "Ten-point (Oklahoma)",
        "ten-point",
        "Jick, two jokers and a Three worth 3; bids 1–9, doubled or the moon; to 52.",
        "seed 004, Oklahoma ten-point",
    ),
    "campbell-ten": PresetInfo(
        "Campbell ten-point",
        "ten-point",
        "Teams of two; the Two is its player's point; bids 5–9 or the moon for 10; to 32.",
        "seed 004, Campbell ten-point",
    ),
    "campbell-eleven": PresetInfo(
        "Campbell eleven-point",
        "ten-point",
        "Campbell ten-point with the off-ace; bids 1–11; the moon wins or loses; to 51.",
        "seed 004, Campbell eleven-point",
    ),
    "razzle-dazzle": PresetInfo(
        "Razzle-Dazzle",
        "ten-point",
        "Ten-point where the pitcher calls a partner each hand; scores stay your own.",
        "seed 004, Razzle-Dazzle",
    ),
    "wahoo-ten": PresetInfo(
        "Wahoo ten-point",
        "ten-point",
        "Ten-point with bids from 5; the dealer is dumped a 5 when all pass.",
        "seed 004, Wahoo ten-point",
    ),
    "susqy-river": PresetInfo(
        "Susqy River ten-point",
        "ten-point",
        "Each for himself; the Five is worth 5 and the last trick 1; to 50.",
        "seed 004, Susqy River ten-point",
    ),
    "roadhouse": PresetInfo(
        "Roadhouse",
        "classic",
        "Bids 2–4 or the moon for 15 (every trick); to 15, win by two.",
        "seed 004, Roadhouse pitch",
    ),
    "cell": PresetInfo(
        "Cell (Kentucky seven-point)",
        "ten-point",
        "Seven points: High, Low, Jack, jick, two jokers, Game; bids 3–7; to 21.",
        "seed 004, Cell pitch",
    ),
    "seven-point": PresetInfo(
        "Seven-point (Nebraska)",
        "ten-point",
        "Ten-point without the Three: bids 1–6, doubled or the moon; to 21.",
        "seed 004, Seven point",
    ),
    "seventeen-point": PresetInfo(
        "Seventeen-point",
        "ten-point",
        "Ten-point with the Five and off-five worth 5 instead of the Three; to 52.",
        "seed 004, Seventeen point",
    ),
    "maryland-jack": PresetInfo(
        "Maryland jack",
        "classic",
        "The bidder scores only its bid (+1 if exact); others score only if it is set.",
        "seed 004, Maryland jack",
    ),
    "high-five": PresetInfo(
        "High five",
        "ten-point",
        "Teams of two; Five and off-five worth 5; bids 6–16 or the moon; to 52.",
        "seed 004, High five",
    ),
    "partnership-draw": PresetInfo(
        "Partnership draw (New Yorker)",
        "partnership",
        "Teams; bids 2–3, or 4 to shoot the moon and win or lose the game; to 15.",
        "seed 004, Partnership draw pitch",
    ),
    "nine-five": PresetInfo(
        "Nine-five",
        "nine-five",
        "Teams; the Nine is worth 9 and the Five 5; over 100 on a made bid; out at -100.",
        "seed 004, Nine-five",
    ),
    "nine-five-hotshot": PresetInfo(
        "Nine-five, hotshot",
        "nine-five",
        "Nine-five with bids 9–17 and the hotshot, 18, that wins or loses the game.",
        "seed 004, Nine-five, Вариант",
    ),
    "nine-five-connecticut": PresetInfo(
        "Nine-five (northwest Connecticut)",
        "nine-five",
        "Nine-five to 100 by anybody; when all pass the deal moves on.",
        "seed 004, Nine-five (northwestern Connecticut)",
    ),
    "five-nine-connecticut": PresetInfo(
        "Five-nine (northeast Connecticut)",
        "nine-five",
        "Bids 5–18 or double-18 (36, every trick); over 100 on a made bid.",
        "seed 004, Five-nine (northeastern Connecticut)",
    ),
    "bonanza": PresetInfo(
        "Bonanza",
        "nine-five",
        "Teams; 18 points with the Nine and Five; the moon wins or loses; to 64.",
        "seed 004, Bonanza pitch",
    ),
    "contway-six": PresetInfo(
        "Contway six-point",
        "partnership",
        "Teams; jick and a joker; scores never below 0; losers pay for their hickeys.",
        "seed 004, Contway 6-point",
    ),
    "five-point-joker": PresetInfo(
        "Five-point joker pitch",
        "classic",
        "Auction pitch with a joker worth a point: five points a hand; to 11.",
        "seed 004, Off-jack, jokers and unusual trumps",
    ),
    "six-point-joker": PresetInfo(
        "Six-point joker pitch",
        "classic",
        "Auction pitch with two jokers worth a point each: six points a hand; to 11.",
        "seed 004, Common minor variants",
    ),
    "smear": PresetInfo(
        "Smear (5-point)",
        "other",
        "High, Low, Jack, jick and Game; bids 2–5; the highest score wins, ties to the bidder.",
        "house preset: seed 004 only points to smear for the jick and jokers",
    ),
    "partnership-21": PresetInfo(
        "Partnership to 21",
        "partnership",
        "Teams; bids 1–4 or a smudge of 5 (every trick); to 21.",
        "seed 004, Partnership pitch; seed 001 for the bids",
    ),
    "plain-auction-pitch": PresetInfo(
        "Plain auction pitch",
        "classic",
        "Bids 1–4, to 11; a made 4 wins at once unless in the hole; all pass: redeal.",
        "seed 004, Auction pitch",
    ),
    "chicago-pitch": PresetInfo(
        "Chicago pitch",
        "classic",
        "Auction pitch where the Five of trumps is worth 5; bids 1–9; to 11.",
        "seed 004, Off-jack, jokers and unusual trumps",
    ),
    "three-pitch": PresetInfo(
        "Three of trumps pitch",
        "classic",
        "Auction pitch where the Three of trumps is worth 3; bids 1–7; to 11.",
        "seed 004, Off-jack, jokers and unusual trumps",
    ),
    "off-three-pitch": PresetInfo(
        "Off-three pitch",
        "classic",
        "Auction pitch where the off-three is worth 3, the Three of trumps nothing; to 11.",
        "seed 004, Off-jack, jokers and unusual trumps",
    ),
    "all-fours": PresetInfo(
        "All fours (pub game)",
        "partnership",
        "Two teams, no bidding, to 11; a chip from the others for taking all four points.",
        "seed 004, Pitch or blind all fours",
    ),
}


def _entries(name: str, value: Any, build: Callable[[Any, str], Any]) -> tuple[Any, ...]:
    if not isinstance(value, list | tuple):
        raise RuleError(f"{name} must be a list")
    return tuple(build(item, f"{name}[{index}]") for index, item in enumerate(value))


def _object_from(
    cls: type, data: Any, where: str, shape: str, types: Mapping[str, tuple[type, bool]]
) -> Any:
    """A Category or MoonBid from its stored form. ``types`` gives each optional
    field's type and whether it may be null."""
    if not isinstance(data, Mapping):
        raise RuleError(f"{where} must be an object with {shape}")
    unknown = set(data) - {f.name for f in fields(cls)}
    if unknown:
        raise RuleError(f"{where}: unknown setting {', '.join(sorted(unknown))}")
    key = data.get("key")
    if not isinstance(key, str) or not key:
        raise RuleError(f"{where}: key must be a non-empty text")
    values = {"key": key, "label": data.get("label", key)}
    for name, (kind, nullable) in types.items():
        if name in data:
            if not _is(data[name], kind, allow_none=nullable):
                raise RuleError(f"{where} ({key}): {name} has the wrong type")
            values[name] = data[name]
    try:
        return cls(**values)
    except TypeError:
        raise RuleError(f"{where} ({key}): give its {shape}") from None


def _category_from(data: Any, where: str) -> Category:
    types = {
        "value": (int, False),
        "kind": (str, False),
        "required": (bool, False),
        "max_count": (int, True),
    }
    return _object_from(Category, data, where, "key, label, value and kind", types)


def _moon_bid_from(data: Any, where: str) -> MoonBid:
    types = {
        "value": (int, False),
        "all_tricks": (bool, False),
        "decides_game": (bool, False),
        "allowed_in_hole": (bool, False),
        "allowed_under": (int, True),
    }
    return _object_from(MoonBid, data, where, "key, label and value", types)


def _is(value: Any, kind: type, *, allow_none: bool = False) -> bool:
    if value is None:
        return allow_none
    if kind is int:
        return isinstance(value, int) and not isinstance(value, bool)
    return isinstance(value, kind)


# The settings that may be null, and what null means.
NULLABLE = {
    "max_bid": "open-ended",
    "win_by": "no lead needed",
    "score_floor": "no floor",
    "lose_at": "nobody loses by falling",
    "draw_at": "no draw",
    "forced_bid": "no hand forces a bid",
    "steal_up_to": "any bid below max_bid",
}


def resolve_rules(spec: str | Mapping[str, Any] | None) -> Ruleset:
    """A preset name, or ``{"preset": name, setting: value, ...}``, as a full ruleset.

    A resolved ruleset (``to_dict()`` output) resolves to itself.
    """
    if spec is None:
        spec = DEFAULT_PRESET
    if isinstance(spec, str):
        spec = {"preset": spec}
    if not isinstance(spec, Mapping):
        raise RuleError("rules must be a preset name or an object of settings")
    name = spec.get("preset", DEFAULT_PRESET)
    # Checked as text first: a list or an object here is unhashable.
    if not isinstance(name, str) or name not in PRESETS:
        raise RuleError(f"unknown preset {name!r}; known presets: {', '.join(PRESETS)}")
    base = PRESETS[name]
    setting_names = {f.name for f in fields(Ruleset)}
    unknown = set(spec) - setting_names
    if unknown:
        raise RuleError(f"unknown rule setting {', '.join(sorted(unknown))}")
    overrides: dict[str, Any] = {}
    for f in fields(Ruleset):
        if f.name not in spec or f.name == "preset":
            continue
        value = spec[f.name]
        default = getattr(base, f.name)
        if f.name == "categories":
            value = _entries("categories", value, _category_from)
        elif f.name == "moon_bids":
            value = _entries("moon_bids", value, _moon_bid_from)
        elif f.name in ("tiebreak", "anyone_scores"):
            if not isinstance(value, list | tuple) or not all(isinstance(v, str) for v in value):
                raise RuleError(f"{f.name} must be a list of category keys")
            value = tuple(value)
        elif f.name in NULLABLE:
            if not _is(value, int, allow_none=True):
                raise RuleError(f"{f.name} must be a whole number or null ({NULLABLE[f.name]})")
        elif not _is(value, type(default)):
            raise RuleError(f"{f.name} must be {_type_words(default)}")
        overrides[f.name] = value
    return replace(base, **overrides)


def _type_words(default: Any) -> str:
    if isinstance(default, bool):
        return "true or false"
    if isinstance(default, int):
        return "a whole number"
    return "a text"


__all__ = [
    "DEFAULT_PRESET",
    "GROUPS",
    "PRESETS",
    "PRESET_INFO",
    "PresetInfo",
    "resolve_rules",
]
