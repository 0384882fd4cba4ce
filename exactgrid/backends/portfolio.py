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
import time
from collections.abc import Callable, Sequence
from dataclasses import replace

from ..model import BoolModel
from ._child import ChildRace
from .base import Backend, BackendError, BackendFailed, ChildCall, Result, Status

RACE_GRACE_SECONDS = 0.25
"""How long past the time limit a member that keeps no clock of its own may run."""

DEFAULT_MEMBERS = ("kissat", "highs", "cpsat", "cadical")
"""Raced two at a time by plain ``portfolio``: the first two of these available here. Kissat
finds grids fastest; HiGHS's LP relaxation refutes counting-bound questions (4x4_new4_exact) that
every SAT solver and CP-SAT leave undecided (docs/benchmarks.md, Fit)."""


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
        result, _ = race(self.members(), model, time_limit, seed, name=self.name)
        return result


ExtraCall = tuple[ChildCall, Callable[[list[tuple]], bool]]
"""A child call raced beside the members, and when its messages decide the race."""


def race(members: Sequence[Backend], model: BoolModel, time_limit: float | None, seed: int,
         also: Sequence[ExtraCall] = (), name: str | None = None, probe: float = 0.0) -> tuple[Result, ChildRace]:
    """Race ``members`` on ``model`` (member ``i`` with seed ``seed + i``), each in its own child
    process, beside the ``also`` calls (the counting loop, say), all started at once.

    The first member to decide (a grid, or for an objective a proven optimum, or UNSAT)
    answers; an ``also`` call ends the race when its test says its messages decide, but not
    in the first ``probe`` seconds, which are the members' (so that a question they decide at
    once is answered by them however the processes are scheduled), and the result is then
    UNKNOWN (the caller reads the call's messages from the returned race). At
    ``time_limit`` the best solution a member reported is kept (SAT), else UNKNOWN. Every child
    is killed on return. ``name``: the backend named in the result (with the winning member in
    brackets); without it, the single member's own name.

    A member whose solver raises an exception leaves the race and the others go on (the
    result's detail names it); when every member failed, :class:`BackendFailed`. A member
    that refuses the model before it starts (its ``child_call`` raises :class:`BackendError`:
    HiGHS and CBC for weights their floating point cannot hold) is left out the same way, at
    once; when every member refuses, that :class:`BackendError`.
    """
    members, calls, refused = _calls(members, model, time_limit, seed)

    def decides(index: int, messages: list[tuple]) -> bool:
        # a proof decides; so does any grid for a pure decision question, but an unproven
        # optimum (a member out of time) does not stop the others
        status = members[index].read_result(model, messages, True).status
        return status in (Status.OPTIMAL, Status.UNSAT) or (status == Status.SAT and model.objective is None)

    started = time.monotonic()
    probed = started + probe

    def also_decides(index: int) -> bool:
        return children.finished[index] and also[index - len(members)][1](children.messages[index])

    def ends_race(index: int, messages: list[tuple]) -> bool:
        if index >= len(members):
            return time.monotonic() >= probed and also_decides(index)
        return decides(index, messages)

    def no_member_left() -> bool:  # each finished, failed or died: the calls beside them alone decide nothing
        return all(children.finished[j] or children.ended(j) for j in range(len(members)))

    deadline = None if time_limit is None else started + time_limit + RACE_GRACE_SECONDS
    with ChildRace([*calls, *(call for call, _ in also)], ends_race, tolerate_failures=True,
                   over=no_member_left) as children:
        winner = None
        if also and probe > 0:  # the members' probe; after it, an extra call that decided in it wins at once
            winner = children.wait(probed if deadline is None else min(probed, deadline))
            if winner is None:
                winner = children.winner = next(
                    (i for i in range(len(members), len(members) + len(also)) if also_decides(i)), None)
        if winner is None:
            winner = children.wait(deadline)
        running = not all(map(children.ended, range(len(members))))
        deaths = [children.died(i) for i in range(len(members))]
    failures = [(m.name, f) for m, f in zip(members, children.failures) if f is not None]
    if len(failures) == len(members) and winner is None:  # (the call beside them may have decided)
        error = BackendFailed(name or members[0].name, "; ".join(f"{who}: {f.reason}" for who, f in failures)
                              if name else failures[0][1].reason)
        raise error from failures[0][1]
    if winner is not None and winner < len(members) and decides(winner, children.messages[winner]):
        result = members[winner].read_result(model, children.messages[winner], True)
        return replace(result, backend=f"{name}({members[winner].name})" if name else members[winner].name), children
    if winner is not None and winner >= len(members):
        return Result(Status.UNKNOWN, detail="decided beside the solver", backend=name or members[0].name), children
    partial = [m.read_result(model, msgs, done)
               for m, msgs, done, failure in zip(members, children.messages, children.finished, children.failures)
               if failure is None]
    found = [r for r in partial if r.found]
    detail = "; ".join([_why_undecided(members, children, running, deaths), *refused])
    if not found:
        return Result(Status.UNKNOWN, detail=detail, backend=name or members[0].name), children
    objective = model.objective_value
    best = found[0] if model.objective is None else max(found, key=lambda r: objective(r.true_vars or ()))
    return replace(best, status=Status.SAT, backend=name or members[0].name, detail=detail), children


def _calls(members: Sequence[Backend], model: BoolModel, time_limit: float | None,
           seed: int) -> tuple[list[Backend], list[ChildCall], list[str]]:
    """The members that take the model, their child calls (member ``i`` with seed ``seed +
    i``), and why each other member refused it. Every member refusing is that refusal."""
    taking, calls, refusals = [], [], []
    for i, member in enumerate(members):
        try:
            member.accept(model)
            call = member.child_call(model, time_limit, seed + i)
        except BackendError as exc:
            refusals.append((member.name, exc))
            continue
        if call is None:
            raise BackendError("every member of a race must be able to run in a child (child_call)")
        taking.append(member)
        calls.append(call)
    if len(refusals) == 1 and not calls:
        raise refusals[0][1]  # the member's own refusal (a FloatingPointLimit, say)
    if not calls:
        raise BackendError("; ".join(f"{who}: {why}" for who, why in refusals))
    return taking, calls, [f"{who} refused the model: {why}" for who, why in refusals]


def _why_undecided(members: Sequence[Backend], children: ChildRace, running: bool,
                   deaths: Sequence[str | None]) -> str:
    """Why no member decided: the time limit (some member was still running at it, or gave up
    at its own), and every member that failed or whose process died (killed, out of memory)."""
    gave_up = any(children.finished[i] for i in range(len(members)))
    reasons = ["time limit reached"] if running or gave_up else []
    for i, member in enumerate(members):
        if children.failures[i] is not None:
            reasons.append(f"{member.name} failed: {children.failures[i].reason}")
        elif deaths[i] is not None:
            reasons.append(f"{member.name}: {deaths[i]}")
    return "; ".join(reasons) or "no member decided"
