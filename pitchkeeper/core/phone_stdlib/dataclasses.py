"""The phone's ``dataclasses``: ``dataclass`` (plain or frozen), ``field``, ``fields``,
``replace`` and ``asdict``, as CPython's behave for the rules' classes, with methods
that are closures over the class's fields instead of source compiled by ``exec``."""

from __future__ import annotations

from typing import Any

__all__ = ["MISSING", "FrozenInstanceError", "asdict", "dataclass", "field", "fields", "replace"]


class _Missing:
    def __repr__(self) -> str:
        return "MISSING"


MISSING: Any = _Missing()


class FrozenInstanceError(AttributeError):
    pass


class Field:
    def __init__(
        self, default: Any, default_factory: Any, init: bool, repr: bool, compare: bool
    ) -> None:
        self.name = ""
        self.type: Any = None
        self.default = default
        self.default_factory = default_factory
        self.init = init
        self.repr = repr
        self.compare = compare

    def __repr__(self) -> str:
        return f"Field(name={self.name!r},default={self.default!r})"


def field(
    *,
    default: Any = MISSING,
    default_factory: Any = MISSING,
    init: bool = True,
    repr: bool = True,
    compare: bool = True,
) -> Any:
    if default is not MISSING and default_factory is not MISSING:
        raise ValueError("cannot specify both default and default_factory")
    return Field(default, default_factory, init, repr, compare)


def fields(class_or_instance: Any) -> tuple[Field, ...]:
    try:
        found = class_or_instance.__dataclass_fields__
    except AttributeError:
        raise TypeError("must be called with a dataclass type or instance") from None
    return tuple(found.values())


def _fields_of(cls: type) -> dict[str, Field]:
    """The class's fields, those of its dataclass bases first, then its own annotations
    in order (a ClassVar is not a field)."""
    found: dict[str, Field] = {}
    for base in cls.__mro__[-1:0:-1]:
        found.update(getattr(base, "__dataclass_fields__", {}))
    for name, kind in cls.__dict__.get("__annotations__", {}).items():
        if isinstance(kind, str) and kind.startswith(("ClassVar", "typing.ClassVar")):
            continue
        default = cls.__dict__.get(name, MISSING)
        made = default if isinstance(default, Field) else field(default=default)
        made.name, made.type = name, kind
        if isinstance(default, Field):
            if made.default is MISSING:
                delattr(cls, name)
            else:
                setattr(cls, name, made.default)
        found[name] = made
    return found


def _init(cls: type, every: dict[str, Field], frozen: bool) -> Any:
    # Each field as (name, default, default_factory, init), read once here rather than
    # from its Field at every instance made.
    slots = [(f.name, f.default, f.default_factory, f.init) for f in every.values()]
    names = [name for name, _default, _factory, init in slots if init]
    needed = [
        default is MISSING and factory is MISSING for _name, default, factory, init in slots if init
    ]
    for index, name in enumerate(names):
        if needed[index] and not all(needed[:index]):
            raise TypeError(f"non-default argument {name!r} follows default argument")
    least = sum(needed)
    takes = f"{least + 1}" if least == len(names) else f"from {least + 1} to {len(names) + 1}"
    put = object.__setattr__ if frozen else setattr
    post_init = hasattr(cls, "__post_init__")

    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        if len(args) > len(names):
            raise TypeError(
                f"{cls.__name__}.__init__() takes {takes} positional arguments but "
                f"{len(args) + 1} were given"
            )
        for index, value in enumerate(args):
            name = names[index]
            if name in kwargs:
                raise TypeError(
                    f"{cls.__name__}.__init__() got multiple values for argument {name!r}"
                )
            kwargs[name] = value
        for name, default, factory, init in slots:
            if init and name in kwargs:
                put(self, name, kwargs.pop(name))
            elif factory is not MISSING:
                put(self, name, factory())
            elif default is not MISSING:
                put(self, name, default)
            elif init:
                raise TypeError(
                    f"{cls.__name__}.__init__() missing 1 required positional argument: {name!r}"
                )
        if kwargs:
            unexpected = next(iter(kwargs))
            raise TypeError(
                f"{cls.__name__}.__init__() got an unexpected keyword argument {unexpected!r}"
            )
        if post_init:
            self.__post_init__()

    return __init__


def _process(cls: type, frozen: bool) -> type:
    every = _fields_of(cls)
    cls.__dataclass_fields__ = every  # type: ignore[attr-defined]
    own = cls.__dict__
    compared = [f.name for f in every.values() if f.compare]
    shown = [f.name for f in every.values() if f.repr]

    def values(self: Any) -> tuple[Any, ...]:
        return tuple(getattr(self, name) for name in compared)

    def __eq__(self: Any, other: Any) -> Any:
        if other.__class__ is self.__class__:
            return values(self) == values(other)
        return NotImplemented

    def __repr__(self: Any) -> str:
        inside = ", ".join(f"{name}={getattr(self, name)!r}" for name in shown)
        return f"{self.__class__.__qualname__}({inside})"

    methods: dict[str, Any] = {
        "__init__": _init(cls, every, frozen),
        "__repr__": __repr__,
        "__eq__": __eq__,
    }
    explicit_hash = own.get("__hash__", MISSING) not in (MISSING, None)
    if frozen:

        def __setattr__(self: Any, name: str, value: Any) -> None:
            raise FrozenInstanceError(f"cannot assign to field {name!r}")

        def __delattr__(self: Any, name: str) -> None:
            raise FrozenInstanceError(f"cannot delete field {name!r}")

        methods |= {"__setattr__": __setattr__, "__delattr__": __delattr__}
        if not explicit_hash:

            def __hash__(self: Any) -> int:
                return hash(values(self))

            methods["__hash__"] = __hash__
    elif not explicit_hash:
        methods["__hash__"] = None
    for name, method in methods.items():
        if name in ("__setattr__", "__delattr__") and name in own:
            raise TypeError(f"Cannot overwrite attribute {name} in class {cls.__name__}")
        if name not in own or name == "__hash__":
            if method is not None:
                method.__qualname__ = f"{cls.__qualname__}.{name}"
            setattr(cls, name, method)
    return cls


def dataclass(cls: Any = None, *, frozen: bool = False) -> Any:
    def wrap(cls: type) -> type:
        return _process(cls, frozen)

    return wrap if cls is None else wrap(cls)


def is_dataclass(obj: Any) -> bool:
    cls = obj if isinstance(obj, type) else type(obj)
    return hasattr(cls, "__dataclass_fields__")


def replace(obj: Any, /, **changes: Any) -> Any:
    for f in obj.__dataclass_fields__.values():
        if not f.init:
            if f.name in changes:
                raise ValueError(
                    f"field {f.name} is declared with init=False, it cannot be specified "
                    "with replace()"
                )
            continue
        if f.name not in changes:
            changes[f.name] = getattr(obj, f.name)
    return obj.__class__(**changes)


def asdict(obj: Any, *, dict_factory: Any = dict) -> Any:
    if not is_dataclass(obj) or isinstance(obj, type):
        raise TypeError("asdict() should be called on dataclass instances")
    return _asdict(obj, dict_factory)


def _asdict(obj: Any, dict_factory: Any) -> Any:
    if is_dataclass(obj) and not isinstance(obj, type):
        return dict_factory(
            [(f.name, _asdict(getattr(obj, f.name), dict_factory)) for f in fields(obj)]
        )
    if isinstance(obj, tuple) and hasattr(obj, "_fields"):
        return type(obj)(*[_asdict(v, dict_factory) for v in obj])
    if isinstance(obj, (list, tuple)):
        return type(obj)(_asdict(v, dict_factory) for v in obj)
    if isinstance(obj, dict):
        return type(obj)(
            (_asdict(k, dict_factory), _asdict(v, dict_factory)) for k, v in obj.items()
        )
    import copy  # here: the engine's start does not need to load it

    return copy.deepcopy(obj)
