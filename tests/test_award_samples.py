"""``tools/award_samples.py``'s free cells, on grids checked by hand."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from exactgrid import score
from exactgrid.finder import is_found
from exactgrid.grid import parse_grid

from .tools import load_tool

tool = load_tool("award_samples")


# PENNSYLVANIA along row 1, back along row 2, then down: P0 E1 N2 N3 S4 Y9 L8 V7 A6 N5 I10 A11 (or A6)
PENN = "PENNSNAVLYIAQQQQQQQQQQQQQ"


def test_the_free_cells_are_those_no_witness_needs_and_any_letter_keeps_the_states():
    assert tool.required_states(["PA"]) == ("PENNSYLVANIA",)
    free = tool.free_cells(PENN, ("PENNSYLVANIA",))
    assert set(range(12, 25)) <= set(free) <= set(range(11, 25))
    for cell in free:
        for letter in "AZ":
            changed = PENN[:cell] + letter + PENN[cell + 1:]
            assert is_found(parse_grid(changed), "PENNSYLVANIA", 1)
    assert tool.free_cells(PENN, ("PENNSYLVANIA", "TEXAS")) is None
    # UTAH with its A altered (at cell 2, or at 7, also beside T and H): only U, T, H are needed
    assert tool.free_cells("UTXHZ" + "Z" * 20, ("UTAH",)) == tuple(c for c in range(25) if c not in (0, 1, 3))


def test_a_record_grid_of_the_thirteen_leaves_at_most_one_cell_free():
    states = tool.required_states(["PA", "M8", "4C"])
    assert len(states) == 13
    assert len(tool.free_cells("LMCHCDOISARNSPTIANETLVMWE", states)) <= 1


def test_chao_estimate_by_hand():
    # three grids seen in one round each, one in two: 4 + 3 * 3 / (2 * 1)
    assert tool.chao2(Counter({"a": 1, "b": 1, "c": 1, "d": 2})) == 8.5
    # none seen twice: the bias-corrected form, 2 + 2 * 1 / 2
    assert tool.chao2(Counter({"a": 1, "b": 1})) == 3
    # every grid seen in many rounds: nothing unseen is estimated
    assert tool.chao2(Counter({"a": 5, "b": 3})) == 2


def test_fillings_change_only_the_free_cells():
    grid = "A" * 25
    both = tool.fillings(grid, (3, 7))
    assert len(both) == len(set(both)) == 26 * 26
    assert all(g[:3] + g[4:7] + g[8:] == "A" * 23 for g in both)
    one_at_a_time = tool.fillings(grid, (0, 1, 2))
    assert len(one_at_a_time) == 3 * 26
    assert all(sum(c != "A" for c in g) <= 1 for g in one_at_a_time)


def test_the_best_filling_of_utah_adds_ohio():
    # One O beside UTAH's H (cell 3) spells OHIO with its I altered, e.g. O4 H3 I*8 O4; no one
    # letter adds more than Ohio's 11,799,448 to this grid.
    grid = "UTAHZ" + "Z" * 20
    free = tool.free_cells(grid, ("UTAH",))
    best = tool.best_filling(grid, free)
    changed = [cell for cell in range(25) if best.letters[cell] != grid[cell]]
    assert len(changed) == 1 and changed[0] in (4, 7, 8, 9) and best.letters[changed[0]] == "O"
    assert score(best.letters).words == {"UTAH", "OHIO"}
    assert best.score == 3_271_616 + 11_799_448
    assert best.seven == ("NOCAL",)


SAMPLES = Path(__file__).resolve().parent.parent / "instances" / "samples"


def test_the_kept_samples_hold_the_thirteen_and_share_what_the_benchmarks_say():
    first, second = SAMPLES / "thirteen_seed7000.txt", SAMPLES / "thirteen_seed9000.txt"
    states = tool.required_states(["PA", "M8", "4C"])
    for path in (first, second):
        for line in path.read_text().splitlines():
            letters, _seed, *free = line.split()
            assert tool.free_cells(letters, states) == tuple(map(int, free)), line  # the finder's witnesses
    a, b = tool.read_sample(first), tool.read_sample(second)
    assert (len(a), len(b), len(a & b), len(a | b), round(tool.chapman(a, b))) == (228, 189, 123, 294, 350)
    a, b = tool.read_sample(first, ignore_free=True), tool.read_sample(second, ignore_free=True)
    assert (len(a), len(b), len(a & b), round(tool.chapman(a, b))) == (225, 187, 123, 342)


def test_chapman_by_hand():
    # 10 and 10 seen, 5 in both: 11 * 11 / 6 - 1
    assert tool.chapman(set("abcdefghij"), set("fghijklmno")) == 11 * 11 / 6 - 1
