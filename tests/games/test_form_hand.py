"""The hand form and the rules read a post alike: for any post of the form's fields,
Django's field checks pass exactly where the rules find every value one the form offers,
and then HandForm.record() and rules.entry.hand_from_fields give the same hand, or the
same refusal (the phone runs the latter on what its form posts)."""

from __future__ import annotations

from typing import Any

from django.http import QueryDict
from hypothesis import given, settings
from hypothesis import strategies as st

from pitchkeeper.games.forms.hand import HandForm
from pitchkeeper.games.replay import GameState
from pitchkeeper.rules import PRESETS, GameRecord, RuleError, Seating, Team
from pitchkeeper.rules.entry import hand_from_fields

FOUR = Seating(("Ann", "Bob", "Cy", "Dee"))
PAIRS = Seating(
    ("Ann", "Bob", "Cy", "Dee"), (Team("Us", ("Ann", "Cy")), Team("Them", ("Bob", "Dee")))
)
# A preset of each kind of entry: the grid (setback), pitcher and bid with counted points
# (pitch with bidding), an auction round until one (bonanza), a called partner
# (razzle-dazzle), a forced bid (nine-five), every trick taken (partnership), no bidding.
TABLES = {
    "setback": FOUR,
    "pitch-with-bidding": Seating(("Ann", "Bob", "Cy")),
    "bonanza": PAIRS,
    "razzle-dazzle": FOUR,
    "nine-five": PAIRS,
    "partnership": PAIRS,
    "all-fours": PAIRS,
}
# What a page, a stale page or a hand-made post may send besides the choices.
JUNK = st.sampled_from(["", "Zed", "0", "-1", " 2 ", "-0", "x", "99", "nobody", "alone", "pass"])


def state_for(preset: str) -> GameState:
    record = GameRecord(PRESETS[preset], TABLES[preset], "Ann", ())
    return GameState(game=None, seats=[], hands=[], record=record, result=record.replay())  # type: ignore[arg-type]


@st.composite
def posts(draw: st.DrawFn) -> tuple[str, str, dict[str, list[str]]]:
    """A preset, a button and a post of its form's fields, each left out, a choice the
    form offers, or something else."""
    preset = draw(st.sampled_from(sorted(TABLES)))
    form = HandForm(state=state_for(preset), dealer="Ann")
    post: dict[str, list[str]] = {}
    for name, field in form.fields.items():
        choices = [str(value) for value, _label in getattr(field, "choices", [])]
        if not choices:  # a count, or the box for every trick
            choices = ["on"] if name == "all_tricks" else ["", "0", "1", "2"]
        # Mostly a choice offered, so that a post gets far enough for a wrong value to
        # be the one that tells.
        kind = draw(st.sampled_from(["choice"] * 6 + ["none", "junk"]))
        if kind == "none":
            continue
        if name in ("revoked", "forced"):
            values = draw(st.lists(st.sampled_from(choices), max_size=2))
        else:
            values = [draw(st.sampled_from(choices))]
        if kind == "junk":
            values[-1:] = [draw(JUNK)]
        post[name] = values
    action = draw(st.sampled_from(["save", "save", "save", "misdeal", "passed"]))
    return preset, action, post


def outcome(read: Any) -> tuple[Any, ...]:
    try:
        return ("hand", read())
    except RuleError as error:
        return ("refused", error.code, error.params, error.field)


@settings(max_examples=300, deadline=None)
@given(posts())
def test_the_form_and_the_rules_read_a_post_alike(case):
    preset, action, post = case
    state = state_for(preset)
    data = QueryDict(mutable=True)
    for name, values in post.items():
        data.setlist(name, values)
    form = HandForm(data, state=state, dealer="Ann")
    rules, seating = state.record.rules, state.record.seating

    read = outcome(
        lambda: hand_from_fields(post, rules=rules, seating=seating, dealer="Ann", action=action)
    )
    if action == "save" and not form.is_valid():
        assert read[0] == "refused", form.errors
        return
    assert read == outcome(lambda: form.record(action))
    assert read[:2] != ("refused", "entry_not_offered"), post
