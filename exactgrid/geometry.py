"""Grid shapes, move rules, neighbour tables and the symmetries of a shape.

Cells are numbered row-major from 0: on a 5x5 grid cell ``r * 5 + c``. A set of cells is
an ``int`` bitmask (bit ``i`` set means cell ``i`` is in the set), which lets the finder
move whole sets of cells at once.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property
from typing import Literal

from .inputs import InputError

MoveRule = Literal["king", "rook"]
MOVE_RULES: tuple[MoveRule, ...] = ("king", "rook")
MAX_SIDE = 32

_STEPS: dict[str, tuple[tuple[int, int], ...]] = {
    "king": ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)),
    "rook": ((-1, 0), (0, -1), (0, 1), (1, 0)),
}


class ShapeError(InputError):
    """A shape or move rule that cannot exist."""


@dataclass(frozen=True)
class Board:
    """A rows x cols grid of cells with a move rule (which cells are adjacent).

    >>> b = Board(3, 3)
    >>> sorted(b.neighbours[4]) == [0, 1, 2, 3, 5, 6, 7, 8]
    True
    """

    rows: int = 5
    cols: int = 5
    moves: MoveRule = "king"

    def __post_init__(self) -> None:
        for name, value in (("rows", self.rows), ("cols", self.cols)):
            if not isinstance(value, int) or not 1 <= value <= MAX_SIDE:
                raise ShapeError(f"{name} must be a whole number from 1 to {MAX_SIDE}, got {value!r}")
        if self.moves not in _STEPS:
            raise ShapeError(f"unknown move rule {self.moves!r}; choose from {', '.join(MOVE_RULES)}")

    @property
    def size(self) -> int:
        """Number of cells."""
        return self.rows * self.cols

    @property
    def all_cells(self) -> int:
        """Bitmask with every cell set."""
        return (1 << self.size) - 1

    def cell(self, row: int, col: int) -> int:
        """Index of the cell at (row, col), both 0-based."""
        return row * self.cols + col

    def coords(self, cell: int) -> tuple[int, int]:
        """(row, col) of a cell index, both 0-based."""
        return divmod(cell, self.cols)

    def label(self, cell: int) -> str:
        """Human label of a cell: row and column, 1-based, as ``r2c3``."""
        row, col = self.coords(cell)
        return f"r{row + 1}c{col + 1}"

    @cached_property
    def neighbours(self) -> tuple[tuple[int, ...], ...]:
        """For each cell, the cells one move away (never the cell itself)."""
        table = []
        for cell in range(self.size):
            row, col = self.coords(cell)
            near = [
                self.cell(row + dr, col + dc)
                for dr, dc in _STEPS[self.moves]
                if 0 <= row + dr < self.rows and 0 <= col + dc < self.cols
            ]
            table.append(tuple(sorted(near)))
        return tuple(table)

    @cached_property
    def neighbour_masks(self) -> tuple[int, ...]:
        """For each cell, the bitmask of its neighbours."""
        return tuple(sum(1 << n for n in near) for near in self.neighbours)

    @cached_property
    def _spread_tables(self) -> tuple[int, tuple[list[int], ...]]:
        chunk = 8
        tables = []
        for start in range(0, self.size, chunk):
            width = min(chunk, self.size - start)
            table = [0] * (1 << width)
            for pattern in range(1, 1 << width):
                low = pattern & -pattern
                bit = low.bit_length() - 1
                table[pattern] = table[pattern ^ low] | self.neighbour_masks[start + bit]
            tables.append(table)
        return chunk, tuple(tables)

    def spread(self, mask: int) -> int:
        """All cells one move away from some cell of ``mask`` (the dilation of the set)."""
        chunk, tables = self._spread_tables
        out = 0
        lowbits = (1 << chunk) - 1
        for table in tables:
            if mask == 0:
                break
            out |= table[mask & lowbits]
            mask >>= chunk
        return out

    @cached_property
    def symmetries(self) -> tuple[tuple[int, ...], ...]:
        """The symmetries of the shape as cell permutations, identity first.

        ``perm[c]`` is where cell ``c`` goes. A square has 8 (rotations and reflections),
        any other rectangle 4. Both move rules are invariant under all of them.
        """
        r, c = self.rows, self.cols
        maps = [
            lambda i, j: (i, j),
            lambda i, j: (i, c - 1 - j),
            lambda i, j: (r - 1 - i, j),
            lambda i, j: (r - 1 - i, c - 1 - j),
        ]
        if r == c:
            maps += [
                lambda i, j: (j, i),
                lambda i, j: (j, r - 1 - i),
                lambda i, j: (c - 1 - j, i),
                lambda i, j: (c - 1 - j, r - 1 - i),
            ]
        perms = []
        for f in maps:
            perm = tuple(self.cell(*f(*self.coords(x))) for x in range(self.size))
            if perm not in perms:
                perms.append(perm)
        return tuple(perms)

    def is_adjacent(self, a: int, b: int) -> bool:
        """Whether one move takes cell ``a`` to cell ``b``."""
        return b in self.neighbours[a]


def cells_of(mask: int) -> list[int]:
    """The cell indices set in a bitmask, ascending."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def shape_for_length(length: int) -> tuple[int, int]:
    """The square shape with ``length`` cells, or ShapeError if there is none."""
    side = round(length**0.5)
    if length < 1 or side * side != length:
        raise ShapeError(
            f"a grid of {length} letters is not square; give the shape (e.g. --shape 2x3)"
        )
    return side, side


def parse_shape(text: str) -> tuple[int, int]:
    """Parse ``RxC`` (e.g. ``5x5``) into (rows, cols)."""
    match = re.fullmatch(r"\s*([0-9]+)\s*[xX×]\s*([0-9]+)\s*", text)
    if not match:
        raise ShapeError(f"shape must look like 5x5, got {text!r}")
    rows, cols = int(match[1]), int(match[2])
    Board(rows, cols)  # validates
    return rows, cols
