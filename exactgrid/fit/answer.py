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

from ..backends import Backend, Result, Status, get_backend
from ..backends.base import check_result
from ..encode import Encoding, EncodingTimeout, encode
from ..finder import Match, Score, find, score
from ..grid import Grid
from ..inputs import check_seconds
from ..model import BoolModel
from ..prove.cores import CoreRefutation, refute_by_cores
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
    counting: CoreRefutation | None = None
    """When the counting pre-check ran: what it found (DOES NOT FIT "by counting" when refuted,
    with the pair/count cores that back it)."""

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


COUNTING_PROBE_SECONDS = 1.0
"""Before the counting pre-check, the backend gets this long (at most a tenth of the time limit):
most questions are decided in it, and then the pre-check costs nothing."""
COUNTING_SECONDS = 30.0
"""The counting pre-check gets at most this long, and at most a third of what is left."""


def fit(
    question: Question,
    backend: str | Backend | None = None,
    time_limit: float | None = None,
    seed: int = 0,
    encoding: Encoding | None = None,
    explain: bool = False,
    counting: bool = True,
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

    ``counting`` (alteration budgets up to 1): also try the counting relaxation with pair/count
    cores (:mod:`exactgrid.prove.cores`); a refutation there is DOES NOT FIT "by counting". A
    backend that runs in a child process races it, the loop in a second child; an in-process
    backend first gets :data:`COUNTING_PROBE_SECONDS`, then the loop gets at most
    :data:`COUNTING_SECONDS` (and a third of what is left), then the backend the rest.
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
    pending_count = counting and spec.budget <= 1
    counted = None
    while True:
        rounds += 1
        left = None if deadline is None else max(0.0, deadline - time.monotonic())
        if pending_count and _runs_in_child(solver):
            pending_count = False
            result, counted = _race_with_counting(solver, enc.model, spec, left, seed)
        elif pending_count:  # an in-process backend: a short probe first, then counting, then the rest
            probe = COUNTING_PROBE_SECONDS if left is None else min(COUNTING_PROBE_SECONDS, left / 10)
            result = solver.solve(enc.model, time_limit=probe, seed=seed)
            if result.status == Status.UNKNOWN:
                pending_count = False
                counted = _count(spec, deadline)
                if counted.status not in ("refuted", "fits"):
                    rounds -= 1  # the probe was not a round of its own
                    continue
        else:
            result = solver.solve(enc.model, time_limit=left, seed=seed)
        if counted is not None and counted.status == "refuted":
            return FitAnswer(Verdict.DOES_NOT_FIT, spec, backend="counting", seconds=time.monotonic() - started,
                             rounds=rounds, detail=_counting_detail(counted), model_size=model_size(enc.model),
                             counting=counted)
        if counted is not None and counted.status == "fits" and counted.grid is not None:
            return verified_answer(counted.grid, "counting", spec, backend="counting",
                                   seconds=time.monotonic() - started, rounds=rounds, model_size=model_size(enc.model),
                                   detail=_counting_detail(counted), counting=counted)
        elapsed = time.monotonic() - started
        common = dict(question=spec, backend=result.backend or solver.name, seconds=elapsed, rounds=rounds,
                      model_size=model_size(enc.model), counting=counted)
        if result.status == Status.UNSAT:
            answer = FitAnswer(Verdict.DOES_NOT_FIT, detail=result.detail, **common)
            return _explained(answer, solver, deadline) if explain else answer
        if result.status == Status.UNKNOWN:
            return FitAnswer(Verdict.UNKNOWN, detail=result.detail, **common)
        grid = enc.decode(result.true_vars or ())
        if enc.lazy_forbidden and _cut_forbidden(enc, grid):
            continue
        return verified_answer(grid, solver.name, **common)


def _runs_in_child(backend: Backend) -> bool:
    return "child-process" in backend.capabilities and type(backend).child_call is not Backend.child_call


def _race_with_counting(backend: Backend, model: BoolModel, question: Question, time_limit: float | None,
                        seed: int) -> tuple[Result, CoreRefutation | None]:
    """The backend and the counting loop, each in a child process: the backend's answer decides,
    and so does the counting loop's when it refutes or finds a grid; otherwise it leaves the race."""
    from ..backends._child import race_in_children

    call = backend.child_call(model, time_limit, seed)
    assert call is not None
    calls = [call, (counting_child, (question, time_limit))]

    def decisive(index: int, messages: list[tuple]) -> bool:
        return index == 0 or messages[-1][1].status in ("refuted", "fits")

    winner, messages, finished = race_in_children(calls, time_limit, decisive=decisive)
    counted = messages[1][-1][1] if finished[1] else None
    if winner == 1:
        return Result(Status.UNKNOWN), counted
    started = time.monotonic()
    result = backend.read_child(model, messages[0], finished[0])
    return check_result(model, replace(result, backend=result.backend or backend.name,
                                       seconds=time.monotonic() - started)), counted


def counting_child(question: Question, time_limit: float | None):
    """The counting loop as a child process's generator (see :mod:`exactgrid.backends._child`)."""
    yield ("done", _refuted_by_cores(question, time_limit))


def _count(question: Question, deadline: float | None) -> CoreRefutation:
    """The counting pre-check, within its share of what is left before ``deadline``."""
    share = COUNTING_SECONDS if deadline is None else min(COUNTING_SECONDS, max(0.0, deadline - time.monotonic()) / 3)
    return _refuted_by_cores(question, share)


def _refuted_by_cores(question: Question, time_limit: float | None) -> CoreRefutation:
    """The core loop, which as a pre-check must never break fit: a failure is an ``open`` answer
    saying what went wrong (the backend's answer stands)."""
    started = time.monotonic()
    try:
        return refute_by_cores(question, time_limit, exact=True, relaxation=_relaxation())
    except Exception as exc:  # noqa: BLE001 - reported in the answer, never raised
        return CoreRefutation("open", (), 0, 0, time.monotonic() - started, detail=f"counting failed: {exc}")


def _relaxation() -> str:
    """How the counting loop solves its relaxation: HiGHS when installed (an LP reasons about
    counts, which CDCL does poorly; on 4x4_m8 the relaxation's solves took 23 s of a 38 s loop
    on CaDiCaL and 0.5 s on HiGHS), else the SAT backend."""
    try:
        import highspy  # noqa: F401
    except ImportError:
        return "sat"
    return "highs"


def _counting_detail(counted: CoreRefutation) -> str:
    cores, words = len(counted.cores), len(counted.count_cores)
    renamed = f" ({counted.renamed} renamed copies reused)" if counted.renamed else ""
    found = (f"{cores} pair/count core{'s' if cores != 1 else ''}{renamed}, {words} word count "
             f"core{'s' if words != 1 else ''}, {counted.rounds} rounds")
    if counted.status == "fits":
        return (f"by counting: the letter counts of a relaxation solution, given to the exact model, "
                f"led it to the grid ({found})")
    return (f"by counting: no letter counts the words allow can be placed on the board and spelled there "
            f"({found})")


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
