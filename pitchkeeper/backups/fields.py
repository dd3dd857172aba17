"""A row of a model as JSON and back, field by field, for the club backup.

Every concrete field is carried unless the backup names it as written otherwise (the
club a row belongs to, what a game record holds) or it is stamped on every save
(``auto_now``): a field added to a model is carried without a change here. A relation
is written as a key the other database understands (an account's username, a player's
name, a season's place in the file) rather than as an id.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterable, Mapping
from datetime import date, datetime
from decimal import Decimal
from typing import Any

from django.core.exceptions import ValidationError
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from pitchkeeper.core.limits import FIRST_DAY, LAST_DAY
from pitchkeeper.rules import RuleError
from pitchkeeper.rules.errors import REFUSALS

# How a related row is written (its id to a key) and read back (a key to its id).
Writers = Mapping[type[models.Model], Callable[[int], Any]]
Readers = Mapping[type[models.Model], Callable[[Any], int | None]]


def carried_fields(model: type[models.Model], *, skip: Collection[str] = ()) -> list[Any]:
    """The fields a backup writes for ``model``: all but its id, fields stamped on
    every save, and ``skip``."""
    return [
        field
        for field in model._meta.concrete_fields
        if not (field.primary_key or getattr(field, "auto_now", False) or field.name in skip)
    ]


def row_stamp(row: models.Model, fields: Iterable[Any], values: Mapping[str, Any]) -> None:
    """Write the times of ``values`` that Django sets to "now" when a row is made
    (``auto_now_add``) into the saved ``row``, as saving it overwrote them."""
    stamped = {
        field.name: values[field.name]
        for field in fields
        if getattr(field, "auto_now_add", False) and field.name in values
    }
    for name, value in stamped.items():
        if value is None:
            raise RuleError(
                _('"%(key)s" must be a date and time such as "2024-05-01T20:30:00+00:00"')
                % {"key": name}
            )
    if stamped:
        type(row)._default_manager.filter(pk=row.pk).update(**stamped)


def _plain(value: Any) -> Any:
    if isinstance(value, datetime | date):
        return value.isoformat()
    if isinstance(value, Decimal):
        return str(value)
    return value


def row_dump(row: models.Model, fields: Iterable[Any], writers: Writers) -> dict[str, Any]:
    """``row``'s fields as JSON data."""
    data: dict[str, Any] = {}
    for field in fields:
        if field.is_relation:
            pk = getattr(row, field.attname)
            data[field.name] = None if pk is None else writers[field.related_model](pk)
        else:
            data[field.name] = _plain(field.value_from_object(row))
    return data


def _expected(field: Any) -> tuple[type | tuple[type, ...], str]:
    """The type a field's value is written as, and the words for a value of another."""
    if isinstance(field, models.BooleanField):
        return bool, REFUSALS["field_not_bool"]
    if isinstance(field, models.IntegerField):
        return int, gettext_noop('"%(key)s" must be a whole number')
    return str, gettext_noop('"%(key)s" must be a text')


def field_value(field: Any, raw: Any) -> Any:
    """A value written by ``row_dump`` read back for ``field``; a RuleError says what
    is wrong with it."""
    if isinstance(field, models.JSONField) or raw is None:
        return raw
    kind, words = _expected(field)
    if not isinstance(raw, kind) or (kind is int and isinstance(raw, bool)):
        raise RuleError(_(words) % {"key": field.name})
    try:
        value = field.to_python(raw)
    except ValidationError as error:
        raise RuleError(f'"{field.name}": {" ".join(error.messages)}') from None
    if isinstance(value, date):
        day = value.date() if isinstance(value, datetime) else value
        if not FIRST_DAY <= day <= LAST_DAY:
            # The days a season may have (core.limits), the ends included; far enough
            # from the ends of Python's dates that a time shows in any time zone.
            raise RuleError(
                _('"%(key)s" must be between %(first)s and %(last)s')
                % {"key": field.name, "first": FIRST_DAY, "last": LAST_DAY}
            )
    if isinstance(value, datetime) and timezone.is_naive(value):
        value = timezone.make_aware(value)
    return value


def row_values(data: Any, fields: Iterable[Any], readers: Readers) -> dict[str, Any]:
    """The model's keyword arguments (by attribute name) from ``row_dump`` data; a field
    left out keeps its default, an unknown one is refused."""
    fields = list(fields)
    if not isinstance(data, Mapping):
        raise RuleError(_("must be a JSON object"))
    unknown = set(data) - {field.name for field in fields}
    if unknown:
        raise RuleError("field_unknown", {"unknown": tuple(sorted(map(str, unknown)))})
    values: dict[str, Any] = {}
    for field in fields:
        if field.name not in data:
            continue
        raw = data[field.name]
        if field.is_relation:
            values[field.attname] = None if raw is None else readers[field.related_model](raw)
        else:
            values[field.attname] = field_value(field, raw)
    return values


def row_check(row: models.Model, *, exclude: Collection[str] = ()) -> None:
    """Django's own validation of a row about to be saved, as one RuleError."""
    try:
        row.full_clean(exclude=list(exclude))
    except ValidationError as error:
        found = error.message_dict
        raise RuleError(
            "; ".join(
                f'"{name}": {" ".join(messages)}' if name != "__all__" else " ".join(messages)
                for name, messages in found.items()
            )
        ) from None


# Control characters: no text the app stores holds one (a form refuses NUL, a name every
# control character, a token all but letters, digits, - and _), and PostgreSQL cannot
# store NUL at all.
CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")


def _item(key: str | int | None) -> str:
    return key.removesuffix("s") if isinstance(key, str) else "entry"


def text_check(data: Any, where: str = "", parent: str | int | None = None) -> None:
    """Refuse the first control character in any text of ``data``, keys included, with
    where it is ("game 2: change 1: "before": "pitcher": ...")."""
    if isinstance(data, str):
        found = CONTROL.search(data)
        if found is not None:
            code = f"U+{ord(found.group()):04X}"
            raise RuleError(
                _("%(where)sa text holds the control character %(code)s")
                % {"where": where, "code": code}
            )
    elif isinstance(data, Mapping):
        for key, value in data.items():
            text_check(key, where, parent)
            # A list's items are named after its key: "game 2", not ""games": game 2".
            text_check(value, where if isinstance(value, list) else f'{where}"{key}": ', key)
    elif isinstance(data, list):
        for number, value in enumerate(data, start=1):
            text_check(value, f"{where}{_item(parent)} {number}: ", number)
