from pathlib import Path

import pytest

from exactgrid.data.us import us_states
from exactgrid.grid import parse_grid
from exactgrid.question import Requirement, SpecError, build_question, load_instance, parse_requirement
from exactgrid.verify import check_grid

ROOT = Path(__file__).resolve().parents[1]
FIT_DIR = ROOT / "instances" / "benchmarks" / "fit"
TOP10_GRID = "XPYLVASNAMTINIGWLORHFYACK"
# The eight M states, PENNSYLVANIA and the Four Corners states without CALIFORNIA (found by
# tools/anneal_witness.py; every exact backend timed out on the question).
M8_PA_4C_NOCAL_GRID = "PWMUPDESIHTNSACLANOVMIRDL"


def test_requirement_forms():
    states = us_states()
    assert parse_requirement("ILLINOIS", states).mode == "anywhere"
    assert parse_requirement("illinois:exact", states).pattern() == tuple((c, True) for c in "ILLINOIS")
    pinned = parse_requirement("ILLINOIS:2", states)
    assert pinned.position == 2 and pinned.pattern()[1] == ("L", False)  # 1-based, as typed
    assert parse_requirement("ILLINOIS:2=N", states).pattern()[1] == ("N", True)
    assert parse_requirement("ILLINOIS=INLINOIS", states).spelled == "INLINOIS"
    assert parse_requirement("New York", states).word == "NEWYORK"
    assert parse_requirement("NY:exact", states).word == "NEWYORK"


@pytest.mark.parametrize("text,message", [
    ("NARNIA", "unknown word"),
    ("ILLINOIS:9", "position 9 is out of range 1..8"),
    ("ILLINOIS:0", "out of range"),
    ("ILLINOIS:2=L", "not an alteration"),
    ("ILLINOIS=INLINOI", "must have 8 letters"),
    ("ILLINOIS=INNINOIS", "alters 2 letters"),
    ("ILLINOIS:sometimes", "after ':' put exact"),
    ("ILLINOIS=IN1INOIS", "must be letters"),
])
def test_bad_requirements(text, message):
    with pytest.raises(SpecError, match=message):
        parse_requirement(text, us_states())


@pytest.mark.parametrize("text", ["OHIO:exact", "OHIO=OHIA", "OHIO:2"])
def test_a_requirement_refuses_the_text_form_that_normalising_would_run_together(text):
    """``Requirement("OHIO:exact")`` once became the word OHIOEXACT; the text form is read by
    ``parse_requirement`` (and ``Question(required=[...])``), the dataclass takes its parts."""
    with pytest.raises(SpecError, match="text form"):
        Requirement(text)
    assert parse_requirement(text, us_states()).word == "OHIO"


def test_bad_specs():
    with pytest.raises(SpecError, match="required twice"):
        build_question(requirements=["OHIO", "ohio:exact"])
    with pytest.raises(SpecError, match="both required and forbidden"):
        build_question(requirements=["OHIO"], forbid=["OH"])
    with pytest.raises(SpecError, match="cells must be 3 rows of 3 cells"):
        build_question(requirements=["OHIO"], shape="3x3", cells="O.O/...")
    with pytest.raises(SpecError, match="not a letter"):
        build_question(requirements=["OHIO"], shape="3x3", cells="O.O/.5./...")
    with pytest.raises(SpecError, match="needs a budget"):
        build_question(requirements=["OHIO:2"], budget=0)
    with pytest.raises(SpecError, match="rows must be a whole number from 1 to 32"):
        build_question(requirements=["OHIO"], shape="0x5")


def test_instance_files_load_and_bad_ones_fail(tmp_path):
    assert len(list(FIT_DIR.glob("*.toml"))) >= 30
    for path in FIT_DIR.glob("*.toml"):
        instance = load_instance(path)
        spec = instance.question
        assert instance.name == path.stem
        assert spec.required or spec.min_score or spec.min_count
    bad = tmp_path / "bad.toml"
    bad.write_text('require = ["OHIO"\n')
    with pytest.raises(SpecError, match="not valid TOML"):
        load_instance(bad)
    bad.write_text('require = ["OHIO"]\ncolour = "red"\n')
    with pytest.raises(SpecError, match="unknown key"):
        load_instance(bad)
    bad.write_text('require = ["OHIO", 3]\n')
    with pytest.raises(SpecError, match="list of strings"):
        load_instance(bad)


@pytest.mark.parametrize("name,grid", [
    ("3x3_seed_five", "thoainesl"),
    ("3x3_seed_pinned", "thoainesl"),
    *((f"5x5_top{n}", TOP10_GRID) for n in range(5, 11)),
    ("5x5_m8_pa_4c_nocal", M8_PA_4C_NOCAL_GRID),
])
def test_expected_fits_have_known_witnesses(name, grid):
    """The instances marked 'fits' are met by a known grid, checked by the finder alone."""
    instance = load_instance(FIT_DIR / f"{name}.toml")
    spec = instance.question
    assert instance.expect == "fits"
    assert check_grid(spec, parse_grid(grid)).ok


def test_top10_grid_holds_the_ten_most_populous_states():
    states = us_states()
    top10 = sorted(states.weights, key=lambda w: -states.weight(w))[:10]
    spec = build_question(requirements=top10)
    check = check_grid(spec, parse_grid(TOP10_GRID))
    witnesses, full, problems = check.witnesses, check.score, check.problems
    assert problems == () and len(witnesses) == 10
    assert full.total == 229_028_713 and len(full) == 20


def test_contradictory_fixed_cells():
    from exactgrid.geometry import Board
    from exactgrid.question import merge_fixed

    board = Board(3, 3)
    assert merge_fixed(board, {0: "O"}, {0: "O", 4: "H"}) == {0: "O", 4: "H"}
    with pytest.raises(SpecError, match="contradict each other at r1c1: O and P"):
        build_question(requirements=["OHIO"], shape="3x3", cells="P../.../...", fixed={0: "O"})
