"""Write a BoolModel for other tools: DIMACS CNF, WCNF, LP and MPS.

* **DIMACS CNF**: the clauses plus every linear constraint compiled by :mod:`exactgrid.cnf`
  (variables ``1..num_vars`` are the model's, auxiliaries follow). The objective, if any,
  is left out: a CNF file asks a decision question.
* **WCNF** (the MaxSAT evaluation's 2022+ format: ``h`` before hard clauses, a weight before
  soft ones): the same hard clauses, and one soft unit clause per objective literal with its
  weight, so a MaxSAT solver minimising the falsified weight maximises the objective.
* **LP / MPS**: the PuLP translation of :func:`exactgrid.ilp_model.to_pulp` (binaries,
  clauses as ``sum >= 1``, linear constraints with their weights, objective maximised).

Variable names are written as comments (``c var 17 x_r1c1_A``) so that a solution from an
outside solver can be read back by hand.
"""

from __future__ import annotations

from pathlib import Path
from typing import TextIO

from .cnf import compile_cnf
from .ilp_model import to_pulp
from .inputs import no_stuck_fifo
from .model import BoolModel


def _names(model: BoolModel, out: TextIO) -> None:
    for var, name in sorted(model.names.items()):
        out.write(f"c var {var} {name}\n")


def write_dimacs(model: BoolModel, path: str | Path) -> int:
    """Write the model (without its objective) as DIMACS CNF; return the number of clauses."""
    compiled = compile_cnf(model)
    with no_stuck_fifo(path), open(path, "w", encoding="ascii") as out:
        out.write(f"c exactgrid model: {model.num_vars} model variables, {compiled.top} in all\n")
        _names(model, out)
        out.write(f"p cnf {compiled.top} {len(compiled.clauses)}\n")
        for clause in compiled.clauses:
            out.write(" ".join(map(str, clause)) + " 0\n")
    return len(compiled.clauses)


def write_wcnf(model: BoolModel, path: str | Path) -> int:
    """Write the model as WCNF (hard clauses ``h``; the objective as weighted soft units).

    Returns the number of clauses written, hard and soft.
    """
    compiled = compile_cnf(model)
    soft = []
    if model.objective is not None:
        for lit, weight in zip(*model.objective, strict=True):
            if weight > 0:
                soft.append((weight, lit))
            elif weight < 0:
                soft.append((-weight, -lit))
    with no_stuck_fifo(path), open(path, "w", encoding="ascii") as out:
        out.write(f"c exactgrid model: {model.num_vars} model variables, {compiled.top} in all\n")
        _names(model, out)
        for clause in compiled.clauses:
            out.write("h " + " ".join(map(str, clause)) + " 0\n")
        for weight, lit in soft:
            out.write(f"{weight} {lit} 0\n")
    return len(compiled.clauses) + len(soft)


def write_lp(model: BoolModel, path: str | Path) -> None:
    """Write the model as a CPLEX LP file (through PuLP)."""
    problem, _ = to_pulp(model)
    with no_stuck_fifo(path):
        problem.writeLP(str(path))


def write_mps(model: BoolModel, path: str | Path) -> None:
    """Write the model as a free MPS file (through PuLP), with an ``OBJSENSE MAX`` section."""
    problem, _ = to_pulp(model)
    # an OBJSENSE MAX section, not PuLP's default "*SENSE" comment, which readers ignore
    # (and then minimise the objective)
    with no_stuck_fifo(path):
        problem.writeMPS(str(path), with_objsense=True)
