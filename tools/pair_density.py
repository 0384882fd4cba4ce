"""Does the counting relaxation's optimum put more letter pairs among some letters than the
board's cells can hold? A test of one family of cuts before building it.

    python tools/pair_density.py --shape 5x5

Any k cells of a board have at most f(k) adjacent pairs among them (counted here over every
set of cells, 2^cells of them: 11 s on 5x5). In a grid, the distinct letter pairs among a set
S of letters lie on the edges among S's cells, so they number at most f(cells holding S). The
script solves the relaxation of the all-state question (HiGHS, neighbour capacity on, as
``bound`` does), and for each k asks HiGHS for the set of letters holding at most k cells with
the most of the optimum's pairs among them. A line marked VIOLATED would be a cut the
relaxation lacks; none means the family cannot lower the bound at its first round.
"""

from __future__ import annotations

import argparse
import time

import highspy
import numpy as np

from exactgrid.backends import get_backend
from exactgrid.geometry import Board
from exactgrid.prove.counting import counting_model
from exactgrid.question import build_question


def densest(board: Board) -> list[int]:
    """``f[k]``: the most adjacent pairs among any k cells of ``board``, by brute force."""
    n = board.size
    higher = [sum(1 << d for d in board.neighbours[c] if d > c) for c in range(n)]
    most = np.zeros(n + 1, dtype=np.int64)
    chunk = 1 << 20
    for start in range(0, 1 << n, chunk):
        masks = np.arange(start, min(start + chunk, 1 << n), dtype=np.int64)
        cells = np.zeros(len(masks), dtype=np.int64)
        edges = np.zeros(len(masks), dtype=np.int64)
        for c in range(n):
            inside = (masks >> c) & 1
            cells += inside
            edges += inside * _popcount(masks & higher[c])
        np.maximum.at(most, cells, edges)
    return most.tolist()


def _popcount(x: np.ndarray) -> np.ndarray:
    count = np.zeros(len(x), dtype=np.int64)
    x = x.copy()
    while (nonzero := x != 0).any():
        count += nonzero
        x &= x - 1
    return count


def most_pairs(counts: dict[str, int], pairs: list[tuple[str, str]], k: int) -> tuple[int, str]:
    """The most of ``pairs`` among letters holding at most ``k`` cells, and those letters."""
    letters = sorted(a for a, c in counts.items() if c)
    h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    chosen = {a: h.addBinary() for a in letters}
    among = {p: h.addBinary() for p in pairs}
    for (a, b), var in among.items():
        h.addConstr(var <= chosen[a])
        h.addConstr(var <= chosen[b])
    h.addConstr(sum(counts[a] * chosen[a] for a in letters) <= k)
    h.maximize(sum(among.values()))
    return round(h.getInfo().objective_function_value), "".join(a for a in letters if h.val(chosen[a]) > 0.5)


def main() -> int:
    """Print f, the relaxation's optimum, and the densest letter set per k."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--shape", default="5x5")
    parser.add_argument("--seconds", type=float, default=300.0, help="HiGHS's time for the relaxation")
    args = parser.parse_args()
    question = build_question(optional=["all"], shape=args.shape, allow_empty=True)
    began = time.monotonic()
    f = densest(question.board)
    print(f"f = {f} ({time.monotonic() - began:.1f} s)", flush=True)
    relaxation = counting_model(question, objective=True, capacity=True)
    result = get_backend("highs").solve(relaxation.model, time_limit=args.seconds)
    true_vars = result.true_vars or frozenset()
    counts = relaxation.cell_counts(true_vars)
    pairs = [p for p, var in relaxation.pairs.items() if var in true_vars]
    print(f"relaxation: {result.status.name} {result.objective:,}; {sum(counts.values())} cells of "
          f"{sum(1 for c in counts.values() if c)} letters, {len(pairs)} distinct pairs", flush=True)
    violated = 0
    for k in range(2, question.board.size + 1):
        most, letters = most_pairs(counts, pairs, k)
        mark = "  VIOLATED" if most > f[k] else ""
        violated += bool(mark)
        print(f"k={k:2d}: {most:3d} pairs among {letters} (f = {f[k]}){mark}", flush=True)
    print(f"{violated} of {question.board.size - 1} sizes violated")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
