"""Observations stored as one byte a value, losslessly.

An encoded observation takes few distinct values (fractions of a few scales, 0 and 1:
49 to 132 across a game's positions in every game here), and most of Carcassonne's and
Tahiti's are zeros. Imitation data keeps every observation of thousands of games (60 KB a
decision in float32 in Carcassonne), so it stores each value as its index in a shared
table of the values seen: a quarter of the memory, and the float32 rows come back exact.
Past 256 distinct values the rows fall back to float32, still exact.
"""

from __future__ import annotations

import numpy as np

CODES = 256  # distinct values a byte can index


class CodedRows:
    """Rows of equal length, appended one at a time, read back as float32 batches."""

    def __init__(self) -> None:
        self._code_of: dict[float, int] = {}
        self._values: list[float] = []
        self._rows: list[np.ndarray] = []
        self._coded = True

    def append(self, row: np.ndarray) -> None:
        if not isinstance(self._rows, list):
            raise RuntimeError("CodedRows is frozen: append every row before reading any")
        row = np.asarray(row, dtype=np.float32).ravel()
        if self._coded:
            values, inverse = np.unique(row, return_inverse=True)
            codes = [self._code(float(v)) for v in values]
            if len(self._values) <= CODES:
                self._rows.append(np.asarray(codes, dtype=np.uint8)[inverse])
                return
            self._decode_all()
        self._rows.append(row)

    def _code(self, value: float) -> int:
        if value not in self._code_of:
            self._code_of[value] = len(self._values)
            self._values.append(value)
        return self._code_of[value]

    def _decode_all(self) -> None:
        table = self.table()
        self._rows = [table[row] for row in self._rows]
        self._coded = False

    def table(self) -> np.ndarray:
        return np.asarray(self._values, dtype=np.float32)

    def freeze(self) -> CodedRows:
        """Stack the rows into one array (call once all are appended)."""
        if isinstance(self._rows, list):
            dtype = np.uint8 if self._coded else np.float32
            width = self._rows[0].size if self._rows else 0
            self._rows = np.stack(self._rows) if self._rows else np.zeros((0, width), dtype)
        return self

    def arrays(self) -> dict[str, np.ndarray]:
        """The stored rows (bytes, or float32 past 256 values) and the value table, for
        saving; :meth:`from_arrays` reads them back."""
        self.freeze()
        return {"rows": self._rows, "table": self.table()}

    @classmethod
    def from_arrays(cls, rows: np.ndarray, table: np.ndarray) -> CodedRows:
        coded = cls()
        coded._rows, coded._values = np.asarray(rows), [float(v) for v in table]
        coded._coded = coded._rows.dtype == np.uint8
        return coded

    def __len__(self) -> int:
        return len(self._rows)

    @property
    def nbytes(self) -> int:
        self.freeze()
        return int(self._rows.nbytes)

    def __getitem__(self, index) -> np.ndarray:
        """The float32 rows at ``index`` (an integer array or a slice)."""
        self.freeze()
        rows = self._rows[index]
        return self.table()[rows] if self._coded else rows
