"""What every puzzle's entry point shares: one wall clock for its time limit and one way of
telling its progress (:class:`Clock`)."""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from ..answer import OnProgress, ProgressEvent
from ..inputs import check_callbacks, check_seconds


@dataclass
class Clock:
    """The clock of one call: ``time_limit`` seconds of wall-clock time from :attr:`started`
    (None: no limit), and where its progress events go (``on_progress``, may be None).

    Build one with :meth:`start`, first thing in an entry point, so the limit counts from the call.
    """

    job: str
    time_limit: float | None
    on_progress: OnProgress | None = None
    started: float = field(default_factory=time.monotonic)

    @classmethod
    def start(cls, job: str, time_limit: float | None, on_progress: OnProgress | None = None) -> Clock:
        """A clock starting now; InputError (one line) for a time limit that is not None or a
        finite number of seconds >= 0."""
        limit = None if time_limit is None else check_seconds(time_limit)
        check_callbacks(on_progress=on_progress)
        return cls(job, limit, on_progress)

    def elapsed(self) -> float:
        """Seconds since the call."""
        return time.monotonic() - self.started

    def left(self) -> float | None:
        """Seconds left of the time limit (0 once it has run out), or None without a limit."""
        return None if self.time_limit is None else max(0.0, self.time_limit - self.elapsed())

    def deadline(self) -> float | None:
        """When the time limit runs out, as a ``time.monotonic()`` value (None without one)."""
        return None if self.time_limit is None else self.started + self.time_limit

    def out_of_time(self) -> bool:
        """Whether the time limit has run out."""
        left = self.left()
        return left is not None and left <= 0

    def tell(self, message: str, kind: str = "progress", **numbers: int | None) -> None:
        """One :class:`~exactgrid.answer.ProgressEvent` to ``on_progress`` (nothing without one).
        ``numbers``: ``best``, ``bound``, ``done``, ``total``. A KeyboardInterrupt the callback
        raises reaches the work, which answers with what it has (as for Ctrl-C)."""
        if self.on_progress is not None:
            self.on_progress(ProgressEvent(self.job, message, self.elapsed(), kind=kind, **numbers))
