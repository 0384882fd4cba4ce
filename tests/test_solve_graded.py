"""The graded search: a missing required word costs its alterations beyond the budget.

Held to independent computations: the kernel's walk distance to brute force over every walk
and to a min-plus programme over cells written here; its incrementally kept grades to that
programme after runs; and every pruned decision of a proposal to the exact value of the grid
it proposes (the early rejection must stay a true upper bound under grading).
"""

from __future__ import annotations

import numpy as np
import pytest

import exactgrid as eg
from exactgrid.fastscore import Scorer
from exactgrid.geometry import Board
from exactgrid.inputs import InputError
from exactgrid.question import Question
from exactgrid.solving import Schedule, kernel
from exactgrid.solving.answer import solve_question
from exactgrid.solving.problem import ChainStates, SearchProblem, grid_codes, grid_text
from exactgrid.words import parse_word_list

from .bruteforce import adjacent, all_paths

CAP = 3
SIX_AWARDS = ("20S", "200M", "PA", "M8", "4C", "C2C")
NEAR_MISS = "LIDYLAORAWCSNEMHISNTPMATU"  # the six awards but PA (PENNSYLVANIA missing)
SMALL_WORDS = parse_word_list("\n".join(["OHIO", "IOWA", "UTAH", "IDAHO", "MAINE", "TEXAS", "NEVADA", "HAWAII",
                                         "ALASKA", "KANSAS", "OREGON", "ILLINOIS"]), name="small")


def min_plus_distance(grid: str, rows: int, cols: int, moves: str, word: str) -> int:
    """The fewest mismatches of ``word`` against any walk, by a programme over cells: the cost
    of ending the prefix at a cell is its mismatch plus the cheapest neighbour's cost."""
    cells = range(rows * cols)
    cost = [int(grid[c] != word[0]) for c in cells]
    for letter in word[1:]:
        cost = [int(grid[c] != letter) + min(cost[d] for d in cells if adjacent(rows, cols, moves, c, d))
                for c in cells]
    return min(cost)


def kernel_distance(problem: SearchProblem, grid: str, word: str, limit: int) -> int:
    lmask = np.zeros(26, dtype=np.int64)
    for c, letter in enumerate(grid):
        lmask[ord(letter) - 65] |= np.int64(1) << c
    reach = np.zeros((int(problem.lengths.max()), limit + 1), dtype=np.int64)
    return kernel.walk_distance(problem.words.index(word), problem.starts, problem.lengths, problem.letters, lmask,
                                problem.table, problem.chunks, problem.full, limit, reach)


@pytest.mark.parametrize(("rows", "cols", "moves"), [(3, 3, "king"), (2, 3, "rook")])
def test_walk_distance_is_the_fewest_alterations_over_every_walk(rows: int, cols: int, moves: str) -> None:
    words = parse_word_list("\n".join(["OHIO", "UTAH", "IOWA", "AHA", "TOT"]), name="short")
    problem = SearchProblem.build(Question(Board(rows, cols, moves), words=words))
    rng = np.random.default_rng(4)
    for _ in range(6):
        grid = "".join(rng.choice(list("OHIUTAWX"), rows * cols))
        for word in words.words:
            brute = min(sum(grid[c] != w for c, w in zip(path, word, strict=True))
                        for path in all_paths(rows, cols, moves, len(word), "walk"))
            assert brute == min_plus_distance(grid, rows, cols, moves, word)
            assert kernel_distance(problem, grid, word, len(word)) == brute, (grid, word)
            assert kernel_distance(problem, grid, word, 1) == min(brute, 2), (grid, word)  # capped at limit + 1


def test_walk_distance_of_long_words_equals_the_min_plus_programme() -> None:
    problem = SearchProblem.build(Question(Board(5, 5)))
    rng = np.random.default_rng(9)
    grids = [NEAR_MISS, "DMCHAAOISTRNSPEIANEMLVCDW"] + [grid_text(g) for g in problem.random_grids(4, rng)]
    for grid in grids:
        for word in ("PENNSYLVANIA", "MASSACHUSETTS", "MISSISSIPPI", "OHIO"):
            expected = min_plus_distance(grid, 5, 5, "king", word)
            assert kernel_distance(problem, grid, word, 12) == min(expected, 13), (grid, word)


def six_award_problem() -> SearchProblem:
    return SearchProblem.build(solve_question(Question(), awards=SIX_AWARDS))


def expected_grades(problem: SearchProblem, grid: str, found: set[str]) -> dict[str, int]:
    """Each required word's grade: 0 when found, else its alterations beyond the budget, capped."""
    return {word: 0 if word in found else min(min_plus_distance(grid, 5, 5, "king", word) - problem.budget, CAP)
            for word in problem.question.required_words}


def anneal_graded(problem: SearchProblem, states: ChainStates, steps: int, hot: float, swap_share: float,
                  seed: int) -> None:
    p = problem
    kernel.seed_threads(seed)
    best, feasible = states.grids[0].copy(), states.grids[0].copy()
    best_value = np.array([np.iinfo(np.int64).min], dtype=np.int64)
    feasible_value = np.array([-1], dtype=np.int64)
    kernel.anneal_graded(states.grids, states.lmasks, states.founds, states.supports, states.counters, states.stamps,
                         best, best_value, feasible, feasible_value, steps, 700, hot, hot / 20, swap_share, 3,
                         p.letter_cdf, p.fixed, p.starts, p.lengths, p.letters, p.weights, p.flags, p.word_index,
                         p.word_ptr, p.table, p.chunks, p.full, p.budget, p.chain_sources, p.chain_targets,
                         p.chain_adjacency, p.min_count, p.min_score, 60_000_000, states.grades, states.graded_cap)


def test_grades_kept_incrementally_equal_a_fresh_recount_after_runs() -> None:
    problem = six_award_problem()
    scorer = Scorer(problem.question.board, problem.question.words, problem.budget)
    grids = problem.random_grids(6, np.random.default_rng(2))
    grids[:3] = grid_codes(NEAR_MISS)
    states = ChainStates.start(problem, grids, graded_cap=CAP)
    graded = 0
    for round_, (hot, swap_share) in enumerate([(3_000_000.0, 0.5), (300_000.0, 0.2), (30_000.0, 0.9)]):
        anneal_graded(problem, states, 1500, hot, swap_share, seed=round_)
        fresh = ChainStates.start(problem, states.grids.copy(), graded_cap=CAP)
        assert (states.grades == fresh.grades).all()
        assert (states.counters[:, :kernel.STEP] == fresh.counters[:, :kernel.STEP]).all()
        assert (states.counters[:, kernel.EXTRA] == fresh.counters[:, kernel.EXTRA]).all()
        for k in range(len(grids)):
            grid = grid_text(states.grids[k])
            found = set(scorer.found_words(grid))
            grades = expected_grades(problem, grid, found)
            assert {w: int(states.grades[k, problem.words.index(w)]) for w in grades} == grades, grid
            assert states.counters[k, kernel.EXTRA] == sum(max(g - 1, 0) for g in grades.values())
            assert states.counters[k, kernel.MISSING] == sum(g > 0 for g in grades.values())
            graded += states.counters[k, kernel.EXTRA] > 0
    assert graded > 0  # some chain ended with a word more than one alteration short


def test_the_default_search_grades_nothing() -> None:
    problem = six_award_problem()
    states = ChainStates.start(problem, problem.random_grids(4, np.random.default_rng(3)))
    assert (states.grades == 0).all() and (states.counters[:, kernel.EXTRA] == 0).all()
    graded = ChainStates.start(problem, states.grids.copy(), graded_cap=CAP)
    assert (graded.counters[:, kernel.EXTRA] > 0).any()
    assert (graded.counters[:, :kernel.EXTRA] == states.counters[:, :kernel.EXTRA]).all()


def _packed(problem: SearchProblem, states: ChainStates, k: int, temperature: float) -> dict:
    """The tuples :func:`kernel.anneal_graded` packs for chain ``k``, to call one proposal."""
    p = problem
    word_letters, word_repeated = kernel._letter_masks(p.starts, p.lengths, p.letters)
    prob = (p.starts, p.lengths, p.letters, p.weights, p.flags, p.word_index, p.word_ptr, p.table, p.chunks, p.full,
            p.budget, word_letters, word_repeated)
    reach, undo, _saved, pending, candidates = kernel._scratch(p.lengths, p.budget + CAP)
    order, rest = kernel._by_weight(p.word_index, p.word_ptr, p.weights, p.flags)
    required = np.flatnonzero(p.flags & kernel.REQUIRED)
    spread, present = np.zeros(26, dtype=np.int64), np.zeros(1, dtype=np.int64)
    kernel._fill_spread(states.lmasks[k], spread, present, p.table, p.chunks, p.full)
    return {
        "state": (states.grids[k], states.lmasks[k], states.founds[k], states.supports[k], states.counters[k],
                  states.stamps[k], spread, present),
        "grading": (states.grades[k], CAP, required, np.zeros(2 * len(required) + 2, dtype=np.int64),
                    np.zeros(2 * len(required) + 2, dtype=np.int64)),
        "prob": prob, "reach": reach, "undo": undo, "pending": pending,
        "lists": (candidates, order, rest, np.zeros(3, dtype=np.int64)), "temperature": temperature,
        "goal": (len(p.chain_sources), p.min_count, p.min_score, 60_000_000),
        "chains": (p.chain_sources, p.chain_targets, p.chain_adjacency),
    }


def _decide(problem: SearchProblem, grid: np.ndarray, c1: int, b: int, c2: int, temperature: float,
            seed: int) -> tuple[bool, bool, int, float]:
    """One proposal on ``grid`` as the annealer scores it: (rejected early, accepted, the value
    it settled on or 0, the threshold); the chain's state is thrown away after."""
    states = ChainStates.start(problem, grid[None, :].copy(), graded_cap=CAP)
    a = _packed(problem, states, 0, temperature)
    value = kernel.objective(states.counters[0], *a["goal"])[0]
    rng = np.array([seed], dtype=np.uint64)
    _n_undo, n_graded, changed, threshold, rejected = kernel._propose(
        c1, b, c2, value, temperature, a["state"], 1, a["undo"], a["pending"], a["lists"], a["prob"], a["goal"],
        a["reach"], rng, a["grading"])
    if rejected:
        return True, False, 0, threshold
    kernel._regrade_lost(a["state"], a["grading"], a["prob"], a["reach"], n_graded)
    settled, _ok = kernel._settle(changed, states.founds[0], states.counters[0], a["chains"], a["goal"])
    return False, settled >= threshold, int(settled), threshold


def test_pruned_decisions_equal_the_exact_value_of_the_proposed_grid() -> None:
    # the early rejection (_value_bound) must stay an upper bound with graded words: a proposal
    # rejected early must be one whose exact value misses the threshold, and a proposal scored
    # in full must settle on the exact value of its grid
    problem = six_award_problem()
    rng = np.random.default_rng(12)
    starts = [grid_codes(NEAR_MISS), grid_codes("MANAVRICSLGOSIPLANEMHDTNW"), *problem.random_grids(2, rng)]
    early = scored = 0
    for trial in range(300):
        grid = starts[trial % len(starts)].copy()
        for _ in range(trial % 3):  # a few letters away from the start
            grid[rng.integers(25)] = rng.integers(26)
        c1 = int(rng.integers(25))
        swap = trial % 4 == 0
        c2 = int(rng.integers(25)) if swap else -1
        if swap and grid[c2] == grid[c1]:
            continue
        b = int(grid[c2]) if swap else int(rng.integers(26))
        if b == grid[c1]:
            continue
        temperature = float(rng.choice([2e5, 3e6, 3e7]))
        rejected, accepted, settled, threshold = _decide(problem, grid, c1, b, c2, temperature, int(trial) + 1)
        proposed = grid.copy()
        proposed[c1] = b
        if swap:
            proposed[c2] = grid[c1]
        exact = ChainStates.start(problem, proposed[None, :], graded_cap=CAP)
        value = int(kernel.objective(exact.counters[0], len(problem.chain_sources), problem.min_count,
                                     problem.min_score, 60_000_000)[0])
        if rejected:
            early += 1
            assert value < threshold, (grid_text(grid), c1, b, c2)
        else:
            scored += 1
            assert settled == value and accepted == (value >= threshold), (grid_text(grid), c1, b, c2)
    assert early > 50 and scored > 50


def test_schedule_graded_option() -> None:
    assert Schedule().cap == 0 and Schedule(graded=True).cap == 3 and Schedule(graded=True, graded_cap=5).cap == 5
    with pytest.raises(InputError, match="graded_cap"):
        Schedule(graded=True, graded_cap=0)


def test_graded_solve_reports_only_grids_that_meet_the_question() -> None:
    question = Question(Board(4, 4), words=SMALL_WORDS, required=["ILLINOIS", "NEVADA"], forbidden=["IOWA"])
    answer = eg.solve(question, time_limit=None, max_proposals=60_000, workers=1, seed=2,
                      schedule=Schedule(graded=True))
    assert answer.grid is not None
    found = set(eg.score(answer.grid, words=SMALL_WORDS).words)
    assert {"ILLINOIS", "NEVADA"} <= found and "IOWA" not in found
