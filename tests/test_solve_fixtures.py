"""The best grids ``exactgrid solve`` found in the benchmark (tools/bench_solve.py, README),
as fixtures: their scores and awards, by the finder and the default checklist."""

from __future__ import annotations

import pytest

import exactgrid as eg

FIXTURES = [
    ("ICOADMSNIGWESRLYOEAONRTHC", 264_142_662, {"20S", "200M", "4C", "C2C", "QUALIFY"}),
    ("DNSCHAIOAIVLRUMYKAEWSSNTP", 219_236_135, {"20S", "200M", "PA", "4C", "NOCAL", "C2C", "QUALIFY"}),
    ("DHAEWNCTSEIAONSMLRIAOKMGD", 259_910_578, {"20S", "200M", "C2C", "QUALIFY"}),
    ("YLOMPIRACIGINSHDOSEAMATTE", 234_815_561, {"20S", "200M", "M8", "C2C", "QUALIFY"}),
    ("LMCHCDOISARNSPTIANETLVMWE", 168_747_179, {"20S", "PA", "M8", "4C", "NOCAL", "QUALIFY"}),
    ("WAHIPETSCMNSOLAENIRKIDAGY", 226_372_436, {"20S", "200M", "NOCAL", "QUALIFY"}),
]


@pytest.mark.parametrize(("grid", "total", "awards"), FIXTURES)
def test_benchmark_grids_score_and_earn_what_was_reported(grid: str, total: int, awards: set[str]) -> None:
    result, verdict = eg.check(grid)
    assert result.total == total
    assert {item.key for item in verdict.items if item.passed} == awards
