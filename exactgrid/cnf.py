"""Compile a :class:`~exactgrid.model.BoolModel` to CNF for SAT solvers.

Every linear constraint is first normalised to ``sum(a_i * l_i) <= K`` with positive ``a_i``
(a ``>=`` flips to ``<=`` over the negated literals, ``==`` becomes both, repeated or
complementary literals are merged, coefficients above ``K`` force their literal false, and
the coefficients are divided by their gcd). Then:

* **Cardinality** (all coefficients equal after normalisation), through ``pysat.card``:
  at-most-one over <= 5 literals is *pairwise* (no auxiliaries, at most 10 binary clauses);
  longer at-most-ones use the *sequential counter* (Sinz: 3n clauses, n auxiliaries), whose
  clauses are short and which propagates as well as pairwise (arc-consistent). ``<= k`` for
  k > 1 uses the *totalizer* (arc-consistent, O(n log n) auxiliaries); our sets are small
  (<= 50 states, <= 25 cells), where its O(n*k) clauses are harmless.

* **Weighted sums** (populations up to ~40 million): ``pysat.pb`` in python-sat 1.9.dev17
  cannot even be imported without the optional ``pindakaas`` package. ``pip install
  pindakaas`` does install a wheel here and works, but its default ("best") chose a
  totalizer-like encoding far slower and larger than ours (docs/benchmarks.md, Fit: Encodings),
  and it is one more binary dependency. So we encode ourselves, with a **BDD with interval
  reduction** (Abío, Nieuwenhuis, Oliveras, Rodríguez-Carbonell, "BDDs for pseudo-Boolean
  constraints — revisited", SAT 2011): nodes ``(i, K)`` meaning "the suffix from literal i
  sums to at most K" are shared whenever their K fall in the same interval of equivalent
  right-hand sides, so large coefficients cost nothing by themselves; with the two clauses
  per node used here the encoding is arc-consistent (unit propagation detects every forced
  literal). BDDs can blow up for unlucky coefficients, so past ``BDD_NODE_LIMIT`` nodes we
  fall back to a **binary adder network** (Eén & Sörensson, "Translating pseudo-Boolean
  constraints into SAT", 2006: full/half adders bucketed by bit position, then a
  lexicographic comparison with K), which is O(n log W) but not arc-consistent.
  All 50 state populations under a tight bound make the BDD blow up where the adder stays
  small (sizes and times: docs/benchmarks.md, Fit: Encodings); with the limit, "auto" gives
  up on the BDD early and uses the adder. Small score constraints (a few states) stay BDDs.

Objectives are handled by the SAT backends with linear SAT-UNSAT search: solve, then add
``objective >= best + 1`` (one more BDD) to the same incremental solver, until UNSAT.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass
from math import gcd

from .model import BoolModel
from .stopping import pysat_leaves_sigint_to_python

BDD_NODE_LIMIT = 20_000
"""Above this many BDD nodes for one constraint, use the adder network instead."""

AT_MOST_ONE_PAIRWISE_MAX = 5
"""At-most-one over at most this many literals is encoded pairwise; longer ones by sequential counter."""


@dataclass(frozen=True)
class LeqConstraint:
    """``sum(coefs[i] * lits[i]) <= bound`` with every coefficient positive and at most ``bound``."""

    lits: tuple[int, ...]
    coefs: tuple[int, ...]
    bound: int


def normalise(lits: Sequence[int], weights: Sequence[int], op: str, bound: int) -> list[LeqConstraint] | None:
    """Rewrite ``sum(w*l) <op> bound`` as ``<=`` constraints over positive coefficients.

    Returns ``None`` when the constraint can never hold, otherwise a list of constraints
    (empty when it always holds). Literals whose coefficient exceeds the bound come back as
    one-literal constraints with bound 0 (the literal must be false).
    """
    if op == "==":
        first = normalise(lits, weights, "<=", bound)
        second = normalise(lits, weights, ">=", bound)
        if first is None or second is None:
            return None
        return first + second
    if op not in ("<=", ">="):
        raise ValueError(f"unknown comparison {op!r}")
    sign = 1 if op == "<=" else -1
    # sum(sign*w*l) <= sign*bound, then merge per variable: coef * x with x the variable.
    per_var: dict[int, int] = {}
    rhs = sign * bound
    for lit, w in zip(lits, weights, strict=True):
        c = sign * w
        if lit > 0:
            per_var[lit] = per_var.get(lit, 0) + c
        else:  # c * (1 - x)
            rhs -= c
            per_var[-lit] = per_var.get(-lit, 0) - c
    terms: list[tuple[int, int]] = []
    for var, c in per_var.items():
        if c > 0:
            terms.append((var, c))
        elif c < 0:  # c*x = c - c*(1-x) = c + |c| * not x
            rhs -= c
            terms.append((-var, -c))
    if rhs < 0:
        return None
    forced = [LeqConstraint((lit,), (1,), 0) for lit, c in terms if c > rhs]
    terms = [(lit, c) for lit, c in terms if c <= rhs]
    if sum(c for _, c in terms) <= rhs:
        return forced
    g = 0
    for _, c in terms:
        g = gcd(g, c)
    terms.sort(key=lambda t: -t[1])
    return forced + [LeqConstraint(tuple(lit for lit, _ in terms), tuple(c // g for _, c in terms), rhs // g)]


class CnfBuilder:
    """Collects clauses over the model's variables plus fresh auxiliaries numbered above them."""

    def __init__(self, top: int) -> None:
        self.top = top
        self.clauses: list[list[int]] = []

    def new_var(self) -> int:
        """A fresh auxiliary variable."""
        self.top += 1
        return self.top

    def add_linear(self, lits: Sequence[int], weights: Sequence[int], op: str, bound: int,
                   method: str = "auto") -> list[list[int]]:
        """Encode ``sum(w*l) <op> bound``; return (and keep) the clauses added.

        ``method`` is ``"auto"`` (cardinality encodings for equal coefficients, else BDD with
        the adder fallback), ``"bdd"`` or ``"adder"`` (forced, for testing).
        """
        start = len(self.clauses)
        parts = normalise(lits, weights, op, bound)
        if parts is None:
            self.clauses.append([])
        else:
            for part in parts:
                self._leq(part, method)
        return self.clauses[start:]

    def _leq(self, con: LeqConstraint, method: str) -> None:
        if con.bound == 0:
            self.clauses.extend([-lit] for lit in con.lits)
            return
        if method == "auto" and all(c == con.coefs[0] for c in con.coefs):
            self._cardinality(list(con.lits), con.bound // con.coefs[0])
            return
        if method in ("auto", "bdd"):
            saved = (self.top, len(self.clauses))
            if self._bdd(con, BDD_NODE_LIMIT if method == "auto" else None):
                return
            self.top, n = saved
            del self.clauses[n:]
        self._adder(con)

    def _cardinality(self, lits: list[int], k: int) -> None:
        from pysat.card import CardEnc, EncType

        if k == 1 and len(lits) <= AT_MOST_ONE_PAIRWISE_MAX:
            encoding = EncType.pairwise
        elif k == 1:
            encoding = EncType.seqcounter
        else:
            encoding = EncType.totalizer
        with pysat_leaves_sigint_to_python():  # a Ctrl-C must not longjmp out of the C encoder
            enc = CardEnc.atmost(lits=lits, bound=k, top_id=self.top, encoding=encoding)
        self.top = max(self.top, enc.nv)
        self.clauses.extend(list(c) for c in enc.clauses)

    def _bdd(self, con: LeqConstraint, node_limit: int | None) -> bool:
        """BDD with interval reduction; False if it would exceed ``node_limit`` nodes."""
        lits, coefs, n = con.lits, con.coefs, len(con.lits)
        suffix = [0] * (n + 1)
        for i in range(n - 1, -1, -1):
            suffix[i] = suffix[i + 1] + coefs[i]
        # per level: disjoint intervals (lo, hi, node) sorted by lo, node True, False or a literal
        levels: list[list[tuple[int, int, object]]] = [[] for _ in range(n + 1)]
        los: list[list[int]] = [[] for _ in range(n + 1)]
        big = suffix[0] + 1
        count = 0

        def build(i: int, k: int) -> tuple[int, int, object]:
            nonlocal count
            if k < 0:
                return (-big, -1, False)
            if suffix[i] <= k:
                return (suffix[i], big, True)
            at = bisect_right(los[i], k) - 1
            if at >= 0 and levels[i][at][1] >= k:
                return levels[i][at]
            lo0, hi0, f = build(i + 1, k)
            lo1, hi1, t = build(i + 1, k - coefs[i])
            lo, hi = max(lo0, lo1 + coefs[i]), min(hi0, hi1 + coefs[i])
            if (lo0, hi0) == (lo1, hi1):
                node = f
            else:
                count += 1
                if node_limit is not None and count > node_limit:
                    raise _TooBig
                node = self._bdd_node(lits[i], f, t)
            entry = (lo, hi, node)
            at = bisect_right(los[i], lo)
            los[i].insert(at, lo)
            levels[i].insert(at, entry)
            return entry

        import sys

        old = sys.getrecursionlimit()
        sys.setrecursionlimit(max(old, 4 * n + 100))
        try:
            _, _, root = build(0, con.bound)
        except _TooBig:
            return False
        finally:
            sys.setrecursionlimit(old)
        if root is False:
            self.clauses.append([])
        elif root is not True:
            self.clauses.append([root])
        return True

    def _bdd_node(self, x: int, f: object, t: object) -> int:
        """A new BDD node on literal ``x``: node -> (else-branch ``f`` holds); node and x ->
        (then-branch ``t`` holds). Branches are True, False or a node's literal."""
        node = self.new_var()
        if f is False:
            self.clauses.append([-node])
        elif f is not True:
            self.clauses.append([-node, f])  # type: ignore[list-item]
        if t is False:
            self.clauses.append([-node, -x])
        elif t is not True:
            self.clauses.append([-node, -x, t])  # type: ignore[list-item]
        return node

    def _adder(self, con: LeqConstraint) -> None:
        """Binary adder network for ``sum <= bound`` (Eén–Sörensson)."""
        buckets: list[list[int]] = []
        for lit, c in zip(con.lits, con.coefs):
            bit = 0
            while c:
                if c & 1:
                    while len(buckets) <= bit:
                        buckets.append([])
                    buckets[bit].append(lit)
                c >>= 1
                bit += 1
        out: list[int] = []
        i = 0
        while i < len(buckets):
            bucket = buckets[i]
            while len(bucket) >= 2:
                if len(bucket) >= 3:
                    a, b, c = bucket.pop(0), bucket.pop(0), bucket.pop(0)
                    s, carry = self._full_adder(a, b, c)
                else:
                    a, b = bucket.pop(0), bucket.pop(0)
                    s, carry = self._half_adder(a, b)
                bucket.append(s)
                if len(buckets) <= i + 1:
                    buckets.append([])
                buckets[i + 1].append(carry)
            out.append(bucket[0] if bucket else 0)  # 0: constant false bit
            i += 1
        # sum bits out[0..m]; forbid every way of exceeding the bound.
        k = con.bound
        width = max(len(out), k.bit_length())
        kbits = [(k >> j) & 1 for j in range(width)]
        for j in range(len(out)):
            if kbits[j] == 1 or out[j] == 0:
                continue
            clause = [-out[j]]
            for h in range(j + 1, len(out)):
                if kbits[h] == 1:
                    if out[h] == 0:
                        clause = None
                        break
                    clause.append(-out[h])
            if clause is not None:
                self.clauses.append(clause)

    def _half_adder(self, a: int, b: int) -> tuple[int, int]:
        s, c = self.new_var(), self.new_var()
        self.clauses += [[-a, -b, c], [a, -c], [b, -c],
                         [-a, b, s], [a, -b, s], [a, b, -s], [-a, -b, -s]]
        return s, c

    def _full_adder(self, a: int, b: int, x: int) -> tuple[int, int]:
        s, c = self.new_var(), self.new_var()
        cl = self.clauses
        # carry = majority(a, b, x)
        cl += [[-a, -b, c], [-a, -x, c], [-b, -x, c], [a, b, -c], [a, x, -c], [b, x, -c]]
        # sum = a xor b xor x
        cl += [[-a, -b, -x, s], [-a, b, x, s], [a, -b, x, s], [a, b, -x, s],
               [a, b, x, -s], [a, -b, -x, -s], [-a, b, -x, -s], [-a, -b, x, -s]]
        return s, c


class _TooBig(Exception):
    pass


@dataclass
class CompiledCnf:
    """A model as CNF: ``clauses`` over variables ``1..top``; ``1..num_model_vars`` are the model's."""

    clauses: list[list[int]]
    top: int
    num_model_vars: int
    builder: CnfBuilder


def compile_cnf(model: BoolModel, method: str = "auto") -> CompiledCnf:
    """Compile the model's clauses and linear constraints (not its objective) to CNF.

    The returned ``builder`` can encode further constraints (e.g. ``objective >= v``) with
    fresh auxiliaries above ``top``. ``method`` as in :meth:`CnfBuilder.add_linear`.

    >>> m = BoolModel(); a, b = m.new_vars(2); m.add_linear([a, b], [3, 5], ">=", 4)
    >>> compile_cnf(m).clauses
    [[2]]
    """
    builder = CnfBuilder(model.num_vars)
    builder.clauses.extend(list(c) for c in model.clauses)
    for con in model.linear:
        builder.add_linear(con.lits, con.weights, con.op, con.bound, method)
    return CompiledCnf(builder.clauses, builder.top, model.num_vars, builder)
