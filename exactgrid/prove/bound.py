"""An upper bound on the best score of a question: the counting relaxation, cut by pair/count
cores, optimised by one HiGHS model kept open between rounds (issue 12).

Each round optimises the relaxation with the cuts so far. Its optimum bounds every real grid's
score (so does HiGHS's dual bound when a round is cut short). The optimum's letter counts and
needed pairs then go to the placement check: if no placement exists, the core found (or a known
core under a renaming of its letters) is cut and the next round can only score less; if one
exists, counting has nothing more to say and the optimum is the bound. The bound is anytime:
at the time limit, or on Ctrl-C/SIGTERM, the best bound proven so far is the answer.

:func:`bound` is the one call behind ``exactgrid bound``: it also scores every word when the
question names none, adds the awards asked for, runs the relaxation alone (``method=
"relaxation"``, on any backend), and finds the worker searches (a process pool, an executor,
a Dask scheduler), always answering with a :class:`~exactgrid.prove.answers.BoundAnswer`.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Executor
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path

from ..answer import DEFAULT_TIME_LIMIT, OnProgress, ProgressEvent
from ..awards import Checklist
from ..backends import Status, get_backend
from ..backends.ilp import HighsModel
from ..encoding import EncodingTimeout
from ..finder import find
from ..grid import Grid
from ..inputs import InputError, check_callbacks, check_flag, check_seconds, check_whole, clamp_workers_warning
from ..pool import check_executor, dask_client, dask_threads, process_pool, stop_pool
from ..question import Question, checklist_question, choose_checklist
from ..stopping import interruption
from ..verify import check_grid
from ..wording import plural
from .answers import BoundAnswer
from .certify import confirm_bound
from .cores import Cutter, core_cut
from .counting import OTHER, count_question, counting_model
from .cuts import Cut, Cuts, Placeable, Spelled, TimedOut, Unchecked
from .exact import CountCheck, WordCore
from .placement import Core, PlacementTooLarge

__all__ = ["METHODS", "BoundAnswer", "bound"]

METHODS = ("cores", "relaxation")
"""How :func:`bound` bounds: the relaxation cut by cores on HiGHS, or the relaxation alone."""


@dataclass
class _Progress:
    """The best bound so far and what the callers hear of it: ``on_bound(bound, seconds)``,
    ``on_round(round, core or None)`` and ``on_progress(event)`` (job ``bound``)."""

    started: float
    total: int
    bound: int | None = None
    trajectory: list[tuple[float, int]] = field(default_factory=list)
    on_bound: Callable[[int, float], None] | None = None
    on_round: Callable[[int, Core | None], None] | None = None
    on_progress: OnProgress | None = None
    round: int = 0
    cuts: int = 0

    def lower(self, value: int) -> None:
        """A bound proven: kept when it is lower than the best so far (and then told)."""
        if self.bound is None or value < self.bound:
            self.bound = value
            elapsed = time.monotonic() - self.started
            self.trajectory.append((elapsed, value))
            if self.on_bound is not None:
                self.on_bound(value, elapsed)
            self._tell("improvement", None)

    def cut(self, core: Core | WordCore | None) -> None:
        """A core cut this round (None: the round ended with nothing to cut)."""
        self.cuts += core is not None
        if self.on_round is not None:
            self.on_round(self.round, core)  # type: ignore[arg-type]
        self._tell("round", core)

    def _tell(self, kind: str, core: Core | WordCore | None) -> None:
        if self.on_progress is None:
            return
        best = "no bound yet" if self.bound is None else f"bound {self.bound:,}"
        message = f"{best}, round {self.round}, {plural(self.cuts, 'cut')}"
        self.on_progress(ProgressEvent("bound", message, time.monotonic() - self.started, bound=self.bound,
                                       done=self.round, kind=kind, data=core))


@dataclass(frozen=True)
class _Settings:
    """What :func:`bound` was asked for, beyond the question (see its docstring)."""

    certify: bool = False
    certify_seconds: float | None = DEFAULT_TIME_LIMIT
    triples: bool = False
    cores_per_round: int = 1
    workers: int = 1
    exact: bool = False
    exact_seconds: float | None = DEFAULT_TIME_LIMIT
    capacity: bool = True


def _failures(cutter: Cutter | None) -> str:
    """What the answer says of worker searches that failed (their cores are missing, the bound
    stands)."""
    failed = cutter.spread.failed if cutter is not None and cutter.spread is not None else []
    return f" ({len(failed)} worker searches failed, first: {failed[0]})" if failed else ""


class _BoundRun:
    """One run of the bound's loop (see the module's docstring): HiGHS optimises the relaxation
    with the cuts so far, and each optimum is cut (:meth:`_cut`) until nothing cuts it, the time
    limit, or Ctrl-C/SIGTERM."""

    def __init__(self, question: Question, settings: _Settings, progress: _Progress, deadline: float | None,
                 executor: Executor | None) -> None:
        self.question = question
        self.settings = settings
        self.progress = progress
        self.deadline = deadline
        self.executor = executor
        self.cutter: Cutter | None = None
        self.checker: CountCheck | None = None
        self.notes = ""  # what the answer's detail adds: the checks left out, and why
        self.word_cores: list[WordCore] = []
        self.cut_cores: list[Core | WordCore] = []  # every cut's core, renamed copies included
        kinds = "pair/triple/count" if settings.triples else "pair/count"
        parts = "letter counts, adjacent pairs" + (", neighbour capacity" if settings.capacity else "")
        self.relaxation = f"the counting relaxation ({parts}) with {kinds} cores, by HiGHS"

    def run(self) -> BoundAnswer:
        """The bound: the loop's answer, or the best bound so far when the time limit or an
        interruption ends it."""
        try:
            try:
                self._open()
            except KeyboardInterrupt as exc:
                stopped = interruption(exc)
                return BoundAnswer("open", None, self.progress.total, seconds=self._seconds(),
                                   detail=f"interrupted ({stopped}) before the first bound", stopped_by=stopped)
            except EncodingTimeout as exc:
                return BoundAnswer("open", None, self.progress.total, seconds=self._seconds(),
                                   detail=f"no bound: the relaxation was still being built ({exc})")
            try:
                while True:
                    answer = self._round()
                    if answer is not None:
                        return answer
            except KeyboardInterrupt as exc:
                stopped = interruption(exc)
                return self._answer("open", f"{self.relaxation}: interrupted ({stopped})", interrupted=stopped)
        finally:
            self._close()

    def _open(self) -> None:
        """The relaxation on HiGHS, the placement session (when the board allows one) and the
        exact model (with ``exact``)."""
        self.counting = counting_model(self.question, objective=True, capacity=self.settings.capacity,
                                       deadline=self.deadline)
        self.mip = HighsModel(self.counting.model, deadline=self.deadline)
        settings = self.settings
        try:
            self.cutter = Cutter(self.question, self.counting, triples=settings.triples,
                                 per_round=settings.cores_per_round, executor=self.executor,
                                 jobs=settings.workers - 1)
        except PlacementTooLarge as exc:
            self.notes += f" (no cores: {exc})"
        if settings.exact:
            self.checker = self._checker()
        if settings.workers > 1:
            self.relaxation += f", {settings.workers} core searches a round"
        if self.checker is not None:
            self.relaxation += ", word count cores from the exact model"

    def _checker(self) -> CountCheck | None:
        """The question's exact model with letter counters, when it can be built in time and
        holds the whole question."""
        letters = set(self.counting.cells) | {OTHER}
        try:
            checker = CountCheck(self.question, letters, "cadical", self.deadline, words=True)
        except EncodingTimeout:  # the time limit came while the exact model was built: bound without it
            self.notes += " (no exact check: the time limit came while encoding it)"
            return None
        if not checker.usable:
            checker.close()
            self.notes += " (no exact check: forbidden words enforced lazily)"
            return None
        return checker

    def _close(self) -> None:
        if self.cutter is not None:
            self.cutter.close()
        if self.checker is not None:
            self.checker.close()

    def _left(self) -> float | None:
        return None if self.deadline is None else max(0.0, self.deadline - time.monotonic())

    def _seconds(self) -> float:
        return time.monotonic() - self.progress.started

    def _round(self) -> BoundAnswer | None:
        """One round: optimise, then cut the optimum; the answer when that ends the loop, else
        None (the cuts are added to the model)."""
        progress = self.progress
        progress.round += 1
        result = self.mip.solve(self._left(), on_bound=progress.lower)
        if result.status == Status.UNSAT:
            return self._answer("refuted", self.relaxation + ": no solution")
        if result.bound is not None:
            progress.lower(result.bound)
        if result.status != Status.OPTIMAL:
            return self._answer("open", self.relaxation + ": the time limit came first")
        progress.lower(result.objective)
        cut = self._cut(result.true_vars or frozenset())
        if isinstance(cut, Spelled):
            return self._optimal(cut.grid)
        if isinstance(cut, Unchecked):
            return self._answer("bounded", "the counting relaxation's optimum, by HiGHS")
        if isinstance(cut, Placeable):
            progress.cut(None)
            return self._answer("bounded", self.relaxation + ": its optimum's letters can be placed")
        if isinstance(cut, TimedOut):
            return self._answer("open", self.relaxation + ": the time limit came first")
        for clause, core in cut.clauses:
            self.mip.add_clause(clause)
            self.cut_cores.append(core)
            progress.cut(core)
        return None

    def _cut(self, true_vars: frozenset[int]) -> Cut:
        """What cuts an optimum: the exact model first (within ``exact_seconds``; the workers
        look for pair cores meanwhile), then the placement check, then (placeable, with
        ``exact``) the exact model without a cap: only it can say more."""
        exact = self._exact(true_vars, self.settings.exact_seconds)
        if isinstance(exact, Spelled):
            return exact
        if self.cutter is None:
            if exact is not None:
                return exact
            return TimedOut() if self.checker is not None else Unchecked()
        if exact is not None:
            return exact + self.cutter.spread_only(true_vars, self._left())
        cut = self.cutter.cut(true_vars, self._left())
        if not isinstance(cut, Placeable) or self.checker is None:
            return cut
        exact = self._exact(true_vars, None)
        return TimedOut() if exact is None else exact

    def _exact(self, true_vars: frozenset[int], cap: float | None) -> Spelled | Cuts | None:
        """The exact model's answer for an optimum: a grid, a word count core's cut, or None (no
        exact model, or no answer within ``cap`` seconds and the time limit)."""
        if self.checker is None:
            return None
        limit = self._left()
        if cap is not None:
            limit = cap if limit is None else min(cap, limit)
        counts = self.counting.cell_counts(true_vars)
        counts[OTHER] = self.question.board.size - sum(counts.values())
        words = [w for w, y in self.counting.found.items() if y in true_vars]
        found = self.checker.check(counts, limit, words)
        if found is None:
            return None
        if isinstance(found, Grid):
            return Spelled(found)
        self.word_cores.append(found)
        clause = core_cut(self.counting, found)
        assert clause is not None  # a word count core names the relaxation's own words and letters
        return Cuts(((clause, found),))

    def _optimal(self, grid: Grid) -> BoundAnswer:
        scored = _verified_score(self.question, grid)
        if self.progress.bound is None or scored < self.progress.bound:  # pragma: no cover - an encoder bug
            raise AssertionError(f"the exact model's grid {grid.letters} scores {scored:,}, not the bound")
        return self._answer("optimal", self.relaxation + ", and the exact model spelled the optimum's words",
                            grid=grid)

    def _answer(self, status: str, detail: str, interrupted: str | None = None,
                grid: Grid | None = None) -> BoundAnswer:
        """The answer as things stand, certified when asked (an interruption while certifying
        leaves it uncertified, with ``stopped_by``)."""
        cutter, progress = self.cutter, self.progress
        result = BoundAnswer(status, None if status == "refuted" else progress.bound, progress.total,
                             tuple(cutter.cores) if cutter else (), progress.round, cutter.renamed if cutter else 0,
                             self._seconds(), tuple(progress.trajectory), detail + self.notes + _failures(cutter),
                             word_cores=tuple(self.word_cores), grid=grid, stopped_by=interrupted,
                             cuts=tuple(self.cut_cores))
        if not self.settings.certify or interrupted or cutter is None:
            return result
        try:
            confirmed = confirm_bound(result, self.question, self.settings.certify_seconds, self.checker,
                                      capacity=self.settings.capacity)
        except KeyboardInterrupt as exc:
            stopped = interruption(exc)
            confirmed = replace(result, confirmation=f"not certified: interrupted ({stopped})", stopped_by=stopped)
        return replace(confirmed, seconds=self._seconds())  # the certificate's time counts too


def bound(question: Question, time_limit: float | None = DEFAULT_TIME_LIMIT,
          on_bound: Callable[[int, float], None] | None = None,
          on_round: Callable[[int, Core | None], None] | None = None,
          certify: bool = False, certify_seconds: float | None = DEFAULT_TIME_LIMIT, triples: bool = False,
          cores_per_round: int = 1, workers: int | None = None, executor: Executor | None = None,
          exact: bool = False, exact_seconds: float | None = DEFAULT_TIME_LIMIT, *, method: str = "cores",
          backend: str | None = None, scheduler: str | None = None,
          checklist: Checklist | str | Path | None = None, awards: Iterable[str] = (),
          water_borders: bool | None = None, score_every_word: bool = True,
          on_progress: OnProgress | None = None, capacity: bool = True) -> BoundAnswer:
    """An upper bound on the best score of any grid answering ``question``, as a
    :class:`BoundAnswer` in every case (see the module's docstring).

    What is scored: the question's optional words and its required ones; with
    ``score_every_word``, a question naming no optional words scores every word of its list (as
    ``exactgrid bound`` does; False: only its required words). ``checklist``
    (a Checklist, a TOML file; None: the Altered States 2 awards when ``awards`` are named) and
    ``awards`` (item keys, e.g. ``["M8", "PA"]``) add the awards' items to the question as hard
    constraints (:func:`~exactgrid.question.checklist_question`, with ``water_borders``).

    ``method``: ``cores`` (the relaxation cut by pair/count cores on one HiGHS model, anytime)
    or ``relaxation`` (the relaxation alone, through ``backend``: default ``highs``, an ILP or a
    SAT backend). ``time_limit``: seconds of wall-clock time from the call, everything included
    (None: no limit). ``on_bound(bound, seconds)`` hears each improvement, ``on_round(round,
    core cut or None)`` each cut; ``on_progress(event)`` hears both as
    :class:`~exactgrid.answer.ProgressEvent` (job ``bound``; kind ``improvement`` with
    ``bound``, kind ``round`` with ``done`` the round and ``data`` the core). Ctrl-C/SIGTERM
    ends the work with the best bound so far and ``stopped_by`` set.

    With ``method="cores"`` only: ``certify``: the final model (relaxation and cuts) with "score
    above the bound" and each core's placement are refuted again by CaDiCaL with DRUP proofs
    that exactgrid checks, within ``certify_seconds`` after the bound
    (:func:`exactgrid.prove.certify.confirm_bound`). ``triples``: cores may also name letter
    triples (see :func:`exactgrid.prove.cores.refute_by_cores`). ``cores_per_round``: after a
    new core, look for more in the same solution among the pairs no earlier core of the round
    holds. ``workers`` (default 1): core searches a solution gets at once, this process's and
    ``workers - 1`` on ``executor`` (a Dask client's, say), on the Dask cluster whose scheduler
    is at ``scheduler`` (then ``workers`` defaults to 1 + the cluster's threads), or else on a
    process pool made for the run and stopped when it ends (then at most the usable cores: more
    are lowered to them with a :class:`~exactgrid.inputs.WorkersClamped` warning); each shrinks
    in its own order (:mod:`exactgrid.prove.spread`). ``exact``: each optimum's words and letter
    counts first go to the question's exact model (:class:`~exactgrid.prove.exact.CountCheck`,
    within ``exact_seconds``): a grid there scores the bound (``optimal``); a word count core is
    cut; when it times out, the placement check takes over. ``capacity`` (default on): the
    relaxation also bounds each letter's distinct neighbouring letters by the board's geometry
    (:mod:`exactgrid.prove.capacity`).

    Raises InputError for options that do not go together (``certify`` with the relaxation, a
    ``backend`` other than HiGHS for ``cores``, ...) or an unreachable ``scheduler``.
    """
    started = time.monotonic()
    if not isinstance(question, Question):
        raise InputError(f"bound() takes a Question, got {type(question).__name__}")
    check_callbacks(on_bound=on_bound, on_progress=on_progress)
    limit = None if time_limit is None else check_seconds(time_limit)
    certify_seconds = None if certify_seconds is None else check_seconds(certify_seconds, "certify_seconds")
    exact_seconds = None if exact_seconds is None else check_seconds(exact_seconds, "exact_seconds")
    cores_per_round = check_whole(cores_per_round, "cores_per_round", 1)
    check_executor(executor)
    for flag, what in ((certify, "certify"), (triples, "triples"), (exact, "exact"), (capacity, "capacity"),
                       (score_every_word, "score_every_word")):
        check_flag(flag, what)
    _check_method(method, backend, certify=certify, triples=triples, exact=exact,
                  workers=workers not in (None, 1), executor=executor is not None, scheduler=scheduler is not None)
    if score_every_word and not question.optional:
        question = question.but(optional="all")
    question = _with_awards(question, checklist, awards, water_borders)
    if method == "relaxation":
        return _relaxation_bound(question, "highs" if backend is None else backend, limit, started, on_progress)
    progress = _Progress(started, sum(question.scoring_weights().values()), on_bound=on_bound, on_round=on_round,
                         on_progress=on_progress)
    settings = _Settings(certify, certify_seconds, triples, cores_per_round, 1, exact, exact_seconds, capacity)
    return _cores_bound(question, settings, progress, limit, (workers, executor, scheduler))


def _cores_bound(question: Question, settings: _Settings, progress: _Progress, time_limit: float | None,
                 where: tuple[int | None, Executor | None, str | None]) -> BoundAnswer:
    """The bound by cores (``method="cores"``), its worker searches where ``where`` (workers,
    executor, scheduler) says."""
    workers, executor, scheduler = where
    try:
        get_backend("highs")  # BackendError naming the extra to install, when highspy is missing
        with _workers(scheduler, executor, workers, time_limit) as (pool, count):
            deadline = None if time_limit is None else progress.started + time_limit
            return _BoundRun(question, replace(settings, workers=count), progress, deadline, pool).run()
    except KeyboardInterrupt as exc:  # while the workers were being found
        stopped = interruption(exc)
        return BoundAnswer("open", progress.bound, progress.total, seconds=time.monotonic() - progress.started,
                           detail=f"interrupted ({stopped}) before the first bound", stopped_by=stopped)


def _check_method(method: str, backend: str | None, **given: bool) -> None:
    """InputError when ``method`` is unknown or an option given needs the other method."""
    if method not in METHODS:
        raise InputError(f"unknown bound method {method!r}; choose from {', '.join(METHODS)}")
    if method == "cores" and backend not in (None, "highs"):
        raise InputError("method 'cores' runs on HiGHS; backend chooses the solver of method 'relaxation'")
    for name, on in given.items():
        if on and method != "cores":
            raise InputError(f"{name} needs method 'cores'")


def _with_awards(question: Question, checklist: Checklist | str | Path | None, awards: Iterable[str],
                 water_borders: bool | None) -> Question:
    """The question with the awards asked for as hard constraints."""
    chosen = choose_checklist(checklist, awards)
    return question if chosen is None else checklist_question(question, chosen, water_borders)


@contextmanager
def _workers(scheduler: str | None, executor: Executor | None, workers: int | None,
             time_limit: float | None = None) -> Iterator[tuple[Executor | None, int]]:
    """Where the worker searches run and how many searches a round gets: the Dask cluster at
    ``scheduler`` (closed after; waited for ``time_limit`` seconds at most), ``executor``, or a
    process pool made here (stopped after)."""
    if scheduler is not None:
        client = dask_client(scheduler, time_limit)
        try:
            if workers is not None:
                check_whole(workers, "workers", low=1)
            yield client.get_executor(), workers or 1 + dask_threads(client)
        finally:
            client.close()
        return
    count = 1 if workers is None else workers
    if executor is not None:
        check_whole(count, "workers", low=1)
        yield executor, count
        return
    count = clamp_workers_warning(count)  # this machine's cores: more searches than cores only compete
    pool = process_pool(count - 1) if count > 1 else None
    try:
        yield pool, count
    finally:
        if pool is not None:
            stop_pool(pool)


def _relaxation_bound(question: Question, backend: str, time_limit: float | None, started: float,
                      on_progress: OnProgress | None) -> BoundAnswer:
    """The bound of the relaxation alone, solved by ``backend`` (``method="relaxation"``)."""
    total = sum(question.scoring_weights().values())
    if on_progress is not None:
        on_progress(ProgressEvent("bound", f"the counting relaxation on {backend}", kind="progress"))
    try:
        left = None if time_limit is None else max(0.0, time_limit - (time.monotonic() - started))
        counted = count_question(question, backend, left)
    except KeyboardInterrupt as exc:
        stopped = interruption(exc)
        return BoundAnswer("open", None, total, seconds=time.monotonic() - started,
                           detail=f"interrupted ({stopped}) before the relaxation was solved", stopped_by=stopped,
                           method="relaxation", backend=backend)
    bound_ = None if counted.status == "refuted" else counted.bound
    return BoundAnswer(counted.status, bound_, total, seconds=time.monotonic() - started, detail=counted.how,
                       method="relaxation", backend=counted.backend)


def _verified_score(question: Question, grid: Grid) -> int:
    """The grid's score on the question, by the finder (and the grid must answer it)."""
    check = check_grid(question, grid)
    if check.problems:  # pragma: no cover - an encoder bug, never an answer
        raise AssertionError(f"the exact model's grid {grid.letters} fails the question: {'; '.join(check.problems)}")
    weights = question.scoring_weights()
    return sum(weights[w] for w in weights if find(grid, w, question.budget, question.path_rule) is not None)
