"""Fit by search first: a local search looks for a grid meeting a fit question before the
SAT solver is asked (``exactgrid fit --local-search SECONDS``).

A fit question with targets (``min_score``), chains (C2C) or many required words is often easy
for the annealer and hard for a solver: a grid found by search is an answer like any other
(checked by the finder against the question), and when none comes in the time given, the
backend gets the rest of the time limit and answers as :func:`exactgrid.fit` does (the only
way to DOES NOT FIT). ``eg.fit`` itself stays a pure solver call.

The search grades missing required words (:data:`FIT_SCHEDULE`): a fit is a search for any
grid meeting the question, and a required word that comes closer must count before it is
spelled.
"""

from __future__ import annotations

import time

from ..backends import Backend
from ..fitting import FitAnswer, fit, verified_answer
from ..inputs import check_seconds, clamp_workers_warning
from ..question import Question
from ..stopping import raise_if_interrupted
from .kernel import require_numba
from .problem import SearchProblem, SolveError, counts_every_word
from .search import Schedule, SearchResult, search

FIT_SCHEDULE = Schedule(graded=True)
"""The annealer's settings for a fit: the graded penalty (a missing required word costs the
letters it needs altered beyond the budget), which finds the first grid of award questions
many times sooner than the default schedule (measured: docs/benchmarks.md, Certificates and
local search)."""


def searchable(question: Question) -> bool:
    """Whether the search can answer ``question`` exactly: walks, plain requirements, at most
    64 cells, and a ``min_count`` (if any) over every word of the list."""
    if question.min_count is not None and not counts_every_word(question):
        return False
    try:
        SearchProblem.build(question)
    except SolveError:
        return False
    return True


def search_for_fit(question: Question, seconds: float, workers: int | None = None,
                   seed: int = 0, schedule: Schedule | None = None) -> FitAnswer | None:
    """A FITS answer found by local search within ``seconds`` (scoring only the question's
    scoring words, so that its ``min_score`` is the search's), or None (none found, or a
    question the search cannot answer exactly: :func:`searchable`). ``schedule``: the
    annealer's settings, :data:`FIT_SCHEDULE` unless given. Ctrl-C or a stop signal that ends
    the search before it finds a grid is raised again (``KeyboardInterrupt``, or
    :class:`exactgrid.stopping.Terminated`), so that a caller such as :func:`exactgrid.fit` stops
    too, rather than ask its backend for the rest of its time limit."""
    seconds = check_seconds(seconds)
    workers = clamp_workers_warning(workers)
    require_numba()
    if seconds <= 0 or not searchable(question):
        return None
    began = time.monotonic()
    found = first_grid_search(question, seconds, workers, seed, schedule)
    if found.best is None:
        raise_if_interrupted(found.stopped_by)
        return None
    return verified_answer(found.best.grid, "search", question=question, backend="search",
                           seconds=time.monotonic() - began,
                           detail=f"found by local search ({found.stats.proposals:,} grids scored)")


def first_grid_search(question: Question, seconds: float, workers: int | None = None, seed: int = 0,
                      schedule: Schedule | None = None, start: str | None = None) -> SearchResult:
    """The search :func:`search_for_fit` runs, its result as it stands: over the question's
    scoring words (so that its ``min_score`` is the search's), from ``start`` if given, stopped
    at its first grid meeting the question or after ``seconds``. ``best`` is that grid (checked
    by the finder) or None, and then ``closest`` the grid that came closest; ``stats`` counts
    the proposals. ``schedule``: :data:`FIT_SCHEDULE` unless given."""
    problem = SearchProblem.build(question, weights=question.scoring_weights())
    seen: list[object] = []
    return search(problem, time_limit=seconds, workers=workers, seed=seed, start=start,
                  schedule=FIT_SCHEDULE if schedule is None else schedule,
                  on_improvement=seen.append, should_stop=lambda: bool(seen))


def fit_by_search(question: Question, backend: str | Backend | None = None, time_limit: float | None = 60.0,
                  search_seconds: float = 30.0, workers: int | None = None, seed: int = 0) -> FitAnswer:
    """:func:`search_for_fit` for ``search_seconds`` (at most the time limit), then ``backend``
    with the time left. FITS from the search names the backend ``search``."""
    began = time.monotonic()
    limit = search_seconds if time_limit is None else min(search_seconds, check_seconds(time_limit))
    answer = search_for_fit(question, limit, workers, seed)
    if answer is not None:
        return answer
    left = None if time_limit is None else max(0.0, time_limit - (time.monotonic() - began))
    return fit(question, backend=backend, time_limit=left, seed=seed)
