"""The ``exactgrid`` command line: thin click wrappers around the library.

Commands live on one click group, :data:`cli`. Each command reads its input through the
shared options below, calls library functions, and prints text (or ``--json``).

Errors: any bad input -- a grid of the wrong length or with non-letters, an impossible shape,
an unknown state or checklist item, malformed TOML, a missing file, a bad option -- ends with
ONE line ``Error: ...`` on stderr and exit status 2. Library errors are turned into that line
in exactly one place, :meth:`ExactgridGroup.invoke` (see ``INPUT_ERRORS``); nothing else in
this module catches exceptions. ``check`` exits 1 when some checklist item fails.

JSON output (``--json``), stable keys:

* ``score``: ``grid`` (letters), ``rows``, ``shape`` [rows, cols], ``moves``, ``path_rule``,
  ``budget``, ``total``, ``count``, ``found`` -- a list, heaviest first, of {``state``,
  ``name``, ``population``, ``spelled``, ``marked``, ``altered`` [{``position``, ``from``,
  ``to``}], ``path`` (cell labels), ``cells`` (0-based indices)}.
* ``check``: everything ``score`` gives, plus ``checklist`` (name), ``checklist_source``,
  ``water_borders``, ``passed`` (bool), ``failed`` (item keys), ``items`` -- a list of
  {``key``, ``title``, ``kind``, ``passed``, ``evidence``, ``details``}; for a chain item
  ``details.chain`` is the chain (east to west) or null.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import click

from . import __version__
from .achieve import ChecklistError, default_checklist, evaluate, load_checklist
from .finder import PATH_RULES, score
from .geometry import MOVE_RULES, ShapeError
from .grid import Grid, GridError, parse_grid
from .render import checklist_dict, checklist_table, score_dict, score_text
from .spec import SpecError
from .words import UnknownWordError, us_states

#: Library exceptions that mean "the user's input is bad" (exit status 2, one line).
INPUT_ERRORS: tuple[type[Exception], ...] = (GridError, ShapeError, UnknownWordError, ChecklistError, SpecError)


class InputError(click.ClickException):
    """Bad input: printed as one ``Error: ...`` line on stderr, exit status 2."""

    exit_code = 2

    def __init__(self, message: str) -> None:
        super().__init__(" ".join(str(message).split()))


@contextmanager
def _one_line_errors() -> Iterator[None]:
    try:
        yield
    except click.exceptions.NoArgsIsHelpError:
        raise
    except click.UsageError as exc:
        hint = f" (see '{exc.ctx.command_path} --help')" if exc.ctx is not None else ""
        raise InputError(exc.format_message() + hint) from None
    except INPUT_ERRORS as exc:
        raise InputError(str(exc)) from None


class ExactgridGroup(click.Group):
    """A click group whose usage errors and library input errors are one line, exit 2."""

    def make_context(self, info_name: str | None, args: list[str], parent: click.Context | None = None,
                     **extra: Any) -> click.Context:
        """Parse the group's own options, with one-line errors."""
        with _one_line_errors():
            return super().make_context(info_name, args, parent=parent, **extra)

    def invoke(self, ctx: click.Context) -> Any:
        """Run the chosen command: the one place where bad input becomes a one-line error."""
        with _one_line_errors():
            return super().invoke(ctx)


# --------------------------------------------------------------------------- shared input


def read_grid_argument(text: str, shape: str | None, moves: str) -> Grid:
    """The GRID argument: letters (any case, spaces or ``/`` between rows) or a file holding them."""
    path = Path(text)
    if text and os.path.isfile(path):
        try:
            content = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise GridError(f"cannot read grid file {text!r}: {exc}") from None
        return parse_grid(content, shape, moves)  # type: ignore[arg-type]
    if re.search(r"[.\\~]", text) or text.startswith(("/", "./")):
        raise GridError(f"no such grid file {text!r} (GRID is letters, or a file holding them)")
    return parse_grid(text, shape, moves)  # type: ignore[arg-type]


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
        click.option("--json", "as_json", is_flag=True, help="Print JSON (stable keys) instead of text."),
    ]
    for decorate in reversed(decorators):
        command = decorate(command)
    return command


def _print_json(data: dict[str, Any]) -> None:
    click.echo(json.dumps(data, indent=2))


# --------------------------------------------------------------------------- commands


@click.group(cls=ExactgridGroup)
@click.version_option(__version__, prog_name="exactgrid")
def cli() -> None:
    """Exact answers to letter-grid puzzle questions (Jane Street's Altered States 2 and kin).

    GRID is the letter string, row by row, in any case, optionally with spaces or '/'
    between rows (e.g. thoainesl or THO/AIN/ESL), or the path of a file holding it.
    """


@cli.command("score")
@grid_options
def score_command(grid: str, shape: str | None, moves: str, path_rule: str, budget: int, as_json: bool) -> None:
    """Score GRID: the US states it holds, how each is spelled, and the total population."""
    result = score(read_grid_argument(grid, shape, moves), us_states(), budget, path_rule)  # type: ignore[arg-type]
    if as_json:
        _print_json(score_dict(result))
    else:
        click.echo(score_text(result))


@cli.command("check")
@grid_options
@click.option("--checklist", "checklist_path", metavar="FILE", default=None,
              help="Checklist TOML (default: the Altered States 2 awards plus QUALIFY).")
@click.option("--water-borders", is_flag=True, default=False,
              help="Chains may cross the 3 water-only borders (IL-MI, MI-MN, NY-RI).")
@click.option("--only", "only", metavar="KEY", multiple=True, help="Check only this item (repeatable).")
@click.pass_context
def check_command(
    ctx: click.Context,
    grid: str,
    shape: str | None,
    moves: str,
    path_rule: str,
    budget: int,
    as_json: bool,
    checklist_path: str | None,
    water_borders: bool,
    only: tuple[str, ...],
) -> None:
    """Check GRID against a checklist: PASS/FAIL per item with evidence; exit 1 if any fails."""
    board_grid = read_grid_argument(grid, shape, moves)
    checklist = default_checklist() if checklist_path is None else load_checklist(checklist_path)
    if only:
        checklist = checklist.select(only)
    result = score(board_grid, us_states(), budget, path_rule)  # type: ignore[arg-type]
    verdict = evaluate(checklist, result.words, result.total, True if water_borders else None)
    if as_json:
        _print_json({**score_dict(result), **checklist_dict(verdict)})
    else:
        click.echo(score_text(result))
        click.echo()
        click.echo(checklist_table(verdict))
    ctx.exit(0 if verdict.passed else 1)


# --------------------------------------------------------------------------- more commands
# Further commands (fit, solve, backends, render) belong here, as ``@cli.command("fit")``
# functions decorated with ``@grid_options`` where they read a grid. Keep them thin: parse
# options, call the library, print. Raise library errors freely -- add the exception class to
# INPUT_ERRORS if it means bad user input -- and ExactgridGroup turns them into one line, exit 2.


def main() -> None:
    """Console-script entry point (``exactgrid``)."""
    cli(prog_name="exactgrid")
