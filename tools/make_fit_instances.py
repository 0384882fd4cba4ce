"""Write the fit benchmark instances (instances/benchmarks/fit/*.toml).

Run from the repository root: ``python tools/make_fit_instances.py``. The instances are
committed; this script documents where each comes from and can rebuild them.
"""

from __future__ import annotations

from pathlib import Path

from exactgrid.data.us import us_states

OUT = Path(__file__).resolve().parents[1] / "instances" / "benchmarks" / "fit"

STATES = us_states()
BY_POPULATION = sorted(STATES.weights, key=lambda w: -STATES.weight(w))
M8 = [w for w in STATES if w.startswith("M")]
FOUR_CORNERS = ["ARIZONA", "COLORADO", "NEWMEXICO", "UTAH"]
SEED = ["ILLINOIS", "OHIO", "UTAH", "IOWA", "IDAHO"]


def top(n: int) -> list[str]:
    return BY_POPULATION[:n]


INSTANCES: dict[str, dict] = {
    # 3x3: the puzzle's example and its neighbours
    "3x3_seed_five": {"shape": "3x3", "require": SEED},
    "3x3_seed_pinned": {"shape": "3x3", "require": [
        "ILLINOIS=INLINOIS", "OHIO:exact", "UTAH=ATAH", "IOWA=IOHA", "IDAHO=IEAHO"]},
    "3x3_seed_no_ohio": {"shape": "3x3", "require": ["ILLINOIS", "UTAH", "IOWA", "IDAHO"],
                         "forbid": ["OHIO"]},
    "3x3_seed_exact": {"shape": "3x3", "require": [f"{w}:exact" for w in SEED]},
    "3x3_california_exact": {"shape": "3x3", "require": ["CALIFORNIA:exact"]},
    "3x3_top3": {"shape": "3x3", "require": top(3)},
    "3x3_pennsylvania": {"shape": "3x3", "require": ["PENNSYLVANIA"]},
    "3x3_massachusetts_exact": {"shape": "3x3", "require": ["MASSACHUSETTS:exact"]},
    "3x3_seed_simple": {"shape": "3x3", "path": "simple", "require": ["OHIO", "UTAH", "IOWA"]},
    # 4x4
    "4x4_top4": {"shape": "4x4", "require": top(4)},
    "4x4_top5": {"shape": "4x4", "require": top(5)},
    "4x4_top6": {"shape": "4x4", "require": top(6)},
    "4x4_top4_exact": {"shape": "4x4", "require": [f"{w}:exact" for w in top(4)]},
    "4x4_four_corners": {"shape": "4x4", "require": FOUR_CORNERS},
    "4x4_m8": {"shape": "4x4", "require": M8},
    "4x4_short_exact": {"shape": "4x4", "require": [
        "TEXAS:exact", "FLORIDA:exact", "OHIO:exact", "IOWA:exact", "UTAH:exact"]},
    "4x4_newyork_pinned": {"shape": "4x4", "require": ["NEWYORK:4=P", "NEWJERSEY:exact", "OREGON"]},
    "4x4_top3_simple": {"shape": "4x4", "path": "simple", "require": top(3)},
    "4x4_top4_rook": {"shape": "4x4", "moves": "rook", "require": top(4)},
    # 5x5
    "5x5_top5": {"require": top(5)},
    "5x5_top6": {"require": top(6)},
    "5x5_top7": {"require": top(7)},
    "5x5_top8": {"require": top(8)},
    "5x5_top9": {"require": top(9)},
    "5x5_top9_sym": {"require": top(9), "symmetry_breaking": True},
    "5x5_m8": {"require": M8},
    "5x5_m8_pa": {"require": [*M8, "PENNSYLVANIA"]},
    "5x5_four_corners_nocal": {"require": FOUR_CORNERS, "forbid": ["CALIFORNIA"]},
    "5x5_m8_four_corners": {"require": [*M8, *FOUR_CORNERS]},
    "5x5_long_exact": {"require": ["PENNSYLVANIA:exact", "MASSACHUSETTS:exact"]},
    "5x5_long_exact3": {"require": ["PENNSYLVANIA:exact", "MASSACHUSETTS:exact",
                                    "NORTHCAROLINA:exact"]},
    "5x5_top5_rook": {"moves": "rook", "require": top(5)},
    "5x5_top5_simple": {"path": "simple", "require": top(5)},
    "5x5_fixed_cells": {"require": top(5), "cells": ["P.NN.", ".....", "..X..", ".....", "....."]},
    "5x5_top5_no_next5": {"require": top(5), "forbid": BY_POPULATION[5:10]},
    "5x5_exact_top5": {"require": [f"{w}:exact" for w in top(5)]},
}


# Verdicts known without the solver: a witness grid checked by the finder, or a counting proof.
TOP10_GRID = "XPYLVASNAMTINIGWLORHFYACK"  # holds the ten most populous states (see README)
EXPECT = {
    "3x3_seed_five": "fits",  # the puzzle's own grid thoainesl
    "3x3_seed_pinned": "fits",  # thoainesl again
    "3x3_seed_exact": "does not fit",  # needs letters I L N O S H U T A W D: 11 > 9 cells
    "3x3_massachusetts_exact": "does not fit",  # M A S C H U E T plus a second S and T: 10 > 9
    **{f"5x5_top{n}": "fits" for n in range(5, 10)},  # TOP10_GRID
    "5x5_top9_sym": "fits",
}


def to_toml(name: str, fields: dict) -> str:
    lines = [f'name = "{name}"']
    for key, value in fields.items():
        if isinstance(value, bool):
            lines.append(f"{key} = {'true' if value else 'false'}")
        elif isinstance(value, list):
            items = ", ".join(f'"{v}"' for v in value)
            lines.append(f"{key} = [{items}]")
        elif isinstance(value, int):
            lines.append(f"{key} = {value}")
        else:
            lines.append(f'{key} = "{value}"')
    return "\n".join(lines) + "\n"


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for name, fields in INSTANCES.items():
        if name in EXPECT:
            fields = {**fields, "expect": EXPECT[name]}
        (OUT / f"{name}.toml").write_text(to_toml(name, fields), encoding="utf-8")
    print(f"wrote {len(INSTANCES)} instances to {OUT}")


if __name__ == "__main__":
    main()
