"""``tools/domain_neighbourhoods.py`` decides letter-domain neighbourhoods as brute force does.

One session answers many neighbourhoods in turn, each given as assumptions; every answer must
agree with enumerating every grid the domains allow and checking it with the finder, so a
domain that leaks from one question into the next, or a letter the model reads as the filler,
would show here.
"""

from __future__ import annotations

import math
import random
from itertools import product

import pytest

from exactgrid.grid import Grid, parse_grid
from exactgrid.question import build_question
from exactgrid.verify import check_grid

from .tools import load_tool

pytest.importorskip("pysat")

tool = load_tool("domain_neighbourhoods")


def _brute_force(question, domains) -> bool:
    return any(not check_grid(question, Grid(question.board, "".join(letters))).problems
               for letters in product(*(sorted(d) for d in domains)))


@pytest.mark.parametrize("seed", range(4))
def test_one_session_answers_each_neighbourhood_as_brute_force_does(seed):
    question = build_question(requirements=["OHIO"], forbid=["IOWA"], shape="3x3")
    session = tool.DomainSession(question)
    rng = random.Random(seed)
    letters = "OHIAWZB"  # Z is no letter of the words, and B is the model's filler for them
    answers = []
    try:
        for _ in range(12):
            domains = tuple(frozenset(rng.sample(letters, rng.choice((1, 2, 2, 3)))) for _ in range(9))
            if math.prod(map(len, domains)) > 3000:  # keep the enumeration small
                domains = tuple(frozenset(sorted(d)[:2]) for d in domains)
            answer = session.ask(domains, seconds=None)
            assert answer.verdict is _brute_force(question, domains)
            if answer.verdict:
                assert all(letter in domain for letter, domain in zip(answer.grid, domains, strict=True))
            answers.append(answer.verdict)
    finally:
        session.close()
    assert True in answers and False in answers  # both kinds of neighbourhood were asked


def test_a_cell_held_to_a_letter_no_word_uses_can_still_hold_it():
    question = build_question(requirements=["OHIO"], forbid=["IOWA"], shape="3x3")
    session = tool.DomainSession(question)
    try:  # OHIO on the top row and down the right; Z, which no word uses, everywhere else
        answer = session.ask(tuple(frozenset(letter) for letter in "OHIZZOZZZ"), seconds=None)
    finally:
        session.close()
    assert answer.verdict is True and answer.grid == "OHIZZOZZZ"


def test_a_shuffle_neighbourhood_holds_its_grid_and_a_cross_of_a_grid_with_itself_is_the_grid():
    grid = parse_grid("ohiowaxyz")
    assert all(letter in domain for letter, domain in zip(grid.letters, tool.shuffle_domains(grid, 1), strict=True))
    assert tool.shuffle_domains(grid, 0) == tuple(frozenset(letter) for letter in grid.letters)
    assert all(len(domain) == 26 for domain in tool.shuffle_domains(grid, 0, free=range(9)))
    identity, *others = grid.board.symmetries
    assert grid.board.image(grid.letters, identity) == grid.letters
    assert tool.cross_domains(grid, grid.letters) == tuple(frozenset(letter) for letter in grid.letters)
    distinct = parse_grid("abcdefghi")  # a grid of nine letters turns eight different ways
    assert len({distinct.board.image(distinct.letters, s) for s in distinct.board.symmetries}) == 8
    assert distinct.board.image(distinct.letters, others[0]) == "CBAFEDIHG"  # the first turn mirrors left to right


def test_within_counts_moves_on_the_board():
    board = parse_grid("abcdefghi").board
    assert tool.within(board, 0, 1) == {0, 1, 3, 4}
    assert tool.within(board, 0, 2) == set(range(9))
