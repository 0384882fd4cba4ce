"""Benchmark exactgrid.fastscore.Scorer: grids/s for batch and one-at-a-time scoring.

    python tools/bench_score.py                       # default sizes, 5 repeats
    python tools/bench_score.py --grids 131072 --repeats 7 --seed 3
    python tools/bench_score.py --climb               # redo the hill-climb that found GOOD

All 50 states, budget 1, walks, king moves, 5x5, one core (numpy is single-threaded for
these ufuncs). Grid kinds:

* good    -- one-letter mutations of GOOD (a grid over 200M found by the seeded hill-climb
             below), the population a local search scores; sampled with replacement.
* uniform -- letters uniform over A-Z.
* states  -- letters drawn from the letter frequencies of the 50 state names.

Modes: ``batch`` scores all grids in one ``score_batch`` call; ``batch600`` scores them in
calls of 600 grids (one whole neighbourhood of a 5x5 grid per call); ``score_one`` and
``found_mask`` make one Python call per grid. Every timing is repeated and the table shows
the best and the median rate: the machine is shared, so the best is the least disturbed.
Prints the table and the command line; writes nothing.
"""

from __future__ import annotations

import argparse
import random
import shlex
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable

import numpy as np

from exactgrid.data.us import us_states
from exactgrid.fastscore import Scorer
from exactgrid.finder import score as finder_score
from exactgrid.geometry import Board
from exactgrid.grid import Grid

SEED_GRID = "WTIMAENSVFKOALIRCSROENAIN"  # 188,652,076 points
GOOD = "UTIMAECHNFGOALIRNSROOCAIN"  # found by hill_climb(seed=1) from SEED_GRID
GOOD_SCORE = 203_520_793
ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def neighbours(grid: str) -> list[str]:
    """All grids one letter away from ``grid`` (25 letters other than the current, per cell)."""
    return [grid[:i] + c + grid[i + 1:] for i in range(len(grid)) for c in ALPHABET if c != grid[i]]


def climb(scorer: Scorer, grid: str) -> tuple[str, int]:
    """Steepest ascent over one-letter changes, scoring each neighbourhood in one batch."""
    current = scorer.score_one(grid)
    while True:
        options = neighbours(grid)
        totals, _ = scorer.score_batch(options)
        best = int(np.argmax(totals))  # first best: deterministic
        if totals[best] <= current:
            return grid, current
        grid, current = options[best], int(totals[best])


def hill_climb(scorer: Scorer, start: str, seed: int = 1, target: int = 200_000_000,
               rounds: int = 2000, verbose: bool = False) -> tuple[str, int]:
    """Iterated local search: climb, then kick 2-4 random cells of the best grid and climb again."""
    rng = random.Random(seed)
    best, best_score = climb(scorer, start)
    for round_no in range(1, rounds + 1):
        if best_score > target:
            break
        kicked = list(best)
        for _ in range(rng.randint(2, 4)):
            kicked[rng.randrange(len(kicked))] = rng.choice(ALPHABET)
        grid, total = climb(scorer, "".join(kicked))
        if total > best_score:
            best, best_score = grid, total
            if verbose:
                print(f"  round {round_no}: {best} {best_score:,}")
    return best, best_score


def state_letter_weights() -> tuple[list[str], list[int]]:
    """Letters and their counts over the 50 state names."""
    counts = Counter("".join(us_states().words))
    letters = sorted(counts)
    return letters, [counts[c] for c in letters]


def make_grids(kind: str, n: int, seed: int) -> np.ndarray:
    """``n`` grids of one kind as an (n, 25) uint8 code array, deterministic in ``seed``."""
    rng = np.random.default_rng(seed)
    if kind == "good":
        pool = np.frombuffer("".join(neighbours(GOOD)).encode(), dtype=np.uint8).reshape(-1, 25) - 65
        return pool[rng.integers(0, len(pool), n)]
    if kind == "uniform":
        return rng.integers(0, 26, (n, 25), dtype=np.uint8)
    letters, weights = state_letter_weights()
    p = np.array(weights, dtype=float) / sum(weights)
    codes = np.array([ord(c) - 65 for c in letters], dtype=np.uint8)
    return codes[rng.choice(len(codes), size=(n, 25), p=p)]


def as_strings(codes: np.ndarray) -> list[str]:
    """Code rows back to strings."""
    flat = (codes + 65).astype(np.uint8).tobytes().decode()
    return [flat[i:i + 25] for i in range(0, len(flat), 25)]


def timed(fn, repeats: int, count: int) -> tuple[float, float]:
    """(best, median) grids/s of ``fn`` scoring ``count`` grids, over ``repeats`` runs."""
    rates = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        rates.append(count / (time.perf_counter() - start))
    return max(rates), statistics.median(rates)


def _annealer(p, states, temperature: float):
    """``run(steps)``: anneal the chains of ``states`` at a fixed temperature; proposals scored."""
    from exactgrid.solving import kernel

    best, feasible = states.grids[0].copy(), states.grids[0].copy()
    best_value = np.array([np.iinfo(np.int64).min], dtype=np.int64)
    feasible_value = np.array([-1], dtype=np.int64)

    def run(steps: int) -> int:
        return kernel.anneal(
            states.grids, states.lmasks, states.founds, states.supports, states.counters, states.stamps,
            best, best_value, feasible, feasible_value, steps, 10**12, temperature, temperature, 0.2, 3,
            p.letter_cdf, p.fixed, p.starts, p.lengths, p.letters, p.weights, p.flags, p.word_index,
            p.word_ptr, p.table, p.chunks, p.full, p.budget, p.chain_sources, p.chain_targets,
            p.chain_adjacency, p.min_count, p.min_score, int(1.5 * p.weights.max()))

    return run


def bench_anneal(seconds: float, seed: int) -> int:
    """Proposals scored per second by exactgrid.solving.kernel.anneal on one thread, at three
    temperatures (as a fraction of the mean state population), from random and from good
    grids; afterwards every chain's incremental score is compared with the batch scorer's."""
    from exactgrid.question import Question
    from exactgrid.solving import kernel
    from exactgrid.solving.problem import ChainStates, SearchProblem, grid_codes, grid_text

    problem = SearchProblem.build(Question(Board(5, 5)))
    scorer = Scorer(problem.question.board, problem.question.words, 1)
    mean = float(problem.weights.mean())
    p = problem
    print("| start | temperature | proposals/s (one core) | rechecked against the scorer |")
    print("|---|---|---|---|")
    for start in ("random", "good"):
        for share in (0.5, 0.1, 0.03):
            rng = np.random.default_rng(seed)
            grids = p.random_grids(16, rng) if start == "random" else np.tile(grid_codes(GOOD), (16, 1))
            states = ChainStates.start(p, grids)
            run = _annealer(p, states, share * mean)
            run(1)  # compile, or load from the cache
            done, began = 0, time.thread_time()
            while time.thread_time() - began < seconds:
                done += run(2000)
            rate = done / (time.thread_time() - began)
            agree = all(states.counters[k, kernel.SCORE] == scorer.score_one(grid_text(states.grids[k]))
                        for k in range(16))
            print(f"| {start} | {share:g} x mean | {rate:,.0f} | {'all 16 equal' if agree else 'MISMATCH'} |")
            if not agree:
                return 1
    return 0


def _arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--grids", type=int, default=65536, help="grids per kind for the batch modes")
    parser.add_argument("--one", type=int, default=5000, help="grids per kind for the one-at-a-time modes")
    parser.add_argument("--finder", type=int, default=30, help="grids per kind for the reference finder (0: skip)")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--kinds", default="good,uniform,states")
    parser.add_argument("--climb", action="store_true", help="rerun the seeded hill-climb that found GOOD")
    parser.add_argument("--anneal", type=float, default=0.0, metavar="SECONDS",
                        help="instead: annealing proposals scored per second by the solve kernel (one core)")
    return parser.parse_args()


def check_good(scorer: Scorer, climb_again: bool) -> None:
    """GOOD scores GOOD_SCORE by the finder and the scorer; with ``climb_again``, rerun the climb."""
    words, board = scorer.words, scorer.board
    reference = finder_score(Grid(board, GOOD), words, 1).total
    assert reference == GOOD_SCORE == scorer.score_one(GOOD), (reference, GOOD_SCORE)
    print(f"GOOD = {GOOD}: {reference:,} (exactgrid.finder), {len(scorer.found_words(GOOD))} states")
    if climb_again:
        print(f"hill-climb from {SEED_GRID} ({scorer.score_one(SEED_GRID):,}), seed 1:")
        grid, total = hill_climb(scorer, SEED_GRID, seed=1, verbose=True)
        print(f"  result {grid} {total:,}; finder says {finder_score(Grid(board, grid), words, 1).total:,}")


def runs_of(scorer: Scorer, codes: np.ndarray, texts: list[str], finder: int) -> list[tuple[str, Callable, int]]:
    """(mode, call, grids scored) for each mode on one kind of grids."""

    def batch() -> None:
        scorer.score_batch(codes)

    def batch600() -> None:
        for i in range(0, len(codes), 600):
            scorer.score_batch(codes[i:i + 600])

    def one() -> None:
        for t in texts:
            scorer.score_one(t)

    def mask() -> None:
        for t in texts:
            scorer.found_mask(t)

    runs = [("batch", batch, len(codes)), ("batch600", batch600, len(codes)),
            ("score_one", one, len(texts)), ("found_mask", mask, len(texts))]
    if finder:
        ref_grids = [Grid(scorer.board, t) for t in texts[:finder]]

        def ref() -> None:
            for g in ref_grids:
                finder_score(g, scorer.words, 1)

        runs.append(("finder (ref)", ref, len(ref_grids)))
    return runs


def bench_kind(scorer: Scorer, kind: str, args: argparse.Namespace, seed: int) -> list[tuple]:
    """Table rows (mode, kind, N, best, median, mean score) for one kind of grids."""
    codes = make_grids(kind, args.grids, seed)
    texts = as_strings(codes[: args.one])
    # cross-check before timing: batch == one at a time on a sample
    totals, _ = scorer.score_batch(codes[:500])
    assert [scorer.score_one(t) for t in as_strings(codes[:500])] == totals.tolist()
    mean_total = float(scorer.score_batch(codes)[0].mean())
    rows = []
    for mode, fn, count in runs_of(scorer, codes, texts, args.finder):
        best, median = timed(fn, args.repeats if mode != "finder (ref)" else 1, count)
        rows.append((mode, kind, count, best, median, mean_total))
    return rows


def print_table(rows: list[tuple]) -> None:
    """The markdown table of rows, sorted by mode."""
    print()
    print("| mode | grids | N | best grids/s | median grids/s | best µs/grid | mean score |")
    print("|---|---|---:|---:|---:|---:|---:|")
    for mode, kind, count, best, median, mean_total in sorted(rows, key=lambda r: r[0]):
        print(f"| {mode} | {kind} | {count:,} | {best:,.0f} | {median:,.0f} | {1e6 / best:.2f} | {mean_total:,.0f} |")


def main() -> int:
    args = _arguments()
    print("$ python " + shlex.join(sys.argv))
    if args.anneal:
        return bench_anneal(args.anneal, args.seed)
    scorer = Scorer(Board(5, 5), us_states(), budget=1)
    check_good(scorer, args.climb)
    rows = []
    for k, kind in enumerate(args.kinds.split(",")):
        rows += bench_kind(scorer, kind, args, args.seed + k)
    print_table(rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
