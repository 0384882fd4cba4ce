"""Look for a witness grid of a fit instance by simulated annealing (a heuristic, not a proof).

    python tools/anneal_witness.py instances/benchmarks/fit/5x5_m8_pa_4c_nocal.toml --seed 2 --seconds 600

Where the exact backends time out on a question that does fit, a local search can still find
a grid; any grid it prints has been checked by the finder (``exactgrid.verify.check_grid``),
so a find settles the question as FITS. It cannot show that a question does not fit.

Handles walk-rule instances whose requirements are all "anywhere" (within the budget), with
forbidden words and no fixed cells, no pinned spellings and no score targets. The state is a
grid over the letters of the required words. The energy is 1,000 per required word found,
minus 5,000 per forbidden word found, scored by ``exactgrid.fastscore``. Moves change one
cell; the temperature cools geometrically and the search restarts every 300,000 moves. The
run is deterministic for a seed.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time

from exactgrid.fastscore import Scorer
from exactgrid.grid import Grid
from exactgrid.question import load_instance
from exactgrid.verify import check_grid
from exactgrid.words import WordList

FOUND, FORBIDDEN = 1000, -5000
MOVES_PER_RESTART = 300_000


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("instance")
    parser.add_argument("--seconds", type=float, default=600.0)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    spec = load_instance(args.instance).question
    if spec.path_rule != "walk" or spec.fixed or spec.min_score or spec.min_count or any(
            r.mode != "anywhere" for r in spec.required):
        print("only walk-rule instances with plain requirements and forbids are handled", file=sys.stderr)
        return 2
    gains = {w: FOUND for w in spec.required_words} | {w: FORBIDDEN for w in spec.forbidden}
    scorer = Scorer(spec.board, WordList({w: 1 for w in gains}, "anneal"), budget=spec.budget)
    letters = sorted(set("".join(spec.required_words)))
    goal = FOUND * len(spec.required)
    rng = random.Random(args.seed)
    started = time.monotonic()
    best = None
    while time.monotonic() - started < args.seconds:
        grid = [rng.choice(letters) for _ in range(spec.board.size)]
        energy = sum(gains[w] for w in scorer.found_words("".join(grid)))
        temperature = 1500.0
        for _ in range(MOVES_PER_RESTART):
            cell = rng.randrange(spec.board.size)
            old = grid[cell]
            grid[cell] = rng.choice(letters)
            new = sum(gains[w] for w in scorer.found_words("".join(grid)))
            if new >= energy or rng.random() < math.exp((new - energy) / temperature):
                energy = new
            else:
                grid[cell] = old
            temperature = max(40.0, temperature * 0.99997)
            if best is None or energy > best:
                best = energy
                print(f"{time.monotonic() - started:7.1f} s  {energy // FOUND:3d} of {len(spec.required)}  "
                      f"{''.join(grid)}", flush=True)
            if energy == goal:
                letters_found = "".join(grid)
                problems = check_grid(spec, Grid(spec.board, letters_found)).problems
                if not problems:
                    print(f"FITS {letters_found} (checked by the finder)")
                    return 0
            if time.monotonic() - started >= args.seconds:
                break
    print(f"no witness in {args.seconds:g} s (best {best // FOUND if best else 0} of {len(spec.required)})")
    return 1


if __name__ == "__main__":
    sys.exit(main())
