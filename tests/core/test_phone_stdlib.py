"""The phone's own ``dataclasses`` and ``typing`` (pitchkeeper/core/phone_stdlib), checked
here against CPython's: the same answers for what the rules use, the same errors for
what a caller gets wrong, and every name the rules import from them there."""

from __future__ import annotations

import ast
import dataclasses as real
import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

import pitchkeeper.rules
from pitchkeeper.core.brython import PHONE_STDLIB, SERVER_ONLY_RULES, bundle

RULES = Path(pitchkeeper.rules.__file__).parent


def phone_module(name: str) -> ModuleType:
    """The phone's module ``name``, loaded under another name (the server's own stays)."""
    spec = importlib.util.spec_from_file_location(f"phone_{name}", PHONE_STDLIB / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


PHONE = phone_module("dataclasses")
BOTH = pytest.mark.parametrize("dc", [real, PHONE], ids=["cpython", "phone"])


def classes(dc: Any) -> tuple[type, type, type]:
    """A frozen class with every kind of field the rules use, one nested in it, and a
    plain one with a field set by ``__post_init__``: made by ``dc``."""

    @dc.dataclass(frozen=True)
    class Inner:
        key: str
        amount: int = 1

    @dc.dataclass(frozen=True)
    class Outer:
        name: str
        inner: Inner
        many: tuple[Inner, ...] = ()
        table: dict[str, Any] = dc.field(default_factory=dict)
        tags: list[str] = dc.field(default_factory=list)

        def total(self) -> int:
            return self.inner.amount + sum(i.amount for i in self.many)

    @dc.dataclass
    class Plain:
        players: list[str]
        first: str = "nobody"
        index: dict[str, int] = dc.field(init=False, repr=False, compare=False)

        def __post_init__(self) -> None:
            self.index = {name: i for i, name in enumerate(self.players)}

    return Inner, Outer, Plain


def behaviour(dc: Any) -> dict[str, Any]:
    """What the classes made by ``dc`` answer, with their names left out of the answer."""
    Inner, Outer, Plain = classes(dc)
    one = Outer("Ann", Inner("high"), (Inner("low", 2),), {"a": [1, (2, 3)]}, ["x"])
    same = Outer(name="Ann", inner=Inner(key="high"), many=(Inner("low", 2),))
    same = dc.replace(same, table={"a": [1, (2, 3)]}, tags=["x"])
    plain = Plain(["Bob", "Cy"])
    answers: dict[str, Any] = {
        "repr": repr(one).replace(".<locals>", ""),
        "equal": one == same,
        "hash": hash(Inner("low", 2)),  # a tuple's: the same number on both
        "not equal": one == dc.replace(one, name="Bob"),
        "other type": one == ("Ann",),
        "total": one.total(),
        "asdict": dc.asdict(one),
        "fields": [(f.name, f.init, f.repr, f.compare) for f in dc.fields(Plain)],
        "fields of instance": [f.name for f in dc.fields(one)],
        "post_init": plain.index,
        "plain repr": repr(plain).replace(".<locals>", ""),
        "plain equal": plain == Plain(["Bob", "Cy"]),
        "plain default": plain.first,
        "fresh factory": Outer("a", Inner("b")).tags is not Outer("a", Inner("b")).tags,
        "class default": Outer.many,
        "replace keeps": dc.replace(plain, first="Bob").index,
    }
    plain.first = "Cy"  # a plain dataclass takes assignments
    answers["assigned"] = plain.first
    return answers


def refusals(dc: Any) -> list[tuple[str, str]]:
    """The exception and its message for each mistake a caller can make."""
    Inner, Outer, Plain = classes(dc)
    one = Inner("high")
    mistakes = [
        lambda: setattr(one, "amount", 2),
        lambda: delattr(one, "key"),
        lambda: Inner(),
        lambda: Inner("a", 1, 2),
        lambda: Inner("a", key="b"),
        lambda: Inner("a", colour="red"),
        lambda: hash(Plain(["Ann"])),
        lambda: dc.replace(Plain(["Ann"]), index={}),
        lambda: dc.fields(object()),
        lambda: dc.asdict(Inner),
    ]
    found = []
    for mistake in mistakes:
        with pytest.raises(Exception) as caught:
            mistake()
        found.append((type(caught.value).__name__, str(caught.value).replace(".<locals>", "")))
    return found


def test_the_phones_dataclasses_answer_as_cpythons():
    assert behaviour(PHONE) == behaviour(real)


def test_the_phones_dataclasses_refuse_as_cpythons():
    phone, cpython = refusals(PHONE), refusals(real)
    # The class's qualified name in CPython's __init__ messages names the function
    # that made it; the phone's names the class.
    assert [kind for kind, _ in phone] == [kind for kind, _ in cpython]
    for (_kind, said), (_same, expected) in zip(phone, cpython, strict=True):
        assert said.rsplit("__init__()", 1)[-1] == expected.rsplit("__init__()", 1)[-1]
    frozen = refusals(PHONE)[0]
    assert frozen[0] == "FrozenInstanceError"
    assert issubclass(PHONE.FrozenInstanceError, AttributeError)


@BOTH
def test_a_field_after_one_with_a_default_needs_one_too(dc):
    with pytest.raises(TypeError, match="non-default argument 'b' follows default argument"):

        @dc.dataclass
        class Wrong:
            a: int = 0
            b: int


@BOTH
def test_a_frozen_class_keeps_a_hash_of_its_own(dc):
    @dc.dataclass(frozen=True)
    class Hashed:
        a: int

        def __hash__(self) -> int:
            return 7

    assert hash(Hashed(1)) == 7


def imported_from(module: str) -> set[str]:
    """Every name the phone's rules modules import from ``module``."""
    names = set()
    for path in RULES.glob("*.py"):
        if path.stem in SERVER_ONLY_RULES:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module == module:
                names |= {alias.name for alias in node.names}
            if isinstance(node, ast.Import):
                assert module not in {alias.name for alias in node.names}, path
    return names


@pytest.mark.parametrize("module", ["dataclasses", "typing"])
def test_every_name_the_rules_import_is_on_the_phone(module):
    phone = phone_module(module)
    names = imported_from(module)
    assert names, f"the rules import nothing from {module}: is the phone's still needed?"
    assert {name for name in names if not hasattr(phone, name)} == set()


def test_the_phones_literal_stands_for_its_values():
    typing = phone_module("typing")
    assert typing.Literal["a", "b"].args == ("a", "b")
    assert typing.Literal["a"].args == ("a",)
    assert repr(typing.Literal["a", "b"]) == "typing.Literal['a', 'b']"
    assert typing.TYPE_CHECKING is False


def test_the_bundle_sends_the_phones_modules_in_place_of_brythons():
    text, _digest = bundle()
    for name in ("dataclasses", "typing"):
        source = (PHONE_STDLIB / f"{name}.py").read_text(encoding="utf-8")
        # The module's first statement as the bundle carries it (without docstrings).
        first = next(
            line for line in source.splitlines() if line.startswith(("def ", "class ", "TYPE"))
        )
        assert first.split("(")[0].split(":")[0] in text
    assert "_DataclassParams" not in text  # CPython's dataclasses is not sent
    assert "_SpecialForm" not in text  # nor its typing
