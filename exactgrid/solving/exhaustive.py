"""Questions small enough to answer by checking every grid: when the fixed cells and letter
domains leave few fillings, ``solve`` checks each one with the finder instead of annealing.
Then its best grid is proven best (OPTIMAL), or it is proven that no grid meets the question
(DOES NOT FIT), and the search ends as soon as the last filling is checked.
"""

from __future__ import annotations

import itertools
import math
import string
import time
from collections.abc import Callable

from ..grid import Grid
from ..question import Question
from ..stopping import interruption
from ..verify import GridCheck, check_grid
from .search import Improvement, SearchResult, SearchStats, keep_improvement

EXHAUSTIVE_WORD_CHECKS = 100_000
"""Questions whose fillings times the words of their list times their alteration budget (at
least 1) come to at most this are answered by checking every filling with the finder: 2,000
fillings against the 50 states at budget 1 (two free cells on 5x5 leave 676). The finder
checks a 5x5 grid at some 20 to 50 microseconds a word at budget 1 (timed in
docs/benchmarks.md, Solve), and its work grows with the budget, so that takes seconds. A grid
is checked as a whole, so the time limit is looked at between grids: this keeps each short."""

EXHAUSTED = "every filling checked"
"""What ended a search that checked every filling (``SolveAnswer.ended_by``)."""


def cell_choices(question: Question) -> list[str]:
    """The letters each cell may hold, in cell order: its fixed letter, its domain, or A-Z."""
    return [question.cell_letters(cell) or string.ascii_uppercase for cell in range(question.board.size)]


def filling_count(question: Question) -> int:
    """How many grids the question's cells allow: the product of each cell's choices (26 for a
    free cell)."""
    return math.prod(len(letters) for letters in cell_choices(question))


def checks_every_filling(question: Question) -> bool:
    """Whether ``solve`` answers ``question`` by checking every filling of its cells (see
    :data:`EXHAUSTIVE_WORD_CHECKS`) rather than by searching."""
    return filling_count(question) * len(question.words.words) * max(1, question.budget) <= EXHAUSTIVE_WORD_CHECKS


def fillings(question: Question) -> itertools.product[tuple[str, ...]]:
    """Every grid the question's cells allow, as tuples of letters, in alphabetical order."""
    return itertools.product(*cell_choices(question))


PROGRESS_SECONDS = 0.5
"""How often ``on_progress`` hears how many fillings were checked."""


def check_every_filling(question: Question, time_limit: float | None,
                        on_improvement: Callable[[Improvement], None] | None = None,
                        on_progress: Callable[[SearchStats], None] | None = None) -> SearchResult:
    """Check every filling of ``question``'s cells with the finder, in alphabetical order, and
    keep the highest-scoring one that meets it (the first of equals), as a search's result
    (``stopped_by`` :data:`EXHAUSTED` once every filling was checked); while none meets it,
    ``closest`` is the one failing fewest constraints, the highest-scoring of those. Stops
    early at ``time_limit`` seconds or on Ctrl-C/SIGTERM, with what was found so far.
    ``on_progress`` hears the count so far (``proposals``) every :data:`PROGRESS_SECONDS`."""
    started, cpu_started = time.monotonic(), time.process_time()
    found = SearchResult(best=None, stats=SearchStats(time_limit=time_limit), stopped_by=EXHAUSTED)
    stats, closest, told = found.stats, None, started
    try:
        for letters in fillings(question):
            now = time.monotonic()
            stats.elapsed, stats.cpu_seconds = now - started, time.process_time() - cpu_started
            if time_limit is not None and stats.elapsed >= time_limit:
                found.stopped_by = "time limit"
                break
            if on_progress is not None and now - told >= PROGRESS_SECONDS:
                told = now
                on_progress(stats)
            stats.proposals += 1
            check = check_grid(question, Grid(question.board, "".join(letters)))
            if not check.ok:
                closest = closest if found.best is not None or not _closer(check, closest) else check
            elif found.best is None or check.score.total > found.best.score.total:  # scored before it is kept
                keep_improvement(found, check, check.score.total, 0, on_improvement)
    except KeyboardInterrupt as exc:
        found.stopped_by = interruption(exc)
    stats.elapsed, stats.cpu_seconds = time.monotonic() - started, time.process_time() - cpu_started
    found.closest = closest.grid.letters if closest is not None and found.best is None else None
    return found


def _closer(check: GridCheck, closest: GridCheck | None) -> bool:
    """Whether ``check`` fails fewer constraints than ``closest`` (None: no grid yet), or as few
    and scores more."""
    if closest is None:
        return True
    if len(check.problems) != len(closest.problems):
        return len(check.problems) < len(closest.problems)
    return check.score.total > closest.score.total
