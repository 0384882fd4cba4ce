"""Stopping long work cleanly: SIGTERM and SIGHUP end it the way Ctrl-C does.

Python turns Ctrl-C (SIGINT) into ``KeyboardInterrupt``; :func:`stop_on_signals` makes SIGTERM
(``kill``, ``timeout``) and SIGHUP (a closed terminal) raise :class:`Terminated`, a subclass, so
one ``except KeyboardInterrupt`` / ``finally`` path answers UNKNOWN, kills the solver children and
removes what was made, whichever signal came. The library installs no handler by itself: the
CLI does, for its whole process (:func:`hold_for_the_process`), and a Python program may,
around its own work (:func:`stop_on_signals` with :func:`first_interruption_only`).
"""

from __future__ import annotations

import importlib
import os
import signal
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from types import FrameType, ModuleType

STOP_SIGNALS = (signal.SIGTERM, signal.SIGHUP)


class DeadlinePassed(Exception):
    """The time limit came before the work ended (reading a word list, building its trie, a
    search): the caller answers with what it has, as for Ctrl-C."""


DEADLINE_ROWS = 10_000
"""How many rows (lines of a file, words of a list) are read between two looks at a deadline."""


def check_deadline(deadline: float | None, count: int, doing: str) -> None:
    """Every :data:`DEADLINE_ROWS` of ``count``: :class:`DeadlinePassed` once ``deadline`` (a
    ``time.monotonic()`` value; None: none) has passed, saying what it came in (``doing``)."""
    if deadline is not None and count % DEADLINE_ROWS == 0 and time.monotonic() > deadline:
        raise DeadlinePassed(f"the time limit came while {doing}")


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


class Interruptions:
    """The Ctrl-Cs and stop signals that came while :func:`first_interruption_only` held them."""

    def __init__(self, enclosing: Sequence[Interruptions] = ()) -> None:
        self.noted: list[str] = []
        """Each one by name, as :func:`interruption` gives it, in the order they came."""
        self.enclosing = tuple(enclosing)
        """The holds this one is held within: each notes a signal as it comes to this one."""
        self.winding_down = False
        """Set when the work has stopped and is putting its answer together: none raises then."""
        self._deferring = False
        self._pending: KeyboardInterrupt | None = None
        self._process = os.getpid()

    def handle(self, signum: int, frame: FrameType | None) -> None:
        """Note the signal; raise it (as Python would) only if it is the first and the work is
        not yet winding down -- at once, or at the end of a :meth:`deferred` step. In a process
        forked from the one holding (a pool worker not yet set up), as a worker takes it."""
        if os.getpid() != self._process:
            _as_a_forked_worker(signum)
            return
        stop = KeyboardInterrupt() if signum == signal.SIGINT else Terminated(signum)
        first = not self._any_came()
        self._note(interruption(stop))
        if first and not self.winding_down:
            if self._deferring:
                self._pending = stop
                return
            raise stop

    def _any_came(self) -> bool:
        """Whether a signal came to this hold or to one it is held within (before it began,
        too): then no other raises."""
        return bool(self.noted) or any(around._any_came() for around in self.enclosing)

    def _note(self, name: str) -> None:
        """Note a signal here and in every enclosing hold, at once.

        Why at once, not when this hold ends: the enclosing hold's handlers come back before
        that, and a signal in that moment found it knowing of none, so it raised -- the
        second signal of all, thrown while the answer to the first was put together (solve's
        best grid was lost so)."""
        self.noted.append(name)
        for around in self.enclosing:
            around._note(name)

    @contextmanager
    def deferred(self) -> Iterator[None]:
        """A step no signal may cut in half: one that comes while the body runs is raised when
        it ends, as it would have been a moment later.

        Why: starting the threads that a ``finally`` joins. A Ctrl-C inside ``Thread.start()``
        leaves a thread the ``finally`` cannot join ("cannot join thread before it is started"),
        and that RuntimeError, not the interruption, reached the caller."""
        self._deferring = True
        try:
            yield
        finally:
            self._deferring = False
        stop, self._pending = self._pending, None
        if stop is not None:
            raise stop

    def stopped_by(self, stopped_by: str | None) -> str | None:
        """What stopped the work, told the signals held: ``stopped_by`` when it already names
        an interruption, else the first signal noted (one that came as the work was ending,
        which it finished), else ``stopped_by`` (a time limit, or None)."""
        if self.noted and not is_interruption(stopped_by):
            return self.noted[0]
        return stopped_by


def _as_a_forked_worker(signum: int) -> None:
    """A signal to a forked worker that still has the parent's handlers (the pool's
    ``quiet_worker`` has not run yet): Ctrl-C is the parent's to handle, and a stop signal (the
    pool's ``terminate``) ends the process as by default, with no traceback on the parent's
    stderr."""
    if signum == signal.SIGINT:
        return
    signal.signal(signum, signal.SIG_DFL)
    os.kill(os.getpid(), signum)


@contextmanager
def first_interruption_only() -> Iterator[Interruptions]:
    """While the body runs (in the main thread), the first Ctrl-C or stop signal raises as
    before, and every later one -- and any that comes once ``winding_down`` is set -- is only
    noted (:class:`Interruptions`).

    Why: work that answers an interruption with the best it has so far must not be cut short
    while it puts that answer together, by a second Ctrl-C or by the same SIGTERM twice
    (``kill`` sent to a command under ``timeout``, which passes it on). Only signals that
    raise already are held so: Ctrl-C under Python's own handler, SIGTERM and SIGHUP under
    :func:`stop_on_signals`; one that is ignored, or left to end the process, stays so.
    Held within a hold, each signal is noted by the enclosing holds too, as it comes, and one
    noted by an enclosing hold before keeps the inner from raising: the first raises once in
    all. Elsewhere than the main thread this does nothing (Python runs handlers there only).
    """
    if threading.current_thread() is not threading.main_thread():
        yield Interruptions()
        return
    raising = {signal.SIGINT: signal.default_int_handler}
    raising.update({sig: _raise_terminated for sig in STOP_SIGNALS})
    previous = {sig: signal.getsignal(sig) for sig in raising}
    previous = {sig: handler for sig, handler in previous.items()
                if handler is raising[sig] or isinstance(getattr(handler, "__self__", None), Interruptions)}
    around = [getattr(handler, "__self__", None) for handler in previous.values()]
    enclosing = list({id(e): e for e in around if isinstance(e, Interruptions)}.values())
    held = Interruptions(enclosing)
    try:  # a signal that raises while the handlers are set up must not leave them to this hold
        for sig in previous:
            signal.signal(sig, held.handle)
        yield held
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


_PROCESS_HOLD: list[Interruptions] = []


def hold_for_the_process() -> Interruptions:
    """For a program's entry point: what ``with stop_on_signals(), first_interruption_only()``
    sets up (SIGTERM and SIGHUP raise as Ctrl-C does, and only the first of them raises), never
    taken down: the process ends with it. :func:`wind_down_the_process` marks it winding down
    once the program has its answer, so that a signal then is only noted.

    Why not the context managers: leaving them restores raising handlers (SIGTERM's default
    even ends the process), and a signal that came in that moment replaced the exit status of
    an answer already printed, or ended the process with a traceback. A signal that comes
    while the hold is set up raises as usual. Elsewhere than the main thread this only returns
    a hold that no signal reaches."""
    held = Interruptions()
    if threading.current_thread() is threading.main_thread():
        raising = signal.getsignal(signal.SIGINT) is signal.default_int_handler
        for sig in (*STOP_SIGNALS, *((signal.SIGINT,) if raising else ())):
            signal.signal(sig, held.handle)
    _PROCESS_HOLD[:] = [held]
    return held


def wind_down_the_process() -> None:
    """The program has its answer (and exit status): a signal that comes now, to the hold of
    :func:`hold_for_the_process`, is only noted. Without that hold, nothing happens. A program
    should ignore the signals last thing: Python's exit gives every signal it handled its
    default back (SIGTERM's ends the process, with another exit status)."""
    for held in _PROCESS_HOLD:
        held.winding_down = True


def uncut_import(module: str) -> ModuleType:
    """``importlib.import_module(module)`` that no Ctrl-C or stop signal cuts short: one that
    comes meanwhile is raised when the import is done, as it would have been a moment later.

    Why: an extension module whose import is interrupted (numba's) fails with an ImportError
    that does not say why, and a caller testing for an optional dependency took it for the
    dependency missing ("solve ... need numba", exit 2, on a Ctrl-C while numba loaded)."""
    with first_interruption_only() as signals, signals.deferred():
        return importlib.import_module(module)


def interruption(exc: KeyboardInterrupt) -> str:
    """What stopped the work, for an answer's detail: ``Ctrl-C`` or the signal's name."""
    return exc.args[0] if isinstance(exc, Terminated) else "Ctrl-C"


def raise_if_interrupted(stopped_by: str | None) -> None:
    """Raise the interruption ``stopped_by`` names (an answer's: ``Ctrl-C`` or a stop signal's
    name), if it names one: for work that asks a question and then goes on, so that a Ctrl-C or
    SIGTERM which ended the answer ends the work too."""
    if stopped_by == "Ctrl-C":
        raise KeyboardInterrupt()
    if stopped_by is not None and is_interruption(stopped_by):
        raise Terminated(signal.Signals[stopped_by])


def interruption_behind(exc: BaseException) -> KeyboardInterrupt | None:
    """The Ctrl-C or stop signal behind ``exc``, or None when none is.

    A KeyboardInterrupt that arrives while Python is making a class -- in a ``__set_name__``,
    say, while a module is imported lazily at the start of a job -- reaches the caller wrapped
    in a RuntimeError whose ``__cause__`` is the interruption; this follows that chain."""
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        if isinstance(current, KeyboardInterrupt):
            return current
        seen.add(id(current))
        current = current.__cause__
    return None


def leave_signals_to_the_main_thread() -> None:
    """Call first thing in a helper thread: block Ctrl-C and the stop signals there, so that the
    kernel delivers them to the main thread, where Python handles them. A blocking system call
    in the main thread (a sleep, a wait on a child) is then cut short by the signal instead of
    running on until it would have returned anyway."""
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, *STOP_SIGNALS})


@contextmanager
def pysat_leaves_sigint_to_python() -> Iterator[None]:
    """While the body calls into PySAT's C code (a solve, a cardinality encoding), PySAT keeps
    its own SIGINT handler out of the way: Ctrl-C is noted by Python's handler and raises
    ``KeyboardInterrupt`` when the C call returns (within a chunk, for a chunked solve).

    Why: called on the main thread, PySAT's C functions replace Python's SIGINT handler, for
    the length of the call, by one that ``longjmp``s out of the running C++ code -- CaDiCaL's
    ``solve_limited`` even with ``expect_interrupt=True``, and the cardinality encoders too.
    Jumping out of arbitrary code is not safe: a Ctrl-C that lands while the solver is inside
    ``malloc``/``free`` leaves glibc's heap lock taken, and the next ``free`` (deleting the
    solver) waits for that lock forever, so the process never exits. The jump also leaves SIGINT
    blocked in the main thread (a second Ctrl-C is never delivered) and the solver in an invalid
    state. PySAT installs the handler only where ``MainThread.check()`` says it runs on the main
    thread; that answers False while the body runs. Elsewhere than the main thread this does
    nothing (PySAT installs no handler there).
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    from pysat._utils import MainThread

    check = MainThread.__dict__["check"]
    MainThread.check = staticmethod(lambda: False)  # type: ignore[method-assign]
    try:
        yield
    finally:
        MainThread.check = check  # type: ignore[method-assign]


def is_interruption(stopped_by: str | None) -> bool:
    """Whether ``stopped_by`` (what :func:`interruption` gives) names Ctrl-C or a stop signal,
    rather than a time limit or the end of the work."""
    return stopped_by in ("Ctrl-C", *(sig.name for sig in STOP_SIGNALS))
