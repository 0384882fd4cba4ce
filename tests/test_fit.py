"""Fit answers agree with brute-force enumeration of every grid, for every backend."""

import itertools
import random

import pytest

from exactgrid.backends import DEFAULT_BACKEND
from exactgrid.encoding import encode, modelled_alphabet
from exactgrid.finder import find
from exactgrid.fitting import fit
from exactgrid.grid import Grid
from exactgrid.question import SpecError, build_question
from exactgrid.verify import check_grid, requirement_holds
from exactgrid.words import WordList

from .conftest import AVAILABLE_BACKENDS, BACKEND_CAPABILITIES


def meets(spec, grid: Grid) -> bool:
    """Whether ``grid`` answers ``spec``, by the finder alone, stopping at the first failure."""
    budget, rule = spec.budget, spec.path_rule
    if any(grid.letters[cell] != letter for cell, letter in spec.fixed.items()):
        return False
    if any(requirement_holds(grid, req, budget, rule) is None for req in spec.required):
        return False
    if any(find(grid, word, budget, rule) is not None for word in spec.forbidden):
        return False
    if spec.min_score is None and spec.min_count is None:
        return True
    weights = spec.scoring_weights()
    found = [w for w in weights if find(grid, w, budget, rule) is not None]
    if spec.min_score is not None and sum(weights[w] for w in found) < spec.min_score:
        return False
    return spec.min_count is None or len(found) >= spec.min_count


def brute_force_fits(spec) -> Grid | None:
    """First grid (over the modelled letters) meeting the spec, by trying every grid.

    Letters that occur in no word of the question are interchangeable, so trying the
    modelled letters plus one filler letter covers every grid up to renaming.
    """
    alphabet, _ = modelled_alphabet(spec)
    free = [cell for cell in range(spec.board.size) if cell not in spec.fixed]
    letters = [spec.fixed.get(cell, "") for cell in range(spec.board.size)]
    for choice in itertools.product(alphabet, repeat=len(free)):
        for cell, letter in zip(free, choice):
            letters[cell] = letter
        grid = Grid(spec.board, "".join(letters))
        if meets(spec, grid):
            return grid
    return None


# (shape, letters the words use, rows fixed): the modelled alphabet is these letters plus one
# filler letter, so every instance has at most 3**9 = 19,683 grids to enumerate (a 4x4 has
# its first two rows fixed).
SHAPES = [((2, 2), "ABC", 0), ((1, 4), "ABC", 0), ((2, 3), "ABC", 0), ((3, 2), "AB", 0),
          ((2, 4), "AB", 0), ((3, 3), "AB", 0), ((4, 4), "AB", 2)]
MAX_GRIDS = 19_683


def random_spec(rng: random.Random):
    shape, alphabet, fixed_rows = rng.choice(SHAPES)
    words: dict[str, int] = {}
    while len(words) < 4:
        word = "".join(rng.choice(alphabet) for _ in range(rng.randint(3, 6)))
        words[word] = rng.randint(1, 40_000_000)
    names = list(words)
    rng.shuffle(names)
    requirements = []
    for word in names[: rng.randint(1, 3)]:
        how = rng.choice(["", ":exact", f":{rng.randint(1, len(word))}", "spelled"])
        if how == "spelled":
            spelled = list(word)
            spelled[rng.randrange(len(word))] = rng.choice(alphabet)
            how = "=" + "".join(spelled)
        requirements.append(word + how)
    extra = {}
    if fixed_rows:
        rows = ["".join(rng.choice(alphabet) for _ in range(shape[1])) for _ in range(fixed_rows)]
        extra["cells"] = "/".join(rows + ["." * shape[1]] * (shape[0] - fixed_rows))
    roll = rng.random()
    if roll < 0.35:
        extra["forbid"] = names[2:3]
    elif roll < 0.55:
        extra["optional"] = ["all"]
        extra["min_score"] = rng.randint(0, sum(words.values()))
    elif roll < 0.65:
        extra["optional"] = ["all"]
        extra["min_count"] = rng.randint(1, 4)
    elif roll < 0.75 and not fixed_rows:
        row = "".join(rng.choice(alphabet + ".") for _ in range(shape[1]))
        extra["cells"] = "/".join([row] + ["." * shape[1]] * (shape[0] - 1))
    return build_question(
        requirements=requirements,
        shape=shape,
        moves=rng.choice(["king", "rook"]),
        path_rule=rng.choice(["walk", "simple"]),
        budget=rng.choice([0, 0, 1]),
        words=WordList(words, "test"),
        symmetry_breaking="cells" not in extra and rng.random() < 0.3,
        **extra,
    )


def random_specs(count: int, seed: int):
    rng = random.Random(seed)
    specs = []
    while len(specs) < count:
        try:
            spec = random_spec(rng)
        except SpecError:
            continue  # e.g. a spelled form more than the budget away: not a question
        assert len(modelled_alphabet(spec)[0]) ** (spec.board.size - len(spec.fixed)) <= MAX_GRIDS
        specs.append(spec)
    return specs


SPECS = random_specs(240, seed=2024)
EXPECTED = [brute_force_fits(spec) is not None for spec in SPECS]


def test_random_specs_cover_both_answers_and_all_features():
    assert 40 < sum(EXPECTED) < 200
    assert any(s.forbidden for s in SPECS) and any(s.min_score for s in SPECS)
    assert any(s.path_rule == "simple" and s.forbidden for s in SPECS)
    assert any(s.fixed for s in SPECS) and any(s.symmetry_breaking for s in SPECS)
    assert {s.board.size for s in SPECS} >= {4, 6, 8, 9, 16}


# A backend that answers in a child process (CBC, HiGHS, Kissat, CP-SAT, the portfolio) pays a
# process start and an import for each question, 0.1-0.7 s even on these tiny models (seconds on
# a loaded machine), so it answers every sixteenth question (the default, Kissat, every eighth),
# each from its own offset, so that between them they answer different ones; the in-process
# backends answer all 240. The encoding they are all handed is the same, and the in-process
# backends hold it to brute force everywhere.
CHILD_STRIDE = 16


def asked_of(backend: str) -> range:
    """The indices of the questions ``backend`` answers here."""
    if "in-process" in BACKEND_CAPABILITIES[backend]:
        return range(len(SPECS))
    stride = CHILD_STRIDE // 2 if backend == DEFAULT_BACKEND else CHILD_STRIDE
    offset = AVAILABLE_BACKENDS.index(backend) % stride
    return range(offset, len(SPECS), stride)


@pytest.mark.parametrize("backend", AVAILABLE_BACKENDS)
def test_fit_agrees_with_brute_force(backend):
    asked = asked_of(backend)
    assert {EXPECTED[i] for i in asked} == {True, False}  # both answers are asked of every backend
    for index in asked:
        spec = SPECS[index]
        answer = fit(spec, backend=backend, time_limit=None)  # tiny: decided at once, however slow the machine
        assert answer.verdict == ("fits" if EXPECTED[index] else "does not fit"), (index, spec)
        if answer.grid is not None:  # fit() verified it; check once more here, independently
            assert check_grid(spec, answer.grid).ok


def test_seed_example_fits_as_stated():
    spec = build_question(
        requirements=["ILLINOIS=INLINOIS", "OHIO:exact", "UTAH=ATAH", "IOWA=IOHA", "IDAHO=IEAHO"],
        shape="3x3",
    )
    answer = fit(spec)
    assert answer.verdict == "fits"
    spelled = {m.word: m.spelled for m in answer.witnesses}
    assert spelled["ILLINOIS"] == "INLINOIS" and spelled["UTAH"] == "ATAH"


def test_exact_seed_states_do_not_fit_3x3():
    # Spelled exactly, the five need the letters I L N O S H U T A W D: eleven letters
    # (twelve cells, as ILLINOIS needs two L cells) do not go into nine cells.
    spec = build_question(requirements=[f"{w}:exact" for w in ["ILLINOIS", "OHIO", "UTAH", "IOWA", "IDAHO"]],
                      shape="3x3")
    assert fit(spec).verdict == "does not fit"


def test_fixed_cells_are_kept():
    spec = build_question(requirements=["OHIO"], shape="3x3", cells="O.O/.H./...")
    answer = fit(spec)
    assert answer.verdict == "fits"
    assert answer.grid.letters[0] == "O" and answer.grid.letters[4] == "H"


def test_encoding_counts_are_reported():
    spec = build_question(requirements=["OHIO"], shape="3x3")
    model = encode(spec).model
    assert model.num_vars > 9 and model.clauses


def test_fit_refuses_an_encoding_built_for_another_question():
    from exactgrid.inputs import InputError
    from exactgrid.question import Verdict

    asked = build_question(requirements=["OHIO"], shape="3x3")
    other = build_question(requirements=["UTAH"], shape="3x3")
    with pytest.raises(InputError, match="built for another question"):
        fit(asked, "cadical", time_limit=30, encoding=encode(other))
    assert fit(asked, "cadical", time_limit=30, encoding=encode(asked), counting=False).verdict == Verdict.FITS


def test_the_finder_rejects_a_grid_on_another_board():
    from exactgrid.geometry import Board

    question = build_question(requirements=["OHIO"], shape="3x3")
    assert check_grid(question, Grid(Board(3, 3), "OHIOOOOOO")).ok
    # the same letters under rook moves spell OHIO too (O0 H1 I2 O5): the board itself is wrong
    rook = check_grid(question, Grid(Board(3, 3, "rook"), "OHIOOOOOO"))
    assert rook.problems == ("the grid is on 3x3 (rook moves), the question on 3x3 (king moves)",)


@pytest.mark.parametrize("minimum,fits", [(7, True), (8, True), (9, False)])
def test_a_target_with_no_optional_word_counts_every_word_in_fit_solve_and_bound(minimum, fits):
    # By hand: on two cells that hold B or C, the grid BC (or CB) holds both words, 3 + 5 = 8,
    # and no grid scores more; fit once counted only the required words here (none: no grid).
    import exactgrid as eg

    question = eg.Question(eg.Board(1, 2, "rook"), budget=0, words=WordList({"B": 3, "C": 5}),
                           domains="[BC][BC]/", min_score=minimum)
    answer = fit(question, "cadical", time_limit=30, counting=False)
    assert (answer.verdict == eg.Outcome.FITS) == fits
    assert not fits or sorted(answer.grid.letters) == ["B", "C"]
    solved = eg.solve(question, time_limit=30, workers=1)
    expected = (eg.Outcome.OPTIMAL, "BC") if fits else (eg.Outcome.DOES_NOT_FIT, None)
    assert (solved.outcome, solved.grid.letters if fits else None) == expected
    assert eg.bound(question.but(min_score=None), time_limit=30).bound == 8
