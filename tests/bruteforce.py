"""Independent brute-force references: enumerate every path, no bitsets, no shared code."""

from __future__ import annotations

from itertools import product


def adjacent(rows: int, cols: int, moves: str, a: int, b: int) -> bool:
    (ra, ca), (rb, cb) = divmod(a, cols), divmod(b, cols)
    dr, dc = abs(ra - rb), abs(ca - cb)
    if moves == "king":
        return max(dr, dc) == 1
    return dr + dc == 1


def all_paths(rows: int, cols: int, moves: str, length: int, path_rule: str):
    """Every sequence of `length` cells obeying the move and path rules."""
    n = rows * cols

    def extend(path):
        if len(path) == length:
            yield tuple(path)
            return
        for nxt in range(n):
            if path and not adjacent(rows, cols, moves, path[-1], nxt):
                continue
            if path_rule == "simple" and nxt in path:
                continue
            path.append(nxt)
            yield from extend(path)
            path.pop()

    yield from extend([])


def best_spelling(letters: str, rows: int, cols: int, moves: str, word: str, budget: int,
                  path_rule: str):
    """(subs, key, spelled) of the canonical spelling, or None: fewest substitutions, then
    earliest altered position, then alphabetically first altered letter."""
    best = None
    for path in all_paths(rows, cols, moves, len(word), path_rule):
        spelled = "".join(letters[c] for c in path)
        subs = sum(a != b for a, b in zip(word, spelled))
        if subs > budget:
            continue
        key = tuple((1, "") if s == w else (0, s) for s, w in zip(spelled, word))
        candidate = (subs, key, spelled)
        if best is None or candidate < best:
            best = candidate
    return best


def all_grids(alphabet: str, size: int):
    for letters in product(alphabet, repeat=size):
        yield "".join(letters)
