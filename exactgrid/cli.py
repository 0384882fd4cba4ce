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
* ``fit``: ``verdict`` ("fits", "does not fit", "unknown"), ``backend`` (for the portfolio,
  with the winning member in brackets), ``seconds``, ``rounds``, ``model`` {``variables``,
  ``clauses``, ``linear``}, ``detail``; with ``--explain``, when it does not fit, ``conflict``
  (a list of parts as the command line writes them: ``OHIO:exact``, ``forbid TEXAS``,
  ``r1c2=H``; empty when the targets alone cannot be met); with ``--certify``, when it does not fit,
  ``certificate`` {``checked``, ``method``, ``lemmas``, ``clauses``, ``seconds``, ``detail``};
  when it fits also ``grid``, ``rows``, ``shape``, ``moves``,
  ``requirements`` -- a list of {``requirement``, ``state``, ``spelled``, ``altered``,
  ``path``, ``cells``} -- and ``score`` (as ``score --json``); ``stopped_by`` (``Ctrl-C``,
  ``SIGTERM``, ``SIGHUP`` or null).
* ``fit-many``: one JSON line per question, in completion order: ``id`` and either the keys of
  ``fit --json`` plus ``worker`` (host:pid), or ``error``; after Ctrl-C a last line ``stopped``
  and ``stopped_by``. ``--json`` is accepted and changes nothing but bad input (a JSON object).
* ``bound``, ``letterboxed``, ``sumsquares``, ``trackword``: ``stopped_by`` (null, or what
  interrupted the work). Every long command stopped by Ctrl-C, SIGTERM or SIGHUP prints its
  answer so far and exits 3 (see :mod:`exactgrid.cli_progress`).
* ``show``: ``out``, ``format`` (svg, png, pdf), ``panels`` (the words drawn, heaviest first),
  ``omitted`` (found but not drawn), ``map`` (bool), ``chain`` (the map's chain or null),
  ``spare`` (labels of the cells no found word needs), ``seconds``. ``fit --show`` and
  ``solve --show`` add the same object as ``picture`` (``{"out": null, "reason": ...}`` when
  there was no grid to draw or it could not be written).
* ``backends``: ``default`` and ``backends`` -- a list of {``name``, ``available``,
  ``version``, ``capabilities``, ``description``}.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import click

from . import __version__
from .awards import default_checklist, evaluate, load_checklist
from .cli_progress import (
    STARTED_KEY,
    STOPPED_EXIT,
    Progress,
    command_started,
    process_age,
    progress_option,
    time_left,
)
from .data import word_list
from .data.us import us_states
from .finder import PATH_RULES, score
from .geometry import MOVE_RULES
from .grid import Grid, GridError, parse_grid
from .inputs import InputError, check_seconds, clamp_workers, read_text_file, read_text_stream
from .render import checklist_dict, checklist_table, score_dict, score_text
from .stopping import interruption, is_interruption, stop_on_signals
from .wording import plural

if TYPE_CHECKING:
    from .encode import Encoding
    from .question import Question


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


def wants_json(args: list[str]) -> bool:
    """Whether the command line asks for JSON (``--json`` before any ``--``)."""
    return "--json" in (args[: args.index("--")] if "--" in args else args)


@contextmanager
def _one_line_errors(as_json: bool) -> Iterator[None]:
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


class ExactgridGroup(click.Group):
    """A click group whose usage errors and library input errors are one line (or a JSON
    object under ``--json``), exit status 2."""

    def make_context(self, info_name: str | None, args: list[str], parent: click.Context | None = None,
                     **extra: Any) -> click.Context:
        """Parse the group's own options, with one-line errors; remember whether JSON is wanted."""
        as_json = wants_json(list(args))
        started = (extra.get("obj") or {}).get("started", time.monotonic())
        with _stopped_without_an_answer(as_json), _one_line_errors(as_json):
            ctx = super().make_context(info_name, args, parent=parent, **extra)
        ctx.meta["exactgrid.json"] = as_json
        ctx.meta[STARTED_KEY] = started
        return ctx

    def invoke(self, ctx: click.Context) -> Any:
        """Run the chosen command: the one place where bad input becomes a one-line error, and
        where Ctrl-C or a stop signal that no command turned into an answer ends with exit 3
        (never click's "Aborted!", exit 1)."""
        as_json = ctx.meta.get("exactgrid.json", False)
        with _stopped_without_an_answer(as_json), _one_line_errors(as_json):
            return super().invoke(ctx)


@contextmanager
def _stopped_without_an_answer(as_json: bool) -> Iterator[None]:
    """Ctrl-C, SIGTERM or SIGHUP before a command had an answer to give (while reading input,
    say): one line ``stopped: interrupted (Ctrl-C) before an answer`` on stderr, or under
    ``--json`` ``{"stopped": "interrupted (Ctrl-C)"}`` on stdout; exit status 3."""
    try:
        yield
    except KeyboardInterrupt as exc:
        if as_json:
            click.echo(json.dumps({"stopped": f"interrupted ({interruption(exc)})"}))
        else:
            click.echo(f"stopped: interrupted ({interruption(exc)}) before an answer", err=True)
        raise click.exceptions.Exit(STOPPED_EXIT) from None


# --------------------------------------------------------------------------- shared input


def read_grid_argument(text: str, shape: str | None, moves: str) -> Grid:
    """The GRID argument: letters (any case, spaces or ``/`` between rows) or a file holding them."""
    if os.path.lexists(text):
        return parse_grid(read_text_file(text, "grid file"), shape, moves)  # type: ignore[arg-type]
    if re.search(r"[.\\~]", text) or text.startswith(("/", "./")):
        raise GridError(f"no such grid file {text!r} (GRID is letters, or a file holding them)")
    return parse_grid(text, shape, moves)  # type: ignore[arg-type]


def _clamped_workers(workers: int | None) -> int:
    """``--workers`` for work on this machine, at most its usable cores; when lowered, one
    notice line on stderr (``exactgrid: --workers 16 is more than the 2 cores here; using 2``)."""
    count, notice = clamp_workers(workers, "--workers")
    if notice is not None:
        click.echo(f"exactgrid: {notice}", err=True)
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


def _print_json(data: dict[str, Any]) -> None:
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


def _with_awards(question: Question, checklist_path: str | None, awards: tuple[str, ...],
                 water_borders: bool) -> Question:
    from .question import checklist_question, choose_checklist

    chosen = choose_checklist(checklist_path, awards)
    if chosen is None:
        return question
    return checklist_question(question, chosen, True if water_borders else None)


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
def score_command(grid: str, shape: str | None, moves: str, path_rule: str, budget: int, words: str | None,
                  as_json: bool) -> None:
    """Score GRID: the words it holds (the US states unless --words), how each is spelled, and their
    total weight (population)."""
    words = word_list(words)
    result = score(read_grid_argument(grid, shape, moves), words, words.check_budget(budget), path_rule)  # type: ignore[arg-type]
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
    words: str | None,
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
    words = word_list(words)
    result = score(board_grid, words, words.check_budget(budget), path_rule)  # type: ignore[arg-type]
    strangers = sorted(w for w in result.words if w not in us_states())
    if strangers:  # checklists judge US states (awards, border chains)
        raise BadInput(f"a checklist judges US states, and {', '.join(strangers)} is not one; "
                       "score a grid on another word list with 'exactgrid score --words'")
    verdict = evaluate(checklist, result.words, result.total, True if water_borders else None)
    if as_json:
        _print_json({**score_dict(result), **checklist_dict(verdict)})
    else:
        click.echo(score_text(result))
        click.echo()
        click.echo(checklist_table(verdict))
    ctx.exit(0 if verdict.passed else 1)


# --------------------------------------------------------------------------- pictures


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
        click.option("--dpi", type=click.IntRange(10, 1200), default=100, show_default=True, metavar="N",
                     help="Pixels per inch of a PNG."),
    ]
    for decorate in reversed(decorators):
        command = decorate(command)
    return command


def _draw(subject: Any, out: str, **options: Any) -> dict[str, Any]:
    """Draw ``subject`` to ``out``; what was drawn, JSON-ready."""
    from .render.figure import draw, picture_format, save_figure
    from .render.picture import picture_of

    started = time.monotonic()
    layout = {"columns": options.pop("columns", None), "dpi": options.pop("dpi", 100)}
    chosen = picture_format(out)
    picture = picture_of(subject, **options)
    save_figure(draw(picture, columns=layout["columns"]), out, dpi=layout["dpi"])
    board = picture.grid.board
    return {"out": out, "format": chosen, "panels": [p.word for p in picture.panels], "omitted": picture.omitted,
            "map": picture.tile_map is not None,
            "chain": list(picture.tile_map.chain) if picture.tile_map and picture.tile_map.chain else None,
            "spare": [board.label(c) for c in picture.spare], "seconds": round(time.monotonic() - started, 3)}


def _drawn_text(drawn: dict[str, Any]) -> str:
    parts = [plural(len(drawn['panels']), 'word panel')]
    if drawn["omitted"]:
        parts.append(f"{drawn['omitted']} more not drawn")
    if drawn["map"]:
        parts.append("map")
    return f"wrote {drawn['out']} ({drawn['format']}: {', '.join(parts)}) in {drawn['seconds']:.1f} s"


@cli.command("show")
@grid_options
@click.option("--out", "out", metavar="FILE", required=True, help="Where to write the picture: .svg, .png or .pdf.")
@click.option("--checklist", "checklist_path", metavar="FILE", default=None,
              help="Checklist TOML for the map's badges (default: the Altered States 2 awards plus QUALIFY).")
@click.option("--water-borders", is_flag=True, default=False,
              help="Chains may cross the 3 water-only borders (IL-MI, MI-MN, NY-RI).")
@picture_options
def show_command(grid: str, shape: str | None, moves: str, path_rule: str, budget: int, words: str | None,
                 as_json: bool, out: str, checklist_path: str | None, water_borders: bool, tile_map: bool | None,
                 max_panels: int | None, columns: int | None, dpi: int) -> None:
    """Draw GRID to --out: the grid, one panel per word found (its path as arrows, the altered
    cell marked), and for the US states a tile map with the found states, the coast-to-coast
    chain and the award badges. Needs matplotlib: pip install 'exactgrid[plot]'."""
    listed = word_list(words)
    drawn = _draw(read_grid_argument(grid, shape, moves), out, words=listed, budget=listed.check_budget(budget),
                  path_rule=path_rule, checklist=checklist_path, water_borders=True if water_borders else None,
                  tile_map=tile_map, max_panels=max_panels, columns=columns, dpi=dpi)
    if as_json:
        _print_json(drawn)
    else:
        click.echo(_drawn_text(drawn))


def show_option(command: Callable[..., Any]) -> Callable[..., Any]:
    """--show FILE on fit and solve: draw the answer's grid as 'exactgrid show' does."""
    return click.option("--show", "show", metavar="FILE", default=None,
                        help="Also draw the answer's grid to FILE (.svg, .png, .pdf) as 'exactgrid show' does; "
                             "needs pip install 'exactgrid[plot]'.")(command)


def _can_draw(out: str | None) -> None:
    """Refuse --show FILE before any work when the file type is unknown or matplotlib is missing."""
    if out is not None:
        from .render.figure import ensure_matplotlib, picture_format

        picture_format(out)
        ensure_matplotlib()
        folder = os.path.dirname(os.path.abspath(out))
        if not os.path.isdir(folder):
            raise InputError(f"cannot write {out!r}: no such folder {folder!r}")


def _show_answer(answer: Any, out: str | None, as_json: bool, **options: Any) -> dict[str, Any] | None:
    """``--show FILE`` on fit and solve: draw the answer's grid, or say on stderr why there is none."""
    if out is None:
        return None
    if answer.grid is None:
        if not as_json:
            click.echo(f"--show: no grid to draw ({answer.verdict.value.upper()}); {out} not written", err=True)
        return {"out": None, "reason": f"no grid ({answer.verdict.value})"}
    try:
        drawn = _draw(answer, out, **options)
    except InputError as exc:  # the answer still stands and is printed; only the picture failed
        if not as_json:
            click.echo(f"--show: {exc}", err=True)
        return {"out": None, "reason": str(exc)}
    if not as_json:
        click.echo(_drawn_text(drawn), err=True)
    return drawn


# --------------------------------------------------------------------------- the other puzzles


def _answer_out(answer: Any, as_json: bool) -> None:
    """A puzzle answer (anything with ``to_dict()`` and ``text()``) as JSON or text."""
    if as_json:
        _print_json(answer.to_dict())
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


@cli.command("words")
@click.argument("grid", metavar="GRID")
@length_options
@click.option("--shape", metavar="RxC", default=None, help="Grid shape, e.g. 3x3 (default: square).")
@click.option("--moves", type=click.Choice(MOVE_RULES), default="king", show_default=True)
@click.option("--path", "path_rule", type=click.Choice(PATH_RULES), default="simple", show_default=True,
              help="simple: no cell twice (Trackword, Boggle); walk: cells may repeat.")
@click.option("--budget", type=click.IntRange(min=0), default=0, show_default=True, metavar="K",
              help="Letters that may be altered per word (Trackword: 0).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
def words_command(grid: str, list_name: str, min_length: int, max_length: int, shape: str | None, moves: str,
                  path_rule: str, budget: int, as_json: bool) -> None:
    """Every word of the list that GRID spells (Trackword: 3x3, king moves, no cell twice, 3-9
    letters), each with a path, grouped by length, with the count. One search over a trie of
    the list, not one per word."""
    from .puzzles.trackword import list_words

    answer = list_words(read_grid_argument(grid, shape, moves), list_name, path_rule, min_length,  # type: ignore[arg-type]
                        max_length, budget)
    _answer_out(answer, as_json)


@cli.command("trackword")
@click.argument("word", metavar="WORD")
@length_options
@click.option("--shape", metavar="RxC", default="3x3", show_default=True,
              help="Board shape: WORD has one letter per cell.")
@click.option("--moves", type=click.Choice(MOVE_RULES), default="king", show_default=True)
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
@click.pass_context
def trackword_command(ctx: click.Context, word: str, list_name: str, min_length: int, max_length: int, shape: str,
                      moves: str, as_json: bool) -> None:
    """Build the grid holding WORD (one letter per cell, along a path that never visits a cell
    twice) with the most words of the list: every placement of WORD is tried, so the grid shown
    is a proven best (exit 0). Ctrl-C or SIGTERM: the best of the grids scored by then (exit 3)."""
    from .geometry import Board, parse_shape
    from .puzzles.trackword import build_grid

    rows, cols = parse_shape(shape)
    answer = build_grid(word, list_name, min_length, max_length, Board(rows, cols, moves))  # type: ignore[arg-type]
    _answer_out(answer, as_json)
    ctx.exit(STOPPED_EXIT if answer.stopped_by else 0)


@cli.command("letterboxed")
@click.argument("box", metavar="BOX")
@click.option("--max-words", type=click.IntRange(min=1), default=None, metavar="N",
              help="At most N words (default: as many as the box has letters).")
@click.option("--list", "--words", "list_name", metavar="enable|FILE", default="enable", show_default=True,
              help="Word list: the bundled ENABLE dictionary, or a file (one word a line).")
@click.option("--method", type=click.Choice(["search", "ilp", "both"]), default="search", show_default=True,
              help="search: breadth-first over (last letter, letters covered); ilp: one integer programme per "
                   "word count through a backend; both: run the two and check that they agree.")
@click.option("--backend", default=None, metavar="NAME", help="Backend for the ILP (default cbc).")
@click.option("--time-limit", type=Seconds(), default=60.0, show_default=True, metavar="SECONDS",
              help="For the ILP: UNKNOWN after this long.")
@progress_option
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
@click.pass_context
def letterboxed_command(ctx: click.Context, box: str, max_words: int | None, list_name: str, method: str,
                        backend: str | None, time_limit: float, progress: bool | None, as_json: bool) -> None:
    """Solve NYT Letter Boxed: BOX is its sides, e.g. "vro wal eth bdi" (any number of sides of
    equal length, all letters different). Prints a solution with the fewest words, proven
    fewest (exit 0); none within --max-words, proven (exit 1); or unknown at the time limit or
    on Ctrl-C or SIGTERM, with what was shown by then (exit 3).
    Words have 3+ letters, consecutive letters from different sides, each word starts with the
    last letter of the one before, and every letter is used."""
    from .data import word_list
    from .puzzles.letterboxed import solve_letter_boxed

    dictionary = word_list(list_name)
    news = {"search": "breadth-first search", "ilp": f"ILP on {backend or 'cbc'}",
            "both": f"search, then ILP on {backend or 'cbc'}"}[method]
    with Progress("letterboxed", None if method == "search" else time_limit, progress, news):
        answer = solve_letter_boxed(box, dictionary, max_words, method, backend, time_left(time_limit))  # type: ignore[arg-type]
    _answer_out(answer, as_json)
    ctx.exit(STOPPED_EXIT if answer.stopped_by else 0 if answer.solved and answer.proven else 1 if answer.proven
             else 3)


PUZZLE_EXIT = {"optimal": 0, "best found": 3, "none": 3}


@cli.command("sumsquares")
@click.option("--n", "n", type=int, default=5, show_default=True, metavar="N",
              help="Grid size: n x n digits (1 to 12).")
@click.option("--method", type=click.Choice(["both", "ilp", "dp"]), default="both", show_default=True,
              help="ilp: the integer programme through a backend; dp: the exact dynamic programme; both: "
                   "run the two and check that they agree.")
@click.option("--backend", default=None, metavar="NAME",
              help="Backend for the integer programme: cbc (default), highs, cpsat.")
@click.option("--time-limit", type=Seconds(), default=60.0, show_default=True, metavar="SECONDS",
              help="Per method: the best grid found and a bound after this long.")
@progress_option
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
@click.pass_context
def sumsquares_command(ctx: click.Context, n: int, method: str, backend: str | None, time_limit: float,
                       progress: bool | None, as_json: bool) -> None:
    """Jane Street's Sum of Squares: an n x n grid of digits where row i, read as a number, is
    divisible by i and column j by n + j, with the largest digit sum, proven optimal (exit 0),
    or the best found with a bound (exit 3; also on Ctrl-C or SIGTERM, with what was found by then)."""
    from .puzzles.sumsquares import solve_sum_of_squares

    news = {"dp": "the dynamic programme", "ilp": f"the ILP on {backend or 'cbc'}",
            "both": f"the ILP on {backend or 'cbc'}, then the dynamic programme"}[method]
    with Progress("sumsquares", time_limit * (2 if method == "both" else 1), progress, news):
        answer = solve_sum_of_squares(n, method, backend, time_left(time_limit))  # type: ignore[arg-type]
    _answer_out(answer, as_json)
    ctx.exit(STOPPED_EXIT if answer.stopped_by else PUZZLE_EXIT[answer.status])


# --------------------------------------------------------------------------- fit and backends

FIT_EXIT = {"fits": 0, "does not fit": 1, "unknown": 3}


def _read_cells(text: str | None) -> str | None:
    """--cells: a file holding rows like ``P.NN.``, or the rows inline (``P.NN./...../...``)."""
    if text is None:
        return None
    if os.path.lexists(text):
        return read_text_file(text, "cells file")
    if re.search(r"[/\n]", text) and not text.startswith(("/", "./", "../", "~")):
        return text  # rows inline (one row: 'P.NN./'); parse_cells checks them
    raise InputError(f"no such cells file {text!r} (give a file, or rows inline like P.NN./...../.....)")


@cli.command("fit")
@click.argument("requirements", nargs=-1, metavar="[REQUIREMENT]...")
@click.option("--instance", metavar="FILE", default=None,
              help="TOML instance file: the base question; REQUIREMENTs and options given here add to it or win.")
@click.option("--forbid", multiple=True, metavar="WORD", help="A word that must not appear at all (repeatable).")
@click.option("--cells", metavar="FILE|ROWS", default=None,
              help="Fixed cells: rows of letters with '.' for free cells, as a file or inline 'P.NN./.....'.")
@click.option("--optional", multiple=True, metavar="WORD|all",
              help="A word counting towards --min-score/--min-count (repeatable; 'all' for every state).")
@click.option("--min-score", type=click.IntRange(min=0), default=None, metavar="N",
              help="Required and optional words found must weigh at least N.")
@click.option("--min-count", type=click.IntRange(min=0), default=None, metavar="N",
              help="At least N required and optional words found.")
@click.option("--shape", metavar="RxC", default="5x5", show_default=True, help="Grid shape.")
@click.option("--moves", type=click.Choice(MOVE_RULES), default="king", show_default=True)
@click.option("--path", "path_rule", type=click.Choice(PATH_RULES), default="walk", show_default=True)
@click.option("--budget", type=click.IntRange(min=0), default=1, show_default=True, metavar="K",
              help="Letters that may be altered per word.")
@click.option("--words", "words", metavar="FILE|us-states", default=None,
              help="Word list: a file (one word a line, or word,weight as CSV/TSV) or us-states (default).")
@click.option("--symmetry-breaking/--no-symmetry-breaking", default=False, show_default=True,
              help="Lex-leader symmetry breaking over the shape's symmetries (no fixed cells). Off by "
                   "default: measured, it slowed every solver on the fitting questions.")
@award_options
@click.option("--backend", default=None, metavar="NAME", help="Solver backend (see 'exactgrid backends').")
@click.option("--time-limit", type=Seconds(), default=60.0, show_default=True, metavar="SECONDS",
              help="Give up with UNKNOWN (exit 3) after this long.")
@click.option("--seed", type=click.IntRange(0, 2**31 - 1), default=0, show_default=True,
              help="Random seed handed to the solver.")
@click.option("--local-search", type=Seconds(), default=0.0, show_default=True, metavar="SECONDS",
              help="First look for a grid by local search (exactgrid solve's annealer) for up to this long, "
                   "then ask the backend with the time left. Only a FITS can come from the search.")
@click.option("--explain", is_flag=True,
              help="When it does not fit, name a minimal set of the requirements, forbidden words and fixed "
                   "cells that cannot hold together (each part re-checked by the solver).")
@click.option("--counting/--no-counting", default=True, show_default=True,
              help="When the backend has not decided within a second, try refuting by counting "
                   "(letter counts and adjacent pairs, with pair/count cores) before going on.")
@click.option("--certify", is_flag=True,
              help="When it does not fit, refute it again with a proof-logging CaDiCaL and check the DRUP proof "
                   "(exactgrid.prove.drup), within --time-limit again.")
@click.option("--write-cnf", metavar="FILE", default=None, help="Also write the model as DIMACS CNF.")
@click.option("--write-wcnf", metavar="FILE", default=None, help="Also write the model as WCNF.")
@click.option("--write-lp", metavar="FILE", default=None, help="Also write the model as an LP file.")
@click.option("--write-mps", metavar="FILE", default=None, help="Also write the model as an MPS file.")
@progress_option
@show_option
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
@click.pass_context
def fit_command(ctx: click.Context, requirements: tuple[str, ...], instance: str | None, forbid: tuple[str, ...],
                cells: str | None, optional: tuple[str, ...], min_score: int | None, min_count: int | None,
                shape: str, moves: str, path_rule: str, budget: int, words: str | None, symmetry_breaking: bool,
                checklist_path: str | None, award: tuple[str, ...], water_borders: bool,
                backend: str | None, time_limit: float, seed: int, local_search: float, explain: bool,
                counting: bool, certify: bool, write_cnf: str | None,
                write_wcnf: str | None, write_lp: str | None, write_mps: str | None, progress: bool | None,
                show: str | None, as_json: bool) -> None:
    """Can all REQUIREMENTs appear in one grid? Prints FITS with a verified grid (exit 0),
    DOES NOT FIT, proven (exit 1), or UNKNOWN after --time-limit (exit 3).

    \b
    REQUIREMENT forms:
      ILLINOIS            within the alteration budget (the puzzle's rule)
      ILLINOIS:exact      no letter altered
      ILLINOIS:2          exactly letter 2 altered (to any other letter)
      ILLINOIS:2=N        letter 2 altered to N
      ILLINOIS=INLINOIS   spelled exactly so
    States may be given as names ("New York"), keys (NEWYORK) or postal codes (NY).
    --award and --checklist add checklist items as constraints (C2C as a chain over borders).
    """
    from .backends import get_backend
    from .encode import EncodingTimeout, encode
    from .fit import FitAnswer, ModelSize, Verdict, fit, model_size
    from .question import ASKS_NOTHING, LIST_ARGUMENTS, build_question, load_instance
    from .render import fit_dict, fit_text

    arguments: dict[str, Any] = dict(requirements=requirements, forbid=forbid, optional=optional,
                                     min_score=min_score, min_count=min_count, shape=shape, moves=moves,
                                     path_rule=path_rule, budget=budget, symmetry_breaking=symmetry_breaking,
                                     words=words, cells=[_read_cells(cells)] if cells is not None else [])
    if instance is None:
        spec = build_question(**arguments, allow_empty=bool(award or checklist_path))
    else:
        # The file is the base; words on the command line add to it, options given there win.
        given = {key: value for key, value in arguments.items()
                 if key in LIST_ARGUMENTS or ctx.get_parameter_source(key) == click.core.ParameterSource.COMMANDLINE}
        spec = load_instance(instance, **given).question
    spec = _with_awards(spec, checklist_path, award, water_borders)
    if not spec.asks_something:
        raise BadInput(ASKS_NOTHING)
    solver = get_backend(backend)
    _can_draw(show)
    started = command_started()  # the time limit counts from the command's start
    encoding = None
    stopped_by: str | None = None
    try:
        with Progress("fit", time_limit, progress, f"solving with {solver.name}") as shown:
            found = None
            if local_search > 0:
                from .solve.fitting import search_for_fit

                shown.news(f"local search, then solving with {solver.name}")
                found = search_for_fit(spec, min(local_search, time_left(time_limit)), seed=seed)
                shown.news(f"solving with {solver.name}")
            try:
                encoding = encode(spec, deadline=started + time_limit)
            except EncodingTimeout as exc:
                answer = FitAnswer(Verdict.UNKNOWN, spec, backend=solver.name, detail=str(exc))
            else:
                _write_exports(encoding, write_cnf=write_cnf, write_wcnf=write_wcnf, write_lp=write_lp,
                               write_mps=write_mps)
                left = max(0.0, time_limit - (time.monotonic() - started))
                if found is not None:
                    answer = replace(found, model_size=model_size(encoding.model))
                else:
                    answer = fit(spec, backend=solver, time_limit=left, seed=seed, encoding=encoding,
                                 explain=explain, counting=counting)
    except KeyboardInterrupt as exc:  # Ctrl-C, or SIGTERM/SIGHUP (see exactgrid.stopping)
        stopped_by = interruption(exc)
        answer = FitAnswer(Verdict.UNKNOWN, spec, backend=solver.name, detail=f"interrupted ({stopped_by})",
                           model_size=model_size(encoding.model) if encoding else ModelSize())
    answer = replace(answer, seconds=time.monotonic() - started)
    certificate = None
    if certify and answer.verdict == Verdict.DOES_NOT_FIT:
        from .prove.certify import certify_counting, certify_refutation

        try:
            with Progress("fit --certify", time_limit, progress, "checking the refutation's proof"):
                if answer.counting is not None and answer.counting.status == "refuted":
                    certificate = certify_counting(spec, answer.counting, time_limit)
                else:
                    certificate = certify_refutation(spec, time_limit, encoding)
        except KeyboardInterrupt as exc:  # the verdict stands, uncertified
            stopped_by = interruption(exc)
            answer = replace(answer, detail=f"{answer.detail}; --certify interrupted ({stopped_by})".lstrip("; "))
    drawn = _show_answer(answer, show, as_json, checklist=checklist_path,
                         water_borders=True if water_borders else None)
    if as_json:
        extra = {"picture": drawn} if drawn else {}
        _print_json({**fit_dict(answer), **extra, **({"certificate": certificate.to_dict()} if certificate else {}),
                     "stopped_by": stopped_by})
    else:
        click.echo(fit_text(answer))
        if certificate is not None:
            click.echo(certificate.text())
    ctx.exit(STOPPED_EXIT if stopped_by else FIT_EXIT[answer.verdict])


@cli.command("bound")
@click.argument("requirements", nargs=-1, metavar="[REQUIREMENT]...")
@click.option("--optional", multiple=True, metavar="WORD|all",
              help="Words the bound scores (repeatable; default: all).")
@click.option("--forbid", multiple=True, metavar="WORD", help="A word the grid must not hold: it is not scored.")
@click.option("--min-score", type=click.IntRange(min=0), default=None, metavar="N")
@click.option("--min-count", type=click.IntRange(min=0), default=None, metavar="N")
@click.option("--cells", metavar="FILE|ROWS", default=None,
              help="Fixed cells: rows of letters with '.' for free cells, as a file or inline 'P.NN./.....'.")
@click.option("--shape", metavar="RxC", default="5x5", show_default=True, help="Grid shape.")
@click.option("--moves", type=click.Choice(MOVE_RULES), default="king", show_default=True)
@click.option("--budget", type=click.IntRange(0, 1), default=1, show_default=True, metavar="K",
              help="Letters that may be altered per word (the relaxation models 0 or 1).")
@click.option("--words", "words", metavar="FILE|us-states", default=None)
@award_options
@click.option("--method", type=click.Choice(["cores", "relaxation"]), default="cores", show_default=True,
              help="cores: the relaxation cut by pair/count cores, on one HiGHS model, anytime; relaxation: "
                   "the relaxation alone, through --backend.")
@click.option("--backend", default=None, metavar="NAME",
              help="With --method relaxation: its backend (default highs; an ILP or a SAT backend).")
@click.option("--time-limit", type=Seconds(), default=60.0, show_default=True, metavar="SECONDS")
@click.option("--certify", is_flag=True,
              help="With --method cores: refute each core and 'score above the bound' again with DRUP proofs "
                   "that exactgrid checks (within another --time-limit).")
@click.option("--cores-per-round", type=click.IntRange(1, 50), default=1, show_default=True, metavar="N",
              help="After a new core, look for more (with pairs disjoint from it) in the same solution.")
@click.option("--triples", is_flag=True,
              help="Cores may also name letter triples (a cell of B next to an A and a C): stronger cuts, "
                   "more rounds (off by default until measured on the benchmarks).")
@click.option("--exact", is_flag=True,
              help="With --method cores: give each optimum's words and letter counts to the question's exact model "
                   "first: a grid there proves the bound is the best score; a word count core is one more cut.")
@click.option("--exact-seconds", type=Seconds(), default=60.0, show_default=True, metavar="SECONDS",
              help="With --exact: how long the exact model gets a round before the placement check takes over.")
@click.option("--workers", type=click.IntRange(min=1), default=None, metavar="N",
              help="With --method cores: N core searches at once, this process's and N-1 on worker processes "
                   "(default 1; at most the cores here; with --scheduler, 1 + the cluster's threads), each "
                   "shrinking in its own order.")
@click.option("--scheduler", metavar="ADDRESS", default=None,
              help="Run the worker searches on the Dask cluster whose scheduler is at ADDRESS; "
                   "needs pip install 'exactgrid[dask]'.")
@progress_option
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
@click.pass_context
def bound_command(ctx: click.Context, requirements: tuple[str, ...], optional: tuple[str, ...],
                  forbid: tuple[str, ...], min_score: int | None, min_count: int | None, cells: str | None,
                  shape: str, moves: str, budget: int, words: str | None, checklist_path: str | None,
                  award: tuple[str, ...], water_borders: bool, method: str, backend: str | None, time_limit: float,
                  certify: bool, cores_per_round: int, triples: bool, exact: bool, exact_seconds: float,
                  workers: int | None, scheduler: str | None, progress: bool | None, as_json: bool) -> None:
    """An upper bound on the best score of any grid holding the REQUIREMENTs (default: no
    requirement, every word scored), or DOES NOT FIT by counting, from the counting relaxation
    (letter counts, letter pairs, degrees) cut by pair/count cores. Forbidden words are not
    scored; beyond that, forbids and chains (--award C2C) only lower the true best, so the
    relaxation leaves them out. --award M8 --award PA --award 4C --award NOCAL bounds the grids
    earning those awards. With --exact, a bound the exact model reaches is the best score, with
    its grid. Exit 0 with a proven bound or refutation, 3 at the time limit or on Ctrl-C (with
    the best bound proven by then)."""
    from .question import build_question

    if method == "cores" and backend not in (None, "highs"):
        raise BadInput("--method cores runs on HiGHS; --backend chooses the solver of --method relaxation")
    spreading = {"--certify": certify, "--triples": triples, "--exact": exact, "--workers": workers is not None,
                 "--scheduler": scheduler is not None}
    for flag, given in spreading.items():
        if given and method != "cores":
            raise BadInput(f"{flag} needs --method cores")
    question = build_question(requirements=requirements, forbid=forbid, optional=optional or ["all"],
                              min_score=min_score, min_count=min_count, shape=shape, moves=moves, budget=budget,
                              words=words, cells=[_read_cells(cells)] if cells is not None else [],
                              allow_empty=True)
    question = _with_awards(question, checklist_path, award, water_borders)
    if method == "relaxation":
        from .prove.counting import CountingAnswer, count_question

        chosen = "highs" if backend is None else backend
        started = time.monotonic()
        try:
            with Progress("bound", time_limit, progress, f"the counting relaxation on {chosen}"):
                answer: Any = count_question(question, chosen, time_left(time_limit))
        except KeyboardInterrupt as exc:
            answer = CountingAnswer("open", None, chosen, time.monotonic() - started,
                                    f"interrupted ({interruption(exc)}) before the relaxation was solved")
            stopped_by: str | None = interruption(exc)
        else:
            stopped_by = None
    else:
        from .backends import get_backend
        from .prove.bound import bound

        get_backend("highs")  # one clear line when highspy is missing
        executor, close = None, None
        if scheduler is None and workers is not None:
            workers = _clamped_workers(workers)
        if scheduler is not None:
            from .pool import dask_client, dask_threads

            client = dask_client(scheduler)
            executor, close = client.get_executor(), client.close
            workers = workers or 1 + dask_threads(client)
        with contextlib.ExitStack() as stack, Progress("bound", time_limit, progress, "no bound yet") as shown:
            if close is not None:
                stack.callback(close)
            state = {"bound": None, "rounds": 0, "cores": 0}

            def heard(value: int | None = None, seconds: float = 0.0, round_: int | None = None,
                      core: Any = None) -> None:
                if value is not None:
                    state["bound"] = value
                if round_ is not None:
                    state["rounds"] = round_
                    state["cores"] += core is not None
                best = "no bound yet" if state["bound"] is None else f"bound {state['bound']:,}"
                shown.news(f"{best}, round {state['rounds']}, {plural(state['cores'] or 0, 'cut')}")

            try:
                answer = bound(question, time_left(time_limit), on_bound=lambda v, s: heard(v, s),
                               on_round=lambda r, c: heard(round_=r, core=c), certify=certify,
                               certify_seconds=time_limit, triples=triples, cores_per_round=cores_per_round,
                               workers=workers or 1, executor=executor, exact=exact, exact_seconds=exact_seconds)
            except KeyboardInterrupt as exc:  # before bound() could catch it itself
                from .prove.bound import BoundAnswer

                answer = BoundAnswer("open", None, sum(question.scoring_weights().values()),
                                     seconds=time.monotonic() - shown.started,
                                     detail=f"interrupted ({interruption(exc)}) before the first bound",
                                     stopped_by=interruption(exc))
        stopped_by = answer.stopped_by
    if as_json:
        _print_json({**answer.to_dict(), "stopped_by": stopped_by})
    else:
        click.echo(answer.text())
    ctx.exit(STOPPED_EXIT if stopped_by or answer.status == "open" else 0)


def _write_exports(encoding: Encoding, **paths: str | None) -> None:
    """The model in the file formats asked for (``write_cnf=PATH``, ...), before solving."""
    from . import export

    writers = {"write_cnf": export.write_dimacs, "write_wcnf": export.write_wcnf,
               "write_lp": export.write_lp, "write_mps": export.write_mps}
    for key, path in paths.items():
        if path:
            try:
                writers[key](encoding.model, path)
            except OSError as exc:
                raise BadInput(f"cannot write {path!r}: {exc.strerror or exc}") from None


SOLVE_EXIT = {"fits": 0, "unknown": 3}


@cli.command("solve")
@click.argument("requirements", nargs=-1, metavar="[REQUIREMENT]...")
@click.option("--forbid", multiple=True, metavar="WORD", help="A word that must not appear at all (repeatable).")
@click.option("--cells", metavar="FILE|ROWS", default=None,
              help="Fixed cells: rows of letters with '.' for free cells, as a file or inline 'P.NN./.....'.")
@click.option("--min-score", type=click.IntRange(min=0), default=None, metavar="N",
              help="The grid must score at least N.")
@click.option("--min-count", type=click.IntRange(min=0), default=None, metavar="N",
              help="The grid must hold at least N words.")
@award_options
@click.option("--shape", metavar="RxC", default="5x5", show_default=True, help="Grid shape.")
@click.option("--moves", type=click.Choice(MOVE_RULES), default="king", show_default=True)
@click.option("--budget", type=click.IntRange(min=0), default=1, show_default=True, metavar="K",
              help="Letters that may be altered per word.")
@click.option("--words", "words", metavar="FILE|us-states", default=None,
              help="Word list: a file (one word a line, or word,weight as CSV/TSV) or us-states (default).")
@click.option("--time-limit", type=Seconds(), default=60.0, show_default=True, metavar="SECONDS",
              help="Stop after this long with the best grid so far (Ctrl-C and SIGTERM too, with exit 3).")
@click.option("--workers", type=click.IntRange(min=1), default=None, metavar="N",
              help="Search threads (default: one per core; more than the cores here are lowered to them).")
@click.option("--seed", type=click.IntRange(0, 2**31 - 1), default=0, show_default=True)
@click.option("--start", "start", metavar="GRID", default=None, help="Improve this grid (letters or a file).")
@click.option("--out", "out", metavar="FILE", default=None,
              help="Append every improvement to FILE as a JSON line (grid, score, states, awards, elapsed, worker).")
@click.option("--certify-window", type=click.IntRange(min=1), default=None, metavar="K",
              help="Then prove that no change of at most K cells improves the grid (SAT per window of K "
                   "cells; improving it first when one does). K = 3 takes about a minute on 5x5.")
@click.option("--certify-time-limit", type=Seconds(), default=None, metavar="SECONDS",
              help="Time for --certify-window (default: --time-limit again).")
@progress_option
@show_option
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
@click.pass_context
def solve_command(ctx: click.Context, requirements: tuple[str, ...], forbid: tuple[str, ...], cells: str | None,
                  min_score: int | None, min_count: int | None, checklist_path: str | None, award: tuple[str, ...],
                  water_borders: bool, shape: str, moves: str, budget: int, words: str | None, time_limit: float,
                  workers: int | None, seed: int, start: str | None, out: str | None,
                  certify_window: int | None, certify_time_limit: float | None, progress: bool | None,
                  show: str | None, as_json: bool) -> None:
    """The highest-scoring grid found in --time-limit: every word of the list scores its weight
    (population); REQUIREMENTs, --forbid, --cells, --min-score/--min-count and the awards asked
    for (--award, --checklist) are hard constraints. Prints the best grid like 'score', with the
    checklist asked for (exit 0), or UNKNOWN when no grid met the constraints (exit 3). Ctrl-C or
    SIGTERM stop it with the best grid so far (exit 3).
    """
    from .question import build_question, choose_checklist
    from .render import solve_dict, solve_text
    from .solve import solve

    question = build_question(requirements=requirements, forbid=forbid, min_score=min_score, min_count=min_count,
                              shape=shape, moves=moves, budget=budget, words=words, allow_empty=True,
                              cells=[_read_cells(cells)] if cells is not None else [])
    checklist = choose_checklist(checklist_path, award)
    start_grid = read_grid_argument(start, shape, moves) if start is not None else None
    _can_draw(show)
    workers = _clamped_workers(workers)
    certifying = 0.0 if certify_window is None else time_limit if certify_time_limit is None else certify_time_limit
    with _SolveReport(out, question.words.name == us_states().name) as report, \
            Progress("solve", time_limit + certifying, progress, "starting the search") as shown:
        report.shown = shown
        try:
            answer = solve(question, checklist=checklist, water_borders=True if water_borders else None,
                           time_limit=time_left(time_limit), workers=workers, seed=seed, start=start_grid,
                           certify_window=certify_window, certify_time_limit=certify_time_limit,
                           on_improvement=report.improvement, on_certify_progress=report.certifying,
                           on_progress=report.progress, on_compile=report.compiling)
        except KeyboardInterrupt as exc:  # before the search began: no answer object
            from .question import Verdict
            from .solve import SolveAnswer

            answer = SolveAnswer(question=question, verdict=Verdict.UNKNOWN, check=None,
                                 stopped_by=interruption(exc))
    drawn = _show_answer(answer, show, as_json, checklist=checklist_path,
                         water_borders=True if water_borders else None)
    if as_json:
        _print_json({**solve_dict(answer), **({"picture": drawn} if drawn else {})})
    else:
        click.echo(solve_text(answer))
    ctx.exit(STOPPED_EXIT if is_interruption(answer.stopped_by) else SOLVE_EXIT[answer.verdict])


COMPILE_NOTICE = ("compiling the search kernel for this machine (once after an install: about 15 s on one core, "
                  "counted in --time-limit; a run that ends first leaves it uncompiled)")


class _SolveReport:
    """Where a search's news goes: improvements to the --out file (JSON lines), progress to
    the command's :class:`~exactgrid.cli_progress.Progress` line (set ``shown``)."""

    def __init__(self, out: str | None, us: bool) -> None:
        self.path = out
        self.us = us
        self.file: Any = None
        self.shown: Progress | None = None

    def __enter__(self) -> _SolveReport:
        if self.path is not None:
            try:
                self.file = open(self.path, "a", encoding="utf-8")  # noqa: SIM115 (closed in __exit__)
            except OSError as exc:
                raise BadInput(f"cannot write {self.path!r}: {exc.strerror or exc}") from None
        return self

    def __exit__(self, *exc: object) -> None:
        if self.file is not None:
            self.file.close()

    def awards(self, words: Any, total: int) -> list[str]:
        """The default checklist's items that a set of found states meets (US states only)."""
        if not self.us:
            return []
        verdict = evaluate(default_checklist(), words, total)
        return [r.key for r in verdict.items if r.passed]

    def improvement(self, found: Any) -> None:
        """Append an improvement (already checked by the finder) to the --out file."""
        if self.file is None:
            return
        awards = self.awards(found.words, found.score)
        line = {"grid": found.grid, "score": found.score, "states" if self.us else "words": list(found.words),
                "awards": awards, "elapsed": round(found.elapsed, 3), "cpu_seconds": round(found.cpu_seconds, 3),
                "worker": found.worker}
        self.file.write(json.dumps(line) + "\n")
        self.file.flush()

    def compiling(self) -> None:
        """Say, whatever the progress setting, that the search kernel is being compiled."""
        if self.shown is not None:
            self.shown.notice(COMPILE_NOTICE)

    def certifying(self, done: int, windows: int) -> None:
        """Show how far --certify-window has got."""
        if self.shown is not None:
            self.shown.news(f"certifying: {done:,} of {plural(windows, 'window')} asked or covered by a core")

    def progress(self, stats: Any) -> None:
        """Show how the search is going."""
        if self.shown is not None and self.shown.enabled and stats.kind == "progress":
            self.shown.news(stats.message)


@cli.command("fit-many")
@click.argument("questions_file", metavar="FILE.jsonl")
@click.option("--backend", default=None, metavar="NAME", help="Solver backend for every question.")
@click.option("--time-limit", type=Seconds(), default=60.0, show_default=True, metavar="SECONDS",
              help="Per question: UNKNOWN after this long.")
@click.option("--total-time-limit", type=Seconds(), default=None, metavar="SECONDS",
              help="For the whole run: questions not answered by then are reported as not answered.")
@click.option("--workers", type=click.IntRange(min=1), default=None, metavar="N",
              help="Worker processes on this machine (default: one per core; more than the cores here are "
                   "lowered to them; with --scheduler, questions in flight at once).")
@click.option("--scheduler", metavar="ADDRESS", default=None,
              help="Run on the Dask cluster whose scheduler is at ADDRESS (e.g. tcp://host:8786); "
                   "needs pip install 'exactgrid[dask]'.")
@click.option("--seed", type=click.IntRange(0, 2**31 - 1), default=0, show_default=True)
@progress_option
@click.option("--json", "as_json", is_flag=True,
              help="Accepted for uniformity: the answers are JSON lines anyway (and bad input is then a JSON "
                   "object on stdout, as for every command).")
@click.pass_context
def fit_many_command(ctx: click.Context, questions_file: str, backend: str | None, time_limit: float,
                     total_time_limit: float | None, workers: int | None, scheduler: str | None, seed: int,
                     progress: bool | None, as_json: bool) -> None:
    """Answer every question of FILE.jsonl (one JSON object a line: the keys of a TOML instance
    file plus an optional "id"; "-" reads stdin), in parallel, printing one JSON line per answer
    in completion order: id, verdict, grid, seconds and the rest of 'fit --json', or id and
    error (a line that is not JSON, gives a key twice or is nested too deeply is an error for
    that line). Exit status 0; 2 if some line was bad input, or (one Error line) when the file
    holds no question; 3 if some question was not answered (time limit, Ctrl-C).
    """
    from .backends import get_backend
    from .fit.many import fit_many, read_questions
    from .pool import dask_executor
    from .render import fit_dict

    get_backend(backend)  # an unknown or missing backend is bad input, before any work
    if questions_file == "-":
        source = "standard input"
        text = read_text_stream(click.get_binary_stream("stdin"), "questions file")
    else:
        source = questions_file
        text = read_text_file(questions_file, "questions file")
    lines = text.splitlines()  # a file with no question: read_questions's InputError, one Error line
    if scheduler is None:
        workers = _clamped_workers(workers)
    executor, close = dask_executor(scheduler) if scheduler else (None, lambda: None)
    counts = {"fits": 0, "does not fit": 0, "unknown": 0, "error": 0}
    status = 0
    try:
        with Progress("fit-many", total_time_limit, progress, "0 answered") as shown:
            stream = fit_many(read_questions(lines, source), backend=backend,
                              time_limit=time_limit, total_time_limit=time_left(total_time_limit), workers=workers,
                              executor=executor, seed=seed)
            for item in stream:
                if item.answer is None:
                    counts["error"] += 1
                    status = max(status, 3 if str(item.error).startswith("not answered") else 2)
                    line = {"id": item.id, "error": item.error}
                else:
                    counts[item.answer.verdict.value] += 1
                    status = max(status, 3 if item.answer.verdict == "unknown" else 0)
                    line = {"id": item.id, **fit_dict(item.answer), "worker": item.worker}
                click.echo(json.dumps(line))
                summary = ", ".join(f"{key} {value}" for key, value in counts.items() if value)
                shown.news(f"{sum(counts.values())} answered ({summary})")
    except KeyboardInterrupt as exc:
        click.echo(json.dumps({"stopped": f"interrupted ({interruption(exc)})", "stopped_by": interruption(exc)}))
        status = STOPPED_EXIT
    finally:
        close()
    ctx.exit(status)


@cli.command("backends")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
def backends_command(as_json: bool) -> None:
    """List the solver backends: available here or not, version, and what each can do."""
    from .backends import default_backend_name, list_backends

    rows = list_backends()
    if as_json:
        _print_json({"default": default_backend_name(), "backends": [r.to_dict() for r in rows]})
        return
    table = [[r.name + (" *" if r.name == default_backend_name() else ""), "yes" if r.available else "no",
              r.version or "-", ",".join(sorted(r.capabilities)), r.description] for r in rows]
    from .render import text_table

    click.echo(text_table(["backend", "available", "version", "can", "description"], table))
    click.echo("\n* default")


def main() -> None:
    """Console-script entry point (``exactgrid``): SIGTERM and SIGHUP stop work as Ctrl-C does."""
    with stop_on_signals():
        # the process was started for this command: its start-up counts against --time-limit
        cli(prog_name="exactgrid", obj={"started": time.monotonic() - process_age()})
