"""Run a solver in a child process that is killed (with its own children) at a deadline.

Used for solvers that cannot be interrupted in-process (Kissat through PySAT aborts the whole
process on a second solve after an unfinished one; PuLP's CBC has been seen to overrun its
``timeLimit``). The child is a fresh interpreter (``from exactgrid.backends._child import main``) in a
new session, so killing its process group also kills a solver binary it started (CBC runs as a
separate executable). A fresh interpreter rather than ``multiprocessing`` because the latter's
spawn/forkserver start methods re-run the caller's ``__main__`` script, which breaks every
user script without an ``if __name__ == "__main__"`` guard.

Protocol: the parent writes one pickle ``(module, function, args)`` to the child's stdin; the
child imports ``module.function``, iterates the generator ``function(*args)`` and writes each
yielded message as a length-prefixed pickle on its (private copy of) stdout.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import select
import signal
import struct
import subprocess
import sys
import time
import traceback
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from ..pool import die_with_parent

GRACE_SECONDS = 1.0
"""How long past the time limit a child may take to report before it is killed."""

_HEADER = struct.Struct("!Q")

DIED = "its process "
"""How :meth:`ChildRace.died` begins what it says (a child that died, not one that gave up)."""

_ENDED = "ended"
"""The last message of a child whose call returned: one that closes its output without it died."""


class ChildFailed(RuntimeError):
    """A child raised an exception: ``reason`` is its last line (``ImportError: no module ...``),
    ``traceback`` the child's whole traceback (also the message, after a first line).
    ``refusal``: the message of an :class:`~exactgrid.inputs.InputError` the child raised (a
    model the solver cannot take, say), which is then the ``reason`` too, without the class's
    module path; None for any other exception."""

    def __init__(self, traceback_text: str, refusal: str | None = None) -> None:
        self.traceback = traceback_text
        self.refusal = refusal
        lines = [line for line in traceback_text.strip().splitlines() if line.strip()]
        self.reason = refusal if refusal is not None else lines[-1].strip() if lines else "no reason given"
        super().__init__(f"solver child process failed: {self.reason}\n{traceback_text}")


def run_in_child(target: Callable[..., Iterator[Any]], args: tuple,
                 time_limit: float | None, grace: float = GRACE_SECONDS) -> tuple[list[Any], bool]:
    """Run the module-level generator function ``target(*args)`` in a child; collect what it yields.

    Returns ``(messages, finished)``: ``finished`` is False when the child was killed at
    ``time_limit + grace`` seconds (measured from this call) or died without finishing. An
    exception in the child is raised here as :class:`ChildFailed` with the child's traceback.
    """
    messages, finished, _ = run_child(target, args, time_limit, grace)
    return messages, finished


def run_child(target: Callable[..., Iterator[Any]], args: tuple, time_limit: float | None,
              grace: float = GRACE_SECONDS) -> tuple[list[Any], bool, str | None]:
    """:func:`run_in_child`, and how the child died when it ended early without finishing
    (:meth:`ChildRace.died`: killed by a signal, out of memory), else None."""
    deadline = None if time_limit is None else time.monotonic() + time_limit + grace
    with ChildRace([(target, args)]) as race:
        race.wait(deadline)
        died = race.died(0)
    return race.messages[0], race.finished[0], died


def race_in_children(calls: Sequence[tuple[Callable[..., Iterator[Any]], tuple]], time_limit: float | None,
                     grace: float = GRACE_SECONDS,
                     decisive: Callable[[int, list[Any]], bool] | None = None,
                     ) -> tuple[int | None, list[list[Any]], list[bool]]:
    """Run each ``(target, args)`` in its own child at once; stop them all when one decides.

    A child decides when it yields a message starting with ``"done"`` and ``decisive(index,
    its messages)`` holds (always, without ``decisive``); a child that finishes without
    deciding just leaves the race. Returns ``(winner, messages, finished)``: the index of the
    deciding child (None when none decided by ``time_limit + grace``), and per child the
    messages it sent and whether it finished. Every child is killed on return. An exception in
    a child is raised here as :class:`ChildFailed`.
    """
    deadline = None if time_limit is None else time.monotonic() + time_limit + grace
    with ChildRace(calls, decisive) as race:
        race.wait(deadline)
    return race.winner, race.messages, race.finished


class ChildRace:
    """Children started at once, read until one decides or a deadline passes, killed on close.

    :func:`race_in_children` in two steps, so that the caller can work in between (an
    in-process solver beside a child, say): the children start when this is made, :meth:`wait`
    reads them, :meth:`close` (or leaving the ``with`` block) kills them all, whatever happened.

    A child that raises an exception leaves the race with its :class:`ChildFailed` in
    ``failures``; :meth:`wait` raises it at once unless ``tolerate_failures`` (a portfolio
    goes on with the members left). ``over``: :meth:`wait` also stops, with no winner, as soon
    as this holds (a portfolio whose members have all left, the counting loop still running).
    """

    def __init__(self, calls: Sequence[tuple[Callable[..., Iterator[Any]], tuple]],
                 decisive: Callable[[int, list[Any]], bool] | None = None, tolerate_failures: bool = False,
                 over: Callable[[], bool] | None = None) -> None:
        self.decisive = decisive
        self.over = over
        self.tolerate_failures = tolerate_failures
        self.messages: list[list[Any]] = [[] for _ in calls]
        self.finished = [False] * len(calls)
        self.failures: list[ChildFailed | None] = [None] * len(calls)
        self._returned = [False] * len(calls)
        self.winner: int | None = None
        self._buffers = [b""] * len(calls)
        self._processes: list[subprocess.Popen] = []
        self._open: dict[int, int] = {}
        try:
            for target, args in calls:
                self._launch(target, args)
        except BaseException:  # an interrupt while starting still kills those started
            self.close()
            raise

    def add(self, call: tuple[Callable[..., Iterator[Any]], tuple]) -> int:
        """Start one more child in the race; its index."""
        self._launch(*call)
        self.messages.append([])
        self.finished.append(False)
        self.failures.append(None)
        self._returned.append(False)
        self._buffers.append(b"")
        return len(self._processes) - 1

    def _launch(self, target: Callable[..., Iterator[Any]], args: tuple) -> None:
        process = _start(target, args)
        self._processes.append(process)
        self._open[process.stdout.fileno()] = len(self._processes) - 1

    def __enter__(self) -> ChildRace:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def wait(self, deadline: float | None) -> int | None:
        """Read the children until one decides, all have ended, or ``deadline`` (a
        ``time.monotonic()`` value; None: no deadline) passes; the winner's index or None. An
        exception in a child is raised here as :class:`ChildFailed` (unless ``tolerate_failures``)."""
        while self._open and self.winner is None and not (self.over is not None and self.over()):
            wait = None if deadline is None else deadline - time.monotonic()
            if wait is not None and wait <= 0:
                break
            ready, _, _ = select.select(list(self._open), [], [], wait)
            if not ready:
                break
            for fd in ready:
                self._read(fd)
            failed = next((f for f in self.failures if f is not None), None)
            if failed is not None and not self.tolerate_failures:
                raise failed
        return self.winner

    def ended(self, index: int) -> bool:
        """Whether child ``index`` has ended (finished, failed or died), as far as it was read."""
        return index not in self._open.values()

    def died(self, index: int) -> str | None:
        """How child ``index`` died, when it ended without finishing, its call neither returning
        nor raising (killed by a signal, out of memory): ``"its process was killed by SIGKILL"``;
        else None. A child this race killed (at close) is not counted: ask before closing."""
        if (not self.ended(index) or self.finished[index] or self._returned[index]
                or self.failures[index] is not None):
            return None
        process = self._processes[index]
        try:
            code = process.wait(timeout=5)
        except subprocess.TimeoutExpired:  # it closed its output but lives on
            return f"{DIED}stopped talking without an answer"
        if code < 0:
            with contextlib.suppress(ValueError):
                return f"{DIED}was killed by {signal.Signals(-code).name}"
        return f"{DIED}ended without an answer (exit status {code})"

    def _read(self, fd: int) -> None:
        i = self._open[fd]
        chunk = os.read(fd, 1 << 20)
        if not chunk:
            del self._open[fd]  # the child exited (or died) without finishing
            return
        self._buffers[i] += chunk
        for message in _unpack(self._buffers, i):
            if message[0] == "error":
                self.failures[i] = ChildFailed(*message[1:])
                del self._open[fd]
                return
            if message[0] == _ENDED:
                self._returned[i] = True
                continue
            self.messages[i].append(message)
            if message[0] == "done":
                self.finished[i] = True
                if self.winner is None and (self.decisive is None or self.decisive(i, self.messages[i])):
                    self.winner = i

    def close(self) -> None:
        """Kill every child (and a solver binary below it); idempotent. Every group is signalled
        before any is waited for, so a second Ctrl-C while waiting leaves none running."""
        for process in self._processes:
            with contextlib.suppress(OSError):
                os.killpg(process.pid, signal.SIGKILL)
        for process in self._processes:
            _kill(process)


PARENT_ENV = "EXACTGRID_PARENT_PID"
"""The environment variable that tells a child which process it must not outlive."""


def _start(target: Callable[..., Iterator[Any]], args: tuple) -> subprocess.Popen:
    # A new session: the terminal's Ctrl-C and hang-up go to the parent only, and killing the
    # child's process group also kills a solver binary it runs. A fixed hash seed: the order in
    # which a child walks a set of words or letters (and so the cores and grids it meets first)
    # is then the same in every run, as the parent's question and seed are.
    env = {**os.environ, PARENT_ENV: str(os.getpid()), "PYTHONHASHSEED": os.environ.get("PYTHONHASHSEED", "0")}
    process = subprocess.Popen([sys.executable, "-c", "from exactgrid.backends._child import main; main()"],
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, start_new_session=True, env=env)
    try:
        process.stdin.write(pickle.dumps((target.__module__, target.__qualname__, args)))
        process.stdin.close()
    except BrokenPipeError:
        pass
    except BaseException:  # Ctrl-C while the question is sent: the caller never sees this child
        _kill(process)
        raise
    return process


def _unpack(buffers: list[bytes], i: int) -> Iterator[Any]:
    """Complete length-prefixed pickles at the front of ``buffers[i]``, removed as they are read."""
    while len(buffers[i]) >= _HEADER.size:
        (size,) = _HEADER.unpack_from(buffers[i])
        if len(buffers[i]) < _HEADER.size + size:
            return
        yield pickle.loads(buffers[i][_HEADER.size:_HEADER.size + size])
        buffers[i] = buffers[i][_HEADER.size + size:]


def _kill(process: subprocess.Popen) -> None:
    if process.poll() is None:
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except OSError:
            process.kill()
    else:  # the child is gone; a grandchild (a solver binary) may not be
        with contextlib.suppress(OSError):
            os.killpg(process.pid, signal.SIGKILL)
    process.wait()
    process.stdout.close()


def main() -> None:
    """The child's side: read the pickled call from stdin, stream what it yields to stdout."""
    parent = os.environ.get(PARENT_ENV)
    die_with_parent(int(parent) if parent and parent.isdigit() else None)
    out = os.fdopen(os.dup(1), "wb")
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)  # nothing a solver prints can corrupt the message stream

    def send(message: Any) -> None:
        data = pickle.dumps(message)
        out.write(_HEADER.pack(len(data)) + data)
        out.flush()

    try:
        module, name, args = pickle.loads(sys.stdin.buffer.read())
        import importlib

        target = importlib.import_module(module)
        for part in name.split("."):
            target = getattr(target, part)
        for message in target(*args):
            send(message)
        send((_ENDED,))
        out.close()
    except OSError:  # the parent is gone (a broken pipe): nobody is left to tell
        os._exit(1)
    except BaseException as exc:  # noqa: BLE001 - everything else goes to the parent
        from ..inputs import InputError

        try:
            send(("error", traceback.format_exc(), str(exc) if isinstance(exc, InputError) else None))
            out.close()
        except OSError:
            os._exit(1)


if __name__ == "__main__":
    main()
