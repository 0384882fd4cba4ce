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
from collections.abc import Callable, Iterator
from typing import Any

GRACE_SECONDS = 1.0
"""How long past the time limit a child may take to report before it is killed."""

_HEADER = struct.Struct("!Q")


def run_in_child(target: Callable[..., Iterator[Any]], args: tuple,
                 time_limit: float | None, grace: float = GRACE_SECONDS) -> tuple[list[Any], bool]:
    """Run the module-level generator function ``target(*args)`` in a child; collect what it yields.

    Returns ``(messages, finished)``: ``finished`` is False when the child was killed at
    ``time_limit + grace`` seconds (measured from this call) or died without finishing. An
    exception in the child is raised here as ``RuntimeError`` with the child's traceback.
    """
    deadline = None if time_limit is None else time.monotonic() + time_limit + grace
    process = subprocess.Popen([sys.executable, "-c", "from exactgrid.backends._child import main; main()"],
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               start_new_session=True)
    messages: list[Any] = []
    finished = False
    try:
        payload = pickle.dumps((target.__module__, target.__qualname__, args))
        try:
            process.stdin.write(payload)
            process.stdin.close()
        except BrokenPipeError:
            pass
        fd = process.stdout.fileno()
        buffer = b""
        while True:
            wait = None if deadline is None else deadline - time.monotonic()
            if wait is not None and wait <= 0:
                break
            ready, _, _ = select.select([fd], [], [], wait)
            if not ready:
                break
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                break  # child exited
            buffer += chunk
            while len(buffer) >= _HEADER.size:
                (size,) = _HEADER.unpack_from(buffer)
                if len(buffer) < _HEADER.size + size:
                    break
                message = pickle.loads(buffer[_HEADER.size:_HEADER.size + size])
                buffer = buffer[_HEADER.size + size:]
                if message[0] == "error":
                    raise RuntimeError(f"solver child process failed:\n{message[1]}")
                messages.append(message)
                if message[0] == "done":
                    finished = True
            if finished:
                break
    finally:
        _kill(process)
    return messages, finished


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
    except BaseException:  # noqa: BLE001 - everything goes to the parent
        send(("error", traceback.format_exc()))
    out.close()


if __name__ == "__main__":
    main()
