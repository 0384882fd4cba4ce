"""The DRUP checker: real solver proofs pass, tampered ones fail, and it never accepts a
refutation of a satisfiable formula (checked by brute force on random small CNFs). Its
numba-compiled twin (:mod:`exactgrid.prove.drup_compiled`), which ``check_drup`` uses when numba
is installed, gives the same verdict as the pure-Python one on every proof here, real or tampered."""

from __future__ import annotations

import itertools
import random

import pytest
from pysat.examples.genhard import PHP
from pysat.solvers import Solver

from exactgrid.cnf import compile_cnf
from exactgrid.encoding import encode
from exactgrid.prove.drup import ProofCheck, check_drup, deletion_schedule, parse_proof_line
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


def both_checkers(clauses: list[list[int]], proof: list[str]) -> ProofCheck:
    """The verdict of the pure-Python checker, asserted equal to the compiled one's."""
    pytest.importorskip("numba")
    python = check_drup(clauses, proof, compiled=False)
    assert check_drup(clauses, proof, compiled=True) == python
    return python


def tampered(proof: list[str], rng: random.Random, variables: int) -> list[str]:
    """The proof with one lemma's literal flipped, one lemma dropped, or a made-up lemma put in."""
    lines = list(proof)
    lemmas = [k for k, line in enumerate(lines) if not line.startswith("d") and line.strip() != "0"]
    choice = rng.randrange(3)
    if choice == 0 and lemmas:
        k = rng.choice(lemmas)
        lits = lines[k].split()[:-1]
        j = rng.randrange(len(lits))
        lits[j] = str(-int(lits[j]))
        lines[k] = " ".join(lits) + " 0"
    elif choice == 1 and lemmas:
        del lines[rng.choice(lemmas)]
    else:
        made_up = " ".join(str(rng.choice((1, -1)) * rng.randint(1, variables)) for _ in range(rng.randint(1, 3)))
        lines.insert(rng.randrange(len(lines) + 1), made_up + " 0")
    return lines


@pytest.mark.parametrize("holes", [4, 5, 6])
def test_the_compiled_checker_agrees_on_real_and_tampered_proofs(holes):
    clauses = PHP(holes).clauses
    variables = max(abs(x) for clause in clauses for x in clause)
    proof = refutation(clauses, "cadical195")
    assert both_checkers(clauses, proof).valid
    rng = random.Random(holes)
    verdicts = [both_checkers(clauses, tampered(proof, rng, variables)).valid for _ in range(30)]
    assert not all(verdicts)  # some tampering is caught (the same way by both)


@pytest.mark.parametrize("seed", range(60))
def test_the_compiled_checker_agrees_on_random_formulas(seed):
    rng = random.Random(1000 + seed)
    variables = rng.randint(2, 8)
    clauses = [[rng.choice((1, -1)) * rng.randint(1, variables) for _ in range(rng.randint(0 if seed == 7 else 1, 4))]
               for _ in range(rng.randint(3, 40))]
    proof = refutation(clauses, PROOF_SOLVERS[seed % 2]) or []
    bogus = [" ".join(str(rng.choice((1, -1)) * rng.randint(1, variables)) for _ in range(rng.randint(0, 3))) + " 0"
             for _ in range(rng.randint(1, 8))]
    for lines in (proof, [*bogus, "0"], [*bogus, *proof], proof[:len(proof) // 2], [f"d {line}" for line in bogus]):
        verdict = both_checkers(clauses, lines)
        if verdict.valid:
            assert not satisfiable(clauses, variables)


def test_the_compiled_checker_on_edge_cases():
    assert both_checkers([[]], ["0"]).valid
    assert both_checkers([[1], [-1]], []).valid  # no lemma: propagation alone refutes it
    assert not both_checkers([[1, 2], [-1, 2]], ["0"]).valid
    assert both_checkers([[1, 2], [-1, 2], [1, -2], [-1, -2]], ["3 -3 0", "2 0", "0"]).valid  # a tautology
    assert both_checkers([[1, 1, 2], [-1, 2], [1, -2], [-1, -2]], ["2 2 0", "0"]).valid  # repeated literals
    assert not both_checkers([[1, 2]], []).valid
    assert both_checkers([], []).reason == "the proof never derives the empty clause"


def test_the_compiled_checker_honours_its_deadline():
    pytest.importorskip("numba")
    clauses = PHP(7).clauses
    proof = refutation(clauses, "cadical195")  # some 14,000 lines: more than one chunk between looks at the clock
    result = check_drup(clauses, proof, deadline=0.0, compiled=True)
    assert result.timed_out and not result.valid and result.reason.startswith("the time limit came at lemma")


def test_deletions_are_honoured():
    """A lemma that needs a clause the proof deleted is not implied (by either checker, nor by
    dratify); a deletion naming no clause is passed over; a deleted duplicate leaves its twin."""
    from exactgrid.prove.checkers import check_twice

    xor = [[1, 2], [-1, 2], [1, -2], [-1, -2]]
    assert both_checkers(xor, ["2 0", "0"]).valid
    deleted = both_checkers(xor, ["d 2 1 0", "2 0", "0"])
    assert not deleted.valid and deleted.reason == "lemma 1 (2) is not implied by unit propagation"
    assert not check_twice(xor, ["d 2 1 0", "2 0", "0"]).valid
    assert both_checkers(xor, ["d 3 1 0", "2 0", "0"]).valid
    assert both_checkers([*xor, [2, 1]], ["d 1 2 0", "2 0", "0"]).valid
    assert not both_checkers([*xor, [2, 1]], ["d 1 2 0", "d 1 2 0", "2 0", "0"]).valid
    schedule = deletion_schedule(xor, [parse_proof_line(line) for line in ["d 1 2 0", "2 0", "d 2 0", "0"]])
    assert schedule == [[0], [4]]  # the clause first, then the lemma "2" (position 4)
