"""The DRUP checker: real solver proofs pass, tampered ones fail, and it never accepts a
refutation of a satisfiable formula (checked by brute force on random small CNFs)."""

from __future__ import annotations

import itertools
import random

import pytest
from pysat.examples.genhard import PHP
from pysat.solvers import Solver

from exactgrid.cnf import compile_cnf
from exactgrid.encode import encode
from exactgrid.prove.drup import check_drup, parse_proof_line
from exactgrid.question import load_instance

PROOF_SOLVERS = ("glucose4", "cadical195")


def refutation(clauses: list[list[int]], solver: str) -> list[str] | None:
    """The solver's DRUP proof when it refutes the clauses, else None."""
    with Solver(name=solver, bootstrap_with=clauses, with_proof=True) as sat:
        return None if sat.solve() else sat.get_proof()


def satisfiable(clauses: list[list[int]], variables: int) -> bool:
    """Brute force over every assignment."""
    for values in itertools.product((False, True), repeat=variables):
        if all(any(values[abs(x) - 1] == (x > 0) for x in clause) for clause in clauses):
            return True
    return False


@pytest.mark.parametrize("solver", PROOF_SOLVERS)
@pytest.mark.parametrize("holes", [3, 4, 5, 6])
def test_pigeonhole_proofs_from_real_solvers_check(solver, holes):
    clauses = PHP(holes).clauses
    proof = refutation(clauses, solver)
    result = check_drup(clauses, proof)
    assert result.valid, result.reason
    assert result.lemmas + result.deletions == len(proof)


def test_a_lemma_that_does_not_follow_is_named():
    clauses = PHP(4).clauses
    proof = refutation(clauses, "glucose4")
    result = check_drup(clauses, ["1 0", *proof])  # pigeon 1 in hole 1 does not follow
    assert not result.valid and result.reason == "lemma 1 (1) is not implied by unit propagation"


def test_no_refutation_of_what_is_satisfiable_and_none_without_the_empty_clause():
    assert not check_drup([[1, 2], [-1, 2]], ["0"]).valid
    clauses = PHP(5).clauses
    proof = refutation(clauses, "glucose4")
    result = check_drup(clauses, proof[: len(proof) // 2])  # the first half of the lemmas
    assert not result.valid and result.reason == "the proof never derives the empty clause"
    assert check_drup(clauses, proof[:-1]).valid  # without its final "0": the empty clause is RUP
    assert check_drup([[1], [-1]], ["0"]).valid  # unit propagation alone refutes it
    assert check_drup([[]], ["0"]).valid


def test_proof_lines_as_text_or_literals():
    assert parse_proof_line("d 3 -4 0") == (True, (3, -4))
    assert parse_proof_line("0") == (False, ())
    assert parse_proof_line([2, -5]) == (False, (2, -5))
    for bad in ("3 4", "3 0 4 0", "", "d", "x 0"):
        with pytest.raises(ValueError):
            parse_proof_line(bad)


@pytest.mark.parametrize("seed", range(40))
def test_sound_and_complete_on_random_small_formulas(seed):
    rng = random.Random(seed)
    variables = rng.randint(2, 7)
    clauses = [[rng.choice((1, -1)) * rng.randint(1, variables) for _ in range(rng.randint(1, 3))]
               for _ in range(rng.randint(3, 30))]
    sat = satisfiable(clauses, variables)
    proof = refutation(clauses, PROOF_SOLVERS[seed % 2])
    assert (proof is None) == sat
    if proof is not None:
        assert check_drup(clauses, proof).valid
    # random "proofs" are never accepted for a satisfiable formula
    bogus = [" ".join(str(rng.choice((1, -1)) * rng.randint(1, variables)) for _ in range(rng.randint(0, 2))) + " 0"
             for _ in range(rng.randint(1, 8))]
    if check_drup(clauses, [*bogus, "0"]).valid:
        assert not sat


@pytest.mark.parametrize("instance", ["3x3_seed_exact", "3x3_top3", "4x4_top6_exact"])
def test_refutations_of_fit_questions_check(instance):
    from pathlib import Path

    question = load_instance(Path(__file__).resolve().parents[1] / "instances" / "benchmarks" / "fit" /
                             f"{instance}.toml").question
    cnf = compile_cnf(encode(question).model)
    proof = refutation(cnf.clauses, "cadical195")
    assert proof is not None  # these questions do not fit (the benchmark table: NO for every backend)
    result = check_drup(cnf.clauses, proof)
    assert result.valid, result.reason
