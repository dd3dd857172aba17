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
        raise RuleError("setting_not_list", {"setting": name})
    return tuple(build(item, f"{name}[{index}]") for index, item in enumerate(value))


def _object_from(
    cls: type, data: Any, where: str, shape: RuleError, types: Mapping[str, tuple[type, bool]]
) -> Any:
    """A Category or MoonBid from its stored form. ``types`` gives each optional
    field's type and whether it may be null."""
    if not isinstance(data, Mapping):
        raise RuleError("entry_not_object", {"where": where, "shape": shape})
    unknown = set(data) - {f.name for f in fields(cls)}
    if unknown:
        raise RuleError("entry_unknown", {"where": where, "unknown": tuple(sorted(unknown))})
    key = data.get("key")
    if not isinstance(key, str) or not key:
        raise RuleError("entry_key", {"where": where})
    values = {"key": key, "label": data.get("label", key)}
    for name, (kind, nullable) in types.items():
        if name in data:
            if not _is(data[name], kind, allow_none=nullable):
                raise RuleError("entry_type", {"where": where, "key": key, "setting": name})
            values[name] = data[name]
    try:
        return cls(**values)
    except TypeError:
        params = {"where": where, "key": key, "shape": shape}
        raise RuleError("entry_incomplete", params) from None


def _category_from(data: Any, where: str) -> Category:
    types = {
        "value": (int, False),
        "kind": (str, False),
        "required": (bool, False),
        "max_count": (int, True),
    }
    return _object_from(Category, data, where, RuleError("shape_category", {}), types)


def _moon_bid_from(data: Any, where: str) -> MoonBid:
    types = {
        "value": (int, False),
        "all_tricks": (bool, False),
        "decides_game": (bool, False),
        "allowed_in_hole": (bool, False),
        "allowed_under": (int, True),
    }
    return _object_from(MoonBid, data, where, RuleError("shape_moon", {}), types)


def _is(value: Any, kind: type, *, allow_none: bool = False) -> bool:
    if value is None:
        return allow_none
    if kind is int:
        return isinstance(value, int) and not isinstance(value, bool)
    return isinstance(value, kind)


# The settings that may be null; what null means is the refusal "null_<setting>".
NULLABLE = ("max_bid", "win_by", "score_floor", "lose_at", "draw_at", "forced_bid", "steal_up_to")


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
        raise RuleError("rules_not_spec", {})
    name = spec.get("preset", DEFAULT_PRESET)
    # Checked as text first: a list or an object here is unhashable.
    if not isinstance(name, str) or name not in PRESETS:
        raise RuleError("preset_unknown", {"name": name, "known": tuple(PRESETS)})
    base = PRESETS[name]
    setting_names = {f.name for f in fields(Ruleset)}
    unknown = set(spec) - setting_names - DROPPED_SETTINGS
    if unknown:
        raise RuleError("setting_unknown", {"unknown": tuple(sorted(unknown))})
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
                raise RuleError("setting_keys", {"setting": f.name})
            value = tuple(value)
        elif f.name in NULLABLE:
            if not _is(value, int, allow_none=True):
                meaning = RuleError(f"null_{f.name}", {})
                raise RuleError("setting_nullable", {"setting": f.name, "meaning": meaning})
        elif not _is(value, type(default)):
            raise RuleError(_type_code(default), {"setting": f.name})
        overrides[f.name] = value
    return replace(base, **overrides)


def _type_code(default: Any) -> str:
    if isinstance(default, bool):
        return "setting_bool"
    if isinstance(default, int):
        return "setting_whole"
    return "setting_text"
