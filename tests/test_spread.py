"""The core search spread over workers: shuffled shrinking still gives minimal cores (brute
force), workers on threads, processes or a Dask cluster find cores the bound can use, and the
bound with several workers is as sound as with one and leaves no process behind."""

from __future__ import annotations

import multiprocessing
import random
import threading
import time
from concurrent.futures import Future, ThreadPoolExecutor
from types import SimpleNamespace

import pytest

import exactgrid.inputs
import exactgrid.prove.placement
import exactgrid.prove.spread
from exactgrid.backends import Result, Status
from exactgrid.backends.ilp import HighsModel
from exactgrid.geometry import Board
from exactgrid.inputs import InputError
from exactgrid.pool import process_pool, stop_pool
from exactgrid.prove.bound import bound
from exactgrid.prove.cores import Cutter
from exactgrid.prove.counting import counting_model
from exactgrid.prove.cuts import Cuts
from exactgrid.prove.placement import STOP_SLICE_SECONDS, Core, Placement, pair_of
from exactgrid.prove.spread import CoreSearch, PlacementSpec, Spread, find_cores, search_job
from exactgrid.question import build_question

from .test_bound import SPECS
from .test_cores import placeable
from .test_counting import _best_score, _grids
from .test_many import scheduler_events
from .test_signals import HANG_SECONDS

pytest.importorskip("highspy")


def seeded_checks(count: int, seed: int):
    """Random checks with many pairs on six cells: often several cores to find."""
    rng = random.Random(seed)
    for _ in range(count):
        board = rng.choice([Board(2, 3), Board(1, 6)])
        pairs = tuple(sorted({pair_of(rng.choice("ABCD"), rng.choice("ABCD")) for _ in range(rng.randint(4, 12))}))
        at_most = tuple((a, rng.randint(1, 2)) for a in "ABCD" if rng.random() < 0.7)
        yield board, pairs, at_most


@pytest.mark.usefixtures("unhurried_core_checks")  # minimal on any machine (this process only)
def test_a_seeded_check_leaves_a_minimal_core_and_seeds_find_others():
    orders_differ = 0
    for board, pairs, at_most in seeded_checks(30, seed=3):
        placement = Placement(board, set("ABCD"), set(pairs))
        try:
            found = {placement.check(pairs, at_most, seed=seed) for seed in (None, 1, 2, 3, 4)}
        finally:
            placement.close()
        if any(isinstance(f, str) for f in found):
            assert all(isinstance(f, str) for f in found) and placeable(board, pairs, at_most)
            continue
        orders_differ += len(found) > 1
        for core in found:
            assert isinstance(core, Core) and not placeable(board, core.pairs, core.at_most)
            assert set(core.pairs) <= set(pairs) and set(core.at_most) <= set(at_most)
            for drop in range(len(core.pairs)):
                assert placeable(board, core.pairs[:drop] + core.pairs[drop + 1:], core.at_most)
            for drop in range(len(core.at_most)):
                assert placeable(board, core.pairs, core.at_most[:drop] + core.at_most[drop + 1:])
    assert orders_differ >= 5  # other seeds find other cores: what spreading is for


def test_two_triangles_are_found_by_different_seeds():
    pairs = tuple(sorted({("A", "B"), ("B", "C"), ("A", "C"), ("D", "E"), ("E", "F"), ("D", "F")}))
    limits = tuple((a, 1) for a in "ABCDEF")
    found = set()
    for seed in range(6):  # a session each, as each worker has its own
        placement = Placement(Board(1, 8), set("ABCDEF"), set(pairs))
        found.add(placement.check(pairs, limits, seed=seed))
        placement.close()
    assert found == {Core(pairs[:3], limits[:3]), Core(pairs[3:], limits[3:])}


def _triangle_search() -> tuple[Placement, CoreSearch]:
    """On a 1x5 path, A, B and C each in one cell cannot all be pairwise adjacent."""
    pairs = {("A", "B"), ("B", "C"), ("A", "C"), ("C", "D")}
    placement = Placement(Board(1, 5), {"A", "B", "C", "D"}, pairs)
    return placement, CoreSearch.of(pairs, {"A": 1, "B": 1, "C": 1, "D": 1})


def test_a_worker_job_finds_the_same_kind_of_core_as_this_process():
    placement, search = _triangle_search()
    try:
        here = find_cores(placement, search, None)
        spec = PlacementSpec.of(placement, "cadical")
        there = search_job(spec, search, seed=5, deadline=None)
        again = search_job(spec, search, seed=6, deadline=None)  # the worker's session is reused
    finally:
        placement.close()
    for cores in (here, there, again):
        assert isinstance(cores, list) and len(cores) == 1
        assert not placeable(Board(1, 5), cores[0].pairs, cores[0].at_most)


def test_a_spread_gathers_the_cores_of_its_workers_and_survives_a_failing_one():
    placement, search = _triangle_search()
    try:
        with ThreadPoolExecutor(2) as pool:
            spread = Spread(pool, 2, PlacementSpec.of(placement, "cadical"))
            spread.start(search, None)
            assert len(spread.pending) == 2
            spread.start(search, None)  # no worker is idle: nothing more is started
            assert len(spread.pending) == 2 and spread.submitted == 2
            cores = spread.harvest(None)
            assert len(cores) == 2 and all(isinstance(c, Core) for c in cores) and not spread.pending
            broken = Spread(pool, 1, PlacementSpec(Board(1, 5), frozenset("A"), frozenset({("A", "Z")}), (),
                                                   "no-such-backend", frozenset()))
            broken.start(search, None)
            assert broken.harvest(None) == []
            assert len(broken.failed) == 1
    finally:
        placement.close()


@pytest.mark.parametrize("index", [i for i, s in enumerate(SPECS) if s.optional and _grids(s) <= 3_000][:4])
def test_the_bound_with_workers_is_never_below_the_best_grid(index, monkeypatch):
    monkeypatch.setattr(exactgrid.inputs, "usable_cores", lambda: 4)  # 3 searches even on 2 cores (clamped there)
    spec = SPECS[index]
    best = _best_score(spec)
    answer = bound(spec, time_limit=None, workers=3)
    assert answer.status in ("refuted", "bounded")
    assert best is None or (answer.status == "bounded" and answer.bound >= best), (answer, best)
    assert "3 core searches a round" in answer.detail
    assert not multiprocessing.active_children()  # the pool made for the run is gone


def test_cores_from_workers_are_cut_at_the_next_round():
    question = build_question(requirements=["OKLAHOMA", "COLORADO"], optional=["TEXAS"], shape="3x3", budget=0)
    counting = counting_model(question, objective=True)
    pool = process_pool(1)
    cutter = Cutter(question, counting, executor=pool, jobs=1)
    try:
        solution = HighsModel(counting.model).solve()
        first = cutter.cut(solution.true_vars, None).clauses
        assert len(first) == 1  # this process's core; the worker's is under way
        assert len(cutter.spread.pending) == 1
        arrived = cutter.spread.harvest(None)
        assert arrived and arrived[0] != first[0][1]  # another order, another core
        cutter.spread.pending.append(_done(arrived))  # handed over at the next round
        second = cutter.cut(solution.true_vars, None).clauses  # the same solution: the new core cuts it too
        assert second[0][1] == arrived[0]  # (perhaps with a renamed copy of a core that also applies)
        assert cutter.cores == [first[0][1], arrived[0]]
    finally:
        cutter.close()
        stop_pool(pool)
    assert not multiprocessing.active_children()


def _done(result) -> Future:
    future: Future = Future()
    future.set_result(result)
    return future


@pytest.mark.usefixtures("two_cores")  # the workers asked for, on any machine
def test_the_bound_with_workers_agrees_with_the_bound_alone():
    question = build_question(requirements=["OHIO", "OREGON", "GEORGIA"], optional=["MISSOURI"], shape="3x4", budget=0)
    spread = bound(question, time_limit=None, workers=2)  # MISSOURI required does not fit (a pair/count core)
    assert spread.cores and spread.bound == spread.total - question.scoring_weights()["MISSOURI"]
    assert not multiprocessing.active_children()


def test_the_core_search_on_a_dask_cluster():
    distributed = pytest.importorskip("distributed")
    spec = next(s for s in SPECS if s.board.size <= 6 and bound(s, 10).cores)
    counting = counting_model(spec, objective=True)
    cluster = distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False, dashboard_address=None)
    with cluster, distributed.Client(cluster) as client:
        answer = bound(spec, time_limit=None, workers=2, executor=client.get_executor())
        cutter = Cutter(spec, counting, executor=client.get_executor(), jobs=1)
        try:
            here = cutter.cut(HighsModel(counting.model).solve().true_vars, None)
            there = cutter.spread.harvest(None)
        finally:
            cutter.close()
    assert answer.status in ("refuted", "bounded") and "failed" not in answer.detail
    assert answer.to_dict() | {"seconds": 0, "trajectory": 0, "detail": 0} == bound(spec, None).to_dict() | {
        "seconds": 0, "trajectory": 0, "detail": 0}
    assert isinstance(here, Cuts) and there
    for core in [here.clauses[0][1], *there]:
        assert not placeable(spec.board, core.pairs, core.at_most, fixed=dict(spec.fixed))


def test_workers_must_be_a_whole_number_from_one():
    question = build_question(requirements=["UTAH"], shape="3x3")
    with pytest.raises(InputError, match="workers"):
        bound(question, workers=0)


@pytest.mark.usefixtures("two_cores")  # the workers asked for, on any machine
def test_with_the_exact_model_the_workers_search_pair_cores_meanwhile():
    question = build_question(requirements=["OHIO", "OREGON", "GEORGIA"], optional=["MISSOURI", "UTAH"],
                              shape="3x4", budget=0)
    alone = bound(question, time_limit=None, exact=True)
    spread = bound(question, time_limit=None, exact=True, workers=2)
    assert alone.status == spread.status == "optimal" and alone.bound == spread.bound
    assert spread.word_cores and "2 core searches a round" in spread.detail
    for core in spread.cores:  # whatever pair cores the worker sent in time are cores
        assert isinstance(core, Core) and core.pairs
    assert not multiprocessing.active_children()


class _Undecided:
    """A placement session that never decides: each call runs out of its whole time, as a hard
    check would (or ends early once :attr:`released`, so that a test can always end)."""

    def __init__(self) -> None:
        self.limits: list[float | None] = []
        self.asked = threading.Event()
        self.released = threading.Event()

    def solve(self, assumptions, time_limit=None):
        self.limits.append(time_limit)
        self.asked.set()
        self.released.wait(time_limit)
        return Result(Status.UNKNOWN, detail="time limit reached")

    def close(self) -> None:
        pass


def test_a_check_ends_with_no_answer_once_asked_to_stop():
    placement, search = _triangle_search()
    pairs, limits = tuple(sorted(search.pairs)), search.counts
    try:
        assert placement.check(pairs, limits, stop=lambda: True) is None
        assert isinstance(placement.check(pairs, limits, stop=lambda: False), Core)  # not stopped: answered
        placement.session.close()
        placement.session = undecided = _Undecided()
        polls = iter(range(4))
        assert placement.check(pairs, limits, stop=lambda: next(polls, None) is None) is None  # no time limit
    finally:
        placement.close()
    assert len(undecided.limits) == 4  # asked in slices, ``stop`` between them
    assert all(limit is not None and limit <= STOP_SLICE_SECONDS for limit in undecided.limits)


def test_a_running_core_search_on_a_dask_cluster_ends_when_the_spread_stops(monkeypatch):
    distributed = pytest.importorskip("distributed")
    undecided = _Undecided()
    monkeypatch.setattr(exactgrid.prove.placement, "get_backend",
                        lambda name: SimpleNamespace(open_session=lambda model: undecided))
    ended, answers = threading.Event(), []

    def recorded(*args, **kwargs):
        answers.append(find_cores(*args, **kwargs))
        ended.set()
        return answers[-1]

    monkeypatch.setattr(exactgrid.prove.spread, "find_cores", recorded)  # the cluster is in this process
    placement, search = _triangle_search()
    cluster = distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False, dashboard_address=None)
    try:
        with cluster, distributed.Client(cluster) as client:
            spread = Spread(client.get_executor(), 1, PlacementSpec.of(placement, "cadical"))
            spread.start(search, time.monotonic() + 3 * HANG_SECONDS)  # unstopped, it would search on
            assert undecided.asked.wait(HANG_SECONDS)  # the worker's search is under way
            spread.stop()
            assert ended.wait(HANG_SECONDS) and answers == [None]  # stopped, with no core
            assert scheduler_events(client) == []  # and the scheduler forgot the run's flag
    finally:
        undecided.released.set()
        placement.close()
