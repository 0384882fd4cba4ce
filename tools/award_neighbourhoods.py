"""Exact award-aware neighbourhoods of given grids for any set of awards: keep the cells spelling
some of the hard words (the M states, the Four Corners, Pennsylvania), free the rest, and ask
``fit`` whether a grid of that neighbourhood earns the awards. Stops at the first that does.

    python tools/award_neighbourhoods.py --awards 20S PA M8 4C NOCAL C2C \\
        --grid MANAVRICSLGOSIPLANEMHDTNW --minutes 5

Prints one line per question (kept words, free cells, verdict, seconds) and, for a grid that
fits, the grid re-scored by the finder with the awards it earns (``exactgrid check``). A DOES NOT
FIT here is the SAT backend's word (not certified): it rules out one neighbourhood, nothing more.

``--around WORD [WORD ...] --extra K``: instead, neighbourhoods built around words the grid
lacks: each choice of one nearest walk (the fewest letters from spelled) of every WORD frees
those walks' cells and K of their neighbours (every choice), and every other cell is kept
(:func:`exactgrid.solving.neighbourhoods.around_walks`). ``--around auto``: the words each grid
lacks for the awards asked (:func:`exactgrid.solving.neighbourhoods.lacking`: the missing M
states, Four Corners, Pennsylvania, and the states of the cheapest chain it lacks; a grid that
lacks more than two is skipped).

``--name-conflicts``: for each neighbourhood that does not fit, also name a minimal set of the
awards that cannot be earned together there (:func:`exactgrid.fitting.conflicts.award_conflict`,
each needed award shown by a grid of the neighbourhood earning the others), and at the end how
often each set was named. With ``--certify S`` as well, each named conflict is refuted again by
CaDiCaL with a DRUP proof that both checkers check (``award_conflict(certify=True)``), with S
seconds more; the line says whether it is certified, and the end how many were.
"""

from __future__ import annotations

import argparse
import time
from collections import Counter

from seven_awards import AROUND_AT_MOST, hard_words, judge, seven_question

from exactgrid.awards import default_checklist
from exactgrid.fitting.conflicts import award_conflict
from exactgrid.grid import parse_grid
from exactgrid.question import Question, Verdict
from exactgrid.solving.neighbourhoods import around_walks, explore, keep_sets, lacking, nearest_walks
from exactgrid.stopping import is_interruption


def main() -> int:
    """Ask the neighbourhoods until one fits or the time is up; exit 0 when one fits, else 1."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--awards", nargs="+", required=True, help="award keys, as exactgrid check names them")
    parser.add_argument("--grid", nargs="+", required=True, help="grids whose neighbourhoods to ask about")
    parser.add_argument("--minutes", type=float, default=5.0)
    parser.add_argument("--free", type=int, nargs=2, default=(10, 13), metavar=("MIN", "MAX"))
    parser.add_argument("--question-seconds", type=float, default=20.0)
    parser.add_argument("--backend", default="kissat")
    parser.add_argument("--around", nargs="+", metavar="WORD",
                        help="free the cells of the WORDs' nearest walks (one of each) instead; "
                             "'auto': the words each grid lacks for the awards")
    parser.add_argument("--extra", type=int, default=0, metavar="K",
                        help="with --around: free K more cells next to the walk, every choice")
    parser.add_argument("--name-conflicts", action="store_true",
                        help="name the awards that conflict in each neighbourhood that does not fit")
    parser.add_argument("--certify", type=float, metavar="SECONDS",
                        help="with --name-conflicts: certify each conflict named, within SECONDS")
    args = parser.parse_args()
    question, hard = seven_question(args.awards), hard_words()
    end = time.monotonic() + args.minutes * 60
    queues = [(grid, neighbourhoods(grid, hard, args)) for grid in args.grid]
    turn, asked, named, certified = 0, 0, Counter(), Counter()
    while time.monotonic() + args.question_seconds < end and any(queue for _, queue in queues):
        grid, queue = queues[turn % len(queues)]
        turn += 1
        if not queue:
            continue  # this grid's neighbourhoods are all asked: the turn passes to the next grid
        kept = queue.pop(0)
        asked += 1
        if isinstance(kept, frozenset):
            answer, area = explore(question, parse_grid(grid), (), args.backend, args.question_seconds, free=kept)
            told = f"free {' '.join(map(str, sorted(kept)))}"
        else:
            answer, area = explore(question, parse_grid(grid), kept, args.backend, args.question_seconds)
            told = f"keep {'+'.join(kept)}"
        print(f"{grid} {told} ({area.free} free): {answer.verdict.name} in {answer.seconds:.1f} s", flush=True)
        if is_interruption(answer.stopped_by):
            print(f"stopped by {answer.stopped_by}")
            break
        if answer.verdict == Verdict.FITS:
            found = judge(answer.grid.letters, f"neighbourhood of {grid}")
            print(f"FITS: {found.grid} {found.score:,} ({found.states} states) earns {' '.join(found.awards)}")
            return 0
        if args.name_conflicts and answer.verdict == Verdict.DOES_NOT_FIT:
            conflict, checked, stopped_by = name_conflict(area.fixed, args)
            if is_interruption(stopped_by):
                print(f"stopped by {stopped_by}")
                break
            named[conflict] += 1
            if checked is not None:
                certified[checked] += 1
    print(f"none fits: {asked} neighbourhoods asked")
    for conflict, times in named.most_common():
        print(f"{times} x {conflict}")
    if certified:
        print(f"certified: {certified[True]} of {certified.total()} conflicts named")
    return 1


def neighbourhoods(grid: str, hard: tuple[str, ...],
                   args: argparse.Namespace) -> list[tuple[str, ...] | frozenset[int]]:
    """What to ask around ``grid``: kept words (:func:`keep_sets`), or with ``--around``, sets of
    cells to free (:func:`around_walks`), said on a line first."""
    parsed = parse_grid(grid)
    if not args.around:
        return keep_sets(parsed, hard, tuple(args.free), seed=7)
    words = list(lacking(parsed, default_checklist().select(args.awards))) if args.around == ["auto"] else args.around
    nearest = {word: nearest_walks(parsed, word) for word in words}
    for word, (letters, walks) in nearest.items():
        print(f"{grid}: {word} is {letters} letters from spelled on {len(walks)} walks", flush=True)
    if args.around == ["auto"] and not 0 < len(words) <= AROUND_AT_MOST:
        print(f"{grid} lacks {len(words)} states: no neighbourhoods around them", flush=True)
        return []
    sets = around_walks(parsed, words, args.extra)
    print(f"{grid}: {len(sets)} neighbourhoods", flush=True)
    return list(sets)


def name_conflict(fixed: dict[int, str], args: argparse.Namespace) -> tuple[str, bool | None, str | None]:
    """The awards that conflict with these fixed cells, printed, as one line; with
    ``--certify``, also whether its refutation is certified (None: not asked); and what stopped
    the search for them (the answer's ``stopped_by``)."""
    answer = award_conflict(Question(fixed=fixed), args.awards, backend=args.backend,
                            time_limit=args.question_seconds * (len(args.awards) + 1) + (args.certify or 0),
                            question_seconds=args.question_seconds, counting=False, certify=bool(args.certify))
    conflict = " + ".join(answer.conflict) or "-"
    shown = "minimal" if answer.minimal else "not shown minimal"
    print(f"  conflict: {conflict} ({shown}; {len(answer.asked)} questions, {answer.seconds:.1f} s)", flush=True)
    certificate = answer.refutation.certificate if answer.refutation is not None else None
    if certificate is not None:
        print(f"  {certificate.text()}", flush=True)
    certified = None if not args.certify else certificate is not None and certificate.checked
    return (conflict if answer.minimal else f"{conflict} (not shown minimal)"), certified, answer.stopped_by


if __name__ == "__main__":
    raise SystemExit(main())
