"""Stopping long work cleanly: SIGTERM and SIGHUP end it the way Ctrl-C does.

Python turns Ctrl-C (SIGINT) into ``KeyboardInterrupt``; :func:`stop_on_signals` makes SIGTERM
(``kill``, ``timeout``) and SIGHUP (a closed terminal) raise :class:`Terminated`, a subclass, so
one ``except KeyboardInterrupt`` / ``finally`` path answers UNKNOWN, kills the solver children and
removes what was made, whichever signal came. The library installs no handler by itself: the
CLI does, and a Python program may, around its own work.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType

STOP_SIGNALS = (signal.SIGTERM, signal.SIGHUP)


class Terminated(KeyboardInterrupt):
    """SIGTERM or SIGHUP arrived; handled wherever Ctrl-C's KeyboardInterrupt is."""

    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


def _raise_terminated(signum: int, frame: FrameType | None) -> None:
    raise Terminated(signum)


@contextmanager
def stop_on_signals() -> Iterator[None]:
    """While the body runs (in the main thread), SIGTERM and SIGHUP raise :class:`Terminated`.

    Elsewhere than the main thread this does nothing (Python runs handlers there only).
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = {sig: signal.signal(sig, _raise_terminated) for sig in STOP_SIGNALS}
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


def interruption(exc: KeyboardInterrupt) -> str:
    """What stopped the work, for an answer's detail: ``Ctrl-C`` or the signal's name."""
    return exc.args[0] if isinstance(exc, Terminated) else "Ctrl-C"


def leave_signals_to_the_main_thread() -> None:
    """Call first thing in a helper thread: block Ctrl-C and the stop signals there, so that the
    kernel delivers them to the main thread. C code with a signal handler of its own (PySAT
    installs one for SIGINT during a solve) then always sees them where it is solving; a signal
    landing on a helper thread could otherwise be missed, leaving a search running."""
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, *STOP_SIGNALS})
