"""Many fit questions at once: on every core of this machine, or on a Dask cluster.

:func:`fit_many` takes a stream of questions and yields their answers in completion order.
It is written once against :class:`concurrent.futures.Executor`, which both a local
:class:`~concurrent.futures.ProcessPoolExecutor` (the default: one worker per core) and a
Dask ``distributed`` client (``client.get_executor()``; :func:`dask_executor`) provide. At
most a few questions per worker are in flight, so a stream of any length runs in bounded
memory. A total time limit or Ctrl-C stops it cleanly: what was answered has been yielded,
the rest is cancelled, and the pool's processes are gone when it returns.

:func:`read_questions` reads JSON lines (the keys of a TOML instance file plus an optional
``id``) for ``exactgrid fit-many``.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Executor, Future, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..answer import DEFAULT_TIME_LIMIT, Answer, Outcome
from ..inputs import (
    InputError,
    check_seconds,
    check_seed,
    check_whole,
    clamp_workers_warning,
    usable_cores,
    value_error_text,
)
from ..pool import (
    STOP_POLL_SECONDS,
    ClusterStop,
    check_executor,
    dask_client_of,
    process_pool,
    run_stopped,
    stop_pool,
)
from ..pool import dask_executor as dask_executor  # re-exported: fit_many on a Dask cluster
from ..question import Question, Verdict, question_from_table
from ..stopping import interruption
from .answer import FitAnswer
from .decide import fit

IN_FLIGHT_PER_WORKER = 4
"""Questions submitted ahead per worker: enough to keep it busy, few enough to stop quickly."""


NOT_ANSWERED = "not answered: total time limit reached"


@dataclass(frozen=True)
class ManyAnswer(Answer):
    """The answer to one question of a batch, under the id it was given (or its index).

    ``answer`` is None when the question could not be asked (``error`` says why: bad input
    on its line) or was not answered (``error`` is "not answered: ..."; ``stopped`` names the
    interruption, Ctrl-C or a signal, that stopped the batch, if one did).
    """

    id: Any
    answer: FitAnswer | None = None
    error: str | None = None
    worker: str = ""
    stopped: str | None = None

    @property
    def verdict(self) -> Verdict | None:
        """The answer's verdict, or None without an answer."""
        return self.answer.verdict if self.answer is not None else None

    @property
    def outcome(self) -> Outcome:  # type: ignore[override]
        """The answer's outcome; UNKNOWN without an answer."""
        return self.answer.outcome if self.answer is not None else Outcome.UNKNOWN

    @property
    def seconds(self) -> float:  # type: ignore[override]
        """The answer's seconds (0 without an answer)."""
        return self.answer.seconds if self.answer is not None else 0.0

    @property
    def stopped_by(self) -> str | None:  # type: ignore[override]
        """What interrupted the answer's work (or the batch, for a question not answered), or None."""
        return self.answer.stopped_by if self.answer is not None else self.stopped

    @property
    def exit_code(self) -> int:
        """The answer's own exit code (``fit``'s: 1 for DOES NOT FIT), the one its JSON line
        carries; 2 for bad input, 3 for a question not answered. A batch counts a DOES NOT FIT
        as an answer like FITS: :func:`batch_exit_code`."""
        if self.answer is None:
            return 3 if str(self.error).startswith("not answered") else 2
        return self.answer.exit_code

    def to_dict(self) -> dict[str, Any]:
        """The JSON line ``fit-many`` prints: ``id`` and the keys of ``fit --json`` plus
        ``worker`` (host:pid); for a question not answered, ``id``, ``outcome`` (unknown),
        ``seconds``, ``stopped_by``, ``exit_code`` (3) and ``error``; for bad input, ``id``,
        ``error`` and ``exit_code`` (2)."""
        if self.answer is not None:
            return {"id": self.id, **self.answer.to_dict(), "worker": self.worker}
        if self.exit_code == 3:
            return {"id": self.id, "outcome": self.outcome.value, "seconds": 0.0, "stopped_by": self.stopped,
                    "exit_code": 3, "error": self.error}
        return {"id": self.id, "error": self.error, "exit_code": self.exit_code}

    def text(self) -> str:
        """The JSON line (``fit-many`` prints JSON lines only)."""
        return json.dumps(self.to_dict())


def line_exit_code(answer: ManyAnswer) -> int:
    """What one line adds to a batch's exit status: 0 for an answer, FITS or DOES NOT FIT alike;
    2 for bad input; 3 for no answer in the time (UNKNOWN, interrupted, not answered)."""
    return 0 if answer.exit_code == 1 else answer.exit_code


def batch_exit_code(answers: Iterable[ManyAnswer]) -> int:
    """A batch's exit status: the worst of its lines' (0 every question answered, 2 some line
    was bad input, 3 some question got no answer in the time)."""
    return max((line_exit_code(a) for a in answers), default=0)


def answer_one(ident: Any, question: Question, backend: str | None, time_limit: float | None,
               deadline: float | None, seed: int, stop: str | None = None) -> ManyAnswer:
    """Answer one question in a worker (module level, so that any executor can pickle it).

    ``deadline`` is wall-clock (``time.time()``), so that it means the same on another machine
    of a cluster with a synchronised clock; the question gets what is left of it. ``stop``: the
    name of the run's :class:`~exactgrid.pool.ClusterStop` on a Dask cluster; the fit then runs
    in a child process, ended as soon as the flag is set (a running task cannot be cancelled).
    """
    limit = time_limit
    if deadline is not None:
        left = max(0.0, deadline - time.time())
        limit = left if limit is None else min(limit, left)
    worker = f"{os.uname().nodename}:{os.getpid()}"
    try:
        if stop is None:
            return ManyAnswer(ident, fit(question, backend=backend, time_limit=limit, seed=seed), worker=worker)
        answer, why = _fit_until_stopped(question, backend, limit, seed, stop)
    except InputError as exc:  # only text goes back: an exception that does not unpickle breaks a pool
        return ManyAnswer(ident, error=str(exc), worker=worker)
    except Exception as exc:  # noqa: BLE001 - a bug: its line says so, and the batch goes on
        return ManyAnswer(ident, error=f"not answered: the worker failed: {type(exc).__name__}: {exc}", worker=worker)
    return ManyAnswer(ident, answer, error=why, worker=worker)


CHILD_GRACE_SECONDS = 10.0
"""How long past its time limit a fit in a child may take before it is killed (fit keeps its
own time; this only catches a child that cannot)."""

STOPPED_ON_CLUSTER = "not answered: the run was stopped"


def _fit_until_stopped(question: Question, backend: str | None, limit: float | None, seed: int,
                       stop: str) -> tuple[FitAnswer | None, str | None]:
    """The fit in a child process, killed when the run's stop flag is set: its answer, or None
    and why there is none (bad input found in the child: its message)."""
    from ..backends._child import ChildFailed, ChildRace

    kill_at = None if limit is None else time.monotonic() + limit + CHILD_GRACE_SECONDS
    stopped = run_stopped(stop)
    try:
        with ChildRace([(_fit_in_child, (question, backend, limit, seed))]) as race:
            while race.winner is None and not race.ended(0) and (kill_at is None or time.monotonic() < kill_at):
                poll = time.monotonic() + STOP_POLL_SECONDS
                race.wait(poll if kill_at is None else min(poll, kill_at))
                if race.winner is None and stopped():
                    return None, STOPPED_ON_CLUSTER
            died = race.died(0)
    except ChildFailed as exc:  # a bug: its line says what it was
        return None, f"not answered: the worker failed: {exc.reason}"
    if not race.finished[0]:
        return None, WORKER_DIED if died is not None else OVERRAN
    _, kind, value = race.messages[0][-1]
    return (None, value) if kind == "bad input" else (value, None)


OVERRAN = "not answered: its fit ran past its time limit and was killed"


def _fit_in_child(question: Question, backend: str | None, limit: float | None, seed: int) -> Iterator[tuple]:
    """fit, in a child process: ``("done", "answer", answer)``, or ``("done", "bad input", message)``."""
    try:
        answer = fit(question, backend=backend, time_limit=limit, seed=seed)
    except InputError as exc:
        yield ("done", "bad input", str(exc))
        return
    yield ("done", "answer", answer)


def _checked_options(questions: Any, time_limit: float | None, total_time_limit: float | None,
                     seed: int, executor: Any) -> tuple[float | None, float | None, int]:
    """:func:`fit_many`'s time limits and seed, checked (and its executor), once ``questions``
    is known to be an iterable (not one Question)."""
    if isinstance(questions, Question) or not isinstance(questions, Iterable):
        raise InputError(f"fit_many takes an iterable of Questions (for one, use fit), got {type(questions).__name__}")
    check_executor(executor)
    return (None if time_limit is None else check_seconds(time_limit),
            None if total_time_limit is None else check_seconds(total_time_limit, "total time limit"),
            check_seed(seed))


def fit_many(
    questions: Iterable[Question | tuple[Any, Question] | ManyAnswer],
    backend: str | None = None,
    time_limit: float | None = DEFAULT_TIME_LIMIT,
    total_time_limit: float | None = None,
    workers: int | None = None,
    executor: Executor | None = None,
    seed: int = 0,
    scheduler: str | None = None,
) -> Iterator[ManyAnswer]:
    """Answer many questions in parallel; yield each answer as it completes.

    ``questions``: Questions (their id is their index), ``(id, Question)`` pairs, or
    ManyAnswers with an error (bad input found while reading; passed through in order of
    arrival). ``time_limit`` is per question; ``total_time_limit`` bounds the whole run (the
    questions not answered by then are yielded with the error "not answered: ..."). Without an
    ``executor`` a process pool of ``workers`` processes (default: one per usable core; more
    are lowered to that with a :class:`~exactgrid.inputs.WorkersClamped` warning) is made and
    shut down; a given executor (e.g. :func:`dask_executor`) is used and left open.
    ``scheduler`` (without ``executor``): run on the Dask cluster whose scheduler is at this
    address (``tcp://host:8786``), connected for the run and closed after it.
    Every grid in an answer has been checked by the finder in the worker.

    Every question gets a line, whatever happens. Bad input found in a worker (a model too
    large, a backend that fails: :class:`~exactgrid.backends.BackendFailed`) is that question's
    error; a worker that raises anything else, or a Dask worker lost, answers it with "not
    answered: ...". When a process of the
    pool made here dies (killed, out of memory), the pool is replaced and the questions it held
    are asked again, one at a time with nothing beside them; a question whose worker dies then,
    alone, is "not answered" (:data:`WORKER_DIED`). On Ctrl-C,
    SIGTERM or SIGHUP the pool is stopped, every question not answered is yielded as "not
    answered: interrupted (...)", and then the interruption is raised.
    """
    time_limit, total_time_limit, seed = _checked_options(questions, time_limit, total_time_limit, seed, executor)
    close = None
    if executor is None and scheduler is not None:
        executor, close = dask_executor(scheduler, total_time_limit)
    own = executor is None
    if own:
        count = clamp_workers_warning(workers)
    else:  # a cluster's workers are not this machine's cores: in flight as asked (default: one a core here)
        count = check_whole(workers, "workers", low=1) if workers is not None else usable_cores()
    deadline = None if total_time_limit is None else time.time() + total_time_limit
    client = None if own else dask_client_of(executor)  # type: ignore[arg-type]
    cluster_stop = ClusterStop(client) if client is not None else None
    batch = _Batch(executor or process_pool(count), own,
                   (backend, time_limit, deadline, seed, cluster_stop and cluster_stop.name), cluster_stop)
    stream = _Queue(enumerate(questions))
    finished = False
    try:
        while True:
            yield from batch.submit(stream, count * IN_FLIGHT_PER_WORKER)
            if not batch.pending:
                finished = True
                return
            left = None if deadline is None else max(0.0, deadline - time.time())
            done, _ = wait(batch.pending, timeout=left, return_when=FIRST_COMPLETED)
            if not done:  # the total time limit: what is left is not answered
                break
            for future in done:
                answer = batch.collect(future, stream)
                if answer is not None:
                    yield answer
        yield from _not_answered(batch.pending, stream, NOT_ANSWERED)
    except KeyboardInterrupt as exc:  # Ctrl-C, SIGTERM, SIGHUP: the pool goes first, then a line a question
        batch.stop()
        yield from _not_answered(batch.pending, stream, f"not answered: interrupted ({interruption(exc)})",
                                 interruption(exc))
        raise
    finally:
        for future in batch.pending:
            future.cancel()
        if finished:
            batch.close()
        else:  # time limit, Ctrl-C, SIGTERM, or the caller stopped reading
            batch.stop()
        if close is not None:
            close()


class _Queue:
    """The questions still to ask: the suspects first (in flight when a process of the pool
    died, so maybe its cause), then the stream."""

    def __init__(self, stream: Iterator[tuple[int, Any]]) -> None:
        self.stream = stream
        self.suspects: list[tuple[Any, Question]] = []

    def __iter__(self) -> Iterator[tuple[int, Any]]:
        return self

    def __next__(self) -> tuple[int, Any]:
        if self.suspects:
            return -1, self.suspects.pop(0)
        return next(self.stream)


class _Batch:
    """The pool and the questions in flight on it (future -> id, question, whether it runs
    alone: a suspect asked again with nothing beside it)."""

    def __init__(self, pool: Executor, own: bool, settings: tuple, cluster_stop: ClusterStop | None = None) -> None:
        self.pool = pool
        self.own = own
        self.settings = settings
        self.cluster_stop = cluster_stop
        self.pending: dict[Future[ManyAnswer], tuple[Any, Question, bool]] = {}

    def submit(self, stream: _Queue, in_flight: int) -> Iterator[ManyAnswer]:
        """Submit questions from ``stream`` until ``in_flight`` are pending (or it ends),
        yielding the bad-input answers met on the way. A suspect is asked alone, once nothing
        else is in flight, so that a process that dies under it was killed by its question."""
        while len(self.pending) < in_flight:
            alone = bool(stream.suspects) or any(alone for _, _, alone in self.pending.values())
            if alone and self.pending:
                return
            item = next(stream, None)
            if item is None:
                return
            index, given = item
            if isinstance(given, ManyAnswer):
                yield given
                continue
            ident, question = given if isinstance(given, tuple) and len(given) == 2 else (index, given)
            if not isinstance(question, Question):
                raise InputError(f"fit_many takes Questions or (id, Question) pairs, got {given!r}")
            self.pending[self._submit(ident, question)] = (ident, question, alone)

    def _submit(self, ident: Any, question: Question) -> Future[ManyAnswer]:
        try:
            return self.pool.submit(answer_one, ident, question, *self.settings)
        except BrokenProcessPool as exc:  # a process of the pool died
            if not self.own:  # not ours to replace: this question is not answered
                failed: Future[ManyAnswer] = Future()
                failed.set_exception(exc)
                return failed
            workers = self.pool._max_workers  # type: ignore[attr-defined]
            stop_pool(self.pool)  # type: ignore[arg-type]
            self.pool = process_pool(workers)
            return self.pool.submit(answer_one, ident, question, *self.settings)

    def collect(self, future: Future[ManyAnswer], stream: _Queue) -> ManyAnswer | None:
        """The answer of a finished future, or None when its question goes back on ``stream``
        as a suspect (a process of our pool died while it was in flight beside others)."""
        ident, question, alone = self.pending.pop(future)
        if self.own and not alone and isinstance(future.exception(), BrokenProcessPool):
            stream.suspects.append((ident, question))
            return None
        return _result(future, ident)

    def close(self) -> None:
        """Shut our pool down, waiting for nothing (every question has been answered); on a
        Dask cluster, forget the run's stop flag."""
        if self.own:
            self.pool.shutdown(wait=True)
        elif self.cluster_stop is not None:
            self.cluster_stop.stop()

    def stop(self) -> None:
        """Stop our pool now (its processes ended); a given executor is left open, but on a Dask
        cluster the tasks still running are told to end (they poll the run's stop flag)."""
        if self.own:
            stop_pool(self.pool)  # type: ignore[arg-type]
        elif self.cluster_stop is not None:
            self.cluster_stop.stop()


def _not_answered(pending: dict[Future[ManyAnswer], tuple[Any, Question, bool]], stream: Iterator[tuple[int, Any]],
                  why: str, stopped_by: str | None = None) -> Iterator[ManyAnswer]:
    """Every question pending or not yet submitted when the run stopped (``why``)."""
    for future, (ident, _, _) in list(pending.items()):
        future.cancel()
        del pending[future]
        yield ManyAnswer(ident, error=why, stopped=stopped_by)
    for index, given in stream:
        if isinstance(given, ManyAnswer):
            yield given
        else:
            yield ManyAnswer(given[0] if isinstance(given, tuple) else index, error=why, stopped=stopped_by)


WORKER_DIED = "not answered: a worker process died (killed, or out of memory)"
"""The error of a question whose pool process died while it ran alone (asked again after a
first death beside others), or whose process in a pool fit_many was given died."""


def _result(future: Future[ManyAnswer], ident: Any) -> ManyAnswer:
    """A finished future's answer; a worker's own errors are in it already (:func:`answer_one`),
    so what is caught here is the pool's or the cluster's."""
    try:
        return future.result()
    except BrokenProcessPool:
        return ManyAnswer(ident, error=WORKER_DIED)
    except Exception as exc:  # noqa: BLE001 - a Dask worker lost (KilledWorker), or a bug: this line says so
        return ManyAnswer(ident, error=f"not answered: the worker failed: {type(exc).__name__}: {exc}")


def read_questions(lines: Iterable[str], source: str = "<questions>", directory: Path | None = None,
                   **overrides: Any) -> Iterator[tuple[Any, Question] | ManyAnswer]:
    """Questions from JSON lines: one object a line with the keys of a TOML instance file
    (see :func:`exactgrid.question.table_arguments`) plus an optional ``id`` (default: the
    line number). Blank lines are skipped; a leading byte order mark is dropped. A bad line
    (not JSON, a key given twice, nesting too deep, a bad value) becomes a ManyAnswer with its
    error, so one typo does not stop a stream of thousands. ``overrides`` apply to every line
    as the CLI's options apply to an instance file. A ``words`` file is found relative to
    ``directory`` (the questions file's folder, as an instance file's is relative to its own;
    None: the working directory). InputError ("no questions in ...") at the end when there was
    not one line that is not blank."""
    seen = False
    for number, line in enumerate(lines, 1):
        if number == 1:
            line = line.removeprefix("\ufeff")
        if not line.strip():
            continue
        seen = True
        where = f"{source}:{number}"
        try:
            data = json.loads(line, object_pairs_hook=_unique_keys)
        except json.JSONDecodeError as exc:
            yield ManyAnswer(number, error=f"{where}: not valid JSON: {exc.msg}")
            continue
        except _DuplicateKey as exc:
            yield ManyAnswer(number, error=f"{where}: the key {exc.key!r} is given twice")
            continue
        except RecursionError:
            yield ManyAnswer(number, error=f"{where}: nested too deeply to read")
            continue
        except ValueError as exc:  # e.g. an integer of more than 4,300 digits
            yield ManyAnswer(number, error=f"{where}: not valid JSON: {value_error_text(exc)}")
            continue
        ident = data.pop("id", number) if isinstance(data, dict) else number
        if not isinstance(ident, str | int) or isinstance(ident, bool):  # reported under its line number
            yield ManyAnswer(number, error=f"{where}: id must be a string or a whole number, got {_short(ident)}")
            continue
        try:
            yield ident, question_from_table(data, where, directory, **overrides).question
        except InputError as exc:
            yield ManyAnswer(ident, error=str(exc))
        except RecursionError:  # a value nested too deeply for a check or its message
            yield ManyAnswer(ident, error=f"{where}: a value is nested too deeply to read")
    if not seen:
        raise InputError(f"no questions in {source} (it is empty or holds blank lines only)")


class _DuplicateKey(ValueError):
    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object's members as a dict; a key given twice is refused, not silently the last."""
    data: dict[str, Any] = {}
    for key, value in pairs:
        if key in data:
            raise _DuplicateKey(key)
        data[key] = value
    return data


def _short(value: Any, limit: int = 60) -> str:
    """``repr(value)``, cut to ``limit`` characters (a bad id may be large or nested deep)."""
    try:
        text = repr(value)
    except RecursionError:
        text = f"a {type(value).__name__} nested too deeply"
    return text if len(text) <= limit else text[: limit - 3] + "..."
