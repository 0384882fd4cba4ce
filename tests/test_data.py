import csv
from collections import Counter
from importlib import resources
from pathlib import Path

import pytest

from exactgrid.data.us import state, us_borders, us_states, us_states_info

REFERENCE = Path(__file__).resolve().parents[1].parent / "shared" / "reference"


def test_fifty_states_sum_to_the_census_total():
    states = us_states()
    assert len(states) == 50
    assert states.total == 330_759_736
    assert states.total // 2 == 165_379_868
    assert states.weight("CALIFORNIA") == 39_538_223
    assert states.weight("WYOMING") == 576_851
    # the three values that a widely copied wrong table gets wrong
    assert states.weight("ILLINOIS") == 12_812_508
    assert states.weight("IOWA") == 3_190_369
    assert states.weight("UTAH") == 3_271_616


def test_regions_and_postal_codes():
    info = us_states_info()
    assert Counter(s.region for s in info) == {"Northeast": 9, "Midwest": 12, "South": 16, "West": 13}
    assert len({s.abbr for s in info}) == 50
    assert state("NY").key == "NEWYORK"
    assert state("new york").abbr == "NY"
    assert sorted(s.key for s in info if s.starts_with_m) == [
        "MAINE", "MARYLAND", "MASSACHUSETTS", "MICHIGAN",
        "MINNESOTA", "MISSISSIPPI", "MISSOURI", "MONTANA",
    ]


def test_borders_105_land_3_water_no_four_corners_points():
    borders = us_borders()
    kinds = Counter(b.kind for b in borders)
    assert kinds == {"land": 105, "water": 3}
    pairs = {frozenset((b.a, b.b)) for b in borders}
    assert len(pairs) == 108
    assert frozenset(("ARIZONA", "COLORADO")) not in pairs
    assert frozenset(("NEWMEXICO", "UTAH")) not in pairs
    assert frozenset(("ARIZONA", "NEWMEXICO")) in pairs
    water = {frozenset((b.a, b.b)) for b in borders if b.kind == "water"}
    assert water == {
        frozenset(("ILLINOIS", "MICHIGAN")),
        frozenset(("MICHIGAN", "MINNESOTA")),
        frozenset(("NEWYORK", "RHODEISLAND")),
    }
    degree = Counter()
    for b in borders:
        if b.kind == "land":
            degree[b.a] += 1
            degree[b.b] += 1
    assert degree["TENNESSEE"] == degree["MISSOURI"] == 8
    assert degree["MAINE"] == 1
    assert "ALASKA" not in degree and "HAWAII" not in degree


def test_coasts():
    info = {s.abbr: s for s in us_states_info()}
    east = {a for a, s in info.items() if s.east_coast}
    assert east == set("ME NH MA RI CT NY NJ DE MD VA NC SC GA FL".split())
    assert {a for a, s in info.items() if s.west_coast} == {"CA", "OR", "WA"}
    assert {a for a, s in info.items() if s.gulf} == {"TX", "LA", "MS", "AL", "FL"}
    assert {a for a, s in info.items() if s.great_lakes} == set("MN WI IL IN MI OH PA NY".split())
    assert not info["PA"].east_coast


@pytest.mark.skipif(not REFERENCE.is_dir(), reason="no shared/reference beside the checkout")
@pytest.mark.parametrize("name", ["states_2020.csv", "borders.csv", "coasts.csv"])
def test_package_data_equals_the_reference(name):
    ours = resources.files("exactgrid").joinpath("data", name).read_text(encoding="utf-8")
    theirs = (REFERENCE / name).read_text(encoding="utf-8")
    assert list(csv.reader(ours.splitlines())) == list(csv.reader(theirs.splitlines()))


def test_tile_map_places_the_48_contiguous_states_once_each():
    from exactgrid.data.us import us_tiles

    tiles = us_tiles()
    keys = {s.key for s in us_states_info()}
    assert len(tiles) == 48 and set(tiles) <= keys
    assert keys - set(tiles) == {"ALASKA", "HAWAII"}
    assert len(set(tiles.values())) == 48  # one square per state
    assert all(0 <= col <= 10 and 0 <= row <= 7 for col, row in tiles.values())
    assert tiles["WASHINGTON"] == (0, 2) and tiles["MAINE"] == (10, 0) and tiles["FLORIDA"] == (8, 7)


def test_tile_map_keeps_90_of_the_105_land_borders_as_touching_tiles():
    # a hand count on the published layout: a mistyped coordinate changes it
    from exactgrid.data.us import us_tiles

    tiles = us_tiles()

    def touching(a: str, b: str) -> bool:
        (c1, r1), (c2, r2) = tiles[a], tiles[b]
        return max(abs(c1 - c2), abs(r1 - r2)) == 1

    apart = sorted(state(b.a).abbr + "-" + state(b.b).abbr for b in us_borders()
                   if b.kind == "land" and not touching(b.a, b.b))
    assert apart == ["AL-FL", "AR-TX", "AZ-NV", "CO-OK", "DE-PA", "GA-TN", "IA-WI", "ID-UT", "IL-KY",
                     "IL-MO", "KY-VA", "MD-WV", "MO-OK", "NM-TX", "TN-VA"]


def test_enable_is_the_reference_dictionary():
    import gzip
    import hashlib

    from exactgrid.data import word_list
    from exactgrid.data.enable import SHA256, enable, enable_text

    text = enable_text()
    assert hashlib.sha256(text).hexdigest() == SHA256 and len(text) == 1_743_363
    words = enable()
    assert word_list("enable") is words and word_list("ENABLE") is words
    assert len(words) == 172_823 and {"RETRIEVES", "RAZZMATAZZES", "KNICKKNACK"} <= set(words)
    assert set(words.weights.values()) == {1}
    reference = REFERENCE / "words" / "enable.txt.gz"
    if reference.exists():
        assert gzip.decompress(reference.read_bytes()) == text
