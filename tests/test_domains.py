"""Letter domains: a cell limited to a choice of letters (``[AB]`` in rows of cells,
``Question(domains=...)``), read, merged and honoured by fit, sessions, explain and solve.

Every fit answer is compared with brute force: enumerate each grid the domains allow and
check it with the finder. A domain the encoder leaked, a letter no word uses read as the
model's filler, or a search move that left a domain would show here.
"""

from __future__ import annotations

import json
import math
import random
from itertools import product

import pytest
from click.testing import CliRunner

import exactgrid as eg
from exactgrid.cli import cli
from exactgrid.fitting.session import FitSession
from exactgrid.grid import Grid
from exactgrid.question import SpecError, build_question, parse_cell_letters
from exactgrid.verify import check_grid

LETTERS = "OHIAWZB"  # Z is no letter of OHIO or IOWA, and B is the model's filler for them


def _fits_by_brute_force(question: eg.Question) -> bool:
    board = question.board
    choices = [question.cell_letters(c) or LETTERS for c in range(board.size)]
    return any(not check_grid(question, Grid(board, "".join(letters))).problems for letters in product(*choices))


def _random_domains(rng: random.Random, cells: int) -> dict[int, str]:
    """A domain for every cell, one to three letters each, at most 3,000 grids in all."""
    domains = {c: "".join(rng.sample(LETTERS, rng.choice((1, 2, 2, 3)))) for c in range(cells)}
    if math.prod(map(len, domains.values())) > 3000:
        domains = {c: "".join(sorted(d)[:2]) for c, d in domains.items()}
    return domains


def test_rows_of_cells_read_letters_choices_and_free_cells():
    board = eg.Board(2, 3)
    assert parse_cell_letters("A[cb]./[ZZ]?_", board) == {0: "A", 1: "BC", 3: "Z"}
    for text, message in [("A[]./...", "is not a letter"), ("A[B1]./...", "is not a letter"),
                          ("A[BC/...", "is not a letter"), ("A[BC]../...", "2 rows of 3 cells")]:
        with pytest.raises(SpecError, match=message):
            parse_cell_letters(text, board)


def test_a_question_splits_merges_and_checks_its_cells():
    board = eg.Board(3, 3)
    q = eg.Question(board, required=["OHIO"], fixed="O[HO]./.[I]./...", domains={1: "HIX", 8: ["Y", "X"]})
    assert dict(q.fixed) == {0: "O", 1: "H", 4: "I"}  # [HO] and HIX leave H: a fixed cell
    assert dict(q.domains) == {8: "XY"}
    assert q.allows(8, "X") and not q.allows(8, "O") and q.allows(2, "Q") and not q.allows(0, "H")
    assert q.describe_cells() == "OH./.I./..[XY]"
    again = eg.Question(board, required=["OHIO"], fixed=q.describe_cells())
    assert (again.fixed, again.domains) == (q.fixed, q.domains)
    with pytest.raises(SpecError, match="contradict each other at r1c1: O and \\[HI\\]"):
        eg.Question(board, fixed={0: "O"}, domains={0: "HI"})
    with pytest.raises(SpecError, match="symmetry breaking needs a grid with no fixed cells or letter domains"):
        eg.Question(board, required=["OHIO"], domains={0: "OH"}, symmetry_breaking=True)
    for bad in ("a1", [1, 2], 7):
        with pytest.raises(SpecError, match="letter domain of cell r1c2 must be letters"):
            eg.Question(board, domains={1: bad})
    with pytest.raises(SpecError, match="fixed cell r1c1 must hold one letter"):
        eg.Question(board, fixed={0: "OH"})
    merged = build_question(requirements=["OHIO"], shape="3x3", cells=["[OHI]../.../...", "[HIZ]../.../..."])
    assert dict(merged.domains) == {0: "HI"}


@pytest.mark.parametrize("seed", range(3))
def test_fit_and_a_session_answer_as_brute_force_does(seed):
    rng = random.Random(seed)
    base = build_question(requirements=["OHIO"], forbid=["IOWA"], shape="3x3")
    verdicts = []
    with FitSession(base) as session:
        for _ in range(8):
            domains = _random_domains(rng, 9)
            question = base.but(domains=domains)
            expected = _fits_by_brute_force(question)
            one_shot = eg.fit(question, "cadical", time_limit=None, counting=False)
            asked = session.ask(domains=domains)
            for answer in (one_shot, asked):
                assert (answer.verdict is eg.Verdict.FITS) is expected
                if answer.grid is not None:
                    assert all(question.allows(c, ch) for c, ch in enumerate(answer.grid.letters))
            verdicts.append(expected)
    assert True in verdicts and False in verdicts  # both kinds were asked


def test_a_cell_held_to_letters_no_word_uses_holds_one_of_them():
    question = eg.Question(eg.Board(3, 3), required=["OHIO"], forbidden=["IOWA"], fixed="OHI/[ZQ][ZQ]O/[QZ]..")
    answer = eg.fit(question, "cadical", time_limit=None, counting=False)
    assert answer.verdict is eg.Verdict.FITS
    assert answer.grid.letters[:6] in {"OHI" + tail for tail in ("ZZO", "ZQO", "QZO", "QQO")}
    assert answer.grid.letters[6] in "QZ"


def test_a_domain_is_part_of_an_explanation():
    question = eg.Question(eg.Board(2, 2), required=["OHIO:exact"], domains={0: "AB", 1: "AB", 2: "AB"})
    with FitSession(question) as session:
        conflict, minimal = session.explain()
    assert minimal and "OHIO:exact" in conflict and all(c == "OHIO:exact" or " in [AB]" in c for c in conflict)
    # OHIO needs an O, an H and an I: two cells held to A or B leave too few (any two of three)
    assert len([c for c in conflict if " in [AB]" in c]) == 2


def test_solve_keeps_every_cell_in_its_domain_and_finds_the_best_grid_there():
    # E, A, I, N, O, S and T are the words' commonest letters: an unheld search would use them
    domains = {c: "KX" for c in range(4)} | {c: "LMNOPQRSTUVWXYZ"[:2 + c % 3] for c in range(4, 8)}
    question = eg.Question(eg.Board(3, 3), fixed={8: "A"}, domains=domains)
    answer = eg.solve(question, time_limit=None, max_proposals=40_000, workers=1, seed=3)
    assert all(question.allows(c, ch) for c, ch in enumerate(answer.grid.letters))
    choices = [question.cell_letters(c) for c in range(9)]
    best = max(eg.score(Grid(question.board, "".join(g))).total for g in product(*choices))
    assert answer.score == best
    started = eg.solve(question, start="EEEEEEEEE", time_limit=None, max_proposals=2_000, workers=1, seed=4)
    assert all(question.allows(c, ch) for c, ch in enumerate(started.grid.letters))  # E is in no domain


def test_the_cli_takes_a_choice_of_letters_and_refuses_a_broken_one():
    result = CliRunner().invoke(cli, ["fit", "OHIO", "--shape", "3x3", "--cells", "[OH]H./I[OZ]./...", "--json"])
    assert result.exit_code == 0, result.output
    grid = json.loads(result.stdout)["grid"]
    assert grid[0] in "OH" and grid[1] == "H" and grid[3] == "I" and grid[4] in "OZ"
    bad = CliRunner().invoke(cli, ["fit", "OHIO", "--shape", "3x3", "--cells", "[O1]../.../..."])
    assert bad.exit_code == 2 and bad.stdout == ""
    assert bad.stderr.count("\n") == 1 and "is not a letter" in bad.stderr


def test_counting_reads_domains_and_never_refutes_a_question_that_fits():
    from exactgrid.prove.counting import count_question

    held = eg.Question(eg.Board(3, 3), required=["OHIO"], domains={c: "HIO" if c == 4 else "AB" for c in range(9)})
    assert count_question(held, "cadical", 60, objective=False).status == "refuted"  # one cell for O, H and I
    assert count_question(held.but(domains={}), "cadical", 60, objective=False).status == "open"
    rng = random.Random(2)  # a draw where counting refutes two of the twelve
    base = build_question(requirements=["OHIO"], forbid=["IOWA"], shape="3x3")
    refuted = 0
    for _ in range(12):
        question = base.but(domains=_random_domains(rng, 9))
        counted = count_question(question, "cadical", 60, objective=False)
        refuted += counted.status == "refuted"
        assert counted.status == "open" or not _fits_by_brute_force(question)
    assert refuted >= 1
