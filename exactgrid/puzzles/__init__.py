"""The other puzzles of the seed documents, each a thin layer over the shared engine (boards,
word lists, the finder, the boolean model and its backends). Each module holds one puzzle's
rules, its solvers and its answer type; every answer meets the contract of
:mod:`exactgrid.answer` (``outcome``, ``seconds``, ``stopped_by``, ``text()``, ``to_dict()``,
``exit_code``), every entry point that can take long takes ``time_limit`` (wall-clock seconds
from the call, :data:`~exactgrid.answer.DEFAULT_TIME_LIMIT` by default, None for none) and
``on_progress(event)``, and Ctrl-C (or SIGTERM, SIGHUP) returns the answer so far.

* :mod:`.trackword` (seed 22.3): ``list_words(grid)``, every word a grid holds (the command
  ``exactgrid words``), and ``build_grid(word)``, the grid holding a word with the most words,
  proven best (``exactgrid trackword``).
* :mod:`.letterboxed` (seed 002): ``solve_letter_boxed(box)``, the fewest words that use every
  letter of an NYT Letter Boxed box, proven fewest, by search, ILP or both
  (``exactgrid letterboxed``).
* :mod:`.sumsquares` (seed 004): ``solve_sum_of_squares(n)``, Jane Street's Sum of Squares,
  the largest digit sum, proven optimal, by dynamic programme, ILP or both
  (``exactgrid sumsquares``).

The modules are imported when first used: ``exactgrid.puzzles.letterboxed`` (or
``eg.puzzles.letterboxed``) works without importing them first.
"""

from __future__ import annotations

import importlib
from types import ModuleType

PUZZLES = ("trackword", "letterboxed", "sumsquares")
"""The puzzle modules, each importable and reachable as an attribute of this package."""

__all__ = list(PUZZLES)


def __getattr__(name: str) -> ModuleType:
    if name in PUZZLES:
        return importlib.import_module(f".{name}", __name__)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted({*globals(), *PUZZLES})
