"""Many grids that earn some awards, each from its own short search: how many are there, how
rigid are they, and what else do they earn?

    python tools/award_samples.py --awards PA M8 4C --minutes 10 --seconds 5

Each round runs ``solve`` with the awards as hard constraints (the graded schedule, one
worker, its own seed, ``--seconds`` long) and keeps every grid it reports; grids are told
apart up to the board's symmetries. For each distinct grid it prints the awards of all seven
it earns, its score, and its *free cells*: the cells that no witness of a required state
(PENNSYLVANIA for PA, the eight M states for M8, the Four Corners for 4C) uses at an unaltered
position, so that any letter there keeps every required state spelled. A summary follows: the
rounds, the distinct grids, how many rounds found a grid seen before, and the free cells.

Every grid is re-scored by the finder and judged by the checklist (``exactgrid check``).
Exit 0 when some grid was found, 1 when none was.
"""

from __future__ import annotations

import argparse
import time
from collections import Counter
from dataclasses import dataclass

from seven_awards import judge

from exactgrid.awards import default_checklist
from exactgrid.finder import find
from exactgrid.geometry import Board
from exactgrid.grid import parse_grid
from exactgrid.question import Question
from exactgrid.solving import solve
from exactgrid.solving.search import Improvement, Schedule


@dataclass(frozen=True)
class Sample:
    """A grid as first seen: its canonical letters, the round's seed, and its free cells."""

    letters: str
    seed: int
    free: tuple[int, ...]


def required_states(awards: list[str]) -> tuple[str, ...]:
    """The states the awards' ``required`` items name."""
    items = default_checklist().select(awards).items
    return tuple(s for item in items if item.kind == "required" for s in item.states)


def free_cells(letters: str, states: tuple[str, ...]) -> tuple[int, ...] | None:
    """The cells no witness of ``states`` (the finder's, one per state) uses at an unaltered
    position; None when some state is not spelled."""
    grid = parse_grid(letters)
    used: set[int] = set()
    for state in states:
        match = find(grid, state, 1)
        if match is None:
            return None
        used.update(cell for i, cell in enumerate(match.path) if i not in match.altered)
    return tuple(c for c in range(len(letters)) if c not in used)


def sample(awards: list[str], minutes: float, seconds: float, first_seed: int) -> tuple[dict[str, Sample], int, int]:
    """Rounds of ``seconds`` until ``minutes`` run out: the distinct grids, the rounds, and the
    rounds whose first grid had been seen before."""
    board, states = Board(5, 5), required_states(awards)
    seen: dict[str, Sample] = {}
    rounds = repeats = 0
    deadline = time.monotonic() + 60 * minutes
    while time.monotonic() + seconds <= deadline:
        seed = first_seed + rounds
        rounds += 1
        found: list[Improvement] = []
        solve(Question(board), awards=awards, time_limit=seconds, workers=1, seed=seed,
              schedule=Schedule(graded=True), on_improvement=found.append)
        for index, improvement in enumerate(found):
            letters = board.canonical(improvement.grid)
            if letters in seen:
                repeats += index == 0
                continue
            free = free_cells(letters, states)
            assert free is not None, f"{letters} does not spell every required state"
            seen[letters] = Sample(letters, seed, free)
    return seen, rounds, repeats


def main() -> int:
    """Sample, print one line per distinct grid and a summary; exit 0 when a grid was found."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--awards", nargs="+", default=["PA", "M8", "4C"], metavar="KEY")
    parser.add_argument("--minutes", type=float, default=5.0)
    parser.add_argument("--seconds", type=float, default=5.0, help="each round's search")
    parser.add_argument("--seed", type=int, default=1, help="the first round's seed (then +1 a round)")
    args = parser.parse_args()
    started = time.monotonic()
    seen, rounds, repeats = sample(args.awards, args.minutes, args.seconds, args.seed)
    judged = sorted(((judge(s.letters, f"seed {s.seed}"), s) for s in seen.values()), key=lambda js: -js[0].score)
    for j, s in judged:
        print(f"{s.letters}  {j.score:>11,}  {j.states} states  {' '.join(j.seven):<26}"
              f"  free {len(s.free)}: {' '.join(map(str, s.free)) or '-'}  (seed {s.seed})")
    free = Counter(len(s.free) for s in seen.values())
    earned = Counter(" ".join(j.seven) or "(none)" for j, _ in judged)
    print(f"# {rounds} rounds of {args.seconds:g} s ({time.monotonic() - started:.0f} s): {len(seen)} distinct "
          f"grids up to symmetry; {repeats} rounds began with a grid seen before")
    print("# free cells: " + ", ".join(f"{k}: {n} grids" for k, n in sorted(free.items())))
    print("# awards of the seven earned: " + "; ".join(f"{k}: {n}" for k, n in earned.most_common()))
    return 0 if seen else 1


if __name__ == "__main__":
    raise SystemExit(main())
