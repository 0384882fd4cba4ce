"""An upper bound on the best score of a question: the counting relaxation, cut by pair/count
cores, optimised by one HiGHS model kept open between rounds (issue 12).

Each round optimises the relaxation with the cuts so far. Its optimum bounds every real grid's
score (so does HiGHS's dual bound when a round is cut short). The optimum's letter counts and
needed pairs then go to the placement check: if no placement exists, the core found (or a known
core under a renaming of its letters) is cut and the next round can only score less; if one
exists, counting has nothing more to say and the optimum is the bound. The bound is anytime:
at the time limit, or on Ctrl-C/SIGTERM, the best bound proven so far is the answer.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from concurrent.futures import Executor
from dataclasses import dataclass, field
from typing import Any

from ..backends import Status, get_backend
from ..backends.ilp import HighsModel
from ..encode import EncodingTimeout
from ..finder import find
from ..grid import Grid
from ..inputs import check_seconds, check_whole, clamp_workers_warning
from ..pool import process_pool, stop_pool
from ..question import Question
from ..verify import check_grid
from ..wording import plural
from .cores import Cutter, core_cut
from .counting import OTHER, counting_model
from .exact import CountCheck, WordCore
from .placement import Core, PlacementTooLarge


@dataclass(frozen=True)
class BoundAnswer:
    """An upper bound on the best score of any grid answering a question, and what backs it."""

    status: str
    """``refuted`` (no grid answers the question), ``optimal`` (with ``exact``: :attr:`grid`
    scores the bound, so it is the best score), ``bounded`` (the optimum of the relaxation with
    every cut found: counting cannot go lower), ``open`` (time limit or interrupted: the best
    bound proven so far)."""
    bound: int | None
    """The bound (None when refuted, or when no round proved one in time)."""
    total: int
    """The summed weight of every word the bound scores (the trivial bound)."""
    cores: tuple[Core, ...] = ()
    rounds: int = 0
    renamed: int = 0
    """Cuts that were renamed copies of earlier cores."""
    seconds: float = 0.0
    trajectory: tuple[tuple[float, int], ...] = ()
    """(seconds, bound) each time the bound went down."""
    detail: str = ""
    confirmation: str = ""
    """With ``certify``: what a second solver and the proof checker said."""
    word_cores: tuple[WordCore, ...] = ()
    """With ``exact``: word count cores (words that cannot be spelled together within letter
    limits, from the question's exact model)."""
    grid: Grid | None = None
    """With ``optimal``: a grid scoring the bound, checked by the finder."""
    stopped_by: str | None = None
    """What interrupted the work (``Ctrl-C``, ``SIGTERM``, ``SIGHUP``), or None."""

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready."""
        return {"status": self.status, "bound": self.bound, "total": self.total, "rounds": self.rounds,
                "renamed": self.renamed, "seconds": round(self.seconds, 3),
                "trajectory": [[round(s, 2), b] for s, b in self.trajectory],
                "cores": [c.to_dict() for c in self.cores], "word_cores": [c.to_dict() for c in self.word_cores],
                "grid": self.grid.letters if self.grid else None, "detail": self.detail,
                "confirmation": self.confirmation, "stopped_by": self.stopped_by}

    def text(self) -> str:
        """What ``exactgrid bound`` prints."""
        if self.status == "refuted":
            head = "DOES NOT FIT, by counting"
        elif self.status == "optimal" and self.bound is not None and self.grid is not None:
            head = f"best score {self.bound:,}, proven: the bound is reached by {self.grid.letters}"
        elif self.bound is None:
            head = "no bound proven within the time limit"
        else:
            below = self.total - self.bound
            head = f"upper bound {self.bound:,}" + (f" ({below:,} below the total {self.total:,})" if below else
                                                    " (the total of the words: nothing excluded)")
        cores = len(self.cores)
        lines = [head, f"how: {self.detail}",
                 f"{plural(self.rounds, 'round')}, {plural(cores, 'pair/count core')} "
                 f"({self.renamed} renamed copies), {self.seconds:.1f} s"]
        if self.word_cores:
            lines[-1] += f", {len(self.word_cores)} word count cores"
        shown = [f"core {i}: {c.text()}" for i, c in enumerate(self.cores, 1)]
        shown += [f"word count core {i}: no grid with {c.text()}" for i, c in enumerate(self.word_cores, 1)]
        lines += [f"  {line}" for line in shown[:5]]
        if len(shown) > 5:
            lines.append(f"  ... and {len(shown) - 5} more (--json lists them all)")
        if self.confirmation:
            lines.append(self.confirmation)
        return "\n".join(lines)


@dataclass
class _Progress:
    started: float
    total: int
    bound: int | None = None
    trajectory: list[tuple[float, int]] = field(default_factory=list)
    on_bound: Callable[[int, float], None] | None = None

    def lower(self, value: int) -> None:
        if self.bound is None or value < self.bound:
            self.bound = value
            elapsed = time.monotonic() - self.started
            self.trajectory.append((elapsed, value))
            if self.on_bound is not None:
                self.on_bound(value, elapsed)


def _failures(cutter: Cutter | None) -> str:
    """What the answer says of worker searches that failed (their cores are missing, the bound
    stands)."""
    failed = cutter.spread.failed if cutter is not None and cutter.spread is not None else []
    return f" ({len(failed)} worker searches failed, first: {failed[0]})" if failed else ""


def bound(question: Question, time_limit: float | None = 60.0,
          on_bound: Callable[[int, float], None] | None = None,
          on_round: Callable[[int, Core | None], None] | None = None,
          certify: bool = False, certify_seconds: float | None = 60.0, triples: bool = False,
          cores_per_round: int = 1, workers: int = 1, executor: Executor | None = None,
          exact: bool = False, exact_seconds: float | None = 60.0) -> BoundAnswer:
    """An upper bound on the best score (required and optional words' weights) of any grid
    answering ``question``; see the module's docstring. ``on_bound(bound, seconds)`` hears each
    improvement, ``on_round(round, core cut or None)`` each round. With ``certify``, the final
    model (relaxation and cuts) with "score above the bound" and each core's placement are refuted
    again by CaDiCaL with DRUP proofs that exactgrid checks, within ``certify_seconds`` after the
    bound (:func:`exactgrid.prove.certify.confirm_bound`). ``triples``: cores may also name letter
    triples (see :func:`exactgrid.prove.cores.refute_by_cores`). ``cores_per_round``: after a
    new core, look for more in the same solution among the pairs no earlier core of the round
    holds (cores with disjoint pairs), up to this many. ``workers``: core searches a solution
    gets at once, this process's and ``workers - 1`` on ``executor`` (a Dask client's, say)
    or, without one, on a process pool made for the run and stopped when it ends (then at most
    the usable cores: more are lowered to them with a
    :class:`~exactgrid.inputs.WorkersClamped` warning); each shrinks
    in its own order, so a round may cut with several different cores
    (:mod:`exactgrid.prove.spread`). ``exact``: each optimum's words and letter counts first go
    to the question's exact model (:class:`~exactgrid.prove.exact.CountCheck`, within
    ``exact_seconds``): a grid there scores the bound (``optimal``); a word count core is cut;
    when it times out, the placement check takes over."""
    if time_limit is not None:
        time_limit = check_seconds(time_limit)
    if executor is None:  # this machine's cores: more searches than cores only compete for them
        workers = clamp_workers_warning(workers)
    else:
        check_whole(workers, "workers", low=1)
    get_backend("highs")  # BackendError naming the extra to install, when highspy is missing
    started = time.monotonic()
    deadline = None if time_limit is None else started + time_limit
    progress = _Progress(started, sum(question.scoring_weights().values()), on_bound=on_bound)
    own_pool = process_pool(workers - 1) if executor is None and workers > 1 else None
    try:
        counting = counting_model(question, objective=True)
        mip = HighsModel(counting.model)
        try:
            cutter: Cutter | None = Cutter(question, counting, triples=triples, per_round=cores_per_round,
                                           executor=executor or own_pool, jobs=workers - 1)
        except PlacementTooLarge as exc:
            cutter, without_cores = None, f" (no cores: {exc})"
        else:
            without_cores = ""
        letters = set(counting.cells) | {OTHER}
        try:
            checker = CountCheck(question, letters, "cadical", deadline, words=True) if exact else None
        except EncodingTimeout:  # the time limit came while the exact model was built: bound without it
            checker, without_cores = None, without_cores + " (no exact check: the time limit came while encoding it)"
        if checker is not None and not checker.usable:
            checker.close()
            checker, without_cores = None, without_cores + " (no exact check: forbidden words enforced lazily)"
    except KeyboardInterrupt as exc:
        from ..stopping import interruption

        if own_pool is not None:
            stop_pool(own_pool)
        return BoundAnswer("open", None, progress.total, seconds=time.monotonic() - started,
                           detail=f"interrupted ({interruption(exc)}) before the first bound",
                           stopped_by=interruption(exc))
    rounds = 0
    word_cores: list[WordCore] = []

    def answer(status: str, detail: str, interrupted: str | None = None, grid: Grid | None = None) -> BoundAnswer:
        result = BoundAnswer(status, None if status == "refuted" else progress.bound, progress.total,
                             tuple(cutter.cores) if cutter else (), rounds, cutter.renamed if cutter else 0,
                             time.monotonic() - started, tuple(progress.trajectory),
                             detail + without_cores + _failures(cutter), word_cores=tuple(word_cores), grid=grid,
                             stopped_by=interrupted)
        if certify and not interrupted and cutter is not None:
            from .certify import confirm_bound

            result = confirm_bound(result, counting.model, mip.added, cutter.placement, certify_seconds, checker)
        return result

    def left() -> float | None:
        return None if deadline is None else max(0.0, deadline - time.monotonic())

    def exact_cut(true_vars: frozenset[int], cap: float | None) -> Grid | list[tuple[list[int], Any]] | None:
        """The exact model's answer for a solution: a grid, a word count core's cut, or None."""
        if checker is None:
            return None
        limit = left()
        if cap is not None:
            limit = cap if limit is None else min(cap, limit)
        counts = counting.cell_counts(true_vars)
        counts[OTHER] = question.board.size - sum(counts.values())
        words = [w for w, y in counting.found.items() if y in true_vars]
        found = checker.check(counts, limit, words)
        if found is None or isinstance(found, Grid):
            return found
        word_cores.append(found)
        clause = core_cut(counting, found)
        assert clause is not None  # a word count core names the relaxation's own words and letters
        return [(clause, found)]

    def optimal(grid: Grid) -> BoundAnswer:
        scored = _verified_score(question, grid)
        if progress.bound is None or scored < progress.bound:  # pragma: no cover - an encoder bug
            raise AssertionError(f"the exact model's grid {grid.letters} scores {scored:,}, not the bound")
        return answer("optimal", relaxation + ", and the exact model spelled the optimum's words", grid=grid)

    kinds = "pair/triple/count" if triples else "pair/count"
    relaxation = f"the counting relaxation (letter counts, adjacent pairs) with {kinds} cores, by HiGHS"
    if workers > 1:
        relaxation += f", {workers} core searches a round"
    if checker is not None:
        relaxation += ", word count cores from the exact model"
    try:
        while True:
            rounds += 1
            result = mip.solve(left(), on_bound=progress.lower)
            if result.status == Status.UNSAT:
                return answer("refuted", relaxation + ": no solution")
            if result.bound is not None:
                progress.lower(result.bound)
            if result.status != Status.OPTIMAL:
                return answer("open", relaxation + ": the time limit came first")
            progress.lower(result.objective)
            true_vars = result.true_vars or frozenset()
            cut = exact_cut(true_vars, exact_seconds)
            if isinstance(cut, Grid):
                return optimal(cut)
            if cut is not None and cutter is not None:  # the workers look for pair cores meanwhile
                cut += cutter.spread_only(true_vars, left())
            if cut is None and cutter is None:
                if checker is not None:
                    return answer("open", relaxation + ": the time limit came first")
                return answer("bounded", "the counting relaxation's optimum, by HiGHS")
            if cut is None and cutter is not None:
                cut = cutter.cut(true_vars, left())
                if cut is None:
                    return answer("open", relaxation + ": the time limit came first")
                if isinstance(cut, str):
                    if checker is None:
                        if on_round is not None:
                            on_round(rounds, None)
                        return answer("bounded", relaxation + ": its optimum's letters can be placed")
                    cut = exact_cut(true_vars, None)  # placeable: only the exact model can say more
                    if isinstance(cut, Grid):
                        return optimal(cut)
                    if cut is None:
                        return answer("open", relaxation + ": the time limit came first")
            assert cut is not None
            for clause, core in cut:
                mip.add_clause(clause)
                if on_round is not None:
                    on_round(rounds, core)
    except KeyboardInterrupt as exc:
        from ..stopping import interruption

        return answer("open", f"{relaxation}: interrupted ({interruption(exc)})", interrupted=interruption(exc))
    finally:
        if cutter is not None:
            cutter.close()
        if checker is not None:
            checker.close()
        if own_pool is not None:
            stop_pool(own_pool)


def _verified_score(question: Question, grid: Grid) -> int:
    """The grid's score on the question, by the finder (and the grid must answer it)."""
    check = check_grid(question, grid)
    if check.problems:  # pragma: no cover - an encoder bug, never an answer
        raise AssertionError(f"the exact model's grid {grid.letters} fails the question: {'; '.join(check.problems)}")
    weights = question.scoring_weights()
    return sum(weights[w] for w in weights if find(grid, w, question.budget, question.path_rule) is not None)
