"""The ``bound`` command: an upper bound on the best score, or DOES NOT FIT by counting.

JSON output (``--json``): the bound answer's ``to_dict()`` (the contract's keys, ``status``,
``bound``, ``total``, the cores, ...). Exit 0 with a proven bound (BOUNDED, also when the time
limit cut the loop short) or optimum (OPTIMAL), 1 when counting refutes the question (DOES NOT
FIT), 3 when nothing was proven in the time or when stopped by Ctrl-C, SIGTERM or SIGHUP (with
the best bound proven by then).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from ..geometry import MOVE_RULES
from .base import Seconds, award_options, clamped_workers, print_json, read_cells
from .progress import Progress, progress_option, time_left

if TYPE_CHECKING:
    pass


@click.command("bound")
@click.argument("requirements", nargs=-1, metavar="[REQUIREMENT]...")
@click.option("--optional", multiple=True, metavar="WORD|all",
              help="Words the bound scores (repeatable; default: all).")
@click.option("--forbid", multiple=True, metavar="WORD", help="A word the grid must not hold: it is not scored.")
@click.option("--min-score", type=click.IntRange(min=0), default=None, metavar="N")
@click.option("--min-count", type=click.IntRange(min=0), default=None, metavar="N")
@click.option("--cells", metavar="FILE|ROWS", default=None,
              help="Cells: rows of letters with '.' for a free cell and [AB] for a choice of letters, "
                   "as a file or inline 'P.NN./.....'.")
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
                   "that exactgrid.prove.drup and dratify both check, within --certify-time-limit after "
                   "the bound.")
@click.option("--certify-time-limit", type=Seconds(), default=None, metavar="SECONDS",
              help="Time for --certify's proofs (default: --time-limit again). A 5x5 bound's proofs have a "
                   "million lemmas or more: minutes, with the certify extra.")
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
                  certify: bool, certify_time_limit: float | None, cores_per_round: int, triples: bool,
                  exact: bool, exact_seconds: float, workers: int | None, scheduler: str | None,
                  progress: bool | None, as_json: bool) -> None:
    """An upper bound on the best score of any grid holding the REQUIREMENTs (default: no
    requirement, every word scored), or DOES NOT FIT by counting, from the counting relaxation
    (letter counts, letter pairs, degrees) cut by pair/count cores. Forbidden words are not
    scored; beyond that, forbids and chains (--award C2C) only lower the true best, so the
    relaxation leaves them out. --award M8 --award PA --award 4C --award NOCAL bounds the grids
    earning those awards. With --exact, a bound the exact model reaches is the best score, with
    its grid. Exit 0 with a proven bound or optimum, 1 when refuted by counting, 3 with no bound
    in the time or on Ctrl-C (with the best bound proven by then).

    The LP/ILP solver is HiGHS (highspy, in the base install); --method relaxation --backend
    cbc uses PuLP's CBC instead. --scheduler needs pip install 'exactgrid[dask]'."""
    from ..prove.bound import bound
    from ..question import build_question

    question = build_question(requirements=requirements, forbid=forbid, optional=optional, min_score=min_score,
                              min_count=min_count, shape=shape, moves=moves, budget=budget, words=words,
                              cells=[read_cells(cells)] if cells is not None else [], allow_empty=True)
    if scheduler is None and workers is not None:
        workers = clamped_workers(workers)  # the notice on stderr, as every command gives it
    certifying = time_limit if certify_time_limit is None else certify_time_limit
    with Progress("bound", time_limit + (certifying if certify else 0.0), progress, "no bound yet") as shown:
        answer = bound(question, time_left(time_limit), certify=certify, certify_seconds=certifying, triples=triples,
                       cores_per_round=cores_per_round, workers=workers, exact=exact, exact_seconds=exact_seconds,
                       method=method, backend=backend, scheduler=scheduler, checklist=checklist_path, awards=award,
                       water_borders=True if water_borders else None, on_progress=shown.event)
    if as_json:
        print_json(answer.to_dict())
    else:
        click.echo(answer.text())
    ctx.exit(answer.exit_code)
