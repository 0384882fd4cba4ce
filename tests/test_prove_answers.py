"""The proving jobs' answers meet the one answer contract (issue 23): outcomes, exit codes,
``to_dict`` keys, ``on_progress`` events, Ctrl-C answers, and the bound's one call (methods,
awards, what it scores by default)."""

from __future__ import annotations

from pathlib import Path

import pytest

import exactgrid as eg
from exactgrid.answer import STOPPED_EXIT, Outcome, ProgressEvent
from exactgrid.inputs import InputError
from exactgrid.prove.answers import BoundAnswer, CoreRefutation
from exactgrid.prove.bound import bound
from exactgrid.prove.cores import refute_by_cores
from exactgrid.prove.counting import count_question
from exactgrid.question import build_question, load_instance
from exactgrid.verify import check_grid

pytest.importorskip("highspy")

FIT = Path(__file__).resolve().parents[1] / "instances" / "benchmarks" / "fit"
CONTRACT = ["outcome", "seconds", "stopped_by", "exit_code"]
ALL_STATES = 330_759_736
"""The summed population of the 50 states (the word list's total weight)."""


def five_states_3x3():
    """Five states, spelled exactly, cannot share a 3x3 board (counting refutes it)."""
    return build_question(requirements=["OHIO:exact", "UTAH:exact", "IOWA:exact", "IDAHO:exact", "ILLINOIS:exact"],
                          shape="3x3")


def new_states_4x4():
    """Three NEW states fit a 4x4 board; New Hampshire cannot join them (4x4_new4_exact)."""
    return build_question(requirements=["NEWYORK", "NEWJERSEY", "NEWMEXICO"], optional=["NEWHAMPSHIRE"],
                          shape="4x4", budget=0)


def test_a_refuted_bound_does_not_fit_and_exits_1():
    answer = bound(five_states_3x3(), time_limit=60)
    assert answer.status == "refuted" and answer.outcome == Outcome.DOES_NOT_FIT
    assert answer.exit_code == 1 and answer.stopped_by is None
    data = answer.to_dict()
    assert list(data)[:4] == CONTRACT and data["outcome"] == "does not fit" and data["exit_code"] == 1
    for key in ("status", "bound", "total", "rounds", "renamed", "trajectory", "cores", "word_cores", "grid",
                "detail", "confirmation"):  # every key the answer had before the contract
        assert key in data, key
    assert answer.text().startswith("DOES NOT FIT, by counting")


def test_a_bound_counting_cannot_lower_is_bounded_and_exits_0():
    answer = bound(new_states_4x4(), time_limit=None)
    weights = new_states_4x4().scoring_weights()
    assert answer.status == "bounded" and answer.outcome == Outcome.BOUNDED and answer.exit_code == 0
    assert answer.bound == answer.total - weights["NEWHAMPSHIRE"]
    assert answer.to_dict()["outcome"] == "bounded"


def test_a_bound_the_exact_model_reaches_is_optimal():
    question = build_question(requirements=["NEWYORK", "NEWJERSEY", "NEWMEXICO"],
                              optional=["NEWHAMPSHIRE", "OHIO"], shape="4x4", budget=0)
    answer = bound(question, time_limit=None, exact=True)
    assert answer.status == "optimal" and answer.outcome == Outcome.OPTIMAL and answer.exit_code == 0
    assert not check_grid(question, answer.grid).problems


def test_open_bounds_say_what_they_hold():
    """A bound cut short by the time limit is still a true bound (BOUNDED, exit 0, the detail
    says the time limit came first); none at all is UNKNOWN (exit 3)."""
    cut_short = BoundAnswer("open", 1_000, 2_000, detail="the relaxation: the time limit came first")
    assert cut_short.outcome == Outcome.BOUNDED and cut_short.exit_code == 0
    nothing = BoundAnswer("open", None, 2_000)
    assert nothing.outcome == Outcome.UNKNOWN and nothing.exit_code == 3
    stopped = BoundAnswer("open", 1_000, 2_000, stopped_by="SIGTERM")
    assert stopped.outcome == Outcome.BOUNDED and stopped.exit_code == STOPPED_EXIT
    answer = bound(build_question(optional=["all"], shape="5x5", allow_empty=True), time_limit=1.0)
    # 5x5 needs far longer; the limit may come while the relaxation is still being built (a
    # loaded machine, a cold process) or after its first solve: either is open and says so
    assert answer.status == "open" and "time limit" in answer.detail, answer.detail
    assert answer.outcome == (Outcome.UNKNOWN if answer.bound is None else Outcome.BOUNDED)
    assert answer.exit_code == (3 if answer.bound is None else 0) and answer.stopped_by is None


def test_on_progress_hears_every_bound_and_every_cut():
    events: list[ProgressEvent] = []
    bounds: list[int] = []
    rounds: list[tuple[int, object]] = []
    answer = bound(new_states_4x4(), time_limit=None, on_progress=events.append,
                   on_bound=lambda b, s: bounds.append(b), on_round=lambda r, c: rounds.append((r, c)))
    assert {e.job for e in events} == {"bound"}
    improvements = [e for e in events if e.kind == "improvement"]
    assert [e.bound for e in improvements] == bounds == [b for _, b in answer.trajectory]
    assert improvements[0].message.startswith(f"bound {answer.total:,}, round 1")
    cuts = [e for e in events if e.kind == "round"]
    assert [(e.done, e.data) for e in cuts] == rounds  # the same news as on_round, in the same order
    assert [e.data for e in cuts if e.data is not None] == list(answer.cores)
    assert cuts[-1].bound == answer.bound and cuts[-1].done == answer.rounds
    assert all(a.seconds <= b.seconds for a, b in zip(events, events[1:]))


def test_ctrl_c_in_the_bound_answers_with_the_bound_so_far():
    """An on_progress callback that raises KeyboardInterrupt on the first bound stands for
    Ctrl-C: the answer says so and keeps that bound (a true bound: BOUNDED, but exit 3)."""
    first: list[int] = []

    def interrupt(event: ProgressEvent) -> None:
        if event.kind == "improvement":
            first.append(event.bound)
            raise KeyboardInterrupt

    answer = bound(new_states_4x4(), time_limit=None, on_progress=interrupt)
    assert answer.stopped_by == "Ctrl-C" and answer.status == "open" and "interrupted (Ctrl-C)" in answer.detail
    assert answer.bound == first[0] == answer.total and answer.outcome == Outcome.BOUNDED
    assert answer.exit_code == STOPPED_EXIT and answer.to_dict()["stopped_by"] == "Ctrl-C"


def test_ctrl_c_while_certifying_keeps_the_bound_uncertified(monkeypatch):
    import exactgrid.prove.bound as bound_module

    def interrupted(*_args, **_kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(bound_module, "confirm_bound", interrupted)
    answer = bound(five_states_3x3(), time_limit=60, certify=True)
    assert answer.status == "refuted" and answer.stopped_by == "Ctrl-C"
    assert answer.confirmation == "not certified: interrupted (Ctrl-C)" and answer.exit_code == STOPPED_EXIT


def test_the_core_loop_answers_by_the_contract():
    refuted = refute_by_cores(load_instance(FIT / "4x4_new4_exact.toml").question, time_limit=None)
    assert refuted.status == "refuted" and refuted.outcome == Outcome.DOES_NOT_FIT and refuted.exit_code == 1
    data = refuted.to_dict()
    assert list(data)[:4] == CONTRACT
    assert {"status", "rounds", "renamed", "cores", "count_cores", "placement", "grid", "detail"} <= set(data)
    assert refuted.text().startswith("DOES NOT FIT, by counting") and "core 1: " in refuted.text()
    fits = refute_by_cores(load_instance(FIT / "4x4_top4.toml").question, time_limit=60, exact=True)
    assert fits.status == "fits" and fits.outcome == Outcome.FITS and fits.exit_code == 0
    assert fits.text().startswith(f"FITS: the exact model spelled {fits.grid.letters}")
    placed = refute_by_cores(load_instance(FIT / "4x4_top4.toml").question, time_limit=60)
    assert placed.status == "placed" and placed.outcome == Outcome.UNKNOWN and placed.exit_code == 3
    assert CoreRefutation("open", (), 0, 0, 1.0).outcome == Outcome.UNKNOWN


def test_the_core_loop_tells_each_cut_and_stops_on_ctrl_c():
    question = load_instance(FIT / "4x4_new4_exact.toml").question
    events: list[ProgressEvent] = []
    answer = refute_by_cores(question, time_limit=None, on_progress=events.append)
    assert events and {(e.job, e.kind) for e in events} == {("counting", "round")}
    assert [e.data for e in events] == list(answer.cuts)
    assert events[-1].message == f"round {events[-1].done}, {len(answer.cuts)} cuts"

    told: list = []

    def interrupt(event: ProgressEvent) -> None:
        told.append(event.data)
        raise KeyboardInterrupt

    stopped = refute_by_cores(question, time_limit=None, on_progress=interrupt)
    assert stopped.status == "open" and stopped.stopped_by == "Ctrl-C" and stopped.outcome == Outcome.UNKNOWN
    # the first round's cut, as told; not compared with the first run's: shrinking a core gives
    # each trial a second (SHRINK_CHECK_SECONDS), so on a loaded machine the cores may differ
    assert len(told) == 1 and list(stopped.cuts) == told and stopped.exit_code == STOPPED_EXIT


def test_the_bound_scores_every_word_when_the_question_names_none():
    """``eg.bound(eg.Question(board))`` used to answer "bounded 0": nothing was scored."""
    answer = eg.bound(eg.Question(eg.Board(2, 2)), time_limit=60)
    assert answer.total == ALL_STATES and answer.bound is not None and 0 < answer.bound <= ALL_STATES
    named = eg.bound(eg.Question(eg.Board(2, 2), optional=["OHIO"]), time_limit=60)
    assert named.total == eg.us_states().weight("OHIO")  # named optional words: only those


def test_awards_become_the_question_in_the_call():
    """As ``bound --award NOCAL --forbid TX --shape 2x2``: California and Texas may not score."""
    answer = bound(eg.Question(eg.Board(2, 2), forbidden=["TX"]), time_limit=60, awards=["NOCAL"])
    assert answer.total == ALL_STATES - 39_538_223 - 29_145_505


def test_the_relaxation_alone_is_a_method_of_the_same_call():
    answer = bound(five_states_3x3(), method="relaxation", backend="cadical", time_limit=60)
    assert answer.status == "refuted" and answer.outcome == Outcome.DOES_NOT_FIT and answer.exit_code == 1
    assert answer.method == "relaxation" and answer.backend == "cadical"
    assert answer.text().startswith("DOES NOT FIT, by counting\nhow: the letter counts")
    assert answer.to_dict()["how"] == answer.detail
    relaxed = bound(new_states_4x4(), method="relaxation", time_limit=60)  # HiGHS by default
    assert relaxed.status == "bounded" and relaxed.bound == relaxed.total and relaxed.backend == "highs"
    counted = count_question(five_states_3x3(), "cadical", 60)
    assert counted.outcome == Outcome.DOES_NOT_FIT and list(counted.to_dict())[:4] == CONTRACT


@pytest.mark.parametrize("options", [dict(method="exact"), dict(backend="cbc"),
                                     dict(method="relaxation", certify=True),
                                     dict(method="relaxation", exact=True),
                                     dict(method="relaxation", workers=2),
                                     dict(method="relaxation", scheduler="tcp://127.0.0.1:1"),
                                     dict(workers=0)])
def test_options_that_do_not_go_together_are_refused(options):
    with pytest.raises(InputError):
        bound(five_states_3x3(), time_limit=10, **options)


def test_the_bound_may_score_only_what_the_question_names():
    question = build_question(requirements=["OHIO", "UTAH"], shape="3x3")
    answer = bound(question, time_limit=60, score_every_word=False)
    weights = eg.us_states()
    assert answer.total == weights.weight("OHIO") + weights.weight("UTAH")
    assert answer.status == "bounded" and answer.bound == answer.total  # both fit a 3x3 board


def test_a_dask_scheduler_address_is_enough():
    """As ``bound --scheduler ADDRESS``: the call connects, runs 1 + the cluster's threads
    searches a round, and closes the connection."""
    distributed = pytest.importorskip("distributed")
    from .test_bound import SPECS

    question = next(s for s in SPECS if s.board.size <= 6 and bound(s, None).cores)  # small, with a core to find
    cluster = distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False, dashboard_address=None)
    with cluster:
        answer = bound(question, time_limit=None, scheduler=cluster.scheduler_address)
    alone = bound(question, time_limit=None)
    assert (answer.status, answer.bound, answer.total) == (alone.status, alone.bound, alone.total)
    assert answer.cores and "2 core searches a round" in answer.detail and "failed" not in answer.detail
