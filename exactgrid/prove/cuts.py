"""What the checks of one relaxation solution conclude, as small types the loops branch on.

The core loop (:mod:`.cores`) and the bound (:mod:`.bound`) solve the counting relaxation,
then ask the placement check and the question's exact model about the solution. The answer is
one of: :class:`Cuts` (clauses that cut the solution, each with the core behind it),
:class:`Placeable` (its pairs and counts can be placed: no core cuts it), :class:`Spelled`
(the exact model spelled the words in a grid), :class:`TimedOut` (the time limit came first)
or :class:`Unchecked` (no check could be made: no placement model, no exact model).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..grid import Grid
from .exact import WordCore
from .placement import Core


@dataclass(frozen=True)
class Cuts:
    """Clauses of the relaxation that cut the solution, each with the core it stands for."""

    clauses: tuple[tuple[list[int], Core | WordCore], ...]

    def __add__(self, other: Cuts) -> Cuts:
        return Cuts(self.clauses + other.clauses)


@dataclass(frozen=True)
class Placeable:
    """The solution's pairs and counts can be placed on the board (``letters``: one placement,
    cell by cell, ``_`` for any other letter): no pair/count core cuts it."""

    letters: str


@dataclass(frozen=True)
class Spelled:
    """The question's exact model spelled the solution's words in ``grid`` (not yet checked by
    the finder)."""

    grid: Grid


@dataclass(frozen=True)
class TimedOut:
    """The time limit came before the check settled anything."""


@dataclass(frozen=True)
class Unchecked:
    """No check applies: the board is too large for a placement model and no exact model is
    asked."""


Cut = Cuts | Placeable | Spelled | TimedOut | Unchecked
"""What the checks of one relaxation solution conclude."""
