"""Worker pools shared by every job that spreads work: a local process pool that stops cleanly,
or a Dask ``distributed`` cluster, both behind :class:`concurrent.futures.Executor`.

``fit_many`` (many questions) and ``bound`` (many core searches a round) use them. A pool made
here is stopped with :func:`stop_pool` on a time limit, Ctrl-C or SIGTERM: its processes are
ended at once (a worker's solver child dies with it), so nothing is left running.
"""

from __future__ import annotations

import contextlib
import math
import os
import signal
import sys
import time
import uuid
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor
from typing import Any

from .inputs import InputError


def check_executor(value: Any) -> Executor | None:
    """``value`` when it is None or an executor (anything with ``submit``, as
    :class:`concurrent.futures.Executor` and a Dask client's executor have), else InputError."""
    if value is not None and (isinstance(value, type) or not callable(getattr(value, "submit", None))):
        raise InputError(f"executor must be a concurrent.futures Executor (a process pool, a Dask client's "
                         f"get_executor()), got {type(value).__name__}")
    return value  # type: ignore[no-any-return]


def die_with_parent(parent: int | None = None) -> None:
    """Ask the kernel to SIGKILL this process when its parent dies (Linux ``PR_SET_PDEATHSIG``).

    The signal comes even when the parent is killed with SIGKILL and can run no cleanup. If the
    parent is already gone (it is not ``parent``), exit at once. Elsewhere than Linux this does
    nothing: there the parent's own cleanup (a killed process group) is what ends a child. The
    kernel sends the signal when the parent *thread* that started the child ends, so children
    are started from threads that outlive them (the main thread in the CLI).
    """
    if sys.platform.startswith("linux"):
        import ctypes

        pr_set_pdeathsig = 1
        with contextlib.suppress(OSError, AttributeError):
            ctypes.CDLL(None, use_errno=True).prctl(pr_set_pdeathsig, signal.SIGKILL, 0, 0, 0)
    if parent is not None and os.getppid() != parent:
        os._exit(1)


def quiet_worker() -> None:
    """In a pool worker: Ctrl-C is the parent's to handle (it ends the workers), SIGTERM
    simply ends the worker, whatever handlers the parent had when it forked, and the worker dies
    with its parent even when the parent is killed with SIGKILL (:func:`die_with_parent`)."""
    die_with_parent()
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for name in ("SIGTERM", "SIGHUP"):
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), signal.SIG_DFL)


def process_pool(workers: int) -> ProcessPoolExecutor:
    """A local pool of ``workers`` processes that leave signals to the parent."""
    return ProcessPoolExecutor(max_workers=workers, initializer=quiet_worker)


def stop_pool(pool: ProcessPoolExecutor) -> None:
    """Shut a pool down now: cancel what has not started and end the worker processes."""
    processes = list((getattr(pool, "_processes", None) or {}).values())  # no public handle on them
    for process in processes:
        with contextlib.suppress(Exception):
            process.terminate()
    pool.shutdown(wait=True, cancel_futures=True)


CONNECT_SECONDS = 10.0
"""How long :func:`dask_client` waits for a scheduler at most (less when a time limit says so)."""


def dask_client(address: str, time_limit: float | None = None) -> Any:
    """A client of the Dask scheduler at ``address`` (needs ``pip install 'exactgrid[dask]'``),
    waiting for it :data:`CONNECT_SECONDS` at most, or ``time_limit`` seconds when fewer;
    :class:`InputError` when the package is missing or the scheduler cannot be reached (a
    ``tls://`` address without TLS settings, say)."""
    try:
        from distributed import Client
    except ImportError:
        raise InputError("--scheduler needs the Dask distributed package; install it with: "
                         "pip install 'exactgrid[dask]'") from None
    wait = CONNECT_SECONDS if time_limit is None else max(0.1, min(CONNECT_SECONDS, time_limit))
    try:
        return Client(address, timeout=wait)
    except Exception as exc:  # noqa: BLE001 - whatever distributed raises for an address it cannot use
        raise InputError(f"cannot reach the Dask scheduler at {address!r}: {' '.join(str(exc).split())}") from None


def dask_executor(address: str, time_limit: float | None = None) -> tuple[Executor, Any]:
    """An executor on the Dask scheduler at ``address`` (waited for as :func:`dask_client`
    says), and a function that closes the connection."""
    client = dask_client(address, time_limit)
    return client.get_executor(), client.close


def dask_threads(client: Any) -> int:
    """How many tasks a Dask cluster runs at once (its workers' threads)."""
    return max(1, sum(client.nthreads().values()))


def dask_client_of(executor: Executor) -> Any | None:
    """The Dask client behind an executor from ``client.get_executor()``, or None for any
    other executor."""
    if not type(executor).__module__.startswith("distributed"):
        return None
    return getattr(executor, "_client", None)


class ClusterStop:
    """A run's flag on a Dask scheduler, which the run's tasks poll (:func:`run_stopped`): a
    task already running cannot be cancelled, so it ends its own work once the run stops.

    The flag is a ``distributed.Event`` that is *set while the run goes on* (from here) and
    cleared by :meth:`stop`: the scheduler forgets a cleared event, so a run leaves nothing
    behind on it, stopped or not."""

    def __init__(self, client: Any) -> None:
        from distributed import Event

        self.client = client
        self.name = f"exactgrid-run-{uuid.uuid4().hex}"
        Event(self.name, client=client).set()

    def stop(self) -> None:
        """Ask every task of the run to stop, and forget the flag (nothing, if the scheduler is
        gone already)."""
        from distributed import Event

        with contextlib.suppress(Exception):
            Event(self.name, client=self.client).clear()


STOP_POLL_SECONDS = 0.5
"""How often a task on a Dask cluster asks the scheduler whether its run has stopped."""


def stop_was_asked(name: str) -> bool:
    """In a task on a Dask worker: whether the run whose :class:`ClusterStop` is named ``name``
    has stopped (False when the scheduler cannot be asked: the task goes on to its time limit)."""
    try:
        from distributed import Event

        return not Event(name).is_set()
    except Exception:  # noqa: BLE001 - no scheduler to ask: go on until the time limit
        return False


def run_stopped(name: str) -> Callable[[], bool]:
    """A test a task may call as often as it likes: whether its run (the :class:`ClusterStop`
    named ``name``) has stopped, asking the scheduler at most every :data:`STOP_POLL_SECONDS`."""
    asked = [-math.inf, False]  # when the scheduler was last asked, and whether the run had stopped

    def stopped() -> bool:
        now = time.monotonic()
        if not asked[1] and now - asked[0] >= STOP_POLL_SECONDS:
            asked[:] = [now, stop_was_asked(name)]
        return bool(asked[1])

    return stopped
