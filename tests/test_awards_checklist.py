"""Checklists: TOML parsing and verdicts (exactgrid.awards.checklist), with their evidence text
(exactgrid.render.item_evidence)."""

from pathlib import Path

import pytest

from exactgrid.awards import (
    QUALIFY_SCORE,
    ChecklistError,
    default_checklist,
    east_coast,
    evaluate,
    load_checklist,
    parse_checklist,
)
from exactgrid.data.us import us_states
from exactgrid.finder import score
from exactgrid.grid import parse_grid
from exactgrid.render import checklist_dict, item_evidence

ROOT = Path(__file__).resolve().parent.parent
SEED_5X5 = "WTIMAENSVFKOALIRCSROENAIN"

# The 18 states of the seed-001 grid (188,652,076), read off its found list.
SEED_5X5_STATES = {
    "CALIFORNIA", "TEXAS", "FLORIDA", "NEWYORK", "ILLINOIS", "OHIO", "VIRGINIA", "ARIZONA", "INDIANA",
    "WISCONSIN", "ALABAMA", "LOUISIANA", "OREGON", "IOWA", "ARKANSAS", "KANSAS", "MAINE", "ALASKA",
}


# ---------------------------------------------------------------- awards on grids


def test_water_borders_decide_the_c2c_award():
    # Michigan's land neighbours are IN, OH, WI; it meets Minnesota only in Lake Superior.
    found = ["NEWYORK", "PENNSYLVANIA", "OHIO", "MICHIGAN", "MINNESOTA", "NORTHDAKOTA", "MONTANA", "IDAHO", "OREGON"]
    land = evaluate(default_checklist(), found)["C2C"]
    wet = evaluate(default_checklist(), found, water_borders=True)["C2C"]
    assert not land.passed and wet.passed
    assert "reach only MICHIGAN, NEWYORK, OHIO, PENNSYLVANIA" in item_evidence(land)
    assert wet.details["chain"][3:5] == ["MICHIGAN", "MINNESOTA"]
    # The land verdict names the chain the other reading allows; the wet one needs no such hint.
    assert land.details["over_water"] == wet.details["chain"]
    assert item_evidence(land).endswith("over water (--water-borders) a chain of 9: " + "-".join(wet.details["chain"]))
    assert "over_water" not in wet.details


def test_seed_5x5_awards_by_hand():
    result = score(parse_grid(SEED_5X5), us_states())
    assert result.words == SEED_5X5_STATES
    verdict = evaluate(default_checklist(), result.words, result.total)
    assert verdict.total == 188_652_076
    assert {r.key: r.passed for r in verdict.items} == {
        "20S": False, "200M": False, "PA": False, "M8": False, "4C": False,
        "NOCAL": False, "C2C": False, "QUALIFY": True,
    }
    assert verdict.failed == ("20S", "200M", "PA", "M8", "4C", "NOCAL", "C2C")
    assert verdict["20S"].details == {"count": 18, "threshold": 20}
    assert verdict["200M"].details["score"] == 188_652_076
    assert "short by 11,347,924" in item_evidence(verdict["200M"])
    assert verdict["M8"].details["missing"] == [
        "MARYLAND", "MASSACHUSETTS", "MICHIGAN", "MINNESOTA", "MISSISSIPPI", "MISSOURI", "MONTANA",
    ]
    assert verdict["4C"].details["missing"] == ["COLORADO", "NEWMEXICO", "UTAH"]
    assert verdict["NOCAL"].details["present"] == ["CALIFORNIA"]
    # By hand: the found east-coast states are FL, ME, NY, VA. FL's only found neighbour is AL
    # (AL's are FL); ME, NY and VA have none. The west part {CA, OR, AZ} is sealed off
    # (NV, ID, WA, UT, NM not found), so there is no chain, with or without water borders.
    c2c = verdict["C2C"]
    assert c2c.details["chain"] is None
    assert c2c.details["sources_found"] == ["FLORIDA", "MAINE", "NEWYORK", "VIRGINIA"]
    assert c2c.details["targets_found"] == ["CALIFORNIA", "OREGON"]
    assert c2c.details["reached"] == ["ALABAMA", "FLORIDA", "MAINE", "NEWYORK", "VIRGINIA"]
    assert c2c.details["over_water"] is None and "over water" not in item_evidence(c2c)
    assert not evaluate(default_checklist(), result.words, water_borders=True)["C2C"].passed


def test_seed_3x3_awards():
    verdict = evaluate(default_checklist(), ["ILLINOIS", "OHIO", "UTAH", "IOWA", "IDAHO"])
    assert verdict.total == 32_913_047
    assert {r.key for r in verdict.items if r.passed} == {"NOCAL"}
    assert item_evidence(verdict["C2C"]).startswith("no chain: no east-coast state found")
    assert verdict["4C"].details["missing"] == ["ARIZONA", "COLORADO", "NEWMEXICO"]


def test_all_fifty_states_pass_everything_but_nocal():
    verdict = evaluate(default_checklist(), us_states().words)
    assert verdict.total == 330_759_736 == 2 * QUALIFY_SCORE
    assert verdict.failed == ("NOCAL",)


def test_qualify_threshold_is_inclusive():
    item = default_checklist().select(["QUALIFY"])
    assert evaluate(item, [], total=QUALIFY_SCORE).passed
    assert not evaluate(item, [], total=QUALIFY_SCORE - 1).passed


# ---------------------------------------------------------------- checklists in TOML


def test_bundled_awards_match_the_instance_file():
    bundled = ROOT / "exactgrid" / "data" / "awards.toml"
    shipped = ROOT / "instances" / "checklists" / "awards.toml"
    assert bundled.read_text() == shipped.read_text()
    assert load_checklist(shipped).keys() == default_checklist().keys()
    assert default_checklist().keys() == ("20S", "200M", "PA", "M8", "4C", "NOCAL", "C2C", "QUALIFY")
    assert default_checklist().water_borders is False


CUSTOM = """
name = "my goals"
water_borders = true

[[items]]
key = "NE"
title = "New England"
required = ["Maine", "NH", "VERMONT", "massachusetts", "RI", "CT"]

[[items]]
key = "NOTX"
forbidden = "TX"

[[items]]
key = "FIVE"
min_states = 5

[[items]]
key = "LAKES"
chain = { from = ["NY"], to = ["MN"] }

[[items]]
key = "LAKES-DRY"
chain = { from = "NY", to = "MN", water = false }
"""


def test_custom_checklist():
    checklist = parse_checklist(CUSTOM, "custom.toml")
    assert checklist.name == "my goals" and checklist.water_borders
    assert checklist.items[0].states == (
        "MAINE", "NEWHAMPSHIRE", "VERMONT", "MASSACHUSETTS", "RHODEISLAND", "CONNECTICUT",
    )
    found = ["NEWYORK", "PENNSYLVANIA", "OHIO", "MICHIGAN", "MINNESOTA", "MAINE"]
    verdict = evaluate(checklist, found)
    assert {r.key: r.passed for r in verdict.items} == {
        "NE": False, "NOTX": True, "FIVE": True, "LAKES": True, "LAKES-DRY": False,
    }
    assert verdict["NE"].details["missing"] == [
        "NEWHAMPSHIRE", "VERMONT", "MASSACHUSETTS", "RHODEISLAND", "CONNECTICUT",
    ]
    assert verdict["LAKES"].details["chain"] == ["NEWYORK", "PENNSYLVANIA", "OHIO", "MICHIGAN", "MINNESOTA"]
    # the caller may override the checklist-wide setting, but not an item's own
    dry = evaluate(checklist, found, water_borders=False)
    assert not dry["LAKES"].passed and not dry["LAKES-DRY"].passed
    # a failed land chain hints at the other reading only where the item leaves it open
    assert dry["LAKES"].details["over_water"] == verdict["LAKES"].details["chain"]
    assert "over_water" not in dry["LAKES-DRY"].details


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[[items]\nkey='A'", r"^bad\.toml: malformed TOML"),
        ("", r"^bad\.toml: needs at least one \[\[items\]\]"),
        ("colour = 1\n[[items]]\nkey='A'\nmin_states=1", r"unknown top-level field colour"),
        ("water_borders = 'yes'\n[[items]]\nkey='A'\nmin_states=1", r"water_borders must be true or false"),
        ("[[items]]\ntitle='x'\nmin_states=1", r"item 1 needs key"),
        ("[[items]]\nkey='A'\nmin_state=1", r"item 1 \(A\) unknown field min_state"),
        ("[[items]]\nkey='A'", r"item 1 \(A\) needs exactly one test .* got 0"),
        ("[[items]]\nkey='A'\nmin_states=1\nmin_score=2", r"got 2 \(min_states, min_score\)"),
        ("[[items]]\nkey='A'\nmin_states='20'", r"min_states must be a whole number"),
        ("[[items]]\nkey='A'\nmin_score=true", r"min_score must be a whole number"),
        ("[[items]]\nkey='A'\nmin_score=-5", r"min_score must be a whole number >= 0"),
        ("[[items]]\nkey='A'\nrequired=5", r"required must be a non-empty list"),
        ("[[items]]\nkey='A'\nrequired=[]", r"required must be a non-empty list"),
        ("[[items]]\nkey='A'\nforbidden=['Narnia']", r"item 1 \(A\) forbidden: unknown state 'Narnia'"),
        ("[[items]]\nkey='A'\nchain=['CA']", r"chain must be a table"),
        ("[[items]]\nkey='A'\nchain={from='NY'}", r"chain needs to"),
        ("[[items]]\nkey='A'\nchain={from='NY', to='CA', via='OH'}", r"chain: unknown field via"),
        ("[[items]]\nkey='A'\nchain={from='NY', to='CA', water=1}", r"chain water must be true or false"),
        ("[[items]]\nkey='A'\nmin_states=1\n[[items]]\nkey='a'\nmin_states=2", r"item key 'a' is used twice"),
        ("items = [1]", r"each entry of items must be a table"),
        # shown in tables and SVG pictures (where U+0001 is not even well-formed XML)
        ('[[items]]\nkey="A\\u0001B"\nmin_states=1', r"item 1 key holds a control character \(U\+0001\)"),
        ('[[items]]\nkey="A"\ntitle="a\\nb"\nmin_states=1', r"item 1 \(A\) title holds a control char.* \(U\+000A\)"),
        ('name="x\\ty"\n[[items]]\nkey="A"\nmin_states=1', r"bad.toml: name holds a control character \(U\+0009\)"),
        ('[[items]]\nkey="A\\uFFFF"\nmin_states=1', r"item 1 key holds a control character \(U\+FFFF\)"),
    ],
)
def test_checklist_errors_are_one_line(text, message):
    with pytest.raises(ChecklistError, match=message) as info:
        parse_checklist(text, "bad.toml")
    assert "\n" not in str(info.value)


def test_load_checklist_missing_file(tmp_path):
    with pytest.raises(ChecklistError, match="checklist .*nope.toml.*: no such file"):
        load_checklist(tmp_path / "nope.toml")


def test_select_unknown_key():
    with pytest.raises(ChecklistError, match="unknown checklist item XYZ"):
        default_checklist().select(["xyz"])
    assert default_checklist().select(["c2c", "PA"]).keys() == ("PA", "C2C")


# ---------------------------------------------------------------- evidence (render) from data


def test_results_are_data_and_render_writes_the_evidence():
    verdict = evaluate(default_checklist(), ["OHIO", "UTAH"])
    item = verdict["20S"]
    assert (item.key, item.title, item.kind) == (item.item.key, item.item.title, "min_states")
    assert not hasattr(item, "evidence")  # prose lives in exactgrid.render
    assert item.details == {"count": 2, "threshold": 20}
    row = checklist_dict(verdict)["items"][0]
    assert list(row) == ["key", "title", "kind", "passed", "evidence", "details"]
    assert row["evidence"] == "2 states found, short of 20 (need 18 more)"


def evidence(found, water_borders=None):
    verdict = evaluate(default_checklist(), found, water_borders=water_borders)
    return {r.key: item_evidence(r) for r in verdict.items}


def test_evidence_when_everything_is_found():
    text = evidence(us_states().words)
    assert text["20S"] == "50 states found, at least 20"
    assert text["200M"] == "score 330,759,736 >= 200,000,000 (margin 130,759,736)"
    assert text["PA"] == "all found: PENNSYLVANIA"
    assert text["4C"] == "all found: ARIZONA, COLORADO, NEWMEXICO, UTAH"
    assert text["NOCAL"] == "found CALIFORNIA"
    assert text["C2C"] == (
        "chain of 7 on land borders: GEORGIA-TENNESSEE-ARKANSAS-OKLAHOMA-NEWMEXICO-ARIZONA-CALIFORNIA"
    )
    assert text["QUALIFY"] == "score 330,759,736 >= 165,379,868 (margin 165,379,868)"


def test_evidence_when_little_is_found():
    text = evidence(["OHIO", "UTAH", "IOWA", "IDAHO", "ILLINOIS"])
    assert text["20S"] == "5 states found, short of 20 (need 15 more)"
    assert text["200M"] == "score 32,913,047 < 200,000,000 (short by 167,086,953)"
    assert text["4C"] == "missing ARIZONA, COLORADO, NEWMEXICO"
    assert text["NOCAL"] == "none found of CALIFORNIA"
    assert text["C2C"] == "no chain: no east-coast state found (any of " + ", ".join(east_coast()) + ")"


def test_evidence_for_each_way_a_chain_fails_or_holds():
    assert evidence(["FL", "GA", "AL"])["C2C"] == (
        "no chain: east-coast states FLORIDA, GEORGIA found, but no west-coast state "
        "(any of CALIFORNIA, OREGON, WASHINGTON)"
    )
    cut = evidence(["CALIFORNIA", "ARIZONA", "COLORADO", "KANSAS", "MISSOURI", "KENTUCKY", "VIRGINIA"])
    assert cut["C2C"] == (
        "no chain on land borders: found east-coast states VIRGINIA reach only COLORADO, KANSAS, KENTUCKY, "
        "MISSOURI, VIRGINIA; found west-coast states CALIFORNIA are cut off"
    )
    wet = evidence(["CA", "AZ", "NM", "OK", "AR", "TN", "GA"], water_borders=True)
    assert wet["C2C"].startswith("chain of 7 on land and water borders: GEORGIA-")
    custom = evaluate(parse_checklist(CUSTOM, "custom.toml"), ["OHIO"])
    assert item_evidence(custom["LAKES"]) == "no chain: no start state found (any of NEWYORK)"
    assert item_evidence(custom["NE"]).startswith("missing MAINE, NEWHAMPSHIRE")
    assert item_evidence(custom["NOTX"]) == "none found of TEXAS"
