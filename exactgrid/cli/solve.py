"""The ``solve`` command: the highest-scoring grid found in a time limit.

JSON output (``--json``): the solve answer's keys (see :func:`exactgrid.render.solve_dict`),
with ``picture`` under ``--show`` (see :mod:`exactgrid.cli.pictures`). Stopped by Ctrl-C,
SIGTERM or SIGHUP it prints the best grid so far and exits 3.
"""

from __future__ import annotations

import json
from typing import Any

import click

from ..awards import default_checklist, evaluate
from ..data.us import us_states
from ..geometry import MOVE_RULES
from ..stopping import interruption, is_interruption
from ..wording import plural
from .base import (
    BadInput,
    Seconds,
    award_options,
    clamped_workers,
    print_json,
    read_cells,
    read_grid_argument,
    show_option,
)
from .pictures import can_draw, show_answer
from .progress import STOPPED_EXIT, Progress, progress_option, time_left

SOLVE_EXIT = {"fits": 0, "unknown": 3}


@click.command("solve")
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
    from ..question import build_question, choose_checklist
    from ..render import solve_dict, solve_text
    from ..solve import solve

    question = build_question(requirements=requirements, forbid=forbid, min_score=min_score, min_count=min_count,
                              shape=shape, moves=moves, budget=budget, words=words, allow_empty=True,
                              cells=[read_cells(cells)] if cells is not None else [])
    checklist = choose_checklist(checklist_path, award)
    start_grid = read_grid_argument(start, shape, moves) if start is not None else None
    can_draw(show)
    workers = clamped_workers(workers)
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
            from ..question import Verdict
            from ..solve import SolveAnswer

            answer = SolveAnswer(question=question, verdict=Verdict.UNKNOWN, check=None,
                                 stopped_by=interruption(exc))
    drawn = show_answer(answer, show, as_json, checklist=checklist_path,
                         water_borders=True if water_borders else None)
    if as_json:
        print_json({**solve_dict(answer), **({"picture": drawn} if drawn else {})})
    else:
        click.echo(solve_text(answer))
    ctx.exit(STOPPED_EXIT if is_interruption(answer.stopped_by) else SOLVE_EXIT[answer.verdict])


COMPILE_NOTICE = ("compiling the search kernel for this machine (once after an install: about 15 s on one core, "
                  "counted in --time-limit; a run that ends first leaves it uncompiled)")


class _SolveReport:
    """Where a search's news goes: improvements to the --out file (JSON lines), progress to
    the command's :class:`~exactgrid.cli.progress.Progress` line (set ``shown``)."""

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
