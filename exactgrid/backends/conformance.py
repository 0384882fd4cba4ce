"""Hold a backend to brute force: what a plugin's author runs before trusting it.

``check_backend(name)`` (``exactgrid backends --check NAME``) asks the backend small random
models, each small enough to answer by trying every assignment (at most 2**10), and compares:

* a model to decide: SAT where some assignment satisfies it, UNSAT where none does;
* a model to optimise (when the backend declares ``optimise``): the optimum, UNSAT where
  nothing is feasible, and no proven bound below the best assignment.

Every answer goes through :meth:`Backend.solve`, which checks assignments against the model, so
a wrong assignment is caught there (a :class:`SolverDisagreement`); what brute force adds is
the check of what ``solve`` must take on the backend's word: UNSAT, OPTIMAL and bounds. An
UNKNOWN is counted as undecided, not as a disagreement. Then one model too hard to decide in a
second (a pigeonhole formula) is asked with a 1 s time limit, and the seconds it took are
reported: a backend that keeps its time limit comes back within a second or two.

The models use every part of the contract: clauses, linear rows with each comparison,
negative literals in rows and objectives, duplicate literals, and empty models.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from typing import Any

from ..answer import Answer, Outcome
from ..model import BoolModel
from ..stopping import interruption
from ..wording import plural
from .base import Backend, BackendError, SolverDisagreement, Status
from .registry import get_backend

MAX_VARIABLES = 10
"""The most variables of a random model: brute force tries 2**10 assignments at most."""

TIME_LIMIT_ASKED = 1.0
"""The time limit of the pigeonhole question (seconds)."""


@dataclass(frozen=True)
class BackendCheck(Answer):
    """How a backend answered random models that brute force answers too (:func:`check_backend`).

    ``outcome`` is FITS when it agreed on every model it decided, DOES_NOT_FIT when it
    disagreed on one (``disagreements`` says how), UNKNOWN when it decided none or was stopped.
    """

    backend: str
    asked: int
    undecided: int
    disagreements: tuple[str, ...] = ()
    time_limit_seconds: float | None = None
    """How long the pigeonhole question with a 1 s time limit took (None: not asked)."""
    time_limit_status: str = ""
    seconds: float = 0.0
    stopped_by: str | None = None
    details: tuple[str, ...] = field(default=(), repr=False)

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
        lines = [f"{head}: backend {self.backend!r} agrees with brute force on "
                 f"{decided - len(self.disagreements)} of the {plural(decided, 'random model')} it decided "
                 f"({self.undecided} undecided of {self.asked} asked)"]
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
        return {**self.contract_dict(), "backend": self.backend, "asked": self.asked, "undecided": self.undecided,
                "disagreements": list(self.disagreements),
                "time_limit_seconds": None if self.time_limit_seconds is None else round(self.time_limit_seconds, 3),
                "time_limit_status": self.time_limit_status}


def random_model(rng: random.Random, optimise: bool) -> BoolModel:
    """A small model using every part of the contract (at most :data:`MAX_VARIABLES` variables)."""
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
    """How ``backend``'s answer to ``model`` contradicts brute force (None: it does not, or it
    did not decide); the string "undecided" when it did not decide."""
    feasible, best = brute_force(model)
    try:
        result = backend.solve(model, time_limit=time_limit)
    except SolverDisagreement as exc:
        return f"{exc}"
    if result.status == Status.UNSAT:
        return "UNSAT, but an assignment satisfies the model" if feasible else None
    if result.status == Status.UNKNOWN:
        return "undecided"
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
    and hard for resolution (CDCL solvers take far more than a second at 9 holes)."""
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
    solver = get_backend(backend) if isinstance(backend, str) else backend
    if not isinstance(solver, Backend):
        raise BackendError(f"a backend is a name or an exactgrid.backends.Backend, got {type(backend).__name__}")
    if isinstance(models, bool) or not isinstance(models, int) or not 1 <= models <= 10_000:
        raise BackendError(f"models must be a whole number from 1 to 10,000, got {models!r}")
    rng = random.Random(seed)
    optimises = "optimise" in solver.capabilities
    started = time.monotonic()
    asked = undecided = 0
    disagreements: list[str] = []
    try:
        for index in range(models):
            model = random_model(rng, optimise=optimises and index % 2 == 1)
            found = disagreement(solver, model, time_limit)
            asked += 1
            if found == "undecided":
                undecided += 1
            elif found is not None:
                kind = "optimise" if model.objective is not None else "decide"
                disagreements.append(f"model {index} (seed {seed}, to {kind}): {found}")
        limit_seconds, limit_status = None, ""
        if check_time_limit:
            asked_at = time.monotonic()
            try:
                limit_status = solver.solve(pigeonhole(), time_limit=TIME_LIMIT_ASKED).status.name
            except SolverDisagreement as exc:
                limit_status = "an assignment the model rejects"
                disagreements.append(f"the pigeonhole model: {exc}")
            limit_seconds = time.monotonic() - asked_at
    except KeyboardInterrupt as exc:
        return BackendCheck(solver.name, asked, undecided, tuple(disagreements), seconds=time.monotonic() - started,
                            stopped_by=interruption(exc))
    return BackendCheck(solver.name, asked, undecided, tuple(disagreements), limit_seconds, limit_status,
                        seconds=time.monotonic() - started)


__all__ = ["BackendCheck", "brute_force", "check_backend", "pigeonhole", "random_model"]
