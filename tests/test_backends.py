"""The backend contract: child processes, the race, the portfolio, and checked answers."""

import warnings
from importlib.metadata import EntryPoint
from types import SimpleNamespace

import pytest

from exactgrid.backends import Backend, BackendError, Result, SolverDisagreement, Status, get_backend, registry
from exactgrid.backends._child import race_in_children, run_child, run_in_child
from exactgrid.fitting import fit
from exactgrid.model import BoolModel
from exactgrid.question import build_question

from . import racers


def test_run_in_child_collects_messages_and_kills_at_the_limit():
    messages, finished = run_in_child(racers.answer_after, (0.0, "yes"), time_limit=5)
    assert finished and messages == [("progress", "yes"), ("done", "yes")]
    messages, finished = run_in_child(racers.answer_after, (600.0, "late"), time_limit=0.5, grace=0.0)
    # killed, not waited for: a child waited for would have finished (it sleeps 600 s, then answers)
    assert not finished and messages in ([], [("progress", "late")])  # a slow start may say nothing


def test_race_returns_the_first_decisive_child_and_kills_the_rest():
    calls = [(racers.answer_after, (600.0, "slow")), (racers.give_up_at_once, ()),
             (racers.answer_after, (0.2, "fast"))]
    winner, messages, finished = race_in_children(calls, time_limit=20,
                                                  decisive=lambda i, msgs: msgs[-1][1] != "gave up")
    assert winner == 2 and messages[2][-1] == ("done", "fast")
    assert finished == [False, True, True]  # the slow child (600 s) was killed, not waited for


def test_race_with_no_winner_by_the_deadline():
    winner, messages, finished = race_in_children([(racers.answer_after, (30.0, "slow"))], 0.3, grace=0.0)
    assert winner is None and finished == [False]
    # the child may or may not have started talking within 0.3 s on a loaded machine; it never finished
    assert messages[0] in ([], [("progress", "slow")])


def test_an_exception_in_the_child_is_raised_in_the_parent():
    with pytest.raises(RuntimeError, match="TypeError"):
        run_in_child(racers.answer_after, ("not a number", "x"), time_limit=10)


def test_a_ctrl_c_while_a_child_is_told_its_question_leaves_no_child(monkeypatch):
    import exactgrid.backends._child as child

    started = []
    popen = child.subprocess.Popen

    def recorded(*args, **kwargs):
        started.append(popen(*args, **kwargs))
        return started[-1]

    def interrupted(_):
        raise KeyboardInterrupt

    monkeypatch.setattr(child.subprocess, "Popen", recorded)
    monkeypatch.setattr(child.pickle, "dumps", interrupted)
    with pytest.raises(KeyboardInterrupt):
        child.ChildRace([(racers.answer_after, (30.0, "never"))])
    (process,) = started
    assert process.poll() is not None  # killed and reaped before the interruption went on


def test_portfolio_answers_with_the_winning_member():
    spec = build_question(requirements=["OHIO", "UTAH", "IOWA"], shape="3x3")
    # the counting loop off: on a loaded machine the members may take past its 1 s probe, and
    # the answer would be the loop's (backend "counting"), not a member's
    answer = fit(spec, backend="portfolio:kissat+cadical", counting=False)
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


def fake_points(*points):
    """A stand-in for importlib.metadata.entry_points: these points, whatever the group."""
    return lambda group: [p for p in points if p.group == group]


def test_a_backend_name_registered_twice_warns_and_the_last_wins(monkeypatch):
    builtin = EntryPoint("kissat", "exactgrid.backends.sat:Kissat", registry.GROUP)
    plugin = EntryPoint("kissat", f"{__name__}:Liar", registry.GROUP)
    other = EntryPoint("liar", f"{__name__}:Liar", "some.other.group")
    monkeypatch.setattr(registry, "entry_points", fake_points(builtin, plugin, other))
    monkeypatch.setattr(registry, "_WARNED", set())
    with pytest.warns(registry.BackendShadowingWarning) as caught:
        points = registry._entry_points()
        assert registry._entry_points()["kissat"] is plugin  # read again: no second warning
    assert points["kissat"] is plugin and "liar" not in points
    assert "cadical" in points  # the built-in fallbacks still fill in the rest
    assert len(caught) == 1
    message = str(caught[0].message)
    assert "\n" not in message
    assert message == (
        "backend 'kissat' is registered twice in 'exactgrid.backends': 'exactgrid.backends.sat:Kissat' and "
        f"'{__name__}:Liar'; using '{__name__}:Liar', the last registered"
    )


def test_the_shadowing_warning_names_the_distributions():
    first = SimpleNamespace(name="kissat", value="exactgrid.backends.sat:Kissat",
                            dist=SimpleNamespace(name="exactgrid"))
    last = SimpleNamespace(name="kissat", value="fastsat:Kissat", dist=SimpleNamespace(name="fastsat"))
    message = registry.shadowing_message(first, last)
    assert "'exactgrid.backends.sat:Kissat' (from exactgrid) and 'fastsat:Kissat' (from fastsat)" in message
    assert message.endswith("using 'fastsat:Kissat', the last registered")


def test_the_same_target_registered_twice_is_quiet(monkeypatch):
    point = EntryPoint("kissat", "exactgrid.backends.sat:Kissat", registry.GROUP)
    monkeypatch.setattr(registry, "entry_points", fake_points(point, point))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert registry._entry_points()["kissat"] is point


def test_a_race_whose_members_all_finish_undecided_keeps_their_best_solution():
    """Every member out of its own time with an unproven optimum: the race ends when the last
    one finishes, and the best solution stands (SAT), not UNKNOWN."""
    from exactgrid.backends.portfolio import race
    from exactgrid.model import BoolModel

    model = BoolModel(num_vars=1, objective=((1,), (1,)))
    result, children = race([racers.Incumbent(), racers.Incumbent()], model, time_limit=60, seed=0)
    assert result.status == Status.SAT and result.true_vars == frozenset({1})
    assert all(children.finished)


def _contradiction() -> BoolModel:
    """A model with no solution: a and not a."""
    model = BoolModel()
    a = model.new_var()
    model.add_clause([a])
    model.add_clause([-a])
    return model


def test_a_failing_member_leaves_the_race_and_the_others_decide():
    """One member's solver is broken: the race goes on without it (it used to raise, ending
    the whole race and a fit-many batch with it), and a member still standing answers."""
    from exactgrid.backends.portfolio import race

    model = _contradiction()
    result, children = race([racers.Broken(), racers.SlowRefuter(0.2)], model, time_limit=30, seed=0, name="p")
    assert result.status == Status.UNSAT and result.backend == "p(slow-refuter)"
    assert "ImportError: simulated broken solver" in children.failures[0].reason
    # 3 s: the broken child must have started, failed and said so by then, on a loaded machine too
    undecided, _ = race([racers.Broken(), racers.Undecided()], model, time_limit=3, seed=0, name="p")
    assert undecided.status == Status.UNKNOWN
    assert undecided.detail == "time limit reached; broken failed: ImportError: simulated broken solver"


def test_when_every_member_fails_the_backend_fails_in_one_line():
    from exactgrid.backends import BackendFailed
    from exactgrid.backends.portfolio import race

    model = BoolModel()
    model.add_clause([model.new_var()])
    with pytest.raises(BackendFailed, match=r"^backend 'p' failed: broken: ImportError: simulated broken solver; "
                                            r"broken: ImportError"):
        race([racers.Broken(), racers.Broken()], model, time_limit=30, seed=0, name="p")
    with pytest.raises(BackendFailed, match=r"^backend 'broken' failed: ImportError: simulated broken solver$"):
        racers.Broken().solve(model, time_limit=30)


def test_a_member_that_refuses_the_model_leaves_the_race_and_its_refusal_is_one_line():
    """A solver that cannot take a model (HiGHS and CBC for weights beyond their floating
    point) refuses it before its child starts: the other members race without it, and the
    answer says why; alone, its refusal is the error, in its own words. A refusal that comes
    from inside a child reads the same: no module path, no "failed"."""
    from exactgrid.backends.portfolio import race

    model = _contradiction()
    result, _ = race([racers.RefusesUpFront(), racers.SlowRefuter(0.2)], model, time_limit=30, seed=0, name="p")
    assert result.status == Status.UNSAT and result.backend == "p(slow-refuter)"
    undecided, _ = race([racers.RefusesUpFront(), racers.Undecided()], model, time_limit=0.5, seed=0, name="p")
    assert undecided.detail == ("time limit reached; refuses-up-front refused the model: "
                                "this solver cannot take a model like this one")
    refusal = "^this solver cannot take a model like this one$"
    with pytest.raises(BackendError, match=refusal):
        race([racers.RefusesUpFront()], model, time_limit=30, seed=0)
    with pytest.raises(BackendError, match=refusal):
        racers.RefusesInTheChild().solve(model, time_limit=30)
    question = build_question(requirements=["OHIO", "UTAH"], shape="3x3")
    with pytest.raises(BackendError, match=refusal):
        fit(question, racers.RefusesInTheChild(), time_limit=30, counting=False)


def test_fit_with_a_broken_backend_is_one_error_line():
    """The backend's failure is a BackendFailed (exit 2, one line on the command line), not a
    traceback. (With the counting loop beside it, a grid or refutation the loop finds is still
    the answer.)"""
    from exactgrid.backends import BackendFailed

    question = build_question(requirements=["OHIO", "UTAH"], shape="3x3")
    with pytest.raises(BackendFailed, match="^backend 'broken' failed: ImportError: simulated broken solver$"):
        fit(question, racers.Broken(), time_limit=30, counting=False)


def test_a_pysat_solver_that_needs_its_own_package_names_that_package():
    """PySAT runs CryptoMiniSat through pycryptosat: installing python-sat (already here) would
    not help, so the error names pycryptosat."""
    import importlib.util

    if importlib.util.find_spec("pycryptosat") is not None:
        pytest.skip("pycryptosat is installed here")
    with pytest.raises(BackendError, match=r"install it with: pip install pycryptosat$"):
        get_backend("pysat:cryptosat")


def test_a_child_killed_before_its_time_says_so_not_time_limit_reached():
    """A solver child killed by a signal (out of memory, say) long before its time limit is
    reported as killed; it used to read as "time limit reached"."""
    from exactgrid.backends.portfolio import race

    model = BoolModel()
    model.add_clause([model.new_var()])
    result = racers.Killed().solve(model, time_limit=600)
    assert result.status == Status.UNKNOWN and result.detail == "its process was killed by SIGKILL"
    raced, _ = race([racers.Killed(), racers.Undecided()], model, time_limit=3, seed=0, name="p")  # as above
    assert raced.status == Status.UNKNOWN
    assert raced.detail == "time limit reached; killed: its process was killed by SIGKILL"
    _, _, died = run_child(racers.give_up_at_once, (), time_limit=600)
    assert died is None  # a child whose call returned did not die


# --------------------------------------------------------------------------- floating point


def test_mip_solvers_refuse_weights_their_floating_point_cannot_hold_exactly(tmp_path):
    """A bound of 1e17 was once 'proven' where HAUO scores 1e17 + 3 (HiGHS's doubles hold no
    unit at 1e17), and CBC called the question DOES NOT FIT: now both refuse, SAT answers."""
    import json

    from click.testing import CliRunner

    from exactgrid.backends.ilp import FLOAT_EXACT_TOTAL, FloatingPointLimit, check_float_exact
    from exactgrid.cli import cli
    from exactgrid.finder import score
    from exactgrid.grid import parse_grid
    from exactgrid.words import read_word_list

    model = BoolModel()
    x, y = model.new_var(), model.new_var()
    model.add_linear([x, y], [FLOAT_EXACT_TOTAL - 1, 1], ">=", 2**53)
    check_float_exact(model, "HiGHS")  # at the limits: fine (a score to reach is no weight)
    model.maximise([x, y], [FLOAT_EXACT_TOTAL, 1])
    with pytest.raises(FloatingPointLimit, match="add up to 500,000,001"):
        check_float_exact(model, "HiGHS")
    words = tmp_path / "big.csv"
    words.write_text("OHIO,100000000000000000\nIOWA,1\nUTAH,3\n")
    best = score(parse_grid("HAUO"), read_word_list(words)).total
    assert best == 100_000_000_000_000_003
    run = CliRunner().invoke
    bounded = run(cli, ["bound", "--shape", "2x2", "--words", str(words), "--exact", "--json"])
    assert bounded.exit_code == 2 and "computes in floating point" in json.loads(bounded.stdout)["error"]
    ask = ["fit", "--shape", "2x2", "--words", str(words), "--optional", "all", "--min-score", str(best),
           "--time-limit", "60", "--json"]
    for mip in ("highs", "cbc"):  # refused before any child starts: whatever the counting loop would find
        for counting in ("--counting", "--no-counting"):
            refused = run(cli, [*ask, "--backend", mip, counting])
            error = json.loads(refused.stdout)["error"]
            solver = "HiGHS" if mip == "highs" else "CBC"
            assert refused.exit_code == 2 and error.startswith(f"{solver} computes in floating point")
    fits = json.loads(run(cli, ask).stdout)  # the default backend, SAT, with the counting loop on SAT too
    assert fits["outcome"] == "fits" and score(parse_grid(fits["grid"]), read_word_list(words)).total >= best
    # the states (330,759,736) with the 200M award's score to reach: HiGHS still takes it
    # (a first version added the 200,000,000 to the weights and refused it)
    award = run(cli, ["bound", "--shape", "3x3", "--award", "200M", "--time-limit", "600", "--json"])
    assert award.exit_code == 1 and json.loads(award.stdout)["status"] == "refuted"  # 3x3 holds no 200M
