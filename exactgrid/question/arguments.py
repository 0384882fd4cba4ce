"""A Question from the words a user types (the CLI's arguments, an instance file's keys)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path

from ..data import word_list
from ..geometry import MOVE_RULES, Board, ShapeError
from ..grid import shape_value
from ..inputs import as_items, check_text
from ..words import WordList
from .core import ASKS_NOTHING, Question
from .requirement import SpecError, merge_cell_letters, parse_cell_letters


def build_question(
    *,
    requirements: Iterable[str] = (),
    forbid: Iterable[str] = (),
    cells: str | Iterable[str] | None = None,
    optional: Iterable[str] = (),
    min_score: int | None = None,
    min_count: int | None = None,
    shape: str | tuple[int, int] = (5, 5),
    moves: str = "king",
    path_rule: str = "walk",
    budget: int = 1,
    words: WordList | str | Path | None = None,
    symmetry_breaking: bool = False,
    fixed: Mapping[int, str] | None = None,
    allow_empty: bool = False,
) -> Question:
    """A Question from user-level words, as the CLI and instance files give them.

    ``optional`` may contain ``all`` for every word on the list. ``cells`` is one text of
    rows (see :func:`parse_cell_letters`: a letter, ``.`` or ``[ABC]`` a cell) or several,
    merged with ``fixed`` ({cell: letter}); a cell given more than once may hold the letters
    all allow, and must be left some. ``words`` is a WordList, ``"us-states"`` or a word-list
    file. A question that asks nothing (no requirement, forbid or target) is refused unless
    ``allow_empty`` (solve asks for the best grid of any question, and awards may add
    constraints later): it is a mistake at the door of ``fit``, though a valid (trivial)
    :class:`Question` in the library.
    """
    words = word_list(words)
    try:
        rows, cols = shape_value(shape)
        if moves not in MOVE_RULES:
            raise SpecError(f"unknown move rule {moves!r}; choose from {', '.join(MOVE_RULES)}")
        board = Board(rows, cols, moves)  # type: ignore[arg-type]
    except ShapeError as err:
        raise SpecError(str(err)) from None
    domains: dict[int, str] = {}
    for text in [cells] if isinstance(cells, str) else cells or ():
        domains = merge_cell_letters(board, domains, parse_cell_letters(check_text(text, "cells"), board))
    question = Question(
        board=board, budget=budget, path_rule=path_rule,  # type: ignore[arg-type]
        required=tuple(check_text(t, "a requirement") for t in as_items(requirements, "requirements")),
        forbidden=tuple(check_text(f, "a forbidden word") for f in as_items(forbid, "forbid")),
        fixed=dict(fixed or {}), domains=domains, optional=as_items(optional, "optional"), min_score=min_score,
        min_count=min_count, words=words, symmetry_breaking=symmetry_breaking,
    )
    if not question.asks_something and not allow_empty:
        raise SpecError(ASKS_NOTHING)
    return question


