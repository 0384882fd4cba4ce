"""The library's front door: the few calls most users need, with sensible defaults.

``import exactgrid as eg`` re-exports these (see ``exactgrid/__init__.py``)::

    import exactgrid as eg
    print(eg.score("thoainesl").total)                          # 32913047
    question = eg.Question(eg.Board(3, 3), required=["OHIO", "UTAH=ATAH"], forbidden=["TEXAS"])
    answer = eg.fit(question, time_limit=30)
    print(answer.verdict, answer.grid)                          # fits THO/... (finder-checked)
"""

from __future__ import annotations

from pathlib import Path

from .awards import Checklist, ChecklistResult, default_checklist, evaluate, load_checklist
from .data import word_list
from .finder import Score
from .finder import score as score_grid
from .geometry import MoveRule, PathRule
from .grid import Grid, parse_grid
from .words import WordList


def as_grid(grid: Grid | str, shape: str | tuple[int, int] | None = None, moves: MoveRule = "king") -> Grid:
    """A Grid as is, or letters read by :func:`~exactgrid.grid.parse_grid`."""
    return grid if isinstance(grid, Grid) else parse_grid(grid, shape, moves)


def score(grid: Grid | str, words: WordList | str | Path | None = None, budget: int = 1,
          path_rule: PathRule = "walk", shape: str | tuple[int, int] | None = None,
          moves: MoveRule = "king") -> Score:
    """Score a grid (a Grid, or letters such as ``"thoainesl"``) on a word list (default: the
    US states; a WordList, ``"us-states"`` or a word-list file): the words found, each with a
    witness path, and their total weight.

    >>> score("thoainesl").total
    32913047
    """
    words = word_list(words)
    return score_grid(as_grid(grid, shape, moves), words, words.check_budget(budget), path_rule)


def check(grid: Grid | str, checklist: Checklist | str | Path | None = None, water_borders: bool | None = None,
          budget: int = 1, path_rule: PathRule = "walk") -> tuple[Score, ChecklistResult]:
    """Score a grid on the US states and run a checklist on it (default: the Altered States 2
    awards): the score and the checklist's verdict, item by item.

    >>> _, verdict = check("thoainesl")
    >>> verdict.passed
    False
    """
    if checklist is None:
        checklist = default_checklist()
    elif not isinstance(checklist, Checklist):
        checklist = load_checklist(checklist)
    result = score(grid, None, budget, path_rule)
    return result, evaluate(checklist, result.words, result.total, water_borders)
