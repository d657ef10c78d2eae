"""Text helpers shared by the games' text renderings."""

from __future__ import annotations

from collections.abc import Sequence


def legend_lines(legend: Sequence[tuple[str, str]], width: int = 96) -> list[str]:
    """A legend of (marks, meaning) pairs as text lines, whole entries to a line:
    ``key: marks = meaning · …``."""
    lines, line = [], "  key:"
    for marks, meaning in legend:
        item = f" {marks} = {meaning}"
        if len(line) + len(item) > width and line != "  key:":
            lines.append(line)
            line = "      "
        line += item if line.endswith(":") or line.isspace() else " ·" + item
    return [*lines, line]


def plural(n: int, noun: str, nouns: str | None = None) -> str:
    """``n`` and the noun in the number it needs: ``1 card``, ``2 cards``, ``0 cards``."""
    return f"{n} {noun if n == 1 else nouns or noun + 's'}"
