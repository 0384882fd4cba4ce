"""``solve``: the best grid for a question and a checklist, and the answer it gives."""


from __future__ import annotations

import contextlib
import json
import os
import stat
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..answer import DEFAULT_TIME_LIMIT, Answer, OnProgress, Outcome, ProgressEvent
from ..awards import Checklist, ChecklistResult, default_checklist, evaluate
from ..data.us import us_states
from ..finder import Match, Score
from ..grid import Grid
from ..inputs import (
    InputError,
    check_callbacks,
    check_path,
    check_seconds,
    check_seed,
    check_whole,
    clamp_workers_warning,
)
from ..question import Question, Verdict, checklist_question, choose_checklist
from ..render.text import checklist_dict, checklist_table, score_dict, score_text, search_progress_line
from ..stopping import first_interruption_only, interruption, is_interruption, raise_if_interrupted
from ..verify import GridCheck, check_grid, checklist_verdict
from ..wording import plural
from .certify import WindowCertificate, certify, check_window
from .exhaustive import EXHAUSTED, check_every_filling, checks_every_filling
from .kernel import require_numba
from .problem import SearchProblem, SolveError, counts_every_word
from .search import PROPOSAL_BUDGET, Improvement, Schedule, SearchStats, search

COMPILE_NOTICE = ("getting the search kernel ready: compiling it for this machine (once after an install: seconds "
                  "to a minute, counted in --time-limit; a run that ends first leaves it uncompiled) or, on a "
                  "busy machine, loading it from numba's cache")
"""What ``on_progress`` hears (kind ``compiling``) when getting the search kernel ready takes over
a second: numba compiling it, or a loaded machine reading it from numba's cache."""


@dataclass
class SolveAnswer(Answer):
    """The best grid found for a question, checked by the finder, with how it was found.

    ``outcome`` is FEASIBLE when a grid meeting every constraint was found (``grid``,
    ``score``; the best found, not a proven optimum), else UNKNOWN (none found in the time:
    ``closest`` is the grid that came nearest, ``closest_check`` what the finder says of it,
    ``closest_checklist`` the checklist's verdict on it). When the question's cells allow few
    grids (:data:`~exactgrid.solving.exhaustive.EXHAUSTIVE_WORD_CHECKS`), each is checked
    by the finder (``ended_by`` is ``every filling checked``): the outcome is then OPTIMAL (the
    best grid, proven best) or DOES_NOT_FIT (proven that none meets the question). ``verdict`` says
    the same in a fit question's words (FITS, DOES_NOT_FIT or UNKNOWN).
    """

    question: Question
    verdict: Verdict
    check: GridCheck | None
    checklist: ChecklistResult | None = None
    improvements: list[Improvement] = field(default_factory=list)
    stats: SearchStats = field(default_factory=SearchStats)
    ended_by: str = "time limit"
    """What ended the search: ``time limit``, ``proposal budget``, ``every filling checked``,
    ``Ctrl-C``, ``SIGTERM``, ``SIGHUP`` (``--json``: ``search.stopped_by``)."""
    closest: str | None = None
    closest_check: GridCheck | None = None
    """Without a grid: the closest grid checked against the question (with a checklist, the
    question without it: the checklist's verdict is ``closest_checklist``), each required word
    it misses measured in letters off (``problems``)."""
    closest_checklist: ChecklistResult | None = None
    """Without a grid, when a checklist was asked for: its verdict on the closest grid."""
    certificate: WindowCertificate | None = None
    """With ``certify_window``: what the exact moves proved of the grid (K-optimal, or not)."""
    detail: str = ""
    """Why there is no grid, when the search ended before it began (the kernel still compiling)."""
    out_error: str = ""
    """Why the ``out`` file stopped taking improvements during the search (a full disk, say),
    when it did: the search went on without it."""
    seconds: float = 0.0
    """Wall-clock seconds of the whole call (search and certify window)."""

    @property
    def outcome(self) -> Outcome:  # type: ignore[override]
        """FEASIBLE with a grid (the best found), else UNKNOWN; OPTIMAL or DOES_NOT_FIT when every
        grid the cells allow was checked."""
        if self.check is not None:
            return Outcome.OPTIMAL if self.exhausted else Outcome.FEASIBLE
        return Outcome.DOES_NOT_FIT if self.exhausted else Outcome.UNKNOWN

    @property
    def exhausted(self) -> bool:
        """Whether every grid the question's cells allow was checked by the finder (a proof)."""
        return self.ended_by == EXHAUSTED

    @property
    def stopped_by(self) -> str | None:  # type: ignore[override]
        """The contract's: the interruption (Ctrl-C, SIGTERM, SIGHUP) that ended the search, or
        None when it ended by itself (``ended_by`` says how)."""
        return self.ended_by if is_interruption(self.ended_by) else None

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

    def text(self) -> str:
        """The answer as ``exactgrid solve`` prints it: how the search went, then the grid as
        ``score`` shows it, and the checklist when one was asked for (or why there is no grid)."""
        text = self._exhausted_text() if self.exhausted else self._search_text()
        return f"{text}\n\n--out: {self.out_error}" if self.out_error else text

    def _search_text(self) -> str:
        """The answer when the search ran: how it went, then the best grid (or the closest)."""
        stats = self.stats
        how = (f"{stats.proposals:,} grids scored in {stats.elapsed:.1f} s ({stats.cpu_seconds:.1f} CPU-s), "
               f"{plural(stats.improvements, 'improvement')}; stopped by {self.ended_by}")
        if self.check is None:
            if self.detail:
                return f"UNKNOWN: {self.detail} ({how})"
            return "\n".join([f"UNKNOWN: no grid met the constraints ({how})", *self._closest_lines()])
        lines = [f"best grid found ({how}), checked by the finder:", score_text(self.check.score)]
        if self.certificate is not None:
            lines += ["", f"certify window: {self.certificate.describe()}"]
        if self.checklist is not None:
            lines += ["", checklist_table(self.checklist)]
        return "\n".join(lines)

    def _exhausted_text(self) -> str:
        """The answer when every grid the cells allow was checked: the best, or none."""
        stats = self.stats
        how = f"each checked by the finder: {stats.elapsed:.1f} s, {stats.cpu_seconds:.1f} CPU-s"
        if self.check is None:
            return "\n".join([f"DOES NOT FIT: none of the {plural(stats.proposals, 'grid')} the cells allow meets "
                              f"the constraints ({how})", *self._closest_lines()])
        lines = [f"OPTIMAL: the best of the {plural(stats.proposals, 'grid')} the cells allow, {how}:",
                 score_text(self.check.score)]
        if self.checklist is not None:
            lines += ["", checklist_table(self.checklist)]
        return "\n".join(lines)

    def _closest_lines(self) -> list[str]:
        """The closest grid, what it scores and what it fails, and the checklist on it."""
        near = self.closest_check
        if near is None:
            return [f"closest grid {self.closest}"] if self.closest else []
        total, count = near.score.total, len(near.score.found)
        head = f"closest grid {near.grid.letters} ({total:,}, {plural(count, self._word_label())})"
        lines = [f"{head}, which fails:" if near.problems else head, *(f"  {problem}" for problem in near.problems)]
        if self.closest_checklist is not None:
            lines += ["", checklist_table(self.closest_checklist)]
        return lines

    def _word_label(self) -> str:
        return self.question.words.word_label or "word"

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready (``solve --json``): the contract's keys, ``verdict``, the ``score`` keys of
        the grid (when there is one; else ``closest``, and ``closest_total``, ``closest_problems``
        (what it fails of the question besides the checklist) and ``closest_checklist`` when
        known), ``checklist`` (when asked for), ``search`` (how it went) and ``certificate``
        (with a certify window)."""
        stats = self.stats
        data: dict[str, Any] = {**self.contract_dict(), "verdict": str(self.verdict)}
        if self.check is not None:
            data.update(score_dict(self.check.score))
        else:
            data["closest"] = self.closest
            if self.closest_check is not None:
                data["closest_total"] = self.closest_check.score.total
                data["closest_problems"] = list(self.closest_check.problems)
            if self.closest_checklist is not None:
                data["closest_checklist"] = checklist_dict(self.closest_checklist)
        if self.checklist is not None:
            data["checklist"] = checklist_dict(self.checklist)
        data["search"] = {
            "seconds": round(stats.elapsed, 3), "cpu_seconds": round(stats.cpu_seconds, 3),
            "proposals": stats.proposals, "improvements": [
                {"grid": i.grid, "score": i.score, "elapsed": round(i.elapsed, 3), "worker": i.worker}
                for i in self.improvements],
            "stopped_by": self.ended_by, **({"detail": self.detail} if self.detail else {}),
            **({"out_error": self.out_error} if self.out_error else {}),
        }
        cert = self.certificate
        if cert is not None:
            data["certificate"] = {"window": cert.window, "verdict": str(cert.verdict), "grid": cert.grid,
                                   "score": cert.score, "improvements": cert.improvements,
                                   "seconds": round(cert.seconds, 3), "backend": cert.backend, "detail": cert.detail}
        return data

    def picture_parts(self) -> tuple[Score, dict[str, Match], str] | str:
        """What a picture of this answer draws (the best grid's score and a heading), or why
        there is nothing to draw."""
        if self.result is None:
            return f"no grid to draw: the answer is {self.verdict.value.upper()}"
        return self.result, {}, f"solve: best found in {self.stats.elapsed:.0f} s"


def solve_question(question: Question, checklist: Checklist | str | Path | None = None,
                   awards: Iterable[str] = (), water_borders: bool | None = None) -> Question:
    """``question`` as :func:`solve` asks it: with the checklist's items (or the named awards of
    the default checklist) as hard constraints (:func:`~exactgrid.question.checklist_question`),
    and its targets (``min_score``, ``min_count``, 20S, 200M) counting every word of the list,
    as the search's objective does."""
    counted = _targets_counting_every_word(question)
    chosen = choose_checklist(checklist, awards)
    if chosen is None:
        return counted
    return _targets_counting_every_word(checklist_question(counted, chosen, water_borders))


class _News:
    """Where a search's news goes: ``on_progress`` events (and the old single-purpose
    callbacks), and every improvement appended to the ``out`` file as a JSON line."""

    def __init__(self, question: Question, on_progress: OnProgress | None, out: str | Path | None,
                 old: dict[str, Callable[..., None] | None], water_borders: bool | None = None) -> None:
        self.started = time.monotonic()
        self.water_borders = water_borders
        self.on_progress = on_progress
        self.old = old
        self.us = question.words.name == us_states().name
        self.out = out
        self.file: Any = None
        self.out_error = ""
        if out is not None:
            check_path(out, "out")
        if out is not None and os.path.exists(out) and stat.S_ISFIFO(os.stat(out).st_mode):
            raise InputError(f"cannot write {str(out)!r}: it is a FIFO, and writing to it would block the search")

    def open(self) -> None:
        """Open the ``out`` file, once the question is known to be good (so that bad input
        leaves no empty file behind), before the search."""
        if self.out is None or self.file is not None:
            return
        try:
            self.file = open(self.out, "a", encoding="utf-8")  # noqa: SIM115 (closed in close())
        except OSError as exc:
            raise InputError(f"cannot write {str(self.out)!r}: {exc.strerror or exc}") from None

    def close(self) -> None:
        """Close the ``out`` file (a failure to is kept in :attr:`out_error`, as a write's is)."""
        if self.file is not None:
            try:
                self.file.close()
            except OSError as exc:
                self._out_failed(exc)
            self.file = None

    def _out_failed(self, exc: OSError) -> None:
        """Stop writing the ``out`` file after a failed write, and say why: the search goes on."""
        if not self.out_error:
            self.out_error = (f"cannot write {str(self.out)!r} ({exc.strerror or exc}): the improvements from "
                              "then on are not in it")
        file, self.file = self.file, None
        with contextlib.suppress(OSError):  # the same failure again, already told
            file.close()

    def awards(self, words: Iterable[str], total: int) -> list[str]:
        """The default checklist's items a set of found states meets (US states only), under
        the search's border convention."""
        if not self.us:
            return []
        return [r.key for r in evaluate(default_checklist(), tuple(words), total, self.water_borders).items
                if r.passed]

    def _tell(self, message: str, kind: str, **numbers: Any) -> None:
        if self.on_progress is not None:
            self.on_progress(ProgressEvent("solve", message, time.monotonic() - self.started, kind=kind, **numbers))

    def improvement(self, found: Improvement) -> None:
        if self.old["on_improvement"] is not None:
            self.old["on_improvement"](found)
        if self.file is not None:
            line = {"grid": found.grid, "score": found.score, "states" if self.us else "words": list(found.words),
                    "awards": self.awards(found.words, found.score), "elapsed": round(found.elapsed, 3),
                    "cpu_seconds": round(found.cpu_seconds, 3), "worker": found.worker}
            try:
                self.file.write(json.dumps(line) + "\n")
                self.file.flush()
            except OSError as exc:
                self._out_failed(exc)
        self._tell(f"{found.score:,}: {found.grid}", "improvement", best=found.score, data=found)

    def progress(self, stats: SearchStats) -> None:
        if self.on_progress is not None:  # no grid yet, no awards (not even NOCAL's)
            awards = [] if stats.best_score is None else self.awards(stats.best_found, stats.best_score)
            line = search_progress_line(stats, awards)
            self._tell(line, "progress", best=stats.best_score, data=stats)

    def compiling(self) -> None:
        if self.old["on_compile"] is not None:
            self.old["on_compile"]()
        self._tell(COMPILE_NOTICE, "compiling")

    def certifying(self, done: int, windows: int) -> None:
        if self.old["on_certify_progress"] is not None:
            self.old["on_certify_progress"](done, windows)
        self._tell(f"certifying: {done:,} of {plural(windows, 'window')} asked or covered by a core", "round",
                   done=done, total=windows)


def solve(question: Question | None = None, *, checklist: Checklist | str | Path | None = None,
          awards: Iterable[str] = (), water_borders: bool | None = None,
          time_limit: float | None = DEFAULT_TIME_LIMIT, workers: int | None = None, seed: int = 0,
          start: Grid | str | None = None, schedule: Schedule | None = None, max_proposals: int | None = None,
          certify_window: int | None = None, certify_time_limit: float | None = None,
          out: str | Path | None = None, on_progress: OnProgress | None = None,
          on_certify_progress: Callable[[int, int], None] | None = None,
          on_improvement: Callable[[Improvement], None] | None = None,
          on_compile: Callable[[], None] | None = None) -> SolveAnswer:
    """The highest-scoring grid found in ``time_limit`` seconds that meets ``question`` and
    the checklist: every word of the question's list scores its weight; required and forbidden
    words, fixed cells, ``min_count``/``min_score`` and chains are hard constraints, and so
    is every item of ``checklist`` (a Checklist or TOML file) or of ``awards`` (keys of the
    default checklist: ``["M8", "NOCAL", "C2C"]``).

    ``workers`` threads (default: every core; more than the usable cores are lowered to them
    with a :class:`~exactgrid.inputs.WorkersClamped` warning) anneal from random grids, or from
    ``start`` (a cell the question fixes, or limits to letters its start letter is not, starts
    with the first letter allowed).
    Ctrl-C or SIGTERM ends the search with the best grid so far (``stopped_by``), and so does
    ``max_proposals`` (``ended_by`` says which ended it; the budget is shared between the
    workers, and each worker's search is then cut into slices of a fixed size, so that with one
    worker the same ``seed`` ends with the same best grid on any machine, however fast: a stop
    for tests, benchmarks and reproducible runs; how many improvements on the way are reported
    is a matter of timing).

    ``certify_window`` K: then improve the grid by exact moves (SAT, :mod:`.certify`) until
    no change of at most K cells helps, proven (``certificate``), within ``certify_time_limit``
    seconds (default: ``time_limit`` again). Every grid reported was re-scored by the finder
    and checked against the question and the checklist.

    ``on_progress(event)`` hears the search's news (kind ``progress``, with the
    :class:`SearchStats`), each improvement (kind ``improvement``, with the :class:`Improvement`),
    the kernel's compilation (kind ``compiling``) and the certify window's rounds (``done`` of
    ``total`` windows). ``out``: append every improvement to this file as a JSON line (grid,
    score, states, the default checklist's awards met (chains under ``water_borders``), elapsed,
    cpu_seconds, worker).
    ``on_improvement``, ``on_certify_progress`` and ``on_compile`` are the older single-purpose
    callbacks, still called.

    ``time_limit``: wall-clock seconds for the search from this call on, everything included
    (the question's arrays, a first SAT grid, compiling the kernel after an install).

    A question whose cells leave few grids (:func:`~exactgrid.solving.exhaustive.checks_every_filling`)
    is not searched: each grid is checked by the finder, and the answer is OPTIMAL or
    DOES_NOT_FIT (``ended_by`` ``every filling checked``), see :class:`SolveAnswer`.
    """
    started = time.monotonic()
    question = question if question is not None else Question()
    if not isinstance(question, Question):
        raise InputError(f"solve takes a Question, got {type(question).__name__}")
    require_numba()
    chosen = choose_checklist(checklist, awards)
    constrained = solve_question(question, chosen, water_borders=water_borders)
    time_limit = None if time_limit is None else check_seconds(time_limit)
    seed = check_seed(seed)
    max_proposals = None if max_proposals is None else check_whole(max_proposals, "max_proposals", 1)
    check_callbacks(on_progress=on_progress, on_certify_progress=on_certify_progress,
                    on_improvement=on_improvement, on_compile=on_compile)
    if schedule is not None and not isinstance(schedule, Schedule):
        raise InputError(f"schedule must be a Schedule, got {type(schedule).__name__}")
    if certify_window is not None:  # before the search, not after it
        check_window(constrained, certify_window)
    certify_time_limit = None if certify_time_limit is None else check_seconds(certify_time_limit)
    workers = clamp_workers_warning(workers)
    start_text = _start_letters(question, start)
    news = _News(constrained, on_progress, out, {"on_improvement": on_improvement, "on_compile": on_compile,
                                                 "on_certify_progress": on_certify_progress}, water_borders)
    with first_interruption_only() as signals:  # a second one must not lose the answer being made
        try:
            answer = _search(constrained, started, time_limit, workers, seed, start_text, schedule, max_proposals,
                             news)
            _certify_window(answer, certify_window,
                            time_limit if certify_time_limit is None else certify_time_limit, news)
        except KeyboardInterrupt as exc:  # between the search's own catches: nothing found, or kept
            answer = SolveAnswer(question=constrained, verdict=Verdict.UNKNOWN, check=None,
                                 ended_by=interruption(exc))
        finally:
            signals.winding_down = True
            news.close()
        answer.out_error = news.out_error
        if chosen is not None and answer.check is not None:
            answer.checklist = _checked(answer.check, chosen, water_borders)
        if answer.check is None and answer.closest is not None:  # the question besides the checklist, then it
            rest = _targets_counting_every_word(question)
            answer.closest_check = check_grid(rest, Grid(rest.board, answer.closest), measure=True)
            if chosen is not None:
                answer.closest_checklist = checklist_verdict(chosen, answer.closest_check.score, water_borders)
    answer.ended_by = signals.stopped_by(answer.ended_by)
    answer.seconds = time.monotonic() - started
    return answer


def _checked(check: GridCheck, checklist: Checklist, water_borders: bool | None) -> ChecklistResult:
    """The checklist's verdict on a grid the search found under it: every item passes (else
    an internal error: the encoding of the checklist and its evaluation disagree)."""
    verdict = evaluate(checklist, check.score.words, check.score.total, water_borders)
    if not verdict.passed:
        raise AssertionError(f"{check.grid} met the constraints but fails {verdict.failed}")
    return verdict


def _start_letters(question: Question, start: Grid | str | None) -> str | None:
    """The start grid's letters, checked against the board (None: no start grid)."""
    if start is None:
        return None
    if not isinstance(start, Grid | str):
        raise InputError(f"start must be a Grid or its letters as a string, got {type(start).__name__}")
    if isinstance(start, Grid) and start.board != question.board:  # as eg.score refuses it
        raise InputError(f"the start grid is on a board of {start.board.shape_name} with {start.board.moves_text}, "
                         f"the question's is {question.board.shape_name} with {question.board.moves_text}: "
                         "give its letters to read them on the question's board")
    start_grid = start if isinstance(start, Grid) else Grid(question.board, _letters(start))
    if start_grid.board.size != question.board.size:
        raise InputError(f"the start grid has {start_grid.board.size} cells; the board has {question.board.size}")
    return start_grid.letters


def _search(question: Question, started: float, time_limit: float | None, workers: int, seed: int,
            start_text: str | None, schedule: Schedule | None, max_proposals: int | None,
            news: _News) -> SolveAnswer:
    """The search's answer (a first grid from the SAT solver when words are required and no
    start is given), or, when the cells leave few grids, the check of each by the finder; an
    interruption before either began answers UNKNOWN."""
    try:
        problem = SearchProblem.build(question)
        news.open()
        if checks_every_filling(question):  # few grids: each checked by the finder, a proof
            found = check_every_filling(question, _left(started, time_limit), news.improvement, news.progress)
        else:
            if start_text is None and question.required:
                start_text = _feasible_start(question, time_limit)
            found = search(problem, time_limit=_left(started, time_limit), workers=workers, seed=seed,
                           start=start_text, schedule=schedule, max_proposals=max_proposals,
                           on_improvement=news.improvement, on_progress=news.progress, on_compile=news.compiling)
    except KeyboardInterrupt as exc:  # stopped before the search began: nothing found yet
        return SolveAnswer(question=question, verdict=Verdict.UNKNOWN, check=None, ended_by=interruption(exc))
    verdict = (Verdict.FITS if found.best is not None
               else Verdict.DOES_NOT_FIT if found.stopped_by == EXHAUSTED else Verdict.UNKNOWN)
    return SolveAnswer(
        question=question, verdict=verdict, check=found.best, improvements=found.improvements, stats=found.stats,
        ended_by=found.stopped_by, closest=None if found.best is not None else found.closest, detail=found.detail,
    )


def _left(started: float, time_limit: float | None) -> float | None:
    """What is left of ``time_limit`` seconds from ``started`` (None: no limit)."""
    return None if time_limit is None else max(0.0, time_limit - (time.monotonic() - started))


def _certify_window(answer: SolveAnswer, window: int | None, limit: float | None, news: _News) -> None:
    """Improve ``answer``'s grid by exact moves of up to ``window`` cells (None: not asked), in
    place, when the search ended by its own stop; on Ctrl-C the grid found stands, uncertified."""
    if window is None or answer.check is None or answer.ended_by not in ("time limit", PROPOSAL_BUDGET):
        return
    try:
        answer.certificate, answer.check = certify(answer.question, answer.check, window, time_limit=limit,
                                                   on_improvement=news.improvement, on_progress=news.certifying)
    except KeyboardInterrupt as exc:
        answer.ended_by = interruption(exc)


SEED_SHARE = 0.1
"""Of the time limit, the share a SAT solver may spend on a first grid holding the required words."""


def _feasible_start(question: Question, time_limit: float | None) -> str | None:
    """A grid with the required words and none of the forbidden ones, from the SAT solver, for
    the search to start from (annealing from random grids rarely meets a long required word,
    such as PENNSYLVANIA); None if none comes in a tenth of the time (at most 10 s). Ctrl-C or
    a stop signal while the solver looks is raised again: the solve ends, not only the look."""
    from ..fitting import fit  # noqa: PLC0415 (the SAT layer only when there is something to require)

    seed = question.but(min_score=None, min_count=None, chains=(), optional=())
    limit = 10.0 if time_limit is None else min(10.0, SEED_SHARE * time_limit)
    answer = fit(seed, backend="cadical", time_limit=limit)
    raise_if_interrupted(answer.stopped_by)
    return answer.grid.letters if answer.grid is not None else None


def _targets_counting_every_word(question: Question) -> Question:
    """``question``, whose targets count every word of the list (as the search's objective
    does; a question with a target and no optional word of its own does): SolveError when its
    optional words are another set."""
    if question.min_count is None and question.min_score is None:
        return question
    if not counts_every_word(question):
        raise SolveError("solve counts every word of the list towards min_score and min_count; "
                         "leave optional empty (or give every word its own weight)")
    return question


def _letters(text: str) -> str:
    letters = "".join(ch for ch in text.upper() if not ch.isspace() and ch != "/")
    if not letters.isascii() or not letters.isalpha():
        raise InputError(f"a start grid is letters A-Z, got {text!r}")
    return letters
