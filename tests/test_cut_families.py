"""The facts behind ``tools/cut_families.py``'s ``blocks`` family hold on real grids.

The family is a relaxation: every grid's own letter counts and adjacent pairs must meet it, or a
bound built from it would be wrong. Random grids (few letters, so letters repeat) check that;
a hand-made configuration no grid has checks that it can say no.
"""

from __future__ import annotations

import importlib.util
import random
import sys
from pathlib import Path

import pytest

from exactgrid.geometry import Board

pytest.importorskip("highspy")

TOOLS = Path(__file__).resolve().parents[1] / "tools"


def _load():
    spec = importlib.util.spec_from_file_location("cut_families", TOOLS / "cut_families.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("cut_families", module)
    spec.loader.exec_module(module)
    return module


families = _load()


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
