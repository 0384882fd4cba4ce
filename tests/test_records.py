"""The records under instances/records/ are re-checked, not trusted: every grid is re-scored by
the finder and its awards re-run through the checklist."""

import tomllib
from pathlib import Path

import pytest

import exactgrid as eg

RECORDS = Path(__file__).resolve().parents[1] / "instances" / "records"
GRIDS = tomllib.loads((RECORDS / "altered_states_2.toml").read_text())["grids"]
AWARDS = {"20S", "200M", "PA", "M8", "4C", "NOCAL", "C2C"}


@pytest.mark.parametrize("record", GRIDS, ids=[r["grid"] for r in GRIDS])
def test_a_record_grid_scores_what_it_claims(record):
    answer = eg.check(record["grid"])
    assert answer.score.total == record["score"]
    assert len(answer.score.found) == record["states"]
    earned = {r.item.key for r in answer.checklist.items if r.passed} & AWARDS
    assert earned == set(record["awards"]), record["record"]


def test_the_records_are_distinct_and_each_names_its_command():
    assert len({r["grid"] for r in GRIDS}) == len(GRIDS)
    assert all(r["record"] and r["found_by"] for r in GRIDS)
