"""PySAT backends: CaDiCaL, Kissat, Glucose, MiniSat, or any PySAT solver by name.

The model is compiled to CNF by :mod:`exactgrid.cnf`. An objective is maximised by linear
SAT-UNSAT search on one incremental solver: after each model, ``objective >= best + 1`` is
added, until the solver says UNSAT (then the last model is optimal). Time limits hold for every
solver, each in the way its PySAT binding allows:

* CaDiCaL, Glucose, MiniSat and the other in-process solvers: conflict-budget chunks
  (``conf_budget`` + ``solve_limited``), sized to last about ``CHUNK_SECONDS``, watching the
  clock between chunks. Between chunks Python is in control, so Ctrl-C and SIGTERM stop the
  search within a chunk (CaDiCaL has no ``interrupt()``; a timer calling Glucose's
  ``interrupt()`` would leave the C code deaf to Ctrl-C until the time limit). Chunks run with
  PySAT's own SIGINT handler kept out of the way, so that SIGINT stays with Python (see
  :func:`~exactgrid.stopping.pysat_leaves_sigint_to_python`);
* Kissat (and Lingeling, which has no limited solve) ignore assumptions and cannot be resumed;
  Kissat aborts the process on a second solve after an unfinished one. They run one-shot in a
  child process (a fresh solver per search round) that is killed at the limit.
"""

from __future__ import annotations

import time
from collections.abc import Iterator

from ..model import BoolModel
from ..stopping import pysat_leaves_sigint_to_python, uncut_import
from .base import Backend, BackendError, ChildCall, Result, Session, Status, child_result

CHUNK_SECONDS = 0.2
"""Target length of one CaDiCaL conflict-budget chunk (the worst overshoot of a time limit)."""

_CHILD_ONLY = ("kissat", "lingeling")


def _strategy(solver_name: str) -> str:
    return "child" if solver_name.startswith(_CHILD_ONLY) else "budget"


def solve_in_chunks(solver, deadline: float | None, assumptions: tuple[int, ...] = ()) -> bool | None:
    """One call to the solver within the deadline: True, False, or None (out of time).

    The search runs in conflict-budget chunks resized to last about CHUNK_SECONDS each, so
    that Python regains control (for the clock and for signals) several times a second.
    """
    budget = 1000
    while True:
        remaining = None if deadline is None else deadline - time.monotonic()
        if remaining is not None and remaining <= 0:
            return None
        solver.conf_budget(budget)
        started = time.monotonic()
        # PySAT's own SIGINT handler longjmps out of the C solver; a Ctrl-C landing inside malloc
        # then deadlocks the process at the solver's delete (see pysat_leaves_sigint_to_python).
        # expect_interrupt=True keeps that handler away only in the bindings that honour it
        # (Glucose, MiniSat; not CaDiCaL), so it is kept away here for every solver: Python's
        # handler notes the signal, and KeyboardInterrupt comes when the chunk returns.
        with pysat_leaves_sigint_to_python():
            answer = solver.solve_limited(assumptions=list(assumptions), expect_interrupt=True)
        if answer is not None:
            return answer
        took = max(time.monotonic() - started, 1e-3)
        target = CHUNK_SECONDS if remaining is None else min(CHUNK_SECONDS, max(remaining - took, 1e-3))
        budget = int(min(max(budget * target / took, 100), budget * 4, 1_000_000))


def sat_search(solver_name: str, model: BoolModel, deadline: float | None, chunked: bool = True,
               fresh_solver_each_round: bool = False) -> Iterator[tuple]:
    """Linear SAT-UNSAT search; yields ``("sol", true_vars, value)`` then ``("done", status)``.

    ``chunked``: solve in conflict-budget chunks (in-process: the clock and signals are
    watched between them); else in one call (in a child process that is killed at the limit).

    ``status`` is the name of a :class:`Status`: OPTIMAL/SAT/UNSAT/UNKNOWN (the last when out
    of time; with a solution in hand the caller reports SAT).
    """
    from pysat.solvers import Solver

    from ..cnf import compile_cnf

    compiled = compile_cnf(model)
    builder = compiled.builder
    n = model.num_vars
    found = False

    def make():
        return Solver(name=solver_name, bootstrap_with=builder.clauses)

    solver = make()
    try:
        while True:
            answer = solve_in_chunks(solver, deadline) if chunked else solver.solve()
            if answer is None:
                yield ("done", Status.SAT.name if found else Status.UNKNOWN.name)
                return
            if not answer:
                yield ("done", Status.OPTIMAL.name if found else Status.UNSAT.name)
                return
            assignment = solver.get_model() or []
            true_vars = frozenset(lit for lit in assignment if 0 < lit <= n)
            found = True
            value = model.objective_value(true_vars)
            yield ("sol", true_vars, value)
            if model.objective is None:
                yield ("done", Status.SAT.name)
                return
            lits, weights = model.objective
            added = builder.add_linear(lits, weights, ">=", value + 1)
            if any(len(c) == 0 for c in added):
                yield ("done", Status.OPTIMAL.name)
                return
            if fresh_solver_each_round:
                solver.delete()
                solver = make()
            else:
                solver.append_formula(added)
    finally:
        solver.delete()


def child_search(solver_name: str, model: BoolModel, fresh_solver_each_round: bool) -> Iterator[tuple]:
    """:func:`sat_search` with no deadline, for a child process that is killed at the limit."""
    yield from sat_search(solver_name, model, None, False, fresh_solver_each_round)


EXTRA_PACKAGES = {"cryptosat": "pycryptosat"}
"""PySAT solvers that need a package of their own (PySAT wraps CryptoMiniSat through ``pycryptosat``)."""


class PySATBackend(Backend):
    """Any PySAT solver by its PySAT name (``pysat:<name>``, e.g. ``pysat:maplechrono``)."""

    name = "pysat"
    description = "PySAT solver chosen by name, objective by linear SAT-UNSAT search"
    solver_name = "cadical195"
    install_hint = "pip install 'python-sat>=1.9.dev16,<1.10'"

    def __init__(self, solver_name: str | None = None) -> None:
        if solver_name is not None and type(self) is not PySATBackend:
            raise BackendError(f"backend {self.name!r} takes no option; use pysat:{solver_name} for other solvers")
        if solver_name is not None:
            from pysat.solvers import SolverNames

            known = sorted(k for k in vars(SolverNames) if not k.startswith("_"))
            if solver_name not in known:
                raise BackendError(f"unknown PySAT solver {solver_name!r}; known: {', '.join(known)}")
            self.solver_name = solver_name
            self.name = f"pysat:{solver_name}"
            self.description = f"PySAT {solver_name}"
            if solver_name in EXTRA_PACKAGES:  # PySAT has it, through another package
                self.install_hint = f"pip install {EXTRA_PACKAGES[solver_name]}"

    @property
    def capabilities(self) -> frozenset[str]:  # type: ignore[override]
        """Decide, optimise and prove; in-process solvers also keep sessions with assumptions."""
        if _strategy(self.solver_name) == "child":
            return frozenset({"decide", "optimise", "prove", "child-process"})
        return frozenset({"decide", "optimise", "prove", "in-process", "incremental", "assumptions"})

    def open_session(self, model: BoolModel, seed: int = 0) -> Session:
        """An incremental in-process session (CaDiCaL, Glucose, MiniSat, ...), or for Kissat and
        Lingeling (which cannot resume) the re-solving fallback in a child process."""
        if _strategy(self.solver_name) == "child":
            return super().open_session(model, seed)
        if not self.available():
            raise BackendError(f"backend {self.name!r} is not available here")
        return PySATSession(self.solver_name, model, self.name)

    def available(self) -> bool:
        """Whether PySAT imports and can create this solver."""
        try:
            solvers = uncut_import("pysat.solvers")  # a Ctrl-C is no failure of the import
            with solvers.Solver(name=self.solver_name):
                return True
        except Exception:  # noqa: BLE001 - any failure means "not here"
            return False

    def version(self) -> str | None:
        """PySAT's version and the solver's PySAT name."""
        try:
            import pysat
        except ImportError:
            return None
        return f"python-sat {pysat.__version__} ({self.solver_name})"

    def _solve(self, model: BoolModel, time_limit: float | None, seed: int) -> Result:
        strategy = _strategy(self.solver_name)
        if strategy == "child":
            from ._child import run_child

            target, args = self.child_call(model, time_limit, seed)
            messages, finished, died = run_child(target, args, time_limit, grace=0.0)
            return child_result(self.read_child(model, messages, finished), died)
        deadline = None if time_limit is None else time.monotonic() + time_limit
        messages = list(sat_search(self.solver_name, model, deadline))
        return self.read_child(model, messages, True)

    def child_call(self, model: BoolModel, time_limit: float | None, seed: int) -> ChildCall:
        """Linear SAT-UNSAT search in a child (Kissat and Lingeling: a fresh solver each round)."""
        fresh = _strategy(self.solver_name) == "child"
        return child_search, (self.solver_name, model, fresh)

    def read_child(self, model: BoolModel, messages: list[tuple], finished: bool) -> Result:
        """The best solution the search yielded, with its status (SAT when cut off)."""
        return _result_from(messages, finished, model)


def _result_from(messages: list[tuple], finished: bool, model: BoolModel) -> Result:
    best = None
    status = Status.UNKNOWN
    for message in messages:
        if message[0] == "sol":
            best = message
        elif message[0] == "done":
            status = Status[message[1]]
    if not finished:
        status = Status.SAT if best is not None else Status.UNKNOWN
    if status == Status.SAT and model.objective is None and best is None:
        status = Status.UNKNOWN
    detail = "time limit reached" if not finished or status == Status.UNKNOWN else ""
    if status in (Status.UNSAT, Status.UNKNOWN):
        return Result(status, detail=detail)
    return Result(status, true_vars=best[1], objective=best[2] if model.objective else None,
                  detail=detail if status == Status.SAT and model.objective else "")


class Cadical(PySATBackend):
    """CaDiCaL 1.9.5 through PySAT."""

    name = "cadical"
    description = "CaDiCaL 1.9.5 (PySAT cadical195); time limit by conflict-budget chunks"
    solver_name = "cadical195"


class Kissat(PySATBackend):
    """Kissat 4.0.4 through PySAT, one-shot in a child process."""

    name = "kissat"
    description = "Kissat 4.0.4 (PySAT kissat404); one-shot child process, killed at the limit"
    solver_name = "kissat404"


class Glucose(PySATBackend):
    """Glucose 4 through PySAT."""

    name = "glucose"
    description = "Glucose 4.1 (PySAT glucose4); time limit by conflict-budget chunks"
    solver_name = "glucose4"


class Minisat(PySATBackend):
    """MiniSat 2.2 through PySAT."""

    name = "minisat"
    description = "MiniSat 2.2 (PySAT minisat22); time limit by conflict-budget chunks"
    solver_name = "minisat22"


class PySATSession(Session):
    """One incremental PySAT solver on a model: clauses added stay, assumptions hold for one
    call, learnt clauses carry over, and UNSAT comes with the solver's core (``get_core``).
    Time limits and Ctrl-C work as in :func:`solve_in_chunks` (conflict-budget chunks)."""

    def __init__(self, solver_name: str, model: BoolModel, backend_name: str) -> None:
        from pysat.solvers import Solver

        from ..cnf import compile_cnf

        super().__init__(model)
        self.backend_name = backend_name
        self._solver = Solver(name=solver_name, bootstrap_with=compile_cnf(model).clauses)

    def _add_clause(self, clause: tuple[int, ...]) -> None:
        self._solver.add_clause(list(clause))

    def _solve(self, assumptions: tuple[int, ...], time_limit: float | None) -> Result:
        deadline = None if time_limit is None else time.monotonic() + time_limit
        answer = solve_in_chunks(self._solver, deadline, assumptions)
        if answer is None:
            return Result(Status.UNKNOWN, detail="time limit reached")
        if not answer:
            return Result(Status.UNSAT, core=tuple(self._solver.get_core() or ()))
        n = self.model.num_vars
        model = self._solver.get_model() or []
        # PySAT lists variable v at index v-1: the model's variables come first
        return Result(Status.SAT, true_vars=frozenset(filter((0).__lt__, model[:n])))

    def close(self) -> None:
        """Delete the solver."""
        if self._solver is not None:
            self._solver.delete()
            self._solver = None
