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
    return all_paths_on(rows * cols, lambda a, b: adjacent(rows, cols, moves, a, b), length, path_rule)


def all_paths_on(n: int, is_adjacent, length: int, path_rule: str):
    """Every sequence of `length` of the cells 0..n-1 where consecutive cells satisfy
    ``is_adjacent(a, b)`` (any board), obeying the path rule."""

    def extend(path):
        if len(path) == length:
            yield tuple(path)
            return
        for nxt in range(n):
            if path and not is_adjacent(path[-1], nxt):
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
    return best_spelling_on(letters, lambda a, b: adjacent(rows, cols, moves, a, b), word, budget, path_rule)


def best_spelling_on(letters: str, is_adjacent, word: str, budget: int, path_rule: str):
    """As best_spelling, on any board given by its adjacency predicate."""
    best = None
    for path in all_paths_on(len(letters), is_adjacent, len(word), path_rule):
        spelled = "".join(letters[c] for c in path)
        subs = sum(a != b for a, b in zip(word, spelled))
        if subs > budget:
            continue
        key = tuple((1, "") if s == w else (0, s) for s, w in zip(spelled, word))
        candidate = (subs, key, spelled)
        if best is None or candidate < best:
            best = candidate
    return best


def canonical_path(letters: str, rows: int, cols: int, moves: str, spelled: str, path_rule: str) -> tuple:
    """The path docs/rules.md shows for a spelling: of every path spelling it, the one ending
    at the lowest cell, each earlier cell the lowest possible (the least path read backwards)."""
    paths = [p for p in all_paths(rows, cols, moves, len(spelled), path_rule)
             if "".join(letters[c] for c in p) == spelled]
    return min(paths, key=lambda p: p[::-1])


def all_grids(alphabet: str, size: int):
    for letters in product(alphabet, repeat=size):
        yield "".join(letters)


# Reference adjacencies of custom boards, straight from their definitions.

def letter_boxed_adjacent(per_side: int, a: int, b: int) -> bool:
    """Letter Boxed: cell s * per_side + p is on side s; cells on different sides are adjacent."""
    return a // per_side != b // per_side


def ring_adjacent(n: int, a: int, b: int) -> bool:
    """A cycle of n >= 3 cells: each cell is adjacent to the one before and after it."""
    return (a - b) % n in (1, n - 1)


def line_adjacent(a: int, b: int) -> bool:
    """A path (line) of cells: adjacent when the indices differ by one."""
    return abs(a - b) == 1
