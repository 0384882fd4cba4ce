"""Decide a fit question: encode, solve with a backend (racing the counting loop), and check
every grid with the finder (:func:`~exactgrid.fitting.answer.verified_answer`).

:func:`fit` is the whole job ``exactgrid fit`` does, in one call: the model written to files
on request, the backend raced against counting, lazy cuts for forbidden words, a minimal
conflict (``explain``) and a checked proof (``certify``) when it does not fit, progress, and
an UNKNOWN answer (never an exception) on Ctrl-C/SIGTERM. Local search first is
:func:`exactgrid.api.fit`'s (the search lives above this layer).
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path

from ..answer import DEFAULT_TIME_LIMIT, OnProgress, ProgressEvent
from ..backends import Backend, Result, Status, get_backend
from ..backends._child import ChildFailed
from ..backends.base import FLOAT_EXACT_TOTAL, SolverDisagreement, check_result, child_result, failed
from ..backends.portfolio import RACE_GRACE_SECONDS as _RACE_GRACE
from ..encoding import Encoding, EncodingTimeout, encode
from ..finder import FinderTimedOut, find, searching_until
from ..grid import Grid
from ..inputs import InputError, check_seconds, check_seed
from ..model import BoolModel
from ..prove.cores import CoreRefutation, refute_by_cores
from ..question import ASKS_NOTHING, Question, SpecError, Verdict
from ..stopping import interruption, interruption_behind, uncut_import
from ..wording import plural
from .answer import FitAnswer, ModelSize, background_text, decoded_grid, model_size, unchecked_detail, verified_answer
from .session import explain as explain_conflict

EXPORT_FORMATS = ("cnf", "wcnf", "lp", "mps")
"""The files :func:`fit` can write its model to (``write={"cnf": "model.cnf"}``)."""


FirstTry = tuple[Callable[[Question, float], FitAnswer | None], float]
"""A quicker way to a grid tried before the backend, and the seconds it may take."""


@dataclass
class _Run:
    """One call of :func:`fit`: the clock, the progress callback and the model once built."""

    question: Question
    solver: Backend
    started: float
    deadline: float | None
    on_progress: OnProgress | None
    encoding: Encoding | None = None
    first: FirstTry | None = None

    def left(self) -> float | None:
        return None if self.deadline is None else max(0.0, self.deadline - time.monotonic())

    def tell(self, message: str) -> None:
        if self.on_progress is not None:
            self.on_progress(ProgressEvent("fit", message, time.monotonic() - self.started))

    def size(self) -> ModelSize:
        return model_size(self.encoding.model) if self.encoding is not None else ModelSize()


def fit(question: Question, backend: str | Backend | None = None, time_limit: float | None = DEFAULT_TIME_LIMIT,
        seed: int = 0, encoding: Encoding | None = None, explain: bool = False, counting: bool = True,
        certify: bool = False, write: Mapping[str, str | Path] | None = None,
        on_progress: OnProgress | None = None, first: FirstTry | None = None) -> FitAnswer:
    """Decide whether ``question`` has a grid. Every grid found is verified by the finder
    before it is returned; a question that asks nothing is refused (:class:`SpecError`).

    ``time_limit`` (seconds from this call, finite and >= 0, or None) covers the whole answer,
    encoding included: a model not built in time answers UNKNOWN. Ctrl-C, SIGTERM or SIGHUP
    (see :mod:`exactgrid.stopping`) answer UNKNOWN with ``stopped_by`` set.

    ``explain``: when it does not fit, also find why (``conflict``: a minimal set of the
    requirements, forbidden words and fixed cells that cannot hold together; see
    :func:`exactgrid.fitting.session.explain`), within what is left of the time limit.

    ``certify``: when it does not fit, refute it again with a proof-logging CaDiCaL and check
    the DRUP proof (:mod:`exactgrid.prove.certify`), within ``time_limit`` again
    (``certificate``). ``write``: the model in files before solving, by format (``cnf``,
    ``wcnf``, ``lp``, ``mps``: ``{"lp": "model.lp"}``). ``on_progress`` hears what is being done.
    ``first``: ``(try_, seconds)``, a quicker way to a grid tried before the backend, for at most
    that long: ``try_(question, seconds)`` gives a FITS answer (checked by the finder) or None
    (:func:`exactgrid.api.fit` passes the local search here).

    ``encoding``: the question's model, built already by :func:`~exactgrid.encoding.encode` for
    this very question (else InputError). A caller that narrows it with constraints of its own
    (``exactgrid.solving.certify``'s windows) owns what a refutation then means, and passes
    ``counting=False``: the counting loop sees only the question.

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
        raise InputError(f"fit() takes a Question, got {type(question).__name__}")
    if not question.asks_something:
        raise SpecError(ASKS_NOTHING)
    if time_limit is not None:
        time_limit = check_seconds(time_limit)
    seed = check_seed(seed)
    if encoding is not None and not isinstance(encoding, Encoding):
        raise InputError(f"fit()'s encoding takes an Encoding (eg.encode(question)), got {type(encoding).__name__}")
    if encoding is not None and encoding.spec != question:
        raise InputError("the encoding given to fit was built for another question")
    _check_formats(write or {})
    solver = backend if isinstance(backend, Backend) else get_backend(backend)
    started = time.monotonic()
    run = _Run(question, solver, started, None if time_limit is None else started + time_limit, on_progress,
               encoding, first)
    checks_until = None if run.deadline is None else run.deadline + _RACE_GRACE
    try:
        run.tell(f"solving with {solver.name}")
        with searching_until(checks_until):  # the finder's check of a grid on simple paths, too
            answer = _decide(run, seed, explain, counting, write or {})
    except ChildFailed as exc:  # the backend's child, beside the counting loop's
        raise failed(solver.name, exc) from exc
    except FinderTimedOut as exc:  # a grid was found, but the finder had not confirmed it in time
        answer = FitAnswer(Verdict.UNKNOWN, question, backend=solver.name, model_size=run.size(),
                           detail=unchecked_detail(exc))
    except (KeyboardInterrupt, RuntimeError) as caught:  # Ctrl-C, or SIGTERM/SIGHUP (see exactgrid.stopping)
        if (exc := interruption_behind(caught)) is None:
            raise
        answer = FitAnswer.interrupted(question, solver.name, exc, model_size=run.size())
    answer = replace(answer, seconds=time.monotonic() - started)
    if certify and answer.verdict == Verdict.DOES_NOT_FIT and answer.stopped_by is None:
        answer = _certified(answer, run, time_limit)
    return answer


def _check_formats(write: Mapping[str, str | Path]) -> None:
    if not isinstance(write, Mapping):
        raise InputError(f"write must map formats to paths ({{'cnf': 'model.cnf'}}), got {type(write).__name__}")
    unknown = sorted(set(write) - set(EXPORT_FORMATS))
    if unknown:
        raise InputError(f"cannot write a model as {', '.join(unknown)}: the formats are {', '.join(EXPORT_FORMATS)}")
    by_path: dict[str, str] = {}
    for fmt, path in write.items():
        key = os.path.abspath(os.fspath(path)) if isinstance(path, str | os.PathLike) else repr(path)
        if key in by_path:  # the second format would overwrite the first
            raise InputError(f"the {by_path[key]} and {fmt} models would both be written to {os.fspath(path)!r}: "
                             "give each its own file")
        by_path[key] = fmt


def _decide(run: _Run, seed: int, explain: bool, counting: bool, write: Mapping[str, str | Path]) -> FitAnswer:
    """The answer within the run's deadline (the encoding built first, when not given)."""
    spec, solver = run.question, run.solver
    if run.encoding is None:
        try:
            run.encoding = encode(spec, deadline=run.deadline)
        except EncodingTimeout as exc:
            return FitAnswer(Verdict.UNKNOWN, spec, backend=solver.name, detail=str(exc))
    enc = run.encoding
    _write_model(enc.model, write)
    if run.first is not None:
        found = _tried_first(run)
        if found is not None:
            return replace(found, model_size=model_size(enc.model))
    pending_count = counting and spec.budget <= 1
    counted: CoreRefutation | None = None
    rounds = 0
    while True:
        rounds += 1
        if pending_count:
            pending_count = False
            result, counted = _race_with_counting(solver, enc.model, spec, run.left(), seed)
            # the backend's own answer, when it has one, is the answer (whoever finished first)
            decided = _decided_by_counting(counted, run, rounds) if result.status == Status.UNKNOWN else None
            if decided is not None:
                if explain and decided.verdict == Verdict.DOES_NOT_FIT:  # whoever refuted it, the same answer
                    decided = _explained(decided, solver, run.left())
                return decided
        else:
            result = solver.solve(enc.model, time_limit=run.left(), seed=seed)
        common = dict(question=spec, backend=result.backend or solver.name, rounds=rounds,
                      model_size=model_size(enc.model), counting=counted)
        if result.status == Status.UNSAT:
            answer = FitAnswer(Verdict.DOES_NOT_FIT, detail=result.detail, **common)
            return _explained(answer, solver, run.left()) if explain else answer
        if result.status == Status.UNKNOWN:
            return FitAnswer(Verdict.UNKNOWN, detail=result.detail, **common)
        grid = decoded_grid(enc, result)
        if enc.lazy_forbidden and _cut_forbidden(enc, grid):
            continue
        return verified_answer(grid, solver.name, **common)


def _tried_first(run: _Run) -> FitAnswer | None:
    """The first try's FITS answer, or None. Its grid is checked by the finder here, whatever
    the try says of it: ``first`` is a public hook, and every grid shown is the finder's."""
    assert run.first is not None
    try_, seconds = run.first
    left = run.left()
    run.tell(f"trying first, then solving with {run.solver.name}")
    found = try_(run.question, check_seconds(seconds) if left is None else min(check_seconds(seconds), left))
    run.tell(f"solving with {run.solver.name}")
    if found is None:
        return None
    return verified_answer(found.grid, found.backend, run.question, backend=found.backend, detail=found.detail)


def _decided_by_counting(counted: CoreRefutation | None, run: _Run, rounds: int) -> FitAnswer | None:
    """The answer when the counting loop decided (refuted, or found a grid), else None."""
    if counted is None or counted.status not in ("refuted", "fits"):
        return None
    assert run.encoding is not None
    size = model_size(run.encoding.model)
    if counted.status == "refuted":
        return FitAnswer(Verdict.DOES_NOT_FIT, run.question, backend="counting", rounds=rounds,
                         detail=_counting_detail(counted), model_size=size, counting=counted)
    if counted.grid is None:
        return None
    return verified_answer(counted.grid, "counting", run.question, backend="counting", rounds=rounds,
                           model_size=size, detail=_counting_detail(counted), counting=counted)


def _write_model(model: BoolModel, write: Mapping[str, str | Path]) -> None:
    """The model in the files asked for, before solving (an unwritable path is bad input)."""
    from .. import export

    writers = {"cnf": export.write_dimacs, "wcnf": export.write_wcnf, "lp": export.write_lp, "mps": export.write_mps}
    for kind, path in write.items():
        if path:
            try:
                writers[kind](model, path)
            except OSError as exc:
                raise InputError(f"cannot write {str(path)!r}: {exc.strerror or exc}") from None


def _certified(answer: FitAnswer, run: _Run, time_limit: float | None) -> FitAnswer:
    """``answer`` (DOES NOT FIT) with the checked proof behind it, found within ``time_limit``
    again; on Ctrl-C the verdict stands, uncertified."""
    from ..prove.certify import certify_counting, certify_refutation

    run.tell("checking the refutation's proof")
    limit = DEFAULT_TIME_LIMIT if time_limit is None else time_limit
    try:
        if answer.counting is not None and answer.counting.status == "refuted":
            certificate = certify_counting(answer.question, answer.counting, limit)
        else:
            certificate = certify_refutation(answer.question, limit, run.encoding)
    except KeyboardInterrupt as exc:
        stopped = interruption(exc)
        return replace(answer, detail=f"{answer.detail}; --certify interrupted ({stopped})".lstrip("; "),
                       stopped_by=stopped)
    if certificate.satisfiable:  # the refutation was wrong: a bug, never an answer
        raise SolverDisagreement(f"{answer.backend} refuted the question, but {certificate.detail}")
    return replace(answer, certificate=certificate)


COUNTING_PROBE_SECONDS = 1.0
"""The backend has this long (at most a tenth of the time limit) to itself: the counting child
starts beside it at once, but its answer is read only afterwards, so that a question the
backend decides within it is answered by the backend however the processes are scheduled
(most are; the counting child is then killed unread). An in-process backend spends it
in-process, then moves to a child; a child-process backend races from the start, the counting
loop's answer held back until then."""


def _race_with_counting(backend: Backend, model: BoolModel, question: Question, time_limit: float | None,
                        seed: int) -> tuple[Result, CoreRefutation | None]:
    """The backend and the counting loop, started together, the loop in a child process of its
    own: the backend's answer decides, and so does the loop's when it refutes or finds a grid
    (the backend's result is then UNKNOWN). Both stop at ``time_limit``.

    The portfolio's members and a child-process backend race in children of their own (the
    loop's answer held back for the first :data:`COUNTING_PROBE_SECONDS`). An
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
                                name=backend.name if isinstance(backend, Portfolio) else None,
                                probe=_probe_seconds(time_limit))
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
        result = backend.solve(model, time_limit=_probe_seconds(time_limit), seed=seed)
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
            died = children.died(index)
    counted = _counted(children.messages[0], children.finished[0])
    if children.winner == 0:
        return Result(Status.UNKNOWN, detail="decided by counting", backend=backend.name), counted
    result = child_result(backend.read_result(model, children.messages[index], children.finished[index]), died)
    result = replace(result, backend=result.backend or backend.name, seconds=time.monotonic() - started)
    return check_result(model, result), counted


def _probe_seconds(time_limit: float | None) -> float:
    """How long the backend has to itself: :data:`COUNTING_PROBE_SECONDS`, at most a tenth of
    the time limit."""
    return COUNTING_PROBE_SECONDS if time_limit is None else min(COUNTING_PROBE_SECONDS, time_limit / 10)


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
        return refute_by_cores(question, time_limit, exact=True, relaxation=_relaxation(question))
    except Exception as exc:  # noqa: BLE001 - reported in the answer, never raised
        return CoreRefutation("open", (), 0, 0, time.monotonic() - started, detail=f"counting failed: {exc}")


def _relaxation(question: Question) -> str:
    """How the counting loop solves its relaxation: HiGHS when installed, else the SAT backend
    (on unary counts, about as fast on the benchmarks measured: docs/benchmarks.md, Prove); the
    SAT backend too when the weights are too large for HiGHS's floating point to be exact."""
    if question.words.total > FLOAT_EXACT_TOTAL:
        return "sat"
    try:
        uncut_import("highspy")  # a Ctrl-C meanwhile is no sign that HiGHS is missing
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


def _explained(answer: FitAnswer, backend: Backend, time_limit: float | None) -> FitAnswer:
    """``answer`` (DOES NOT FIT) with its minimal conflict, found within ``time_limit``. The
    verdict stands whatever happens to the explanation: when it cannot be posed or built in the
    time left, the detail says so; on Ctrl-C or SIGTERM it also carries ``stopped_by``."""
    try:
        explanation = explain_conflict(answer.question, backend, time_limit=time_limit)
    except (SpecError, EncodingTimeout) as exc:  # e.g. a forbid a session cannot pose, or no time left
        return replace(answer, detail=f"{answer.detail}; no explanation: {exc}".lstrip("; "))
    if explanation.stopped_by is not None:
        return replace(answer, detail=f"{answer.detail}; --explain interrupted ({explanation.stopped_by})".lstrip("; "),
                       stopped_by=explanation.stopped_by)
    conflict, minimal = explanation
    note = "" if minimal else "conflict not shrunk to minimal (time limit)"
    if not conflict:
        note = f"{background_text(answer.question)} cannot hold on this board, whatever the parts"
    if explanation.backend and explanation.backend != backend.name:  # it keeps no sessions with assumptions
        note = "; ".join(x for x in (note, f"conflict found by {explanation.backend}") if x)
    detail = "; ".join(x for x in (answer.detail, note) if x)
    return replace(answer, conflict=conflict, detail=detail)
