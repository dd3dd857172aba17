"""The hand form's renderer: Django's own, with a choice button's input drawn in Python.

The hand form is some sixty radio buttons and checkboxes, and Django renders each one
from three nested templates (input_option, input, attrs); that was most of the time the
game screen took to render (bench/bench_render.py: drawn by those templates, the
screen takes some 60% longer). ``option_tag`` writes the same HTML in plain Python
(tests/games/test_form_render.py compares the two, option by option); everything else
still comes from Django's templates, the pills the inputs are laid out in too
(templates/_field.html, and games/_hand_fields.html for the pitcher-and-bid grid)."""

from __future__ import annotations

import html
from typing import Any

from django.forms.renderers import DjangoTemplates
from django.utils.safestring import SafeString, mark_safe

OPTION_TEMPLATES = frozenset(
    {"django/forms/widgets/radio_option.html", "django/forms/widgets/checkbox_option.html"}
)


def escaped(value: Any) -> str:
    """``value`` as a template prints it: safe text as it is, anything else escaped.
    Django's ``conditional_escape`` does the same, at several times the cost (it checks
    every argument for a lazy string first), and a form calls it a few hundred times."""
    if hasattr(value, "__html__"):
        return value.__html__()
    return html.escape(str(value))


def option_tag(widget: dict[str, Any]) -> SafeString:
    """One choice's ``<input>`` (in its ``<label>`` when ``wrap_label``), as Django's
    input_option.html makes it from the same context."""
    parts = [f'<input type="{escaped(widget["type"])}" name="{escaped(widget["name"])}"']
    if widget["value"] is not None:
        parts.append(f' value="{escaped(widget["value"])}"')
    for name, value in widget["attrs"].items():
        if value is True:
            parts.append(f" {escaped(name)}")
        elif value is not False:
            parts.append(f' {escaped(name)}="{escaped(value)}"')
    tag = "".join(parts) + ">"
    if widget.get("wrap_label"):
        label_id = widget["attrs"].get("id")
        label_for = f' for="{escaped(label_id)}"' if label_id else ""
        # The newline is the one input.html ends with, which input_option.html keeps.
        tag = f"<label{label_for}>{tag}\n {escaped(widget['label'])}</label>"
    return mark_safe(tag)  # noqa: S308 - every value above is escaped


class ChoicesInPython(DjangoTemplates):
    """Django's template renderer, except for a radio button's or checkbox's input."""

    def render(self, template_name: str, context: dict[str, Any], request: Any = None) -> str:
        if template_name in OPTION_TEMPLATES:
            return option_tag(context["widget"])
        return super().render(template_name, context, request)
