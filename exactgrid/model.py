"""One backend-neutral boolean model: variables, clauses, linear constraints, an objective.

Literals follow DIMACS: variable ``v`` is the positive integer ``v``, its negation ``-v``.
Everything a requirement can say compiles to this; each backend turns it into its own form
(CNF plus cardinality/pseudo-boolean encodings for SAT solvers, an ILP for MIP solvers, a
CP model for CP-SAT). A linear constraint whose weights are all 1 is a cardinality
constraint; ``at_most_one`` and ``exactly_one`` are the common cases, kept as such so that
each backend can pick its own encoding.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Literal

Comparison = Literal["<=", ">=", "=="]


@dataclass(frozen=True)
class Linear:
    """``sum(weight * lit) <op> bound`` over literals (a true literal counts 1, false 0)."""

    lits: tuple[int, ...]
    weights: tuple[int, ...]
    op: Comparison
    bound: int
    name: str = ""

    def holds(self, true_vars: frozenset[int] | set[int]) -> bool:
        """Whether an assignment (the set of true variables) satisfies the constraint."""
        total = sum(w for w, lit in zip(self.weights, self.lits, strict=True)
                    if (lit > 0) == (abs(lit) in true_vars))
        if self.op == "<=":
            return total <= self.bound
        if self.op == ">=":
            return total >= self.bound
        return total == self.bound


@dataclass
class BoolModel:
    """A satisfaction or optimisation problem over boolean variables."""

    num_vars: int = 0
    clauses: list[tuple[int, ...]] = field(default_factory=list)
    linear: list[Linear] = field(default_factory=list)
    objective: tuple[tuple[int, ...], tuple[int, ...]] | None = None  # (lits, weights): maximise
    names: dict[int, str] = field(default_factory=dict)
    literals: int = 0
    """How many literals the clauses and linear constraints hold together (the model's size)."""

    def new_var(self, name: str = "") -> int:
        """A fresh variable, optionally named (names show up in LP files and debugging)."""
        self.num_vars += 1
        if name:
            self.names[self.num_vars] = name
        return self.num_vars

    def new_vars(self, count: int, prefix: str = "") -> list[int]:
        """``count`` fresh variables named ``prefix[i]``."""
        return [self.new_var(f"{prefix}[{i}]" if prefix else "") for i in range(count)]

    def add_clause(self, lits: Iterable[int]) -> None:
        """At least one of ``lits`` is true. An empty clause makes the model unsatisfiable."""
        clause = tuple(lits)
        for lit in clause:
            if lit == 0 or abs(lit) > self.num_vars:
                raise ValueError(f"literal {lit} is not a variable of this model")
        self.clauses.append(clause)
        self.literals += len(clause)

    def add_linear(self, lits: Sequence[int], weights: Sequence[int] | None, op: Comparison,
                   bound: int, name: str = "") -> None:
        """``sum(weight * lit) <op> bound``; weights default to 1 (a cardinality constraint)."""
        if weights is None:
            weights = [1] * len(lits)
        if len(weights) != len(lits):
            raise ValueError("one weight per literal")
        if op not in ("<=", ">=", "=="):
            raise ValueError(f"unknown comparison {op!r}")
        for lit in lits:
            if lit == 0 or abs(lit) > self.num_vars:
                raise ValueError(f"literal {lit} is not a variable of this model")
        self.linear.append(Linear(tuple(lits), tuple(int(w) for w in weights), op, int(bound), name))
        self.literals += len(lits)

    def at_most_one(self, lits: Sequence[int], name: str = "") -> None:
        """At most one of ``lits`` is true."""
        if len(lits) > 1:
            self.add_linear(lits, None, "<=", 1, name)

    def exactly_one(self, lits: Sequence[int], name: str = "") -> None:
        """Exactly one of ``lits`` is true."""
        self.add_clause(lits)
        self.at_most_one(lits, name)

    def maximise(self, lits: Sequence[int], weights: Sequence[int]) -> None:
        """Set the objective: maximise ``sum(weight * lit)``."""
        self.objective = (tuple(lits), tuple(int(w) for w in weights))

    def satisfied_by(self, true_vars: Iterable[int]) -> bool:
        """Whether an assignment (the set of true variables) satisfies every constraint."""
        true_set = set(true_vars)
        for clause in self.clauses:
            if not any((lit > 0) == (abs(lit) in true_set) for lit in clause):
                return False
        return all(c.holds(true_set) for c in self.linear)

    def objective_value(self, true_vars: Iterable[int]) -> int:
        """The objective's value under an assignment (0 when there is no objective)."""
        if self.objective is None:
            return 0
        true_set = set(true_vars)
        lits, weights = self.objective
        return sum(w for w, lit in zip(weights, lits, strict=True)
                   if (lit > 0) == (abs(lit) in true_set))
