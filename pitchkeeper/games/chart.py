"""The running-totals chart of a game, drawn as inline SVG."""

from __future__ import annotations

from dataclasses import dataclass

from pitchkeeper.games.replay import GameState

# Okabe-Ito colours, told apart by people with colour blindness; each line also has
# its own dash pattern and its name at its end, so colour is never the only signal.
LINE_COLOURS = ("#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9", "#7f7f7f")


LINE_DASHES = ("", "8 4", "2 4", "10 4 2 4", "4 4", "12 6", "1 3")


CHART_WIDTH, CHART_HEIGHT, CHART_PAD, CHART_LABEL = 320, 180, 12, 64


CHART_LABEL_GAP = 11
# A name at the end of its line, 11 units high, takes up to this much room a character;
# the drawing is made wider for long names (and the page scales it to the screen), so
# that a name is never cut at its right edge.
CHART_LABEL_CHAR = 6.4


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
    longest = max(len(side) for side in result.sides)
    width = right + max(CHART_LABEL, round(longest * CHART_LABEL_CHAR) + 6)
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
    return Chart(width, CHART_HEIGHT, lines, y(target), y(0), right, top, bottom)


def _spread(positions: list[float], gap: float) -> list[float]:
    """The positions, moved down just enough that no two are closer than ``gap``, so
    the names at the ends of lines that finish level stay readable."""
    order = sorted(range(len(positions)), key=lambda i: positions[i])
    spread = list(positions)
    for before, index in zip(order, order[1:], strict=False):
        spread[index] = max(spread[index], spread[before] + gap)
    return spread
