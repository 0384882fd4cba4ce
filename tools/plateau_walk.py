"""An exact walk along the plateau of near misses: large moves decided by SAT, for award sets
whose near misses all lack one state.

    python tools/plateau_walk.py --awards 20S PA M8 4C NOCAL C2C \\
        --start VYMIPLASEODNRSTEOIAUWMCHI --minutes 30

The annealer's near misses for the awards with M8 each lack one state, and no exact
neighbourhood of them holds it (docs/benchmarks.md, Seven awards). This walk moves between
near misses instead of around one: each step frees some cells of the current grid (``--free``; the
nearest walk of a state it lacks, and cells chosen at random beside it), asks ``fit``

1. whether a grid of that neighbourhood earns every award (then it stops, the grid re-scored
   by the finder and judged by the checklist), else
2. for a *move*: a grid of the neighbourhood that earns every award with one required state
   (of M8, PA, 4C) swapped: the one dropped is a state whose witness walk the freed cells
   touch, and the one it must spell instead is a required state the current grid lacks (if
   any). A grid that lacks only its chain moves to one that has a chain and lacks one
   required state; a grid that lacks a required state, to one that lacks another (not one the
   last two grids lacked: the walk would go back).

A move that fits becomes the current grid. Each step's neighbourhood is drawn from
``--seed``, so runs differ. Every verdict is the SAT backend's (not certified); a DOES NOT FIT
rules out one neighbourhood, nothing more. Prints a line per question and a summary; exit 0
when a grid earns the awards, else 1.
"""

from __future__ import annotations

import argparse
import random
import time
from collections import Counter, deque

from seven_awards import judge

from exactgrid.awards import Checklist
from exactgrid.grid import Grid, parse_grid
from exactgrid.question import Question, Verdict, checklist_question, choose_checklist
from exactgrid.solving.neighbourhoods import explore, lacking, nearest_walks, witness_cells
from exactgrid.stopping import is_interruption

TABU = 2
"""A move may not drop a required state that one of the last TABU grids lacked."""


def required_states(checklist: Checklist) -> tuple[str, ...]:
    """The states the checklist's required items name, in order."""
    return tuple(s for item in checklist.items if item.kind == "required" for s in item.states)


def move_question(checklist: Checklist, drop: str) -> Question:
    """A move's question: the checklist's items, but its required states without ``drop``."""
    rest = checklist.select([item.key for item in checklist.items if item.kind != "required"])
    kept = tuple(s for s in required_states(checklist) if s != drop)
    return checklist_question(Question(required=kept), rest)


def free_cells(grid: Grid, lacks: tuple[str, ...], size: int, rng: random.Random) -> frozenset[int]:
    """Cells to free: the cells of one nearest walk of a state ``grid`` lacks (chosen at random),
    then cells next to those, then any, at random, until there are ``size`` (more when the walk
    alone has more)."""
    board = grid.board
    cells: set[int] = set()
    if lacks:
        walks = nearest_walks(grid, rng.choice(lacks), 200)[1]
        cells.update(rng.choice(walks))
    while len(cells) < size:
        beside = sorted({d for c in cells for d in board.neighbours[c]} - cells)
        pool = beside if beside and rng.random() < 0.7 else sorted(set(range(board.size)) - cells)
        cells.add(rng.choice(pool))
    return frozenset(cells)


def main() -> int:
    """Walk until a grid earns the awards or the time is up."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--awards", nargs="+", required=True, help="award keys, as exactgrid check names them")
    parser.add_argument("--start", required=True, help="the grid to start from (a near miss)")
    parser.add_argument("--minutes", type=float, default=10.0)
    parser.add_argument("--free", type=int, nargs=2, default=(10, 13), metavar=("MIN", "MAX"))
    parser.add_argument("--question-seconds", type=float, default=20.0)
    parser.add_argument("--backend", default="kissat")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    checklist = choose_checklist(None, tuple(args.awards))
    assert checklist is not None
    target = checklist_question(Question(), checklist)
    rng = random.Random(args.seed)
    end = time.monotonic() + args.minutes * 60
    current = parse_grid(args.start)
    tally: Counter[str] = Counter()
    visited = {current.letters}
    tabu: deque[str] = deque(maxlen=TABU)
    required = required_states(checklist)
    lacks = lacking(current, checklist)
    print(f"start {current.letters}: lacks {' '.join(lacks) or 'nothing'}", flush=True)
    while time.monotonic() + args.question_seconds < end:
        if not lacks:
            print(f"EARNS: {current.letters}")
            return 0
        free = free_cells(current, lacks, rng.randint(*args.free), rng)
        for kind, question in (("target", target), ("move", _move(checklist, required, current, free, tabu, rng))):
            answer, _ = explore(question, current, (), args.backend, args.question_seconds, seed=rng.randrange(1 << 16),
                                free=free)
            tally[f"{kind} {answer.verdict.name}"] += 1
            print(f"{current.letters} {kind} free {' '.join(map(str, sorted(free)))}: "
                  f"{answer.verdict.name} in {answer.seconds:.1f} s", flush=True)
            if is_interruption(answer.stopped_by):
                print(f"stopped by {answer.stopped_by}")
                return _summary(tally, visited)
            if answer.verdict != Verdict.FITS or answer.grid is None:
                continue
            judged = judge(answer.grid.letters, kind)
            moved_lacks = lacking(answer.grid, checklist)
            print(f"  {kind} FITS: {judged.grid} {judged.score:,} ({judged.states} states) earns "
                  f"{' '.join(judged.awards)}; lacks {' '.join(moved_lacks) or 'nothing'}", flush=True)
            if kind == "target":
                return 0
            visited.add(answer.grid.letters)
            tabu.extend(s for s in lacks if s in required)
            current, lacks = answer.grid, moved_lacks
    return _summary(tally, visited)


def _move(checklist: Checklist, required: tuple[str, ...], grid: Grid, free: frozenset[int], tabu: deque[str],
          rng: random.Random) -> Question:
    """The move asked from ``grid``: drop a ``required`` state it spells on the freed cells, not
    one the last grids lacked (``tabu``: the walk would go back) unless no other is left."""
    spelled = [s for s in required if witness_cells(grid, [s]) & free] or list(required)
    return move_question(checklist, rng.choice([s for s in spelled if s not in tabu] or spelled))


def _summary(tally: Counter[str], visited: set[str]) -> int:
    print(f"no grid earns the awards; {len(visited)} grids visited; "
          + ", ".join(f"{n} {what}" for what, n in sorted(tally.items())))
    return 1


if __name__ == "__main__":
    raise SystemExit(main())
