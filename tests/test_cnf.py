"""The CNF compilation agrees with direct evaluation, assignment by assignment."""

import itertools
import random

import pytest
from pysat.solvers import Solver

from exactgrid.cnf import BDD_NODE_LIMIT, CnfBuilder, compile_cnf, normalise
from exactgrid.model import BoolModel, Linear


def random_linear(rng: random.Random, n: int) -> Linear:
    size = rng.randint(1, 7)
    lits = tuple(rng.choice([1, -1]) * rng.randint(1, n) for _ in range(size))
    kind = rng.random()
    if kind < 0.4:
        weights = (1,) * size
        bound = rng.randint(-1, size + 1)
    elif kind < 0.7:
        weights = tuple(rng.randint(-5, 9) for _ in range(size))
        bound = rng.randint(-8, sum(abs(w) for w in weights) + 1)
    else:
        weights = tuple(rng.randint(500_000, 40_000_000) for _ in range(size))
        bound = rng.randint(0, sum(weights))
    return Linear(lits, weights, rng.choice(["<=", ">=", "=="]), bound)


@pytest.mark.parametrize("method", ["auto", "bdd", "adder"])
def test_linear_encoding_matches_evaluation(method):
    rng = random.Random(7)
    n = 5
    for _ in range(150):
        con = random_linear(rng, n)
        builder = CnfBuilder(n)
        builder.add_linear(con.lits, con.weights, con.op, con.bound, method)
        with Solver(name="minisat22", bootstrap_with=builder.clauses) as solver:
            for bits in itertools.product([False, True], repeat=n):
                true = {v + 1 for v in range(n) if bits[v]}
                assumptions = [v if v in true else -v for v in range(1, n + 1)]
                assert solver.solve(assumptions=assumptions) == con.holds(true), (con, true, method)


def test_normalise_edge_cases():
    assert normalise([1, 2], [1, 1], "<=", -1) is None
    assert normalise([1, 2], [1, 1], ">=", 0) == []
    assert normalise([1, -1], [3, 3], "==", 3) == []       # x + not x is always 1 (times 3)
    assert normalise([1, -1], [3, 3], "<=", 2) is None
    (con,) = normalise([1, 2, 3], [10, 20, 30], "<=", 35)
    assert con.coefs == (3, 2, 1) and con.bound == 3     # gcd 10, sorted by coefficient


def test_adder_fallback_when_bdd_is_big():
    rng = random.Random(3)
    weights = [rng.randint(1_000_000, 40_000_000) for _ in range(60)]
    builder = CnfBuilder(60)
    builder.add_linear(list(range(1, 61)), weights, "<=", sum(weights) // 2)
    # the fallback keeps the encoding small however the coefficients fall
    assert builder.top - 60 < BDD_NODE_LIMIT


def test_compile_cnf_keeps_model_variables_first():
    m = BoolModel()
    xs = m.new_vars(4)
    m.add_clause([xs[0], xs[1]])
    m.exactly_one(xs)
    m.add_linear(xs, [7, 11, 13, 17], ">=", 20)
    compiled = compile_cnf(m)
    assert compiled.num_model_vars == 4 and compiled.top >= 4
    with Solver(name="cadical195", bootstrap_with=compiled.clauses) as solver:
        assert solver.solve() is False  # one true literal can weigh at most 17
