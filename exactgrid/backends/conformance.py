"""Hold a backend to brute force: what a plugin's author runs before trusting it.

``check_backend(name)`` (``exactgrid backends --check NAME``) asks the backend small random
models, each small enough to answer by trying every assignment (at most 2**10), and compares:

* a model to decide: SAT where some assignment satisfies it, UNSAT where none does;
* a model to optimise (when the backend declares ``optimise``): the optimum, UNSAT where
  nothing is feasible, and no proven bound below the best assignment.

Every answer goes through :meth:`Backend.solve`, which checks assignments against the model, so
a wrong assignment is caught there (a :class:`SolverDisagreement`); what brute force adds is
the check of what ``solve`` must take on the backend's word: UNSAT, OPTIMAL and bounds. An
UNKNOWN is counted as undecided, not as a disagreement; a backend that fails on a model (a
:class:`BackendError`) disagrees there. Then a pigeonhole formula, which CDCL solvers do not
refute in a second (MIP solvers may), is asked with a 1 s time limit, and the seconds it took
are reported; coming back more than :data:`OVERRUN_SECONDS` late is a disagreement. (An
in-process backend that ignores its time limit holds the check up: nothing can stop it.)

The models use every part of the contract: clauses, linear rows with each comparison,
negative and repeated literals in rows and objectives, and a model with no variables (and, to
optimise, an empty objective). The models to optimise are drawn feasible, so that each checks
an optimum.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from typing import Any

from ..answer import Answer, Outcome
from ..inputs import check_flag, check_kind, check_seconds, check_seed, check_whole
from ..model import BoolModel
from ..stopping import interruption
from ..wording import plural
from .base import Backend, BackendError, SolverDisagreement, Status
from .registry import get_backend

MAX_VARIABLES = 10
"""The most variables of a random model: brute force tries 2**10 assignments at most."""

TIME_LIMIT_ASKED = 1.0
"""The time limit of the pigeonhole question (seconds)."""

UNDECIDED = "undecided"
"""What :func:`disagreement` says of an answer that decided nothing (UNKNOWN)."""

OVERRUN_SECONDS = 10.0
"""How long after :data:`TIME_LIMIT_ASKED` a backend may come back before the check calls it a
disagreement (generous: a child process's start on a loaded machine takes seconds)."""


@dataclass(frozen=True)
class BackendCheck(Answer):
    """How a backend answered random models that brute force answers too (:func:`check_backend`).

    ``outcome`` is FITS when it agreed on every model it decided, DOES_NOT_FIT when it
    disagreed on one (``disagreements`` says how), UNKNOWN when it decided none or was stopped.
    """

    backend: str
    asked: int
    undecided: int
    agreed: int = 0
    """Random models decided as brute force decides them."""
    disagreements: tuple[str, ...] = ()
    time_limit_seconds: float | None = None
    """How long the pigeonhole question with a 1 s time limit took (None: not asked)."""
    time_limit_status: str = ""
    seconds: float = 0.0
    stopped_by: str | None = None

    @property
    def outcome(self) -> Outcome:  # type: ignore[override]
        """FITS (agrees), DOES_NOT_FIT (disagrees somewhere) or UNKNOWN (nothing decided)."""
        if self.disagreements:
            return Outcome.DOES_NOT_FIT
        if self.stopped_by is not None or self.asked == self.undecided:
            return Outcome.UNKNOWN
        return Outcome.FITS

    def text(self) -> str:
        """PASS/FAIL with the counts, the disagreements (the first few) and the time limit."""
        head = {Outcome.FITS: "PASS", Outcome.DOES_NOT_FIT: "FAIL", Outcome.UNKNOWN: "UNKNOWN"}[self.outcome]
        decided = self.asked - self.undecided
        lines = [f"{head}: backend {self.backend!r} agrees with brute force on {self.agreed} of the "
                 f"{plural(decided, 'random model')} it decided ({self.undecided} undecided of {self.asked} asked)"]
        lines += [f"  disagrees: {d}" for d in self.disagreements[:5]]
        if len(self.disagreements) > 5:
            lines.append(f"  and {len(self.disagreements) - 5} more")
        if self.time_limit_seconds is not None:
            lines.append(f"time limit: a pigeonhole model asked with {TIME_LIMIT_ASKED:g} s came back after "
                         f"{self.time_limit_seconds:.2f} s ({self.time_limit_status})")
        if self.stopped_by is not None:
            lines.append(f"stopped: {self.stopped_by}")
        return "\n".join(lines)

    def to_dict(self) -> dict[str, Any]:
        """The contract's keys, then backend, asked, undecided, disagreements and the time
        limit's seconds and status."""
        return {**self.contract_dict(), "passed": self.outcome == Outcome.FITS, "backend": self.backend,
                "asked": self.asked, "undecided": self.undecided, "agreed": self.agreed,
                "disagreements": list(self.disagreements),
                "time_limit_seconds": None if self.time_limit_seconds is None else round(self.time_limit_seconds, 3),
                "time_limit_status": self.time_limit_status}


def random_model(rng: random.Random, optimise: bool) -> BoolModel:
    """A small model using every part of the contract (at most :data:`MAX_VARIABLES` variables);
    to ``optimise``, one with an objective that some assignment satisfies."""
    for _ in range(100):
        model = _draw(rng, optimise)
        if not optimise or brute_force(model)[0]:
            return model
    return model  # pragma: no cover - one in two or three draws is feasible


def empty_model(optimise: bool) -> BoolModel:
    """No variables: nothing to decide (SAT, the empty assignment); to ``optimise``, an empty
    objective, whose optimum is 0."""
    model = BoolModel()
    if optimise:
        model.maximise([], [])
    return model


def _draw(rng: random.Random, optimise: bool) -> BoolModel:
    model = BoolModel()
    variables = model.new_vars(rng.randint(1, MAX_VARIABLES))

    def literal() -> int:
        return rng.choice(variables) * rng.choice((1, -1))

    for _ in range(rng.randint(0, 2 * len(variables))):
        model.add_clause([literal() for _ in range(rng.randint(1, 3))])
    for _ in range(rng.randint(0, 3)):
        lits = [literal() for _ in range(rng.randint(1, 4))]
        weights = [rng.randint(-3, 5) for _ in lits]
        reach = sum(abs(w) for w in weights)
        model.add_linear(lits, weights, rng.choice(("<=", ">=", "==")), rng.randint(-reach, reach))
    if optimise:
        lits = [literal() for _ in range(rng.randint(1, len(variables) + 1))]
        model.maximise(lits, [rng.randint(-10, 20) for _ in lits])
    return model


def brute_force(model: BoolModel) -> tuple[bool, int | None]:
    """Whether some assignment satisfies ``model``, and the best objective among those (None
    without an objective or a satisfying assignment)."""
    feasible, best = False, None
    for mask in range(2 ** model.num_vars):
        true_vars = {v for v in range(1, model.num_vars + 1) if mask >> (v - 1) & 1}
        if model.satisfied_by(true_vars):
            feasible = True
            if model.objective is None:
                return True, None
            value = model.objective_value(true_vars)
            best = value if best is None else max(best, value)
    return feasible, best


def disagreement(backend: Backend, model: BoolModel, time_limit: float) -> str | None:
    """How ``backend``'s answer to ``model`` contradicts brute force; None when it agrees, and
    :data:`UNDECIDED` when it did not decide."""
    feasible, best = brute_force(model)
    try:
        result = backend.solve(model, time_limit=time_limit)
    except SolverDisagreement as exc:
        return f"{exc}"
    except BackendError as exc:
        return f"failed: {exc}"
    if result.status == Status.UNSAT:
        return "UNSAT, but an assignment satisfies the model" if feasible else None
    if result.status == Status.UNKNOWN:
        return UNDECIDED
    if model.objective is None:
        return None  # an assignment came back and solve() checked it
    assert best is not None  # an assignment satisfies the model: solve() checked it
    if result.status == Status.OPTIMAL and result.objective != best:
        return f"OPTIMAL {result.objective}, but an assignment scores {best}"
    if result.bound is not None and result.bound < best:
        return f"a proven bound {result.bound}, but an assignment scores {best}"
    return None


def pigeonhole(holes: int = 9) -> BoolModel:
    """``holes + 1`` pigeons in ``holes`` holes, each hole holding one at most: unsatisfiable,
    and hard for resolution (CaDiCaL and Glucose take far more than a second at 9 holes;
    Kissat and the MIP solvers, with their own reasoning about it, may not)."""
    model = BoolModel()
    sits = [model.new_vars(holes) for _ in range(holes + 1)]
    for pigeon in sits:
        model.add_clause(pigeon)
    for hole in range(holes):
        for i in range(holes + 1):
            for j in range(i + 1, holes + 1):
                model.add_clause([-sits[i][hole], -sits[j][hole]])
    return model


def check_backend(backend: str | Backend, models: int = 60, seed: int = 0, time_limit: float = 10.0,
                  check_time_limit: bool = True) -> BackendCheck:
    """Ask ``backend`` (a name or a :class:`Backend`) ``models`` random models, half to decide
    and half to optimise when it declares ``optimise`` (else all to decide), each with
    ``time_limit`` seconds, and compare with brute force; then, with ``check_time_limit``, one
    pigeonhole model with a 1 s limit. Ctrl-C or SIGTERM stops it with what was checked.

    >>> check_backend("cadical", models=10, check_time_limit=False).outcome
    <Outcome.FITS: 'fits'>
    """
    solver = get_backend(backend) if isinstance(backend, str) else check_kind(backend, Backend, "backend")
    models = check_whole(models, "models", 1, 10_000)
    time_limit = check_seconds(time_limit)
    check_flag(check_time_limit, "check_time_limit")
    rng = random.Random(check_seed(seed))
    optimises = "optimise" in solver.capabilities
    started = time.monotonic()
    asked = undecided = agreed = 0
    disagreements: list[str] = []
    try:
        for index in range(models):
            to_optimise = optimises and index % 2 == 1
            model = empty_model(to_optimise) if index < 2 else random_model(rng, to_optimise)
            found = disagreement(solver, model, time_limit)
            asked += 1
            if found == UNDECIDED:
                undecided += 1
            elif found is None:
                agreed += 1
            else:
                kind = "optimise" if model.objective is not None else "decide"
                disagreements.append(f"model {index} (seed {seed}, to {kind}): {found}")
        limit_seconds, limit_status = None, ""
        if check_time_limit:
            limit_seconds, limit_status = _time_limit_kept(solver, disagreements)
    except KeyboardInterrupt as exc:
        return BackendCheck(solver.name, asked, undecided, agreed, tuple(disagreements),
                            seconds=time.monotonic() - started, stopped_by=interruption(exc))
    return BackendCheck(solver.name, asked, undecided, agreed, tuple(disagreements), limit_seconds, limit_status,
                        seconds=time.monotonic() - started)


def _time_limit_kept(solver: Backend, disagreements: list[str]) -> tuple[float, str]:
    """The pigeonhole model asked with :data:`TIME_LIMIT_ASKED`: the seconds it took and how it
    ended; a wrong answer or an overrun goes into ``disagreements``."""
    asked_at = time.monotonic()
    try:
        status = solver.solve(pigeonhole(), time_limit=TIME_LIMIT_ASKED).status
        how = "decided before the limit" if status == Status.UNSAT else f"{status.name} at the limit"
    except (SolverDisagreement, BackendError) as exc:
        how = "no answer"
        disagreements.append(f"the pigeonhole model: {exc}")
    seconds = time.monotonic() - asked_at
    if seconds > TIME_LIMIT_ASKED + OVERRUN_SECONDS:
        disagreements.append(f"asked with a {TIME_LIMIT_ASKED:g} s time limit, it came back after {seconds:.1f} s")
    return seconds, how


__all__ = ["BackendCheck", "brute_force", "check_backend", "empty_model", "pigeonhole", "random_model"]
