"""OR-Tools CP-SAT as an exactgrid backend (a plugin: the core does not know this package).

CP-SAT runs in a child process (the backend gives ``child_call`` and ``read_child``; the
base class runs the call in a fresh interpreter killed at the time limit, and the portfolio
can race it against other backends), for two reasons. OR-Tools
bundles its own HiGHS library, and in one process it and the ``highspy`` package (which PuLP
imports whenever it is installed) break each other's imports with undefined symbols; a fresh
interpreter that imports only this module and OR-Tools never meets highspy. And a child is
killed at the time limit for sure, whatever the solver does.
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
from collections.abc import Iterator

from exactgrid.backends import Backend, BackendError, Result, Status
from exactgrid.model import BoolModel

__all__ = ["CpSat"]


class CpSat(Backend):
    """CP-SAT (Google OR-Tools): one Boolean per model variable, linear constraints as they are."""

    name = "cpsat"
    description = "OR-Tools CP-SAT (plugin exactgrid-cpsat); time limit by its own parameter"
    capabilities = frozenset({"decide", "optimise", "prove", "child-process"})
    install_hint = "pip install 'ortools>=9.10,<10'"

    def __init__(self, workers: str | None = None) -> None:
        self.workers = 1
        if workers is not None:
            if not workers.isdigit() or not 1 <= int(workers) <= 64:
                raise BackendError(f"cpsat:{workers}: the option is the number of search workers, 1 to 64")
            self.workers = int(workers)
            self.name = f"cpsat:{workers}"

    def available(self) -> bool:
        """Whether OR-Tools is installed (found, not imported: see the module docstring)."""
        return importlib.util.find_spec("ortools") is not None

    def version(self) -> str | None:
        """OR-Tools' version."""
        try:
            return f"OR-Tools {importlib.metadata.version('ortools')}"
        except importlib.metadata.PackageNotFoundError:
            return None

    def child_call(self, model: BoolModel, time_limit: float | None, seed: int):
        """CP-SAT in a child process (exactgrid runs it there, killed at the time limit)."""
        return _solve_in_child, (model, time_limit, seed, self.workers)

    def read_child(self, model: BoolModel, messages: list[tuple], finished: bool) -> Result:
        """The child's one message: ``("done", status name, true variables, bound)``."""
        if not finished:
            return Result(Status.UNKNOWN, detail="time limit reached (CP-SAT killed)")
        _, status, true_vars, bound = messages[-1]
        if status == "INFEASIBLE":
            return Result(Status.UNSAT)
        if status not in ("OPTIMAL", "FEASIBLE"):
            return Result(Status.UNKNOWN, detail=f"CP-SAT: {status}")
        if model.objective is None:
            return Result(Status.SAT, true_vars=true_vars)
        if status == "OPTIMAL":
            return Result(Status.OPTIMAL, true_vars=true_vars)
        return Result(Status.SAT, true_vars=true_vars, bound=bound, detail="time limit reached")


def _solve_in_child(model: BoolModel, time_limit: float | None, seed: int, workers: int) -> Iterator[tuple]:
    """Runs in the child: solve, then yield ``("done", status name, true variables, bound)``."""
    from ortools.sat.python import cp_model

    cp, variables = to_cp_model(model)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = workers
    solver.parameters.random_seed = int(seed)
    if time_limit is not None:
        solver.parameters.max_time_in_seconds = max(float(time_limit), 1e-3)
    status = solver.solve(cp)
    name = solver.status_name(status)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        yield ("done", name, None, None)
        return
    true_vars = frozenset(v for v, x in variables.items() if solver.boolean_value(x))
    bound = int(solver.best_objective_bound + 1e-6) if model.objective is not None else None
    if bound is not None and abs(bound) > 2**53:  # CP-SAT gives it as a double: it may lie below the true bound
        bound = None
    yield ("done", name, true_vars, bound)


def to_cp_model(model: BoolModel):
    """The model as a CP-SAT ``CpModel`` and its Booleans ``{model variable: BoolVar}``."""
    from ortools.sat.python import cp_model

    cp = cp_model.CpModel()
    variables = {v: cp.new_bool_var(model.names.get(v, f"x{v}")) for v in range(1, model.num_vars + 1)}

    def literal(lit: int):
        return variables[lit] if lit > 0 else variables[-lit].Not()

    for clause in model.clauses:
        cp.add_bool_or([literal(lit) for lit in clause])
    for con in model.linear:
        expr = sum(w * literal(lit) for lit, w in zip(con.lits, con.weights, strict=True))
        if con.op == "<=":
            cp.add(expr <= con.bound)
        elif con.op == ">=":
            cp.add(expr >= con.bound)
        else:
            cp.add(expr == con.bound)
    if model.objective is not None:
        lits, weights = model.objective
        cp.maximize(sum(w * literal(lit) for lit, w in zip(lits, weights, strict=True)))
    return cp, variables
