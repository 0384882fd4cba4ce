"""Ask CaDiCaL whether the counting relaxation allows a score: the question a bound's certificate
refutes, with the letter counts binary-coded (as HiGHS solves them) or unary (as certificates
write them), and optionally check the proof with both checkers.

    python tools/relaxation_cnf.py --at-least 329019281 --counts unary --seconds 600
    python tools/relaxation_cnf.py --awards 20S 200M PA M8 4C NOCAL C2C --at-least 289481058 --proof

The relaxation is the bound's own (:func:`exactgrid.prove.counting.counting_model`, tight, with
neighbour capacity) on the 5x5 all-state question, with the awards' items as hard constraints,
without any core: "score >= N" added, compiled to CNF. Prints the model's size, CaDiCaL's answer
(UNSAT: the relaxation allows no such score) and its seconds; with ``--proof``, the DRUP proof's
lemmas and deletions and each checker's verdict and seconds (exactgrid.prove.checkers).
"""

from __future__ import annotations

import argparse
import time

from pysat.solvers import Solver

from exactgrid.backends.sat import solve_in_chunks
from exactgrid.cnf import compile_cnf
from exactgrid.prove.checkers import check_twice
from exactgrid.prove.counting import counting_model
from exactgrid.question import Question, checklist_question, choose_checklist


def relaxation_clauses(awards: list[str], at_least: int, unary: bool) -> list[list[int]]:
    """The relaxation of the 5x5 all-state question under ``awards``, with "score >= at_least"."""
    question = Question().but(optional="all")
    checklist = choose_checklist(None, awards)
    if checklist is not None:
        question = checklist_question(question, checklist)
    model = counting_model(question, objective=True, capacity=True, unary=unary).model
    objective, model.objective = model.objective, None
    assert objective is not None
    model.add_linear(*objective, ">=", at_least)
    return compile_cnf(model).clauses


def main() -> None:
    """Parse the options, ask, print."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--awards", nargs="*", default=[], metavar="KEY")
    parser.add_argument("--at-least", type=int, required=True, metavar="N")
    parser.add_argument("--counts", choices=["unary", "binary"], default="unary")
    parser.add_argument("--seconds", type=float, default=600.0)
    parser.add_argument("--proof", action="store_true", help="log CaDiCaL's DRUP proof and check it twice")
    args = parser.parse_args()
    started = time.monotonic()
    clauses = relaxation_clauses(args.awards, args.at_least, args.counts == "unary")
    variables = max(abs(lit) for clause in clauses for lit in clause)
    print(f"{args.counts} counts: {variables:,} variables, {len(clauses):,} clauses "
          f"({time.monotonic() - started:.1f} s)", flush=True)
    with Solver(name="cadical195", bootstrap_with=clauses, with_proof=args.proof) as solver:
        started = time.monotonic()
        answer = solve_in_chunks(solver, started + args.seconds)  # CaDiCaL ignores interrupt(): budgets
        seconds = time.monotonic() - started
        verdict = {False: "UNSAT", True: "SAT", None: f"UNKNOWN after {args.seconds:g} s"}[answer]
        print(f"score >= {args.at_least:,}: {verdict} in {seconds:.1f} s "
              f"({solver.accum_stats().get('conflicts', 0):,} conflicts)", flush=True)
        proof = solver.get_proof() if args.proof and answer is False else None
    if proof is not None:
        deletions = sum(line.startswith("d") for line in proof)
        print(f"proof: {len(proof) - deletions:,} lemmas, {deletions:,} deletions", flush=True)
        checked = check_twice(clauses, proof)
        for run in checked.runs:
            print(f"  {run.checker}: {'accepted' if run.accepted else run.reason} in {run.seconds:.1f} s")


if __name__ == "__main__":
    main()
