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

``--fill`` then tries every filling of each grid's free cells (every combination of letters
when at most two cells are free, one cell at a time otherwise) and prints the filling that earns
the most of the seven awards, then scores most, where it beats the grid as found; with
``--water-borders`` it does so a second time, C2C judged with the three water-only borders
counted too. The summary estimates how many distinct grids there are in all from how many were
seen in exactly one round and in exactly two (Chao's estimator for incidence data, a lower bound
in expectation, since a short search finds some grids far more often than others). ``--out
FILE`` appends each new grid as it is found, so an interrupted run keeps what it saw.

``--compare A B`` reads two such files (two independent samples) instead, and prints how many
grids each holds, how many both, and the capture-recapture estimate of how many there are in
all (Chapman's form of Lincoln-Petersen: (a + 1)(b + 1) / (m + 1) - 1), twice: grids as found,
then with their free cells read as one grid whatever letters they hold. Like Chao's, the
estimate is low in expectation when some grids are far easier to find than others.

What it measured is in docs/benchmarks.md, Seven awards ("The thirteen leave no room", "Ten
times the sample" and "A third sample").

Every grid is re-scored by the finder and judged by the checklist (``exactgrid check``).
Exit 0 when some grid was found, 1 when none was.
"""

from __future__ import annotations

import argparse
import itertools
import string
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from seven_awards import judge

import exactgrid
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


def sample(awards: list[str], minutes: float, seconds: float, first_seed: int,
           out: Path | None = None) -> tuple[dict[str, Sample], Counter[str], int, int]:
    """Rounds of ``seconds`` until ``minutes`` run out: the distinct grids, in how many rounds
    each was reported, the rounds, and the rounds whose first grid had been seen before.
    ``out``: each new grid is appended to it as it is found."""
    board, states = Board(5, 5), required_states(awards)
    seen: dict[str, Sample] = {}
    incidence: Counter[str] = Counter()
    rounds = repeats = 0
    deadline = time.monotonic() + 60 * minutes
    while time.monotonic() + seconds <= deadline:
        seed = first_seed + rounds
        rounds += 1
        found: list[Improvement] = []
        solve(Question(board), awards=awards, time_limit=seconds, workers=1, seed=seed,
              schedule=Schedule(graded=True), on_improvement=found.append)
        grids = [board.canonical(improvement.grid) for improvement in found]
        incidence.update(set(grids))
        repeats += bool(grids) and grids[0] in seen
        for letters in grids:
            if letters in seen:
                continue
            free = free_cells(letters, states)
            assert free is not None, f"{letters} does not spell every required state"
            seen[letters] = Sample(letters, seed, free)
            if out is not None:
                with out.open("a") as stream:
                    stream.write(f"{letters} {seed} {' '.join(map(str, free))}\n")
    return seen, incidence, rounds, repeats


def read_sample(path: Path, ignore_free: bool = False) -> set[str]:
    """The grids of an ``--out`` file (letters, seed, free cells a line), up to symmetry; with
    ``ignore_free`` each grid's free cells read ``?``, so that grids differing only there are one."""
    board, grids = Board(5, 5), set()
    for line in path.read_text().splitlines():
        letters, _seed, *free = line.split()
        if ignore_free:
            letters = "".join("?" if str(cell) in free else ch for cell, ch in enumerate(letters))
        grids.add(board.canonical(letters))
    return grids


def chapman(first: set[str], second: set[str]) -> float:
    """Chapman's capture-recapture estimate of how many grids there are, from two samples."""
    both = len(first & second)
    return (len(first) + 1) * (len(second) + 1) / (both + 1) - 1


def compare(first: Path, second: Path) -> None:
    """Print what two samples share, and the estimate of the whole, as found and free cells aside."""
    for ignore_free in (False, True):
        a, b = read_sample(first, ignore_free), read_sample(second, ignore_free)
        print(f"{'free cells aside' if ignore_free else 'as found'}: {len(a)} and {len(b)} grids, "
              f"{len(a & b)} in both, {len(a | b)} in all; Chapman's estimate {chapman(a, b):.0f}")


def chao2(incidence: Counter[str]) -> float:
    """Chao's estimate of how many distinct grids there are, from how many were reported in
    exactly one round (q1) and exactly two (q2): seen + q1^2 / (2 q2), or seen + q1 (q1 - 1) / 2
    when none was reported twice."""
    q1 = sum(1 for n in incidence.values() if n == 1)
    q2 = sum(1 for n in incidence.values() if n == 2)
    extra = q1 * q1 / (2 * q2) if q2 else q1 * (q1 - 1) / 2
    return len(incidence) + extra


def fillings(letters: str, free: tuple[int, ...], together: int = 2) -> list[str]:
    """Every grid that puts letters A-Z in ``free``'s cells: all combinations when at most
    ``together`` cells are free, else one cell at a time (the rest as they are)."""
    groups = [free] if len(free) <= together else [(cell,) for cell in free]
    grids: list[str] = []
    for group in groups:
        for choice in itertools.product(string.ascii_uppercase, repeat=len(group)):
            cells = list(letters)
            for cell, letter in zip(group, choice, strict=True):
                cells[cell] = letter
            grids.append("".join(cells))
    return grids


@dataclass(frozen=True)
class Filled:
    """The best filling of a grid's free cells: the grid, its score, and the seven's awards it
    earns."""

    letters: str
    score: int
    seven: tuple[str, ...]


def best_filling(letters: str, free: tuple[int, ...], water_borders: bool = False) -> Filled:
    """Of ``letters`` and its :func:`fillings`, the grid that earns the most of the seven
    awards, then scores most. Awards depend only on the states a grid holds, so the checklist
    runs once per set of states."""
    verdicts: dict[frozenset[str], tuple[str, ...]] = {}
    best: Filled | None = None
    for grid in [letters, *fillings(letters, free)]:
        score = exactgrid.score(grid)
        states = frozenset(score.words)
        if states not in verdicts:
            verdicts[states] = judge(grid, "a filling", water_borders).seven
        filled = Filled(grid, score.total, verdicts[states])
        if best is None or (len(filled.seven), filled.score) > (len(best.seven), best.score):
            best = filled
    assert best is not None
    return best


def main() -> int:
    """Sample, print one line per distinct grid and a summary; exit 0 when a grid was found."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--awards", nargs="+", default=["PA", "M8", "4C"], metavar="KEY")
    parser.add_argument("--minutes", type=float, default=5.0)
    parser.add_argument("--seconds", type=float, default=5.0, help="each round's search")
    parser.add_argument("--seed", type=int, default=1, help="the first round's seed (then +1 a round)")
    parser.add_argument("--fill", action="store_true", help="try every filling of each grid's free cells")
    parser.add_argument("--water-borders", action="store_true", help="--fill also judges C2C over water")
    parser.add_argument("--out", type=Path, help="append each new grid to this file as it is found")
    parser.add_argument("--compare", type=Path, nargs=2, metavar=("A", "B"),
                        help="compare two --out files instead of sampling")
    args = parser.parse_args()
    if args.compare:
        compare(*args.compare)
        return 0
    started = time.monotonic()
    seen, incidence, rounds, repeats = sample(args.awards, args.minutes, args.seconds, args.seed, args.out)
    judged = sorted(((judge(s.letters, f"seed {s.seed}"), s) for s in seen.values()), key=lambda js: -js[0].score)
    for j, s in judged:
        print(f"{s.letters}  {j.score:>11,}  {j.states} states  {' '.join(j.seven):<26}"
              f"  free {len(s.free)}: {' '.join(map(str, s.free)) or '-'}"
              f"  (seed {s.seed}; rounds: {incidence[s.letters]})")
        for water in (False, True)[:1 + args.water_borders] if args.fill and s.free else ():
            filled = best_filling(s.letters, s.free, water)
            if (len(filled.seven), filled.score) > (len(j.seven), j.score):
                print(f"  filled{' (over water)' if water else ''}: {filled.letters}  {filled.score:>11,}"
                      f"  {' '.join(filled.seven)}")
    free = Counter(len(s.free) for s in seen.values())
    earned = Counter(" ".join(j.seven) or "(none)" for j, _ in judged)
    print(f"# {rounds} rounds of {args.seconds:g} s ({time.monotonic() - started:.0f} s): {len(seen)} distinct "
          f"grids up to symmetry; {repeats} rounds began with a grid seen before")
    if incidence:
        print(f"# rounds that reported each grid: {dict(sorted(Counter(incidence.values()).items()))}; "
              f"Chao's estimate of the distinct grids in all: {chao2(incidence):.0f}")
    print("# free cells: " + ", ".join(f"{k}: {n} grids" for k, n in sorted(free.items())))
    print("# awards of the seven earned: " + "; ".join(f"{k}: {n}" for k, n in earned.most_common()))
    return 0 if seen else 1


if __name__ == "__main__":
    raise SystemExit(main())
