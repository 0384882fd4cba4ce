"""Exact award-aware neighbourhoods: keep the cells that spell some words of a grid, free every
other cell, and let the fit engine decide whether any grid of that neighbourhood meets a question.

A near miss of the annealer (a grid earning all awards but one or two) usually spells most of
the hard words already; the cells of their witness walks are worth keeping while the rest
changes. With a dozen cells free the SAT model is small enough to be decided in seconds, so
each neighbourhood is answered exactly: FITS with a grid the finder has checked, or DOES NOT
FIT (no grid keeping those cells meets the question; certifiable like any refutation).

* :func:`witness_cells`: the cells of the finder's witness walks of some words in a grid;
* :func:`keep_sets`: subsets of the words a grid spells whose witness cells leave a given
  number of cells free, one per distinct set of kept cells;
* :func:`neighbourhood_question`: the question with those cells fixed to the grid's letters;
* :func:`explore`: that question decided by :func:`exactgrid.fitting.fit`.

The other way round, for the words a near miss lacks (:func:`lacking` names them for a
checklist): :func:`nearest_walks` finds the walks that come closest to spelling a word,
:func:`around_walks` frees each one's cells (and a few of their neighbours; for several words,
one nearest walk of each together) and :func:`fixed_except` fixes every other cell;
:func:`explore` takes that neighbourhood as well.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations, product

from ..awards import Checklist, cheapest_chain
from ..backends import Backend
from ..data.us import us_states
from ..finder import find
from ..fitting import FitAnswer, fit
from ..grid import Grid
from ..question import Question

WALK_LIMIT = 10_000
"""The most walks :func:`nearest_walks` lists (a word on a grid of one letter has millions)."""


@dataclass(frozen=True)
class Neighbourhood:
    """The grids that agree with ``grid`` on the cells spelling ``kept`` (``fixed``: cell to letter)."""

    grid: str
    kept: tuple[str, ...]
    fixed: dict[int, str]

    @property
    def free(self) -> int:
        """How many cells may change."""
        return len(self.grid) - len(self.fixed)

    def rows(self, cols: int) -> str:
        """The fixed cells as ``exactgrid fit --cells`` takes them: rows with '.' for free cells."""
        cells = "".join(self.fixed.get(i, ".") for i in range(len(self.grid)))
        return "/".join(cells[r:r + cols] for r in range(0, len(cells), cols))


def witness_cells(grid: Grid, words: Iterable[str], budget: int = 1) -> frozenset[int]:
    """The cells of the finder's witness walk of each of ``words`` the grid spells (words it
    does not spell add nothing).

    >>> from exactgrid.grid import parse_grid
    >>> sorted(witness_cells(parse_grid("thoainesl"), ["OHIO"]))
    [1, 2, 4]
    """
    cells: set[int] = set()
    for word in words:
        match = find(grid, word, budget)
        if match is not None:
            cells.update(match.path)
    return frozenset(cells)


def keep_sets(grid: Grid, words: Sequence[str], free: tuple[int, int], budget: int = 1,
              seed: int = 0) -> list[tuple[str, ...]]:
    """Subsets of ``words`` (those the grid spells) whose witness cells leave between ``free[0]``
    and ``free[1]`` cells free, one subset per distinct set of kept cells (the largest subset
    that keeps them), in a random order drawn from ``seed``.

    Every subset is tried, so ``words`` should be few (up to about 16: the hard words of a
    question, not the whole list).
    """
    spelled = [w for w in words if find(grid, w, budget) is not None]
    masks = [sum(1 << c for c in witness_cells(grid, [w], budget)) for w in spelled]
    size = grid.board.size
    best: dict[int, tuple[str, ...]] = {}
    for subset in range(1, 1 << len(spelled)):
        mask = 0
        chosen = []
        for i, word in enumerate(spelled):
            if subset >> i & 1:
                mask |= masks[i]
                chosen.append(word)
        if free[0] <= size - mask.bit_count() <= free[1] and len(chosen) > len(best.get(mask, ())):
            best[mask] = tuple(chosen)
    order = sorted(best.values())
    random.Random(seed).shuffle(order)
    return order


def nearest_walks(grid: Grid, word: str, limit: int = WALK_LIMIT) -> tuple[int, list[tuple[int, ...]]]:
    """The fewest cells whose letters differ from ``word``'s along any walk of ``word``'s
    length on the grid's board (each step to a different, adjacent cell; a cell may come back),
    and the walks that achieve it (at most ``limit`` of them, in cell order).

    >>> from exactgrid.grid import parse_grid
    >>> nearest_walks(parse_grid("thoainesl"), "OHIO")
    (0, [(2, 1, 4, 2)])
    """
    board, letters, n = grid.board, grid.letters, len(word)
    # rest[i][c]: fewest mismatches spelling word[i:] on a walk starting at cell c
    rest = [[0] * board.size for _ in range(n)]
    for i in range(n - 1, -1, -1):
        for c in range(board.size):
            after = min((rest[i + 1][d] for d in board.neighbours[c]), default=n) if i < n - 1 else 0
            rest[i][c] = (letters[c] != word[i]) + after
    fewest = min(rest[0])
    walks: list[tuple[int, ...]] = []

    def extend(path: list[int], spent: int) -> None:
        if len(walks) >= limit:
            return
        if len(path) == n:
            walks.append(tuple(path))
            return
        i = len(path)
        for d in sorted(board.neighbours[path[-1]]):
            if spent + rest[i][d] == fewest:
                extend([*path, d], spent + (letters[d] != word[i]))

    for c in range(board.size):
        if rest[0][c] == fewest:
            extend([c], int(letters[c] != word[0]))
    return fewest, walks


def around_walks(grid: Grid, words: str | Sequence[str], extra: int = 0,
                 limit: int = WALK_LIMIT) -> list[frozenset[int]]:
    """Sets of cells to free around the nearest walks (:func:`nearest_walks`) of ``words`` (one
    word, or several a near miss lacks together): for every choice of one nearest walk per word,
    the walks' cells with every choice of ``extra`` of their neighbouring cells, each set once,
    in cell order.

    >>> from exactgrid.grid import parse_grid
    >>> [sorted(cells) for cells in around_walks(parse_grid("thoainesl"), "OHIO")]
    [[1, 2, 4]]
    >>> [sorted(cells) for cells in around_walks(parse_grid("thoainesl"), ["OHIO", "UTAH"])]
    [[0, 1, 2, 3, 4]]
    """
    board = grid.board
    per_word = [{frozenset(walk) for walk in nearest_walks(grid, word, limit)[1]}
                for word in ([words] if isinstance(words, str) else words)]
    found: set[frozenset[int]] = set()
    for choice in product(*per_word):
        cells = frozenset().union(*choice)
        around = sorted({d for c in cells for d in board.neighbours[c]} - cells)
        found.update(cells | set(more) for more in combinations(around, extra))
    return sorted(found, key=sorted)


def lacking(grid: Grid, checklist: Checklist, budget: int = 1) -> tuple[str, ...]:
    """The US states ``grid`` lacks for ``checklist`` (walks, ``budget`` letters altered): every
    missing state of a ``required`` item, and for a ``chain`` item the states its cheapest
    chain lacks (:func:`exactgrid.awards.cheapest_chain`, a state costing the letters it is
    from spelled beyond the budget, :func:`nearest_walks`; no state of a ``forbidden`` item is
    used, so a grid whose only chain runs through one lacks another), each once, in that
    order. What :func:`around_walks` frees the
    cells for; counts, scores and a spelled forbidden state name no state.

    >>> from exactgrid.awards import default_checklist
    >>> from exactgrid.grid import parse_grid
    >>> lacking(parse_grid("thoainesl"), default_checklist().select(["4C", "PA"]))
    ('PENNSYLVANIA', 'ARIZONA', 'COLORADO', 'NEWMEXICO')
    """
    distance = {state: nearest_walks(grid, state, 1)[0] for state in us_states().words}
    found = {state for state, d in distance.items() if d <= budget}
    forbidden = {state for item in checklist.items if item.kind == "forbidden" for state in item.states}
    wanted: list[str] = []
    for item in checklist.items:
        if item.kind == "required":
            wanted += [state for state in item.states if state not in found]
        elif item.kind == "chain" and item.chain is not None:
            water = checklist.water_borders if item.chain.water is None else item.chain.water
            cost = {state: max(d - budget, 0) for state, d in distance.items() if state not in forbidden}
            cheapest = cheapest_chain(cost, item.chain.sources, item.chain.targets, water)
            wanted += [state for state in (cheapest[0] if cheapest else ()) if state not in found]
    return tuple(dict.fromkeys(wanted))


def fixed_except(question: Question, grid: Grid, free: Iterable[int]) -> tuple[Question, Neighbourhood]:
    """``question`` with every cell but ``free`` fixed to ``grid``'s letters (the question's own
    fixed cells stay), and the neighbourhood that describes (no words kept by name)."""
    free = set(free)
    fixed = dict(question.fixed)
    fixed.update({c: grid.letters[c] for c in range(grid.board.size) if c not in free and c not in fixed})
    area = Neighbourhood(grid.letters, (), dict(sorted(fixed.items())))
    return question.but(fixed=area.fixed), area


def neighbourhood_question(question: Question, grid: Grid, kept: Iterable[str]) -> tuple[Question, Neighbourhood]:
    """``question`` with the cells of ``kept``'s witness walks in ``grid`` fixed to its letters
    (the question's own fixed cells stay), and the neighbourhood that describes."""
    kept = tuple(kept)
    cells = witness_cells(grid, kept, question.budget)
    fixed = dict(question.fixed)
    fixed.update({c: grid.letters[c] for c in cells if c not in fixed})
    area = Neighbourhood(grid.letters, kept, dict(sorted(fixed.items())))
    return question.but(fixed=area.fixed), area


def explore(question: Question, grid: Grid, kept: Iterable[str], backend: str | Backend | None = None,
            time_limit: float | None = 30.0, certify: bool = False, seed: int = 0,
            free: Iterable[int] | None = None) -> tuple[FitAnswer, Neighbourhood]:
    """Decide whether some grid keeping the cells that spell ``kept`` in ``grid`` (or, given
    ``free``, every cell but those) meets ``question`` (:func:`exactgrid.fitting.fit` on one
    core: no counting child), and the neighbourhood asked about. FITS comes with a grid the
    finder has checked; DOES NOT FIT with what backs it (a checked proof under ``certify``)."""
    if free is not None:
        asked, area = fixed_except(question, grid, free)
    else:
        asked, area = neighbourhood_question(question, grid, kept)
    return fit(asked, backend, time_limit, seed, counting=False, certify=certify), area
