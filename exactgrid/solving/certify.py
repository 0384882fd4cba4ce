"""Exact moves: improve a grid by changing at most K cells, or prove that no such change helps.

The question: the solve question's own constraints, with every word of the list counted
towards ``min_score`` = the grid's score + 1. Two ways to ask it:

* :func:`certify` (windows): one encoding and one incremental solver session
  (:class:`~exactgrid.fitting.session.FitSession`); for each window of K free cells, the other
  cells are assumed to keep their letters. An UNSAT answer comes with a core, the cells whose
  letters the refutation used; every later window that leaves all of a core's cells alone is
  refuted by the same core and is not asked. A model is a better grid (checked by the finder):
  the search starts again around it, with a new session for the higher score.
* :func:`improve_within` (one question for all windows): a cardinality constraint "at most K
  free cells differ from the grid". The windows were several times faster for K = 1, 2, 3
  (docs/benchmarks.md, Solve), so :func:`certify` uses the windows.

"No model" in every window proves the grid *K-optimal*: no grid within Hamming distance K of it
meets the question with a higher score. What backs the proof is the solver's UNSAT answers
(with their cores), named in the certificate.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable
from dataclasses import dataclass
from math import comb

from ..backends import Backend, Status
from ..encoding import EncodingTimeout, encode
from ..fitting.session import SESSION_BACKEND, FitSession, assumed, session_backend
from ..grid import Grid
from ..inputs import InputError, check_seconds, check_whole
from ..question import Question, Verdict
from ..stopping import interruption
from ..verify import GridCheck, check_grid
from ..wording import plural
from .search import Improvement


@dataclass(frozen=True)
class WindowCertificate:
    """What the exact moves showed about the final grid.

    ``verdict`` DOES_NOT_FIT: proven that no change of at most ``window`` free cells gives a
    grid meeting the question with a higher score (``grid`` is K-optimal); UNKNOWN: the time
    ran out (``detail`` says where). ``improvements`` counts better grids the moves found.
    """

    window: int
    verdict: Verdict
    grid: str
    score: int
    improvements: int
    seconds: float
    backend: str
    detail: str = ""

    def describe(self) -> str:
        """One line for people."""
        if self.verdict == Verdict.DOES_NOT_FIT:
            return (f"proven {self.window}-optimal by {self.backend} in {self.seconds:.1f} s: no change of at most "
                    f"{self.window} cells scores more than {self.score:,} and meets the question"
                    f" ({plural(self.improvements, 'improvement')} by exact moves first)")
        return (f"not proven {self.window}-optimal ({self.detail}; {plural(self.improvements, 'improvement')} "
                f"by exact "
                f"moves, {self.seconds:.1f} s)")


def window_question(question: Question, score: int) -> Question:
    """``question`` asking for more than ``score``: every word counts (optional "all"). Without
    symmetry breaking: a window holds the other cells' letters, and the lex-leader constraint
    is sound only when no cell is held (it would refute windows whose better grids are not the
    least of their images)."""
    return question.but(optional="all", min_score=score + 1, symmetry_breaking=False)


def improve_within(question: Question, grid: str, score: int, window: int, backend: str | None = None,
                   time_limit: float | None = None, seed: int = 0) -> tuple[Verdict, GridCheck | None, str]:
    """One exact move: a grid meeting ``question`` that differs from ``grid`` in at most
    ``window`` free cells and scores more than ``score`` (FITS, with the finder's check of it),
    a proof that there is none (DOES_NOT_FIT), or UNKNOWN; and a detail line."""
    from ..fitting import fit

    asked = window_question(question, score)
    deadline = None if time_limit is None else time.monotonic() + time_limit
    try:
        encoding = encode(asked, deadline=deadline)
    except EncodingTimeout as exc:
        return Verdict.UNKNOWN, None, str(exc)
    free = [c for c in range(question.board.size) if c not in question.fixed]
    differs = [-encoding.cell_lit(c, grid[c]) for c in free]
    if window < len(free):
        encoding.model.add_linear(differs, None, "<=", window, name="window")
    left = None if deadline is None else max(0.0, deadline - time.monotonic())
    # no counting race: it would answer the question without the window
    answer = fit(asked, backend=backend, time_limit=left, seed=seed, encoding=encoding, counting=False)
    if answer.verdict != Verdict.FITS:
        return answer.verdict, None, answer.detail
    # a letter no word uses is modelled as the filler: give such cells their own letter back
    found = "".join(grid[c] if ch == encoding.filler and grid[c] not in encoding.alphabet else ch
                    for c, ch in enumerate(answer.grid.letters))
    changed = sum(1 for c in free if found[c] != grid[c])
    check = check_grid(question, Grid(question.board, found))
    if not check.ok or check.score.total <= score or changed > window:
        raise AssertionError(f"an exact move returned {found}, which the finder does not accept "
                             f"({check.problems}, {check.score.total:,}, {changed} cells changed)")
    return Verdict.FITS, check, answer.detail


def check_window(question: Question, window: int) -> int:
    """``window``, when it is a whole number of cells from 1 to the question's free cells
    (those not fixed), else InputError."""
    window = check_whole(window, "the certify window")
    free = question.board.size - len(question.fixed)
    if not 1 <= window <= free:
        raise InputError(f"the certify window must be 1..{free} cells (the free cells), got {window}")
    return window


def certify(question: Question, check: GridCheck, window: int, backend: str = SESSION_BACKEND,
            time_limit: float | None = None, on_improvement: Callable[[Improvement], None] | None = None,
            on_progress: Callable[[int, int], None] | None = None) -> tuple[WindowCertificate, GridCheck]:
    """Improve ``check.grid`` by exact moves of at most ``window`` cells until none helps: the
    certificate, and the final grid (the finder's check of it). Ctrl-C or the time limit ends
    it with an UNKNOWN certificate and the best grid so far. ``on_progress(done, windows)``
    hears how far the windows have got."""
    window = check_window(question, window)
    free = [c for c in range(question.board.size) if c not in question.fixed]
    if time_limit is not None:
        time_limit = check_seconds(time_limit)
    chosen = session_backend(backend)
    began = time.monotonic()
    best = check
    improvements = 0
    asked = 0
    verdict, detail = Verdict.UNKNOWN, ""
    try:
        while True:
            outcome, better, asked_now = _windows(question, best, window, free, chosen, began, time_limit,
                                                  on_progress)
            asked += asked_now
            if better is None:
                verdict = outcome
                detail = f"{asked} windows asked, the rest refuted by their cores" if outcome == Verdict.DOES_NOT_FIT \
                    else "time limit reached"
                break
            best = better
            improvements += 1
            if on_improvement is not None:
                found = tuple(sorted(best.score.words))
                on_improvement(Improvement(best.grid.letters, best.score.total, found, time.monotonic() - began,
                                           0.0, -1, 0))
    except KeyboardInterrupt as exc:
        verdict, detail = Verdict.UNKNOWN, f"interrupted ({interruption(exc)})"
    certificate = WindowCertificate(window, verdict, best.grid.letters, best.score.total, improvements,
                                    time.monotonic() - began, chosen.name, detail)
    return certificate, best


def _windows(question: Question, best: GridCheck, window: int, free: list[int], backend: Backend,
             began: float, time_limit: float | None,
             on_progress: Callable[[int, int], None] | None) -> tuple[Verdict, GridCheck | None, int]:
    """Ask every window of ``window`` free cells around ``best``: (DOES_NOT_FIT, None) when all
    are refuted, (FITS, a better grid) at the first that is not, (UNKNOWN, None) at the limit."""
    letters = best.grid.letters
    total = comb(len(free), window)
    asked = 0
    with FitSession(window_question(question, best.score.total), backend) as session:
        base = assumed(session.parts(session.question))
        keep = {c: session.encoding.cell_lit(c, letters[c]) for c in free}
        cores: list[frozenset[int]] = []
        by_lit = {lit: c for c, lit in keep.items()}
        for done, cells in enumerate(itertools.combinations(free, window)):
            if on_progress is not None and done % 100 == 0:
                on_progress(done, total)
            opened = set(cells)
            if any(not (core & opened) for core in cores):
                continue  # a known refutation leaves these cells alone
            left = None if time_limit is None else time_limit - (time.monotonic() - began)
            if left is not None and left <= 0:
                return Verdict.UNKNOWN, None, asked
            result = session.session.solve(base + [lit for c, lit in keep.items() if c not in opened], left)
            asked += 1
            if result.status == Status.UNSAT:
                cores.append(frozenset(by_lit[lit] for lit in (result.core or ()) if lit in by_lit))
            elif result.status == Status.UNKNOWN:
                return Verdict.UNKNOWN, None, asked
            else:
                kept = {**question.cells, **{c: letters[c] for c in free if c not in opened}}
                grid = session.encoding.decode(result.true_vars or (), kept)  # unmodelled letters kept
                check = check_grid(question, grid)
                if not check.ok or check.score.total <= best.score.total:
                    raise AssertionError(f"an exact move returned {grid.letters}, which the finder does not "
                                         f"accept ({check.problems}, {check.score.total:,})")
                return Verdict.FITS, check, asked
    return Verdict.DOES_NOT_FIT, None, asked
