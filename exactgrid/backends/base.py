"""The backend contract: ``Status``, ``Result``, ``Backend`` and the errors.

A backend turns a :class:`~exactgrid.model.BoolModel` into an answer. Subclasses implement
:meth:`Backend._solve`; the public :meth:`Backend.solve` wraps it, times it, and checks every
assignment it returns against the model (and recomputes the objective), so a solver or
encoding bug surfaces as :class:`SolverDisagreement` instead of as a wrong answer.
"""

from __future__ import annotations

import enum
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from ..inputs import InputError
from ..model import BoolModel
from ..stopping import DeadlinePassed
from ._child import DIED, ChildFailed

ChildCall = tuple[Callable[..., Iterator[tuple]], tuple[Any, ...]]
"""A module-level generator function and its arguments, to be run in a child process."""


CAPABILITIES = {
    "decide": "answers satisfiable or not",
    "optimise": "maximises an objective, with a proven bound; without it, a model with an "
                "objective is refused",
    "prove": "proves UNSAT and optimality (not only finds solutions); without it, an UNSAT or "
             "OPTIMAL it returns is read as UNKNOWN or SAT, and its bound as none",
    "in-process": "solves in this process (no child interpreter to start)",
    "incremental": "a session keeps what the solver learnt between calls",
    "assumptions": "a session solves under assumptions and returns a core on UNSAT",
    "child-process": "solves in a child process killed at the time limit",
}
"""The capability names a backend may declare, and what each means."""


class Status(enum.Enum):
    """How a solve ended."""

    SAT = "sat"            # an assignment was found (when optimising: not proven optimal)
    OPTIMAL = "optimal"    # an assignment was found and proven optimal
    UNSAT = "unsat"        # proven: no assignment satisfies the model
    UNKNOWN = "unknown"    # gave up (time limit) without an assignment


class BackendError(InputError):
    """A backend cannot be had: unknown name, or not installed/available here (one line)."""


class BackendFailed(BackendError):
    """A backend's solver raised an exception (a broken install, say): one line naming the
    backend and the exception; the exception (a :class:`~exactgrid.backends._child.ChildFailed`
    with the child's whole traceback, when it failed in a child) is its ``__cause__``."""

    def __init__(self, backend: str, reason: str) -> None:
        super().__init__(f"backend {backend!r} failed: {reason}")
        self.backend = backend
        self.reason = reason

    def __reduce__(self) -> tuple:
        # rebuilt from both arguments when a pool worker sends it back (else the pool breaks)
        return (BackendFailed, (self.backend, self.reason))


def failed(backend: str, exc: ChildFailed) -> BackendError:
    """The one-line :class:`BackendFailed` for a child's failure, caused by it; when the child
    refused the model (an :class:`~exactgrid.inputs.InputError`), a :class:`BackendError`
    with the refusal's own message."""
    error = BackendError(exc.refusal) if exc.refusal is not None else BackendFailed(backend, exc.reason)
    error.__cause__ = exc
    return error


class SolverDisagreement(AssertionError):
    """A backend returned an assignment the model rejects, or misreported its objective: a bug."""


@dataclass(frozen=True)
class Result:
    """The outcome of :meth:`Backend.solve`.

    ``true_vars`` is the set of *model* variables set true (auxiliary encoding variables are
    dropped); it is ``None`` unless the status is SAT or OPTIMAL. ``objective`` is the
    objective's value under that assignment (``None`` without an objective or assignment).
    ``bound`` is the best proven upper bound on the objective when optimising (equal to
    ``objective`` when OPTIMAL; ``None`` when the backend proved nothing).
    """

    status: Status
    true_vars: frozenset[int] | None = None
    objective: int | None = None
    bound: int | None = None
    seconds: float = 0.0
    backend: str = ""
    detail: str = ""
    core: tuple[int, ...] | None = None
    """After an UNSAT answer under assumptions (:meth:`Session.solve`): assumptions that
    together cannot hold (a subset of those given; all of them from a one-shot backend)."""

    @property
    def found(self) -> bool:
        """Whether an assignment came back (SAT or OPTIMAL)."""
        return self.status in (Status.SAT, Status.OPTIMAL)


class Backend:
    """Base class of every backend. Subclass it, set the class attributes, implement ``_solve``.

    Either implement ``_solve`` (in-process), or ``child_call`` and ``read_child`` (run in a
    child process killed at the time limit, and raceable in the portfolio). The plugin in
    ``plugins/exactgrid-cpsat`` is a complete, small example of the second kind.
    """

    name: ClassVar[str] = "abstract"
    description: ClassVar[str] = ""
    capabilities: ClassVar[frozenset[str]] = frozenset()
    """What it can do, from :data:`CAPABILITIES`."""
    install_hint: ClassVar[str] = ""
    """What to install when ``available()`` is False, as a command (``pip install 'highspy>=1.8,<2'``)."""
    floating_point: ClassVar[str] = ""
    """The solver's name (``"HiGHS"``) when it computes in floating point, as MIP solvers do:
    :meth:`solve` then refuses, before solving, a model whose weights it could not add exactly
    (:func:`check_float_exact`). Empty for a solver exact on whole numbers (SAT, CP)."""

    def available(self) -> bool:
        """Whether the solver can run here. Import the solver package lazily, inside this method."""
        return False

    def version(self) -> str | None:
        """The solver's version string, or ``None`` when unknown or unavailable."""
        return None

    def _solve(self, model: BoolModel, time_limit: float | None, seed: int) -> Result:
        """Solve ``model``; the subclass's work. ``solve`` checks what this returns.

        The default runs :meth:`child_call` in a child process killed at the time limit and
        reads its messages with :meth:`read_child`; override it to solve in-process instead.
        """
        call = self.child_call(model, time_limit, seed)
        if call is None:
            raise NotImplementedError(f"backend {self.name!r} implements neither _solve nor child_call")
        from ._child import run_child

        messages, finished, died = run_child(call[0], call[1], time_limit)
        return child_result(self.read_child(model, messages, finished), died)  # solve() reads it as declared

    def child_call(self, model: BoolModel, time_limit: float | None, seed: int) -> ChildCall | None:
        """How to solve ``model`` in a child process, or None when this backend cannot.

        A pair ``(generator function, args)``: a module-level generator function (so that a
        fresh interpreter can import it) that yields picklable messages, the last one starting
        with ``"done"``. The portfolio races such calls; :meth:`read_child` reads them.
        """
        return None

    def read_child(self, model: BoolModel, messages: list[tuple], finished: bool) -> Result:
        """The :class:`Result` that :meth:`child_call`'s messages describe (``finished`` False:
        no ``"done"`` message came, the child killed at the time limit or ended without one, so
        only its intermediate messages are here)."""
        raise NotImplementedError

    def open_session(self, model: BoolModel, seed: int = 0) -> Session:
        """A :class:`Session` on ``model``: add clauses, solve under assumptions, read cores.

        The default re-solves from scratch for every call (the model plus the assumptions as
        unit clauses, through :meth:`solve`); its core is every assumption given. Backends
        with an incremental solver override this (see :class:`~exactgrid.backends.sat.PySATSession`).
        """
        if not self.available():
            raise BackendError(not_available_message(self))
        return ResolvingSession(self, model, seed)

    def accept(self, model: BoolModel) -> None:
        """Raise :class:`BackendError` (one line) when this backend cannot answer ``model`` as it
        declares itself: an objective without ``optimise``, or weights beyond its floating point
        (:attr:`floating_point`). :meth:`solve` and the portfolio's race ask it first."""
        if model.objective is not None and "optimise" not in self.capabilities:
            raise BackendError(f"backend {self.name!r} cannot optimise (it does not declare 'optimise'); "
                               "name one that can, e.g. cadical or highs")
        if self.floating_point:
            check_float_exact(model, self.floating_point)

    def read_result(self, model: BoolModel, messages: list[tuple], finished: bool) -> Result:
        """:meth:`read_child`'s result, read as the backend's capabilities allow (without
        ``prove``, no UNSAT, OPTIMAL or bound: :func:`unproven`); what the portfolio's race and
        ``fit``'s race beside counting read. A failure of ``read_child`` is a
        :class:`BackendFailed` naming the backend, as in :meth:`solve`."""
        result = self._answered(lambda: self.read_child(model, messages, finished))
        return result if "prove" in self.capabilities else unproven(result, self.name)

    def _answered(self, call: Callable[[], Result]) -> Result:
        """What ``call`` (the backend's own code) returns, checked to be a :class:`Result`; an
        exception it raises, a :class:`BackendFailed` naming the backend, but for those that
        belong elsewhere: bad input and refusals (``InputError``), exactgrid's own checks
        (``SolverDisagreement``), the time limit, and the machine (``OSError``, ``MemoryError``)."""
        try:
            result = call()
        except ChildFailed as exc:
            raise failed(self.name, exc) from exc
        except (InputError, SolverDisagreement, DeadlinePassed, OSError, MemoryError):
            raise
        except Exception as exc:  # noqa: BLE001 - a plugin's bug is one line naming it, not exactgrid's traceback
            raise BackendFailed(self.name, f"{type(exc).__name__}: {exc}") from exc
        if not isinstance(result, Result) or not isinstance(result.status, Status):
            raise BackendFailed(self.name, f"it returned {type(result).__name__} {result!r:.80}, not a Result "
                                           "with a Status")
        return result

    def solve(self, model: BoolModel, time_limit: float | None = None, seed: int = 0) -> Result:
        """Solve ``model`` within ``time_limit`` seconds (``None``: no limit) and check the answer.

        Returns a :class:`Result` whose SAT/OPTIMAL assignment has been checked with
        ``model.satisfied_by`` and whose objective has been recomputed from it. Raises
        :class:`BackendError` if the backend is not available or refuses the model (:meth:`accept`,
        or in its own code, in a child process too), :class:`BackendFailed` (one of them) if its
        solver raised any other exception or returned no :class:`Result`, in this process or a
        child, and :class:`SolverDisagreement` if the solver's answer does not hold up. Without
        ``prove`` declared, the answer is read as :func:`unproven`.
        """
        if not self.available():
            raise BackendError(not_available_message(self))
        self.accept(model)
        if time_limit is not None and time_limit < 0:
            time_limit = 0.0
        started = time.monotonic()
        result = self._answered(lambda: self._solve(model, time_limit, seed))
        elapsed = time.monotonic() - started
        result = replace(result, seconds=elapsed, backend=result.backend or self.name)
        result = check_result(model, result)
        return result if "prove" in self.capabilities else unproven(result, self.name)


def unproven(result: Result, backend: str) -> Result:
    """``result`` from ``backend``, which does not declare ``prove``: an UNSAT is no proof
    (UNKNOWN), an OPTIMAL no proven optimum (SAT), and a bound no proven bound (none)."""
    if result.status == Status.UNSAT:
        return replace(result, status=Status.UNKNOWN, detail=f"{backend} answered UNSAT but does not prove "
                                                                "(no 'prove' capability): no proof")
    if result.status == Status.OPTIMAL:
        return replace(result, status=Status.SAT, bound=None)
    return replace(result, bound=None) if result.bound is not None else result  # UNKNOWN stays UNKNOWN


FLOAT_EXACT_TOTAL = 500_000_000
"""The most that the weights of one constraint or of the objective may add up to for a solver
computing in floating point (HiGHS, CBC) to answer exactly. A binary may sit 1e-9 from 0 or 1
(their integrality tolerance), so weights adding up to more than 5e8 could move a sum by 0.5 or
more, and read back, a score or bound could be off by one or more (above 2**53, doubles drop
units altogether: a bound of 1e17 was once proven where a grid scores 1e17 + 3). The US states
add up to 330,759,736. A constraint's bound (a score to reach) is exact up to 2**53."""


class FloatingPointLimit(BackendError):
    """A model whose weights are too large for a MIP solver's floating point to answer exactly."""


def check_float_exact(model: BoolModel, solver: str) -> None:
    """:class:`FloatingPointLimit` when a constraint's or the objective's weights add up to more
    than :data:`FLOAT_EXACT_TOTAL`, or a constraint's bound is beyond 2**53."""
    largest = max((sum(map(abs, con.weights)) for con in model.linear), default=0)
    if model.objective is not None:
        largest = max(largest, sum(map(abs, model.objective[1])))
    bound = max((abs(con.bound) for con in model.linear), default=0)
    if bound > 2**53:
        raise FloatingPointLimit(f"{solver} computes in floating point, which holds whole numbers exactly up to 2**53; "
                                 f"this model has a bound of {bound:,}: use a SAT backend (kissat, cadical)")
    if largest > FLOAT_EXACT_TOTAL:
        raise FloatingPointLimit(
            f"{solver} computes in floating point, exact only while the weights of a constraint or of the objective "
            f"add up to at most {FLOAT_EXACT_TOTAL:,}; this model's add up to {largest:,}: use a SAT backend "
            "(kissat, cadical), or smaller weights")


def not_available_message(backend: Backend) -> str:
    """One line saying that ``backend`` cannot run here, and what to install so that it can."""
    hint = f"; install it with: {backend.install_hint}" if backend.install_hint else ""
    return f"backend {backend.name!r} is not available here ({backend.description or 'solver missing'}){hint}"


def child_result(result: Result, died: str | None) -> Result:
    """``result``, read from a child's messages, saying how the child died if it did (it would
    otherwise read as a time limit reached)."""
    return result if died is None else replace(result, detail=died)


def solver_died(result: Result) -> bool:
    """Whether ``result`` is that of a solver process that died (:func:`child_result`), not one
    that gave up at its time limit."""
    return result.detail.startswith(DIED)


def check_result(model: BoolModel, result: Result) -> Result:
    """Check a result against the model; return it with the objective recomputed.

    Raises :class:`SolverDisagreement` when an assignment violates the model, when a claimed
    objective differs from the recomputed one, or when a proven bound is below the objective.
    """
    if not result.found:
        if result.true_vars is not None:
            raise SolverDisagreement(f"{result.backend}: status {result.status.name} with an assignment")
        return result
    if result.true_vars is None:
        raise SolverDisagreement(f"{result.backend}: status {result.status.name} without an assignment")
    true_vars = frozenset(v for v in result.true_vars if 0 < v <= model.num_vars)
    if not model.satisfied_by(true_vars):
        raise SolverDisagreement(f"{result.backend}: returned an assignment that violates the model")
    if model.objective is None:
        if result.status == Status.OPTIMAL:
            result = replace(result, status=Status.SAT)
        return replace(result, true_vars=true_vars, objective=None, bound=None)
    value = model.objective_value(true_vars)
    if result.objective is not None and result.objective != value:
        raise SolverDisagreement(f"{result.backend}: claimed objective {result.objective}, assignment gives {value}")
    bound = result.bound
    if result.status == Status.OPTIMAL:
        if bound is not None and bound != value:
            raise SolverDisagreement(f"{result.backend}: OPTIMAL with bound {bound} != objective {value}")
        bound = value
    elif bound is not None and bound < value:
        raise SolverDisagreement(f"{result.backend}: proven bound {bound} below found objective {value}")
    return replace(result, true_vars=true_vars, objective=value, bound=bound)


class Session:
    """A solver open on one model, for many related questions (the CPMpy/PySAT way).

    ``add_clause`` adds constraints for good; ``solve(assumptions, time_limit)`` decides the
    model plus what was added under the given literals (held only for that call), returns a
    checked :class:`Result` (no objective: a session decides), and on UNSAT its ``core``,
    a subset of the assumptions that cannot all hold. Close it (or use ``with``) to free the
    solver.
    """

    backend_name: str = ""
    check_model: bool = False
    """Also check a SAT assignment against the whole model (its cost: docs/benchmarks.md, Fit).
    Off by default: the fit layer checks every grid with the finder, which is
    the referee; the assumptions and the added clauses are always checked."""

    def __init__(self, model: BoolModel) -> None:
        self.model = model
        self.added: list[tuple[int, ...]] = []
        self.calls = 0

    def add_clause(self, lits: Iterable[int]) -> None:
        """Add a clause over the model's variables, kept for every later call."""
        clause = tuple(lits)
        for lit in clause:
            if lit == 0 or abs(lit) > self.model.num_vars:
                raise ValueError(f"literal {lit} is not a variable of this model")
        self.added.append(clause)
        self._add_clause(clause)

    def _add_clause(self, clause: tuple[int, ...]) -> None:
        """Give the solver ``clause`` for good; the subclass's work (:meth:`add_clause` has
        checked its literals)."""
        raise NotImplementedError

    def solve(self, assumptions: Iterable[int] = (), time_limit: float | None = None) -> Result:
        """Decide the model under ``assumptions`` within ``time_limit`` seconds; the answer is
        checked against the model, the added clauses and the assumptions."""
        lits = tuple(assumptions)
        for lit in lits:
            if lit == 0 or abs(lit) > self.model.num_vars:
                raise ValueError(f"assumption {lit} is not a variable of this model")
        if time_limit is not None and time_limit < 0:
            time_limit = 0.0
        self.calls += 1
        started = time.monotonic()
        result = self._solve(lits, time_limit)
        result = replace(result, seconds=time.monotonic() - started, backend=result.backend or self.backend_name)
        return self._check(result, lits)

    def _solve(self, assumptions: tuple[int, ...], time_limit: float | None) -> Result:
        """Decide under ``assumptions`` within ``time_limit`` seconds; the subclass's work. On
        UNSAT, set the Result's ``core`` to the assumptions that cannot hold together (None:
        all of them). :meth:`solve` checks what this returns."""
        raise NotImplementedError

    def _check(self, result: Result, assumptions: tuple[int, ...]) -> Result:
        if result.status == Status.UNSAT:
            core = result.core if result.core is not None else assumptions
            if not set(core) <= set(assumptions):
                raise SolverDisagreement(f"{result.backend}: core {core} is not a subset of the assumptions")
            return replace(result, core=tuple(core), objective=None, bound=None)
        if not result.found:
            return replace(result, core=None)
        assert result.true_vars is not None
        true_vars = frozenset(v for v in result.true_vars if 0 < v <= self.model.num_vars)
        holds = all(any((lit > 0) == (abs(lit) in true_vars) for lit in clause)
                    for clause in (*self.added, *((a,) for a in assumptions)))
        if not holds or (self.check_model and not self.model.satisfied_by(true_vars)):
            raise SolverDisagreement(f"{result.backend}: session assignment violates the model or its assumptions")
        return replace(result, status=Status.SAT, true_vars=true_vars, objective=None, bound=None, core=None)

    def close(self) -> None:
        """Free the solver (idempotent)."""

    def __enter__(self) -> Session:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class ResolvingSession(Session):
    """The fallback session for one-shot backends (Kissat, CBC, HiGHS, the portfolio, ...):
    every call solves a fresh copy of the model, the added clauses and the assumptions as
    unit clauses, through :meth:`Backend.solve` (in a child process where the backend uses
    one). Nothing is learnt between calls, and a core is every assumption given."""

    def __init__(self, backend: Backend, model: BoolModel, seed: int = 0) -> None:
        super().__init__(model)
        self.backend = backend
        self.backend_name = backend.name
        self.seed = seed

    def _add_clause(self, clause: tuple[int, ...]) -> None:
        """Nothing: the clause is kept in ``added`` and replayed on every call."""

    def _solve(self, assumptions: tuple[int, ...], time_limit: float | None) -> Result:
        """A fresh copy of the model, the added clauses and the assumptions as unit clauses,
        through :meth:`Backend.solve`."""
        model = BoolModel(self.model.num_vars, [*self.model.clauses, *self.added, *((a,) for a in assumptions)],
                          list(self.model.linear), None, self.model.names, self.model.literals)
        return self.backend.solve(model, time_limit=time_limit, seed=self.seed)
