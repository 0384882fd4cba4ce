"""The fit commands: ``fit`` (can these words appear in one grid?) and ``fit-many``.

JSON output (``--json``), stable keys:

* ``fit``: ``verdict`` ("fits", "does not fit", "unknown"), ``backend`` (for the portfolio,
  with the winning member in brackets), ``seconds``, ``rounds``, ``model`` {``variables``,
  ``clauses``, ``linear``}, ``detail``; with ``--explain``, when it does not fit, ``conflict``
  (a list of parts as the command line writes them: ``OHIO:exact``, ``forbid TEXAS``,
  ``r1c2=H``; empty when the targets alone cannot be met); with ``--certify``, when it does not fit,
  ``certificate`` {``checked``, ``method``, ``lemmas``, ``clauses``, ``seconds``, ``detail``,
  ``checkers`` (each {``checker``, ``accepted``, ``finished``, ``seconds``, ``reason``})};
  when it fits also ``grid``, ``rows``, ``shape``, ``moves``,
  ``requirements`` -- a list of {``requirement``, ``state``, ``spelled``, ``altered``,
  ``path``, ``cells``} -- and ``score`` (as ``score --json``'s keys from ``grid`` to
  ``found``); ``stopped_by`` (``Ctrl-C``, ``SIGTERM``, ``SIGHUP`` or null); with ``--show``,
  ``picture`` (see :mod:`exactgrid.cli.pictures`).
* ``fit-many``: one JSON line per question, in completion order: ``id`` and either the keys of
  ``fit --json`` plus ``worker`` (host:pid), or ``error``; after Ctrl-C a last line ``stopped``
  and ``stopped_by``. ``--json`` is accepted and changes nothing but bad input (a JSON object).
"""

from __future__ import annotations

import contextlib
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from ..finder import PATH_RULES
from ..geometry import MOVE_RULES
from ..inputs import MAX_SEED, InputError, read_text_file, read_text_stream
from .base import (
    FileName,
    Seconds,
    award_options,
    clamped_workers,
    read_cells,
    show_option,
    stopped_dict,
    with_awards,
)
from .pictures import can_draw, print_answer
from .progress import STOPPED_EXIT, Progress, progress_option, time_left

if TYPE_CHECKING:
    pass



@click.command("fit")
@click.argument("requirements", nargs=-1, metavar="[REQUIREMENT]...")
@click.option("--instance", metavar="FILE", default=None,
              help="TOML instance file: the base question; REQUIREMENTs and options given here add to it or win.")
@click.option("--forbid", multiple=True, metavar="WORD", help="A word that must not appear at all (repeatable).")
@click.option("--cells", metavar="FILE|ROWS", default=None,
              help="Cells: rows of letters with '.' for a free cell and [AB] for a choice of letters, "
                   "as a file or inline 'P.NN./.....'.")
@click.option("--optional", multiple=True, metavar="WORD|all",
              help="A word counting towards --min-score/--min-count (repeatable; 'all' for every "
                   "state, as when a minimum is given with no --optional).")
@click.option("--min-score", type=click.IntRange(min=0), default=None, metavar="N",
              help="Required and optional words found must weigh at least N (every word of the list, "
                   "when no --optional is given).")
@click.option("--min-count", type=click.IntRange(min=0), default=None, metavar="N",
              help="At least N required and optional words found (of the whole list, when no --optional "
                   "is given).")
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
@click.option("--seed", type=click.IntRange(0, MAX_SEED), default=0, show_default=True,
              help="Random seed handed to the solver.")
@click.option("--local-search", type=Seconds(), default=0.0, show_default=True, metavar="SECONDS",
              help="First look for a grid by local search (exactgrid solve --graded's annealer) for up to this long, "
                   "then ask the backend with the time left. Only a FITS can come from the search. "
                   "Needs pip install 'exactgrid[solve]' (numba).")
@click.option("--explain", is_flag=True,
              help="When it does not fit, name a minimal set of the requirements, forbidden words and fixed "
                   "cells that cannot hold together (each part re-checked by the solver).")
@click.option("--which-awards", is_flag=True,
              help="With --award/--checklist: when the awards cannot all be earned, name a minimal set of them "
                   "that cannot be earned together (each award left out in turn and the question asked again; "
                   "each needed award shown by a grid earning the others). Exit 1 with the set, 0 with a grid "
                   "earning them all, 3 when the first question is not decided in --time-limit.")
@click.option("--counting/--no-counting", default=True, show_default=True,
              help="When the backend has not decided within a second, try refuting by counting "
                   "(letter counts and adjacent pairs, with pair/count cores) before going on.")
@click.option("--certify", is_flag=True,
              help="When it does not fit, refute it again with a proof-logging CaDiCaL and check the DRUP proof "
                   "with two checkers, exactgrid.prove.drup and dratify (certified only when both accept), "
                   "within --time-limit again.")
@click.option("--write-cnf", type=FileName(), metavar="FILE", default=None, help="Also write the model as DIMACS CNF.")
@click.option("--write-wcnf", type=FileName(), metavar="FILE", default=None, help="Also write the model as WCNF.")
@click.option("--write-lp", type=FileName(), metavar="FILE", default=None, help="Also write the model as an LP file.")
@click.option("--write-mps", type=FileName(), metavar="FILE", default=None, help="Also write the model as an MPS file.")
@progress_option
@show_option
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
@click.pass_context
def fit_command(ctx: click.Context, requirements: tuple[str, ...], instance: str | None, forbid: tuple[str, ...],
                cells: str | None, optional: tuple[str, ...], min_score: int | None, min_count: int | None,
                shape: str, moves: str, path_rule: str, budget: int, words: str | None, symmetry_breaking: bool,
                checklist_path: str | None, award: tuple[str, ...], water_borders: bool,
                backend: str | None, time_limit: float, seed: int, local_search: float, explain: bool,
                which_awards: bool, counting: bool, certify: bool, write_cnf: str | None,
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
    from ..api import fit
    from ..backends import get_backend
    from ..question import LIST_ARGUMENTS, build_question, load_instance

    arguments: dict[str, Any] = dict(requirements=requirements, forbid=forbid, optional=optional,
                                     min_score=min_score, min_count=min_count, shape=shape, moves=moves,
                                     path_rule=path_rule, budget=budget, symmetry_breaking=symmetry_breaking,
                                     words=words, cells=[read_cells(cells)] if cells is not None else [])
    if instance is None:
        spec = build_question(**arguments, allow_empty=bool(award or checklist_path))
    else:
        # The file is the base; words on the command line add to it, options given there win.
        given = {key: value for key, value in arguments.items()
                 if key in LIST_ARGUMENTS or ctx.get_parameter_source(key) == click.core.ParameterSource.COMMANDLINE}
        spec = load_instance(instance, **given).question
    write = {"cnf": write_cnf, "wcnf": write_wcnf, "lp": write_lp, "mps": write_mps}
    if which_awards:
        unused = [name for name, value in (("--explain", explain), ("--local-search", local_search),
                                           ("--show", show), *(("--write-" + k, v) for k, v in write.items()))
                  if value]
        if unused:
            raise InputError(f"--which-awards does not go with {', '.join(unused)}")
        _which_awards(ctx, spec, checklist_path, award, water_borders, backend, time_limit, seed, counting, certify,
                      progress, as_json)
        return
    spec = with_awards(spec, checklist_path, award, water_borders)
    can_draw(show)
    solver = get_backend(backend)  # an unknown backend is bad input before any work
    with Progress("fit", time_limit, progress, "starting") as shown:  # the job says when it is solving
        answer = fit(spec, solver, time_left(time_limit), seed, local_search=local_search, explain=explain,
                     counting=counting, certify=certify, write={k: v for k, v in write.items() if v},
                     on_progress=shown.event)
    print_answer(ctx, answer, as_json, show, checklist=checklist_path, water_borders=True if water_borders else None)


def _which_awards(ctx: click.Context, base: Any, checklist_path: str | None, awards: tuple[str, ...],
                  water_borders: bool, backend: str | None, time_limit: float, seed: int, counting: bool,
                  certify: bool, progress: bool | None, as_json: bool) -> None:
    """``fit --which-awards``: the awards that conflict (:func:`exactgrid.fitting.conflicts.award_conflict`)."""
    from ..fitting.conflicts import award_conflict
    from ..question import choose_checklist

    chosen = choose_checklist(checklist_path, awards)
    if chosen is None:
        raise InputError("--which-awards needs --award or --checklist: the awards to ask about")
    keys = awards or chosen.keys()
    with Progress("fit", time_limit, progress, "asking which awards conflict"):
        answer = award_conflict(base, keys, chosen, backend, time_left(time_limit), counting=counting,
                                certify=certify, seed=seed, water_borders=True if water_borders else None)
    print_answer(ctx, answer, as_json, None)


@click.command("fit-many")
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
@click.option("--seed", type=click.IntRange(0, MAX_SEED), default=0, show_default=True)
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
    holds no question; 3 if some question was not answered (time limit, Ctrl-C, a worker that
    died or failed: each such question still gets its line).
    """
    from ..backends import get_backend
    from ..fitting.many import fit_many, line_exit_code, read_questions

    get_backend(backend)  # an unknown or missing backend is bad input, before any work
    if questions_file == "-":
        source, directory = "standard input", None
        text = read_text_stream(getattr(sys.stdin, "buffer", None), "questions file")
    else:
        source, directory = questions_file, Path(questions_file).parent
        text = read_text_file(questions_file, "questions file")
    lines = text.splitlines()  # a file with no question: read_questions's InputError, one Error line
    if scheduler is None:
        workers = clamped_workers(workers)
    counts: dict[str, int] = {}
    status = 0
    answers = fit_many(read_questions(lines, source, directory), backend=backend, time_limit=time_limit,
                       total_time_limit=time_left(total_time_limit), workers=workers, seed=seed, scheduler=scheduler)

    def show(item: Any, shown: Any) -> None:
        nonlocal status
        click.echo(item.text())
        status = max(status, line_exit_code(item))
        kind = "error" if item.answer is None else item.outcome.value
        counts[kind] = counts.get(kind, 0) + 1
        summary = ", ".join(f"{key} {value}" for key, value in counts.items())
        shown.news(f"{sum(counts.values())} answered ({summary})")

    with Progress("fit-many", total_time_limit, progress, "0 answered") as shown:
        try:
            for item in answers:
                show(item, shown)
        except KeyboardInterrupt as exc:
            # raised here, between two answers, or inside fit_many, which has then given its lines
            # already: thrown into it, it stops its pool and gives a line per question left
            with contextlib.suppress(KeyboardInterrupt, StopIteration):
                item = answers.throw(exc)
                while True:
                    show(item, shown)
                    item = next(answers)
            click.echo(json.dumps(stopped_dict(exc)))
            status = STOPPED_EXIT
    ctx.exit(status)
