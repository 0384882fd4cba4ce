"""The records under instances/records/ are re-checked, not trusted: every grid is re-scored by
the finder and its awards re-run through the checklist; every certified bound's cores are
refuted again, and no record grid scores above a bound it falls under."""

import tomllib
from pathlib import Path

import pytest

import exactgrid as eg
from exactgrid.awards import default_checklist, east_coast, evaluate, find_chain, west_coast

from .tools import load_tool

records_tool = load_tool("check_records")

RECORDS = Path(__file__).resolve().parents[1] / "instances" / "records"
GRIDS = tomllib.loads((RECORDS / "altered_states_2.toml").read_text())["grids"]
AWARDS = {"20S", "200M", "PA", "M8", "4C", "NOCAL", "C2C"}
REQUIRED = {"PENNSYLVANIA", "MAINE", "MARYLAND", "MASSACHUSETTS", "MICHIGAN", "MINNESOTA", "MISSISSIPPI", "MISSOURI",
            "MONTANA", "ARIZONA", "COLORADO", "NEWMEXICO", "UTAH"}  # what PA, M8 and 4C require


@pytest.mark.parametrize("record", GRIDS, ids=[r["grid"] for r in GRIDS])
def test_a_record_grid_scores_what_it_claims(record):
    answer = eg.check(record["grid"])
    assert answer.score.total == record["score"]
    assert len(answer.score.found) == record["states"]
    earned = {r.item.key for r in answer.checklist.items if r.passed} & AWARDS
    assert earned == set(record["awards"]), record["record"]
    over_water = evaluate(default_checklist(), answer.score.words, answer.score.total, water_borders=True)
    earned_over_water = {r.item.key for r in over_water.items if r.passed} & AWARDS
    assert earned_over_water == set(record.get("awards_water", record["awards"])), record["record"]
    if "missing" in record:  # a near miss: exactly these required states are absent
        found = {scored.match.word for scored in answer.score.found}
        assert REQUIRED - found == set(record["missing"])


@pytest.mark.parametrize("record", [r for r in GRIDS if "chain_by_one" in r], ids=lambda r: r["grid"])
def test_a_near_miss_of_c2c_is_one_of_exactly_these_states_from_a_chain(record):
    found = eg.check(record["grid"]).score.words
    assert find_chain(found, east_coast(), west_coast()).chain is None
    completing = {state for state in eg.us_states() if state not in found and state != "CALIFORNIA"
                  and find_chain({*found, state}, east_coast(), west_coast()).chain is not None}
    assert completing == set(record["chain_by_one"])


def test_the_records_are_distinct_and_each_names_its_command():
    assert len({r["grid"] for r in GRIDS}) == len(GRIDS)
    assert all(r["record"] and r["found_by"] for r in GRIDS)


BOUNDS = tomllib.loads((RECORDS / "altered_states_2_bounds.toml").read_text())["bounds"]
ALL_STATES = 330_759_736


def _name(record: dict) -> str:
    return " ".join(record["awards"]) or "every grid"


@pytest.mark.parametrize("record", BOUNDS, ids=_name)
def test_a_certified_bound_holds_for_every_record_grid(record):
    """The records' cheap half, first part: every grid of altered_states_2.toml earning the
    bound's awards scores no more than it."""
    assert record["bound"] <= record["total"] <= ALL_STATES
    for grid in GRIDS:
        if set(record["awards"]) <= set(grid["awards"]):
            assert grid["score"] <= record["bound"], grid["grid"]


@pytest.mark.parametrize(("record", "entry"), [(r, e) for r in BOUNDS for e in r["cores"]],
                         ids=[f"{_name(r)} core {i}" for r in BOUNDS for i in range(1, len(r["cores"]) + 1)])
def test_each_core_of_a_certified_bound_is_refuted(record, entry):
    """The records' cheap half, second part: each core is refuted again (no placement of its
    letters on 5x5 holds its pairs), one test a core so that the test processes share them.
    The other half, the relaxation with the cores' cuts refuted above the bound, takes
    minutes: ``tools/check_records.py`` solves it again (the next test holds it to a small
    question), and `found_by` certifies it again."""
    from pysat.solvers import Solver

    from exactgrid.prove.certify import placement_clauses

    base, units = placement_clauses(eg.Question().board, {}, records_tool.record_core(entry))
    with Solver(name="cadical195", bootstrap_with=[*base, *units]) as solver:
        assert solver.solve() is False, entry


def test_a_records_question_is_the_bounds():
    """The tool asks each record's bound of the question ``bound`` answered."""
    question = records_tool.record_question({"awards": ["NOCAL", "M8"]})
    assert "CALIFORNIA" in question.forbidden and len(question.scoring_weights()) == 49  # every state but it
    assert {r.word for r in question.required} == {"MAINE", "MARYLAND", "MASSACHUSETTS", "MICHIGAN", "MINNESOTA",
                                                   "MISSISSIPPI", "MISSOURI", "MONTANA"}
    assert records_tool.record_question({"awards": []}) == eg.Question(optional="all")


def test_the_bound_of_a_records_cores_is_its_bound_and_a_lower_claim_is_caught():
    """What ``tools/check_records.py`` asks of the 5x5 records (minutes each), on a 3x4 question
    whose bound rests on one core: the relaxation with the answer's cores has the answer's bound
    as its optimum, and without them more, so a record claiming less than its cores prove (or
    keeping fewer cores) is caught."""
    from exactgrid.prove.bound import bound
    from exactgrid.prove.cores import bound_of_cores
    from exactgrid.question import build_question

    question = build_question(requirements=["OHIO", "OREGON", "GEORGIA"], optional=["MISSOURI"], shape="3x4",
                              budget=0)
    answer = bound(question, time_limit=None)
    assert answer.status == "bounded" and answer.cores
    assert bound_of_cores(question, answer.cores) == answer.bound
    assert bound_of_cores(question, []) > answer.bound  # the cores are what lowers it
    refuted = question.but(required=(*question.required, *build_question(requirements=["MISSOURI"]).required))
    assert bound_of_cores(refuted, answer.cores) is None
