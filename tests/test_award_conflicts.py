"""Which awards conflict (exactgrid.fitting.conflicts), held to brute force over every grid of a
3x3 board with three free cells: the finder scores each and the checklist judges it."""

import json
from dataclasses import replace
from functools import cache
from itertools import product
from string import ascii_uppercase

import pytest
from click.testing import CliRunner

from exactgrid.answer import Outcome
from exactgrid.awards.checklist import checklist_from_dict, evaluate
from exactgrid.cli import cli
from exactgrid.data.us import us_states
from exactgrid.finder import score
from exactgrid.fitting.conflicts import award_conflict
from exactgrid.geometry import Board
from exactgrid.grid import Grid
from exactgrid.question import Question, SpecError

ITEMS = checklist_from_dict({"items": [
    {"key": "UTAH", "required": ["UTAH"]},
    {"key": "IOWA", "required": ["IOWA"]},
    {"key": "IDAHO", "required": ["IDAHO"]},
    {"key": "NOOHIO", "forbidden": ["OHIO"]},
    {"key": "6S", "min_states": 6},
    {"key": "20M", "min_score": 20_000_000},
]})


def _earns(letters: str) -> frozenset[str]:
    """The items of ITEMS a 3x3 grid earns, by the finder and the checklist."""
    found = score(Grid(Board(3, 3), letters), us_states())
    judged = evaluate(ITEMS, [w.match.word for w in found.found], found.total)
    return frozenset(r.key for r in judged.items if r.passed)


@cache
def _earned_sets(fixed: str) -> frozenset[frozenset[str]]:
    """Every set of items some completion of ``fixed`` ('.' free) earns together."""
    free = [i for i, c in enumerate(fixed) if c == "."]
    sets = set()
    for letters in product(ascii_uppercase, repeat=len(free)):
        cells = list(fixed)
        for cell, letter in zip(free, letters, strict=True):
            cells[cell] = letter
        sets.add(_earns("".join(cells)))
    return frozenset(sets)


def _earnable(fixed: str, awards) -> bool:
    return any(set(awards) <= earned for earned in _earned_sets(fixed))


def _question(fixed: str) -> Question:
    return Question(Board(3, 3), fixed="/".join(fixed[r:r + 3] for r in range(0, 9, 3)))


@pytest.mark.parametrize(("fixed", "order"), [
    ("T.OA.NES.", ("UTAH", "IOWA", "IDAHO", "NOOHIO", "6S", "20M")),
    ("T.OA.NES.", ("6S", "20M", "UTAH", "IOWA", "IDAHO", "NOOHIO")),
    ("TH.A.NE.L", ("20M", "IOWA", "NOOHIO", "UTAH", "6S")),
])
def test_the_conflict_is_minimal_by_brute_force(fixed, order):
    assert not _earnable(fixed, order)
    answer = award_conflict(_question(fixed), order, checklist=ITEMS, backend="cadical", time_limit=120,
                            counting=False)
    assert answer.outcome == Outcome.DOES_NOT_FIT and answer.minimal
    assert not _earnable(fixed, answer.conflict)
    for award in answer.conflict:
        rest = set(answer.conflict) - {award}
        assert _earnable(fixed, rest)
        grid = answer.needed[award]  # the evidence: a grid of the question earning the rest
        assert all(grid.letters[c] == letter for c, letter in enumerate(fixed) if letter != ".")
        assert rest <= _earns(grid.letters)
    assert answer.refutation is not None and answer.refutation.verdict == Outcome.DOES_NOT_FIT
    assert answer.exit_code == 1 and "cannot be earned together (minimal" in answer.text()
    assert answer.to_dict()["conflict"] == list(answer.conflict)


def test_awards_that_fit_together_come_with_a_grid_earning_them():
    fixed, awards = "T.OA.NES.", ("UTAH", "IOWA", "NOOHIO")
    assert _earnable(fixed, awards)
    answer = award_conflict(_question(fixed), awards, checklist=ITEMS, backend="cadical", time_limit=120)
    assert answer.outcome == Outcome.FITS and answer.exit_code == 0
    assert set(awards) <= _earns(answer.grid.letters)


def test_one_award_no_grid_earns_is_a_minimal_conflict_on_its_own():
    fixed = "THOAINE.."  # OHIO is spelled whatever the free cells hold
    assert not _earnable(fixed, ["NOOHIO"])
    answer = award_conflict(_question(fixed), ["UTAH", "NOOHIO"], checklist=ITEMS, backend="cadical",
                            time_limit=120, counting=False)
    assert answer.conflict == ("NOOHIO",) and answer.minimal
    assert answer.needed["NOOHIO"].letters.startswith("THOAINE")  # the question alone fits
    needed = answer.needed["NOOHIO"].letters
    assert f"NOOHIO is needed: {needed} meets the question with no award" in answer.text()


def test_no_time_is_unknown_and_an_outright_contradiction_is_a_spec_error():
    answer = award_conflict(_question("T.OA.NES."), ["6S", "NOOHIO"], checklist=ITEMS, time_limit=0)
    assert answer.outcome == Outcome.UNKNOWN and answer.exit_code == 3 and not answer.conflict
    assert answer.to_dict()["detail"] == "the time limit" and "(the time limit)" in answer.text()
    both = checklist_from_dict({"items": [{"key": "OHIO", "required": ["OHIO"]},
                                          {"key": "NOOHIO", "forbidden": ["OHIO"]}]})
    with pytest.raises(SpecError, match="OHIO is both required and forbidden"):
        award_conflict(_question("T.OA.NES."), ["OHIO", "NOOHIO"], checklist=both)
    with pytest.raises(SpecError, match="at least one award"):
        award_conflict(_question("T.OA.NES."), [])


def test_fit_which_awards_names_the_award_no_grid_can_earn():
    # PENNSYLVANIA needs P, S, Y, V and I besides the fixed A, N, E, L: five letters for three
    # free cells and one alteration, so PA alone cannot be earned; the other two are easy.
    result = CliRunner().invoke(cli, ["fit", "--shape", "3x3", "--cells", "TH./A.N/E.L", "--award", "4C",
                                      "--award", "NOCAL", "--award", "PA", "--which-awards", "--json"])
    assert result.exit_code == 1, result.output
    answer = json.loads(result.output)
    assert answer["conflict"] == ["PA"] and answer["minimal"] and answer["outcome"] == "does not fit"
    assert answer["needed"]["PA"].startswith("TH")
    plain = CliRunner().invoke(cli, ["fit", "--shape", "3x3", "--cells", "TH./A.N/E.L", "--award", "PA",
                                     "--which-awards"])
    assert plain.exit_code == 1 and plain.output.startswith("DOES NOT FIT: PA cannot be earned (minimal")


@pytest.mark.parametrize(("extra", "error"), [
    (["OHIO"], "--which-awards needs --award or --checklist: the awards to ask about"),
    (["--award", "PA", "--explain", "--write-cnf", "x.cnf"], "--which-awards does not go with --explain, --write-cnf"),
])
def test_fit_which_awards_refuses_what_it_cannot_answer_in_one_line(extra, error):
    result = CliRunner().invoke(cli, ["fit", "--shape", "3x3", "--which-awards", *extra])
    assert result.exit_code == 2 and result.output.strip() == f"Error: {error}", result.output


def test_ctrl_c_during_the_deletion_stops_it_with_the_set_refuted_so_far(monkeypatch):
    import exactgrid.fitting.conflicts as conflicts

    real_fit, calls = conflicts.fit, []

    def fit_stopped_on_the_third_question(question, *args, **kwargs):
        calls.append(question)
        answer = real_fit(question, *args, **kwargs)
        if len(calls) == 3:  # as fit answers when Ctrl-C lands during its solve
            return replace(answer, verdict=Outcome.UNKNOWN, grid=None, stopped_by="Ctrl-C")
        return answer

    monkeypatch.setattr(conflicts, "fit", fit_stopped_on_the_third_question)
    order = ("UTAH", "IOWA", "IDAHO", "NOOHIO", "6S", "20M")
    answer = award_conflict(_question("T.OA.NES."), order, checklist=ITEMS, backend="cadical", counting=False)
    assert len(calls) == 3 and answer.stopped_by == "Ctrl-C" and answer.exit_code == 3
    assert answer.outcome == Outcome.DOES_NOT_FIT and not answer.minimal
    assert answer.conflict == order[1:]  # the second question refuted it without UTAH; the third was cut
    assert not _earnable("T.OA.NES.", answer.conflict)
