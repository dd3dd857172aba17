"""The hand form's choices drawn in Python are the HTML Django's own widget templates
make of them: every input of every preset's form, checked, disabled and refused ones
too, with names that need escaping."""

from __future__ import annotations

import pytest
from django import forms
from django.forms.renderers import DjangoTemplates
from django.template import Context, Template

from pitchkeeper.games.forms.hand import HandForm
from pitchkeeper.games.forms.render import escaped, option_tag
from pitchkeeper.rules import PRESETS

pytestmark = pytest.mark.django_db

# Names with every character HTML escapes (the roster allows them).
NAMES = ("Ann & Bo", 'Cy "C"', "Dee's", "<Eve>")


def inputs(form: HandForm, renderer: object) -> list[str]:
    """Every choice input of ``form``, bare and in its label, drawn by ``renderer``."""
    form.renderer = renderer
    drawn = []
    for name, field in form.fields.items():
        if isinstance(field.widget, forms.RadioSelect | forms.CheckboxSelectMultiple):
            # A bound field keeps its inputs, and their renderer, once they are made.
            form[name].__dict__.pop("subwidgets", None)
            for choice in form[name]:
                drawn += [str(choice.tag()), str(choice.tag(wrap_label=True))]
    return drawn


def forms_of(state) -> list[HandForm]:
    """The form as the game screen shows it, and one sent back with entries, some of
    them refused, so that inputs come checked, disabled and with errors."""
    dealer = state.result.dealer
    blank = HandForm(state=state, dealer=dealer)
    blank.offer_legal_bids()
    data = {
        "auction_0": "pass",
        "auction_1": "2",
        "revoked": [NAMES[0], NAMES[3]],
        **{f"point_{c.key}": NAMES[1] for c in state.record.rules.categories},
    }
    sent = HandForm(data, state=state, dealer=dealer)
    sent.offer_legal_bids()
    sent.is_valid()
    return [blank, sent]


@pytest.mark.parametrize("preset", PRESETS)
def test_every_choice_is_drawn_as_djangos_templates_draw_it(make_game, preset):
    teams = {"Us & co": list(NAMES[::2]), "<Them>": list(NAMES[1::2])}
    state = make_game(preset, NAMES, teams=teams if PRESETS[preset].partnership else None)

    for form in forms_of(state):
        drawn = inputs(form, form.default_renderer)
        assert drawn, "the form has choices"
        assert drawn == inputs(form, DjangoTemplates())


def test_escaping_is_a_templates():
    template = Template("{{ value }}")
    for value in ["a&b", '"q"', "it's", "<b>", forms.widgets.mark_safe("<b>safe</b>"), 3, None]:
        assert escaped(value) == template.render(Context({"value": value}))


def test_an_option_with_every_kind_of_attribute():
    widget = {
        "type": "radio",
        "name": "point_high",
        "value": 'A "b"',
        "attrs": {"id": "id_x_0", "checked": True, "disabled": False, "data-n": 0},
        "label": "<Ann>",
        "wrap_label": True,
    }
    django = DjangoTemplates().render("django/forms/widgets/radio_option.html", {"widget": widget})

    assert option_tag(widget) == django
