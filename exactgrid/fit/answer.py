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
from ..backends.portfolio import RACE_GRACE_SECONDS as _RACE_GRACE
from ..encode import Encoding, EncodingTimeout, encode
from ..finder import Match, Score, find, score
from ..grid import Grid
from ..inputs import check_seconds
from ..model import BoolModel
from ..prove.cores import CoreRefutation, refute_by_cores
from ..question import Question, Verdict
from ..verify import check_grid
from ..wording import plural


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

    ``counting`` (alteration budgets up to 1): also run the counting loop (the relaxation with
    pair/count and word count cores, :mod:`exactgrid.prove.cores`) in a child process of its
    own, started with the backend and bounded by the same deadline. Whichever decides first
    answers: a refutation by counting is DOES NOT FIT "by counting", a grid it finds is FITS
    (checked by the finder like any other). A backend that can run in a child (every built-in
    one; the portfolio's members) runs in its own child beside it; a backend that only runs
    in-process runs here meanwhile, and the loop's answer is read when it returns undecided.
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
        if pending_count:
            pending_count = False
            result, counted = _race_with_counting(solver, enc.model, spec, left, seed)
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


COUNTING_PROBE_SECONDS = 1.0
"""An in-process backend first tries this long (at most a tenth of the time limit) in-process,
while the counting child starts beside it: most questions are decided in it, and the counting
child (started at once, so that it runs from the start) is then killed unread."""


def _race_with_counting(backend: Backend, model: BoolModel, question: Question, time_limit: float | None,
                        seed: int) -> tuple[Result, CoreRefutation | None]:
    """The backend and the counting loop, started together, the loop in a child process of its
    own: the backend's answer decides, and so does the loop's when it refutes or finds a grid
    (the backend's result is then UNKNOWN). Both stop at ``time_limit``.

    The portfolio's members and a child-process backend race in children of their own. An
    in-process backend (CaDiCaL, ...) first gets :data:`COUNTING_PROBE_SECONDS` here, then
    moves to a child of its own for the rest (or, with no ``child_call``, stays here, and the
    loop is read when it returns undecided).
    """
    from ..backends.portfolio import Portfolio, race

    counting_call = (counting_child, (question, time_limit))
    started = time.monotonic()
    runs_in_child = "child-process" in backend.capabilities and type(backend).child_call is not Backend.child_call
    if isinstance(backend, Portfolio) or runs_in_child:
        members = backend.members() if isinstance(backend, Portfolio) else [backend]
        result, children = race(members, model, time_limit, seed, also=[(counting_call, _counting_decides)],
                                name=backend.name if isinstance(backend, Portfolio) else None)
        counted = _counted(children.messages[-1], children.finished[-1])
        return check_result(model, replace(result, seconds=time.monotonic() - started)), counted
    return _probe_beside_counting(backend, model, counting_call, time_limit, seed)


def _probe_beside_counting(backend: Backend, model: BoolModel, counting_call: tuple, time_limit: float | None,
                           seed: int) -> tuple[Result, CoreRefutation | None]:
    """An in-process backend beside the counting child (see :func:`_race_with_counting`)."""
    from ..backends._child import ChildRace

    started = time.monotonic()
    deadline = None if time_limit is None else started + time_limit
    with ChildRace([counting_call], lambda i, messages: i > 0 or _counting_decides(messages)) as children:
        probe = COUNTING_PROBE_SECONDS if time_limit is None else min(COUNTING_PROBE_SECONDS, time_limit / 10)
        result = backend.solve(model, time_limit=probe, seed=seed)
        if result.status != Status.UNKNOWN:  # decided in the probe
            return result, None
        left = None if deadline is None else max(0.0, deadline - time.monotonic())
        call = backend.child_call(model, left, seed)
        if call is None:  # in-process only: it keeps the rest here
            result = backend.solve(model, time_limit=left, seed=seed)
            if result.status == Status.UNKNOWN:
                children.wait(None if deadline is None else deadline + _RACE_GRACE)
            return result, _counted(children.messages[0], children.finished[0])
        if children.wait(time.monotonic()) is None:  # counting has not decided during the probe
            index = children.add(call)
            children.wait(None if deadline is None else deadline + _RACE_GRACE)
    counted = _counted(children.messages[0], children.finished[0])
    if children.winner == 0:
        return Result(Status.UNKNOWN, detail="decided by counting", backend=backend.name), counted
    result = backend.read_child(model, children.messages[index], children.finished[index])
    result = replace(result, backend=result.backend or backend.name, seconds=time.monotonic() - started)
    return check_result(model, result), counted


def _counting_decides(messages: list[tuple]) -> bool:
    return messages[-1][1].status in ("refuted", "fits")


def _counted(messages: list[tuple], finished: bool) -> CoreRefutation | None:
    """What the counting child reported, when it finished."""
    return messages[-1][1] if finished and messages else None


def counting_child(question: Question, time_limit: float | None):
    """The counting loop as a child process's generator (see :mod:`exactgrid.backends._child`)."""
    yield ("done", _refuted_by_cores(question, time_limit))


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
    found = (f"{plural(cores, 'pair/count core')}{renamed}, {plural(words, 'word count core')}, "
             f"{plural(counted.rounds, 'round')}")
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
