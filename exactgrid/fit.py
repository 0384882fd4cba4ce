"""Answer a fit question: encode, solve with a backend, and check every grid with the finder.

A grid a backend returns is shown only after the finder (which shares no code with the
encoder) confirms every requirement, the absence of every forbidden word, the fixed cells,
and the score and count targets. A disagreement raises :class:`VerificationError`: it is a
bug, never an answer.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Literal

from .backends import Backend, Status, get_backend
from .encode import Encoding, EncodingTimeout, encode
from .finder import Match, Score, find
from .grid import Grid
from .inputs import check_seconds
from .model import BoolModel
from .spec import FitSpec
from .verify import check_grid

Verdict = Literal["fits", "does not fit", "unknown"]


class VerificationError(AssertionError):
    """A backend's grid failed the finder's independent check: an internal error."""


@dataclass(frozen=True)
class FitAnswer:
    """The answer to a fit question."""

    verdict: Verdict
    spec: FitSpec
    grid: Grid | None = None
    witnesses: tuple[Match, ...] = ()
    score: Score | None = None
    backend: str = ""
    seconds: float = 0.0
    rounds: int = 1
    detail: str = ""
    model_size: dict = field(default_factory=dict)


def fit(
    spec: FitSpec,
    backend: str | Backend | None = None,
    time_limit: float | None = None,
    seed: int = 0,
    encoding: Encoding | None = None,
) -> FitAnswer:
    """Decide whether ``spec`` has a grid. Every grid found is verified before it is returned.

    ``time_limit`` (seconds, finite and >= 0, or None) covers the whole answer, encoding
    included: a model not built in time answers UNKNOWN.

    With the simple path rule, a forbidden word with too many candidate paths to cut up front
    is enforced lazily: a grid spelling it gets a cut and the model is solved again (each
    round within what is left of the time limit).
    """
    if time_limit is not None:
        time_limit = check_seconds(time_limit)
    solver = backend if isinstance(backend, Backend) else get_backend(backend)
    started = time.monotonic()
    deadline = None if time_limit is None else started + time_limit
    if encoding is None:
        try:
            encoding = encode(spec, deadline=deadline)
        except EncodingTimeout as exc:
            return FitAnswer("unknown", spec, backend=solver.name, seconds=time.monotonic() - started,
                             detail=str(exc))
    enc = encoding
    rounds = 0
    while True:
        rounds += 1
        left = None if deadline is None else max(0.0, deadline - time.monotonic())
        result = solver.solve(enc.model, time_limit=left, seed=seed)
        elapsed = time.monotonic() - started
        common = dict(spec=spec, backend=result.backend or solver.name, seconds=elapsed, rounds=rounds,
                      model_size=model_size(enc.model))
        if result.status == Status.UNSAT:
            return FitAnswer("does not fit", detail=result.detail, **common)
        if result.status == Status.UNKNOWN:
            return FitAnswer("unknown", detail=result.detail, **common)
        grid = enc.decode(result.true_vars or ())
        if enc.lazy_forbidden and _cut_forbidden(enc, grid):
            continue
        witnesses, full, problems = check_grid(spec, grid)
        if problems:
            raise VerificationError(
                f"backend {solver.name} returned {grid.letters}, which the finder rejects: "
                + "; ".join(problems)
            )
        return FitAnswer("fits", grid=grid, witnesses=tuple(witnesses), score=full, **common)


def model_size(model: BoolModel) -> dict[str, int]:
    """How big a model is: variables, clauses and linear constraints."""
    return {"variables": model.num_vars, "clauses": len(model.clauses), "linear": len(model.linear)}


def _cut_forbidden(enc: Encoding, grid: Grid) -> bool:
    """Add a cut for each forbidden word the grid spells; whether any was added."""
    spec = enc.spec
    added = False
    for word in enc.lazy_forbidden:
        match = find(grid, word, spec.budget, spec.path_rule)
        if match is not None:
            enc.forbid_path(word, match.path)
            added = True
    return added
