"""The counting relaxation: every refutation agrees with brute force, and its optimum is never
below the best score any grid reaches (brute force over every grid of small boards)."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from exactgrid.encoding import modelled_alphabet
from exactgrid.finder import find
from exactgrid.grid import Grid
from exactgrid.inputs import InputError
from exactgrid.prove.counting import count_question, counting_model
from exactgrid.question import load_instance

from .test_fit import EXPECTED, SPECS, meets

FIT = Path(__file__).resolve().parents[1] / "instances" / "benchmarks" / "fit"


def test_refutations_by_counting_agree_with_brute_force():
    refuted = 0
    for index, spec in enumerate(SPECS):
        if spec.budget > 1:
            continue
        answer = count_question(spec, "cadical", 60, objective=False)
        if answer.status == "refuted":
            refuted += 1
            assert not EXPECTED[index], (index, spec)  # never refutes a question some grid answers
        else:
            assert answer.status == "open"
    assert refuted >= 5  # it does refute some


def _best_score(spec) -> int | None:
    """The best summed weight of the scoring words over every grid meeting the spec, by brute force."""
    alphabet, _ = modelled_alphabet(spec)
    weights = spec.scoring_weights()
    free = [c for c in range(spec.board.size) if c not in spec.fixed]
    letters = [spec.fixed.get(c, "") for c in range(spec.board.size)]
    best = None
    for choice in itertools.product(alphabet, repeat=len(free)):
        for cell, letter in zip(free, choice):
            letters[cell] = letter
        grid = Grid(spec.board, "".join(letters))
        if meets(spec, grid):
            total = sum(w for word, w in weights.items() if find(grid, word, spec.budget, spec.path_rule))
            best = total if best is None else max(best, total)
    return best


def _grids(spec) -> int:
    return len(modelled_alphabet(spec)[0]) ** (spec.board.size - len(spec.fixed))


@pytest.mark.parametrize("index", [i for i, s in enumerate(SPECS) if s.optional and _grids(s) <= 3_000][:12])
def test_the_bound_is_never_below_the_best_grid(index):
    spec = SPECS[index]
    best = _best_score(spec)
    answer = count_question(spec, "cadical", 60)
    if best is None:
        assert answer.status in ("refuted", "bounded")
    else:
        assert answer.status == "bounded" and answer.bound >= best, (answer, best)


def test_benchmark_refutations_and_fitting_questions():
    for name in ("3x3_seed_exact", "3x3_top3", "4x4_top6_exact", "3x3_massachusetts_exact"):
        question = load_instance(FIT / f"{name}.toml").question
        assert count_question(question, "cadical", 60, objective=False).status == "refuted", name
    for name in ("3x3_seed_five", "5x5_m8", "4x4_top4"):  # these fit: counting must not refute them
        question = load_instance(FIT / f"{name}.toml").question
        assert count_question(question, "cadical", 60, objective=False).status == "open", name


@pytest.mark.parametrize("capacity", [False, True])
def test_unary_counts_are_the_same_relaxation(capacity):
    """Counts as rows of order literals (what certificates refute) or binary-coded (what HiGHS
    solves): the same optimum and the same refutations, on small questions of every kind."""
    pytest.importorskip("highspy")
    from exactgrid.backends.ilp import HighsModel

    small = [s for s in SPECS if s.budget <= 1 and _grids(s) <= 3_000][:24]
    outcomes = set()
    for spec in small:  # HiGHS in this process: a child process a solve cost 0.3 s each
        binary = HighsModel(counting_model(spec, capacity=capacity).model).solve(time_limit=60)
        unary = HighsModel(counting_model(spec, capacity=capacity, unary=True).model).solve(time_limit=60)
        assert (binary.status, binary.objective) == (unary.status, unary.objective), spec
        outcomes.add(binary.status)
    assert len(outcomes) == 2  # some refuted, some with an optimum


def test_budgets_above_one_are_not_modelled():
    question = load_instance(FIT / "3x3_seed_five.toml").question
    with pytest.raises(InputError, match="at most one altered letter"):
        counting_model(question.but(budget=2))


@pytest.mark.usefixtures("two_cores")  # --workers 2 asked for below, on any machine (a taskset of one core too)
def test_the_bound_command():
    import json

    from click.testing import CliRunner

    from exactgrid.cli import cli

    refuted = CliRunner().invoke(cli, ["bound", "ILLINOIS:exact", "OHIO:exact", "UTAH:exact", "IOWA:exact",
                                       "IDAHO:exact", "--shape", "3x3", "--method", "relaxation",
                                       "--backend", "cadical"])
    assert refuted.exit_code == 1 and refuted.output.startswith("DOES NOT FIT, by counting"), refuted.output
    with_cores = CliRunner().invoke(cli, ["bound", "OHIO:exact", "OREGON:exact", "GEORGIA:exact", "MISSOURI:exact",
                                          "--shape", "3x4", "--optional", "UTAH", "--time-limit", "600", "--json"])
    data = json.loads(with_cores.output)
    assert with_cores.exit_code == 1 and data["status"] == "refuted" and data["cores"], with_cores.output
    certified = CliRunner().invoke(cli, ["bound", "ILLINOIS:exact", "OHIO:exact", "UTAH:exact", "IOWA:exact",
                                         "IDAHO:exact", "--shape", "3x3", "--certify", "--time-limit", "600"])
    expected = "\ncertified: 0 cores, 0 word count cores, 0 renamed copies"
    assert certified.exit_code == 1 and expected in certified.output, certified.output
    no_time = CliRunner().invoke(cli, ["bound", "ILLINOIS:exact", "OHIO:exact", "UTAH:exact", "IOWA:exact",
                                       "IDAHO:exact", "--shape", "3x3", "--certify", "--time-limit", "600",
                                       "--certify-time-limit", "0"])  # the proofs' time is their own
    assert no_time.exit_code == 1 and "\nnot certified: " in no_time.output, no_time.output
    nocal = CliRunner().invoke(cli, ["bound", "--award", "NOCAL", "--forbid", "TX", "--shape", "2x2",
                                     "--time-limit", "30", "--json"])
    assert json.loads(nocal.output)["total"] == 330_759_736 - 39_538_223 - 29_145_505, nocal.output
    best = CliRunner().invoke(cli, ["bound", "NEWYORK", "NEWJERSEY", "NEWMEXICO", "--optional", "NEWHAMPSHIRE",
                                    "--optional", "OHIO", "--shape", "4x4", "--budget", "0", "--exact", "--json"])
    data = json.loads(best.output)
    assert best.exit_code == 0 and data["status"] == "optimal" and data["grid"] and data["word_cores"], best.output
    for wrong in (["--method", "relaxation", "--certify"], ["--method", "relaxation", "--exact"],
                  ["--backend", "cbc"], ["--workers", "0"],
                  ["--method", "relaxation", "--workers", "2"],
                  ["--method", "relaxation", "--scheduler", "tcp://127.0.0.1:1"]):
        bad = CliRunner().invoke(cli, ["bound", *wrong])
        assert bad.exit_code == 2 and bad.stderr.count("\n") == 1, wrong
    open_ = CliRunner().invoke(cli, ["bound", "--shape", "4x4", "--time-limit", "0.5", "--json"])
    data = json.loads(open_.output)  # open at the limit: a bound proven by then is an answer (exit 0), none is not
    assert (open_.exit_code, data["outcome"]) in ((0, "bounded"), (3, "unknown"))
    assert data["status"] in ("open", "bounded") and (data["outcome"] == "bounded") == (data["bound"] is not None)
    assert data["bound"] is None or data["bound"] <= 330_759_736
    bad = CliRunner().invoke(cli, ["bound", "--budget", "2"])
    assert bad.exit_code == 2 and bad.stderr.count("\n") == 1
