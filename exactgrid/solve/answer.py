"""``solve``: the best grid for a question and a checklist, and the answer it gives."""


from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from ..awards import Checklist, ChecklistResult, evaluate
from ..finder import Score
from ..grid import Grid
from ..inputs import InputError, check_seconds, clamp_workers_warning
from ..question import Question, Verdict, checklist_question, choose_checklist
from ..stopping import interruption
from ..verify import GridCheck
from .certify import WindowCertificate, certify
from .problem import SearchProblem, SolveError, counts_every_word
from .search import Improvement, Schedule, SearchStats, search


@dataclass
class SolveAnswer:
    """The best grid found for a question, checked by the finder, with how it was found.

    ``verdict`` is FITS when a grid meeting every constraint was found (``grid``, ``score``),
    else UNKNOWN (none found in the time: ``closest`` is the grid that came nearest). The
    score is the best found, not a proven optimum.
    """

    question: Question
    verdict: Verdict
    check: GridCheck | None
    checklist: ChecklistResult | None = None
    improvements: list[Improvement] = field(default_factory=list)
    stats: SearchStats = field(default_factory=SearchStats)
    stopped_by: str = "time limit"
    closest: str | None = None
    certificate: WindowCertificate | None = None
    """With ``certify_window``: what the exact moves proved of the grid (K-optimal, or not)."""
    detail: str = ""
    """Why there is no grid, when the search ended before it began (the kernel still compiling)."""

    @property
    def grid(self) -> Grid | None:
        """The best grid found, or None."""
        return self.check.grid if self.check is not None else None

    @property
    def result(self) -> Score | None:
        """The finder's score of the best grid (every word with its witness), or None."""
        return self.check.score if self.check is not None else None

    @property
    def score(self) -> int:
        """The best grid's total weight (0 without a grid)."""
        return self.check.score.total if self.check is not None else 0


def solve_question(question: Question, checklist: Checklist | str | Path | None = None,
                   awards: Iterable[str] = (), water_borders: bool | None = None) -> Question:
    """``question`` with the checklist's items (or the named awards of the default checklist)
    as hard constraints (:func:`~exactgrid.question.checklist_question`)."""
    chosen = choose_checklist(checklist, awards)
    return question if chosen is None else checklist_question(question, chosen, water_borders)


def solve(question: Question | None = None, *, checklist: Checklist | str | Path | None = None,
          awards: Iterable[str] = (), water_borders: bool | None = None, time_limit: float | None = 60.0,
          workers: int | None = None, seed: int = 0, start: Grid | str | None = None,
          schedule: Schedule | None = None, max_proposals: int | None = None,
          certify_window: int | None = None, certify_time_limit: float | None = None,
          on_certify_progress: Callable[[int, int], None] | None = None,
          on_improvement: Callable[[Improvement], None] | None = None,
          on_progress: Callable[[SearchStats], None] | None = None,
          on_compile: Callable[[], None] | None = None) -> SolveAnswer:
    """The highest-scoring grid found in ``time_limit`` seconds that meets ``question`` and
    the checklist: every word of the question's list scores its weight; required and forbidden
    words, fixed cells, ``min_count``/``min_score`` and chains are hard constraints, and so
    is every item of ``checklist`` (a Checklist or TOML file) or of ``awards`` (keys of the
    default checklist: ``["M8", "NOCAL", "C2C"]``).

    ``workers`` threads (default: every core; more than the usable cores are lowered to them
    with a :class:`~exactgrid.inputs.WorkersClamped` warning) anneal from random grids, or from ``start``.
    Ctrl-C or SIGTERM ends the search with the best grid so far, and so does ``max_proposals``
    (a stop that does not depend on the machine's speed, for tests and benchmarks).

    ``certify_window`` K: then improve the grid by exact moves (SAT, :mod:`.certify`) until
    no change of at most K cells helps, proven (``certificate``), within ``certify_time_limit``
    seconds (default: ``time_limit`` again); ``on_certify_progress(done, windows)`` hears how
    far. Every grid reported was re-scored by the finder and checked against the question and the checklist.

    ``time_limit`` is wall-clock time for the search from this call on: building the question's
    arrays, a first grid from the SAT solver when words are required, and compiling the search
    kernel on the first run after an install (``on_compile()`` is called then; see
    :func:`~exactgrid.solve.search.search`) all count. ``certify_window`` has its own limit.
    """
    started = time.monotonic()
    question = question if question is not None else Question()
    if not isinstance(question, Question):
        raise InputError(f"solve takes a Question, got {type(question).__name__}")
    chosen = choose_checklist(checklist, awards)
    constrained = question if chosen is None else checklist_question(question, chosen, water_borders)
    constrained = _count_every_word(constrained)
    if time_limit is not None:
        time_limit = check_seconds(time_limit)
    workers = clamp_workers_warning(workers)
    start_text = None
    if start is not None:
        start_grid = start if isinstance(start, Grid) else Grid(question.board, _letters(start))
        if start_grid.board.size != question.board.size:
            raise InputError(f"the start grid has {start_grid.board.size} cells; the board has {question.board.size}")
        start_text = start_grid.letters
    problem = SearchProblem.build(constrained)
    if start_text is None and constrained.required:
        try:
            start_text = _feasible_start(constrained, time_limit)
        except KeyboardInterrupt as exc:  # stopped before the search began: nothing found yet
            return SolveAnswer(question=constrained, verdict=Verdict.UNKNOWN, check=None,
                               stopped_by=interruption(exc))
    left = None if time_limit is None else max(0.0, time_limit - (time.monotonic() - started))
    found = search(problem, time_limit=left, workers=workers, seed=seed,
                   start=start_text, schedule=schedule, max_proposals=max_proposals,
                   on_improvement=on_improvement, on_progress=on_progress, on_compile=on_compile)
    answer = SolveAnswer(
        question=constrained, verdict=Verdict.FITS if found.best is not None else Verdict.UNKNOWN,
        check=found.best, improvements=found.improvements, stats=found.stats, stopped_by=found.stopped_by,
        closest=None if found.best is not None else found.closest, detail=found.detail,
    )
    if certify_window is not None and answer.check is not None and found.stopped_by in ("time limit", "proposals"):
        limit = time_limit if certify_time_limit is None else check_seconds(certify_time_limit)
        try:
            answer.certificate, answer.check = certify(constrained, answer.check, certify_window, time_limit=limit,
                                                       on_improvement=on_improvement, on_progress=on_certify_progress)
        except KeyboardInterrupt as exc:  # the grid found stands, uncertified
            answer.stopped_by = interruption(exc)
    if chosen is not None and answer.check is not None:
        result = answer.check.score
        answer.checklist = evaluate(chosen, result.words, result.total, water_borders)
        if not answer.checklist.passed:
            raise AssertionError(f"{answer.grid} met the constraints but fails {answer.checklist.failed}")
    return answer


SEED_SHARE = 0.1
"""Of the time limit, the share a SAT solver may spend on a first grid holding the required words."""


def _feasible_start(question: Question, time_limit: float | None) -> str | None:
    """A grid with the required words and none of the forbidden ones, from the SAT solver, for
    the search to start from (annealing from random grids rarely meets a long required word,
    such as PENNSYLVANIA); None if none comes in a tenth of the time (at most 10 s)."""
    from ..fit import fit  # noqa: PLC0415 (the SAT layer only when there is something to require)

    seed = question.but(min_score=None, min_count=None, chains=(), optional=())
    limit = 10.0 if time_limit is None else min(10.0, SEED_SHARE * time_limit)
    answer = fit(seed, backend="cadical", time_limit=limit)
    return answer.grid.letters if answer.grid is not None else None


def _count_every_word(question: Question) -> Question:
    """Targets count every word of the list in solve (as the objective does)."""
    if question.min_count is None and question.min_score is None:
        return question
    if not question.optional:
        return question.but(optional="all")
    if not counts_every_word(question):
        raise SolveError("solve counts every word of the list towards min_score and min_count; "
                         "leave optional empty (or give every word its own weight)")
    return question


def _letters(text: str) -> str:
    letters = "".join(ch for ch in text.upper() if not ch.isspace() and ch != "/")
    if not letters.isascii() or not letters.isalpha():
        raise InputError(f"a start grid is letters A-Z, got {text!r}")
    return letters
