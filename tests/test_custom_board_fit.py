"""Fit questions on custom boards (exactgrid.fit with a Board built from its adjacency).

Every answer is checked here without the finder or the encoder: a "fits" grid must spell
the word along a path the test's own adjacency predicate allows, and every "does not fit"
is either enumerated over all grids or proved by hand in a comment.
"""

import itertools

import pytest

from exactgrid.fitting import fit
from exactgrid.geometry import Board
from exactgrid.question import Question, Requirement
from exactgrid.words import WordList

from .bruteforce import all_paths_on, letter_boxed_adjacent, line_adjacent, ring_adjacent


def spells(letters: str, is_adjacent, word: str, path_rule: str = "walk") -> bool:
    """Whether some path (by brute force) spells ``word`` exactly."""
    return any("".join(letters[c] for c in path) == word
               for path in all_paths_on(len(letters), is_adjacent, len(word), path_rule))


def line(n: int) -> Board:
    return Board.from_edges(n, [(i, i + 1) for i in range(n - 1)], name=f"line of {n}")


def ring(n: int) -> Board:
    return Board.from_edges(n, [(i, (i + 1) % n) for i in range(n)], name=f"ring of {n}")


BOARDS = {
    "box": (Board.letter_boxed(4, 3), lambda a, b: letter_boxed_adjacent(3, a, b)),
    "line4": (line(4), line_adjacent),
    "ring4": (ring(4), lambda a, b: ring_adjacent(4, a, b)),
}


@pytest.mark.parametrize("symmetry_breaking", [False, True])
@pytest.mark.parametrize("path_rule", ["walk", "simple"])
@pytest.mark.parametrize("name", sorted(BOARDS))
def test_ohio_fits_on_custom_boards(name, path_rule, symmetry_breaking):
    board, is_adjacent = BOARDS[name]
    spec = Question(board=board, budget=0, path_rule=path_rule, required=(Requirement("OHIO"),),
                   symmetry_breaking=symmetry_breaking)
    answer = fit(spec, time_limit=60)
    assert answer.verdict == "fits"
    assert answer.grid.board == board
    assert spells(answer.grid.letters, is_adjacent, "OHIO", path_rule)
    (witness,) = answer.witnesses
    assert all(is_adjacent(a, b) for a, b in zip(witness.path, witness.path[1:]))


def test_ohio_does_not_fit_on_a_line_of_three():
    # A walk on a line alternates odd and even cells, so the two O's (steps 0 and 3) lie on
    # cells of different parity and I (step 2) on the first O's parity; with only one odd
    # cell (the middle), H or I would have to share it with an O. Enumerated below too.
    assert not any(spells("".join(g), line_adjacent, "OHIO") for g in itertools.product("OHIX", repeat=3))
    answer = fit(Question(board=line(3), budget=0, required=(Requirement("OHIO"),)), time_limit=60)
    assert answer.verdict == "does not fit"


def test_a_walk_spelling_ohio_spells_oho():
    # Adjacency is symmetric, so the walk O -> H of OHIO can step back to the same O: on
    # any board, OHIO (walks, no alterations) without OHO does not fit. With simple paths
    # the second O must be another cell, and a line O-H-I-O has none next to H.
    words = WordList({"OHIO": 1, "OHO": 1})  # a Question checks its words against its list
    spec = dict(budget=0, required=(Requirement("OHIO"),), forbidden=("OHO",), words=words)
    for board in (Board.letter_boxed(4, 3), line(4), ring(5)):
        assert fit(Question(board=board, **spec), time_limit=60).verdict == "does not fit"
    answer = fit(Question(board=line(4), path_rule="simple", **spec), time_limit=60)
    assert answer.verdict == "fits"
    assert spells(answer.grid.letters, line_adjacent, "OHIO", "simple")
    assert not spells(answer.grid.letters, line_adjacent, "OHO", "simple")


def test_fixed_cells_on_a_letter_boxed_board():
    # O fixed on side 1 and H fixed on side 1 too: OH must then use another H or O.
    board = Board.letter_boxed(4, 3)
    spec = Question(board=board, budget=0, required=(Requirement("OHIO"),), fixed={0: "O", 1: "H"})
    answer = fit(spec, time_limit=60)
    assert answer.verdict == "fits"
    letters = answer.grid.letters
    assert letters[0] == "O" and letters[1] == "H"
    assert spells(letters, lambda a, b: letter_boxed_adjacent(3, a, b), "OHIO")
