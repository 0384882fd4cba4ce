"""One progress line and one way of stopping for every long command of the CLI.

Progress (:class:`Progress`, option :func:`progress_option`): on stderr, one status line
``<command>: 12.3 s of 60 s · <the command's news> · Ctrl-C stops with the answer so far``.
When stderr is a terminal it is on by default and rewritten in place twice a second (cleared
at the end); elsewhere it is off unless ``--progress`` asks for it, and is then a plain line
at the start, when the news changes (at most one a second) and every 10 s. ``--no-progress``
turns it off everywhere.

Stopping: Ctrl-C, SIGTERM and SIGHUP (see :mod:`exactgrid.stopping`) end a long command with
the best answer so far, printed as the normal answer (text or ``--json``) saying what stopped
it, and exit status :data:`STOPPED_EXIT` (3).

Every status line a command writes on stderr goes through :class:`Progress`: the running line,
its :meth:`Progress.notice` lines, and the one-off notices outside a run (:func:`notice`: the
``--workers`` clamp, what ``--show`` drew). A library job's progress callback is
:meth:`Progress.event`: ``solve(..., on_progress=shown.event)`` shows each
:class:`~exactgrid.answer.ProgressEvent` on the line (a ``compiling`` one as a notice).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import sys
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TextIO

import click

from ..stopping import leave_signals_to_the_main_thread

if TYPE_CHECKING:
    from ..answer import ProgressEvent

STOPPED_EXIT = 3
"""Exit status of a command stopped by Ctrl-C, SIGTERM or SIGHUP (with the answer so far)."""

PLAIN_EVERY = 10.0
"""Seconds between plain progress lines (stderr not a terminal, ``--progress`` given) while the
news stays the same."""

NEWS_EVERY = 1.0
"""The fewest seconds between two plain progress lines that tell new news: a log shows each
change of the command's state (the search under way, a better grid) soon, without a line for
every one of a burst of improvements."""

TICK = 0.5
"""Seconds between rewrites of the status line on a terminal."""

PROGRESS_HELP = ("Progress on stderr: a status line rewritten in place when stderr is a terminal (the default "
                 "there); elsewhere only with --progress, as a plain line when the news changes (at most one a "
                 "second) and every 10 s. --no-progress: none.")

STOP_NOTE = "Ctrl-C stops with the answer so far"


_IMPORTED = time.monotonic()


START_UP_SECONDS = 5.0
"""A process older than this when the command starts was not started for it (a wrapper that did
other work and then ``exec``'d exactgrid): its age is not charged to the time limit."""


def process_age() -> float:
    """Seconds since this process started (on Linux, from ``/proc``; elsewhere, or when that is
    over :data:`START_UP_SECONDS`, since this module was imported, which the interpreter's
    start-up precedes by a fraction of a second)."""
    try:
        with open("/proc/self/stat", encoding="ascii") as stat, open("/proc/uptime", encoding="ascii") as uptime:
            started_ticks = int(stat.read().rsplit(")", 1)[1].split()[19])
            since_boot = float(uptime.read().split()[0])
        age = max(0.0, since_boot - started_ticks / os.sysconf("SC_CLK_TCK"))
    except (OSError, ValueError, IndexError):
        age = START_UP_SECONDS + 1
    return age if age <= START_UP_SECONDS else time.monotonic() - _IMPORTED


STARTED_KEY = "exactgrid.started"
"""Where a command's context keeps when the command started (``time.monotonic()``)."""


def command_started() -> float:
    """When the running command started: for the ``exactgrid`` program, when its process started
    (Python's start-up and the imports count against ``--time-limit``); for a command invoked
    in-process (click's test runner, a program calling the group), when it was invoked."""
    ctx = click.get_current_context(silent=True)
    started = ctx.meta.get(STARTED_KEY) if ctx is not None else None
    return time.monotonic() if started is None else started


def time_left(time_limit: float | None) -> float | None:
    """What is left of a command's ``--time-limit`` (wall-clock time from :func:`command_started`)."""
    return None if time_limit is None else max(0.0, time_limit - (time.monotonic() - command_started()))


def progress_option(command: Callable[..., Any]) -> Callable[..., Any]:
    """The ``--progress/--no-progress`` option, the same on every long command."""
    return click.option("--progress/--no-progress", "progress", default=None, help=PROGRESS_HELP)(command)


def stderr_is_terminal() -> bool:
    """Whether stderr is a terminal."""
    stream = sys.stderr
    return bool(getattr(stream, "isatty", lambda: False)())


class Progress:
    """The progress line of one command run, kept by a helper thread while the body runs.

    ``enabled`` None means: on when stderr is a terminal. ``time_limit`` None leaves out the
    "of N s". Call :meth:`news` (from any thread) with the command's own news; the line shows
    the latest. Use as a context manager around the long work.
    """

    def __init__(self, command: str, time_limit: float | None = None, enabled: bool | None = None,
                 news: str = "", *, stream: TextIO | None = None, terminal: bool | None = None,
                 plain_every: float = PLAIN_EVERY, news_every: float = NEWS_EVERY) -> None:
        self.command = command
        self.time_limit = time_limit
        self.terminal = stderr_is_terminal() if terminal is None else terminal
        self.enabled = self.terminal if enabled is None else enabled
        self.stream: TextIO = stream if stream is not None else sys.stderr
        self.plain_every = plain_every
        self.news_every = news_every
        self._news = news
        self._lock = threading.Lock()
        self._done = threading.Event()
        self._wake = threading.Event()
        self._changed = False
        self._thread: threading.Thread | None = None
        self.started = time.monotonic()

    def news(self, text: str) -> None:
        """Set the command's own news (best score, bound, questions answered, ...)."""
        with self._lock:
            if text != self._news:
                self._changed = True
                self._wake.set()
            self._news = text

    def event(self, event: ProgressEvent) -> None:
        """Show a library job's :class:`~exactgrid.answer.ProgressEvent`: kind ``compiling`` as a
        :meth:`notice` (a one-off wait, said whatever the progress setting), any other kind as the
        line's :meth:`news`. Pass it as the job's callback: ``fit(..., on_progress=shown.event)``."""
        if event.kind == "compiling":
            self.notice(event.message)
        else:
            self.news(event.message)

    def notice(self, text: str) -> None:
        """One line on stderr that is always shown, progress on or off (say, that the command
        must compile first); on a terminal it takes the status line's place, which is redrawn.
        It reads ``<command>: <text>``, or just the text when the command is ``""``."""
        prefix = f"{self.command}: " if self.command else ""
        with self._lock:
            self._write(("\r\033[K" if self.terminal else "") + prefix + text + "\n")

    def line(self) -> str:
        """The status line as it reads now."""
        elapsed = time.monotonic() - self.started
        limit = "" if self.time_limit is None else f" of {self.time_limit:g} s"
        with self._lock:
            news = self._news
        return f"{self.command}: {elapsed:.1f} s{limit}{' · ' + news if news else ''} · {STOP_NOTE}"

    def _write(self, text: str) -> bool:
        try:
            self.stream.write(text)
            self.stream.flush()
        except (OSError, ValueError):  # the terminal is gone (SIGHUP follows), or the stream closed
            return False
        return True

    def _draw(self) -> bool:
        with self._lock:
            self._changed = False  # what changed is on the line about to be drawn
        if self.terminal:
            width = shutil.get_terminal_size((120, 24)).columns
            return self._write("\r\033[K" + self.line()[: max(width - 1, 20)])
        return self._write(self.line() + "\n")

    def _run(self) -> None:
        leave_signals_to_the_main_thread()
        if self.terminal:
            while not self._done.wait(TICK):
                if not self._draw():
                    return
            return
        while self._await_plain_line():
            if not self._draw():
                return

    def _await_plain_line(self) -> bool:
        """Wait until the next plain line is due: :attr:`news_every` after the last line when the
        news has changed since, else :attr:`plain_every` after it. False when the run is over."""
        drawn = time.monotonic()
        while not self._done.is_set():
            with self._lock:
                due = self.news_every if self._changed else self.plain_every
            since = time.monotonic() - drawn
            if since >= due:
                return True
            self._wake.wait(due - since)
            self._wake.clear()  # news() and __exit__ leave their mark in _changed and _done too
        return False

    def __enter__(self) -> Progress:
        self.started = time.monotonic()
        if self.enabled:
            self._draw()
            self._thread = threading.Thread(target=self._run, name=f"{self.command} progress", daemon=True)
            self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._done.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join()
            if self.terminal:
                with contextlib.suppress(OSError, ValueError):
                    self._write("\r\033[K")


def notice(text: str, command: str = "exactgrid") -> None:
    """One status line on stderr outside a command's progress run, written as
    :meth:`Progress.notice` writes it: ``<command>: <text>`` (just the text when ``command`` is
    ``""``), always shown."""
    Progress(command, enabled=False).notice(text)
