"""Sum of Squares: the checker, two brute forces, the ILP model, the DP, and their agreement.

The brute forces share nothing with the solvers: n = 2 tries all 10^4 grids with numpy, n = 3
all 8.35 million grids whose columns are multiples of 4, 5 and 6. Backend calls are few (one
CBC solve per n in ``test_both_methods_agree``, each a child process).
"""

from __future__ import annotations

import itertools
import json

import numpy as np
import pytest

from exactgrid.backends import BackendError
from exactgrid.inputs import InputError
from exactgrid.puzzles import sumsquares as ss

EXAMPLE = "16235/52460/04893/24868/47030"  # the puzzle's example, sum 100
BEST_5 = "98999/99998/79899/99896/89890"  # the seed's optimum for n = 5, sum 205


# --------------------------------------------------------------------------- independent brute forces


def brute_force_2() -> tuple[int, np.ndarray]:
    """Every 2x2 grid (10^4): the optimum and a mask of the valid grids, indexed by a*1000+b*100+c*10+d."""
    index = np.arange(10_000)
    a, b, c, d = index // 1000, index // 100 % 10, index // 10 % 10, index % 10
    valid = ((10 * a + b) % 1 == 0) & ((10 * c + d) % 2 == 0) & ((10 * a + c) % 3 == 0) & ((10 * b + d) % 4 == 0)
    sums = a + b + c + d
    return int(sums[valid].max()), valid


def brute_force_3() -> int:
    """Every 3x3 grid whose columns are multiples of 4, 5, 6 (8.35 million): the best valid digit sum."""
    cols = [np.array([[m // 100, m // 10 % 10, m % 10] for m in range(0, 1000, k)]) for k in (4, 5, 6)]
    second, third = cols[1][:, None, :], cols[2][None, :, :]
    best = -1
    for first in cols[0]:
        rows = 100 * first + 10 * second + third  # shape (200, 167, 3): the three row numbers
        valid = (rows[..., 1] % 2 == 0) & (rows[..., 2] % 3 == 0)
        if valid.any():
            sums = first.sum() + second.sum(axis=-1) + third.sum(axis=-1)
            best = max(best, int(sums[valid].max()))
    return best


# --------------------------------------------------------------------------- the checker


@pytest.mark.parametrize("grid, n, total", [
    (EXAMPLE, 5, 100),
    ([16235, 52460, 4893, 24868, 47030], 5, 100),  # the seed's row numbers, 04893 written 4893
    ("1623552460048932486847030", 5, 100),
    (BEST_5, 5, 205),
    ("98/98", 2, 34),
    ([[9, 8], [9, 8]], 2, 34),
    ("8", 1, 8),
])
def test_checker_accepts_the_seed_grids(grid, n, total):
    assert ss.check_grid(grid, n)
    assert ss.violations(grid, n) == []
    assert ss.digit_sum(grid, n) == total
    assert ss.digit_sum(grid) == total


@pytest.mark.parametrize("grid, n, broken", [
    ("16235/52460/04893/24868/47031", 5, ["row 5 = 47031 is not divisible by 5",
                                          "column 5 = 50381 is not divisible by 10"]),
    ("16235/52460/04894/24868/47030", 5, ["row 3 = 4894 is not divisible by 3"]),  # column 5 = 50480 still is
    ("16235/52460/04993/24868/47030", 5, ["row 3 = 4993 is not divisible by 3",
                                          "column 3 = 24980 is not divisible by 8"]),
    ("98999/99998/79899/99896/89891", 5, ["row 5 = 89891 is not divisible by 5",
                                          "column 5 = 98961 is not divisible by 10"]),
    ("98/99", 2, ["row 2 = 99 is not divisible by 2", "column 2 = 89 is not divisible by 4"]),
    ("99/98", 2, ["column 2 = 98 is not divisible by 4"]),
    ("1", 1, ["column 1 = 1 is not divisible by 2"]),
])
def test_checker_rejects_broken_grids(grid, n, broken):
    assert not ss.check_grid(grid, n)
    assert ss.violations(grid, n) == broken


@pytest.mark.parametrize("grid, n", [("98/9", 2), ("9a/98", 2), ("98/98/98", 2), ([100, 2], 2),
                                     ([[9, 8], [9, 10]], 2), ([[9, True], [9, 8]], 2), ("", 1)])
def test_checker_refuses_what_is_not_a_grid(grid, n):
    with pytest.raises(InputError) as info:
        ss.check_grid(grid, n)
    assert "\n" not in str(info.value)


def test_checker_agrees_with_numpy_on_every_2x2_grid():
    _, valid = brute_force_2()
    for index in range(10_000):
        assert ss.check_grid(f"{index:04d}", 2) == bool(valid[index]), f"{index:04d}"


# --------------------------------------------------------------------------- brute force vs both methods


def test_brute_force_optima():
    assert brute_force_2()[0] == 34
    assert brute_force_3() == 72


def test_dp_matches_the_brute_forces():
    for n, optimum in ((2, brute_force_2()[0]), (3, brute_force_3())):
        found = ss.solve_dp(n)
        assert found.proven and found.total == optimum
        assert ss.check_grid(found.grid, n) and ss.digit_sum(found.grid, n) == optimum


@pytest.mark.parametrize("n, optimum", [(1, 8), (2, 34), (3, 72), (4, 132), (5, 205), (6, 300)])
def test_both_methods_agree(n, optimum):
    answer = ss.solve_sum_of_squares(n, method="both", backend="cbc", time_limit=60)
    assert answer.status == "optimal" and answer.total == optimum == answer.bound
    assert answer.how == f"DP and ILP via cbc both prove {optimum}"
    assert ss.check_grid(answer.grid, n) and ss.digit_sum(answer.grid, n) == optimum
    if n == 5:
        assert answer.grid == tuple(BEST_5.split("/"))  # the seed's grid, as it happens


def test_dp_up_to_ten_gives_checked_grids():
    totals = {}
    for n in range(1, 11):
        found = ss.solve_dp(n)
        assert found.proven and ss.check_grid(found.grid, n) and ss.digit_sum(found.grid, n) == found.total
        totals[n] = found.total
    assert totals == {1: 8, 2: 34, 3: 72, 4: 132, 5: 205, 6: 300, 7: 414, 8: 542, 9: 689, 10: 852}


# --------------------------------------------------------------------------- the ILP model


def assignment(built: ss.SumSquaresModel, grid: tuple[tuple[int, ...], ...]) -> set[int]:
    """The model's variables set true by a grid: its digit literals, and each quotient's bits."""
    true = {built.digit_lits[i][j][d - 1] for i, row in enumerate(grid) for j, d in enumerate(row) if d}
    for con in built.model.linear:
        if con.name in dict(built.divisibility):
            k = dict(built.divisibility)[con.name]
            total = sum(w for lit, w in zip(con.lits, con.weights) if w > 0 and lit in true)
            quotient, rest = divmod(total, k)
            bits = [lit for lit, w in zip(con.lits, con.weights) if w < 0]
            true |= {lit for b, lit in enumerate(bits) if rest == 0 and quotient >> b & 1}
    return true


def test_ilp_coefficients_are_reduced_modulo_the_divisor():
    for n in (2, 5, 9):
        built = ss.build_model(n)
        rows = dict(built.divisibility)
        assert len(rows) == 2 * n - 1  # row 1 (divisible by 1) needs no constraint
        for con in built.model.linear:
            if con.name not in rows:
                continue
            k = rows[con.name]
            assert max(con.weights) < k, con.name
            assert con.op == "==" and con.bound == 0
            quotient = [w for w in con.weights if w < 0]
            assert quotient == [-k * 2 ** b for b in range(len(quotient))]


def test_ilp_model_accepts_exactly_the_valid_2x2_grids():
    built = ss.build_model(2)
    _, valid = brute_force_2()
    for index in range(10_000):
        grid = ((index // 1000, index // 100 % 10), (index // 10 % 10, index % 10))
        true = assignment(built, grid)
        assert built.model.satisfied_by(true) == bool(valid[index]), grid
        if valid[index]:
            assert built.model.objective_value(true) == sum(map(sum, grid))
            assert built.grid(true) == grid


def test_ilp_model_accepts_the_seed_grids_and_refuses_a_broken_one():
    built = ss.build_model(5)
    for text, ok in ((EXAMPLE, True), (BEST_5, True), ("16235/52460/04894/24868/47030", False)):
        grid = ss.parse_digits(text, 5)
        assert built.model.satisfied_by(assignment(built, grid)) == ok


# --------------------------------------------------------------------------- answers and errors


def test_answer_dict_and_text():
    answer = ss.solve_sum_of_squares(5, method="dp")
    data = json.loads(json.dumps(answer.to_dict()))
    assert list(data) == ["outcome", "seconds", "stopped_by", "exit_code", "n", "status", "total", "bound", "grid",
                          "method", "backend", "how"]
    assert data["outcome"] == "optimal" and data["exit_code"] == 0 and data["stopped_by"] is None
    assert data["grid"] == BEST_5.split("/") and data["total"] == 205 and data["status"] == "optimal"
    assert data["method"] == "dp" and data["backend"] is None
    lines = answer.text().splitlines()
    assert lines[:5] == [" ".join(row) for row in BEST_5.split("/")]
    assert lines[5] == "sum 205 (optimal)" and lines[6].startswith("how: exact DP")


def test_dp_out_of_time_gives_a_bound_and_no_grid():
    answer = ss.solve_sum_of_squares(5, method="dp", time_limit=0)
    assert answer.status == "none" and answer.grid == () and answer.total is None
    assert answer.bound is not None and answer.bound >= 205
    assert "no grid found" in answer.text()


@pytest.mark.parametrize("n", [0, -1, ss.MAX_N + 1, True, 2.0, "5", None])
def test_bad_n_is_one_line_input_error(n):
    with pytest.raises(ss.SumSquaresInputError) as info:
        ss.solve_sum_of_squares(n)
    assert isinstance(info.value, InputError)
    assert str(info.value) == f"n must be a whole number from 1 to {ss.MAX_N}, got {n!r}"


def test_bad_method_backend_and_time_limit():
    with pytest.raises(InputError, match="method must be one of ilp, dp, both"):
        ss.solve_sum_of_squares(3, method="greedy")
    with pytest.raises(BackendError):
        ss.solve_sum_of_squares(3, method="ilp", backend="no-such-solver")
    with pytest.raises(InputError, match="time limit"):
        ss.solve_sum_of_squares(3, time_limit=-1)


def proven(grid: str, total: int, n: int) -> ss.MethodResult:
    return ss.MethodResult(ss.parse_digits(grid, n), total, True, total, 0.0, "fake")


def test_both_raises_when_the_methods_disagree(monkeypatch):
    monkeypatch.setattr(ss, "solve_ilp", lambda n, *args: proven("96/98", 32, 2))
    with pytest.raises(AssertionError, match="the DP proves 34 but cbc proves 32"):
        ss.solve_sum_of_squares(2, method="both")


def test_both_raises_when_a_bound_is_below_a_grid(monkeypatch):
    unproven = ss.MethodResult((), None, False, 30, 0.0, "fake")
    monkeypatch.setattr(ss, "solve_ilp", lambda n, *args: unproven)
    with pytest.raises(AssertionError, match="bounds the sum by 30, below 34"):
        ss.solve_sum_of_squares(2, method="both")


def test_a_grid_that_breaks_the_rules_is_never_returned(monkeypatch):
    monkeypatch.setattr(ss, "solve_dp", lambda n, *args: proven("99/99", 36, 2))
    with pytest.raises(AssertionError, match="breaks the rules"):
        ss.solve_sum_of_squares(2, method="dp")


def test_row_modulus_keeps_all_that_matters():
    """The DP keeps a row prefix R only modulo i / gcd(i, 10^e): check that against plain arithmetic."""
    for divisor, left in itertools.product(range(1, 13), range(0, 5)):
        m = ss.row_modulus(divisor, left)
        for prefix, other in itertools.product(range(60), range(60)):
            if prefix % m == other % m:
                assert prefix * 10 ** left % divisor == other * 10 ** left % divisor


def test_the_sumsquares_command():
    from click.testing import CliRunner

    from exactgrid.cli import cli

    result = CliRunner().invoke(cli, ["sumsquares", "--n", "5"])
    assert result.exit_code == 0, result.output
    assert "sum 205 (optimal)" in result.output and "both prove 205" in result.output
    data = json.loads(CliRunner().invoke(cli, ["sumsquares", "--n", "3", "--method", "dp", "--json"]).output)
    assert data["total"] == 72 and data["status"] == "optimal" and ss.check_grid(data["grid"], 3)
    for args, needle in ((["--n", "13"], "from 1 to 12"), (["--n", "0"], "from 1 to 12"),
                         (["--n", "x"], "--n"), (["--backend", "nosuch"], "unknown backend"),
                         (["--method", "dp", "--backend", "highs"], "uses no backend")):
        bad = CliRunner().invoke(cli, ["sumsquares", *args])
        assert bad.exit_code == 2 and bad.stderr.count("\n") == 1 and needle in bad.stderr, bad.stderr
