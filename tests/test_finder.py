import random

import pytest

from exactgrid.data.us import us_states
from exactgrid.finder import find, is_found, score
from exactgrid.geometry import Board
from exactgrid.grid import Grid, parse_grid
from exactgrid.words import WordList

from .bruteforce import adjacent, best_spelling

SEED_3X3 = "thoainesl"
SEED_5X5 = "WTIMAENSVFKOALIRCSROENAIN"  # seed 001: 18 states, 188,652,076


def test_seed_3x3_scores_as_the_puzzle_says():
    result = score(parse_grid(SEED_3X3), us_states())
    assert result.total == 32_913_047
    spelled = {s.match.word: s.match.spelled for s in result.found}
    assert spelled == {
        "ILLINOIS": "INLINOIS",
        "OHIO": "OHIO",
        "UTAH": "ATAH",
        "IOWA": "IOHA",
        "IDAHO": "IEAHO",
    }


def test_seed_5x5_scores_188652076_with_18_states():
    result = score(parse_grid(SEED_5X5), us_states())
    assert result.total == 188_652_076
    assert len(result) == 18


def test_witness_paths_really_spell_the_word():
    grid = parse_grid(SEED_5X5)
    for scored in score(grid, us_states()).found:
        m = scored.match
        assert "".join(grid.letters[c] for c in m.path) == m.spelled
        assert all(adjacent(5, 5, "king", a, b) for a, b in zip(m.path, m.path[1:]))
        assert m.substitutions <= 1


def test_walk_may_revisit_but_not_stay():
    grid = parse_grid("AB/CD")
    assert is_found(grid, "ABA", budget=0)  # revisits A
    assert not is_found(grid, "AAB", budget=0)  # would need to stay on A
    assert not is_found(grid, "ABA", budget=0, path_rule="simple")
    assert is_found(grid, "AAB", budget=1)  # the second A altered to a neighbour


def test_hamming_not_levenshtein():
    grid = parse_grid("UTAH", shape="1x4")
    assert is_found(grid, "UTAH", budget=0)
    assert not is_found(grid, "UTSAH", budget=1)  # an insertion is not a substitution
    assert find(grid, "UATH", budget=1) is None  # a swap is two substitutions
    assert find(grid, "UATH", budget=2).substitutions == 2
    assert find(grid, "UTAS", budget=1).spelled == "UTAH"


def test_rook_moves_have_no_diagonals():
    grid = Grid(Board(2, 2, "rook"), "ABCD")
    assert is_found(grid, "ABDC", budget=0)
    assert not is_found(grid, "AD", budget=0)
    assert is_found(Grid(Board(2, 2, "king"), "ABCD"), "AD", budget=0)


def test_single_cell_board_has_no_walk_of_two():
    grid = parse_grid("A")
    assert is_found(grid, "A", budget=0)
    assert not is_found(grid, "AB", budget=5)
    assert find(grid, "AA", budget=2) is None


def test_weights_and_order_of_found_words():
    words = WordList({"AB": 1, "BA": 5, "ZZZ": 100})
    result = score(parse_grid("AB/CD"), words, budget=0)
    assert [s.match.word for s in result.found] == ["BA", "AB"]
    assert result.total == 6


@pytest.mark.parametrize("path_rule", ["walk", "simple"])
@pytest.mark.parametrize("budget", [0, 1, 2])
def test_finder_agrees_with_brute_force(path_rule, budget):
    rng = random.Random(1000 * budget + (path_rule == "simple"))
    for _ in range(70):
        rows, cols = rng.choice([(1, 3), (2, 2), (2, 3), (3, 3), (3, 2)])
        moves = rng.choice(["king", "rook"])
        alphabet = "ABC"[: rng.randint(2, 3)]
        letters = "".join(rng.choice(alphabet) for _ in range(rows * cols))
        word = "".join(rng.choice(alphabet + "D") for _ in range(rng.randint(1, 5)))
        grid = Grid(Board(rows, cols, moves), letters)
        expected = best_spelling(letters, rows, cols, moves, word, budget, path_rule)
        assert is_found(grid, word, budget, path_rule) == (expected is not None), (letters, word)
        match = find(grid, word, budget, path_rule)
        if expected is None:
            assert match is None
        else:
            assert match.spelled == expected[2], (letters, rows, cols, moves, word)
            assert match.substitutions == expected[0]
            assert "".join(letters[c] for c in match.path) == match.spelled
            steps = zip(match.path, match.path[1:])
            assert all(adjacent(rows, cols, moves, a, b) for a, b in steps)
            if path_rule == "simple":
                assert len(set(match.path)) == len(match.path)
