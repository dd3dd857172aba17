"""The hand form's renderer: Django's own, with a choice button's input drawn in Python.

The hand form is some sixty radio buttons and checkboxes, and Django renders each one
from three nested templates (input_option, input, attrs); that was most of the time the
game screen took to render. ``option_tag`` writes the same HTML with ``format_html``
(tests/games/test_form_render.py compares the two, option by option); everything else
still comes from Django's templates."""

from __future__ import annotations

from typing import Any

from django.forms.renderers import DjangoTemplates
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString

OPTION_TEMPLATES = frozenset(
    {"django/forms/widgets/radio_option.html", "django/forms/widgets/checkbox_option.html"}
)


def option_tag(widget: dict[str, Any]) -> SafeString:
    """One choice's ``<input>`` (in its ``<label>`` when ``wrap_label``), as Django's
    input_option.html makes it from the same context."""
    attrs = format_html_join(
        "",
        " {}{}",
        (
            (name, "" if value is True else format_html('="{}"', value))
            for name, value in widget["attrs"].items()
            if value is not False
        ),
    )
    value = "" if widget["value"] is None else format_html(' value="{}"', widget["value"])
    tag = format_html(
        '<input type="{}" name="{}"{}{}>', widget["type"], widget["name"], value, attrs
    )
    if not widget.get("wrap_label"):
        return tag
    label_for = format_html(' for="{}"', widget["attrs"]["id"]) if widget["attrs"].get("id") else ""
    return format_html("<label{}>{} {}</label>", label_for, tag, widget["label"])


class ChoicesInPython(DjangoTemplates):
    """Django's template renderer, except for a radio button's or checkbox's input."""

    def render(self, template_name: str, context: dict[str, Any], request: Any = None) -> str:
        if template_name in OPTION_TEMPLATES:
            return option_tag(context["widget"])
        return super().render(template_name, context, request)
