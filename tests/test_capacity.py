"""Neighbour capacity: the table against brute force over every set of cells, every grid of
small boards within it, and the relaxation with it never below the best grid."""

from __future__ import annotations

import itertools

import pytest

from exactgrid.geometry import Board
from exactgrid.prove.capacity import Capacity, most_cells_within, neighbour_capacity

from .bruteforce import adjacent, all_grids
from .test_counting import _best_score, _grids
from .test_fit import SPECS


def _brute_table(rows: int, cols: int, moves: str, most_cells: int) -> dict[tuple[int, ...], Capacity]:
    """The capacity table from the definitions: every set of up to ``most_cells`` cells."""
    cells = range(rows * cols)

    def near(a: int, b: int) -> bool:
        return adjacent(rows, cols, moves, a, b)

    degree = [sum(near(c, d) for d in cells if d != c) for c in cells]
    degrees = sorted(set(degree))
    spread: dict[tuple[int, ...], int] = {}
    touching: dict[tuple[int, ...], int] = {}
    for size in range(1, most_cells + 1):
        for chosen in itertools.combinations(cells, size):
            profile = tuple(sum(degree[c] == d for c in chosen) for d in degrees)
            outside = sum(1 for c in cells if c not in chosen and any(near(c, s) for s in chosen))
            spread[profile] = max(spread.get(profile, 0), outside)
            if any(near(s, t) for s, t in itertools.combinations(chosen, 2)):
                touching[profile] = max(touching.get(profile, 0), outside)
    return {p: Capacity(v, touching.get(p)) for p, v in spread.items()}


@pytest.mark.parametrize("rows, cols, moves", [(3, 3, "king"), (2, 4, "king"), (3, 3, "rook"), (3, 4, "king")])
def test_the_table_is_the_brute_force_maximum(rows, cols, moves):
    size = rows * cols
    table = neighbour_capacity(Board(rows, cols, moves), most_cells=size)
    assert table.most_cells == size  # small boards: every set of cells
    assert table.profiles == _brute_table(rows, cols, moves, table.most_cells)
    assert table.beyond == 0 and neighbour_capacity(Board(rows, cols, moves), most_cells=3).beyond == size - 4
    ends = {p: sum(n * d for n, d in zip(p, table.degrees, strict=True)) for p in table.profiles}
    assert any(room.spread < ends[p] for p, room in table.profiles.items())  # sharper than the edge ends


def test_the_5x5_table_by_hand():
    table = neighbour_capacity(Board(5, 5), most_cells=9)
    assert table.degrees == (3, 5, 8) and table.most_cells == 5 and table.beyond == 19  # 5: the enumeration limit
    middle = table.profiles
    assert middle[0, 0, 1] == Capacity(8, None) and middle[1, 0, 0] == Capacity(3, None)
    # r2c2 and r4c4 share one neighbour (r3c3): 8 + 8 - 1; touching diagonally (r2c2, r3c3): 4x4 less 2 corners, less 2
    assert middle[0, 0, 2] == Capacity(15, 12)
    assert middle[0, 0, 3].spread == 18  # r2c2, r2c4, r4c2: three blocks of 9 cover 21 cells, 3 of them chosen
    assert most_cells_within(25) == 5 and most_cells_within(1024) == 1 and most_cells_within(16) == 16


@pytest.mark.parametrize("rows, cols, alphabet", [(3, 3, "ABC"), (2, 3, "ABCD")])
def test_every_grid_stays_within_its_capacity(rows, cols, alphabet):
    board = Board(rows, cols)
    table = neighbour_capacity(board, most_cells=board.size)
    cells = range(board.size)
    degree = [sum(adjacent(rows, cols, "king", c, d) for d in cells if d != c) for c in cells]
    for letters in all_grids(alphabet, board.size):
        for a in set(letters):
            mine = [c for c in cells if letters[c] == a]
            others = {letters[d] for c in mine for d in cells if letters[d] != a and adjacent(rows, cols, "king", c, d)}
            profile = tuple(sum(degree[c] == d for c in mine) for d in table.degrees)
            room = table.profiles[profile]
            touches = any(adjacent(rows, cols, "king", c, d) for c, d in itertools.combinations(mine, 2))
            limit = room.touching if touches else room.spread
            assert limit is not None and len(others) <= limit, (letters, a)


@pytest.mark.parametrize("index", [i for i, s in enumerate(SPECS) if s.optional and _grids(s) <= 3_000][:12])
def test_with_capacity_the_relaxation_is_never_below_the_best_grid(index):
    pytest.importorskip("highspy")
    from exactgrid.backends import Status
    from exactgrid.backends.ilp import HighsModel
    from exactgrid.prove.counting import counting_model

    spec = SPECS[index]
    best = _best_score(spec)
    plain = HighsModel(counting_model(spec, capacity=False).model).solve()
    capped = HighsModel(counting_model(spec, capacity=True).model).solve()
    if best is None:
        assert capped.status in (Status.UNSAT, Status.OPTIMAL)
        return
    assert capped.status == Status.OPTIMAL and best <= capped.objective <= plain.objective, (best, capped, plain)


def test_capacity_lowers_the_relaxation_of_the_16_largest_states_on_3x3():
    """The edge ends let some letter see more letters than a 3x3 board can put around its
    cells; with capacity the optimum drops (and stays above a real grid's score)."""
    pytest.importorskip("highspy")
    from exactgrid.backends.ilp import HighsModel
    from exactgrid.finder import find
    from exactgrid.grid import Grid
    from exactgrid.prove.counting import counting_model
    from exactgrid.question import build_question

    weights = build_question(optional=["all"], shape="3x3", allow_empty=True).scoring_weights()
    largest = sorted(weights, key=lambda word: -weights[word])[:16]
    question = build_question(optional=largest, shape="3x3", allow_empty=True)
    plain = HighsModel(counting_model(question, capacity=False).model).solve().objective
    capped = HighsModel(counting_model(question, capacity=True).model).solve().objective
    seed_grid = Grid(question.board, "THOAINESL")
    seed = sum(weights[word] for word in largest if find(seed_grid, word, 1, "walk") is not None)
    assert (plain, capped) == (112_183_169, 105_031_667) and seed <= capped
