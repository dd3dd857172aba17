"""What the screens show of a game, in the player's language.

The numbers come from the rules engine (through services.GameState); this module only
words and arranges them.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext_lazy

from pitchkeeper.rules import (
    GROUPS,
    PRESET_INFO,
    PRESETS,
    Bid,
    Category,
    HandResult,
    Ruleset,
    eldest_of,
)
from pitchkeeper.rules import ruleset as _ruleset
from pitchkeeper.rules.bids import DOUBLED
from pitchkeeper.services import GameState

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


@dataclass(frozen=True)
class SideRow:
    name: str
    members: tuple[str, ...]
    score: int
    in_hole: bool
    winner: bool

    @property
    def magnitude(self) -> int:
        """The score without its sign: plural forms ("1 очко", "-2 очка") go by it."""
        return abs(self.score)


@dataclass(frozen=True)
class Payment:
    payer: str
    payee: str
    chips: int
    money: Decimal | None

    def __str__(self) -> str:
        text = ngettext(
            "%(payer)s pays %(payee)s %(chips)d chip",
            "%(payer)s pays %(payee)s %(chips)d chips",
            self.chips,
        ) % {"payer": self.payer, "payee": self.payee, "chips": self.chips}
        if self.money is not None:
            # In the reader's number format: 1.50 in English, 1,50 in Russian and Norwegian.
            text += f" ({number_format(self.money, 2)})"
        return text


@dataclass(frozen=True)
class Board:
    sides: tuple[SideRow, ...]
    target: int
    dealer: str | None
    bids_first: str | None
    winner: str | None
    # Over: won, or drawn (no winner).
    finished: bool
    reason: str
    payments: tuple[Payment, ...]


def board(state: GameState) -> Board:
    result = state.result
    seating = state.record.seating
    members = {team.name: team.members for team in seating.teams}
    chip_value = state.game.chip_value
    return Board(
        sides=tuple(
            SideRow(
                name=side,
                members=members.get(side, ()),
                score=result.scores[side],
                in_hole=result.in_hole(side),
                winner=side == result.winner,
            )
            for side in result.sides
        ),
        target=state.record.rules.target,
        dealer=result.dealer,
        bids_first=eldest_of(seating, result.dealer) if result.dealer else None,
        winner=result.winner,
        finished=result.finished,
        reason=win_reason(state),
        payments=tuple(
            Payment(payer, payee, chips, chips * chip_value if chip_value is not None else None)
            for payer, payee, chips in result.payments()
        ),
    )


def win_reason(state: GameState) -> str:
    """Why the game ended, in words: "Bob wins: the pitcher's points are counted first",
    "Drawn: Them reached -200"; empty while it goes on."""
    result = state.result
    rules = state.record.rules
    if not result.finished:
        return ""
    values: dict[str, object] = {"winner": result.winner, "target": rules.target}
    last = result.hands[-1] if result.hands else None
    if result.won_by == "draw":
        values |= {"side": _fallen(state, rules.draw_at), "floor": rules.draw_at}
        return _("Drawn: %(side)s reached %(floor)s") % values
    if result.won_by == "floor":
        values |= {"loser": _fallen(state, rules.lose_at), "floor": rules.lose_at}
        return _("%(winner)s wins: %(loser)s reached %(floor)s") % values
    if result.won_by == "smudge_failed" and last is not None and last.bid is not None:
        values |= {"loser": _pitchers(state, last), "bid": bid_label(rules, last.bid)}
        return _("%(winner)s wins: %(loser)s bid %(bid)s and failed") % values
    if result.won_by == "smudge" and last is not None and isinstance(last.bid, str):
        values["bid"] = bid_label(rules, last.bid)
        return _("%(winner)s wins: bid %(bid)s and made it") % values
    if result.won_by == "smudge":
        return _("%(winner)s wins: smudge") % values
    if result.won_by == "win_by":
        lead = result.scores[result.winner] - max(
            score for side, score in result.scores.items() if side != result.winner
        )
        values["lead"] = lead
        return (
            ngettext(
                "%(winner)s wins: reached %(target)s with a lead of %(lead)d",
                "%(winner)s wins: reached %(target)s with a lead of %(lead)d",
                lead,
            )
            % values
        )
    if result.won_by == "bidder_out":
        return _("%(winner)s wins: made the bid and reached %(target)s") % values
    if result.won_by == "highest_total":
        return _("%(winner)s wins with the highest score") % values
    return _count_order_reason(state, values)


def _count_order_reason(state: GameState, values: dict[str, object]) -> str:
    first, *others = state.result.reached
    if first.category is None:
        if others:
            return _("%(winner)s wins: the pitcher's points are counted first") % values
        return _("%(winner)s wins: made the bid and reached %(target)s") % values
    labels = {c.key: category_label(c) for c in state.record.rules.categories}
    values["category"] = labels[first.category]
    if others:
        runner_up = others[0]
        values["other"] = runner_up.side
        values["other_category"] = (
            labels[runner_up.category] if runner_up.category else _("the pitcher's points")
        )
        return (
            _(
                "%(winner)s reached %(target)s on %(category)s before %(other)s on "
                "%(other_category)s"
            )
            % values
        )
    return _("%(winner)s wins: reached %(target)s on %(category)s") % values


def _fallen(state: GameState, floor: int | None) -> str:
    """The sides at or below ``floor``, in seat order."""
    scores = state.result.scores
    return ", ".join(
        side for side in state.result.sides if floor is not None and scores[side] <= floor
    )


def _pitchers(state: GameState, hand: HandResult) -> str:
    """The pitching side of ``hand``, with the called partner where there is one."""
    sides = [hand.pitching_side or ""]
    if hand.partner is not None:
        sides.append(state.record.seating.side_of(hand.partner))
    return " & ".join(dict.fromkeys(sides))


@dataclass(frozen=True)
class PointTaken:
    label: str
    went_to: str


@dataclass(frozen=True)
class HandRow:
    number: int
    dealer: str
    kind: str
    pitcher: str | None
    # The bid in words: "3", "6 for 12", "Shoot the moon".
    bid: str | None
    # A numbered bid that needed every point (a moon bid says so in its name).
    smudge: bool
    made: bool | None
    points: tuple[PointTaken, ...]
    revoked: tuple[str, ...]
    changes: tuple[tuple[str, int], ...]
    # Where the pitcher calls a partner: who it was, or that the pitcher played alone.
    partner_note: str = ""


def history(state: GameState) -> list[HandRow]:
    """The hands, latest first, as the history lists them."""
    rules = state.record.rules
    labels = {c.key: category_label(c) for c in rules.categories}
    rows = []
    for hand in state.result.hands:
        points = []
        for key, went_to in hand.points.items():
            if isinstance(went_to, dict):
                text = ", ".join(f"{side} {count}" for side, count in went_to.items()) or "—"
            else:
                text = went_to or str(NOBODY_WORDS.get(key, "—"))
            points.append(PointTaken(labels[key], text))
        rows.append(
            HandRow(
                number=hand.number,
                dealer=hand.dealer,
                kind=hand.kind,
                pitcher=hand.pitcher,
                bid=None if hand.bid is None else bid_label(rules, hand.bid),
                smudge=hand.smudge and not isinstance(hand.bid, str),
                made=hand.made,
                points=tuple(points),
                revoked=hand.revoked,
                changes=tuple((side, hand.delta[side]) for side in state.result.sides)
                if hand.delta
                else (),
                partner_note=_partner_note(rules, hand),
            )
        )
    return rows[::-1]


def _partner_note(rules: Ruleset, hand: HandResult) -> str:
    if not rules.called_partner or hand.kind != "played":
        return ""
    if hand.partner is None:
        return _("played alone")
    return _("partner: %(name)s") % {"name": hand.partner}


# Okabe-Ito colours, told apart by people with colour blindness; each line also has
# its own dash pattern and its name at its end, so colour is never the only signal.
LINE_COLOURS = ("#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9", "#7f7f7f")
LINE_DASHES = ("", "8 4", "2 4", "10 4 2 4", "4 4", "12 6", "1 3")
CHART_WIDTH, CHART_HEIGHT, CHART_PAD, CHART_LABEL = 320, 180, 12, 64
CHART_LABEL_GAP = 11


@dataclass(frozen=True)
class ChartLine:
    side: str
    points: str
    colour: str
    dash: str
    label_x: float
    label_y: float


@dataclass(frozen=True)
class Chart:
    width: int
    height: int
    lines: tuple[ChartLine, ...]
    target_y: float
    zero_y: float
    plot_right: float
    top: int
    bottom: int


def chart(state: GameState) -> Chart | None:
    """Every side's score over the hands, as SVG coordinates."""
    result = state.result
    if not result.hands:
        return None
    target = state.record.rules.target
    series = {side: [0] + [hand.scores[side] for hand in result.hands] for side in result.sides}
    top = max(target, *(max(s) for s in series.values()))
    bottom = min(0, *(min(s) for s in series.values()))
    right = CHART_WIDTH - CHART_LABEL
    steps = max(len(result.hands), 1)

    def x(index: int) -> float:
        return round(CHART_PAD + index * (right - CHART_PAD) / steps, 1)

    def y(score: int) -> float:
        span = (top - bottom) or 1
        return round(CHART_PAD + (top - score) * (CHART_HEIGHT - 2 * CHART_PAD) / span, 1)

    label_ys = _spread([y(scores[-1]) + 4 for scores in series.values()], CHART_LABEL_GAP)
    lines = tuple(
        ChartLine(
            side=side,
            points=" ".join(f"{x(i)},{y(score)}" for i, score in enumerate(scores)),
            colour=LINE_COLOURS[n % len(LINE_COLOURS)],
            dash=LINE_DASHES[n % len(LINE_DASHES)],
            label_x=x(len(scores) - 1) + 4,
            label_y=label_ys[n],
        )
        for n, (side, scores) in enumerate(series.items())
    )
    return Chart(CHART_WIDTH, CHART_HEIGHT, lines, y(target), y(0), right, top, bottom)


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


def _spread(positions: list[float], gap: float) -> list[float]:
    """The positions, moved down just enough that no two are closer than ``gap``, so
    the names at the ends of lines that finish level stay readable."""
    order = sorted(range(len(positions)), key=lambda i: positions[i])
    spread = list(positions)
    for before, index in zip(order, order[1:], strict=False):
        spread[index] = max(spread[index], spread[before] + gap)
    return spread
