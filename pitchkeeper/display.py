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

from pitchkeeper.rules import PRESET_INFO, Category, eldest_of
from pitchkeeper.services import GameState

# The table's own words for the points (Russian from seed 000, Norwegian from seed 001).
# In the "point" context: the Game point is not the game being played (Гейм, not Партия).
CATEGORY_LABELS = {
    "high": pgettext_lazy("point", "High"),
    "low": pgettext_lazy("point", "Low"),
    "jack": pgettext_lazy("point", "Jack"),
    "game": pgettext_lazy("point", "Game"),
    "queens": pgettext_lazy("point", "Queens"),
    "kings": pgettext_lazy("point", "Kings"),
    "aces": pgettext_lazy("point", "Aces"),
}

# What "nobody took it" means for a point: the Jack was not dealt; Game was tied.
NOBODY_WORDS = {"jack": gettext_lazy("not dealt"), "game": gettext_lazy("tied")}


def category_label(category: Category) -> str:
    return str(CATEGORY_LABELS.get(category.key, category.label))


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
        reason=win_reason(state),
        payments=tuple(
            Payment(payer, payee, chips, chips * chip_value if chip_value is not None else None)
            for payer, payee, chips in result.payments()
        ),
    )


def win_reason(state: GameState) -> str:
    """Why the game was won, in words: "Bob wins: the pitcher's points are counted first"."""
    result = state.result
    if result.winner is None:
        return ""
    values = {"winner": result.winner, "target": state.record.rules.target}
    if result.won_by == "smudge":
        return _("%(winner)s wins: smudge") % values
    if result.won_by == "bidder_out":
        return _("%(winner)s wins: made the bid and reached %(target)s") % values
    if result.won_by == "highest_total":
        return _("%(winner)s wins with the highest score") % values
    first, *others = result.reached
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
    bid: int | None
    smudge: bool
    made: bool | None
    points: tuple[PointTaken, ...]
    revoked: tuple[str, ...]
    changes: tuple[tuple[str, int], ...]


def history(state: GameState) -> list[HandRow]:
    """The hands, latest first, as the history lists them."""
    labels = {c.key: category_label(c) for c in state.record.rules.categories}
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
                bid=hand.bid,
                smudge=hand.smudge,
                made=hand.made,
                points=tuple(points),
                revoked=hand.revoked,
                changes=tuple((side, hand.delta[side]) for side in state.result.sides)
                if hand.delta
                else (),
            )
        )
    return rows[::-1]


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


# The presets' names, and a line each on how they play, for picking one at a new game;
# the engine's own words for the presets not translated here yet.
PRESET_LABELS = {
    **{name: info.label for name, info in PRESET_INFO.items()},
    "setback": gettext_lazy("Setback"),
    "auction-pitch": gettext_lazy("Auction Pitch"),
    "partnership": gettext_lazy("Partnership"),
    "pitch-with-bidding": gettext_lazy("Pitch with bidding"),
    "blind-all-fours": gettext_lazy("Blind All Fours"),
}
PRESET_DESCRIPTIONS = {
    **{name: info.description for name, info in PRESET_INFO.items()},
    "setback": gettext_lazy("Bids 2–4, to 7; a made bid of 4 wins at once; losers pay chips."),
    "auction-pitch": gettext_lazy(
        "Bids 1–4, to 7; the dealer must bid if all pass; only the bidder goes out."
    ),
    "partnership": gettext_lazy("Teams, partners sitting opposite; bids 2–5, to 11."),
    "pitch-with-bidding": gettext_lazy(
        "Open bids; Queens, Kings and Aces count too; the highest total wins."
    ),
    "blind-all-fours": gettext_lazy("No bidding: the player left of the dealer pitches; to 11."),
}


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
