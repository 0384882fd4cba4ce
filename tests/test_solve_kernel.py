"""The compiled search kernel against the finder: every incremental score is exact.

Chains anneal for a while (every proposal changes letters, rechecks some words and may be
undone); afterwards each chain's found words, score and constraint counters must equal what
the batch scorer and the finder say of its grid, on several boards, budgets and word lists.
"""

from __future__ import annotations

import numpy as np
import pytest

from exactgrid.data.us import us_states
from exactgrid.fastscore import Scorer
from exactgrid.geometry import Board
from exactgrid.question import Chain, Question
from exactgrid.solving import kernel
from exactgrid.solving.problem import ChainStates, SearchProblem, dilation, dilation_table, grid_text
from exactgrid.words import parse_word_list

SMALL_WORDS = parse_word_list("\n".join(["OHIO", "IOWA", "UTAH", "IDAHO", "MAINE", "TEXAS", "NEVADA", "HAWAII",
                                         "ALASKA", "KANSAS", "OREGON", "ILLINOIS"]), name="small")


def _anneal(problem: SearchProblem, states: ChainStates, steps: int, hot: float, seed: int) -> None:
    kernel.seed_threads(seed)
    best = states.grids[0].copy()
    best_value = np.array([np.iinfo(np.int64).min], dtype=np.int64)
    feasible = states.grids[0].copy()
    feasible_value = np.array([-1], dtype=np.int64)
    p = problem
    kernel.anneal(states.grids, states.lmasks, states.founds, states.supports, states.counters, states.stamps,
                  best, best_value, feasible, feasible_value, steps, 500, hot, hot / 20, 0.3, 2, p.letter_cdf,
                  p.fixed, p.starts, p.lengths, p.letters, p.weights, p.flags, p.word_index, p.word_ptr, p.table,
                  p.chunks, p.full, p.budget, p.chain_sources, p.chain_targets, p.chain_adjacency, p.min_count,
                  p.min_score, 1000)


def _agree(problem: SearchProblem, states: ChainStates) -> None:
    q = problem.question
    scorer = Scorer(q.board, q.words, q.budget)
    for k in range(len(states.grids)):
        grid = grid_text(states.grids[k])
        expected = set(scorer.found_words(grid))
        found = {w for w, state in zip(problem.words, states.founds[k], strict=True) if state >= 0}
        assert found == expected, grid
        ctr = states.counters[k]
        assert ctr[kernel.SCORE] == scorer.score_one(grid)
        assert ctr[kernel.FOUND] == len(expected)
        assert ctr[kernel.MISSING] == len(set(q.required_words) - expected)
        assert ctr[kernel.PRESENT] == len(set(q.forbidden) & expected)
        gaps = ctr[kernel.CHAIN_GAP]
        assert (gaps == 0) == all(chain.path(expected) is not None for chain in q.chains)
        for cell, letter in q.fixed.items():
            assert grid[cell] == letter


CASES = [
    pytest.param(Question(Board(5, 5)), id="5x5-king-us"),
    pytest.param(Question(Board(4, 4, "rook"), budget=1, words=SMALL_WORDS), id="4x4-rook-small"),
    pytest.param(Question(Board(3, 4), budget=2, words=SMALL_WORDS), id="3x4-budget2"),
    pytest.param(Question(Board(3, 3), budget=0), id="3x3-exact"),
    pytest.param(Question(Board.from_edges(12, [(a, b) for a in range(12) for b in range(a + 1, 12)
                                                if a // 3 != b // 3]), words=SMALL_WORDS), id="custom-box"),
    pytest.param(Question(Board(5, 5), required=["OHIO", "TEXAS"], forbidden=["IOWA", "UTAH"],
                          fixed={0: "O", 12: "A"}, min_count=3), id="constraints"),
    pytest.param(Question(Board(4, 4), chains=(Chain(("MAINE",), ("OHIO", "UTAH"),
                                                     frozenset({("MAINE", "IOWA"), ("IOWA", "OHIO"),
                                                                ("IOWA", "UTAH")})),)), id="chain"),
]


@pytest.mark.parametrize("question", CASES)
def test_incremental_scores_equal_the_finder(question: Question) -> None:
    problem = SearchProblem.build(question)
    rng = np.random.default_rng(7)
    states = ChainStates.start(problem, problem.random_grids(12, rng))
    _agree(problem, states)
    for round_ in range(3):  # hot (many accepted changes), then colder
        _anneal(problem, states, 400, 3_000_000 / (1 + 10 * round_), seed=round_)
        _agree(problem, states)


def test_dilation_on_a_board_of_64_cells_uses_the_table() -> None:
    problem = SearchProblem.build(Question(Board(8, 8), words=SMALL_WORDS))
    assert problem.chunks == 8  # shifts would touch the sign bit
    states = ChainStates.start(problem, problem.random_grids(4, np.random.default_rng(1)))
    _anneal(problem, states, 300, 1_000_000, seed=3)
    _agree(problem, states)


@pytest.mark.parametrize("board", [Board(8, 8), Board.letter_boxed(4, 16), Board(3, 3, "rook")], ids=str)
def test_the_kernel_reads_the_board_s_own_dilation(board: Board) -> None:
    table = dilation_table(board)
    assert table.shape == (len(board.spread_tables), 256)
    assert [[v % (1 << 64) for v in row] for row in table.tolist()] == [list(row) for row in board.spread_tables]
    shifts, mode = dilation(board)
    if not board.is_custom and board.size < 63:
        assert mode == (kernel.KING if board.moves == "king" else kernel.ROOK)
        assert shifts[0, :3].tolist() == [board.cols, *board.column_masks]
    else:
        assert mode == len(board.spread_tables) and (shifts == table).all()


def test_us_states_list_is_the_default() -> None:
    assert SearchProblem.build(Question(Board(3, 3))).words == us_states().words


def test_chain_gap_counts_the_words_a_chain_still_needs() -> None:
    # a line A - B - C - D, source A, target D; bit i = word i
    adjacency = np.array([0b0010, 0b0101, 0b1010, 0b0100], dtype=np.int64)
    gap = kernel._chain_gap
    assert gap(np.int64(0b1111), np.int64(0b0001), np.int64(0b1000), adjacency, 4) == 0
    assert gap(np.int64(0b1011), np.int64(0b0001), np.int64(0b1000), adjacency, 4) == 1
    assert gap(np.int64(0b0000), np.int64(0b0001), np.int64(0b1000), adjacency, 4) == 4
    assert gap(np.int64(0b1001), np.int64(0b0001), np.int64(0b1000), adjacency, 4) == 2
    assert gap(np.int64(0b1111), np.int64(0b0001), np.int64(0b1000), np.zeros(4, dtype=np.int64), 4) == 5


@pytest.mark.parametrize("question", [CASES[0], CASES[1], CASES[2], CASES[3], CASES[4]])
def test_the_pair_and_letter_tests_never_refute_a_word_the_scorer_finds(question: Question) -> None:
    # _pairs_allow is a shortcut past the full programme: a word it refutes must be absent
    q = question
    problem = SearchProblem.build(q)
    scorer = Scorer(q.board, q.words, q.budget)
    states = ChainStates.start(problem, problem.random_grids(40, np.random.default_rng(11)))
    spread = np.zeros(26, dtype=np.int64)
    present = np.zeros(1, dtype=np.int64)
    word_letters, word_repeated = kernel._letter_masks(problem.starts, problem.lengths, problem.letters)
    refuted = by_letters = 0
    for k in range(len(states.grids)):
        grid = grid_text(states.grids[k])
        found = set(scorer.found_words(grid))
        kernel._fill_spread(states.lmasks[k], spread, present, problem.table, problem.chunks, problem.full)
        assert present[0] == sum(1 << (ord(letter) - 65) for letter in set(grid))
        for w, word in enumerate(problem.words):
            allowed = kernel._pairs_allow(w, problem.starts, problem.lengths, problem.letters, states.lmasks[k],
                                          spread, problem.budget)
            assert allowed or word not in found, (grid, word)
            refuted += not allowed
            # the letter test: absent letters, twice for a letter the word repeats, within the budget
            absent = [letter for letter in word if letter not in grid]
            expected = len(set(absent)) + len({x for x in absent if absent.count(x) > 1}) <= problem.budget
            letters_allow = kernel._letters_allow(w, present[0], word_letters, word_repeated, problem.budget)
            assert letters_allow == expected, (grid, word)
            assert letters_allow or word not in found, (grid, word)
            by_letters += not letters_allow
    assert refuted > 0 and by_letters > 0  # the tests refute something on these grids


@pytest.mark.parametrize("question", [CASES[0], CASES[5]])
def test_gain_candidates_are_taken_heaviest_first_with_what_the_rest_can_add(question: Question) -> None:
    # the early rejection of a proposal rests on rest[q]: the most the words of a letter's list
    # from entry q on can add (forbidden words add nothing: gaining one only costs)
    p = SearchProblem.build(question)
    order, rest = kernel._by_weight(p.word_index, p.word_ptr, p.weights, p.flags)
    forbidden = set(question.forbidden)
    required = set(question.required_words)
    for x in range(26):
        lo, hi = p.word_ptr[x], p.word_ptr[x + 1]
        assert sorted(order[lo:hi].tolist()) == sorted(p.word_index[lo:hi].tolist())
        assert all(p.weights[order[q]] >= p.weights[order[q + 1]] for q in range(lo, hi - 1))
        for q in range(lo, hi):
            tail = [p.words[w] for w in order[q:hi].tolist() if p.words[w] not in forbidden]
            assert rest[q].tolist() == [sum(int(p.weights[p.words.index(word)]) for word in tail), len(tail),
                                        sum(word in required for word in tail)]
    assert (rest >= 0).all() and rest[:, 0].max() > 0


@pytest.mark.parametrize("question", [CASES[0], CASES[2], CASES[5]])
def test_swaps_and_changes_keep_the_incremental_state_equal_to_a_fresh_rescore(question: Question) -> None:
    q = question
    problem = SearchProblem.build(q)
    states = ChainStates.start(problem, problem.random_grids(6, np.random.default_rng(5)))
    best = states.grids[0].copy()
    best_value = np.array([np.iinfo(np.int64).min], dtype=np.int64)
    feasible = states.grids[0].copy()
    feasible_value = np.array([-1], dtype=np.int64)
    p = problem
    for round_, (swap_share, hot) in enumerate([(0.9, 3_000_000.0), (0.5, 300_000.0), (0.9, 30_000.0)]):
        kernel.seed_threads(round_)
        kernel.anneal(states.grids, states.lmasks, states.founds, states.supports, states.counters, states.stamps,
                      best, best_value, feasible, feasible_value, 1500, 700, hot, hot / 10, swap_share, 3,
                      p.letter_cdf, p.fixed, p.starts, p.lengths, p.letters, p.weights, p.flags, p.word_index,
                      p.word_ptr, p.table, p.chunks, p.full, p.budget, p.chain_sources, p.chain_targets,
                      p.chain_adjacency, p.min_count, p.min_score, 1000)
        fresh = ChainStates.start(problem, states.grids.copy())
        assert ((states.founds >= 0) == (fresh.founds >= 0)).all()
        assert (states.counters[:, :kernel.STEP] == fresh.counters[:, :kernel.STEP]).all()
        _agree(problem, states)


def test_the_penalised_value_keeps_its_order_with_weights_near_their_limit():
    """Weights may add up to 2**62 and the penalty is 1.5 times the heaviest: penalty times the
    violations overflowed int64, so a grid with three required words missing outranked one
    with two (the search was drawn to the worst grids). Now the cost saturates: never reversed."""
    penalty = int(1.5 * 2**61)
    counters = np.zeros(kernel.N_COUNTERS, dtype=np.int64)

    def value(missing: int, score: int, min_score: int = 0) -> int:
        counters[:] = 0
        counters[kernel.MISSING], counters[kernel.SCORE] = missing, score
        return int(kernel.objective(counters, 0, 0, min_score, penalty)[0])

    assert value(2, 2**61 + 1) > value(3, 0)
    assert value(0, 2**62) > value(1, 2**62) > value(5, 0) >= -(2**63)
    assert value(1, 10) == 10 - penalty  # below the cap, exact
    assert value(9, 0, min_score=2**62) == -(2**63)  # the least value there is, and no wrap-around
