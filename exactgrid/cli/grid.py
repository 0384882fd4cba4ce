"""The grid commands: ``score``, ``check``, ``show`` and ``words``.

JSON output (``--json``), stable keys, after the answer contract's (``outcome``, ``seconds``,
``stopped_by``, ``exit_code``):

* ``score``: ``grid`` (letters), ``rows``, ``shape`` [rows, cols], ``moves``, ``path_rule``,
  ``budget``, ``total``, ``count``, ``found`` -- a list, heaviest first, of {``state``,
  ``name``, ``population``, ``spelled``, ``marked``, ``altered`` [{``position``, ``from``,
  ``to``}], ``path`` (cell labels), ``cells`` (0-based indices)} --, ``unchecked`` (the words
  not looked for when the time limit or a signal came first: exit 3) and ``timed_out``.
* ``check``: everything ``score`` gives, plus ``checklist`` (name), ``checklist_source``,
  ``water_borders``, ``passed`` (bool; null when the score was cut short), ``failed`` (item
  keys), ``items`` -- a list of {``key``, ``title``, ``kind``, ``passed``, ``evidence``,
  ``details``}; for a chain item ``details.chain`` is the chain (east to west) or null.
  ``check`` exits 1 when some checklist item fails, 3 when the score was cut short.
* ``show``: the picture's keys (see :mod:`exactgrid.cli.pictures`).
"""

from __future__ import annotations

import click

from ..finder import PATH_RULES
from ..geometry import MOVE_RULES
from .base import (
    Seconds,
    answer_out,
    grid_options,
    length_options,
    picture_options,
    print_json,
    read_grid_argument,
)
from .pictures import can_draw, draw_picture, drawn_text
from .progress import time_left


def score_time_help(answer: str) -> str:
    """The --time-limit help of a command that scores a grid: what it answers when cut short."""
    return (f"Stop after this long, with {answer}: exit 3 (the US states on walks take milliseconds; simple "
            "paths with a large --budget, or a long --words list, may not).")


@click.command("score")
@grid_options
@click.option("--time-limit", type=Seconds(), default=60.0, show_default=True, metavar="SECONDS",
              help=score_time_help("the words found so far"))
@click.pass_context
def score_command(ctx: click.Context, grid: str, shape: str | None, moves: str, path_rule: str, budget: int,
                  words: str | None, as_json: bool, time_limit: float) -> None:
    """Score GRID: the words it holds (the US states unless --words), how each is spelled, and their
    total weight (population)."""
    from ..api import score

    answer = score(read_grid_argument(grid, shape, moves), words, budget, path_rule,  # type: ignore[arg-type]
                   time_limit=time_left(time_limit))
    answer_out(answer, as_json)
    ctx.exit(answer.exit_code)


@click.command("check")
@grid_options
@click.option("--checklist", "checklist_path", metavar="FILE", default=None,
              help="Checklist TOML (default: the Altered States 2 awards plus QUALIFY).")
@click.option("--water-borders", is_flag=True, default=False,
              help="Chains may cross the 3 water-only borders (IL-MI, MI-MN, NY-RI).")
@click.option("--only", "only", metavar="KEY", multiple=True, help="Check only this item (repeatable).")
@click.option("--time-limit", type=Seconds(), default=60.0, show_default=True, metavar="SECONDS",
              help=score_time_help("no verdict if the score is not complete"))
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
    time_limit: float,
) -> None:
    """Check GRID against a checklist: PASS/FAIL per item with evidence; exit 1 if any fails."""
    from ..api import check

    answer = check(read_grid_argument(grid, shape, moves), checklist_path, True if water_borders else None, budget,
                   path_rule, only, words, time_limit=time_left(time_limit))  # type: ignore[arg-type]
    answer_out(answer, as_json)
    ctx.exit(answer.exit_code)


@click.command("show")
@grid_options
@click.option("--out", "out", metavar="FILE", required=True, help="Where to write the picture: .svg, .png or .pdf.")
@click.option("--checklist", "checklist_path", metavar="FILE", default=None,
              help="Checklist TOML for the map's badges (default: the Altered States 2 awards plus QUALIFY).")
@click.option("--water-borders", is_flag=True, default=False,
              help="Chains may cross the 3 water-only borders (IL-MI, MI-MN, NY-RI).")
@picture_options
@click.option("--time-limit", type=Seconds(), default=60.0, show_default=True, metavar="SECONDS",
              help=score_time_help("no picture"))
@click.pass_context
def show_command(ctx: click.Context, grid: str, shape: str | None, moves: str, path_rule: str, budget: int,
                 words: str | None, as_json: bool, out: str, checklist_path: str | None, water_borders: bool,
                 tile_map: bool | None, max_panels: int | None, columns: int | None, dpi: int,
                 time_limit: float) -> None:
    """Draw GRID to --out: the grid, one panel per word found (its path as arrows, the altered
    cell marked), and for the US states a tile map with the found states, the coast-to-coast
    chain and the award badges. Needs matplotlib: pip install 'exactgrid[plot]'."""
    from ..api import score

    can_draw(out)
    scored = score(read_grid_argument(grid, shape, moves), words, budget, path_rule,  # type: ignore[arg-type]
                   time_limit=time_left(time_limit))
    if not scored.complete:  # a picture of part of the words would show them as all
        reason = f"no picture: {scored.cut_short_line()}"
        if as_json:
            print_json({"out": None, "reason": reason})
        else:
            click.echo(reason)
        ctx.exit(scored.exit_code)
    drawn = draw_picture(scored, out, checklist=checklist_path, water_borders=True if water_borders else None,
                         tile_map=tile_map, max_panels=max_panels, columns=columns, dpi=dpi)
    drawn["seconds"] = round(scored.seconds + drawn["seconds"], 3)  # the scoring, then the drawing
    if as_json:
        print_json(drawn)
    else:
        click.echo(drawn_text(drawn))


@click.command("words")
@click.argument("grid", metavar="GRID")
@length_options
@click.option("--shape", metavar="RxC", default=None, help="Grid shape, e.g. 3x3 (default: square).")
@click.option("--moves", type=click.Choice(MOVE_RULES), default="king", show_default=True)
@click.option("--path", "path_rule", type=click.Choice(PATH_RULES), default="simple", show_default=True,
              help="simple: no cell twice (Trackword, Boggle); walk: cells may repeat.")
@click.option("--budget", type=click.IntRange(min=0), default=0, show_default=True, metavar="K",
              help="Letters that may be altered per word (Trackword: 0).")
@click.option("--time-limit", type=Seconds(), default=60.0, show_default=True, metavar="SECONDS",
              help="Stop after this long, with the words found so far: exit 3.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
@click.pass_context
def words_command(ctx: click.Context, grid: str, list_name: str, min_length: int, max_length: int,
                  shape: str | None, moves: str, path_rule: str, budget: int, time_limit: float,
                  as_json: bool) -> None:
    """Every word of the list that GRID spells (Trackword: 3x3, king moves, no cell twice, 3-9
    letters), each with a path, grouped by length, with the count. One search over a trie of
    the list, not one per word."""
    from ..puzzles.trackword import list_words

    answer = list_words(read_grid_argument(grid, shape, moves), list_name, path_rule, min_length,  # type: ignore[arg-type]
                        max_length, budget, time_left(time_limit))
    answer_out(answer, as_json)
    ctx.exit(answer.exit_code)
