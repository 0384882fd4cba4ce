import random
import zlib

import numpy as np
import pytest

from exactgrid.data.us import us_states
from exactgrid.fastscore import FastScoreError, Scorer
from exactgrid.finder import score
from exactgrid.geometry import Board
from exactgrid.grid import Grid
from exactgrid.words import WordList
from exactgrid.wordsearch import Trie

SEED_3X3 = "THOAINESL"
SEED_5X5 = "WTIMAENSVFKOALIRCSROENAIN"
GOOD_5X5 = "UTIMAECHNFGOALIRNSROOCAIN"  # tools/bench_score.py GOOD (docs/benchmarks.md, Score)

STATE_LETTERS = "".join(us_states().words)  # letters with the states' frequencies


def reference(board: Board, words: WordList, budget: int, letters: str) -> tuple[int, int]:
    result = score(Grid(board, letters), words, budget)
    mask = sum(1 << i for i, w in enumerate(words.words) if w in result.words)
    return result.total, mask


def random_words(rng: random.Random, count: int, alphabet: str = "ABCDE") -> WordList:
    weights = {}
    while len(weights) < count:
        word = "".join(rng.choice(alphabet) for _ in range(rng.randint(1, 7)))
        weights[word] = rng.randint(1, 1000)
    return WordList(weights, "random")


def check_agrees(board: Board, words: WordList, budget: int, grids: list[str]) -> None:
    scorer = Scorer(board, words, budget)
    refs = [reference(board, words, budget, g) for g in grids]
    for g, (total, mask) in zip(grids, refs):
        assert scorer.found_mask(g) == mask, g
        assert scorer.score_one(g) == total, g
    expected_found = np.array([[m >> i & 1 for i in range(len(words))] for _, m in refs], dtype=bool)
    expected_totals = [t for t, _ in refs]
    for small_batch in (10**9, 0):  # breadth-first and depth-first batch paths
        scorer.small_batch = small_batch
        scorer.small_chunk = scorer.chunk = 128  # several chunks, ragged last one
        totals, found = scorer.score_batch(grids)
        assert totals.dtype == np.int64 and found.shape == (len(grids), len(words))
        assert totals.tolist() == expected_totals
        assert (found == expected_found).all()


@pytest.mark.parametrize("shape", [(3, 3), (4, 5), (5, 5), (6, 6)])
@pytest.mark.parametrize("budget", [0, 1, 2])
def test_agrees_with_finder_on_states(shape, budget):
    rng = random.Random(zlib.crc32(f"{shape}{budget}".encode()))
    board = Board(*shape)
    count = 40 if shape != (6, 6) else 20
    grids = ["".join(rng.choice(STATE_LETTERS) for _ in range(board.size)) for _ in range(count)]
    check_agrees(board, us_states(), budget, grids)


@pytest.mark.parametrize("shape", [(1, 1), (1, 4), (2, 2), (3, 3), (4, 5), (5, 5), (6, 6)])
@pytest.mark.parametrize("moves", ["king", "rook"])
def test_agrees_with_finder_on_small_random_word_lists(shape, moves):
    rng = random.Random(zlib.crc32(f"{shape}{moves}".encode()))
    board = Board(*shape, moves)
    for budget in (0, 1, 2):
        words = random_words(rng, rng.randint(1, 12))
        grids = ["".join(rng.choice("ABCDEF") for _ in range(board.size)) for _ in range(15)]
        check_agrees(board, words, budget, grids)


def test_more_than_64_words_and_8x8():
    rng = random.Random(5)
    words = random_words(rng, 90, "ABCDEFG")
    board = Board(8, 8)
    grids = ["".join(rng.choice("ABCDEFGH") for _ in range(64)) for _ in range(12)]
    check_agrees(board, words, 1, grids)


def test_words_ending_inside_other_words_on_the_shared_trie():
    words = WordList({"NE": 1, "NEW": 5, "NEWS": 7, "NEWT": 2, "TEN": 3, "TENSE": 4}, "prefixes")
    scorer = Scorer(Board(3, 3), words)
    assert isinstance(scorer._trie, Trie) and sorted(scorer._trie) == sorted(words)  # wordsearch's trie
    grids = ["NEWSTAAAA", "NEWAAAAAA", "TENWSEAAA", "AAAAAAAAA", "SNETWAEAN"]
    for budget in (0, 1, 2):
        check_agrees(Board(3, 3), words, budget, grids)


def test_seed_grids():
    assert Scorer(Board(3, 3), us_states()).score_one(SEED_3X3) == 32_913_047
    scorer = Scorer(Board(5, 5), us_states())
    assert scorer.score_one(SEED_5X5) == 188_652_076
    assert bin(scorer.found_mask(SEED_5X5)).count("1") == 18
    assert scorer.score_one(GOOD_5X5) == 203_520_793 == score(Grid(Board(5, 5), GOOD_5X5), us_states()).total


def test_batch_equals_one_at_a_time_on_mutations():
    scorer = Scorer(Board(5, 5), us_states())
    grids = [GOOD_5X5[:i] + c + GOOD_5X5[i + 1:] for i in range(25) for c in "AEILNORST"]
    ones = [scorer.score_one(g) for g in grids]
    masks = [scorer.found_mask(g) for g in grids]
    codes = np.frombuffer("".join(grids).encode(), dtype=np.uint8).reshape(-1, 25) - 65
    for small_batch in (10**9, 0):
        scorer.small_batch = small_batch
        totals, found = scorer.score_batch(codes)
        assert totals.tolist() == ones
        assert [sum(1 << i for i in np.flatnonzero(row)) for row in found] == masks
    assert scorer.found_words(GOOD_5X5)[0] == "ALABAMA"
    assert scorer.total_of_mask(masks[0]) == ones[0]


def test_errors():
    with pytest.raises(FastScoreError, match="walks only"):
        Scorer(Board(3, 3), us_states(), path_rule="simple")
    with pytest.raises(FastScoreError):
        Scorer(Board(3, 3), us_states(), budget=-1)
    scorer = Scorer(Board(3, 3), us_states())
    with pytest.raises(FastScoreError, match="9 letters"):
        scorer.score_one("ABC")
    with pytest.raises(FastScoreError, match="A-Z"):
        scorer.score_one("thoainesl")
    with pytest.raises(FastScoreError):
        scorer.score_batch(np.full((2, 9), 26, dtype=np.uint8))
    with pytest.raises(FastScoreError):
        scorer.score_batch(np.zeros((2, 8), dtype=np.uint8))
    totals, found = scorer.score_batch([])
    assert totals.shape == (0,) and found.shape == (0, 50)


# -- custom boards (general gather dilation) -------------------------------------------------

BOX = Board.letter_boxed(4, 3)


def custom_boards() -> list[Board]:
    rng = random.Random(11)
    n = 9
    edges = {tuple(sorted(rng.sample(range(n - 1), 2))) for _ in range(10)}  # cell 8 is an island
    return [
        BOX,
        Board.letter_boxed(3, 2),
        Board.from_edges(9, [(i, (i + 1) % 9) for i in range(9)], name="ring of 9"),
        Board.from_edges(6, [(i, i + 1) for i in range(5)], name="line of 6"),
        Board.from_edges(n, sorted(edges), name="random graph with an island"),
        Board.from_edges(7, [(0, i) for i in range(1, 7)], name="star"),
        Board.from_edges(1, [], name="one cell"),
    ]


@pytest.mark.parametrize("board", custom_boards(), ids=lambda b: b.name)
def test_agrees_with_finder_on_custom_boards(board):
    rng = random.Random(zlib.crc32(board.name.encode()))
    for budget in (0, 1, 2):
        words = random_words(rng, rng.randint(1, 12), "ABCD")
        grids = ["".join(rng.choice("ABCDE") for _ in range(board.size)) for _ in range(20)]
        check_agrees(board, words, budget, grids)


@pytest.mark.parametrize("budget", [0, 1, 2])
def test_letter_boxed_states_agree_with_finder(budget):
    rng = random.Random(budget)
    grids = ["".join(rng.choice(STATE_LETTERS) for _ in range(BOX.size)) for _ in range(40)]
    check_agrees(BOX, us_states(), budget, grids)


def test_more_than_64_words_on_a_custom_board():
    rng = random.Random(6)
    words = random_words(rng, 90, "ABCDEFG")
    board = Board.letter_boxed(5, 4)
    grids = ["".join(rng.choice("ABCDEFGH") for _ in range(board.size)) for _ in range(12)]
    check_agrees(board, words, 1, grids)


def test_letter_boxed_by_hand():
    words = WordList({"OHIO": 5, "OHO": 3, "OO": 1, "HI": 10, "OX": 100})
    grid = "OXX" "HAA" "IAA" "ZZZ"  # one side per group of three
    # OHIO and OHO bounce between sides 1, 2, 3; OO would stay on one cell; X is only on O's side
    assert Scorer(BOX, words, budget=0).found_words(grid) == ["OHIO", "OHO", "HI"]
    assert Scorer(BOX, words, budget=0).score_one(grid) == 18
    assert Scorer(BOX, words, budget=1).score_one(grid) == 119  # OO as OH, OX as HX
    totals, _ = Scorer(BOX, words, budget=0).score_batch([grid, "Z" * 12])
    assert totals.tolist() == [18, 0]
    with pytest.raises(FastScoreError, match="letter boxed 4x3 grid needs 12 letters"):
        Scorer(BOX, words).score_one("OHIO")
