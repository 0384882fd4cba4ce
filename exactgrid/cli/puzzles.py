"""The other puzzles: ``trackword``, ``letterboxed`` and ``sumsquares``.

JSON output (``--json``): each puzzle's answer as its ``to_dict()`` gives it, with
``stopped_by`` (null, or what interrupted the work: ``Ctrl-C``, ``SIGTERM``, ``SIGHUP``).
Stopped by one of those, a command prints its answer so far and exits 3 (see
:mod:`exactgrid.cli.progress`).
"""

from __future__ import annotations

import click

from ..geometry import MOVE_RULES
from .base import Seconds, answer_out, length_options
from .progress import Progress, progress_option, time_left


@click.command("trackword")
@click.argument("word", metavar="WORD")
@length_options
@click.option("--shape", metavar="RxC", default="3x3", show_default=True,
              help="Board shape: WORD has one letter per cell.")
@click.option("--moves", type=click.Choice(MOVE_RULES), default="king", show_default=True)
@click.option("--time-limit", type=Seconds(), default=60.0, show_default=True, metavar="SECONDS",
              help="The best grid scored by then (unproven) after this long.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
@click.pass_context
def trackword_command(ctx: click.Context, word: str, list_name: str, min_length: int, max_length: int, shape: str,
                      moves: str, time_limit: float, as_json: bool) -> None:
    """Build the grid holding WORD (one letter per cell, along a path that never visits a cell
    twice) with the most words of the list: every placement of WORD is tried, so the grid shown
    is a proven best (exit 0). Ctrl-C or SIGTERM: the best of the grids scored by then (exit 3)."""
    from ..puzzles.trackword import build_grid

    answer = build_grid(word, list_name, min_length, max_length, shape, moves, time_limit=time_left(time_limit))  # type: ignore[arg-type]
    answer_out(answer, as_json)
    ctx.exit(answer.exit_code)


@click.command("letterboxed")
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
              help="For the whole command: UNKNOWN (or the best found) after this long.")
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
    from ..puzzles.letterboxed import solve_letter_boxed

    with Progress("letterboxed", time_limit, progress, "starting") as shown:
        answer = solve_letter_boxed(box, list_name, max_words, method, backend, time_left(time_limit),  # type: ignore[arg-type]
                                    on_progress=shown.event)
    answer_out(answer, as_json)
    ctx.exit(answer.exit_code)


@click.command("sumsquares")
@click.option("--n", "n", type=int, default=5, show_default=True, metavar="N",
              help="Grid size: n x n digits (1 to 12).")
@click.option("--method", type=click.Choice(["both", "ilp", "dp"]), default="both", show_default=True,
              help="ilp: the integer programme through a backend; dp: the exact dynamic programme; both: "
                   "run the two and check that they agree.")
@click.option("--backend", default=None, metavar="NAME",
              help="Backend for the integer programme: cbc (default), highs, cpsat.")
@click.option("--time-limit", type=Seconds(), default=60.0, show_default=True, metavar="SECONDS",
              help="For the whole run: the best grid found and a bound after this long.")
@progress_option
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
@click.pass_context
def sumsquares_command(ctx: click.Context, n: int, method: str, backend: str | None, time_limit: float,
                       progress: bool | None, as_json: bool) -> None:
    """Jane Street's Sum of Squares: an n x n grid of digits where row i, read as a number, is
    divisible by i and column j by n + j, with the largest digit sum, proven optimal (exit 0),
    or the best found, with a bound when the solver proved one (exit 0; exit 3 on Ctrl-C or
    SIGTERM, with what was found by then)."""
    from ..puzzles.sumsquares import solve_sum_of_squares

    with Progress("sumsquares", time_limit, progress, "starting") as shown:
        answer = solve_sum_of_squares(n, method, backend, time_left(time_limit), on_progress=shown.event)  # type: ignore[arg-type]
    answer_out(answer, as_json)
    ctx.exit(answer.exit_code)
