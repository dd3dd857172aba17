"""Names as people type or import them (players, teams, clubs, seasons, usernames):
normalised the one way everywhere, and refused, in the user's language, when empty, too
long, holding invisible or control characters, or when they read like a name already
there (the same letters in another script: Cyrillic "Аnn" beside Latin "Ann")."""

from __future__ import annotations

import functools
import unicodedata
from collections.abc import Iterable

from confusable_homoglyphs import confusables
from django.core.exceptions import ValidationError
from django.utils.functional import Promise
from django.utils.translation import gettext as _

from pitchkeeper.rules.record import hidden_character, normal_name


def name_clean(name: str, *, limit: int, empty: str | Promise) -> str:
    """``name`` normalised (NFKC, white space collapsed, stripped), or a ValidationError:
    ``empty`` when nothing is left, and a message saying which character is hidden or
    how long the name is."""
    name_visible(name.strip())
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


def name_visible(name: str) -> None:
    """A ValidationError naming the first invisible or control character of ``name``
    (``hidden_character``), if it has one. The validator of every name field, so that a
    model's ``full_clean`` refuses what the forms refuse."""
    hidden = hidden_character(name)
    if hidden is not None:
        # Zero-width and direction characters make two names that look the same differ
        # (and PostgreSQL cannot store a NUL at all).
        raise ValidationError(
            _("A name cannot contain invisible or control characters (%(character)s)."),
            code="invisible",
            params={"character": hidden},
        )


def name_key(name: str) -> str:
    """What two names are compared by: "Ａｎｎ", "ANN" and "ann" are the same name."""
    return normal_name(name).casefold()


def names_alike(one: str, other: str) -> bool:
    """Whether two names can be mistaken for each other: the same Unicode TR39 skeleton
    (each character replaced by the one it is drawn like: Cyrillic "А" and Greek "Α" by
    Latin "A", "I" and "1" by "l"), without regard to case."""
    (one_last, one_first), (other_last, other_first) = name_looks(one), name_looks(other)
    return one_last == other_last or one_first == other_first


@functools.lru_cache(maxsize=4096)
def name_looks(name: str) -> tuple[str, str]:
    """What a name looks like: its skeleton case-folded, and the skeleton of its case
    folding. Folding comes last or first as the letters need: the capitals of "ΑΝΝ" look
    like "ANN", but their small letters "ανν" do not look like "ann"; the small letters
    of "ЅΡRING" look like "spring", but its capital "I" looks like an "l".

    Cached: a roster's names are looked at again at every name typed into it."""
    name = normal_name(name)
    return _skeleton(name).casefold(), _skeleton(name.casefold())


def _skeleton(text: str) -> str:
    decomposed = unicodedata.normalize("NFD", text)
    prototypes = _prototypes()
    return unicodedata.normalize(
        "NFD", "".join(prototypes.get(character, character) for character in decomposed)
    )


@functools.cache
def _prototypes() -> dict[str, str]:
    """Each character of Unicode's confusables list mapped to the one it is drawn like
    (its prototype), built once from confusable-homoglyphs' copy of the list.

    The package keeps each line of the list ("А → A") both ways, so a character's
    homoglyphs are its prototype, or, for a prototype, the characters drawn like it.
    Every group is then a star: one prototype with its look-alikes around it, or a pair.
    The prototype of a pair of single characters is taken to be the smaller (either
    serves, the same for both); a sequence ("rn", which "m" is drawn like) is always the
    prototype, as the list's look-alikes are single characters. Characters written right
    to left come wrapped in direction marks, which are dropped.
    """
    links: dict[str, set[str]] = {}
    for source, entries in confusables.confusables_data.items():
        for entry in entries:
            one, other = _unmarked(source), _unmarked(entry["c"])
            if one != other:
                links.setdefault(one, set()).add(other)
                links.setdefault(other, set()).add(one)
    prototypes: dict[str, str] = {}
    for character, others in links.items():
        if len(character) != 1 or len(others) != 1:
            continue  # a sequence, or the prototype of several
        (other,) = others
        if len(other) > 1 or len(links[other]) > 1:
            prototypes[character] = other
        else:
            prototypes[character] = min(character, other)
    return prototypes


def _unmarked(text: str) -> str:
    return text.replace("\u200e", "").replace("\u200f", "")


def name_unlike(
    name: str, others: Iterable[str], *, duplicate: str | Promise, where: str | Promise
) -> None:
    """A ValidationError when ``name`` is one of ``others`` in other letters or case
    (``name_key``): ``duplicate``, with ``%(name)s`` the name there; or when it looks like
    one of them (``names_alike``): which one, and ``where`` it is ("already on the roster")."""
    key = name_key(name)
    alike = None
    for other in others:
        if name_key(other) == key:
            raise ValidationError(duplicate, code="duplicate", params={"name": other})
        if alike is None and names_alike(name, other):
            alike = other
    if alike is not None:
        raise ValidationError(
            _(
                "“%(name)s” looks like “%(other)s”, %(where)s; "
                "choose a name that reads differently."
            ),
            code="lookalike",
            params={"name": name, "other": alike, "where": where},
        )
