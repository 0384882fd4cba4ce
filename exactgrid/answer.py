"""One answer contract for every job: an :class:`Outcome`, the seconds it took, ``text()``,
``to_dict()`` and an ``exit_code``.

Every entry point (``score``, ``check``, ``fit``, ``explain``, ``fit_many``'s items, ``solve``,
``bound``, ``refute_by_cores``, the counting loop, the puzzles) returns an :class:`Answer`. A Python user
reads ``answer.outcome``; the command line prints ``answer.text()`` (or ``answer.to_dict()``
under ``--json``) and exits with ``answer.exit_code``.

What was taken from the models studied (see ``docs/architecture.md``):

* CPMpy's ``ExitStatus`` (NOT_RUN, OPTIMAL, FEASIBLE, UNSATISFIABLE, ERROR, UNKNOWN) and its
  ``SolverStatus`` (the exit status with the runtime): one small enum for every solver, FEASIBLE
  (a solution, optimality not proven) kept apart from OPTIMAL, and the seconds beside it. Not
  taken: NOT_RUN (an answer exists only once its job ran) and ERROR (an error is an exception:
  bad input an ``InputError``, a solver contradicting the finder a bug that raises), and
  FEASIBLE for a satisfaction problem's solution: a fit question's answers are named in its own
  words, FITS and DOES_NOT_FIT; BOUNDED is ours (a proven bound that is not known to be reached).
* PySAT's ``solve_limited`` (True, False, or None when the budget ran out or it was
  interrupted): *unknown* is an answer, not an exception; a time limit or an interruption gives
  UNKNOWN (or the best found so far, with ``stopped_by``), never a guess and never a raise.
* PuLP's ``LpStatus`` (numbers with a text form): each outcome has a fixed text (its value,
  ``Outcome.FITS == "fits"``) and a fixed exit status (:data:`EXIT_CODES`). Not taken: PuLP's
  second status, ``sol_status``, which can disagree with ``status`` after a time limit; here
  one outcome says it all.

Time limits mean the same everywhere: ``time_limit`` seconds of wall-clock time from the call,
everything the job does included; :data:`DEFAULT_TIME_LIMIT` unless the job says otherwise;
``None`` for no limit. Progress has one shape: ``on_progress(event)`` with a
:class:`ProgressEvent`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from .notebook import answer_html
from .stopping import is_interruption


class Outcome(StrEnum):
    """What a job concluded (equal to its text: ``Outcome.FITS == "fits"``).

    * ``FITS``: a grid meets the question (checked by the finder);
    * ``DOES_NOT_FIT``: proven that no grid does (the answer says what backs the proof);
    * ``OPTIMAL``: the best possible (a grid reaching a proven bound, or a puzzle's proven best);
    * ``FEASIBLE``: a solution, checked, but not proven best (``solve``'s usual answer);
    * ``BOUNDED``: a proven upper bound on the best score, not known to be reached;
    * ``UNKNOWN``: nothing proven or found in the time (or before an interruption).
    """

    FITS = "fits"
    DOES_NOT_FIT = "does not fit"
    OPTIMAL = "optimal"
    FEASIBLE = "feasible"
    BOUNDED = "bounded"
    UNKNOWN = "unknown"

    @property
    def exit_code(self) -> int:
        """The command line's exit status for this outcome (see :data:`EXIT_CODES`)."""
        return EXIT_CODES[self]

    @property
    def proven(self) -> bool:
        """Whether the outcome is a proof (FITS with a checked grid, DOES_NOT_FIT, OPTIMAL) rather
        than a best effort (FEASIBLE, BOUNDED: a true bound, not known to be tight; UNKNOWN)."""
        return self in (Outcome.FITS, Outcome.DOES_NOT_FIT, Outcome.OPTIMAL)


EXIT_CODES: dict[Outcome, int] = {
    Outcome.FITS: 0, Outcome.OPTIMAL: 0, Outcome.FEASIBLE: 0, Outcome.BOUNDED: 0,
    Outcome.DOES_NOT_FIT: 1, Outcome.UNKNOWN: 3,
}
"""Exit status by outcome: 0 an answer, 1 proven impossible, 3 no answer in the time."""

BAD_INPUT_EXIT = 2
"""Exit status for bad input (one ``Error:`` line, or a JSON error object under ``--json``)."""

STOPPED_EXIT = 3
"""Exit status of a job stopped by Ctrl-C, SIGTERM or SIGHUP (with the answer so far)."""

FAILED_EXIT = 4
"""Exit status of a command that failed unexpectedly (a bug: its traceback on stderr); never
1, which ``fit`` and ``check`` give to a proven answer."""

DEFAULT_TIME_LIMIT = 60.0
"""Seconds every job may take unless told otherwise (``time_limit=None``: no limit)."""


@dataclass(frozen=True)
class ProgressEvent:
    """What a long job says as it goes, to ``on_progress(event)``: the same shape for every job.

    ``message`` is one human line (what the CLI's progress line shows); the numbers are there
    for a program: ``best`` (the best score found so far), ``bound`` (the best bound proven so
    far), ``done`` of ``total`` (questions answered, windows certified, rounds), and ``data``
    the job's own object (``solve``: the :class:`~exactgrid.solving.SearchStats` or
    :class:`~exactgrid.solving.Improvement`; ``bound``: the core just cut).
    """

    job: str
    message: str
    seconds: float = 0.0
    best: int | None = None
    bound: int | None = None
    done: int | None = None
    total: int | None = None
    kind: str = "progress"
    """``progress`` (news), ``improvement`` (a better answer), ``compiling`` (a one-off wait worth
    saying whatever the progress setting), ``round`` (one round of a loop done)."""
    data: Any = None


OnProgress = Callable[[ProgressEvent], None]
"""The one progress callback shape: ``on_progress(event)``."""


class Answer:
    """The contract every job's answer meets (a mixin for dataclasses).

    A subclass has an ``outcome`` (:class:`Outcome`), ``seconds`` and ``stopped_by`` (None, or
    ``Ctrl-C``/``SIGTERM``/``SIGHUP`` when an interruption ended the work and the answer is the
    best so far) and defines :meth:`text` and :meth:`to_dict`. In a notebook an answer shows
    itself as an HTML table of its ``to_dict()`` (:func:`exactgrid.notebook.answer_html`).
    """

    outcome: Outcome
    seconds: float
    stopped_by: str | None

    def text(self) -> str:
        """The answer as the command line prints it."""
        raise NotImplementedError

    def to_dict(self) -> dict[str, Any]:
        """The answer as ``--json`` prints it (JSON-ready: plain types only)."""
        raise NotImplementedError

    @property
    def exit_code(self) -> int:
        """The command line's exit status: :data:`STOPPED_EXIT` when an interruption ended the
        work, else the outcome's (:data:`EXIT_CODES`)."""
        return STOPPED_EXIT if is_interruption(self.stopped_by) else self.outcome.exit_code

    def contract_dict(self) -> dict[str, Any]:
        """The keys every answer's ``to_dict()`` starts with: ``outcome``, ``seconds``,
        ``stopped_by`` and ``exit_code``."""
        return {"outcome": self.outcome.value, "seconds": round(self.seconds, 3), "stopped_by": self.stopped_by,
                "exit_code": self.exit_code}

    def _repr_html_(self) -> str:
        """In a notebook: the outcome, the grid if there is one, the facts of ``to_dict()``, and
        the command line's text folded away (built from what the job found: no solver runs)."""
        return answer_html(self)
