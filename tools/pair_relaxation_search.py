"""How low can a bound from letter pairs alone go? A grid found here scores its pair score, and
no argument about letter counts and adjacent pairs (the counting relaxation, neighbour capacity,
pair/count cores) can prove a bound below it.

    python tools/pair_relaxation_search.py --seconds 300 --seed 2

The *pair score* of a grid counts a word when some spelling of it (exact, or one position
altered) has every unaltered letter on the board and every consecutive unaltered pair on two
adjacent cells: what the counting relaxation asks of a word, on a real grid. A real grid's
score is at most its pair score (a walk spelling the word realises those pairs), so the best
pair score lies between the best grid and any bound by pairs. Simulated annealing over grids
(change a cell, or swap two), printing the best grid, its pair score and the words it lacks.
"""

from __future__ import annotations

import argparse
import math
import random
import time

from exactgrid.question import build_question

ALPHABET = "ACDEGHIKLMNOPRSTUVWYBFJXZ"


def key(a: str, b: str) -> str:
    """The unordered pair of letters a and b."""
    return a + b if a <= b else b + a


def spellings(word: str) -> list[tuple[frozenset[str], frozenset[str]]]:
    """(letters, pairs) each spelling of ``word`` needs: exact, or with one position altered."""
    forms = []
    for altered in [None, *range(len(word))]:
        letters = frozenset(ch for i, ch in enumerate(word) if i != altered)
        pairs = frozenset(key(word[i], word[i + 1]) for i in range(len(word) - 1) if altered not in (i, i + 1))
        forms.append((letters, pairs))
    return forms


def pair_score(grid: list[str], edges: list[tuple[int, int]],
               needs: dict[str, list[tuple[frozenset[str], frozenset[str]]]],
               weights: dict[str, int]) -> tuple[int, list[str]]:
    """The grid's pair score and the words it counts."""
    present = set(grid)
    pairs = {key(grid[c], grid[d]) for c, d in edges}
    found = [w for w, forms in needs.items() if any(ls <= present and ps <= pairs for ls, ps in forms)]
    return sum(weights[w] for w in found), found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shape", default="5x5")
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--start", default=None, help="a grid to start from (letters row by row)")
    args = parser.parse_args()
    question = build_question(optional=["all"], shape=args.shape, allow_empty=True)
    weights = question.scoring_weights()
    needs = {w: spellings(w) for w in weights}
    edges = list(question.board.edges)
    size = question.board.size
    rng = random.Random(args.seed)
    grid = list(args.start) if args.start else [rng.choice(ALPHABET) for _ in range(size)]
    current, _ = pair_score(grid, edges, needs, weights)
    best, best_grid = current, grid[:]
    started, cpu, steps = time.monotonic(), time.process_time(), 0
    hot, cold = 3e6, 5e4
    while (elapsed := time.monotonic() - started) < args.seconds:
        steps += 1
        temperature = hot * (cold / hot) ** (elapsed / args.seconds)
        trial = grid[:]
        if rng.random() < 0.5:
            trial[rng.randrange(size)] = rng.choice(ALPHABET)
        else:
            i, j = rng.randrange(size), rng.randrange(size)
            trial[i], trial[j] = trial[j], trial[i]
        score, _ = pair_score(trial, edges, needs, weights)
        if score >= current or rng.random() < math.exp((score - current) / temperature):
            grid, current = trial, score
            if score > best:
                best, best_grid = score, trial[:]
    score, found = pair_score(best_grid, edges, needs, weights)
    print(f"# {steps:,} steps, {time.monotonic() - started:.0f} s wall, {time.process_time() - cpu:.0f} s CPU")
    print(f"best pair score {score:,}: {''.join(best_grid)}")
    print("lacks:", ", ".join(sorted(set(weights) - set(found))))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
