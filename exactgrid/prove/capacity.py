"""Neighbour capacity: how many different letters can sit next to one letter's cells, by the
board's geometry.

The counting relaxation (:mod:`exactgrid.prove.counting`) bounds a letter's distinct
neighbouring letters by the edge ends of its cells (the sum of their degrees). On a small board
that is loose: two cells of one letter share neighbours (two middle cells of a 5x5 king board
have at most 15 cells around them, not 16; two *adjacent* middle cells at most 10), and three
cells at most 18, not 24. A letter's distinct neighbouring letters are at most the cells next
to its cells and not its own, so the largest such number over every set of cells with the same
*profile* (how many cells of each degree) bounds them, and sharper when two of the cells must
touch (the doubled pair ``e[a,a]``).

:func:`neighbour_capacity` finds these numbers by enumerating every set of up to
:attr:`CapacityTable.most_cells` cells (:data:`PROFILE_CELLS`, fewer when that would be more
than :data:`ENUMERATION_LIMIT` sets); a letter in more cells than that gets
:attr:`CapacityTable.beyond`. Every number is a maximum over
real sets of cells, so every grid meets the constraints built from them: they only tighten the
relaxation (measured in docs/benchmarks.md, section Prove).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from math import comb

from ..geometry import Board

ENUMERATION_LIMIT = 100_000
"""At most this many cell sets are enumerated (5x5: every set of up to 5 cells, 68,405 sets,
well under a second; larger boards get smaller sets)."""

PROFILE_CELLS = 4
"""Profiles of at most this many cells by default: each profile is two variables a letter in
the relaxation, and HiGHS slows down with hundreds of them (a 4x4 board's every profile, up to
16 cells, made a test 100 times slower); letters seldom take more cells than this."""

Profile = tuple[int, ...]
"""How many cells of each degree (in the order of :attr:`CapacityTable.degrees`)."""


@dataclass(frozen=True)
class Capacity:
    """The most cells outside a set of cells and next to one of them, over every set of one
    profile: ``spread`` over all of them, ``touching`` over those holding two adjacent cells
    (None when no such set exists)."""

    spread: int
    touching: int | None


@dataclass(frozen=True)
class CapacityTable:
    """Every profile of up to ``most_cells`` cells and its :class:`Capacity`."""

    degrees: tuple[int, ...]
    most_cells: int
    profiles: dict[Profile, Capacity]
    cells: int
    """The board's cells."""

    @property
    def beyond(self) -> int:
        """The most cells around a set of more than ``most_cells`` cells: every other cell."""
        return max(0, self.cells - self.most_cells - 1)


def most_cells_within(size: int, limit: int = ENUMERATION_LIMIT) -> int:
    """The largest k such that every set of 1..k of ``size`` cells is at most ``limit`` sets
    (at least 1, at most ``size``)."""
    total, k = 0, 0
    while k < size and total + comb(size, k + 1) <= limit:
        k += 1
        total += comb(size, k)
    return max(1, k)


def neighbour_capacity(board: Board, most_cells: int = PROFILE_CELLS,
                       limit: int = ENUMERATION_LIMIT) -> CapacityTable:
    """The capacity table of ``board`` (see the module's docstring) for sets of up to
    ``most_cells`` cells, fewer when that would enumerate more than ``limit`` sets; cached per
    board."""
    return _capacity(board, min(most_cells, most_cells_within(board.size, limit)))


@lru_cache(maxsize=16)
def _capacity(board: Board, most_cells: int) -> CapacityTable:
    neighbours = [sum(1 << d for d in board.neighbours[c]) for c in range(board.size)]
    degree_of = [len(board.neighbours[c]) for c in range(board.size)]
    degrees = tuple(sorted(set(degree_of)))
    slot = {d: i for i, d in enumerate(degrees)}
    spread: dict[Profile, int] = {}
    touching: dict[Profile, int] = {}

    def grow(start: int, chosen: int, around: int, adjacent: bool, profile: list[int], size: int) -> None:
        for cell in range(start, board.size):
            bit = 1 << cell
            now_adjacent = adjacent or bool(neighbours[cell] & chosen)
            now_chosen, now_around = chosen | bit, around | neighbours[cell]
            profile[slot[degree_of[cell]]] += 1
            key = tuple(profile)
            outside = (now_around & ~now_chosen).bit_count()
            if spread.get(key, -1) < outside:
                spread[key] = outside
            if now_adjacent and touching.get(key, -1) < outside:
                touching[key] = outside
            if size + 1 < most_cells:
                grow(cell + 1, now_chosen, now_around, now_adjacent, profile, size + 1)
            profile[slot[degree_of[cell]]] -= 1

    grow(0, 0, 0, False, [0] * len(degrees), 0)
    profiles = {key: Capacity(value, touching.get(key)) for key, value in spread.items()}
    return CapacityTable(degrees, most_cells, profiles, board.size)
