"""The portfolio backend: race several backends, each in its own child process, on the cores.

``portfolio`` races the default pair (see :data:`DEFAULT_MEMBERS`); ``portfolio:a+b+c`` races
the named backends (any registered backend that can run in a child, plugins included). The
first member to decide (a grid, or for an objective a proven optimum, or UNSAT) answers; the
others are killed at once. If the time limit comes
first, the best solution any member reported is kept (SAT), else the answer is UNKNOWN.
Members get seeds ``seed``, ``seed + 1``, ... so that two copies of one solver differ where
the solver takes a seed.
"""

from __future__ import annotations

import os
from dataclasses import replace

from ..model import BoolModel
from ._child import race_in_children
from .base import Backend, BackendError, Result, Status

RACE_GRACE_SECONDS = 0.25
"""How long past the time limit a member that keeps no clock of its own may run."""

DEFAULT_MEMBERS = ("kissat", "highs", "cpsat", "cadical")
"""Raced two at a time by plain ``portfolio``: the first two of these available here. Kissat
finds grids fastest; HiGHS's LP relaxation refutes counting-bound questions (4x4_new4_exact in
12 s) that every SAT solver and CP-SAT leave undecided."""


class Portfolio(Backend):
    """Race backends in child processes; the first to finish answers."""

    name = "portfolio"
    description = "races two backends in child processes (default kissat+highs, else kissat+cpsat)"
    capabilities = frozenset({"decide", "optimise", "prove", "child-process"})

    def __init__(self, members: str | None = None) -> None:
        self._member_names = tuple(members.split("+")) if members else None
        self._members: list[Backend] | None = None
        if members is not None:
            if len(self._member_names) < 2 or not all(self._member_names):
                raise BackendError(f"portfolio:{members}: name two or more backends joined by '+'")
            self.name = f"portfolio:{members}"
            self.members()  # named members: a bad one is reported now, in its own words

    def members(self) -> list[Backend]:
        """The member backends (each available here and able to run in a child), resolved once."""
        if self._members is not None:
            return self._members
        from .registry import backend_names, get_backend

        if self._member_names is not None:
            chosen = [get_backend(name) for name in self._member_names]
        else:
            known = set(backend_names())
            chosen = []
            for name in DEFAULT_MEMBERS:
                if name in known and len(chosen) < 2:
                    try:
                        chosen.append(get_backend(name))
                    except BackendError:
                        continue
        for member in chosen:
            if isinstance(member, Portfolio) or type(member).child_call is Backend.child_call:
                raise BackendError(f"backend {member.name!r} cannot run in a portfolio (no child_call)")
        self._members = chosen
        return chosen

    def available(self) -> bool:
        """Whether two members can be had here."""
        try:
            return len(self.members()) >= 2
        except BackendError:
            return False

    def version(self) -> str | None:
        """The members' names and the cores they share."""
        try:
            return "+".join(m.name for m in self.members()) + f" on {os.cpu_count()} cores"
        except BackendError:
            return None

    def _solve(self, model: BoolModel, time_limit: float | None, seed: int) -> Result:
        members = self.members()
        calls = [m.child_call(model, time_limit, seed + i) for i, m in enumerate(members)]

        def decisive(index: int, messages: list[tuple]) -> bool:
            # a proof decides; so does any grid for a pure decision question, but an unproven
            # optimum (a member out of time) does not stop the others
            status = members[index].read_child(model, messages, True).status
            return status in (Status.OPTIMAL, Status.UNSAT) or (status == Status.SAT and model.objective is None)

        winner, messages, finished = race_in_children(calls, time_limit, RACE_GRACE_SECONDS, decisive)
        if winner is not None:
            result = members[winner].read_child(model, messages[winner], True)
            return replace(result, backend=f"{self.name}({members[winner].name})")
        partial = [m.read_child(model, msgs, done) for m, msgs, done in zip(members, messages, finished)]
        found = [r for r in partial if r.found]
        if not found:
            return Result(Status.UNKNOWN, detail="time limit reached", backend=self.name)
        if model.objective is None:
            best = found[0]
        else:
            best = max(found, key=lambda r: model.objective_value(r.true_vars or ()))
        return replace(best, status=Status.SAT, backend=self.name, detail="time limit reached")
