"""The one error the engine raises: an entry the rules do not allow."""

from __future__ import annotations


class RuleError(ValueError):
    """An entry the rules do not allow, with the words a player needs to fix it.

    ``hand`` is the 1-based hand number and ``field`` the entry at fault ("bid",
    "auction", "points.jack", ...), so a form can show the message next to its field.
    """

    def __init__(self, message: str, *, field: str | None = None, hand: int | None = None):
        super().__init__(message)
        self.message = message
        self.field = field
        self.hand = hand

    def __str__(self) -> str:
        if self.hand is None:
            return self.message
        return f"hand {self.hand}: {self.message}"

    def at_hand(self, number: int) -> RuleError:
        return RuleError(self.message, field=self.field, hand=number)
