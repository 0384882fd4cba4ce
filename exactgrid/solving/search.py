"""Anytime local search on every core: worker threads run the compiled annealer.

:func:`search` starts one thread per worker (numba releases the GIL, so they run in
parallel), each with its own chains and random stream, and watches them from the calling
thread: every new best grid that meets the question's constraints is re-scored by the
finder and checked against the question (:func:`exactgrid.verify.check_grid`) before it is
reported; the search ends at the time limit, at Ctrl-C or SIGTERM (the best answer so far is
kept), or when a callback says so.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from ..grid import Grid
from ..inputs import InputError, usable_cores
from ..stopping import first_interruption_only, interruption, leave_signals_to_the_main_thread
from ..verify import GridCheck, check_grid
from . import kernel
from .problem import ChainStates, SearchProblem, grid_codes, grid_text

SLICE_SECONDS = 0.1
"""A worker returns to Python about this often (to share its best, and to see a stop)."""

BUDGET_SLICE_STEPS = 2_000
"""Proposals per chain in a slice of a search with ``max_proposals`` (a fixed size: the chains
share one random stream, so slices sized by the clock would hand its draws out differently
on a faster machine)."""

CHAINS_PER_WORKER = 16


@dataclass(frozen=True)
class Schedule:
    """The annealer's settings: temperatures are in points of the objective (weights)."""

    sweep: int = 20_000
    """Proposals per chain from hot to cold, before it restarts from the best grid."""
    hot: float = 0.5
    """Start temperature, as a fraction of the mean word weight."""
    cold: float = 0.03
    """End temperature, as a fraction of the mean word weight."""
    swap_share: float = 0.2
    kick: int = 3
    """Random letters set when a chain restarts from the best grid."""
    penalty: float = 1.5
    """The cost of one violation (a required word missing, a forbidden word present, a word short
    of ``min_count`` or of a chain), as a multiple of the largest word weight: more than any
    one word can bring, so that the search settles where the constraints hold."""
    graded: bool = False
    """Grade a missing required word: it counts as many violations as the letters it needs
    altered beyond the budget (at most ``graded_cap``), rather than one, so that the search
    feels it coming closer before it is spelled. A grid found still meets every constraint."""
    graded_cap: int = 3
    """Under ``graded``: the most violations one missing required word counts."""

    def __post_init__(self) -> None:
        """Refuse a cap below 1 (one missing word counts at least one violation)."""
        if self.graded_cap < 1:
            raise InputError(f"graded_cap is at least 1; got {self.graded_cap}")

    @property
    def cap(self) -> int:
        """The kernel's ``graded_cap``: 0 for the default search (a missing word is one violation)."""
        return self.graded_cap if self.graded else 0


@dataclass(frozen=True)
class Improvement:
    """A better grid meeting the question, checked by the finder, and when it was found."""

    grid: str
    score: int
    words: tuple[str, ...]
    elapsed: float
    cpu_seconds: float
    worker: int
    proposals: int


@dataclass
class SearchStats:
    """How far a search has got (for progress displays)."""

    elapsed: float = 0.0
    cpu_seconds: float = 0.0
    proposals: int = 0
    best_score: int | None = None
    best_found: tuple[str, ...] = ()
    improvements: int = 0
    time_limit: float | None = None

    @property
    def rate(self) -> float:
        """Proposals scored per second of wall time."""
        return self.proposals / self.elapsed if self.elapsed > 0 else 0.0


@dataclass
class SearchResult:
    """The best grid found that meets the question (``best`` None when none was), with the
    finder's check of it, every improvement, and what ended the search."""

    best: GridCheck | None
    improvements: list[Improvement] = field(default_factory=list)
    stats: SearchStats = field(default_factory=SearchStats)
    stopped_by: str = "time limit"
    closest: str | None = None
    """When no grid met the question: the grid that came closest (by penalised value)."""
    detail: str = ""
    """Why the search has nothing to show, when it ended before it began (:data:`COMPILING_DETAIL`)."""


COMPILING_DETAIL = ("stopped before the search began: the search kernel was still being compiled for this machine "
                    "(once after an install; a run that ends first leaves it uncompiled: run once with a time limit "
                    "of 30 s or more, or call exactgrid.solving.warm_up(), and later runs load it from numba's cache)")
PROPOSAL_BUDGET = "proposal budget"
"""``stopped_by`` when every worker has spent its share of ``max_proposals``."""

NOT_BEGUN_DETAIL = "stopped before the search began: the time limit came first"
COMPILE_NOTICE_SECONDS = 1.0
"""Getting the kernel ready longer than this means numba is compiling it (a cache load takes a
fraction of it, unless other work loads the machine): ``on_compile`` is then called once."""


def _start_workers(problem: SearchProblem, schedule: Schedule, seed: int, start_codes: np.ndarray | None,
                   workers: int, max_proposals: int | None = None) -> list[_Worker]:
    """The workers, their starting grids scored, and the annealer compiled (or loaded from
    numba's cache) by a first call of no steps. ``max_proposals``: shared out between them."""
    pool = [_Worker(problem, schedule, seed * 1009 + i, i, start_codes, CHAINS_PER_WORKER,
                    None if max_proposals is None else _share(max_proposals, workers, i))
            for i in range(workers)]
    pool[0].slice(steps=0)
    return pool


def _share(total: int, parts: int, index: int) -> int:
    """Part ``index`` of ``total`` split as evenly as whole numbers allow."""
    return total // parts + (index < total % parts)


def warm_up() -> float:
    """Compile the search kernel now (or load it from numba's cache), with no time limit; the
    seconds it took. The first search after an install otherwise spends its time limit on this
    (timed in docs/benchmarks.md, Solve); a program or test suite that runs short searches calls it once first.
    """
    from ..geometry import Board
    from ..question import Question

    kernel.require_numba()
    began = time.perf_counter()
    _start_workers(SearchProblem.build(Question(Board(2, 2))), Schedule(), 0, None, 1)
    return time.perf_counter() - began


def _prepared(prepare: Callable[[], list[_Worker]], began: float, time_limit: float | None,
              on_compile: Callable[[], None]) -> list[_Worker] | None:
    """``prepare()`` on a helper thread (the first call compiles the kernel), waited for until
    the time limit (counted from ``began``): its workers, or None when the time limit came first.

    Why a thread: numba compiles in the thread that calls, and a compile cannot be cut short, so
    the caller waits for it here, keeping its time limit and Ctrl-C. A compile that outlives the
    call goes on in a daemon thread: it serves a later call in the same process (and fills
    numba's cache) if the process lives long enough, and ends with the process otherwise.
    """
    done: list[list[_Worker]] = []
    failed: list[BaseException] = []

    def run() -> None:
        leave_signals_to_the_main_thread()
        try:
            done.append(prepare())
        except BaseException as err:  # noqa: BLE001 - raised again in the caller's thread
            failed.append(err)

    thread = threading.Thread(target=run, name="exactgrid-solve-compile", daemon=True)
    thread.start()
    noticed = False
    while thread.is_alive():
        waited = time.perf_counter() - began
        if time_limit is not None and waited >= time_limit:
            return None
        if not noticed and waited >= COMPILE_NOTICE_SECONDS:
            noticed = True
            on_compile()
        thread.join(0.02)
    if failed:
        raise failed[0]
    return done[0]


class _Worker:
    """One thread's chains; its bests are read by the main thread between slices."""

    def __init__(self, problem: SearchProblem, schedule: Schedule, seed: int, index: int,
                 start: np.ndarray | None, chains: int, budget: int | None = None) -> None:
        self.problem = problem
        self.budget = budget
        """Proposals this worker may score (None: no limit); with a budget its slices have a
        fixed size, so that what it finds depends on the seed, never on the machine's speed."""
        self.index = index
        self.seed = seed
        rng = np.random.default_rng(seed)
        grids = problem.random_grids(chains, rng)
        if start is not None:
            grids[:] = start
        self.states = ChainStates.start(problem, grids, schedule.cap)
        # when no word weighs anything (or there are none), any temperature and penalty will do
        mean = float(problem.weights.mean()) if problem.weights.sum() > 0 else 1.0
        self.hot, self.cold = schedule.hot * mean, schedule.cold * mean
        self.penalty = int(schedule.penalty * max(int(problem.weights.max(initial=0)), 1))
        self.schedule = schedule
        self.best_grid = grids[0].copy()
        self.best_value = np.array([np.iinfo(np.int64).min], dtype=np.int64)
        self.feasible_grid = grids[0].copy()
        self.feasible_value = np.array([-1], dtype=np.int64)
        self.proposals = 0
        self.cpu = 0.0
        self.steps = 200
        self.error: BaseException | None = None
        self.finished = False
        """Whether :meth:`run` has returned (its budget spent, a stop, or an error)."""
        self.lock = threading.Lock()
        """Guards ``shared`` and ``published``, never a slice: the watching thread must not wait
        for the kernel (a lock held across slices starved it, and the time limit came late)."""
        self.shared: tuple[np.ndarray, int] | None = None  # another worker's better grid, to restart from
        for k in range(chains):  # the starting grids count
            self._note(k)
        self.published = self._bests()
        """The bests as of the last slice, for :meth:`snapshot`."""

    def _note(self, k: int) -> None:
        ctr = self.states.counters[k]
        p = self.problem
        value, ok = kernel.objective(ctr, len(p.chain_sources), p.min_count, p.min_score, self.penalty)
        if value > self.best_value[0]:
            self.best_value[0] = value
            self.best_grid[:] = self.states.grids[k]
        if ok and ctr[kernel.SCORE] > self.feasible_value[0]:
            self.feasible_value[0] = ctr[kernel.SCORE]
            self.feasible_grid[:] = self.states.grids[k]

    def run(self, stop: threading.Event) -> None:
        leave_signals_to_the_main_thread()
        try:
            kernel.seed_threads(self.seed)
            while not stop.is_set() and self._step():
                pass
        except BaseException as err:  # reported by the main thread
            self.error = err
            stop.set()
        finally:
            self.finished = True

    def _step(self) -> bool:
        """One slice; False when the budget is spent (or nothing is left to propose)."""
        if self.budget is None:
            self.slice()
            return True
        left = self.budget - self.proposals
        if left <= 0:
            return False
        before = self.proposals
        self.slice(min(BUDGET_SLICE_STEPS, -(-left // self.states.grids.shape[0])))
        return self.proposals > before  # none scored: no free cell to propose for

    def slice(self, steps: int | None = None) -> None:
        """Anneal every chain for a slice of about :data:`SLICE_SECONDS` (or ``steps`` proposals each)."""
        p, st, sc = self.problem, self.states, self.schedule
        with self.lock:
            if self.shared is not None:
                self.best_grid[:], self.best_value[0] = self.shared
                self.shared = None
        wall, cpu = time.perf_counter(), time.thread_time()
        scored = kernel.anneal_graded(
            st.grids, st.lmasks, st.founds, st.supports, st.counters, st.stamps, self.best_grid,
            self.best_value, self.feasible_grid, self.feasible_value,
            # numbers as the types warm_up() compiled for: another type would compile anew
            int(self.steps if steps is None else steps), int(sc.sweep), float(self.hot),
            float(self.cold), float(sc.swap_share), int(sc.kick), p.letter_cdf, p.fixed, p.starts,
            p.lengths, p.letters, p.weights, p.flags, p.word_index, p.word_ptr, p.table, p.chunks, p.full,
            int(p.budget), p.chain_sources, p.chain_targets, p.chain_adjacency, int(p.min_count),
            int(p.min_score), int(self.penalty), st.grades, int(st.graded_cap))
        bests = self._bests()
        with self.lock:
            self.published = bests
        spent = time.perf_counter() - wall
        self.cpu += time.thread_time() - cpu
        self.proposals += int(scored)
        if spent > 0 and steps is None:  # aim at one slice per SLICE_SECONDS
            self.steps = int(min(max(self.steps * SLICE_SECONDS / spent, 10), 1_000_000))

    def _bests(self) -> tuple[int, str | None, int, str]:
        """(feasible score or -1, its grid, penalised best value, its grid), read in this
        worker's thread between slices."""
        feasible = int(self.feasible_value[0])
        return (feasible, grid_text(self.feasible_grid) if feasible >= 0 else None,
                int(self.best_value[0]), grid_text(self.best_grid))

    def snapshot(self) -> tuple[int, str | None, int, str]:
        """The bests as of this worker's last slice (:meth:`_bests`), consistently, without
        waiting for the slice under way."""
        with self.lock:
            return self.published


def search(problem: SearchProblem, time_limit: float | None = 60.0, workers: int | None = None,
           seed: int = 0, start: str | None = None, schedule: Schedule | None = None,
           on_improvement: Callable[[Improvement], None] | None = None,
           on_progress: Callable[[SearchStats], None] | None = None, progress_every: float = 0.5,
           should_stop: Callable[[], bool] | None = None, max_proposals: int | None = None,
           on_compile: Callable[[], None] | None = None) -> SearchResult:
    """Anneal on ``workers`` threads until ``time_limit`` seconds (None: until stopped),
    Ctrl-C/SIGTERM, ``should_stop()`` or ``max_proposals``; the best grid meeting the question.

    The time limit counts everything from this call on, the compile of the search kernel
    included: the first search after an install compiles it (timed in docs/benchmarks.md;
    later ones load it from numba's cache), and ``on_compile()`` is called when getting it
    ready takes longer than :data:`COMPILE_NOTICE_SECONDS`. A time limit that comes before the
    kernel is ready ends the search with nothing found (``detail`` says why).

    Every improvement is checked by the finder before ``on_improvement`` hears of it.
    ``start`` (grid letters) seeds every chain of every worker (a cell the question fixes,
    or holds to a domain its start letter is outside, starts with the first letter allowed).
    """
    kernel.require_numba()
    start_codes = None
    if start is not None:
        start_codes = problem.within_cells(grid_codes(start))
    run = _Search(problem, time_limit, on_improvement, on_compile)
    return run.run(schedule or Schedule(), seed, start_codes, workers or usable_cores(),
                   _Stops(time_limit, max_proposals, should_stop, on_progress, progress_every))


@dataclass
class _Stops:
    """When the watching loop ends, and when it reports progress."""

    time_limit: float | None
    max_proposals: int | None
    should_stop: Callable[[], bool] | None
    on_progress: Callable[[SearchStats], None] | None
    progress_every: float
    last_progress: float = 0.0

    def reason(self, stats: SearchStats) -> str | None:
        """Why the search should stop now (progress reported on the way), or None."""
        if self.on_progress is not None and stats.elapsed - self.last_progress >= self.progress_every:
            self.last_progress = stats.elapsed
            self.on_progress(stats)
        if self.time_limit is not None and stats.elapsed >= self.time_limit:
            return "time limit"
        if self.max_proposals is not None and stats.proposals >= self.max_proposals:
            return PROPOSAL_BUDGET
        if self.should_stop is not None and self.should_stop():
            return "asked to stop"
        return None


class _Search:
    """One call of :func:`search`: the workers, and the main thread reading their bests."""

    def __init__(self, problem: SearchProblem, time_limit: float | None,
                 on_improvement: Callable[[Improvement], None] | None,
                 on_compile: Callable[[], None] | None) -> None:
        self.problem = problem
        self.time_limit = time_limit
        self.on_improvement = on_improvement
        self.on_compile = on_compile
        self.result = SearchResult(best=None, stats=SearchStats(time_limit=time_limit))
        self.began = time.perf_counter()
        self.best_checked = -1
        self.best_value = np.iinfo(np.int64).min
        self.weight_of = dict(zip(problem.words, problem.weights.tolist(), strict=True))
        self.pool: list[_Worker] = []
        self.compiling = False

    def compiled(self) -> None:
        """Getting the kernel ready takes long: numba is compiling it."""
        self.compiling = True
        if self.on_compile is not None:
            self.on_compile()

    def run(self, schedule: Schedule, seed: int, start_codes: np.ndarray | None, workers: int,
            stops: _Stops) -> SearchResult:
        """Start the workers (compiling the kernel if need be), watch them until a stop, and
        return what they found."""
        result = self.result
        threads: list[threading.Thread] = []
        stop = threading.Event()
        with first_interruption_only() as signals:  # a second one must not lose the best grid
            try:
                ready = _prepared(lambda: _start_workers(self.problem, schedule, seed, start_codes, workers,
                                                         stops.max_proposals),
                                  self.began, self.time_limit, self.compiled)
                if ready is None:  # the time limit came first
                    return self._unbegun("time limit", COMPILING_DETAIL if self.compiling else NOT_BEGUN_DETAIL)
                self.pool += ready
                with signals.deferred():  # the threads listed are the threads started: the finally joins them
                    threads += [threading.Thread(target=w.run, args=(stop,), name=f"exactgrid-solve-{i}",
                                                 daemon=True) for i, w in enumerate(self.pool)]
                    for t in threads:
                        t.start()
                self._watch(stops)
            except KeyboardInterrupt as exc:
                result.stopped_by = interruption(exc)
                if not self.pool:
                    return self._unbegun(result.stopped_by, COMPILING_DETAIL if self.compiling
                                         else "stopped before the search began")
            finally:
                signals.winding_down = True
                stop.set()
                for t in threads:
                    t.join()
            errors = [w.error for w in self.pool if w.error is not None]
            if errors:
                raise errors[0]
            self.collect()
        result.stopped_by = signals.stopped_by(result.stopped_by)
        return result

    def _unbegun(self, stopped_by: str, detail: str) -> SearchResult:
        self.result.stopped_by = stopped_by
        self.result.detail = detail
        self.result.stats.elapsed = time.perf_counter() - self.began
        return self.result

    def _watch(self, stops: _Stops) -> None:
        """Read the workers' bests until a worker fails or a stop comes."""
        while True:
            time.sleep(0.05)
            self.collect()
            if any(w.error for w in self.pool):
                return
            if all(w.finished for w in self.pool):  # every worker spent its share of max_proposals
                self.result.stopped_by = PROPOSAL_BUDGET
                return
            reason = stops.reason(self.result.stats)
            if reason is not None:
                self.result.stopped_by = reason
                return

    def collect(self) -> None:
        """Read every worker's bests: a better feasible grid is checked by the finder and
        reported; a better penalised grid becomes every other worker's restart."""
        stats = self.result.stats
        stats.elapsed = time.perf_counter() - self.began
        stats.proposals = sum(w.proposals for w in self.pool)
        stats.cpu_seconds = sum(w.cpu for w in self.pool)
        leader = None
        for w in self.pool:
            feasible, grid, value, closest = w.snapshot()
            if value > self.best_value:
                self.best_value, leader = value, (w, closest)
                self.result.closest = closest
            if grid is not None and feasible > self.best_checked:
                self._improved(grid, feasible, w.index)
        if leader is not None and len(self.pool) > 1:  # the others restart from the new leader
            codes = grid_codes(leader[1])
            for w in self.pool:
                if w is not leader[0]:
                    with w.lock:
                        w.shared = (codes, self.best_value)

    def _improved(self, grid: str, feasible: int, worker: int) -> None:
        """A better feasible grid from a worker: the finder's check of it, then the news."""
        problem, result = self.problem, self.result
        check = check_grid(problem.question, Grid(problem.question.board, grid))
        worth = sum(self.weight_of[w] for w in check.score.words)
        if not check.ok or worth != feasible:
            raise AssertionError(f"the search kernel reported {grid} at {feasible:,}, but the "
                                 f"finder says {worth:,} {check.problems}")
        self.best_checked = feasible
        keep_improvement(result, check, feasible, worker, self.on_improvement)


def keep_improvement(result: SearchResult, check: GridCheck, score: int, worker: int,
                     on_improvement: Callable[[Improvement], None] | None) -> None:
    """Make ``check`` (a grid meeting the question, checked by the finder, worth ``score``) the
    result's best: its :class:`Improvement`, timed by the result's stats, the stats, the news."""
    stats = result.stats
    result.best = check
    found = tuple(sorted(check.score.words))
    improvement = Improvement(check.grid.letters, score, found, stats.elapsed, stats.cpu_seconds, worker,
                              stats.proposals)
    result.improvements.append(improvement)
    stats.best_score, stats.best_found, stats.improvements = score, found, len(result.improvements)
    if on_improvement is not None:
        on_improvement(improvement)
