"""The ``bound`` command: an upper bound on the best score, or DOES NOT FIT by counting.

JSON output (``--json``): the bound answer's keys (its ``to_dict()``) and ``stopped_by``
(null, or what interrupted the work). Exit 0 with a proven bound or refutation, 3 at the time
limit or when stopped by Ctrl-C, SIGTERM or SIGHUP (with the best bound proven by then).
"""

from __future__ import annotations

import contextlib
import time
from typing import TYPE_CHECKING, Any

import click

from ..geometry import MOVE_RULES
from ..stopping import interruption
from ..wording import plural
from .base import BadInput, Seconds, award_options, clamped_workers, print_json, read_cells, with_awards
from .progress import STOPPED_EXIT, Progress, progress_option, time_left

if TYPE_CHECKING:
    from ..question import Question


@click.command("bound")
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
    from ..question import build_question

    _check_method(method, backend, {"--certify": certify, "--triples": triples, "--exact": exact,
                                     "--workers": workers is not None, "--scheduler": scheduler is not None})
    question = build_question(requirements=requirements, forbid=forbid, optional=optional or ["all"],
                              min_score=min_score, min_count=min_count, shape=shape, moves=moves, budget=budget,
                              words=words, cells=[read_cells(cells)] if cells is not None else [],
                              allow_empty=True)
    question = with_awards(question, checklist_path, award, water_borders)
    if method == "relaxation":
        answer, stopped_by = _bound_by_relaxation(question, backend, time_limit, progress)
    else:
        answer = _bound_by_cores(question, time_limit, progress, certify=certify, triples=triples,
                                 cores_per_round=cores_per_round, exact=exact, exact_seconds=exact_seconds,
                                 workers=workers, scheduler=scheduler)
        stopped_by = answer.stopped_by
    if as_json:
        print_json({**answer.to_dict(), "stopped_by": stopped_by})
    else:
        click.echo(answer.text())
    ctx.exit(STOPPED_EXIT if stopped_by or answer.status == "open" else 0)


def _check_method(method: str, backend: str | None, spreading: dict[str, bool]) -> None:
    """Refuse options that --method does not take (before any work)."""
    if method == "cores" and backend not in (None, "highs"):
        raise BadInput("--method cores runs on HiGHS; --backend chooses the solver of --method relaxation")
    for flag, given in spreading.items():
        if given and method != "cores":
            raise BadInput(f"{flag} needs --method cores")


def _bound_by_relaxation(question: Question, backend: str | None, time_limit: float,
                         progress: bool | None) -> tuple[Any, str | None]:
    """``--method relaxation``: the counting relaxation alone; (its answer, what stopped it or None)."""
    from ..prove.counting import CountingAnswer, count_question

    chosen = "highs" if backend is None else backend
    started = time.monotonic()
    try:
        with Progress("bound", time_limit, progress, f"the counting relaxation on {chosen}"):
            return count_question(question, chosen, time_left(time_limit)), None
    except KeyboardInterrupt as exc:
        answer = CountingAnswer("open", None, chosen, time.monotonic() - started,
                                f"interrupted ({interruption(exc)}) before the relaxation was solved")
        return answer, interruption(exc)


class _BoundNews:
    """The progress line's news of ``--method cores``: the best bound, the rounds and the cuts."""

    def __init__(self, shown: Progress) -> None:
        self.shown = shown
        self.bound: int | None = None
        self.rounds = 0
        self.cores = 0

    def heard(self, value: int | None = None, seconds: float = 0.0, round_: int | None = None,
              core: Any = None) -> None:
        """A new bound (``value``) or the end of a round (``round_``, with its ``core`` or None)."""
        if value is not None:
            self.bound = value
        if round_ is not None:
            self.rounds = round_
            self.cores += core is not None
        best = "no bound yet" if self.bound is None else f"bound {self.bound:,}"
        self.shown.news(f"{best}, round {self.rounds}, {plural(self.cores or 0, 'cut')}")


def _bound_by_cores(question: Question, time_limit: float, progress: bool | None, *, workers: int | None,
                    scheduler: str | None, **options: Any) -> Any:
    """``--method cores``: the relaxation cut by cores (``options``: certify, triples,
    cores_per_round, exact, exact_seconds), on worker processes or a Dask cluster if asked."""
    from ..backends import get_backend
    from ..prove.bound import bound

    get_backend("highs")  # one clear line when highspy is missing
    executor, close = None, None
    if scheduler is None and workers is not None:
        workers = clamped_workers(workers)
    if scheduler is not None:
        from ..pool import dask_client, dask_threads

        client = dask_client(scheduler)
        executor, close = client.get_executor(), client.close
        workers = workers or 1 + dask_threads(client)
    with contextlib.ExitStack() as stack, Progress("bound", time_limit, progress, "no bound yet") as shown:
        if close is not None:
            stack.callback(close)
        news = _BoundNews(shown)
        try:
            return bound(question, time_left(time_limit), on_bound=lambda v, s: news.heard(v, s),
                         on_round=lambda r, c: news.heard(round_=r, core=c), certify_seconds=time_limit,
                         workers=workers or 1, executor=executor, **options)
        except KeyboardInterrupt as exc:  # before bound() could catch it itself
            from ..prove.bound import BoundAnswer

            return BoundAnswer("open", None, sum(question.scoring_weights().values()),
                               seconds=time.monotonic() - shown.started,
                               detail=f"interrupted ({interruption(exc)}) before the first bound",
                               stopped_by=interruption(exc))
