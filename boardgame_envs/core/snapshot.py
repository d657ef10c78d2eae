"""Strict reading of JSON snapshots, shared by the games' ``from_dict``.

Each field is read as exactly its JSON type: ``8.7`` or ``true`` where an int is due is
refused, never coerced, with :class:`InvalidStateError` naming the field. Ranges and the
game's own consistency are the game's checks; games subclass :class:`SnapshotReader` for
the shapes only they have.
"""

from __future__ import annotations

from typing import Any, NoReturn

from boardgame_envs.core.rules import InvalidStateError, is_integer


class SnapshotReader:
    """Typed access to the fields of one snapshot of ``game``."""

    def __init__(self, game: str, data: dict[str, Any]) -> None:
        self.game = game
        self.data = data

    def fail(self, field: str, message: str) -> NoReturn:
        raise InvalidStateError(f"invalid {self.game} snapshot: {field}: {message}")

    def integer(self, field: str, nullable: bool = False) -> Any:
        value = self.data[field]
        if not (is_integer(value) or (nullable and value is None)):
            self.fail(field, f"is {value!r}, not an integer" + (" or null" if nullable else ""))
        return None if value is None else int(value)

    def boolean(self, field: str) -> bool:
        value = self.data[field]
        if not isinstance(value, bool):
            self.fail(field, f"is {value!r}, not true or false")
        return value

    def _list(self, field: str, value: Any, length: int | None) -> list[Any]:
        if not isinstance(value, list):
            self.fail(field, f"is {value!r}, not a list")
        if length is not None and len(value) != length:
            self.fail(field, f"has {len(value)} entries, not {length}")
        return value
