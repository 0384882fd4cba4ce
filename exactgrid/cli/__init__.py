"""The ``exactgrid`` command line: thin click wrappers around the library.

Commands live on one click group, :data:`cli`, built here; each command comes from the module
of its family (as hatch's ``cli`` package does):

* :mod:`exactgrid.cli.grid`: ``score``, ``check``, ``show``, ``words``;
* :mod:`exactgrid.cli.fit`: ``fit``, ``fit-many``;
* :mod:`exactgrid.cli.solve`: ``solve``;
* :mod:`exactgrid.cli.prove`: ``bound``;
* :mod:`exactgrid.cli.puzzles`: ``trackword``, ``letterboxed``, ``sumsquares``;
* :mod:`exactgrid.cli.backends`: ``backends``.

What they share -- one-line errors, option types and decorators, JSON printing, reading GRID
and ``--cells`` -- is in :mod:`exactgrid.cli.base`; pictures (``show``, ``--show``) in
:mod:`exactgrid.cli.pictures`; the one progress line, the stop convention and the clock in
:mod:`exactgrid.cli.progress`.

Errors: any bad input -- a grid of the wrong length or with non-letters, an impossible shape,
an unknown state or checklist item, malformed TOML, a missing file, a bad option -- ends with
ONE line ``Error: ...`` on stderr (under ``--json``, a JSON object ``{"error": ...}`` on stdout)
and exit status 2. Library errors are turned into that line in exactly one place,
:meth:`~exactgrid.cli.base.ExactgridGroup.invoke`; nothing else in the CLI catches them.
``check`` exits 1 when some checklist item fails.

JSON output (``--json``): every command that answers prints its answer's ``to_dict()``, which
starts with the answer contract's keys (``outcome``, ``seconds``, ``stopped_by``,
``exit_code``: :mod:`exactgrid.answer`) and exits with its ``exit_code``. Each family's module
lists its commands' own keys; docs/reference.md has them all.
"""

from __future__ import annotations

import contextlib
import errno
import io
import json
import signal
import sys
import time
import traceback
import warnings
from typing import NoReturn

import click

from .. import __version__
from ..answer import BAD_INPUT_EXIT, FAILED_EXIT
from ..stopping import STOP_SIGNALS, hold_for_the_process, wind_down_the_process
from .backends import backends_command
from .base import (
    BadInput,
    ExactgridGroup,
    Seconds,
    read_grid_argument,
    say_stopped,
    system_error_text,
    wants_json,
    writes_the_answer,
    writes_to_stderr,
)
from .fit import fit_command, fit_many_command
from .grid import check_command, score_command, show_command, words_command
from .progress import STOPPED_EXIT, Progress, process_age
from .prove import bound_command
from .puzzles import letterboxed_command, sumsquares_command, trackword_command
from .solve import solve_command

__all__ = [
    "STOPPED_EXIT",
    "BadInput",
    "ExactgridGroup",
    "Progress",
    "Seconds",
    "backends_command",
    "bound_command",
    "check_command",
    "cli",
    "fit_command",
    "fit_many_command",
    "letterboxed_command",
    "main",
    "read_grid_argument",
    "score_command",
    "show_command",
    "solve_command",
    "sumsquares_command",
    "trackword_command",
    "wants_json",
    "words_command",
]


@click.group(cls=ExactgridGroup)
@click.version_option(__version__, prog_name="exactgrid")
def cli() -> None:
    """Exact answers to letter-grid puzzle questions (Jane Street's Altered States 2 and kin).

    GRID is the letter string, row by row, in any case, optionally with spaces or '/'
    between rows (e.g. thoainesl or THO/AIN/ESL), or the path of a file holding it.

    Needs Python 3.11 or newer. `pip install exactgrid` runs every command but four
    uses, each an extra: solve and fit --local-search need numba (pip install
    'exactgrid[solve]'); show and --show need matplotlib (pip install 'exactgrid[plot]');
    --scheduler needs Dask (pip install 'exactgrid[dask]'); --certify on large proofs wants
    dratify's Rust engine (pip install 'exactgrid[certify]'). pip install 'exactgrid[all]'
    brings all four.
    """


for _command in (score_command, check_command, show_command, words_command,  # grid
                 fit_command, fit_many_command,  # fit
                 solve_command,  # solve
                 bound_command,  # prove
                 trackword_command, letterboxed_command, sumsquares_command,  # puzzles
                 backends_command):  # backends
    cli.add_command(_command)
del _command


class _ClosedStdout(io.TextIOBase):
    """Standard output when the process started without one: writing to it fails (reported as
    the answer not written), while a command that writes only files still does its work."""

    def write(self, text: str) -> int:
        """Fail as a closed descriptor does."""
        raise OSError(errno.EBADF, "it is closed")


def _flush_the_answer() -> None:
    """Write out what the command printed, or say why it could not be (exit status 2)."""
    try:
        sys.stdout.flush()
    except OSError as exc:
        _cannot_write(exc)


def _cannot_write(exc: OSError) -> NoReturn:
    """The answer cannot be written to standard output: one line on stderr, exit status 2; a
    reader that left (``| head``) is no error to tell, and exits 1 as click has it. When it is
    standard error that cannot be written (an error line lost on a full disk), nothing more is
    said there, and the exit status is 2 still: not 1, which is a proven answer for ``fit``."""
    if writes_to_stderr(exc):
        sys.stderr = _ClosedStdout()
        sys.exit(BAD_INPUT_EXIT)
    sys.stdout = _ClosedStdout()  # nothing more to it, not even at the exit's flush
    if isinstance(exc, BrokenPipeError):
        sys.exit(1)
    with contextlib.suppress(OSError):
        print(f"Error: cannot write the answer to standard output: {exc.strerror or exc}", file=sys.stderr)
    sys.exit(BAD_INPUT_EXIT)


def _failed(exc: Exception) -> NoReturn:
    """The command failed unexpectedly (a bug, or an operating-system error outside any
    command): its traceback, then one ``Error:`` line on stderr (and under ``--json`` a JSON
    error object on stdout), exit status 4 -- never 1, which is a proven answer for ``fit``."""
    traceback.print_exception(exc)
    reason = system_error_text(exc) if isinstance(exc, OSError) else f"{type(exc).__name__}: {exc}"
    message = f"exactgrid failed unexpectedly, with no answer ({' '.join(reason.split())})"
    print(f"Error: {message}; the traceback above says where", file=sys.stderr)
    if wants_json(sys.argv[1:], cli):
        with contextlib.suppress(OSError):  # the line on stderr has said it
            print(json.dumps({"error": message}), flush=True)
    sys.exit(FAILED_EXIT)


def _one_line_warning(message: Warning | str, category: type[Warning], filename: str, lineno: int,
                      file: object = None, line: str | None = None) -> None:
    """A warning as the command line gives its notices: one line on stderr, ``exactgrid:`` and
    the message (Python's own form adds the file, the line and the source line that warned)."""
    with contextlib.suppress(OSError):
        print(f"exactgrid: {message}", file=sys.stderr)


def main() -> None:
    """Console-script entry point (``exactgrid``): SIGTERM and SIGHUP stop work as Ctrl-C does,
    and only the first of them raises (:func:`~exactgrid.stopping.hold_for_the_process`): one
    that follows it (a second Ctrl-C; ``kill`` sent to a command under ``timeout``, which
    passes it on) lets the command finish its answer, and one that comes as the process exits
    leaves its exit status alone. One that comes before the command begins is the line
    ``stopped: interrupted (Ctrl-C) before an answer``, exit status 3."""
    warnings.showwarning = _one_line_warning
    try:
        hold_for_the_process()
        if sys.stdout is None:  # started with file descriptor 1 closed: an answer written would be lost
            sys.stdout = _ClosedStdout()
        # the process was started for this command: its start-up counts against --time-limit
        cli(prog_name="exactgrid", obj={"started": time.monotonic() - process_age()})
    except SystemExit:
        _flush_the_answer()
        raise
    except OSError as exc:
        if not writes_the_answer(exc):
            _failed(exc)
        _cannot_write(exc)
    except Exception as exc:  # a bug: its traceback, but not exit status 1
        _failed(exc)
    except KeyboardInterrupt as exc:  # as the hold was set up, or as click ended the command
        wind_down_the_process()
        if isinstance(exc.__context__, SystemExit):  # the command's exit status stands
            raise exc.__context__ from None
        say_stopped(exc, wants_json(sys.argv[1:], cli))
        sys.exit(STOPPED_EXIT)
    finally:
        wind_down_the_process()
        for sig in (signal.SIGINT, *STOP_SIGNALS):  # Python's exit gives them back their defaults (SIGTERM's ends it)
            signal.signal(sig, signal.SIG_IGN)
