"""Every DRUP proof checked twice, by two checkers that share no code: exactgrid's own
(:mod:`.drup`) and dratify's (a forward checker differentially tested against drat-trim; asked
for RUP only, as the proofs are DRUP). Both honour the proof's deletions. A proof
is accepted only when both accept it; when one accepts and the other rejects, that is a bug in
one of them, said loudly in the reason, never an acceptance.

Both get the same deadline (a ``time.monotonic()`` value) and check the clock as they go. A
long proof (:data:`PARALLEL_FROM_LEMMAS` lemmas or more, with a second CPU to use) is checked by
both at once: dratify in a child process (:mod:`exactgrid.backends._child`, killed whatever
happens, Ctrl-C included) while exactgrid's checker runs here, so the check takes about as long
as the slower of the two rather than their sum. A short proof is checked by one then the other
in this process: a child's start (about 0.07 s) would cost more than it saves.

>>> check_twice([[1, 2], [-1, 2], [1, -2], [-1, -2]], ["2 0", "0"]).valid
True
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from functools import cache
from typing import Any

from ..backends._child import GRACE_SECONDS, ChildRace
from ..inputs import usable_cores
from .drup import check_drup, compiled_available

PARALLEL_FROM_LEMMAS = 1000
"""Proofs of at least this many lemmas (deletions not counted) are checked by both checkers at
once (measured, docs/benchmarks.md: a child costs about 0.07 s; exactgrid's checker takes about
0.5-1 ms a lemma and dratify about a third of that, so from a thousand lemmas on, running them
side by side saves more than the child costs, when a core is free)."""

CLOCK_EVERY = 256
"""dratify's steps between two looks at the clock (as :func:`.drup.check_drup` does)."""


@dataclass(frozen=True)
class CheckerRun:
    """One checker's verdict on a proof (or on several, :func:`tally`-ed): ``accepted`` when
    every step was verified and the empty clause derived."""

    checker: str
    """The checker and its version: ``exactgrid.prove.drup 0.1.0``, ``dratify 0.1.10``."""
    accepted: bool
    seconds: float
    finished: bool = True
    """False when the time limit came before the checker reached a verdict."""
    reason: str = ""
    """Why it did not accept (empty when it did)."""

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: checker, accepted, finished, seconds, reason."""
        return {"checker": self.checker, "accepted": self.accepted, "finished": self.finished,
                "seconds": round(self.seconds, 3), "reason": self.reason}

    def text(self) -> str:
        """``dratify 0.1.10 0.42 s``."""
        return f"{self.checker} {self.seconds:.2f} s"


@dataclass(frozen=True)
class DoubleCheck:
    """Both checkers' verdicts on one proof; valid only when both accepted it."""

    runs: tuple[CheckerRun, ...]
    lemmas: int
    """Lemmas (added clauses) exactgrid's checker read."""

    @property
    def valid(self) -> bool:
        """Whether every checker accepted the proof."""
        return bool(self.runs) and all(run.accepted for run in self.runs)

    @property
    def disagree(self) -> bool:
        """Whether both checkers finished and one accepted what the other rejected."""
        return bool(disagreement(self.runs))

    @property
    def reason(self) -> str:
        """Why the proof is not accepted (empty when it is): a disagreement, else each rejecting
        checker's reason."""
        return disagreement(self.runs) or "; ".join(f"{run.checker}: {run.reason}" for run in self.runs
                                                    if not run.accepted)


def disagreement(runs: Sequence[CheckerRun]) -> str:
    """The loud reason when finished checkers gave different verdicts, else empty."""
    if not all(run.finished for run in runs) or len({run.accepted for run in runs}) < 2:
        return ""
    said = ", ".join(f"{run.checker} {'accepts' if run.accepted else 'rejects'}"
                     + ("" if run.accepted else f" ({run.reason})") for run in runs)
    return f"THE PROOF CHECKERS DISAGREE: {said}; a bug in one of them (please report it)"


def tally(total: Sequence[CheckerRun], runs: Sequence[CheckerRun]) -> tuple[CheckerRun, ...]:
    """The runs of several proofs summed per checker: seconds added, accepted and finished only
    when every proof was, the first reason kept."""
    if not total:
        return tuple(runs)
    by_name = {run.checker: run for run in runs}
    out = []
    for run in total:
        more = by_name.get(run.checker)
        out.append(run if more is None else replace(
            run, accepted=run.accepted and more.accepted, finished=run.finished and more.finished,
            seconds=run.seconds + more.seconds, reason=run.reason or more.reason))
    return tuple(out)


@cache
def dratify_native() -> str | None:
    """The version of dratify's Rust engine (``cdclkit-native``, the ``certify`` extra), registered
    with dratify here when installed; None when dratify checks in pure Python. Same verdicts
    (dratify's own tests hold its two engines to them); the Rust one checks a proof of a million
    lemmas in about three minutes where the Python one needs more than half an hour
    (docs/benchmarks.md, Prove)."""
    from importlib.metadata import PackageNotFoundError, version

    import dratify

    try:
        import cdclkit_native
    except ImportError:
        return None
    if not hasattr(cdclkit_native, "check_proof"):  # pragma: no cover - another cdclkit-native
        return None
    if dratify.native_implementation() is None:
        dratify.register_native(cdclkit_native)
    try:
        return version("cdclkit-native")
    except PackageNotFoundError:  # pragma: no cover - imported from outside an installed distribution
        return "(unknown version)"


@cache
def checker_names() -> tuple[str, str]:
    """The two checkers with their versions: (exactgrid's, marked "(compiled)" when it runs compiled;
    dratify's, with its Rust engine's version when it runs natively)."""
    from importlib.metadata import PackageNotFoundError, version

    import dratify

    try:
        ours = version("exactgrid")
    except PackageNotFoundError:  # pragma: no cover - run from a source tree that is not installed
        ours = "(not installed)"
    how = " (compiled)" if compiled_available() else ""
    native = dratify_native()
    theirs = f"dratify {dratify.__version__}" + (f" (native, cdclkit-native {native})" if native else "")
    return f"exactgrid.prove.drup {ours}{how}", theirs


def check_with_exactgrid(clauses: Sequence[Sequence[int]], proof: Sequence[str],
                         deadline: float | None) -> tuple[CheckerRun, int]:
    """exactgrid's own checker (:func:`.drup.check_drup`): its verdict and the lemmas it read."""
    started = time.monotonic()
    checked = check_drup(clauses, proof, deadline)
    return CheckerRun(checker_names()[0], checked.valid, time.monotonic() - started, not checked.timed_out,
                      checked.reason), checked.lemmas


class _TimeUp(Exception):
    """The deadline passed while dratify was checking."""


def _steps_until(steps: Iterable[tuple[str, tuple[int, ...]]], deadline: float | None,
                 ) -> Iterator[tuple[str, tuple[int, ...]]]:
    for index, step in enumerate(steps, 1):
        if deadline is not None and index % CLOCK_EVERY == 0 and time.monotonic() > deadline:
            raise _TimeUp(f"the time limit came at step {index}, before the end")
        yield step


def check_with_dratify(clauses: Sequence[Sequence[int]], proof: Sequence[str], deadline: float | None) -> CheckerRun:
    """dratify's checker, on its own reading of the clauses and of the proof's text, asked for
    RUP steps only (``check_rat=False``): the proofs are DRUP, and exactgrid's checker accepts
    no RAT step, so a verdict that differs is a bug, not two rules.

    A proof that never writes the empty clause is given one at its end, checked like any other
    step: solvers write none when unit propagation alone refutes what they were given, and
    exactgrid's checker asks the same of such a proof (the empty clause must be RUP at the end).
    """
    from dratify import CNF, DRATChecker, check_proof, parse_proof
    from dratify.lits import to_dimacs

    started = time.monotonic()
    formula = CNF()
    for clause in clauses:
        formula.add_dimacs(clause)
    steps = parse_proof("\n".join(proof))
    if not any(kind == "a" and not lits for kind, lits in steps):
        steps.append(("a", ()))
    name = checker_names()[1]
    try:
        if deadline is not None and time.monotonic() > deadline:
            raise _TimeUp("the time limit came before the first step")
        if dratify_native() is not None:  # Rust: no clock inside, so a long proof runs in a child (check_twice)
            result = check_proof(formula, steps, check_rat=False, engine="native")
        else:
            result = DRATChecker(formula, check_rat=False).check(_steps_until(steps, deadline))
    except _TimeUp as exc:
        return CheckerRun(name, False, time.monotonic() - started, False, str(exc))
    reason = result.reason
    if not result.ok and result.failed_clause is not None:
        what = " ".join(str(to_dimacs(lit)) for lit in result.failed_clause) or "the empty clause"
        reason = f"step {result.failed_step} ({what}): {reason}"
    return CheckerRun(name, result.ok, time.monotonic() - started, True, "" if result.ok else reason)


def dratify_in_child(clauses: Sequence[Sequence[int]], proof: Sequence[str],
                     seconds: float | None) -> Iterator[tuple[str, CheckerRun]]:
    """A child process's side of :func:`check_twice`: dratify's verdict, within ``seconds``."""
    deadline = None if seconds is None else time.monotonic() + seconds
    yield "done", check_with_dratify(clauses, proof, deadline)


def check_twice(clauses: Sequence[Sequence[int]], proof: Sequence[str], deadline: float | None = None) -> DoubleCheck:
    """Check the DRUP ``proof`` of ``clauses`` with both checkers, before ``deadline``.

    Returns a :class:`DoubleCheck` with each checker's verdict (dratify's first); it is valid
    only when both accepted. A malformed proof line raises ValueError.
    """
    long = sum(not line.startswith("d") for line in proof) >= PARALLEL_FROM_LEMMAS
    # dratify's Rust engine has no clock: a long proof under a deadline goes to a child, killed at
    # the deadline, even on one core
    alone = usable_cores() < 2 and (deadline is None or dratify_native() is None)
    if not long or alone:
        theirs = check_with_dratify(clauses, proof, deadline)
        ours, lemmas = check_with_exactgrid(clauses, proof, deadline)
        return DoubleCheck((theirs, ours), lemmas)
    started = time.monotonic()
    seconds = None if deadline is None else deadline - started
    with ChildRace([(dratify_in_child, (list(clauses), list(proof), seconds))]) as race:
        ours, lemmas = check_with_exactgrid(clauses, proof, deadline)
        race.wait(None if deadline is None else deadline + GRACE_SECONDS)
    if race.finished[0]:
        theirs = race.messages[0][-1][1]
    else:
        theirs = CheckerRun(checker_names()[1], False, time.monotonic() - started, False,
                            "its process gave no verdict by the time limit")
    return DoubleCheck((theirs, ours), lemmas)
