"""Names as people type or import them (players, teams, clubs): normalised the one way
everywhere, and refused, in the user's language, when empty, too long, or holding
invisible or control characters."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.utils.functional import Promise
from django.utils.translation import gettext as _

from pitchkeeper.rules.record import hidden_character, normal_name


def name_clean(name: str, *, limit: int, empty: str | Promise) -> str:
    """``name`` normalised (NFKC, white space collapsed, stripped), or a ValidationError:
    ``empty`` when nothing is left, and a message saying which character is hidden or
    how long the name is."""
    hidden = hidden_character(name.strip())
    if hidden is not None:
        # Zero-width and direction characters make two names that look the same differ
        # (and PostgreSQL cannot store a NUL at all).
        raise ValidationError(
            _("A name cannot contain invisible or control characters (%(character)s)."),
            code="invisible",
            params={"character": hidden},
        )
    name = normal_name(name)
    if not name:
        raise ValidationError(empty, code="required")
    if len(name) > limit:
        raise ValidationError(
            _("A name can be at most %(limit)d characters long; this one has %(length)d."),
            code="max_length",
            params={"limit": limit, "length": len(name)},
        )
    return name


def name_key(name: str) -> str:
    """What two names are compared by: "Ａｎｎ", "ANN" and "ann" are the same name."""
    return normal_name(name).casefold()
