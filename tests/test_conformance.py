"""``check_backend`` (``exactgrid backends --check``): honest backends pass, and each way of
claiming what is not so (a false UNSAT, a false optimum, a false bound) is caught by brute force."""

import random
from importlib.metadata import EntryPoint

import pytest
from click.testing import CliRunner

import exactgrid as eg
from exactgrid.answer import Outcome
from exactgrid.backends import Backend, Result, Status, conformance, get_backend, registry
from exactgrid.backends.conformance import brute_force, check_backend, empty_model, pigeonhole, random_model
from exactgrid.cli import cli
from exactgrid.model import BoolModel


def test_brute_force_on_models_known_by_hand():
    model = BoolModel()
    a, b = model.new_vars(2)
    model.add_clause([a, b])
    model.add_linear([a, b], [1, 1], "<=", 1)
    assert brute_force(model) == (True, None)
    model.maximise([a, -b], [3, 5])  # a alone scores 3 + 5 (b false); b alone scores 0
    assert brute_force(model) == (True, 8)
    model.add_clause([-a])
    assert brute_force(model) == (True, 0)
    model.add_clause([-b])
    assert brute_force(model) == (False, None)


def test_the_random_models_cover_the_contract():
    rng = random.Random(0)
    models = [random_model(rng, optimise=i % 2 == 1) for i in range(200)]
    ops = {row.op for m in models for row in m.linear}
    assert ops == {"<=", ">=", "=="} and any(w < 0 for m in models for row in m.linear for w in row.weights)
    rows = [row.lits for m in models for row in m.linear] + [m.objective[0] for m in models if m.objective]
    assert any(lit < 0 for lits in rows for lit in lits)  # negative literals in rows and objectives
    assert any(len(set(lits)) < len(lits) for lits in rows)  # and a literal twice in one
    answers = [brute_force(m) for m in models]
    assert {feasible for feasible, _ in answers[::2]} == {True, False}  # to decide: both answers to check
    assert all(feasible for feasible, _ in answers[1::2])  # to optimise: an optimum to check, always
    assert all(m.num_vars <= 10 for m in models)
    assert brute_force(empty_model(False)) == (True, None) and brute_force(empty_model(True)) == (True, 0)


def test_a_pigeonhole_model_has_no_assignment():
    assert brute_force(pigeonhole(3)) == (False, None)
    assert get_backend("cadical").solve(pigeonhole(4)).status == Status.UNSAT


@pytest.mark.parametrize("name", ["cadical", "glucose"])
def test_honest_backends_pass(name):
    answer = check_backend(name, models=40, seed=3, check_time_limit=False)
    assert answer.outcome == Outcome.FITS and answer.exit_code == 0 and not answer.disagreements
    assert answer.asked == answer.agreed == 40 and answer.undecided == 0
    assert answer.text().startswith(f"PASS: backend '{name}' agrees with brute force on 40 of the 40 random models")


class _Honest(Backend):
    """CaDiCaL's answers, which each liar below bends one way."""

    name = "honest"
    capabilities = frozenset({"decide", "optimise", "prove", "in-process"})

    def available(self):
        return True

    def _solve(self, model, time_limit, seed):
        return get_backend("cadical").solve(model, time_limit)


class FalseUnsat(_Honest):
    name = "falseunsat"

    def _solve(self, model, time_limit, seed):
        return Result(Status.UNSAT)


class AnyFeasibleIsOptimal(_Honest):
    name = "anyfeasible"

    def _solve(self, model, time_limit, seed):
        if model.objective is None:
            return super()._solve(model, time_limit, seed)
        plain = BoolModel(model.num_vars, list(model.clauses), list(model.linear), None)
        found = get_backend("cadical").solve(plain, time_limit)
        if not found.found:
            return found
        return Result(Status.OPTIMAL, true_vars=found.true_vars)


class BoundAtWhatItFound(_Honest):
    name = "lowbound"

    def _solve(self, model, time_limit, seed):
        honest = super()._solve(model, time_limit, seed)
        if model.objective is None or not honest.found:
            return honest
        plain = BoolModel(model.num_vars, list(model.clauses), list(model.linear), None)
        found = get_backend("cadical").solve(plain, time_limit)
        value = model.objective_value(found.true_vars)
        return Result(Status.SAT, true_vars=found.true_vars, bound=value)


class ProvesNothing(_Honest):
    """CaDiCaL's answers without 'prove' declared: its UNSAT is read as UNKNOWN, no disagreement."""

    name = "provesnothing"
    capabilities = frozenset({"decide", "in-process"})


@pytest.mark.parametrize(("liar", "says"), [
    (FalseUnsat, "UNSAT, but an assignment satisfies the model"),
    (AnyFeasibleIsOptimal, "but an assignment scores"),
    (BoundAtWhatItFound, "a proven bound"),
])
def test_each_false_claim_is_caught(liar, says):
    answer = check_backend(liar(), models=40, seed=1, check_time_limit=False)
    assert answer.outcome == Outcome.DOES_NOT_FIT and answer.exit_code == 1
    assert answer.disagreements and all(says in d for d in answer.disagreements), answer.disagreements
    assert answer.text().startswith("FAIL: ") and "\n  disagrees: model " in answer.text()


def test_what_a_backend_does_not_declare_is_undecided_not_wrong():
    answer = check_backend(ProvesNothing(), models=20, seed=1, check_time_limit=False)
    assert not answer.disagreements and 0 < answer.undecided < 20 and answer.outcome == Outcome.FITS


def test_a_plugin_that_fails_on_a_model_or_overruns_its_time_limit_disagrees(monkeypatch):
    class Fails(_Honest):
        name = "fails"

        def _solve(self, model, time_limit, seed):
            if model.num_vars == 3:
                raise RuntimeError("no such variable")
            return super()._solve(model, time_limit, seed)

    answer = check_backend(Fails(), models=30, check_time_limit=False)
    assert answer.disagreements and all("failed: backend 'fails' failed: RuntimeError: no such variable" in d
                                        for d in answer.disagreements)
    assert answer.agreed == 30 - len(answer.disagreements)
    monkeypatch.setattr(conformance, "OVERRUN_SECONDS", -1.0)  # any answer is late: the overrun is told
    late = check_backend("cadical", models=2)
    assert late.agreed == 2 and late.disagreements == (
        f"asked with a 1 s time limit, it came back after {late.time_limit_seconds:.1f} s",)
    assert "agrees with brute force on 2 of the 2 random models" in late.text()


def test_a_check_stopped_by_ctrl_c_keeps_what_it_checked():
    class Interrupted(_Honest):
        calls = 0

        def _solve(self, model, time_limit, seed):
            Interrupted.calls += 1
            if Interrupted.calls == 5:
                raise KeyboardInterrupt
            return super()._solve(model, time_limit, seed)

    answer = check_backend(Interrupted(), models=20, check_time_limit=False)
    assert answer.asked == 4 and answer.stopped_by == "Ctrl-C" and answer.exit_code == 3


def test_the_command_line(monkeypatch):
    run = CliRunner().invoke
    passed = run(cli, ["backends", "--check", "cadical", "--models", "5"])
    assert passed.exit_code == 0 and passed.output.startswith("PASS: backend 'cadical'")
    assert "\ntime limit: a pigeonhole model asked with 1 s came back after " in passed.output
    points = [*registry.entry_points(group=registry.GROUP),
              EntryPoint("falseunsat", f"{__name__}:FalseUnsat", registry.GROUP)]
    monkeypatch.setattr(registry, "entry_points", lambda group: points)
    failed = run(cli, ["backends", "--check", "falseunsat", "--models", "6", "--json"])
    assert failed.exit_code == 1 and '"outcome": "does not fit"' in failed.output
    alone = run(cli, ["backends", "--models", "3"])
    assert alone.exit_code == 2 and alone.stderr == "Error: --models means something only with --check NAME\n"
    assert eg.check_backend is check_backend


@pytest.mark.parametrize(("given", "says"), [
    ({"models": 0}, "models must be a whole number from 1 to 10000"),
    ({"seed": -1}, "seed must be a whole number"),
    ({"time_limit": -1}, "time limit must be a finite number"),
    ({"check_time_limit": "no"}, "check_time_limit must be true or false"),
    ({"backend": 3}, "backend: expected a Backend, got int"),
])
def test_bad_input_is_one_line_before_any_model(given, says):
    with pytest.raises(eg.InputError, match=says):
        check_backend(**{"backend": "cadical", **given})
