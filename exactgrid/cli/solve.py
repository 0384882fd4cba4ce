"""The ``solve`` command: the highest-scoring grid found in a time limit.

JSON output (``--json``): the solve answer's keys (see :meth:`exactgrid.solving.SolveAnswer.to_dict`),
with ``picture`` under ``--show`` (see :mod:`exactgrid.cli.pictures`). Stopped by Ctrl-C,
SIGTERM or SIGHUP it prints the best grid so far and exits 3.
"""

from __future__ import annotations

import click

from ..geometry import MOVE_RULES
from ..inputs import MAX_SEED
from .base import (
    Seconds,
    award_options,
    clamped_workers,
    read_cells,
    read_grid_argument,
    show_option,
)
from .pictures import can_draw, print_answer
from .progress import Progress, progress_option, time_left


@click.command("solve")
@click.argument("requirements", nargs=-1, metavar="[REQUIREMENT]...")
@click.option("--forbid", multiple=True, metavar="WORD", help="A word that must not appear at all (repeatable).")
@click.option("--cells", metavar="FILE|ROWS", default=None,
              help="Cells: rows of letters with '.' for a free cell and [AB] for a choice of letters, "
                   "as a file or inline 'P.NN./.....'.")
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
@click.option("--seed", type=click.IntRange(0, MAX_SEED), default=0, show_default=True)
@click.option("--max-proposals", type=click.IntRange(min=1), default=None, metavar="N",
              help="Also stop after N proposals, shared between the workers: with one worker, the same --seed "
                   "then ends with the same best grid on any machine, however fast (unless --time-limit comes "
                   "first).")
@click.option("--start", "start", metavar="GRID", default=None,
              help="Improve this grid (letters or a file); a cell that --cells fixes, or limits to letters "
                   "its start letter is not, starts with the first letter allowed.")
@click.option("--graded", is_flag=True,
              help="Grade missing required words: one counts as many violations as the letters it needs altered "
                   "beyond the budget (at most 3), so the search feels it coming closer. Grids found still meet "
                   "every constraint. Measured: docs/benchmarks.md (Solve).")
@click.option("--out", "out", metavar="FILE", default=None,
              help="Append every improvement to FILE as a JSON line (grid, score, states, awards, elapsed, worker).")
@click.option("--certify-window", type=click.IntRange(min=1), default=None, metavar="K",
              help="Then prove that no change of at most K cells improves the grid (SAT per window of K "
                   "cells; improving it first when one does). Timings: docs/benchmarks.md (Solve).")
@click.option("--certify-time-limit", type=Seconds(), default=None, metavar="SECONDS",
              help="Time for --certify-window (default: --time-limit again).")
@progress_option
@show_option
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
@click.pass_context
def solve_command(ctx: click.Context, requirements: tuple[str, ...], forbid: tuple[str, ...], cells: str | None,
                  min_score: int | None, min_count: int | None, checklist_path: str | None, award: tuple[str, ...],
                  water_borders: bool, shape: str, moves: str, budget: int, words: str | None, time_limit: float,
                  workers: int | None, seed: int, max_proposals: int | None, start: str | None, graded: bool,
                  out: str | None, certify_window: int | None, certify_time_limit: float | None,
                  progress: bool | None, show: str | None, as_json: bool) -> None:
    """The highest-scoring grid found in --time-limit: every word of the list scores its weight
    (population); REQUIREMENTs, --forbid, --cells, --min-score/--min-count and the awards asked
    for (--award, --checklist) are hard constraints. Prints the best grid like 'score', with the
    checklist asked for (exit 0), or UNKNOWN when no grid met the constraints (exit 3). When
    --cells leave few grids (2,000 against the states), each is checked: OPTIMAL (exit 0) or
    DOES NOT FIT (exit 1).
    Ctrl-C or SIGTERM stop it with the best grid so far (exit 3).

    Needs the solve extra (numba compiles the search kernel): pip install 'exactgrid[solve]'.
    """
    from ..question import build_question, choose_checklist
    from ..solving import Schedule, solve

    question = build_question(requirements=requirements, forbid=forbid, min_score=min_score, min_count=min_count,
                              shape=shape, moves=moves, budget=budget, words=words, allow_empty=True,
                              cells=[read_cells(cells)] if cells is not None else [])
    checklist = choose_checklist(checklist_path, award)
    start_grid = read_grid_argument(start, shape, moves) if start is not None else None
    can_draw(show)
    workers = clamped_workers(workers)
    certifying = 0.0 if certify_window is None else time_limit if certify_time_limit is None else certify_time_limit
    with Progress("solve", time_limit + certifying, progress, "starting the search") as shown:
        answer = solve(question, checklist=checklist, water_borders=True if water_borders else None,
                       time_limit=time_left(time_limit), workers=workers, seed=seed, start=start_grid,
                       max_proposals=max_proposals,
                       schedule=Schedule(graded=True) if graded else None,
                       certify_window=certify_window, certify_time_limit=certify_time_limit, out=out,
                       on_progress=shown.event)
    print_answer(ctx, answer, as_json, show, checklist=checklist_path, water_borders=True if water_borders else None)

