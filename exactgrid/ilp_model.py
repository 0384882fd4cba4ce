"""A BoolModel as an integer programme: the PuLP translation shared by LP/MPS export and the MIP backends.

Each model variable is a binary; a clause is ``sum(lit) >= 1`` with a negative literal read as
``1 - x``; a linear constraint keeps its weights; the objective is maximised. PuLP is imported
only when :func:`to_pulp` is called.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from .model import BoolModel


def linear_terms(lits: Sequence[int], weights: Sequence[int]) -> tuple[int, dict[int, int]]:
    """``sum(w * lit)`` over literals as (constant, {variable: coefficient}).

    A negative literal ``-v`` is ``1 - x_v``: it adds ``w`` to the constant and ``-w`` to ``v``.

    >>> linear_terms([1, -2, 1], [3, 5, 1])
    (5, {1: 4, 2: -5})
    """
    const = 0
    coefs: dict[int, int] = {}
    for lit, w in zip(lits, weights, strict=True):
        if lit > 0:
            coefs[lit] = coefs.get(lit, 0) + w
        else:
            const += w
            coefs[-lit] = coefs.get(-lit, 0) - w
    return const, coefs


def var_name(model: BoolModel, v: int) -> str:
    """An LP-safe name for variable ``v``: ``x17`` or ``x17_`` plus its cleaned model name.

    >>> m = BoolModel(); _ = m.new_var("x r1c1=A"); var_name(m, 1)
    'x1_x_r1c1_A'
    """
    name = model.names.get(v, "")
    clean = re.sub(r"[^A-Za-z0-9_]", "_", name)[:40]
    return f"x{v}_{clean}" if clean else f"x{v}"


def to_pulp(model: BoolModel, name: str = "exactgrid") -> tuple[Any, dict[int, Any]]:
    """The model as a ``pulp.LpProblem`` (maximise) and its variables ``{model var: LpVariable}``."""
    import pulp

    prob = pulp.LpProblem(name, pulp.LpMaximize)
    xs = {v: prob.add_variable(var_name(model, v), cat=pulp.LpBinary) for v in range(1, model.num_vars + 1)}

    def expr(lits, weights):
        const, coefs = linear_terms(lits, weights)
        return pulp.lpSum(c * xs[v] for v, c in coefs.items() if c) + const

    for i, clause in enumerate(model.clauses):
        prob += expr(clause, [1] * len(clause)) >= 1, f"c{i}"
    for i, con in enumerate(model.linear):
        lhs = expr(con.lits, con.weights)
        label = f"l{i}_" + re.sub(r"[^A-Za-z0-9_]", "_", con.name)[:40] if con.name else f"l{i}"
        if con.op == "<=":
            prob += lhs <= con.bound, label
        elif con.op == ">=":
            prob += lhs >= con.bound, label
        else:
            prob += lhs == con.bound, label
    if model.objective is not None:
        prob += expr(*model.objective)
    else:
        prob += pulp.lpSum([])
    return prob, xs
