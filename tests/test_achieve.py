from pathlib import Path

import pytest

from exactgrid.achieve import (
    QUALIFY_SCORE,
    ChecklistError,
    border_graph,
    default_checklist,
    east_coast,
    evaluate,
    find_chain,
    is_chain,
    load_checklist,
    parse_checklist,
    resolve_states,
    west_coast,
)
from exactgrid.data.us import us_states
from exactgrid.finder import score
from exactgrid.grid import parse_grid

ROOT = Path(__file__).resolve().parent.parent
SEED_5X5 = "WTIMAENSVFKOALIRCSROENAIN"

# The 18 states of the seed-001 grid (188,652,076), read off its found list.
SEED_5X5_STATES = {
    "CALIFORNIA", "TEXAS", "FLORIDA", "NEWYORK", "ILLINOIS", "OHIO", "VIRGINIA", "ARIZONA", "INDIANA",
    "WISCONSIN", "ALABAMA", "LOUISIANA", "OREGON", "IOWA", "ARKANSAS", "KANSAS", "MAINE", "ALASKA",
}


# ---------------------------------------------------------------- graph and groups


def test_border_graph_land_and_water():
    land, water = border_graph(), border_graph(water=True)
    assert (land.number_of_nodes(), land.number_of_edges()) == (50, 105)
    assert water.number_of_edges() == 108
    assert not land.has_edge("ARIZONA", "COLORADO")
    assert not water.has_edge("NEWMEXICO", "UTAH")
    assert not land.has_edge("ILLINOIS", "MICHIGAN") and water.has_edge("ILLINOIS", "MICHIGAN")
    assert land.degree("TENNESSEE") == 8 and land.degree("MAINE") == 1


def test_coasts():
    assert west_coast() == ("CALIFORNIA", "OREGON", "WASHINGTON")
    assert len(east_coast()) == 14
    assert {"FLORIDA", "MAINE", "GEORGIA", "VIRGINIA"} <= set(east_coast())
    assert "PENNSYLVANIA" not in east_coast() and "VERMONT" not in east_coast()


def test_resolve_states_accepts_names_codes_and_groups():
    assert resolve_states(["New York", "pa", "NEWJERSEY", "NY"]) == ("NEWYORK", "PENNSYLVANIA", "NEWJERSEY")
    assert resolve_states(["@west_coast"]) == ("CALIFORNIA", "OREGON", "WASHINGTON")
    with pytest.raises(ChecklistError, match="unknown state 'Narnia'"):
        resolve_states(["Narnia"])
    with pytest.raises(ChecklistError, match="unknown state group"):
        resolve_states(["@north_coast"])


# ---------------------------------------------------------------- chains on given sets


def test_reference_chains_are_valid_on_land():
    assert is_chain("CALIFORNIA NEVADA UTAH COLORADO NEBRASKA IOWA ILLINOIS INDIANA KENTUCKY VIRGINIA".split())
    assert is_chain("FLORIDA ALABAMA MISSISSIPPI ARKANSAS MISSOURI KANSAS COLORADO UTAH IDAHO OREGON".split())
    assert is_chain(["CA", "AZ", "NM", "OK", "AR", "TN", "GA"])
    assert not is_chain(["CALIFORNIA", "ARIZONA", "COLORADO", "KANSAS"])  # AZ-CO is a point
    assert not is_chain(["MICHIGAN", "MINNESOTA"]) and is_chain(["MICHIGAN", "MINNESOTA"], water=True)
    assert not is_chain(["OHIO", "PENNSYLVANIA", "OHIO"])  # no repeats


def test_shortest_chain_within_the_reference_chain_skips_indiana():
    # Illinois borders Kentucky (Ohio River), so Indiana is not needed; every other step is forced:
    # VA's only found neighbour is KY, CA's is NV, NV's UT, UT's CO, CO's NE, NE's IA, IA's IL.
    found = "CALIFORNIA NEVADA UTAH COLORADO NEBRASKA IOWA ILLINOIS INDIANA KENTUCKY VIRGINIA".split()
    search = find_chain(found)
    assert search.chain == (
        "VIRGINIA", "KENTUCKY", "ILLINOIS", "IOWA", "NEBRASKA", "COLORADO", "UTAH", "NEVADA", "CALIFORNIA",
    )


def test_seven_state_chain_reported_east_to_west():
    found = ["CA", "AZ", "NM", "OK", "AR", "TN", "GA"]
    assert find_chain(found).chain == (
        "GEORGIA", "TENNESSEE", "ARKANSAS", "OKLAHOMA", "NEWMEXICO", "ARIZONA", "CALIFORNIA",
    )


def test_shortest_land_chain_over_all_states_has_seven():
    chain = find_chain(us_states().words).chain
    assert chain is not None and len(chain) == 7
    assert chain[0] in east_coast() and chain[-1] in west_coast()
    assert is_chain(chain)


def test_tie_break_is_alphabetical_first_chain():
    # NC and GA both start 7-state chains (NC-TN, GA-TN); at AR both OK and TX lead on to NM.
    found = ["CA", "AZ", "NM", "OK", "TX", "AR", "TN", "GA", "NC"]
    assert find_chain(found).chain == (
        "GEORGIA", "TENNESSEE", "ARKANSAS", "OKLAHOMA", "NEWMEXICO", "ARIZONA", "CALIFORNIA",
    )
    assert find_chain(list(reversed(found))).chain == find_chain(found).chain


def test_arizona_colorado_point_contact_gives_no_chain():
    # West part {CA, AZ} meets the east part {CO, KS, MO, KY, VA} only at the Four Corners point.
    found = ["CALIFORNIA", "ARIZONA", "COLORADO", "KANSAS", "MISSOURI", "KENTUCKY", "VIRGINIA"]
    for water in (False, True):
        search = find_chain(found, water=water)
        assert search.chain is None
        assert search.reached == ("COLORADO", "KANSAS", "KENTUCKY", "MISSOURI", "VIRGINIA")
    # Either Utah or New Mexico closes the gap through a real border.
    assert find_chain([*found, "UTAH"]).chain == (
        "VIRGINIA", "KENTUCKY", "MISSOURI", "KANSAS", "COLORADO", "UTAH", "ARIZONA", "CALIFORNIA",
    )
    assert find_chain([*found, "NEWMEXICO"]).chain[4:6] == ("COLORADO", "NEWMEXICO")


def test_water_borders_open_a_chain_through_michigan():
    # Michigan's land neighbours are IN, OH, WI; it meets Minnesota only in Lake Superior.
    found = ["NEWYORK", "PENNSYLVANIA", "OHIO", "MICHIGAN", "MINNESOTA", "NORTHDAKOTA", "MONTANA", "IDAHO", "OREGON"]
    assert find_chain(found).chain is None
    assert find_chain(found, water=True).chain == (
        "NEWYORK", "PENNSYLVANIA", "OHIO", "MICHIGAN", "MINNESOTA", "NORTHDAKOTA", "MONTANA", "IDAHO", "OREGON",
    )
    land = evaluate(default_checklist(), found)["C2C"]
    wet = evaluate(default_checklist(), found, water_borders=True)["C2C"]
    assert not land.passed and wet.passed
    assert "reach only MICHIGAN, NEWYORK, OHIO, PENNSYLVANIA" in land.evidence
    assert wet.details["chain"][3:5] == ["MICHIGAN", "MINNESOTA"]


def test_custom_chain_endpoints_and_single_state_chain():
    assert find_chain(["OHIO"], sources=["OH"], targets=["Ohio"]).chain == ("OHIO",)
    assert find_chain(["TEXAS", "OKLAHOMA", "KANSAS"], sources=["TX"], targets=["KS"]).chain == (
        "TEXAS", "OKLAHOMA", "KANSAS",
    )


# ---------------------------------------------------------------- awards on grids


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
    assert "short by 11,347,924" in verdict["200M"].evidence
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
    assert not evaluate(default_checklist(), result.words, water_borders=True)["C2C"].passed


def test_seed_3x3_awards():
    verdict = evaluate(default_checklist(), ["ILLINOIS", "OHIO", "UTAH", "IOWA", "IDAHO"])
    assert verdict.total == 32_913_047
    assert {r.key for r in verdict.items if r.passed} == {"NOCAL"}
    assert verdict["C2C"].evidence.startswith("no chain: no east-coast state found")
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
