"""Ask CaDiCaL whether the counting relaxation allows a score: the question a bound's certificate
refutes, with the letter counts binary-coded (as HiGHS solves them) or unary (as certificates
write them), and optionally check the proof with both checkers.

    python tools/relaxation_cnf.py --at-least 329019281 --counts unary --seconds 600
    python tools/relaxation_cnf.py --awards 20S 200M PA M8 4C NOCAL C2C --at-least 289481058 --proof
    python tools/relaxation_cnf.py --at-least 329019281 --exact --seconds 600

The relaxation is the bound's own (:func:`exactgrid.prove.counting.counting_model`, tight, with
neighbour capacity) on the 5x5 all-state question, with the awards' items as hard constraints,
without any core: "score >= N" added, compiled to CNF. Prints the model's size, CaDiCaL's answer
(UNSAT: the relaxation allows no such score) and its seconds; with ``--proof``, the DRUP proof's
lemmas and deletions and each checker's verdict and seconds (exactgrid.prove.checkers).

``--exact`` asks "the exact model told more": the fit model of the same question (every state
optional, "score >= N" over its found variables) with the unary relaxation beside it, linked
so that a word the exact model spells is found in the relaxation too, and each count
threshold "letter a in k or more cells" holds exactly when k of the exact model's cells hold a.
Every grid meets both halves, so an UNSAT still bounds the score; the walks are there for
CaDiCaL to use, and so is every counting argument.
"""

from __future__ import annotations

import argparse
import time

from pysat.solvers import Solver

from exactgrid.backends.sat import solve_in_chunks
from exactgrid.cnf import compile_cnf
from exactgrid.encoding import encode
from exactgrid.model import BoolModel, Linear
from exactgrid.prove.checkers import check_twice
from exactgrid.prove.counting import OTHER, counting_model
from exactgrid.question import Question, checklist_question, choose_checklist


def awards_question(awards: list[str]) -> Question:
    """The 5x5 all-state question with ``awards``' items as hard constraints."""
    question = Question().but(optional="all")
    checklist = choose_checklist(None, awards)
    return question if checklist is None else checklist_question(question, checklist)


def relaxation_clauses(awards: list[str], at_least: int, unary: bool) -> list[list[int]]:
    """The relaxation of the 5x5 all-state question under ``awards``, with "score >= at_least"."""
    model = counting_model(awards_question(awards), objective=True, capacity=True, unary=unary).model
    objective, model.objective = model.objective, None
    assert objective is not None
    model.add_linear(*objective, ">=", at_least)
    return compile_cnf(model).clauses


def linked_clauses(awards: list[str], at_least: int) -> list[list[int]]:
    """The exact model of the question with "score >= at_least", and the unary relaxation linked
    to it (the module's docstring, ``--exact``)."""
    question = awards_question(awards).but(min_score=at_least)
    encoding = encode(question, found=True)
    counting = counting_model(question, objective=False, capacity=True, unary=True)
    exact, relaxed = encoding.model, counting.model
    shift = exact.num_vars

    def moved(lit: int) -> int:
        return lit + shift if lit > 0 else lit - shift

    model = BoolModel(num_vars=shift + relaxed.num_vars)
    model.clauses = [*exact.clauses, *(tuple(map(moved, c)) for c in relaxed.clauses)]
    model.linear = [*exact.linear, *(Linear(tuple(map(moved, c.lits)), c.weights, c.op, c.bound, c.name)
                                     for c in relaxed.linear)]
    for word, found in encoding.found_vars.items():
        model.add_clause([-found, moved(counting.found[word])])
    cells_of: dict[str, list[int]] = {}
    for table in encoding.letter_vars:
        for letter, var in table.items():
            cells_of.setdefault(letter if letter in counting.cells else OTHER, []).append(var)
    size = question.board.size
    for (letter, k), at_least_k in counting.at_least.items():
        cells = cells_of.get(letter, [])
        weights = [1] * len(cells)
        model.add_linear([*cells, moved(at_least_k)], [*weights, -k], ">=", 0)
        model.add_linear([*cells, moved(at_least_k)], [*weights, -size], "<=", k - 1)
    return compile_cnf(model).clauses


def main() -> None:
    """Parse the options, ask, print."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--awards", nargs="*", default=[], metavar="KEY")
    parser.add_argument("--at-least", type=int, required=True, metavar="N")
    parser.add_argument("--counts", choices=["unary", "binary"], default="unary")
    parser.add_argument("--seconds", type=float, default=600.0)
    parser.add_argument("--proof", action="store_true", help="log CaDiCaL's DRUP proof and check it twice")
    parser.add_argument("--exact", action="store_true",
                        help="the exact model with the unary relaxation linked in (--counts is then ignored)")
    args = parser.parse_args()
    started = time.monotonic()
    if args.exact:
        clauses, form = linked_clauses(args.awards, args.at_least), "exact model and unary"
    else:
        clauses, form = relaxation_clauses(args.awards, args.at_least, args.counts == "unary"), args.counts
    variables = max(abs(lit) for clause in clauses for lit in clause)
    print(f"{form} counts: {variables:,} variables, {len(clauses):,} clauses "
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
