"""What every command of the ``exactgrid`` command line shares.

Errors: any bad input -- a grid of the wrong length or with non-letters, an impossible shape,
an unknown state or checklist item, malformed TOML, a missing file, a bad option -- ends with
ONE line ``Error: ...`` on stderr and exit status 2. Library errors are turned into that line
in exactly one place, :meth:`ExactgridGroup.invoke` (see :func:`one_line_errors`); nothing else
in the CLI catches them. Ctrl-C, SIGTERM or SIGHUP before a command had an answer: one
``stopped:`` line, exit status 3.

Also here: the :class:`Seconds` option type, the shared option decorators (:func:`grid_options`,
:func:`award_options`, :func:`length_options`, :func:`picture_options`, :func:`show_option`),
JSON printing and the reading of GRID and ``--cells`` arguments.
"""

from __future__ import annotations

import errno
import json
import os
import re
import sys
import time
import traceback
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import FrameType
from typing import TYPE_CHECKING, Any

import click

from ..answer import Outcome
from ..finder import PATH_RULES
from ..geometry import MOVE_RULES
from ..grid import Grid, GridError, parse_grid
from ..inputs import InputError, check_seconds, clamp_workers, read_text_file
from ..stopping import interruption, interruption_behind, wind_down_the_process
from .progress import STARTED_KEY, STOPPED_EXIT, notice, process_age

if TYPE_CHECKING:
    from ..question import Question


class BadInput(click.ClickException):
    """Bad input: one ``Error: ...`` line on stderr, or under ``--json`` a JSON object
    ``{"error": ...}`` on stdout; exit status 2."""

    exit_code = 2

    def __init__(self, message: str, as_json: bool = False) -> None:
        super().__init__(" ".join(str(message).split()))
        self.as_json = as_json

    def show(self, file: Any = None) -> None:
        """Print the error as one line (or one JSON object under ``--json``)."""
        if self.as_json:
            click.echo(json.dumps({"error": self.format_message()}))
        else:
            click.echo(f"Error: {self.format_message()}", err=True)


def wants_json(args: list[str], group: click.Group | None = None) -> bool:
    """Whether the command line asks for JSON: ``--json`` before any ``--``, and (given the
    ``group``, to know its commands' options) not the value of an option that takes one, as in
    ``--words --json``."""
    args = args[: args.index("--")] if "--" in args else args
    command = next((group.commands[arg] for arg in args if arg in group.commands), None) if group else None
    if command is None:
        return "--json" in args
    takes_value = {name for param in command.params if isinstance(param, click.Option) and not param.is_flag
                   and not param.count for name in param.opts}
    words = iter(args)
    for arg in words:
        if arg == "--json":
            return True
        if arg in takes_value:
            next(words, None)  # the option's value, whatever it reads
    return False


@contextmanager
def one_line_errors(as_json: bool) -> Iterator[None]:
    """Usage errors, library input errors (:class:`~exactgrid.inputs.InputError`) and the
    operating system's refusals (:data:`SYSTEM_REFUSALS`; not the answer's own writing, which
    :func:`exactgrid.cli.main` reports) raised inside become :class:`BadInput`: one line, or
    a JSON object under ``--json``."""
    try:
        yield
    except click.exceptions.NoArgsIsHelpError:
        raise
    except click.UsageError as exc:
        hint = f" (see '{exc.ctx.command_path} --help')" if exc.ctx is not None else ""
        raise BadInput(exc.format_message() + hint, as_json) from None
    except BadInput as exc:
        exc.as_json = as_json
        raise
    except InputError as exc:
        raise BadInput(str(exc), as_json) from None
    except OSError as exc:
        if writes_the_answer(exc) or exc.errno not in SYSTEM_REFUSALS:
            raise  # the answer's own writing (cli.main reports it), or a bug's: exit 4 with its traceback
        raise BadInput(f"the system refused what the command needed: {system_error_text(exc)}", as_json) from None


SYSTEM_REFUSALS = frozenset({
    errno.EMFILE, errno.ENFILE, errno.ENOMEM, errno.EAGAIN, errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO,
    errno.EACCES, errno.EPERM, errno.EROFS, errno.ENOENT, errno.ENOTDIR, errno.EISDIR, errno.ENAMETOOLONG,
    errno.ELOOP, errno.ETXTBSY,
})
"""Operating-system errors that say the machine or a path refused (no descriptor or memory left,
a full disk, no permission, no such directory): one ``Error:`` line, exit 2. Any other OSError
(a connection reset, a timeout, none at all) is taken for a bug: its traceback, exit 4."""


def _echo_frame(exc: OSError) -> FrameType | None:
    """The frame of ``click.echo`` that ``exc`` came through, if it did."""
    return next((frame for frame, _ in traceback.walk_tb(exc.__traceback__)
                 if frame.f_code.co_name == "echo" and "click" in frame.f_code.co_filename), None)


def writes_the_answer(exc: OSError) -> bool:
    """Whether ``exc`` came from writing the command's output (every answer, and every error
    line, is written by ``click.echo``), rather than from some other file or resource the
    command used."""
    return _echo_frame(exc) is not None


def writes_to_stderr(exc: OSError) -> bool:
    """Whether ``exc`` came from ``click.echo`` writing to standard error (an error line lost)."""
    frame = _echo_frame(exc)
    return frame is not None and (bool(frame.f_locals.get("err")) or frame.f_locals.get("file") is sys.stderr)


def system_error_text(exc: OSError) -> str:
    """One line for an operating-system error: its message, the file it names, its number
    (``Too many open files [Errno 24]``)."""
    text = exc.strerror or str(exc) or type(exc).__name__
    if exc.filename is not None:
        text += f": {exc.filename}"
    return f"{text} [Errno {exc.errno}]" if exc.errno is not None else text


class ExactgridGroup(click.Group):
    """A click group whose usage errors, library input errors and errors of the operating
    system (no file descriptor left, say) are one line (or a JSON object under ``--json``),
    exit status 2."""

    def make_context(self, info_name: str | None, args: list[str], parent: click.Context | None = None,
                     **extra: Any) -> click.Context:
        """Parse the group's own options, with one-line errors; remember whether JSON is wanted."""
        as_json = wants_json(list(args), self)
        started = (extra.get("obj") or {}).get("started", time.monotonic())
        with stopped_without_an_answer(as_json), one_line_errors(as_json):
            ctx = super().make_context(info_name, args, parent=parent, **extra)
        ctx.meta["exactgrid.json"] = as_json
        ctx.meta[STARTED_KEY] = started
        return ctx

    def invoke(self, ctx: click.Context) -> Any:
        """Run the chosen command: the one place where bad input becomes a one-line error, and
        where Ctrl-C or a stop signal that no command turned into an answer ends with exit 3
        (never click's "Aborted!", exit 1)."""
        as_json = ctx.meta.get("exactgrid.json", False)
        with stopped_without_an_answer(as_json), one_line_errors(as_json):
            try:
                return super().invoke(ctx)
            finally:  # inside: a signal before this line is still an interruption of the command
                wind_down_the_process()  # the command has ended: a signal now cannot change its status


@contextmanager
def stopped_without_an_answer(as_json: bool) -> Iterator[None]:
    """Ctrl-C, SIGTERM or SIGHUP before a command had an answer to give (while reading input,
    say): :func:`say_stopped`, exit status 3. One that came as the command was ending, its
    answer given, leaves that answer's exit status alone."""
    try:
        yield
    except (KeyboardInterrupt, RuntimeError) as caught:
        exc = interruption_behind(caught)
        if exc is None:
            raise
        if isinstance(exc.__context__, click.exceptions.Exit):
            raise exc.__context__ from None
        say_stopped(exc, as_json)
        raise click.exceptions.Exit(STOPPED_EXIT) from None


def stopped_dict(exc: KeyboardInterrupt) -> dict[str, Any]:
    """The JSON of work that ``exc`` stopped before it had an answer, in the answer contract's
    keys (UNKNOWN, the process's seconds so far, the signal, exit status 3) and ``stopped``."""
    return {"outcome": Outcome.UNKNOWN.value, "seconds": round(process_age(), 3), "stopped_by": interruption(exc),
            "exit_code": STOPPED_EXIT, "stopped": f"interrupted ({interruption(exc)})"}


def say_stopped(exc: KeyboardInterrupt, as_json: bool) -> None:
    """That ``exc`` stopped the command before it had an answer: one line ``stopped:
    interrupted (Ctrl-C) before an answer`` on stderr, or under ``--json`` :func:`stopped_dict`
    on stdout."""
    if as_json:
        click.echo(json.dumps(stopped_dict(exc)))
    else:
        click.echo(f"stopped: interrupted ({interruption(exc)}) before an answer", err=True)


# --------------------------------------------------------------------------- shared input


def read_grid_argument(text: str, shape: str | None, moves: str) -> Grid:
    """The GRID argument: letters (any case, spaces or ``/`` between rows) or a file holding them."""
    if os.path.lexists(text):
        return parse_grid(read_text_file(text, "grid file"), shape, moves)  # type: ignore[arg-type]
    if re.search(r"[.\\~]", text) or text.startswith(("/", "./")):
        raise GridError(f"no such grid file {text!r} (GRID is letters, or a file holding them)")
    return parse_grid(text, shape, moves)  # type: ignore[arg-type]


def clamped_workers(workers: int | None) -> int:
    """``--workers`` for work on this machine, at most its usable cores; when lowered, one
    notice line on stderr (``exactgrid: --workers 16 is more than the 2 cores here; using 2``)."""
    count, lowered = clamp_workers(workers, "--workers")
    if lowered is not None:
        notice(lowered)
    return count


class Seconds(click.ParamType):
    """A duration option: a finite number of seconds >= 0 (no ``inf``, no ``nan``)."""

    name = "seconds"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> float:
        """The number of seconds, or a usage error naming the option."""
        try:
            return check_seconds(float(value) if isinstance(value, str) else value)
        except (ValueError, InputError) as exc:
            reason = str(exc) if isinstance(exc, InputError) else f"{value!r} is not a number of seconds"
            self.fail(reason.replace("time limit ", ""), param, ctx)


class FileName(click.ParamType):
    """A file to write: any path but the empty one (which names no file)."""

    name = "file"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> str:
        """The path, or a usage error naming the option when it is empty."""
        if value == "":
            self.fail("needs a file name, got ''", param, ctx)
        return value


def grid_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """The GRID argument and the options every grid command shares."""
    decorators = [
        click.argument("grid", metavar="GRID"),
        click.option("--shape", metavar="RxC", default=None, help="Grid shape, e.g. 5x5 (default: square)."),
        click.option("--moves", type=click.Choice(MOVE_RULES), default="king", show_default=True,
                     help="Move rule between cells."),
        click.option("--path", "path_rule", type=click.Choice(PATH_RULES), default="walk", show_default=True,
                     help="walk: cells may repeat (Altered States); simple: no cell twice."),
        click.option("--budget", type=click.IntRange(min=0), default=1, show_default=True, metavar="K",
                     help="Letters that may be altered per word."),
        click.option("--words", "words", metavar="FILE|us-states", default=None,
                     help="Word list: a file (one word a line, or word,weight as CSV/TSV) or us-states (default)."),
        click.option("--json", "as_json", is_flag=True, help="Print JSON (stable keys) instead of text."),
    ]
    for decorate in reversed(decorators):
        command = decorate(command)
    return command


def print_json(data: dict[str, Any]) -> None:
    """Print ``data`` as indented JSON on stdout (the ``--json`` output of a command)."""
    click.echo(json.dumps(data, indent=2))


def award_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """--checklist, --award and --water-borders: checklist items as hard constraints."""
    decorators = [
        click.option("--checklist", "checklist_path", metavar="FILE", default=None,
                     help="Every item of this checklist TOML is a constraint."),
        click.option("--award", multiple=True, metavar="KEY",
                     help="An item of the checklist (default: the Altered States 2 awards) that must be met: "
                          "20S, 200M, PA, M8, 4C, NOCAL, C2C, QUALIFY (repeatable)."),
        click.option("--water-borders", is_flag=True,
                     help="Chains (C2C) may also cross the three water-only borders."),
    ]
    for decorate in reversed(decorators):
        command = decorate(command)
    return command


def with_awards(question: Question, checklist_path: str | None, awards: tuple[str, ...],
                 water_borders: bool) -> Question:
    """``question`` with the checklist items asked for (``--checklist``, ``--award``) as constraints."""
    from ..question import checklist_question, choose_checklist

    chosen = choose_checklist(checklist_path, awards)
    if chosen is None:
        return question
    return checklist_question(question, chosen, True if water_borders else None)


def read_cells(text: str | None) -> str | None:
    """--cells: a file holding rows like ``P.NN.``, or the rows inline (``P.NN./...../...``;
    one row alone, ``AB.``, when no file has that name)."""
    if text is None:
        return None
    cells_alike = re.fullmatch(r"[A-Z.?_\[\]/\s]+", text) is not None
    rows_alike = cells_alike and re.search(r"[/\n]", text) is not None
    free_cells_only = re.fullmatch(r"\.+", text) is not None  # '..' is two free cells, not a directory
    if os.path.lexists(text) and not ((rows_alike or free_cells_only) and os.path.isdir(text)):  # '../..' too
        return read_text_file(text, "cells file")
    if re.search(r"[/\n]", text) and (not text.startswith(("/", "./", "../", "~")) or rows_alike):
        return text  # rows inline (one row: 'P.NN./'; '../A.' too); parse_cell_letters checks them
    if cells_alike:
        return text  # one row inline ('AB.'), for a board of one row; parse_cell_letters checks it
    raise InputError(f"no such cells file {text!r} (give a file, or rows inline like P.NN./...../.....)")


def answer_out(answer: Any, as_json: bool) -> None:
    """A puzzle answer (anything with ``to_dict()`` and ``text()``) as JSON or text."""
    if as_json:
        print_json(answer.to_dict())
    else:
        click.echo(answer.text())


def length_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """--list, --min-length and --max-length: which dictionary words count."""
    decorators = [
        click.option("--list", "--words", "list_name", metavar="enable|FILE", default="enable", show_default=True,
                     help="Word list: the bundled ENABLE dictionary, or a file (one word a line)."),
        click.option("--min-length", type=click.IntRange(min=1), default=3, show_default=True, metavar="N"),
        click.option("--max-length", type=click.IntRange(min=1), default=9, show_default=True, metavar="N"),
    ]
    for decorate in reversed(decorators):
        command = decorate(command)
    return command


# --------------------------------------------------------------------------- picture options


def picture_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """What a picture shows and how it is laid out (show, and --show on fit and solve)."""
    decorators = [
        click.option("--map/--no-map", "tile_map", default=None,
                     help="The US tile map with the found states, the chain and the award badges "
                          "(default: when the words are the US states)."),
        click.option("--max-panels", type=click.IntRange(min=0), default=60, show_default=True, metavar="N",
                     help="Draw the N heaviest words found (the rest are counted in a note)."),
        click.option("--columns", type=click.IntRange(min=1), default=None, metavar="N",
                     help="Word panels per row (default: 6)."),
        # the range is render.figure's MIN_DPI to MAX_DPI (not imported: the CLI starts without the drawing modules)
        click.option("--dpi", type=click.IntRange(10, 1200), default=100, show_default=True, metavar="N",
                     help="Pixels per inch of a PNG."),
    ]
    for decorate in reversed(decorators):
        command = decorate(command)
    return command


def show_option(command: Callable[..., Any]) -> Callable[..., Any]:
    """--show FILE on fit and solve: draw the answer's grid as 'exactgrid show' does."""
    return click.option("--show", "show", metavar="FILE", default=None,
                        help="Also draw the answer's grid to FILE (.svg, .png, .pdf) as 'exactgrid show' does; "
                             "needs pip install 'exactgrid[plot]'.")(command)

