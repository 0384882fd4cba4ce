import random

import pytest

from exactgrid.data import word_list
from exactgrid.data.us import us_states
from exactgrid.finder import fewest_alterations, find, is_found, score
from exactgrid.geometry import Board
from exactgrid.grid import Grid, parse_grid
from exactgrid.inputs import InputError
from exactgrid.words import WordList

from .bruteforce import (
    adjacent,
    all_paths_on,
    best_spelling,
    best_spelling_on,
    canonical_path,
    letter_boxed_adjacent,
    line_adjacent,
    ring_adjacent,
)

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


def test_the_rules_name_the_path_rule_in_words():
    assert score(parse_grid(SEED_3X3), us_states()).rules == "3x3, king moves, walks, budget 1"
    simple = score(parse_grid(SEED_3X3), us_states(), path_rule="simple")
    assert simple.rules == "3x3, king moves, simple paths, budget 1"


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
            assert match.path == canonical_path(letters, rows, cols, moves, match.spelled, path_rule)
            assert "".join(letters[c] for c in match.path) == match.spelled
            steps = zip(match.path, match.path[1:])
            assert all(adjacent(rows, cols, moves, a, b) for a, b in steps)
            if path_rule == "simple":
                assert len(set(match.path)) == len(match.path)


@pytest.mark.parametrize("path_rule", ["walk", "simple"])
def test_fewest_alterations_agree_with_brute_force(path_rule):
    rng = random.Random(7 + (path_rule == "simple"))
    for _ in range(80):
        rows, cols = rng.choice([(1, 3), (2, 2), (2, 3), (3, 3)])
        moves = rng.choice(["king", "rook"])
        letters = "".join(rng.choice("ABC") for _ in range(rows * cols))
        word = "".join(rng.choice("ABCD") for _ in range(rng.randint(1, 5)))
        grid = Grid(Board(rows, cols, moves), letters)
        best = best_spelling(letters, rows, cols, moves, word, len(word), path_rule)
        fewest = None if best is None else best[0]  # None: no path of the word's length
        assert fewest_alterations(grid, word, path_rule) == fewest, (letters, rows, cols, moves, word)
        most = rng.randint(0, 3)
        expected = fewest if fewest is not None and fewest <= most else None
        assert fewest_alterations(grid, word, path_rule, most) == expected, (letters, word, most)


# -- custom boards: hand-checked answers, then brute force -----------------------------------

BOX = Board.letter_boxed(4, 3)  # sides ABC / DEF / GHI / JKL below


def chain(n: int, closed: bool) -> Board:
    """A line of n cells, or a ring when closed."""
    edges = [(i, i + 1) for i in range(n - 1)] + ([(n - 1, 0)] if closed else [])
    return Board.from_edges(n, edges, name=f"{'ring' if closed else 'line'} of {n}")


def test_letter_boxed_by_hand():
    grid = Grid(BOX, "ABCDEFGHIJKL")
    assert is_found(grid, "ADG", budget=0)  # three sides in turn
    assert is_found(grid, "ADAD", budget=0)  # a walk may bounce between two sides
    assert not is_found(grid, "ADAD", budget=0, path_rule="simple")
    assert is_found(grid, "AEIL", budget=0, path_rule="simple")
    assert not is_found(grid, "AB", budget=0)  # A and B share a side
    assert not is_found(grid, "ABC", budget=0)
    # ABC with alterations: the middle letter must leave side 1 (A and B, B and C share it);
    # D is the first letter off side 1; one alteration is the fewest, whatever the budget
    for budget in (1, 2, 3):
        match = find(grid, "ABC", budget=budget)
        assert (match.spelled, match.path) == ("ADC", (0, 3, 2))
    # AB with one alteration: altering A first is preferred; B (side 1) needs a first
    # letter from another side, the first of which is D (cell 3)
    match = find(grid, "AB", budget=1)
    assert (match.spelled, match.path) == ("DB", (3, 1))
    assert find(grid, "LA", budget=0).path == (11, 0)


def test_ring_and_line_by_hand():
    ring, line = chain(5, closed=True), chain(5, closed=False)
    assert is_found(Grid(ring, "ABCDE"), "ABCDEA", budget=0)  # around the ring and back to A
    assert not is_found(Grid(line, "ABCDE"), "ABCDEA", budget=0)  # E and A are not adjacent on a line
    assert is_found(Grid(line, "ABCDE"), "ABCDEA", budget=1)  # ...unless the last A is altered to D
    assert find(Grid(line, "ABCDE"), "ABCDEA", budget=1).spelled == "ABCDED"
    assert is_found(Grid(ring, "ABCDE"), "EDCBA", budget=0, path_rule="simple")
    assert not is_found(Grid(ring, "ABCDE"), "ABCDEA", budget=0, path_rule="simple")  # 6 cells on 5
    assert is_found(Grid(line, "ABCDE"), "ABCB", budget=0)  # walks turn back
    assert not is_found(Grid(line, "ABCDE"), "ABCB", budget=0, path_rule="simple")
    assert not is_found(Grid(ring, "ABCDE"), "AC", budget=0)


def test_isolated_cells_spell_single_letters_only():
    grid = Grid(Board.from_edges(3, [], name="three islands"), "ABC")
    assert is_found(grid, "A", budget=0) and is_found(grid, "Z", budget=1)
    assert not is_found(grid, "AB", budget=2) and find(grid, "AB", budget=2) is None
    assert find(grid, "B", budget=0).path == (1,)


def count_walks(size: int, is_adjacent, length: int) -> int:
    return sum(1 for _ in all_paths_on(size, is_adjacent, length, "walk"))


def test_brute_force_walk_counts_match_the_boards():
    """The reference enumerator counts what a hand count gives: n * degree ** (length - 1)."""
    assert count_walks(12, lambda a, b: letter_boxed_adjacent(3, a, b), 3) == 12 * 9 * 9
    assert count_walks(5, lambda a, b: ring_adjacent(5, a, b), 4) == 5 * 2 ** 3
    # on a line of 4: from cell 0 (010, 012), 1 (101, 121, 123), 2 (210, 212, 232), 3 (321, 323)
    assert count_walks(4, line_adjacent, 3) == 10


def random_board(rng: random.Random):
    """A custom board and its reference adjacency predicate (independent of Board)."""
    kind = rng.choice(["box", "ring", "line", "random"])
    if kind == "box":
        sides, per_side = rng.choice([(3, 2), (4, 2), (2, 3), (4, 1)])
        return Board.letter_boxed(sides, per_side), lambda a, b: letter_boxed_adjacent(per_side, a, b)
    if kind in ("ring", "line"):
        n = rng.randint(3, 7)
        if kind == "ring":
            return chain(n, closed=True), lambda a, b: ring_adjacent(n, a, b)
        return chain(n, closed=False), line_adjacent
    n = rng.randint(1, 7)
    edges = {frozenset(pair) for pair in (rng.sample(range(n), 2) for _ in range(rng.randint(0, 2 * n)) if n > 1)}
    board = Board.from_edges(n, [tuple(e) for e in edges], name="random graph")
    return board, lambda a, b: frozenset((a, b)) in edges


@pytest.mark.parametrize("path_rule", ["walk", "simple"])
@pytest.mark.parametrize("budget", [0, 1, 2])
def test_finder_agrees_with_brute_force_on_custom_boards(path_rule, budget):
    rng = random.Random(2000 + 10 * budget + (path_rule == "simple"))
    for _ in range(60):
        board, is_adjacent = random_board(rng)
        alphabet = "ABC"[: rng.randint(2, 3)]
        letters = "".join(rng.choice(alphabet) for _ in range(board.size))
        word = "".join(rng.choice(alphabet + "D") for _ in range(rng.randint(1, 5)))
        grid = Grid(board, letters)
        expected = best_spelling_on(letters, is_adjacent, word, budget, path_rule)
        assert is_found(grid, word, budget, path_rule) == (expected is not None), (board, letters, word)
        match = find(grid, word, budget, path_rule)
        if expected is None:
            assert match is None
            continue
        assert match.spelled == expected[2], (board, letters, word)
        assert match.substitutions == expected[0]
        assert "".join(letters[c] for c in match.path) == match.spelled
        assert all(is_adjacent(a, b) for a, b in zip(match.path, match.path[1:]))
        if path_rule == "simple":
            assert len(set(match.path)) == len(match.path)


def test_score_on_a_letter_boxed_grid():
    words = WordList({"ADG": 3, "ABC": 100, "LAD": 7, "DAD": 2})
    result = score(Grid(BOX, "ABCDEFGHIJKL"), words, budget=0)
    assert [s.match.word for s in result.found] == ["LAD", "ADG", "DAD"]
    assert result.total == 12
    assert score(Grid(BOX, "ABCDEFGHIJKL"), words, budget=0, path_rule="simple").total == 10  # DAD revisits A


def test_one_witness_type_for_the_finder_and_the_dictionary_search():
    import dataclasses
    import pickle

    from exactgrid.finder import Match
    from exactgrid.wordsearch import WordHit, search_words

    grid = parse_grid("set/err/vei")
    match = find(grid, "TREE", 0, "simple")
    assert match.labels(grid.board) == tuple(grid.board.label(c) for c in match.path)
    hit = WordHit("TREE", (2, 4, 1, 3), "TRFE")  # the old argument order: word, path, spelled
    assert isinstance(hit, Match) and hit.path == (2, 4, 1, 3) and hit.spelled == "TRFE"
    assert hit.altered == (2,) and hit.substitutions == 1 and hit.labels(grid.board)[0] == "r1c3"
    assert pickle.loads(pickle.dumps(hit)) == hit and hash(hit) == hash(WordHit("TREE", (2, 4, 1, 3), "TRFE"))
    assert dataclasses.replace(hit, spelled="TREE").substitutions == 0
    match hit:
        case WordHit(word, path, spelled):
            assert (word, path, spelled) == ("TREE", (2, 4, 1, 3), "TRFE")
    found = search_words(grid, ["TREE"], budget=0)[0]
    assert isinstance(found, Match) and "".join(grid.letters[c] for c in found.path) == found.spelled == "TREE"


def test_a_simple_path_search_stops_at_its_deadline_and_walks_need_none():
    """``searching_until``: the finder's simple-path searches (exponential in the budget) raise
    FinderTimedOut once the deadline has passed, looking at it every SIMPLE_STEPS steps; walks,
    and searches outside the block, are unaffected. A deadline already past makes this
    independent of the machine's speed."""
    import time

    from exactgrid.finder import SIMPLE_STEPS, FinderTimedOut, searching_until

    grid = parse_grid("ETAOINSHRDLUETAOINSHRDLUE")
    past = time.monotonic() - 1
    with searching_until(past):
        with pytest.raises(FinderTimedOut, match="simple paths"):
            find(grid, "MASSACHUSETTS", 6, "simple")  # every path within the budget, for the canonical one
        assert find(grid, "MASSACHUSETTS", 6, "walk") is not None  # linear: never cut short
        # fewer steps than SIMPLE_STEPS: done before the first look (the best needs 5 letters altered)
        assert find(grid, "OHIO", 1, "simple") is not None and not is_found(grid, "MASSACHUSETTS", 4, "simple")
    assert is_found(grid, "MASSACHUSETTS", 6, "simple")  # outside the block: no deadline
    assert SIMPLE_STEPS > 0
    # many short searches (a check of a long list) count their steps together
    many = WordList({w: 1 for w in list(word_list("enable"))[:3000]}, "part of ENABLE")
    with searching_until(past), pytest.raises(FinderTimedOut):
        score(grid, many, 2, "simple")
    # a block within a block keeps the earlier deadline; None inside does not lift it
    with searching_until(past), searching_until(None), pytest.raises(FinderTimedOut):
        find(grid, "MASSACHUSETTS", 6, "simple")


def test_fit_answers_unknown_when_the_finder_cannot_check_its_grid_in_time(monkeypatch):
    """A grid is shown only once the finder has checked it: when its check on simple paths
    outlasts the time limit, fit answers UNKNOWN and says why (it used to run on for minutes
    past the limit, a budget of 13 on a 13-letter word)."""
    import exactgrid as eg
    import exactgrid.fitting.answer as fit_answer
    from exactgrid.finder import FinderTimedOut

    def slow_check(question, grid, measure=False):
        raise FinderTimedOut("the time limit came while the finder searched simple paths")

    monkeypatch.setattr(fit_answer, "check_grid", slow_check)
    question = eg.Question(eg.Board(3, 3), required=["OHIO"], path_rule="simple")
    answer = eg.fit(question, backend="cadical", time_limit=60, counting=False)
    assert answer.verdict == "unknown" and answer.grid is None
    assert "a grid is shown only once checked" in answer.detail


def test_the_public_finder_reads_words_as_word_lists_do_and_grids_as_letters():
    """``find``/``is_found``/``fewest_alterations`` read a word in any case with its spaces
    dropped (as word lists do), take a grid as its letters, and refuse what is no word rather
    than reading a digit as an altered letter or an empty word as found."""
    grid = parse_grid("thoainesl")
    assert find(grid, "ohio") == find(grid, "OHIO") == find("THOAINESL", "Ohio")
    assert find(grid, "ohio").word == "OHIO"
    assert is_found("thoainesl", "o h i o") and not is_found(grid, "TEXAS", budget=0)
    assert fewest_alterations("thoainesl", "utah") == 1
    for word, says in (("OH1O", "'1'"), ("", "at least one letter"), ("  ", "at least one letter"),
                       (5, "got int"), ("OHIÖ", "'Ö'")):
        for function in (find, is_found, fewest_alterations):
            with pytest.raises(InputError, match=says):
                function(grid, word)
