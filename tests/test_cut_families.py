"""The facts behind ``tools/cut_families.py``'s ``blocks`` family hold on real grids.

The family is a relaxation: every grid's own letter counts and adjacent pairs must meet it, or a
bound built from it would be wrong. Random grids (few letters, so letters repeat) check that;
a hand-made configuration no grid has checks that it can say no.
"""

from __future__ import annotations

import random

import pytest

from exactgrid.backends import Status, get_backend
from exactgrid.data.us import us_states
from exactgrid.finder import score
from exactgrid.geometry import Board
from exactgrid.grid import parse_grid
from exactgrid.prove.counting import _Builder
from exactgrid.question import build_question

from .tools import load_tool

pytest.importorskip("highspy")

families = load_tool("cut_families")


def _counts_and_pairs(board: Board, letters: str) -> tuple[dict[tuple[str, int], int], set[tuple[str, str]]]:
    cells: dict[tuple[str, int], int] = {}
    for cell, letter in enumerate(letters):
        key = (letter, len(board.neighbours[cell]))
        cells[key] = cells.get(key, 0) + 1
    pairs = {tuple(sorted((letters[u], letters[v]))) for u, v in board.edges}
    return cells, pairs


def test_board_blocks_are_the_windows():
    blocks, most = families.board_blocks(Board(5, 5))
    assert len(blocks) == 16
    assert most == {3: 1, 5: 2, 8: 4}
    with pytest.raises(ValueError):
        families.board_blocks(Board(3, 3, "rook"))  # rook moves make no triangles


@pytest.mark.parametrize("rows, cols, alphabet, seed", [
    (4, 4, "ABCDEFG", 1), (4, 4, "ABCDEFGHIJKL", 2), (5, 5, "ABCDEFGHIJ", 3), (5, 5, "ABCDEFGHIJKLMNOPQRST", 4),
    (3, 5, "ABCDEF", 5),
])
def test_every_grid_meets_the_blocks_family(rows, cols, alphabet, seed):
    board = Board(rows, cols)
    rng = random.Random(seed)
    letters = "".join(rng.choice(alphabet) for _ in range(board.size))
    cells, pairs = _counts_and_pairs(board, letters)
    assert families.blocks_met(board, cells, pairs) is True


def test_a_corner_letter_cannot_have_four_neighbouring_letters():
    board = Board(5, 5)
    # A alone, on a corner: its one block holds three other letters, so four pairs AB..AE
    # cannot all be adjacent; B..E each sit on one middle cell, and every other cell is "_".
    cells = {("A", 3): 1, ("B", 8): 1, ("C", 8): 1, ("D", 8): 1, ("E", 8): 1,
             ("_", 3): 3, ("_", 5): 12, ("_", 8): 5}
    assert families.blocks_met(board, cells, {("A", "B"), ("A", "C"), ("A", "D"), ("A", "E")}) is False
    assert families.blocks_met(board, cells, {("A", "B"), ("A", "C"), ("A", "D")}) is True


@pytest.mark.parametrize("text, shape, keep", [
    ("TEXOAINSU", "3x3", None),  # TEXAS, and KANSAS with K altered
    ("TEXOAINSU", "3x3", ("A", "I", "N", "S")),
    ("LIDYLAORAWCSNEMHISNTPMATU", "5x5", ("A", "I", "N", "S")),  # 29 states
])
def test_the_relaxation_with_the_blocks_family_still_holds_a_real_grids_words(text, shape, keep):
    grid = parse_grid(text, shape=shape)
    words = [scored.match.word for scored in score(grid, us_states()).found]
    assert len(words) == (2 if shape == "3x3" else 29)
    builder = _Builder(build_question(requirements=words, shape=shape), tight=True, capacity=True)
    relaxation = builder.build(objective=False)
    assert families.add_blocks(builder, relaxation, keep) > 0
    result = get_backend("highs").solve(relaxation.model, time_limit=120)
    assert result.status in (Status.SAT, Status.OPTIMAL)
