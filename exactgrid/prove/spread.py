"""The core search of one relaxation solution, spread over worker processes or a Dask cluster.

A minimal core is found by deletion, and which minimal core comes out depends on the order
the literals are tried in. So while the bound's own process shrinks in the solver's order,
each worker shrinks the same unsatisfiable check in a shuffled order of its own (a seed a
job): one round then yields several different cores, all of them cuts, instead of one. Workers
are reached through any :class:`concurrent.futures.Executor`, as in ``fit_many``: a local
process pool (:func:`exactgrid.pool.process_pool`) or a Dask client's executor. Each worker
keeps its placement session between rounds (one a thread, the two most recent questions), so
a round costs it the check, not the model.
"""

from __future__ import annotations

import threading
import time
import uuid
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import Executor, Future, wait
from dataclasses import dataclass, field

from ..geometry import Board
from ..pool import ClusterStop, dask_client_of, run_stopped
from .placement import COUNT_LIMIT, Core, Pair, Placement, Triple

KEPT_SESSIONS = 2
"""Placement sessions a worker thread keeps (the least recently used one is closed)."""


@dataclass(frozen=True)
class CoreSearch:
    """What one relaxation solution needs placed: its letter counts and adjacent pairs (and
    triples), and how many cores with disjoint pairs to look for."""

    pairs: frozenset[Pair]
    counts: tuple[tuple[str, int], ...]
    triples: frozenset[Triple] = frozenset()
    per_round: int = 1

    @classmethod
    def of(cls, pairs: set[Pair], counts: dict[str, int], triples: set[Triple] | frozenset[Triple] = frozenset(),
           per_round: int = 1) -> CoreSearch:
        """The search for one solution's needs."""
        return cls(frozenset(pairs), tuple(sorted(counts.items())), frozenset(triples), per_round)


def placement_limits(counts: dict[str, int], pairs: set[Pair] | frozenset[Pair],
                     cells: int) -> tuple[tuple[str, int], ...]:
    """The count limits worth asking the placement model about: each paired letter's count
    (a letter in no pair is as good as a filler, a whole board's worth limits nothing, and
    limits above COUNT_LIMIT are not asked)."""
    paired = {a for pair in pairs for a in pair}
    return tuple((a, n) for a, n in sorted(counts.items()) if n < cells and n <= COUNT_LIMIT and a in paired)


def find_cores(placement: Placement, search: CoreSearch, time_limit: float | None,
               seed: int | None = None, stop: Callable[[], bool] | None = None) -> list[Core] | str | None:
    """Up to ``search.per_round`` cores with disjoint pairs that the solution violates (each one
    shrunk in the order ``seed`` gives, see :meth:`Placement.check`); or the placement's letters
    when the pairs and counts can be placed; None when the time limit comes, or ``stop()`` says
    so, before any core."""
    deadline = None if time_limit is None else time.monotonic() + time_limit
    counts = dict(search.counts)
    pairs, triples = set(search.pairs), set(search.triples)
    cores: list[Core] = []
    while len(cores) < search.per_round:
        left = None if deadline is None else max(0.0, deadline - time.monotonic())
        limits = placement_limits(counts, pairs, placement.board.size)  # a triple's letters are in its pairs
        found = placement.check(tuple(sorted(pairs)), limits, time_limit=left, triples=tuple(sorted(triples)),
                                seed=seed, stop=stop)
        if not isinstance(found, Core):
            return cores if cores else found  # the cores found still cut, whatever is left
        cores.append(found)
        pairs -= set(found.pairs)  # the next core, if any, shares no pair with this one
        triples -= set(found.triples)
    return cores


@dataclass(frozen=True)
class PlacementSpec:
    """Everything a worker needs to build a question's placement session (picklable)."""

    board: Board
    letters: frozenset[str]
    pairs: frozenset[Pair]
    fixed: tuple[tuple[int, str], ...]
    backend: str
    triples: frozenset[Triple]
    key: str = field(default_factory=lambda: uuid.uuid4().hex)

    @classmethod
    def of(cls, placement: Placement, backend: str) -> PlacementSpec:
        """The spec of a placement session (a new key: workers build their own copy once)."""
        return cls(placement.board, frozenset(placement.letters), frozenset(placement.pair_var),
                   tuple(sorted(placement.fixed.items())), backend, frozenset(placement.triple_var))

    def build(self) -> Placement:
        """A new placement session."""
        return Placement(self.board, set(self.letters), set(self.pairs), dict(self.fixed), self.backend,
                         set(self.triples))


_local = threading.local()


def _session(spec: PlacementSpec) -> Placement:
    """This thread's placement session for ``spec``, built on first use."""
    sessions: OrderedDict[str, Placement] = getattr(_local, "sessions", None) or OrderedDict()
    _local.sessions = sessions
    if spec.key in sessions:
        sessions.move_to_end(spec.key)
        return sessions[spec.key]
    while len(sessions) >= KEPT_SESSIONS:
        _, old = sessions.popitem(last=False)
        old.close()
    sessions[spec.key] = spec.build()
    return sessions[spec.key]


def search_job(spec: PlacementSpec, search: CoreSearch, seed: int, deadline: float | None,
               stop_name: str | None = None) -> list[Core] | str | None:
    """One worker's core search (module level, so that any executor can pickle it). ``deadline``
    is wall-clock (``time.time()``), meaning the same on every machine of a cluster.
    ``stop_name``: on a Dask worker, the name of the run's :class:`~exactgrid.pool.ClusterStop`;
    once the run stops, the search ends with None (a running task cannot be cancelled otherwise)."""
    placement = _session(spec)
    left = None if deadline is None else max(0.0, deadline - time.time())
    return find_cores(placement, search, left, seed, None if stop_name is None else run_stopped(stop_name))


class Spread:
    """Keeps ``jobs`` core searches running on the workers of ``executor``, each shrinking in
    its own order, and hands over the cores they find.

    Nobody waits for a worker: a search is started on each idle worker with the solution of
    the round, the bound goes on with its own core, and what a worker finds is collected at a
    later round. Every core is a cut of the relaxation whichever solution it came from, so a
    late core is still worth adding; meanwhile the workers keep the other cores busy while the
    relaxation is solved."""

    def __init__(self, executor: Executor, jobs: int, spec: PlacementSpec) -> None:
        self.executor = executor
        self.jobs = jobs
        self.spec = spec
        client = dask_client_of(executor)
        self.cluster_stop = None if client is None else ClusterStop(client)
        """On a Dask cluster, the run's flag that its running searches poll (:meth:`stop` ends it)."""
        self.submitted = 0
        self.pending: list[Future[list[Core] | str | None]] = []
        self.failed: list[str] = []
        """Why jobs failed (a lost worker, say): their searches are simply missing."""

    def start(self, search: CoreSearch, deadline: float | None) -> None:
        """Start the search of a solution on every idle worker (``deadline`` on
        :func:`time.monotonic`)."""
        wall = None if deadline is None else time.time() + (deadline - time.monotonic())
        while len(self.pending) < self.jobs:
            self.submitted += 1
            stop_name = None if self.cluster_stop is None else self.cluster_stop.name
            self.pending.append(self.executor.submit(search_job, self.spec, search, self.submitted, wall, stop_name))

    def harvest(self, timeout: float | None = 0.0) -> list[Core]:
        """The cores of the searches finished by now (or, waiting up to ``timeout`` seconds, of
        all of them: None waits for every one)."""
        if timeout != 0.0 and self.pending:
            wait(self.pending, timeout=timeout)
        cores: list[Core] = []
        for future in [f for f in self.pending if f.done()]:
            self.pending.remove(future)
            try:
                found = future.result()
            except Exception as exc:  # noqa: BLE001 - a lost worker costs its cores, not the bound
                self.failed.append(f"{type(exc).__name__}: {exc}")
                continue
            if isinstance(found, list):
                cores += found
        return cores

    def stop(self) -> None:
        """Cancel the searches not started, and end those running: on a Dask cluster through
        :attr:`cluster_stop` (within about a second); on the process pool the bound made, with
        the pool. On another executor, one already running ends by its deadline."""
        for future in self.pending:
            future.cancel()
        self.pending.clear()
        if self.cluster_stop is not None:
            self.cluster_stop.stop()
