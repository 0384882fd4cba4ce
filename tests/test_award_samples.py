"""``tools/award_samples.py``'s free cells, on grids checked by hand."""

from __future__ import annotations

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
