"""Board shapes, move rules, path rules, neighbour tables and the symmetries of a board.

A board is a set of cells numbered from 0 and an adjacency (which cells one move joins).
The common boards are rectangles with a move rule: ``Board(5, 5)`` (king moves) or
``Board(3, 3, "rook")``; their cells are numbered row-major, on a 5x5 grid cell ``r * 5 + c``.
Any other layout -- a Letter Boxed square, a ring, a hexagonal patch -- is a *custom* board
built from its adjacency as data: :meth:`Board.from_adjacency`, :meth:`Board.from_edges`
or :meth:`Board.letter_boxed`.

A set of cells is an ``int`` bitmask (bit ``i`` set means cell ``i`` is in the set), which
lets the finder move whole sets of cells at once.
"""

from __future__ import annotations

import operator
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Literal

from .inputs import InputError, digits_value, plain_int

MoveRule = Literal["king", "rook", "custom"]
MOVE_RULES: tuple[MoveRule, ...] = ("king", "rook")
"""The move rules of a rectangle (the CLI's choices); ``"custom"`` marks a board built from data."""
CUSTOM: MoveRule = "custom"
MAX_SIDE = 32
MAX_CELLS = MAX_SIDE * MAX_SIDE
"""The most cells any board may have (a 32x32 rectangle)."""

PathRule = Literal["walk", "simple"]
PATH_RULES: tuple[PathRule, ...] = ("walk", "simple")
"""``walk``: a cell may be visited again later; ``simple``: never twice (see exactgrid.finder)."""


def check_path_rule(value: Any) -> PathRule:
    """``value`` when it names a path rule (``walk`` or ``simple``), else InputError."""
    if value not in PATH_RULES:
        raise InputError(f"unknown path rule {value!r}; choose from {', '.join(PATH_RULES)}")
    return value  # type: ignore[no-any-return]


def path_rule_text(path_rule: PathRule) -> str:
    """The rule as the answers name it: ``walks`` or ``simple paths``."""
    return "simple paths" if path_rule == "simple" else "walks"


_STEPS: dict[str, tuple[tuple[int, int], ...]] = {
    "king": ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)),
    "rook": ((-1, 0), (0, -1), (0, 1), (1, 0)),
}

Adjacency = tuple[tuple[int, ...], ...]

SPREAD_CHUNK = 8
"""Cells per entry of :attr:`Board.spread_tables` (one byte of a cell mask)."""


class ShapeError(InputError):
    """A shape, move rule or adjacency that cannot exist."""


@dataclass(frozen=True, repr=False)
class Board:
    """A set of cells and which cells one move joins (the adjacency).

    *Rectangles* (the common case) are ``Board(rows, cols, moves)`` with ``moves`` one of
    :data:`MOVE_RULES`; the adjacency is computed. *Custom* boards (``moves == "custom"``)
    carry their adjacency as data and are built with :meth:`from_adjacency`,
    :meth:`from_edges` or :meth:`letter_boxed`; for them

    * ``rows`` x ``cols`` is only a *layout* for showing a grid (``Grid.rows()``) and naming
      cells by (row, col): 1 x size unless another layout is given; it says nothing
      about adjacency;
    * ``label(cell)`` is the given label, else ``c1``, ``c2``, ... (1-based, as ``r1c1``);
    * ``symmetries`` are the identity plus the permutations declared when building the
      board (checked to preserve adjacency; Letter Boxed declares its polygon's); none
      are computed, so they need not be all the automorphisms, nor a group.

    ``labels`` (optional, any board) names the cells; ``name`` describes a custom board.

    >>> b = Board(3, 3)
    >>> sorted(b.neighbours[4]) == [0, 1, 2, 3, 5, 6, 7, 8]
    True
    >>> box = Board.letter_boxed(4, 3)
    >>> box.label(4), box.is_adjacent(0, 3), box.is_adjacent(0, 1)
    ('s2p2', True, False)
    """

    rows: int = 5
    cols: int = 5
    moves: MoveRule = "king"
    adjacency: Adjacency | None = None
    labels: tuple[str, ...] | None = None
    name: str = ""
    declared_symmetries: tuple[tuple[int, ...], ...] = field(default=())

    def __post_init__(self) -> None:
        if self.moves == CUSTOM:
            if self.adjacency is None:
                raise ShapeError("a custom board needs its adjacency; build it with Board.from_adjacency")
            adjacency = _check_adjacency(self.adjacency)
            object.__setattr__(self, "adjacency", adjacency)
            _check_layout(self.rows, self.cols, len(adjacency))
            if not isinstance(self.name, str) or not self.name.strip() or "\n" in self.name:
                raise ShapeError(f"a custom board needs a one-line name, got {self.name!r}")
        else:
            for name, value in (("rows", self.rows), ("cols", self.cols)):
                value = plain_int(value)
                object.__setattr__(self, name, value)
                if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_SIDE:
                    raise ShapeError(f"{name} must be a whole number from 1 to {MAX_SIDE}, got {value!r}")
            if self.moves not in _STEPS:
                raise ShapeError(f"unknown move rule {self.moves!r}; choose from {', '.join(MOVE_RULES)}")
            if self.adjacency is not None:
                raise ShapeError(f"a {self.moves}-move rectangle computes its adjacency; "
                                 "for a given one use Board.from_adjacency")
            if self.name != "":
                raise ShapeError("only a custom board takes a name")
            if self.declared_symmetries:
                raise ShapeError("a rectangle computes its symmetries; only a custom board declares them")
        if self.labels is not None:
            object.__setattr__(self, "labels", _check_labels(self.labels, self.size))
        if self.moves == CUSTOM:
            object.__setattr__(self, "declared_symmetries",
                               _check_symmetries(self.declared_symmetries, self.neighbours))

    # -- building custom boards ----------------------------------------------------------

    @classmethod
    def from_adjacency(
        cls,
        neighbours: Iterable[Iterable[int]],
        labels: Sequence[str] | None = None,
        name: str = "custom",
        layout: tuple[int, int] | None = None,
        symmetries: Iterable[Sequence[int]] = (),
    ) -> Board:
        """A custom board: ``neighbours[a]`` lists the cells one move from cell ``a``.

        The adjacency must be symmetric (``b`` in ``neighbours[a]`` exactly when ``a`` is in
        ``neighbours[b]``), name cells ``0 .. len(neighbours) - 1`` and never a cell itself;
        a neighbour listed twice counts once. ``layout`` is (rows, cols) for showing a grid,
        rows * cols = number of cells (default one row). ``symmetries`` are cell
        permutations (``perm[c]`` is where cell ``c`` goes) that preserve the adjacency.
        Raises ShapeError with a one-line message on bad input.

        >>> ring = Board.from_adjacency([[1, 3], [0, 2], [1, 3], [2, 0]], name="ring of 4")
        >>> ring.neighbours, ring.rows, ring.cols, ring.label(3)
        (((1, 3), (0, 2), (1, 3), (0, 2)), 1, 4, 'c4')
        """
        if isinstance(neighbours, str | bytes | Mapping) or not isinstance(neighbours, Iterable):
            raise ShapeError("the adjacency must be a list with one list of neighbours per cell, cell 0 first"
                             + (f", got a {type(neighbours).__name__}" if isinstance(neighbours, Mapping) else ""))
        neighbours = tuple(neighbours)
        rows, cols = (1, len(neighbours)) if layout is None else _pair(layout, "layout")
        return cls(rows, cols, CUSTOM, adjacency=neighbours,  # type: ignore[arg-type]
                   labels=labels, name=name,  # type: ignore[arg-type]  # checked, made a tuple
                   declared_symmetries=tuple(symmetries))  # type: ignore[arg-type]

    @classmethod
    def from_edges(
        cls,
        size: int,
        edges: Iterable[tuple[int, int]],
        labels: Sequence[str] | None = None,
        name: str = "custom",
        layout: tuple[int, int] | None = None,
        symmetries: Iterable[Sequence[int]] = (),
    ) -> Board:
        """A custom board of ``size`` cells where each edge ``(a, b)`` joins ``a`` and ``b``
        both ways (undirected by construction; a repeated edge counts once).

        Other arguments as :meth:`from_adjacency`.

        >>> Board.from_edges(3, [(0, 1), (1, 2)]).neighbours
        ((1,), (0, 2), (1,))
        """
        count = _whole(size, "size")
        if not 1 <= count <= MAX_CELLS:
            raise ShapeError(f"a board needs 1 to {MAX_CELLS} cells, got {size!r}")
        near: list[set[int]] = [set() for _ in range(count)]
        if isinstance(edges, str | bytes) or not isinstance(edges, Iterable):
            raise ShapeError(f"edges must be a list of (cell, cell) pairs, got {type(edges).__name__}")
        for edge in edges:
            pair = () if isinstance(edge, str | bytes) or not isinstance(edge, Iterable) else tuple(edge)
            if len(pair) != 2:
                raise ShapeError(f"an edge must be a pair of cell numbers, got {edge!r}")
            a, b = (_cell_number(x, count, f"edge {pair!r}") for x in pair)
            if a == b:
                raise ShapeError(f"edge ({a}, {b}) joins cell {a} to itself (a move must change cell)")
            near[a].add(b)
            near[b].add(a)
        return cls.from_adjacency([sorted(s) for s in near], labels, name, layout, symmetries)

    @classmethod
    def letter_boxed(cls, sides: int = 4, per_side: int = 3) -> Board:
        """The Letter Boxed board: ``per_side`` cells on each of ``sides`` sides of a polygon,
        two cells adjacent when they lie on different sides.

        Cell ``s * per_side + p`` is position ``p`` of side ``s`` (clockwise), labelled
        ``s{s+1}p{p+1}``; the layout shows one side per row. The symmetries are those of
        the polygon (rotations and reflections: 8 for the usual 4 x 3 square).

        >>> box = Board.letter_boxed()
        >>> box.size, box.neighbours[0], len(box.symmetries)
        (12, (3, 4, 5, 6, 7, 8, 9, 10, 11), 8)
        """
        sides, per_side = _whole(sides, "sides"), _whole(per_side, "per_side")
        if not 2 <= sides <= MAX_SIDE or not 1 <= per_side <= MAX_SIDE:
            raise ShapeError(f"a Letter Boxed board needs 2 to {MAX_SIDE} sides of 1 to {MAX_SIDE} cells, "
                             f"got {sides} sides of {per_side}")
        size = sides * per_side
        adjacency = [[b for b in range(size) if b // per_side != a // per_side] for a in range(size)]
        labels = [f"s{a // per_side + 1}p{a % per_side + 1}" for a in range(size)]
        turns = [tuple((a + k * per_side) % size for a in range(size)) for k in range(sides)]
        mirror = tuple(size - 1 - a for a in range(size))  # reverses the clockwise order
        symmetries = list(dict.fromkeys(turns + [tuple(mirror[t] for t in turn) for turn in turns]))
        board = cls.from_adjacency(adjacency, labels, f"letter boxed {sides}x{per_side}", (sides, per_side))
        # symmetries by construction (a side goes to a side), so not re-checked edge by edge:
        # that costs (symmetries x edges), seconds on the largest boxes
        object.__setattr__(board, "declared_symmetries", tuple(symmetries))
        return board

    # -- what every board answers --------------------------------------------------------

    @property
    def is_custom(self) -> bool:
        """Whether the adjacency was given as data (not a king/rook rectangle)."""
        return self.moves == CUSTOM

    @property
    def shape_name(self) -> str:
        """A short description: ``5x5`` for a rectangle, the name of a custom board."""
        return self.name if self.is_custom else f"{self.rows}x{self.cols}"

    @property
    def moves_text(self) -> str:
        """The move rule in words: ``king moves``, ``rook moves`` or ``custom adjacency``."""
        return "custom adjacency" if self.is_custom else f"{self.moves} moves"

    @property
    def size(self) -> int:
        """Number of cells."""
        return self.rows * self.cols

    @property
    def all_cells(self) -> int:
        """Bitmask with every cell set."""
        return (1 << self.size) - 1

    def cell(self, row: int, col: int) -> int:
        """Index of the cell at (row, col) of the layout, both 0-based."""
        return row * self.cols + col

    def coords(self, cell: int) -> tuple[int, int]:
        """(row, col) of a cell index in the layout, both 0-based."""
        return divmod(cell, self.cols)

    def label(self, cell: int) -> str:
        """Human label of a cell: the given label; else ``r2c3`` (rectangles: row and column,
        1-based) or ``c7`` (custom boards: the cell index plus one)."""
        if self.labels is not None:
            return self.labels[cell]
        if self.is_custom:
            return f"c{cell + 1}"
        row, col = self.coords(cell)
        return f"r{row + 1}c{col + 1}"

    @cached_property
    def neighbours(self) -> Adjacency:
        """For each cell, the cells one move away, ascending (never the cell itself)."""
        if self.adjacency is not None:
            return self.adjacency
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
    def edges(self) -> tuple[tuple[int, int], ...]:
        """Every adjacent pair once, as ``(a, b)`` with ``a < b``, ascending."""
        return tuple((a, b) for a, near in enumerate(self.neighbours) for b in near if a < b)

    @cached_property
    def neighbour_masks(self) -> tuple[int, ...]:
        """For each cell, the bitmask of its neighbours."""
        return tuple(sum(1 << n for n in near) for near in self.neighbours)

    # -- dilation: the one place every engine takes "cells one move away" from ------------

    @cached_property
    def spread_tables(self) -> tuple[tuple[int, ...], ...]:
        """The dilation table: ``spread_tables[k][byte]`` is the cells one move from the cells
        ``8k .. 8k+7`` set in ``byte`` (256 entries per 8 cells; bits past the last cell read
        as no cell). :meth:`spread` ORs one entry per byte of a mask; the annealer's kernel
        reads the same table on custom boards (:func:`exactgrid.solving.problem.dilation_table`).
        """
        masks = self.neighbour_masks
        tables = []
        for start in range(0, self.size, SPREAD_CHUNK):
            table = [0] * (1 << SPREAD_CHUNK)
            for pattern in range(1, 1 << SPREAD_CHUNK):
                low = pattern & -pattern
                cell = start + low.bit_length() - 1
                table[pattern] = table[pattern ^ low] | (masks[cell] if cell < self.size else 0)
            tables.append(tuple(table))
        return tuple(tables)

    def spread(self, mask: int) -> int:
        """All cells one move away from some cell of ``mask`` (the dilation of the set)."""
        out = 0
        lowbits = (1 << SPREAD_CHUNK) - 1
        for table in self.spread_tables:
            if mask == 0:
                break
            out |= table[mask & lowbits]
            mask >>= SPREAD_CHUNK
        return out

    @cached_property
    def column_masks(self) -> tuple[int, int]:
        """``(not_first, not_last)``: the cells outside the layout's first column and outside its
        last. On a rectangle a dilation by shifts moves ``mask & not_last`` one cell right and
        ``mask & not_first`` one cell left (and rows by ``cols`` cells), so nothing wraps
        across a row end: the kernel's and the batch scorer's fast path. Says nothing about a
        custom board's adjacency."""
        cols = self.cols
        not_first = sum(1 << c for c in range(self.size) if c % cols != 0)
        not_last = sum(1 << c for c in range(self.size) if c % cols != cols - 1)
        return not_first, not_last

    @cached_property
    def offset_masks(self) -> tuple[tuple[int, int], ...]:
        """The adjacency by offsets: ``(d, cells)`` pairs, ``d`` ascending (never 0), where
        ``cells`` holds each cell ``a`` adjacent to ``a + d``. The dilation of ``mask`` is the OR
        of ``(mask & cells) << d`` (``>> -d`` for a negative ``d``): a few shifts on any board
        (the batch scorer's one-grid path packs many words per cell this way)."""
        by_offset: dict[int, int] = {}
        for a, near in enumerate(self.neighbours):
            for b in near:
                by_offset[b - a] = by_offset.get(b - a, 0) | 1 << a
        return tuple(sorted(by_offset.items()))

    @cached_property
    def symmetries(self) -> tuple[tuple[int, ...], ...]:
        """Symmetries of the board as cell permutations, identity first; each preserves adjacency.

        ``perm[c]`` is where cell ``c`` goes. A square has 8 (rotations and reflections),
        any other rectangle 4; both move rules are invariant under all of them. A custom
        board has the identity and the permutations declared when it was built (not
        necessarily all its automorphisms, nor a group).
        """
        if self.is_custom:
            return self.declared_symmetries
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

    def image(self, letters: str, perm: Sequence[int]) -> str:
        """``letters`` (one per cell) moved by a symmetry of :attr:`symmetries`: the letter of
        cell ``c`` goes to cell ``perm[c]``.

        >>> b = Board(2, 2)
        >>> [b.image("abcd", p) for p in b.symmetries[:2]]
        ['abcd', 'badc']
        """
        cells = [""] * len(letters)
        for cell, letter in enumerate(letters):
            cells[perm[cell]] = letter
        return "".join(cells)

    def canonical(self, letters: str) -> str:
        """The least of ``letters``' images under :attr:`symmetries` (row-major strings): one
        representative for grids that are the same up to turning and mirroring.

        >>> Board(2, 2).canonical("dcba")
        'abcd'
        """
        return min(self.image(letters, perm) for perm in self.symmetries)

    def is_adjacent(self, a: int, b: int) -> bool:
        """Whether one move takes cell ``a`` to cell ``b``."""
        return b in self.neighbours[a]

    def __repr__(self) -> str:
        if not self.is_custom:
            tail = "" if self.labels is None else ", labels=..."
            return f"Board({self.rows}, {self.cols}, {self.moves!r}{tail})"
        return (f"<Board {self.name!r}: {self.size} cells, {len(self.edges)} edges, "
                f"layout {self.rows}x{self.cols}>")


def _whole(value: Any, what: str) -> int:
    """``value`` as an int (anything with ``__index__`` but a bool), else ShapeError."""
    if isinstance(value, bool):
        raise ShapeError(f"{what} must be a whole number, got {value!r}")
    try:
        return operator.index(value)
    except TypeError:
        raise ShapeError(f"{what} must be a whole number, got {value!r}") from None


def _pair(value: Any, what: str) -> tuple[int, int]:
    """A (rows, cols) pair of whole numbers, else ShapeError."""
    if isinstance(value, str | bytes) or not isinstance(value, Sequence) or len(value) != 2:
        raise ShapeError(f"{what} must be a (rows, cols) pair, got {value!r}")
    return _whole(value[0], f"{what} rows"), _whole(value[1], f"{what} cols")


def _cell_number(value: Any, size: int, where: str) -> int:
    """A cell index in ``0 .. size - 1``, else ShapeError naming ``where`` it came from."""
    if isinstance(value, bool):
        raise ShapeError(f"{where}: {value!r} is not a cell number")
    try:
        cell = operator.index(value)
    except TypeError:
        raise ShapeError(f"{where}: {value!r} is not a cell number") from None
    if not 0 <= cell < size:
        raise ShapeError(f"{where}: cell {cell} is out of range 0..{size - 1}")
    return cell


def _check_adjacency(adjacency: Any) -> Adjacency:
    """Validate a symmetric, loop-free adjacency and return it as a tuple of sorted tuples."""
    if isinstance(adjacency, str | bytes) or not isinstance(adjacency, Sequence):
        raise ShapeError("the adjacency must be a list with one list of neighbours per cell")
    size = len(adjacency)
    if size == 0:
        raise ShapeError("a board needs at least one cell")
    if size > MAX_CELLS:
        raise ShapeError(f"a board may have at most {MAX_CELLS} cells, got {size}")
    table: list[tuple[int, ...]] = []
    for a, near in enumerate(adjacency):
        if isinstance(near, str | bytes) or not isinstance(near, Iterable):
            raise ShapeError(f"the neighbours of cell {a} must be a list of cell numbers, got {near!r}")
        items = tuple(near)
        if all(type(b) is int for b in items) and (not items or (min(items) >= 0 and max(items) < size)):
            cells = set(items)  # the common case, checked in bulk
        else:
            cells = {_cell_number(b, size, f"neighbours of cell {a}") for b in items}
        if a in cells:
            raise ShapeError(f"cell {a} is listed as its own neighbour (a move must change cell)")
        table.append(tuple(sorted(cells)))
    sets = [set(near) for near in table]
    for a, near in enumerate(table):
        for b in near:
            if a not in sets[b]:
                raise ShapeError(f"cell {a} lists {b} as a neighbour but cell {b} does not list {a}; "
                                 "the adjacency must be symmetric (Board.from_edges makes it so)")
    return tuple(table)


def _check_layout(rows: Any, cols: Any, size: int) -> None:
    """A custom board's layout must be whole numbers with rows * cols = size."""
    for name, value in (("rows", rows), ("cols", cols)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise ShapeError(f"layout {name} must be a whole number 1 or more, got {value!r}")
    if rows * cols != size:
        raise ShapeError(f"a {rows}x{cols} layout has {rows * cols} cells but the board has {size}")


def _check_labels(labels: Any, size: int) -> tuple[str, ...]:
    """One distinct, non-empty label without spaces per cell."""
    if isinstance(labels, str) or not isinstance(labels, Iterable):
        raise ShapeError("labels must be a list of strings, one per cell")
    out = tuple(labels)
    if len(out) != size:
        raise ShapeError(f"a board of {size} cells needs {size} labels, got {len(out)}")
    for label in out:
        if not isinstance(label, str) or not label or re.search(r"\s", label):
            raise ShapeError(f"a cell label must be a non-empty string without spaces, got {label!r}")
    if len(set(out)) != len(out):
        twice = sorted({x for x in out if out.count(x) > 1})
        raise ShapeError(f"cell labels must differ; {', '.join(map(repr, twice))} is used twice")
    return out


def _check_symmetries(perms: Any, neighbours: Adjacency) -> tuple[tuple[int, ...], ...]:
    """Identity first, then each distinct declared permutation, checked to preserve adjacency."""
    size = len(neighbours)
    identity = tuple(range(size))
    out = [identity]
    sets = [frozenset(near) for near in neighbours]
    for perm in perms:
        if isinstance(perm, str | bytes) or not isinstance(perm, Iterable):
            raise ShapeError(f"a symmetry must be a list of cell numbers, got {perm!r}")
        perm = tuple(_cell_number(x, size, "a symmetry") for x in perm)
        if len(perm) != size or len(set(perm)) != size:
            raise ShapeError(f"a symmetry must send the {size} cells to {size} different cells")
        for a, near in enumerate(neighbours):
            if frozenset(map(perm.__getitem__, near)) != sets[perm[a]]:
                raise ShapeError(f"a declared symmetry does not preserve adjacency at cell {a} "
                                 f"(sent to {perm[a]})")
        if perm not in out:
            out.append(perm)
    return tuple(out)


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
    if length > MAX_CELLS:
        raise ShapeError(f"a grid of {length:,} letters is too big: a board has at most {MAX_CELLS:,} cells")
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
    try:  # not int(): it fails on thousands of digits
        rows = digits_value(match[1], "the number of rows", MAX_SIDE)
        cols = digits_value(match[2], "the number of columns", MAX_SIDE)
    except InputError as err:
        raise ShapeError(str(err)) from None
    Board(rows, cols)  # validates
    return rows, cols
