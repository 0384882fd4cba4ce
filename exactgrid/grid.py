"""A filled grid of letters, and reading one from what a user typed."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from functools import cached_property

from .geometry import Board, MoveRule, ShapeError, parse_shape, shape_for_length
from .inputs import InputError, ascii_upper
from .notebook import block, letters_table, line
from .wording import plural


class GridError(InputError):
    """Text that does not describe a grid."""


@dataclass(frozen=True)
class Grid:
    """Letters A-Z, one per cell of ``board``, row-major."""

    board: Board
    letters: str

    def __post_init__(self) -> None:
        if not isinstance(self.board, Board):
            raise GridError(f"a Grid's board must be a Board (such as Board(3, 3)), got {type(self.board).__name__}")
        if not isinstance(self.letters, str):
            raise GridError(f"a Grid's letters must be a string, got {type(self.letters).__name__}")
        if len(self.letters) != self.board.size:
            raise GridError(
                f"a {self.board.shape_name} grid needs {plural(self.board.size, 'letter')}, "
                f"got {len(self.letters)}"
            )
        if not re.fullmatch(r"[A-Z]*", self.letters):
            lower = " (capitals: parse_grid reads any case)" if re.fullmatch(r"[A-Za-z]*", self.letters) else ""
            raise GridError(f"grid letters must be A-Z{lower}, got {self.letters!r}")

    @cached_property
    def letter_masks(self) -> dict[str, int]:
        """For each letter present, the bitmask of the cells holding it."""
        masks: dict[str, int] = {}
        for cell, letter in enumerate(self.letters):
            masks[letter] = masks.get(letter, 0) | (1 << cell)
        return masks

    def mask_of(self, letter: str) -> int:
        """Cells holding ``letter`` (0 when it is absent)."""
        return self.letter_masks.get(letter, 0)

    def rows(self) -> list[str]:
        """The grid as one string per row."""
        c = self.board.cols
        return [self.letters[i : i + c] for i in range(0, self.board.size, c)]

    def block(self, spaced: bool = True) -> str:
        """The grid as a block of rows, one per line."""
        sep = " " if spaced else ""
        return "\n".join(sep.join(row) for row in self.rows())

    def __str__(self) -> str:
        return self.letters

    def _repr_html_(self) -> str:
        """In a notebook: the letters in their cells, the shape and the move rule."""
        return block(letters_table(self.rows()), line(f"{self.letters}  ({self.board.shape_name}, "
                                                      f"{self.board.moves_text})"))


def empty_row_line(text: str) -> str | None:
    """The first line of ``text`` with two ``/`` and nothing between them (a row left out, not a
    row to skip), or None. Blank lines between rows, and a ``/`` at either end, are fine."""
    for line_text in text.splitlines():
        rows = line_text.split("/")
        while rows and not rows[0].strip():
            rows.pop(0)
        while rows and not rows[-1].strip():
            rows.pop()
        if any(not row.strip() for row in rows):
            return line_text.strip()
    return None


def shape_value(shape: str | tuple[int, int]) -> tuple[int, int]:
    """(rows, cols) from ``"RxC"`` (such as ``"5x5"``) or a pair of whole numbers; ShapeError
    for anything else."""
    if isinstance(shape, str):
        return parse_shape(shape)
    if (isinstance(shape, tuple | list) and len(shape) == 2
            and all(isinstance(n, int) and not isinstance(n, bool) for n in shape)):
        return shape[0], shape[1]
    raise ShapeError(f"a shape is 'RxC' (such as '5x5') or a pair of whole numbers, got {shape!r}")


def as_grid(grid: Grid | str, shape: str | tuple[int, int] | None = None, moves: MoveRule | None = None) -> Grid:
    """A Grid as is, or letters read by :func:`parse_grid` (with king moves unless ``moves``
    says otherwise). A Grid carries its board: a ``shape`` or ``moves`` given with it must be
    its board's (GridError otherwise; they used to be ignored, and a grid scored by king moves
    when rook moves were asked)."""
    if not isinstance(grid, Grid):
        return parse_grid(grid, shape, "king" if moves is None else moves)
    board = grid.board
    if moves is not None and moves != board.moves:
        raise GridError(f"the grid is on a board with {board.moves_text}, but moves={moves!r} was given: "
                        "give its letters to read them on another board")
    if shape is not None and shape_value(shape) != (board.rows, board.cols):
        raise GridError(f"the grid is {board.shape_name}, but shape={shape!r} was given")
    return grid


def parse_grid(
    text: str,
    shape: str | tuple[int, int] | None = None,
    moves: MoveRule = "king",
    board: Board | None = None,
) -> Grid:
    """Read a grid: letters in any case, spaces, newlines or ``/`` between rows allowed.

    The shape is inferred from a square number of letters unless given (``"2x3"`` or (2, 3)).
    A ``board`` (e.g. a custom one) takes the place of ``shape`` and ``moves``: the letters
    fill its cells in index order, whatever the line breaks.
    Raises GridError (or ShapeError) with a one-line message on bad input.

    >>> parse_grid("abcdef ghijkl", board=Board.letter_boxed(4, 3)).rows()
    ['ABC', 'DEF', 'GHI', 'JKL']
    """
    if not isinstance(text, str):
        raise GridError(f"a grid is a Grid or its letters as a string (such as 'THOAINESL'), "
                        f"got {type(text).__name__}")
    if board is not None and not isinstance(board, Board):
        raise GridError(f"board must be a Board, got {type(board).__name__}")
    if board is not None and shape is not None:
        raise GridError("give a board or a shape, not both")
    empty = empty_row_line(text)
    if empty is not None:
        raise GridError(f"the grid {empty!r} has an empty row: two '/' with no letters between them")
    rows_given = [r for r in re.split(r"[/\n]", text.strip()) if r.strip()]
    letters = ascii_upper(re.sub(r"[\s/]", "", text), "grid")
    if not letters:
        raise GridError("the grid is empty")
    bad = sorted(set(re.sub(r"[A-Z]", "", letters)))
    if bad:
        names_a_file = len(text) < 4096 and os.path.isfile(text)  # the CLI reads grid files; the API, letters
        hint = f" ({text!r} names a file: read its text first, e.g. Path(...).read_text())" if names_a_file else ""
        raise GridError(f"grid may hold letters A-Z only; found {' '.join(map(repr, bad))}{hint}")
    if board is not None:
        return Grid(board, letters)
    widths = [len(re.sub(r"\s", "", r)) for r in rows_given]
    if len(widths) > 1 and len(set(widths)) > 1:
        raise GridError(f"the grid's rows must be equally long; got rows of {', '.join(map(str, widths))} letters")
    if shape is None:
        rows, cols = (len(widths), widths[0]) if len(widths) > 1 else shape_for_length(len(letters))
    else:
        rows, cols = shape_value(shape)
    if len(widths) > 1 and (len(widths), widths[0]) != (rows, cols):
        raise GridError(f"the grid has {len(widths)} rows of {widths[0]} letters, but the shape is {rows}x{cols}")
    return Grid(Board(rows, cols, moves), letters)
