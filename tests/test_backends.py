"""The backend contract: child processes, the race, the portfolio, and checked answers."""

import time
from importlib.metadata import EntryPoint

import pytest

from exactgrid.backends import Backend, BackendError, Result, SolverDisagreement, Status, get_backend, registry
from exactgrid.backends._child import race_in_children, run_in_child
from exactgrid.fit import fit
from exactgrid.model import BoolModel
from exactgrid.question import build_question

from . import racers


def test_run_in_child_collects_messages_and_kills_at_the_limit():
    messages, finished = run_in_child(racers.answer_after, (0.0, "yes"), time_limit=5)
    assert finished and messages == [("progress", "yes"), ("done", "yes")]
    started = time.monotonic()
    messages, finished = run_in_child(racers.answer_after, (600.0, "late"), time_limit=0.5, grace=0.0)
    assert not finished and messages == [("progress", "late")]
    assert time.monotonic() - started < 120  # killed, not waited for: the child would sleep 600 s


def test_race_returns_the_first_decisive_child_and_kills_the_rest():
    calls = [(racers.answer_after, (600.0, "slow")), (racers.give_up_at_once, ()),
             (racers.answer_after, (0.2, "fast"))]
    started = time.monotonic()
    winner, messages, finished = race_in_children(calls, time_limit=20,
                                                  decisive=lambda i, msgs: msgs[-1][1] != "gave up")
    assert winner == 2 and messages[2][-1] == ("done", "fast")
    assert finished == [False, True, True]
    assert time.monotonic() - started < 120  # the slow child (600 s) was killed, not waited for


def test_race_with_no_winner_by_the_deadline():
    winner, messages, finished = race_in_children([(racers.answer_after, (30.0, "slow"))], 0.3, grace=0.0)
    assert winner is None and finished == [False] and messages == [[("progress", "slow")]]


def test_an_exception_in_the_child_is_raised_in_the_parent():
    with pytest.raises(RuntimeError, match="TypeError"):
        run_in_child(racers.answer_after, ("not a number", "x"), time_limit=10)


def test_portfolio_answers_with_the_winning_member():
    spec = build_question(requirements=["OHIO", "UTAH", "IOWA"], shape="3x3")
    answer = fit(spec, backend="portfolio:kissat+cadical")
    assert answer.verdict == "fits"
    assert answer.backend in ("portfolio:kissat+cadical(kissat)", "portfolio:kissat+cadical(cadical)")
    refuted = build_question(requirements=["ILLINOIS:exact", "OHIO:exact", "UTAH:exact", "IOWA:exact",
                                       "IDAHO:exact"], shape="3x3")
    assert fit(refuted, backend="portfolio:cadical+glucose").verdict == "does not fit"


def test_portfolio_optimises():
    model = BoolModel()
    a, b, c = model.new_vars(3)
    model.add_clause([-a, -b])
    model.maximise([a, b, c], [5, 7, 1])
    result = get_backend("portfolio:kissat+cadical").solve(model, time_limit=30)
    assert result.status == Status.OPTIMAL and result.objective == 8


@pytest.mark.parametrize("name,needle", [("portfolio:kissat", "two or more"),
                                          ("portfolio:kissat+nosuch", "unknown backend 'nosuch'"),
                                          ("portfolio:kissat+liar", "cannot run in a portfolio")])
def test_bad_portfolios(monkeypatch, name, needle):
    points = registry._entry_points()
    points["liar"] = EntryPoint("liar", f"{__name__}:Liar", registry.GROUP)
    monkeypatch.setattr(registry, "_entry_points", lambda: points)
    with pytest.raises(BackendError, match=needle):
        get_backend(name)


class Liar(Backend):
    name = "liar"

    def available(self):
        return True

    def _solve(self, model, time_limit, seed):
        return Result(Status.SAT, true_vars=frozenset())


def test_an_assignment_that_violates_the_model_is_caught():
    model = BoolModel()
    a = model.new_var()
    model.add_clause([a])
    with pytest.raises(SolverDisagreement, match="violates the model"):
        Liar().solve(model)
