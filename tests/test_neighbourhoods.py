"""Exact award-aware neighbourhoods (exactgrid.solving.neighbourhoods), held to brute force."""

import random
from itertools import combinations, product
from string import ascii_uppercase

import pytest

from exactgrid.api import check
from exactgrid.awards import default_checklist, find_chain
from exactgrid.data.us import us_states
from exactgrid.finder import find
from exactgrid.geometry import Board
from exactgrid.grid import Grid, parse_grid
from exactgrid.question import Question, Verdict
from exactgrid.solving.neighbourhoods import (
    around_walks,
    explore,
    fixed_except,
    keep_sets,
    lacking,
    nearest_walks,
    neighbourhood_question,
    witness_cells,
)
from exactgrid.verify import check_grid

SEED = parse_grid("thoainesl")  # the puzzle's 3x3 example: ILLINOIS OHIO UTAH IOWA IDAHO


def test_witness_cells_are_the_finders_walks():
    words = ["OHIO", "IDAHO", "TEXAS"]  # TEXAS is not spelled: it adds nothing
    expected = set(find(SEED, "OHIO").path) | set(find(SEED, "IDAHO").path)
    assert witness_cells(SEED, words) == expected


def test_keep_sets_leave_the_asked_number_of_cells_free_once_each():
    words = ["ILLINOIS", "OHIO", "UTAH", "IOWA", "IDAHO", "TEXAS"]
    sets = keep_sets(SEED, words, (1, 4))
    assert sets and all("TEXAS" not in kept for kept in sets)
    kept_cells = [witness_cells(SEED, kept) for kept in sets]
    assert all(1 <= 9 - len(cells) <= 4 for cells in kept_cells)
    assert len(set(kept_cells)) == len(kept_cells)  # one subset per set of kept cells
    assert sorted(sets) == sorted(keep_sets(SEED, words, (1, 4), seed=3))  # the seed only orders them


def _completions(question: Question, fixed: dict[int, str]) -> int:
    """Grids meeting ``question`` that agree with ``fixed``, counted by the finder over every
    letter of every free cell."""
    free = [c for c in range(9) if c not in fixed]
    count = 0
    for letters in product(ascii_uppercase, repeat=len(free)):
        cells = dict(fixed) | dict(zip(free, letters, strict=True))
        count += check_grid(question, Grid(Board(3, 3), "".join(cells[c] for c in range(9)))).ok
    return count


@pytest.mark.parametrize(("kept", "fits"), [(("OHIO", "ILLINOIS"), True), (("ILLINOIS", "IDAHO"), False)])
def test_explore_agrees_with_brute_force(kept, fits):
    question = Question(Board(3, 3), required=["OHIO", "IOWA", "TEXAS"], forbidden=["NEVADA"])
    asked, area = neighbourhood_question(question, SEED, kept)
    assert area.fixed == {c: SEED.letters[c] for c in witness_cells(SEED, kept)}
    assert (_completions(asked, area.fixed) > 0) == fits
    answer, _ = explore(question, SEED, kept, backend="cadical", time_limit=60)
    assert answer.verdict == (Verdict.FITS if fits else Verdict.DOES_NOT_FIT)
    if fits:
        assert all(answer.grid.letters[c] == letter for c, letter in area.fixed.items())


def _every_walk(board: Board, length: int):
    """Every walk of ``length`` cells, each step to a different, adjacent cell (brute force)."""
    for cells in product(range(board.size), repeat=length):
        if all(b in board.neighbours[a] for a, b in zip(cells, cells[1:], strict=False)):
            yield cells


@pytest.mark.parametrize("seed", range(6))
def test_nearest_walks_agree_with_every_walk(seed):
    rng = random.Random(seed)
    board = Board(3, 3) if seed % 2 else Board(2, 4)
    grid = Grid(board, "".join(rng.choice("ABC") for _ in range(board.size)))
    word = "".join(rng.choice("ABCD") for _ in range(rng.randint(2, 5)))
    distances = {walk: sum(grid.letters[c] != ch for c, ch in zip(walk, word, strict=True))
                 for walk in _every_walk(board, len(word))}
    fewest = min(distances.values())
    assert nearest_walks(grid, word) == (fewest, sorted(w for w, d in distances.items() if d == fewest))
    assert len(nearest_walks(grid, word, limit=1)[1]) == 1
    extra = seed % 3
    expected = set()
    for walk, d in distances.items():
        if d == fewest:
            around = {n for c in walk for n in board.neighbours[c]} - set(walk)
            expected.update(frozenset(walk) | set(more) for more in combinations(sorted(around), extra))
    assert set(around_walks(grid, word, extra)) == expected


@pytest.mark.parametrize("seed", range(4))
def test_around_walks_of_several_words_unite_one_nearest_walk_of_each(seed):
    rng = random.Random(100 + seed)
    board = Board(3, 3) if seed % 2 else Board(2, 4)
    grid = Grid(board, "".join(rng.choice("ABC") for _ in range(board.size)))
    words = ["".join(rng.choice("ABCD") for _ in range(rng.randint(2, 4))) for _ in range(2)]
    nearest = []
    for word in words:
        distances = {walk: sum(grid.letters[c] != ch for c, ch in zip(walk, word, strict=True))
                     for walk in _every_walk(board, len(word))}
        nearest.append([set(walk) for walk, d in distances.items() if d == min(distances.values())])
    extra = seed % 2
    expected = set()
    for first, second in product(*nearest):
        cells = first | second
        around = {n for c in cells for n in board.neighbours[c]} - cells
        expected.update(frozenset(cells | set(more)) for more in combinations(sorted(around), extra))
    assert set(around_walks(grid, words, extra)) == expected
    assert set(around_walks(grid, words[:1], extra)) == set(around_walks(grid, words[0], extra))


@pytest.mark.parametrize(("free", "fits"), [((0, 8), True), ((7, 8), False)])
def test_explore_with_free_cells_agrees_with_brute_force(free, fits):
    question = Question(Board(3, 3), required=["OHIO", "IOWA", "TEXAS"], forbidden=["NEVADA"])
    asked, area = fixed_except(question, SEED, free)
    assert area.free == len(free) and all(c not in area.fixed for c in free)
    assert (_completions(asked, area.fixed) > 0) == fits
    answer, _ = explore(question, SEED, (), backend="cadical", time_limit=60, free=free)
    assert answer.verdict == (Verdict.FITS if fits else Verdict.DOES_NOT_FIT)


SEVEN = ("20S", "200M", "PA", "M8", "4C", "NOCAL", "C2C")


@pytest.mark.parametrize("grid", ["LMCHCDOISARNSPTIANETLVMWE", "FIRYLLOSAMCANSIHIENTUMPTA", "MIHTMGACSIROSNPLINEAVADTU",
                                  "AHMDNTCIAOAOSRLPSNEMIATTW", "thoainesl"])
def test_lacking_names_what_the_finder_and_checklist_miss(grid):
    checklist = default_checklist().select(SEVEN)
    answer = check(grid, checklist=checklist)
    found = {w.match.word for w in answer.score.found}
    missing = [s for r in answer.checklist.items if r.item.kind == "required" for s in r.details["missing"]]
    named = lacking(parse_grid(grid), checklist)
    assert list(named[:len(missing)]) == missing
    if find_chain(found - {"CALIFORNIA"}).found:  # a chain NOCAL allows
        assert len(named) == len(missing)
    else:
        # with the states named (a chain state may also be a missing required one) there is a
        # chain avoiding California (FIRYL... has one only through it); when nothing else is
        # missing, no single state would make one
        assert not set(named) & found and "CALIFORNIA" not in named
        assert find_chain((found | set(named)) - {"CALIFORNIA"}).found
        if not missing and len(named) > 1:
            singles = [s for s in us_states().words if s not in found and s != "CALIFORNIA"]
            assert not any(find_chain((found | {s}) - {"CALIFORNIA"}).found for s in singles)
