"""Answer a fit question: encode, solve with a backend, and check every grid with the finder.

A grid a backend returns is shown only after the finder (which shares no code with the
encoder) confirms every requirement, the absence of every forbidden word, the fixed cells,
and the score and count targets. A disagreement raises :class:`VerificationError`: it is a
bug, never an answer.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any

from ..backends import Backend, Status, get_backend
from ..encode import Encoding, EncodingTimeout, encode
from ..finder import Match, Score, find, score
from ..grid import Grid
from ..inputs import check_seconds
from ..model import BoolModel
from ..question import Question, Verdict
from ..verify import check_grid


@dataclass(frozen=True)
class ModelSize:
    """How big a model is: variables, clauses and linear constraints."""

    variables: int = 0
    clauses: int = 0
    linear: int = 0

    def to_dict(self) -> dict[str, int]:
        """JSON-ready: variables, clauses, linear."""
        return {"variables": self.variables, "clauses": self.clauses, "linear": self.linear}


class VerificationError(AssertionError):
    """A backend's grid failed the finder's independent check: an internal error."""


@dataclass(frozen=True)
class FitAnswer:
    """The answer to a fit question."""

    verdict: Verdict
    question: Question
    grid: Grid | None = None
    """The grid (FITS only), checked by the finder."""
    witnesses: tuple[Match, ...] = ()
    """How the finder spells each requirement in the grid, in the question's order."""
    backend: str = ""
    """The backend that answered (DOES NOT FIT: the backend whose proof backs the answer)."""
    seconds: float = 0.0
    rounds: int = 1
    detail: str = ""
    model_size: ModelSize = field(default_factory=ModelSize)
    conflict: tuple[str, ...] | None = None
    """With ``explain``, when it does not fit: a minimal set of the question's parts (requirements,
    forbidden words, fixed cells, as the CLI writes them) that cannot hold together."""

    @cached_property
    def score(self) -> Score | None:
        """The grid's full score on the question's word list (FITS only; computed by the finder
        when first asked for, so that answers nobody reads in full cost nothing more)."""
        if self.grid is None:
            return None
        q = self.question
        return score(self.grid, q.words, q.budget, q.path_rule)

    @property
    def fits(self) -> bool:
        """Whether the answer is FITS (a grid was found and verified)."""
        return self.verdict == Verdict.FITS


def fit(
    question: Question,
    backend: str | Backend | None = None,
    time_limit: float | None = None,
    seed: int = 0,
    encoding: Encoding | None = None,
    explain: bool = False,
) -> FitAnswer:
    """Decide whether ``question`` has a grid. Every grid found is verified before it is returned.

    ``time_limit`` (seconds, finite and >= 0, or None) covers the whole answer, encoding
    included: a model not built in time answers UNKNOWN.

    ``explain``: when it does not fit, also find why (``conflict``: a minimal set of the
    requirements, forbidden words and fixed cells that cannot hold together; see
    :func:`exactgrid.fit.session.explain`), within what is left of the time limit.

    With the simple path rule, a forbidden word with too many candidate paths to cut up front
    is enforced lazily: a grid spelling it gets a cut and the model is solved again (each
    round within what is left of the time limit).
    """
    if not isinstance(question, Question):
        raise TypeError(f"fit() takes a Question, got {type(question).__name__}")
    spec = question
    if time_limit is not None:
        time_limit = check_seconds(time_limit)
    solver = backend if isinstance(backend, Backend) else get_backend(backend)
    started = time.monotonic()
    deadline = None if time_limit is None else started + time_limit
    if encoding is None:
        try:
            encoding = encode(spec, deadline=deadline)
        except EncodingTimeout as exc:
            return FitAnswer(Verdict.UNKNOWN, spec, backend=solver.name, seconds=time.monotonic() - started,
                             detail=str(exc))
    enc = encoding
    rounds = 0
    while True:
        rounds += 1
        left = None if deadline is None else max(0.0, deadline - time.monotonic())
        result = solver.solve(enc.model, time_limit=left, seed=seed)
        elapsed = time.monotonic() - started
        common = dict(question=spec, backend=result.backend or solver.name, seconds=elapsed, rounds=rounds,
                      model_size=model_size(enc.model))
        if result.status == Status.UNSAT:
            answer = FitAnswer(Verdict.DOES_NOT_FIT, detail=result.detail, **common)
            return _explained(answer, solver, deadline) if explain else answer
        if result.status == Status.UNKNOWN:
            return FitAnswer(Verdict.UNKNOWN, detail=result.detail, **common)
        grid = enc.decode(result.true_vars or ())
        if enc.lazy_forbidden and _cut_forbidden(enc, grid):
            continue
        return verified_answer(grid, solver.name, **common)


def verified_answer(grid: Grid, solver_name: str, question: Question, **fields: Any) -> FitAnswer:
    """A FITS answer for ``grid`` once the finder confirms it meets ``question``; else
    VerificationError (a bug in an encoding or a backend, never an answer). ``fields``: the
    rest of the :class:`FitAnswer` (backend, seconds, ...)."""
    check = check_grid(question, grid)
    if check.problems:
        raise VerificationError(
            f"backend {solver_name} returned {grid.letters}, which the finder rejects: " + "; ".join(check.problems)
        )
    return FitAnswer(Verdict.FITS, question, grid=grid, witnesses=check.witnesses, **fields)


def model_size(model: BoolModel) -> ModelSize:
    """How big a model is: variables, clauses and linear constraints."""
    return ModelSize(model.num_vars, len(model.clauses), len(model.linear))


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


def _explained(answer: FitAnswer, backend: Backend, deadline: float | None) -> FitAnswer:
    """``answer`` (DOES NOT FIT) with its minimal conflict, found within the deadline."""
    from ..question import SpecError
    from .session import explain

    left = None if deadline is None else max(0.0, deadline - time.monotonic())
    try:
        conflict, minimal = explain(answer.question, backend, time_limit=left)
    except SpecError as exc:  # e.g. a forbid a session cannot pose
        return replace(answer, detail=f"{answer.detail}; no explanation: {exc}".lstrip("; "))
    note = "" if minimal else "conflict not shrunk to minimal (time limit)"
    if not conflict:
        note = "the targets (minimum score or count) cannot be met on this board, whatever the parts"
    detail = "; ".join(x for x in (answer.detail, note) if x)
    return replace(answer, conflict=conflict, detail=detail)
