"""The look holds together: every size of type is a step of the type scale, every space
a step of the spacing scale, and the dark scheme gives every colour token a value of its
own (static/css/app.css defines them; the pages use nothing else)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

CSS = sorted((Path(__file__).resolve().parent.parent / "static" / "css").glob("*.css"))
TOKENS = (CSS[0].parent / "app.css").read_text()
# The live board scales with the screen it is shown on (a TV across the room): its
# sizes are relative to the viewport or to its own text, never fixed lengths.
RELATIVE = re.compile(r"^(clamp\(.*\)|[0-9.]+em|[0-9.]+%|inherit)$")
SPACING = re.compile(
    r"(?<![-\w])(?:margin|padding|gap|row-gap|column-gap)(?:-[a-z-]+)?:\s*([^;{}]+);"
)


def declarations(pattern: re.Pattern[str]) -> list[tuple[str, str]]:
    return [
        (css.name, m.group(1).strip()) for css in CSS for m in pattern.finditer(css.read_text())
    ]


def test_the_scales_are_defined():
    steps = re.findall(r"--(text|space)-(\w+):", TOKENS)
    assert len([s for s in steps if s[0] == "text"]) >= 6
    assert len([s for s in steps if s[0] == "space"]) >= 6


@pytest.mark.parametrize(("sheet", "value"), declarations(re.compile(r"font-size:\s*([^;]+);")))
def test_type_sizes_are_steps_of_the_scale(sheet, value):
    assert re.fullmatch(r"var\(--text-\w+\)", value) or RELATIVE.match(value), (
        f"{sheet}: font-size {value}"
    )


@pytest.mark.parametrize(("sheet", "value"), declarations(SPACING))
def test_spaces_are_steps_of_the_scale(sheet, value):
    for part in value.split():
        fixed = re.fullmatch(r"-?[0-9.]+(rem|px)", part) and part not in ("0px",)
        assert not fixed, f"{sheet}: {value} (use var(--space-N))"


def test_the_dark_scheme_gives_every_colour_a_value():
    light, dark = re.findall(r":root\s*{([^}]*)}", TOKENS)[:2]
    colours = {n for n, v in re.findall(r"--([\w-]+):\s*(#[0-9a-f]+)", light)}
    assert colours and colours == set(re.findall(r"--([\w-]+):\s*#", dark))


def test_the_checks_catch_a_fixed_size():
    sample = "p { font-size: 13px; margin: 0 0.3rem; }"
    assert re.search(r"font-size:\s*([^;]+);", sample).group(1) == "13px"
    assert not re.fullmatch(r"var\(--text-\w+\)", "13px") and not RELATIVE.match("13px")
    assert SPACING.search(sample).group(1) == "0 0.3rem"
