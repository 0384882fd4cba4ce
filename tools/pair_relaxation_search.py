"""How low can a bound from letter pairs alone go? A grid found here scores its pair score, and
no argument about letter counts and adjacent pairs (the counting relaxation, neighbour capacity,
pair/count cores) can prove a bound below it.

    python tools/pair_relaxation_search.py --seconds 300 --seed 2
    python tools/pair_relaxation_search.py --seconds 300 --window 3 --unit

The *pair score* of a grid counts a word when some spelling of it (exact, or one position
altered) has every unaltered letter on the board and every consecutive unaltered pair on two
adjacent cells: what the counting relaxation asks of a word, on a real grid. A real grid's
score is at most its pair score (a walk spelling the word realises those pairs), so the best
pair score lies between the best grid and any bound by pairs. Simulated annealing over grids
(change a cell, or swap two), printing the best grid, its pair score and the words it lacks.

``--window K`` asks more of a word: the *K-window score* counts it when some spelling (exact,
or one position altered) has every run of K consecutive letters on either side of the altered
position spelled by a walk on the board (a side shorter than K: the whole side). K = 2 is the
pair score; K = 3 asks what letter triples ask; a K as long as the longest word is the
finder's own score without the altered letter's link. With ``--across`` the runs also cross
the altered position, which any letter spells (a walk spelling the word passes through some
cell there), so the link is kept: a K as long as the longest word is then the finder's own
score, and every K asks more than without it. ``--unit`` weighs every word 1, so the
score counts words: the best K-window count is a floor under any bound on the number of words
built from K-letter stretches.

A question, not only the score: ``--require WORD...`` asks the grid to count those words,
``--awards KEY...`` to earn those awards on the words it counts (the relaxed score for 200M,
the words counted for 20S and for a chain), and ``--drop WORD...`` never counts a word, as
does an award that forbids one (NOCAL drops CALIFORNIA: a relaxation cannot forbid a word,
only leave it out, and a grid that meets the question does not count it). The walk climbs the
relaxed score less a penalty for each required word or award missed; the best grid is the
best that misses none. A grid found so is a floor for that question: no argument from the
same stretches can prove that no grid meets it with that score. Exit 1 when no grid did.

    python tools/pair_relaxation_search.py --window 3 --awards M8 4C NOCAL --seconds 600
"""

from __future__ import annotations

import argparse
import math
import random
import time
from collections.abc import Callable

from exactgrid.api import score as score_grid
from exactgrid.awards import ChecklistError, default_checklist, evaluate
from exactgrid.geometry import Board
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


WILD = "?"
"""The altered position in a window that runs across it: any letter spells it."""


def window_needs(word: str, k: int, across: bool = False) -> list[frozenset[str]]:
    """For each spelling of ``word`` (exact, or one position altered), the strings of at most
    ``k`` letters a walk must spell for it under the K-window score; spellings that ask a
    superset of another's are dropped. ``across``: the windows run across the altered position
    too, as :data:`WILD` (a walk spelling the word passes through some cell there), rather than
    stopping on either side of it."""
    forms = set()
    for altered in [None, *range(len(word))]:
        if across:
            sides = [word if altered is None else word[:altered] + WILD + word[altered + 1:]]
        else:
            sides = [word] if altered is None else [word[:altered], word[altered + 1:]]
        need: set[str] = set()
        for side in filter(None, sides):
            if len(side) <= k:
                need.add(side)
            else:
                need.update(side[i:i + k] for i in range(len(side) - k + 1))
        forms.add(frozenset(need))
    return [form for form in forms if not any(other < form for other in forms)]


def board_walks(neighbours: list[tuple[int, ...]] | tuple[tuple[int, ...], ...], k: int) -> list[tuple[int, ...]]:
    """Every walk of 1 to ``k`` cells on a board with these neighbour lists."""
    level = [(c,) for c in range(len(neighbours))]
    walks = list(level)
    for _ in range(k - 1):
        level = [walk + (d,) for walk in level for d in neighbours[walk[-1]]]
        walks.extend(level)
    return walks


def window_score(grid: list[str], walks: list[tuple[int, ...]], needs: dict[str, list[frozenset[str]]],
                 weights: dict[str, int], across: bool = False) -> tuple[int, list[str]]:
    """The grid's K-window score (``needs`` from :func:`window_needs`, ``walks`` from
    :func:`board_walks`, the same K and ``across``) and the words it counts, in ``needs``' order."""
    spelled = {"".join(grid[c] for c in walk) for walk in walks}
    if across:
        spelled |= {text[:i] + WILD + text[i + 1:] for text in spelled for i in range(len(text))}
    found = [w for w, forms in needs.items() if any(form <= spelled for form in forms)]
    return sum(weights[w] for w in found), found


Counts = Callable[[list[str]], tuple[int, list[str]]]
"""A grid's relaxed score and the words it counts."""


def _runs_across(needs: dict[str, list[frozenset[str]]]) -> bool:
    """Whether ``needs`` (from :func:`window_needs`) were made with ``across``."""
    return any(WILD in text for forms in needs.values() for form in forms for text in form)


def window_counter(neighbours: list[tuple[int, ...]] | tuple[tuple[int, ...], ...], k: int,
                   needs: dict[str, list[frozenset[str]]], weights: dict[str, int]) -> Counts:
    """:func:`window_score` on the board with these neighbour lists, compiled with numba when
    it can be (:func:`compiled_window_score`), else in Python: the same score and words."""
    try:
        return compiled_window_score(neighbours, k, needs, weights)
    except (ImportError, ValueError):  # no numba (the solve extra), or K too long for one array
        walks, across = board_walks(neighbours, k), _runs_across(needs)
        return lambda grid: window_score(grid, walks, needs, weights, across)


BASE = 28
"""Digits of a window's number: 1-26 the letters, 27 :data:`WILD`, none past its end."""
LARGEST_ARRAY = 10**8
"""The most windows' numbers :func:`compiled_window_score` marks in one array (K = 5 on 28 digits)."""


def compiled_window_score(neighbours: list[tuple[int, ...]] | tuple[tuple[int, ...], ...], k: int,
                          needs: dict[str, list[frozenset[str]]],
                          weights: dict[str, int]) -> Counts:
    """:func:`window_score` compiled with numba for the board with these neighbour lists: the
    same score and the same words in the list's order, far faster (docs/benchmarks.md, Prove):
    each string of at most K letters is a number, the strings the walks spell are marked in an
    array, and each need is one look-up. ImportError without numba; ValueError for a K whose
    numbers would not fit :data:`LARGEST_ARRAY`."""
    if BASE ** k > LARGEST_ARRAY:
        raise ValueError(f"runs of {k} letters are too long to compile as one array")
    import numpy as np
    from numba import njit

    walks = board_walks(neighbours, k)
    cells = np.full((len(walks), k), -1, dtype=np.int64)
    for i, walk in enumerate(walks):
        cells[i, :len(walk)] = walk
    words = list(needs)
    forms = [form for w in words for form in needs[w]]
    codes = np.array([_code(s) for form in forms for s in sorted(form)], dtype=np.int64)
    form_start = np.cumsum([0] + [len(form) for form in forms]).astype(np.int64)
    word_start = np.cumsum([0] + [len(needs[w]) for w in words]).astype(np.int64)
    spelled = np.zeros(BASE ** k, dtype=np.uint8)
    across = _runs_across(needs)
    kernel = njit(cache=False)(_window_kernel)

    def counts(grid: list[str]) -> tuple[int, list[str]]:
        letters = np.array([ord(ch) - 64 for ch in grid], dtype=np.int64)
        mask = kernel(letters, cells, codes, form_start, word_start, spelled, across)
        found = [w for w, hit in zip(words, mask, strict=True) if hit]
        return sum(weights[w] for w in found), found

    return counts


def _code(text: str) -> int:
    """A string of letters (and :data:`WILD`) as a number in :data:`BASE`: distinct for distinct strings."""
    return sum((BASE - 1 if ch == WILD else ord(ch) - 64) * BASE ** i for i, ch in enumerate(text))


def _window_kernel(letters, cells, codes, form_start, word_start, spelled, across):  # noqa: ANN001, ANN202, C901
    """Mark the code of every walk's string in ``spelled`` (with ``across``, also each with one
    letter made wild), read each word's forms, unmark; the found mask (compiled by
    :func:`compiled_window_score`)."""
    marked = []
    for i in range(cells.shape[0]):
        code, scale, length = 0, 1, 0
        for j in range(cells.shape[1]):
            if cells[i, j] < 0:
                break
            code += letters[cells[i, j]] * scale
            scale *= BASE
            length += 1
        if spelled[code] == 0:
            spelled[code] = 1
            marked.append(code)
        if across:
            scale = 1
            for j in range(length):
                wild = code + (BASE - 1 - letters[cells[i, j]]) * scale
                scale *= BASE
                if spelled[wild] == 0:
                    spelled[wild] = 1
                    marked.append(wild)
    found = [False] * (word_start.shape[0] - 1)
    for w in range(word_start.shape[0] - 1):
        for f in range(word_start[w], word_start[w + 1]):
            held = True
            for n in range(form_start[f], form_start[f + 1]):
                if spelled[codes[n]] == 0:
                    held = False
                    break
            if held:
                found[w] = True
                break
    for code in marked:
        spelled[code] = 0
    return found


Relaxed = Callable[[list[str]], tuple[int, list[str], int]]
"""A grid's relaxed score, the words it counts, and how many required words and awards it misses."""


def add_word_options(parser: argparse.ArgumentParser) -> None:
    """``--require`` and ``--drop``, as this tool and ``board_pairs.py`` read them."""
    parser.add_argument("--require", nargs="+", default=[], metavar="WORD",
                        help="words the grid must count (a grid lacking one is never the best)")
    parser.add_argument("--drop", nargs="+", default=[], metavar="WORD",
                        help="words never counted (a relaxation cannot forbid a word, only leave it out)")


def check_words(parser: argparse.ArgumentParser, words: set[str], weights: dict[str, int]) -> None:
    """One error line (exit 2) naming the ``words`` that are not words of the list."""
    unknown = sorted(words - set(weights))
    if unknown:
        parser.error(f"not words of the list: {', '.join(unknown)}")


def parse_args() -> tuple[argparse.ArgumentParser, argparse.Namespace]:
    """The command line."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shape", default="5x5")
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--start", default=None, help="a grid to start from (letters row by row)")
    parser.add_argument("--window", type=int, default=2, help="K: runs of K letters (2: the pair score)")
    parser.add_argument("--across", action="store_true",
                        help="the runs also cross the altered position, which any letter spells")
    parser.add_argument("--unit", action="store_true", help="weigh every word 1: the score counts words")
    add_word_options(parser)
    parser.add_argument("--awards", nargs="+", default=[], metavar="KEY",
                        help="award keys the grid must earn on the words it counts (a forbidden state is dropped)")
    return parser, parser.parse_args()


def relaxation(args: argparse.Namespace, parser: argparse.ArgumentParser,
               board: Board, weights: dict[str, int]) -> tuple[Relaxed, set[str]]:
    """The relaxed score the command line asks for, and the words it never counts (``--drop``
    and the states a forbidding award names)."""
    try:
        checklist = default_checklist().select(args.awards) if args.awards else None
    except ChecklistError as err:
        parser.error(str(err))
    if checklist is not None and args.unit and any(item.kind == "min_score" for item in checklist.items):
        parser.error("--unit counts words, so an award for a score cannot be judged on it")
    dropped = set(args.drop)
    if checklist is not None:
        dropped.update(s for item in checklist.items if item.kind == "forbidden" for s in item.states)
    check_words(parser, set(args.require) | dropped, weights)
    counted = {w: 0 if w in dropped else weight for w, weight in weights.items()}
    required = frozenset(args.require)
    if args.window == 2 and not args.across:
        pair_needs, edges = {w: spellings(w) for w in weights}, list(board.edges)

        def counts(grid: list[str]) -> tuple[int, list[str]]:
            return pair_score(grid, edges, pair_needs, counted)
    else:
        needs = {w: window_needs(w, args.window, args.across) for w in weights}
        counts = window_counter(board.neighbours, args.window, needs, counted)

    def relaxed(grid: list[str]) -> tuple[int, list[str], int]:
        score, found = counts(grid)
        found = [w for w in found if w not in dropped]
        missing = len(required - set(found))
        if checklist is not None:
            missing += len(evaluate(checklist, found, total=score).failed)
        return score, found, missing

    return relaxed, dropped


def anneal(relaxed: Relaxed, grid: list[str], seconds: float, rng: random.Random, unit: bool,
           penalty: int) -> tuple[list[str] | None, int]:
    """Simulated annealing from ``grid`` for ``seconds``, climbing the relaxed score less
    ``penalty`` for each required word or award missed: the best grid that misses none (None if
    no grid did) and the steps taken."""
    score, _, missing = relaxed(grid)
    current = score - penalty * missing
    best, best_grid = (score, grid[:]) if not missing else (-1, None)
    started, steps = time.monotonic(), 0
    hot, cold = (3.0, 0.05) if unit else (3e6, 5e4)
    while (elapsed := time.monotonic() - started) < seconds:
        steps += 1
        temperature = hot * (cold / hot) ** (elapsed / seconds)
        trial = grid[:]
        if rng.random() < 0.5:
            trial[rng.randrange(len(grid))] = rng.choice(ALPHABET)
        else:
            i, j = rng.randrange(len(grid)), rng.randrange(len(grid))
            trial[i], trial[j] = trial[j], trial[i]
        score, _, missing = relaxed(trial)
        value = score - penalty * missing
        if value >= current or rng.random() < math.exp((value - current) / temperature):
            grid, current = trial, value
            if not missing and score > best:
                best, best_grid = score, trial[:]
    return best_grid, steps


def main() -> int:
    """Search, then print the best grid, its relaxed and real scores and the words it lacks."""
    parser, args = parse_args()
    question = build_question(optional=["all"], shape=args.shape, allow_empty=True)
    weights = question.scoring_weights()
    if args.unit:
        weights = dict.fromkeys(weights, 1)
    if args.start is not None and not (len(args.start) == question.board.size and args.start.isascii()
                                       and args.start.isalpha() and args.start.isupper()):
        parser.error(f"--start: {question.board.size} capital letters, row by row")
    relaxed, dropped = relaxation(args, parser, question.board, weights)
    rng = random.Random(args.seed)
    grid = list(args.start) if args.start else [rng.choice(ALPHABET) for _ in range(question.board.size)]
    started, cpu = time.monotonic(), time.process_time()
    # a required word or award lost costs more than any word gained
    best_grid, steps = anneal(relaxed, grid, args.seconds, rng, args.unit, 2 * max(weights.values()))
    if best_grid is None:
        print(f"# {steps:,} steps: no grid counted every required word and earned every award asked")
        return 1
    score, found, _ = relaxed(best_grid)
    print(f"# {steps:,} steps, {time.monotonic() - started:.0f} s wall, {time.process_time() - cpu:.0f} s CPU")
    grid_text = "".join(best_grid)
    kind = "pair score" if args.window == 2 and not args.across else f"{args.window}-window score"
    kind += " across the altered letter" if args.across else ""
    print(f"best {kind} {score:,} ({len(found)} words): {grid_text}; the finder scores it "
          f"{score_grid(grid_text).total:,} ({len(score_grid(grid_text).found)} words)")
    print("lacks:", ", ".join(sorted(set(weights) - set(found))))
    if dropped:
        print("dropped:", ", ".join(sorted(dropped)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
