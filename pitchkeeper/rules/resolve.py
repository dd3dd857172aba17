"""A ruleset as a game stores it, or as a person or a backup writes it: a preset's name,
or a preset plus settings, checked setting by setting and resolved into a full ruleset."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import fields, replace
from typing import Any

from .errors import RuleError
from .presets import DEFAULT_PRESET, PRESETS
from .ruleset import Category, MoonBid, Ruleset


def _entries(name: str, value: Any, build: Callable[[Any, str], Any]) -> tuple[Any, ...]:
    if not isinstance(value, list | tuple):
        raise RuleError(f"{name} must be a list")
    return tuple(build(item, f"{name}[{index}]") for index, item in enumerate(value))


def _object_from(
    cls: type, data: Any, where: str, shape: str, types: Mapping[str, tuple[type, bool]]
) -> Any:
    """A Category or MoonBid from its stored form. ``types`` gives each optional
    field's type and whether it may be null."""
    if not isinstance(data, Mapping):
        raise RuleError(f"{where} must be an object with {shape}")
    unknown = set(data) - {f.name for f in fields(cls)}
    if unknown:
        raise RuleError(f"{where}: unknown setting {', '.join(sorted(unknown))}")
    key = data.get("key")
    if not isinstance(key, str) or not key:
        raise RuleError(f"{where}: key must be a non-empty text")
    values = {"key": key, "label": data.get("label", key)}
    for name, (kind, nullable) in types.items():
        if name in data:
            if not _is(data[name], kind, allow_none=nullable):
                raise RuleError(f"{where} ({key}): {name} has the wrong type")
            values[name] = data[name]
    try:
        return cls(**values)
    except TypeError:
        raise RuleError(f"{where} ({key}): give its {shape}") from None


def _category_from(data: Any, where: str) -> Category:
    types = {
        "value": (int, False),
        "kind": (str, False),
        "required": (bool, False),
        "max_count": (int, True),
    }
    return _object_from(Category, data, where, "key, label, value and kind", types)


def _moon_bid_from(data: Any, where: str) -> MoonBid:
    types = {
        "value": (int, False),
        "all_tricks": (bool, False),
        "decides_game": (bool, False),
        "allowed_in_hole": (bool, False),
        "allowed_under": (int, True),
    }
    return _object_from(MoonBid, data, where, "key, label and value", types)


def _is(value: Any, kind: type, *, allow_none: bool = False) -> bool:
    if value is None:
        return allow_none
    if kind is int:
        return isinstance(value, int) and not isinstance(value, bool)
    return isinstance(value, kind)


# The settings that may be null, and what null means.
NULLABLE = {
    "max_bid": "open-ended",
    "win_by": "no lead needed",
    "score_floor": "no floor",
    "lose_at": "nobody loses by falling",
    "draw_at": "no draw",
    "forced_bid": "no hand forces a bid",
    "steal_up_to": "any bid below max_bid",
}


# Settings that stored rulesets (games, records, backups) may still carry but that no
# longer mean anything: accepted and dropped, so that they keep loading. ``low_to`` said
# whether Low goes to the player dealt it or to the one who takes it in a trick (seed
# 000 and its variant), but the scorekeeper records who got it and the engine never
# read the setting.
DROPPED_SETTINGS = frozenset({"low_to"})


def resolve_rules(spec: str | Mapping[str, Any] | None) -> Ruleset:
    """A preset name, or ``{"preset": name, setting: value, ...}``, as a full ruleset.

    A resolved ruleset (``to_dict()`` output) resolves to itself.
    """
    if spec is None:
        spec = DEFAULT_PRESET
    if isinstance(spec, str):
        spec = {"preset": spec}
    if not isinstance(spec, Mapping):
        raise RuleError("rules must be a preset name or an object of settings")
    name = spec.get("preset", DEFAULT_PRESET)
    # Checked as text first: a list or an object here is unhashable.
    if not isinstance(name, str) or name not in PRESETS:
        raise RuleError(f"unknown preset {name!r}; known presets: {', '.join(PRESETS)}")
    base = PRESETS[name]
    setting_names = {f.name for f in fields(Ruleset)}
    unknown = set(spec) - setting_names - DROPPED_SETTINGS
    if unknown:
        raise RuleError(f"unknown rule setting {', '.join(sorted(unknown))}")
    overrides: dict[str, Any] = {}
    for f in fields(Ruleset):
        if f.name not in spec or f.name == "preset":
            continue
        value = spec[f.name]
        default = getattr(base, f.name)
        if f.name == "categories":
            value = _entries("categories", value, _category_from)
        elif f.name == "moon_bids":
            value = _entries("moon_bids", value, _moon_bid_from)
        elif f.name in ("tiebreak", "anyone_scores"):
            if not isinstance(value, list | tuple) or not all(isinstance(v, str) for v in value):
                raise RuleError(f"{f.name} must be a list of category keys")
            value = tuple(value)
        elif f.name in NULLABLE:
            if not _is(value, int, allow_none=True):
                raise RuleError(f"{f.name} must be a whole number or null ({NULLABLE[f.name]})")
        elif not _is(value, type(default)):
            raise RuleError(f"{f.name} must be {_type_words(default)}")
        overrides[f.name] = value
    return replace(base, **overrides)


def _type_words(default: Any) -> str:
    if isinstance(default, bool):
        return "true or false"
    if isinstance(default, int):
        return "a whole number"
    return "a text"
