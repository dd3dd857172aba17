"""The phone's ``typing``: the names the rules import, for annotations that are never
evaluated and for the ``Literal[...]`` aliases they define at module level."""

from __future__ import annotations

TYPE_CHECKING = False


class _Form:
    """A special form: subscripted, it stands for itself with its arguments."""

    def __init__(self, name: str, args: tuple[object, ...] = ()) -> None:
        self.name = name
        self.args = args

    def __getitem__(self, args: object) -> _Form:
        return _Form(self.name, args if isinstance(args, tuple) else (args,))

    def __repr__(self) -> str:
        inside = ", ".join(map(repr, self.args))
        return f"typing.{self.name}[{inside}]" if self.args else f"typing.{self.name}"


Any = _Form("Any")
Literal = _Form("Literal")
