"""The bound: counting with pair/count cores on one HiGHS model, against brute force on small
boards; its certificates; the incremental HiGHS model, its time limit and Ctrl-C."""

from __future__ import annotations

import os
import signal
from pathlib import Path

import pytest

from exactgrid import encoding
from exactgrid.backends import Status
from exactgrid.backends.ilp import HighsModel
from exactgrid.encoding import EncodingTimeout, ModelTooLarge
from exactgrid.finder import find
from exactgrid.model import BoolModel
from exactgrid.prove.bound import bound
from exactgrid.prove.cores import refute_by_cores
from exactgrid.question import build_question, load_instance
from exactgrid.verify import check_grid

from .test_counting import _best_score, _grids
from .test_fit import SPECS

FIT = Path(__file__).resolve().parents[1] / "instances" / "benchmarks" / "fit"
pytest.importorskip("highspy")


def test_highs_model_keeps_its_rows_between_solves():
    model = BoolModel()
    a, b, c = model.new_vars(3)
    model.add_clause([a, b])
    model.maximise([a, b, c], [5, 3, 1])
    mip = HighsModel(model)
    first = mip.solve()
    assert first.status == Status.OPTIMAL and first.objective == 9
    mip.add_clause([-a, -b])
    assert mip.solve().objective == 6
    mip.add_clause([-a])
    mip.add_clause([-c])
    assert mip.solve().objective == 3
    mip.add_clause([-b])
    assert mip.solve().status == Status.UNSAT


@pytest.mark.parametrize("index", [i for i, s in enumerate(SPECS) if s.optional and _grids(s) <= 3_000][:8])
def test_the_bound_is_never_below_the_best_grid(index):
    spec = SPECS[index]
    best = _best_score(spec)
    answer = bound(spec, time_limit=None, certify=True, certify_seconds=None)
    if best is None:
        assert answer.status in ("refuted", "bounded")
    else:
        assert answer.status == "bounded" and answer.bound >= best, (answer, best)
    assert answer.confirmation.startswith("certified"), answer.confirmation


@pytest.mark.parametrize("index", [i for i, s in enumerate(SPECS) if s.optional and _grids(s) <= 3_000][:6])
def test_several_cores_a_round_and_triples_keep_the_bound_sound(index):
    spec = SPECS[index]
    best = _best_score(spec)
    answer = bound(spec, time_limit=None, cores_per_round=3, triples=True)
    assert answer.status in ("refuted", "bounded")
    assert best is None or (answer.status == "bounded" and answer.bound >= best), (answer, best)


def test_cores_lower_the_bound():
    question = build_question(requirements=["NEWYORK", "NEWJERSEY", "NEWMEXICO"], optional=["NEWHAMPSHIRE"],
                              shape="4x4", budget=0)
    seen = []
    answer = bound(question, time_limit=None, on_bound=lambda b, s: seen.append(b))
    weights = question.scoring_weights()
    # the relaxation alone allows all four; a core leaves New Hampshire out (exactly: 4x4_new4_exact)
    assert seen[0] == answer.total == sum(weights.values())
    assert answer.status == "bounded" and answer.bound == answer.total - weights["NEWHAMPSHIRE"]
    assert answer.cores and [b for _, b in answer.trajectory] == seen


def test_a_refutation_by_cores_is_certified():
    refuted = [spec for spec in SPECS if spec.budget <= 1 and refute_by_cores(spec, 60).cores
               and refute_by_cores(spec, 60).status == "refuted"]
    assert refuted
    for spec in refuted:  # scoring the required words only, as these questions name no optional word
        answer = bound(spec, time_limit=None, certify=True, certify_seconds=None, score_every_word=False)
        assert answer.status == "refuted" and answer.cores
        assert answer.confirmation.startswith(f"certified: {len(answer.cores)} core"), answer.confirmation
    question = load_instance(FIT / "4x4_new4_exact.toml").question  # its proofs take the checker minutes
    answer = bound(question, time_limit=None, certify=True, certify_seconds=0.5, score_every_word=False)
    assert answer.status == "refuted" and answer.confirmation.startswith("not certified:")


def test_the_time_limit_gives_the_best_bound_so_far():
    question = build_question(optional=["all"], shape="4x4", allow_empty=True)
    answer = bound(question, time_limit=1.0)
    # bounded: a machine 20x faster; otherwise stopped by the time limit (no verdict reads the clock)
    assert answer.status in ("open", "bounded")
    assert answer.status == "bounded" or "time limit" in answer.detail
    assert answer.bound is None or answer.bound <= answer.total


def test_the_time_limit_counts_the_building_of_the_relaxation():
    # a time limit already past when the first word is modelled: no relaxation is built on
    question = build_question(optional=["all"], shape="3x3", allow_empty=True)
    for method in ("cores", "relaxation"):
        answer = bound(question, time_limit=0, method=method)
        assert answer.outcome == "unknown" and answer.bound is None, method
        assert "time limit reached while encoding (" in answer.detail, method
    model = BoolModel()
    model.add_clause(model.new_vars(2))
    with pytest.raises(EncodingTimeout, match="0 of 1 rows"):
        HighsModel(model, deadline=0.0)  # long past on time.monotonic()


def test_a_relaxation_too_large_is_refused(monkeypatch):
    monkeypatch.setattr(encoding, "MAX_MODEL_LITERALS", 1_000)  # the 50 states' relaxation holds 39,941 on 5x5
    question = build_question(optional=["all"], allow_empty=True)
    with pytest.raises(ModelTooLarge, match="passes 1,000 literals"):
        bound(question, time_limit=60)


def test_ctrl_c_stops_the_bound_with_the_best_so_far():
    """A Ctrl-C (here SIGALRM raising KeyboardInterrupt, as SIGINT does) once the first bound is
    known: the answer is open, with that bound. The signal is sent on an observable event, the
    first bound, so the test means the same on any machine."""
    question = build_question(optional=["all"], shape="5x5", allow_empty=True)
    bounds: list[int] = []

    def interrupt(*_):
        raise KeyboardInterrupt

    def first_bound(value: int, _seconds: float) -> None:
        bounds.append(value)
        if len(bounds) == 1:
            os.kill(os.getpid(), signal.SIGALRM)

    previous = signal.signal(signal.SIGALRM, interrupt)
    try:
        answer = bound(question, time_limit=None, on_bound=first_bound)
    finally:
        signal.signal(signal.SIGALRM, previous)
    assert answer.status == "open" and "interrupted (Ctrl-C)" in answer.detail
    assert answer.bound == bounds[-1] <= answer.total


def test_the_bound_is_at_the_front_door():
    import exactgrid as eg

    assert eg.bound is bound and eg.refute_by_cores is refute_by_cores
    question = eg.build_question(requirements=["OHIO:exact", "UTAH:exact", "IOWA:exact", "IDAHO:exact",
                                               "ILLINOIS:exact"], shape="3x3")
    assert eg.bound(question, 60).status == "refuted" and eg.refute_by_cores(question).status == "refuted"


def test_boards_too_large_for_placement_get_the_relaxation_alone():
    question = build_question(requirements=["OHIO", "TEXAS"], optional=["all"], shape="32x32")
    answer = bound(question, time_limit=120)
    assert answer.status == "bounded" and answer.bound == answer.total and not answer.cores
    assert "no cores: a placement model" in answer.detail
    assert refute_by_cores(question).status == "open"


@pytest.mark.parametrize("index", [i for i, s in enumerate(SPECS) if s.optional and _grids(s) <= 3_000][:16])
def test_with_the_exact_model_the_bound_is_the_best_score(index):
    spec = SPECS[index]
    best = _best_score(spec)
    answer = bound(spec, time_limit=None, exact=True, certify=True, certify_seconds=None)
    if best is None:
        assert answer.status == "refuted", answer
    else:
        assert answer.status == "optimal" and answer.bound == best, (answer, best)
        assert not check_grid(spec, answer.grid).problems
        assert answer.text().startswith(f"best score {best:,}, proven")
    assert answer.confirmation.startswith("certified"), answer.confirmation


def test_word_count_cores_lower_the_bound_to_the_best_grid():
    question = build_question(requirements=["NEWYORK", "NEWJERSEY", "NEWMEXICO"], optional=["NEWHAMPSHIRE", "OHIO"],
                              shape="4x4", budget=0)
    answer = bound(question, time_limit=None, exact=True)
    assert answer.status == "optimal" and answer.word_cores
    assert not check_grid(question, answer.grid).problems
    weights = question.scoring_weights()  # the grid's score, by the finder: the bound is reached
    assert answer.bound == sum(weights[w] for w in weights if find(answer.grid, w, 0, "walk") is not None)
    assert answer.bound < answer.total  # New Hampshire cannot join the other three (4x4_new4_exact)
    data = answer.to_dict()
    assert data["grid"] == answer.grid.letters and data["word_cores"][0]["words"] == list(answer.word_cores[0].words)
    assert "word count core 1: no grid with" in answer.text()


def test_word_count_cores_are_certified():
    small = [s for s in SPECS if s.optional and _grids(s) <= 3_000]
    answers = [bound(spec, time_limit=None, exact=True, certify=True, certify_seconds=None) for spec in small[:16]]
    with_cores = [a for a in answers if a.word_cores]
    assert with_cores
    for answer in with_cores:
        assert answer.confirmation.startswith(f"certified: {len(answer.cores)} cores, {len(answer.word_cores)} word")


def test_a_question_no_grid_meets_is_refuted_by_the_exact_model_at_once(monkeypatch):
    # with a budget of 1, the one-letter word B is in every grid, so forbidding it leaves no grid;
    # the relaxation leaves forbids out, and cores trimmed from the letter limits cut one letter
    # count at a time (122 rounds); the exact model asked with no assumption refutes it whole
    from exactgrid.geometry import Board
    from exactgrid.prove.exact import WordCore
    from exactgrid.question import Question
    from exactgrid.words import WordList

    monkeypatch.setattr("exactgrid.prove.exact.ALONE_SECONDS", 600.0)  # however slow the machine (takes ms)
    words = WordList({"AA": 12, "A": 10, "BA": 1, "B": 19, "CB": 9}, "t")
    question = Question(Board(1, 4, "rook"), budget=1, forbidden=("B",), optional="all", words=words)
    answer = bound(question, time_limit=None, exact=True, certify=True)
    assert answer.status == "refuted" and answer.rounds == 2
    assert answer.word_cores == (WordCore((), ()),)
    assert answer.confirmation.startswith("certified") and all(run.accepted for run in answer.checkers)
    assert "word count core 1: no grid with the question's own constraints" in answer.text()


def test_a_bounds_seconds_count_its_certificate(monkeypatch):
    """``BoundAnswer.seconds`` is the whole call's: the certificate's time counts (it was left
    out: 2.7 s reported for 4.6 s). A certificate that takes at least 0.5 s stands in."""
    import time

    import exactgrid.prove.bound as bound_module

    before: list[float] = []

    def slow_certificate(answer, *args, **kwargs):
        before.append(answer.seconds)  # the bound's own time, as the certificate begins
        time.sleep(0.5)
        return answer

    monkeypatch.setattr(bound_module, "confirm_bound", slow_certificate)
    question = build_question(requirements=["OHIO"], forbid=["IOWA"], shape="2x2")  # bounded and certified in seconds
    started = time.monotonic()
    answer = bound_module.bound(question, time_limit=60, certify=True)
    assert before[0] + 0.5 <= answer.seconds <= time.monotonic() - started
