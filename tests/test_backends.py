"""The backend contract: child processes, the race, the portfolio, and checked answers."""

import warnings
from importlib.metadata import EntryPoint
from types import SimpleNamespace

import pytest

from exactgrid.backends import Backend, BackendError, Result, SolverDisagreement, Status, get_backend, registry
from exactgrid.backends._child import race_in_children, run_child, run_in_child
from exactgrid.backends.base import unproven as unproven_result
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


class NotABackend:
    name = "notabackend"


class AvailRaises(Liar):
    name = "availraises"

    def available(self):
        raise RuntimeError("no licence file")


class NoMethod(Backend):
    name = "nomethod"

    def available(self):
        return True


class Raiser(Liar):
    name = "raiser"

    def _solve(self, model, time_limit, seed):
        raise RuntimeError("segfault avoided")


class ReturnsNone(Liar):
    name = "returnsnone"

    def _solve(self, model, time_limit, seed):
        return None


class InitTypeError(Liar):
    name = "inittypeerror"

    def __init__(self):
        raise TypeError("a bug in the plugin's constructor")


class Teleport(Liar):
    name = "teleport"
    capabilities = frozenset({"decide", "teleport"})


class SessionsWithoutProof(Liar):
    name = "sessionsnoproof"
    capabilities = frozenset({"decide", "in-process", "assumptions"})


class ChildWithoutReading(Backend):
    name = "childnoread"

    def available(self):
        return True

    def child_call(self, model, time_limit, seed):
        return print, ()


class Misnamed(Liar):
    name = "somethingelse"


class Unproven(Liar):
    """Decides, but proves nothing: a local search that says UNSAT when it finds nothing."""

    name = "unproven"
    capabilities = frozenset({"decide", "optimise"})

    def _solve(self, model, time_limit, seed):
        if model.objective is not None:
            return Result(Status.OPTIMAL, true_vars=frozenset(), bound=0)
        return Result(Status.UNSAT)


PLUGINS = [NotABackend, AvailRaises, NoMethod, Raiser, ReturnsNone, InitTypeError, Teleport, Unproven, Liar,
           SessionsWithoutProof, ChildWithoutReading]
MISNAMED = EntryPoint("misnamed", f"{__name__}:Misnamed", registry.GROUP)


@pytest.fixture
def plugins(monkeypatch):
    """The classes above, registered through the entry-point group as installed plugins are."""
    points = [EntryPoint(cls.name, f"{__name__}:{cls.__name__}", registry.GROUP) for cls in PLUGINS] + [MISNAMED]
    monkeypatch.setattr(registry, "entry_points", fake_points(*points))


@pytest.mark.usefixtures("plugins")
@pytest.mark.parametrize(("name", "message"), [
    ("notabackend", "backend 'notabackend' is registered as 'tests.test_backends:NotABackend', which is not a "
                    "subclass of exactgrid.backends.Backend"),
    ("availraises", "backend 'availraises' failed to say whether it is available: RuntimeError: no licence file"),
    ("nomethod", "backend 'nomethod' (tests.test_backends:NoMethod) implements neither _solve nor child_call"),
    ("inittypeerror", "backend 'inittypeerror' failed to load: TypeError: a bug in the plugin's constructor"),
    ("teleport", "backend 'teleport' declares unknown capabilities 'teleport'; known: decide, optimise, prove, "
                 "in-process, incremental, assumptions, child-process"),
    ("liar:fast", "backend 'liar' takes no option ('liar:fast')"),
    ("sessionsnoproof", "backend 'sessionsnoproof' declares 'assumptions' without 'prove': a session's UNSAT and "
                        "its core are read as proofs, so a backend keeping sessions must prove"),
    ("childnoread", "backend 'childnoread' (tests.test_backends:ChildWithoutReading) implements child_call but not "
                    "read_child"),
    ("misnamed", "backend 'misnamed' is registered as 'tests.test_backends:Misnamed', whose name is 'somethingelse'; "
                 "a backend's name must be the one it is registered under"),
])
def test_a_plugin_that_breaks_the_contract_is_one_line_when_asked_for(name, message):
    with pytest.raises(BackendError) as caught:
        get_backend(name)
    assert str(caught.value) == message
    (row,) = [r for r in registry.list_backends() if r.name == name.partition(":")[0]]
    assert row.available == (name == "liar:fast")


@pytest.mark.usefixtures("plugins")
def test_a_plugin_whose_solver_fails_is_one_line_naming_it():
    from exactgrid.backends.base import BackendFailed

    model = BoolModel()
    model.add_clause([model.new_var()])
    with pytest.raises(BackendFailed, match=r"^backend 'raiser' failed: RuntimeError: segfault avoided$"):
        get_backend("raiser").solve(model)
    with pytest.raises(BackendFailed, match=r"^backend 'returnsnone' failed: it returned NoneType None, not a "
                                            r"Result with a Status$"):
        get_backend("returnsnone").solve(model)
    from click.testing import CliRunner

    from exactgrid.cli import cli

    for name in ("raiser", "returnsnone", "nomethod"):
        run = CliRunner().invoke(cli, ["fit", "OHIO", "--shape", "3x3", "--backend", name, "--no-counting"])
        assert run.exit_code == 2 and run.stderr.count("\n") == 1 and f"backend '{name}'" in run.stderr, run.stderr


@pytest.mark.usefixtures("plugins")
def test_what_a_backend_does_not_declare_it_does_not_claim():
    """Without 'prove', an UNSAT is no proof and an OPTIMAL no proven optimum; without
    'optimise', a model with an objective is refused before it is solved."""
    model = BoolModel()
    a = model.new_var()
    unproven = get_backend("unproven")
    refuted = unproven.solve(model)
    assert refuted.status == Status.UNKNOWN and "does not prove" in refuted.detail
    model.maximise([a], [1])
    best = unproven.solve(model)
    assert best.status == Status.SAT and best.bound is None and best.objective == 0
    with pytest.raises(BackendError, match="backend 'liar' cannot optimise"):
        get_backend("liar").solve(model)
    # a time limit with a bound and no solution: no solution is made up, and the bound goes
    undecided = unproven_result(Result(Status.UNKNOWN, bound=5), "unproven")
    assert undecided.status == Status.UNKNOWN and undecided.bound is None
    question = build_question(requirements=["OHIO"], shape="2x2")  # OHIO needs no more than 3 cells: it fits
    answer = fit(question, backend="unproven", counting=False)
    assert answer.verdict == "unknown"


def test_an_assignment_that_violates_the_model_is_caught():
    model = BoolModel()
    a = model.new_var()
    model.add_clause([a])
    with pytest.raises(SolverDisagreement, match="violates the model"):
        Liar().solve(model)


def fake_points(*points):
    """A stand-in for importlib.metadata.entry_points: these points, whatever the group."""
    return lambda group: [p for p in points if p.group == group]


@pytest.mark.parametrize("order", ["plugin last", "plugin first"])
def test_a_plugin_under_a_built_ins_name_is_left_out_with_a_warning(monkeypatch, order):
    builtin = EntryPoint("kissat", "exactgrid.backends.sat:Kissat", registry.GROUP)
    plugin = EntryPoint("kissat", f"{__name__}:Liar", registry.GROUP)
    other = EntryPoint("liar", f"{__name__}:Liar", "some.other.group")
    points = (builtin, plugin, other) if order == "plugin last" else (plugin, builtin, other)
    monkeypatch.setattr(registry, "entry_points", fake_points(*points))
    monkeypatch.setattr(registry, "_WARNED", set())
    with pytest.warns(registry.BackendShadowingWarning) as caught:
        found = registry._entry_points()
        assert registry._entry_points()["kissat"] == builtin  # read again: no second warning
    assert found["kissat"] == builtin and "liar" not in found  # whatever the order of installation
    assert type(get_backend("kissat")).__name__ == "Kissat"
    assert "cadical" in found  # the built-in fallbacks still fill in the rest
    assert len(caught) == 1
    message = str(caught[0].message)
    assert "\n" not in message
    assert message == (
        "backend 'kissat' is registered twice in 'exactgrid.backends': 'exactgrid.backends.sat:Kissat' and "
        f"'{__name__}:Liar'; using the built-in 'exactgrid.backends.sat:Kissat' (give the plugin's backend a "
        "name of its own)"
    )


def test_the_shadowing_warning_names_the_distributions():
    first = SimpleNamespace(name="kissat", value="exactgrid.backends.sat:Kissat",
                            dist=SimpleNamespace(name="exactgrid"))
    last = SimpleNamespace(name="kissat", value="fastsat:Kissat", dist=SimpleNamespace(name="fastsat"))
    message = registry.shadowing_message(first, last)
    assert "'exactgrid.backends.sat:Kissat' (from exactgrid) and 'fastsat:Kissat' (from fastsat)" in message


def test_two_plugins_under_one_name_make_it_ambiguous(monkeypatch):
    one = EntryPoint("milp", f"{__name__}:Liar", registry.GROUP)
    two = EntryPoint("milp", f"{__name__}:Raiser", registry.GROUP)
    monkeypatch.setattr(registry, "entry_points", fake_points(one, two))
    with pytest.raises(BackendError, match=r"^backend 'milp' is registered by 2 plugins with different targets: "
                                           r".*Liar' and .*Raiser'; uninstall all but one to use it$"):
        get_backend("milp")
    (row,) = [r for r in registry.list_backends() if r.name == "milp"]
    assert not row.available and "uninstall all but one" in row.description


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

    from exactgrid.backends.base import FLOAT_EXACT_TOTAL, FloatingPointLimit, check_float_exact
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


def test_the_command_line_gives_the_shadowing_warning_as_one_line():
    """As its other notices: ``exactgrid: ...``, not Python's file, line and source line."""
    import subprocess
    import sys

    code = (
        "import sys\n"
        "from importlib.metadata import EntryPoint\n"
        "from exactgrid.backends import registry\n"
        "points = [EntryPoint('kissat', 'exactgrid.backends.sat:Kissat', registry.GROUP),\n"
        "          EntryPoint('kissat', 'tests.test_backends:Liar', registry.GROUP)]\n"
        "registry.entry_points = lambda group: points\n"
        "from exactgrid.cli import main\n"
        "main()\n"
    )
    run = subprocess.run([sys.executable, "-c", code, "fit", "OHIO", "--shape", "2x2", "--no-counting"],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0 and run.stdout.startswith("FITS"), run.stderr  # the built-in Kissat answered
    assert run.stderr == ("exactgrid: backend 'kissat' is registered twice in 'exactgrid.backends': "
                          "'exactgrid.backends.sat:Kissat' and 'tests.test_backends:Liar'; using the built-in "
                          "'exactgrid.backends.sat:Kissat' (give the plugin's backend a name of its own)\n")


def test_an_assignment_that_is_no_grid_names_the_backend():
    """A session's assignment is checked against its assumptions and added clauses only; one
    that leaves a cell without a letter is the backend's disagreement, named, not a bare
    AssertionError from the decoder."""
    from exactgrid.encoding import encode
    from exactgrid.fitting.answer import decoded_grid

    encoding = encode(build_question(requirements=["OHIO"], shape="2x2"))
    with pytest.raises(SolverDisagreement, match=r"^liar: its assignment is no grid \(cell 0 has 0 letters"):
        decoded_grid(encoding, Result(Status.SAT, true_vars=frozenset(), backend="liar"))


@pytest.mark.parametrize("counting", [False, True])
def test_a_child_process_plugin_that_reads_no_result_is_one_line_on_every_path(counting, monkeypatch):
    """With counting on (fit's default) the backend's child is raced beside the counting loop,
    and its messages are read there, not in solve(): the same one line either way. (The loop
    is one that never decides, so that the backend's answer is read however slow the machine.)"""
    import exactgrid.fitting.decide as fit_answer
    from exactgrid.backends.base import BackendFailed

    monkeypatch.setattr(fit_answer, "counting_child", racers.counting_that_never_decides)
    question = build_question(requirements=["ILLINOIS:exact", "OHIO:exact", "UTAH:exact"], shape="3x3")
    with pytest.raises(BackendFailed, match=r"^backend 'readsnothing' failed: it returned NoneType None, not a "
                                            r"Result with a Status$"):
        fit(question, backend=racers.ReadsNothing(0.0), counting=counting, time_limit=60)


def test_what_a_plugin_prints_as_it_loads_goes_to_stderr_not_into_the_answer(monkeypatch):
    import json

    from click.testing import CliRunner

    from exactgrid.cli import cli

    points = [*registry.entry_points(group=registry.GROUP), EntryPoint("noisy", "tests.noisy_plugin:Noisy",
                                                                       registry.GROUP)]
    monkeypatch.setattr(registry, "entry_points", lambda group: points)
    listed = CliRunner().invoke(cli, ["backends", "--json"])
    assert listed.exit_code == 0 and "noisy" in [row["name"] for row in json.loads(listed.stdout)["backends"]]
    assert "noisy plugin: made" in listed.stderr
