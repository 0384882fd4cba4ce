"""An independent checker of DRUP refutations: a SAT solver's "does not fit" made checkable.

A proof-logging SAT solver (PySAT's Glucose and CaDiCaL, ``with_proof=True``) writes, while it
refutes a CNF, every clause it learns (a *lemma*) and every clause it deletes (``d ...``). The
proof is valid when each lemma, in order, is a *reverse unit propagation* (RUP) consequence of
the clauses before it: assigning every literal of the lemma false and propagating unit clauses
reaches a conflict. The last lemma is the empty clause, so the formula is unsatisfiable. This
module checks that forward, sharing no code with any solver or with the encoder.

Deletions are honoured, as drat-trim and dratify honour them: a deleted clause is not used
again (a deletion that names no clause is passed over). Deleting can only make a lemma harder to
derive, never easier, so it cannot make a wrong proof pass; without it, a proof of a million
lemmas would be checked against every clause the solver ever learnt, which took more than
half an hour where honouring the deletions takes two minutes (docs/benchmarks.md, Prove). The
unit clauses found at the top level stay assigned when a clause behind them is deleted (each
follows from the formula, whatever happens to the clause that showed it), so propagation there
is done once, incrementally, and each lemma costs only its own temporary assignments.

The same checker, compiled with numba (:mod:`exactgrid.prove.drup_compiled`), checks the proofs
when numba is installed: 29 and 38 times faster on the proofs measured (docs/benchmarks.md),
and held by the tests to this one's verdicts.

>>> check_drup([[1, 2], [-1, 2], [1, -2], [-1, -2]], ["2 0", "0"]).valid
True
>>> check_drup([[1, 2], [-1, 2]], ["0"]).reason
'lemma 1 (the empty clause) is not implied by unit propagation'
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class ProofCheck:
    """The verdict on a proof: ``valid`` when every lemma is RUP and the empty clause is derived."""

    valid: bool
    lemmas: int
    deletions: int
    reason: str = ""
    """Why it is not valid (empty when valid)."""
    timed_out: bool = False
    """True when the deadline came before a verdict (then not valid)."""


def parse_proof_line(line: str | Sequence[int]) -> tuple[bool, tuple[int, ...]]:
    """One proof line as (is a deletion, literals): ``"d 3 -4 0"`` -> (True, (3, -4)).

    Lines may be given as text (DIMACS-style, ending in 0) or as sequences of literals.
    """
    if not isinstance(line, str):
        return False, tuple(int(x) for x in line)
    parts = line.split()
    deletion = bool(parts) and parts[0] == "d"
    numbers = [int(x) for x in parts[1 if deletion else 0:]]
    if not numbers or numbers[-1] != 0 or 0 in numbers[:-1]:
        raise ValueError(f"a proof line must be literals ending in 0, got {line!r}")
    return deletion, tuple(numbers[:-1])


def deletion_schedule(clauses: Sequence[Sequence[int]], steps: Iterable[tuple[bool, tuple[int, ...]]],
                      ) -> list[list[int]]:
    """For each lemma of ``steps`` (as :func:`parse_proof_line` reads them), the clauses the proof
    deletes before it, by position (the formula's clauses, then the lemmas, in order); a
    deletion names the latest clause not yet deleted with the same literals, and one that names
    none is passed over."""
    live: dict[frozenset[int], list[int]] = {}
    for position, clause in enumerate(clauses):
        live.setdefault(frozenset(clause), []).append(position)
    schedule: list[list[int]] = []
    pending: list[int] = []
    position = len(clauses)
    for deletion, lits in steps:
        key = frozenset(lits)
        if deletion:
            same = live.get(key)
            if same:
                pending.append(same.pop())
            continue
        schedule.append(pending)
        pending = []
        live.setdefault(key, []).append(position)
        position += 1
    return schedule


class _Propagator:
    """Clauses with two watched literals, a top-level trail that only grows, and temporary
    assignments for checking one lemma at a time."""

    def __init__(self) -> None:
        self.value: dict[int, bool] = {}  # variable -> value
        self.clauses: dict[int, list[int]] = {}  # position -> the watched clause's literals
        self.watches: dict[int, list[int]] = {}  # literal -> clauses watching it (visited when it turns false)
        self.trail: list[int] = []
        self.conflict = False  # the top level itself is refuted

    def truth(self, lit: int) -> bool | None:
        value = self.value.get(abs(lit))
        return None if value is None else value == (lit > 0)

    def assign(self, lit: int) -> None:
        self.value[abs(lit)] = lit > 0
        self.trail.append(lit)

    def delete(self, position: int) -> None:
        """Delete the clause at ``position``: it is not visited again (a unit or a clause
        satisfied at the top level was never watched, and its assignments stay)."""
        self.clauses.pop(position, None)

    def add(self, clause: Sequence[int], position: int) -> None:
        """Add the clause at ``position`` at the top level and propagate what it forces."""
        if self.conflict:
            return
        lits = list(dict.fromkeys(clause))
        if any(-lit in lits for lit in lits) or any(self.truth(lit) for lit in lits):
            return  # a tautology, or satisfied at the top level for good
        open_lits = [lit for lit in lits if self.truth(lit) is None]
        if not open_lits:
            self.conflict = True
            return
        if len(open_lits) == 1:  # a unit at the top level: assigned for good, never watched
            self.assign(open_lits[0])
            self.conflict = not self.propagate(len(self.trail) - 1)
            return
        # watch two open literals; the clause is only visited when one of them turns false
        ordered = open_lits + [lit for lit in lits if lit not in open_lits]
        self.clauses[position] = ordered
        for lit in ordered[:2]:
            self.watches.setdefault(lit, []).append(position)

    def propagate(self, start: int) -> bool:
        """Unit propagation of the trail from ``start``; False on a conflict."""
        head = start
        while head < len(self.trail):
            false_lit = -self.trail[head]
            head += 1
            watching = self.watches.get(false_lit, [])
            kept = []
            for place, index in enumerate(watching):
                clause = self.clauses.get(index)
                if clause is None:  # deleted: unwatched here for good
                    continue
                if clause[0] == false_lit:
                    clause[0], clause[1] = clause[1], clause[0]
                other = clause[0]
                if self.truth(other):
                    kept.append(index)
                    continue
                moved = next((k for k in range(2, len(clause)) if self.truth(clause[k]) is not False), None)
                if moved is not None:
                    clause[1], clause[moved] = clause[moved], clause[1]
                    self.watches.setdefault(clause[1], []).append(index)
                    continue
                kept.append(index)
                if self.truth(other) is False:
                    kept.extend(watching[place + 1:])
                    self.watches[false_lit] = kept
                    return False
                self.assign(other)
            self.watches[false_lit] = kept
        return True

    def implies(self, lemma: Sequence[int]) -> bool:
        """Whether assigning every literal of ``lemma`` false propagates to a conflict."""
        if self.conflict or any(self.truth(lit) for lit in lemma) or _tautology(lemma):
            return True  # refuted already, satisfied at the top level, or a tautology
        mark = len(self.trail)
        for lit in lemma:
            if self.truth(lit) is None:
                self.assign(-lit)
        refuted = not self.propagate(mark)
        for lit in self.trail[mark:]:
            del self.value[abs(lit)]
        del self.trail[mark:]
        return refuted


def _tautology(lits: Sequence[int]) -> bool:
    seen = set(lits)
    return any(-lit in seen for lit in seen)


def compiled_available() -> bool:
    """Whether numba is installed and imports, so that :func:`check_drup` runs compiled."""
    from .drup_compiled import NUMBA_MISSING

    return NUMBA_MISSING is None


def check_drup(clauses: Iterable[Sequence[int]], proof: Iterable[str | Sequence[int]],
               deadline: float | None = None, compiled: bool | None = None) -> ProofCheck:
    """Check a DRUP refutation of ``clauses`` (lists of non-zero integer literals).

    Returns a :class:`ProofCheck`: valid when every lemma is a RUP consequence of the clauses
    and lemmas before it and the empty clause is among them, or follows from them all by unit
    propagation (solvers write an empty proof when propagation alone refutes the clauses);
    otherwise the first failing lemma is named, or the ``deadline`` (``time.monotonic()``) that
    came before the check finished. A tautology is implied by anything. A malformed proof line
    raises ValueError.

    ``compiled``: check with the numba-compiled twin of this checker
    (:mod:`exactgrid.prove.drup_compiled`, same rules and verdicts, far faster); None: when
    numba is installed.
    """
    steps = [parse_proof_line(line) for line in proof]
    if compiled is None:
        compiled = compiled_available()
    if compiled:
        return _check_compiled(list(clauses), steps, deadline)
    return _check_in_python(clauses, steps, deadline)


def _deletions_before(steps: Sequence[tuple[bool, tuple[int, ...]]]) -> list[int]:
    """For each lemma, the deletions read before it; and, last, all of them."""
    counts, deletions = [], 0
    for deletion, _ in steps:
        if deletion:
            deletions += 1
        else:
            counts.append(deletions)
    return [*counts, deletions]


def _check_in_python(clauses: Iterable[Sequence[int]], steps: Sequence[tuple[bool, tuple[int, ...]]],
                     deadline: float | None) -> ProofCheck:
    """:func:`check_drup` by :class:`_Propagator`."""
    clauses = list(clauses)
    schedule = deletion_schedule(clauses, steps)
    state = _Propagator()
    for position, clause in enumerate(clauses):
        state.add(clause, position)
    lemmas = deletions = 0
    for deletion, lits in steps:
        if deletion:
            deletions += 1
            continue
        for position in schedule[lemmas]:
            state.delete(position)
        lemmas += 1
        if deadline is not None and lemmas % 256 == 0 and time.monotonic() > deadline:
            return _timed_out(lemmas, deletions)
        if not state.implies(lits):
            return _not_implied(lemmas, deletions, lits)
        if not lits:
            return ProofCheck(True, lemmas, deletions)
        state.add(lits, len(clauses) + lemmas - 1)
    if state.implies(()):  # a solver writes no lemma when unit propagation alone refutes the clauses
        return ProofCheck(True, lemmas, deletions)
    return ProofCheck(False, lemmas, deletions, "the proof never derives the empty clause")


def _check_compiled(clauses: list[Sequence[int]], steps: Sequence[tuple[bool, tuple[int, ...]]],
                    deadline: float | None) -> ProofCheck:
    """:func:`check_drup` by :class:`~exactgrid.prove.drup_compiled.CompiledChecker`, a chunk of
    clauses between looks at the clock."""
    from .drup_compiled import CHUNK, CompiledChecker

    lemma_list = [lits for deletion, lits in steps if not deletion]
    before = _deletions_before(steps)
    checker = CompiledChecker(clauses, lemma_list, deletion_schedule(clauses, steps))
    base = checker.lemma_base
    for begin in range(0, checker.size, CHUNK):
        if begin > base and deadline is not None and time.monotonic() > deadline:
            return _timed_out(begin - base, before[begin - base])
        failed, empty = checker.check(begin, min(begin + CHUNK, checker.size))
        if failed >= 0:
            return _not_implied(failed - base + 1, before[failed - base], lemma_list[failed - base])
        if empty >= 0:
            return ProofCheck(True, empty - base + 1, before[empty - base])
    if checker.refuted:  # a solver writes no lemma when unit propagation alone refutes the clauses
        return ProofCheck(True, len(lemma_list), before[-1])
    return ProofCheck(False, len(lemma_list), before[-1], "the proof never derives the empty clause")


def _timed_out(lemmas: int, deletions: int) -> ProofCheck:
    return ProofCheck(False, lemmas, deletions, f"the time limit came at lemma {lemmas}, before the end",
                      timed_out=True)


def _not_implied(lemma: int, deletions: int, lits: Sequence[int]) -> ProofCheck:
    what = "the empty clause" if not lits else " ".join(map(str, lits))
    return ProofCheck(False, lemma, deletions, f"lemma {lemma} ({what}) is not implied by unit propagation")
