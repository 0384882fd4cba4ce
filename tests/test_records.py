"""The records under instances/records/ are re-checked, not trusted: every grid is re-scored by
the finder and its awards re-run through the checklist."""

import tomllib
from pathlib import Path

import pytest

import exactgrid as eg

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
    if "missing" in record:  # a near miss: exactly these required states are absent
        found = {scored.match.word for scored in answer.score.found}
        assert REQUIRED - found == set(record["missing"])


def test_the_records_are_distinct_and_each_names_its_command():
    assert len({r["grid"] for r in GRIDS}) == len(GRIDS)
    assert all(r["record"] and r["found_by"] for r in GRIDS)
