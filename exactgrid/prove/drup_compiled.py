"""The DRUP checker of :mod:`exactgrid.prove.drup`, compiled with numba: the same rules, the
same verdicts, 29 and 38 times faster on the two proofs measured (docs/benchmarks.md,
Certificates).

:func:`exactgrid.prove.drup.check_drup` uses it when numba is installed (the ``solve`` extra);
the pure-Python checker stays the one without numba, and the tests hold the two to the same
verdicts on real and tampered proofs.

Layout, all flat arrays so that numba compiles it whole:

* every clause, the formula's then the proof's lemmas in order, is a stretch of ``lits`` (its
  literals deduplicated, coded ``2 * variable + negative``, so ``code ^ 1`` is the negation);
  ``kind`` says what each stretch is (:data:`ORIGINAL`, :data:`LEMMA`, or a tautology of either,
  which is skipped, or accepted as a lemma: it follows from anything);
* two watched literals per clause, at the first two places of its stretch; the clauses
  watching a literal are a linked list through ``next_watch`` (entry ``2 * clause + slot``),
  so a watch moves without any list to grow;
* ``value[code]``: 1 true, -1 false, 0 open; the top-level trail only grows, and each lemma's
  check assigns and then undoes its own literals;
* ``alive[clause]``: 0 once the proof deleted it (before lemma c, the clauses
  ``deleted[deleted_from[c]:deleted_from[c + 1]]``, from :func:`~exactgrid.prove.drup.deletion_schedule`);
  a deleted clause's watches are unlinked when propagation next meets them.

The driver checks a range of clauses per call, so that the caller can look at the clock
between calls (numba code cannot be interrupted).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ..stopping import uncut_import

try:
    njit = uncut_import("numba").njit
except ImportError as exc:  # the base install has no numba: exactgrid.prove.drup falls back to Python
    NUMBA_MISSING: str | None = str(exc)

    def njit(*_args: Any, **_kwargs: Any) -> Any:
        """Stand-in decorator: the functions stay plain Python (right, but slow), which
        :func:`~exactgrid.prove.drup.check_drup` only runs when asked to with ``compiled=True``."""
        return lambda function: function
else:
    NUMBA_MISSING = None

ORIGINAL, LEMMA, ORIGINAL_TAUTOLOGY, LEMMA_TAUTOLOGY = 0, 1, 2, 3
TRAIL, CONFLICT = 0, 1  # places in ``meta``: the trail's length; the clause the top level falsified (-1: none)
CHUNK = 2048
"""Clauses checked per call between looks at the clock."""


@njit(cache=True, nogil=True)
def _assign(code, value, trail, meta):
    value[code] = 1
    value[code ^ 1] = -1
    trail[meta[TRAIL]] = code
    meta[TRAIL] += 1


@njit(cache=True, nogil=True)
def _propagate(start, lits, starts, lengths, head, next_watch, value, trail, meta, alive):
    """Unit propagation of the trail from ``start``: the clause it falsifies (-1: none)."""
    position = start
    while position < meta[TRAIL]:
        false_code = trail[position] ^ 1
        position += 1
        previous = -1
        entry = head[false_code]
        while entry != -1:
            following = next_watch[entry]
            clause = entry >> 1
            if not alive[clause]:  # deleted by the proof: unlink its watch here for good
                if previous == -1:
                    head[false_code] = following
                else:
                    next_watch[previous] = following
                entry = following
                continue
            slot = entry & 1
            first = starts[clause]
            other = lits[first + 1 - slot]
            if value[other] == 1:
                previous = entry
                entry = following
                continue
            moved = -1
            for k in range(first + 2, first + lengths[clause]):
                if value[lits[k]] != -1:
                    moved = k
                    break
            if moved >= 0:  # watch another literal: unlink the entry here, link it there
                lits[first + slot], lits[moved] = lits[moved], lits[first + slot]
                if previous == -1:
                    head[false_code] = following
                else:
                    next_watch[previous] = following
                next_watch[entry] = head[lits[first + slot]]
                head[lits[first + slot]] = entry
                entry = following
                continue
            if value[other] == -1:
                return clause
            _assign(other, value, trail, meta)
            previous = entry
            entry = following
    return -1


@njit(cache=True, nogil=True)
def _add(clause, lits, starts, lengths, head, next_watch, value, trail, meta, alive):
    """Add a clause at the top level and propagate what it forces."""
    if meta[CONFLICT] >= 0:
        return
    first = starts[clause]
    n_open = 0
    for k in range(first, first + lengths[clause]):
        v = value[lits[k]]
        if v == 1:
            return  # satisfied at the top level for good
        if v == 0:  # move the open literals to the front
            lits[first + n_open], lits[k] = lits[k], lits[first + n_open]
            n_open += 1
    if n_open == 0:
        meta[CONFLICT] = clause
    elif n_open == 1:  # a unit at the top level: assigned for good, never watched
        mark = meta[TRAIL]
        _assign(lits[first], value, trail, meta)
        meta[CONFLICT] = _propagate(mark, lits, starts, lengths, head, next_watch, value, trail, meta, alive)
    else:
        for slot in range(2):
            entry = 2 * clause + slot
            next_watch[entry] = head[lits[first + slot]]
            head[lits[first + slot]] = entry


@njit(cache=True, nogil=True)
def _implies(clause, lits, starts, lengths, head, next_watch, value, trail, meta, alive):
    """Whether assigning every literal of the clause false propagates to a conflict."""
    if meta[CONFLICT] >= 0:
        return True
    first = starts[clause]
    end = first + lengths[clause]
    for k in range(first, end):
        if value[lits[k]] == 1:  # a literal true at the top level for good
            return True
    mark = meta[TRAIL]
    for k in range(first, end):
        if value[lits[k]] == 0:
            _assign(lits[k] ^ 1, value, trail, meta)
    falsified = _propagate(mark, lits, starts, lengths, head, next_watch, value, trail, meta, alive)
    for place in range(mark, meta[TRAIL]):
        value[trail[place]] = 0
        value[trail[place] ^ 1] = 0
    meta[TRAIL] = mark
    return falsified >= 0


@njit(cache=True, nogil=True)
def check_range(begin, end, kind, lits, starts, lengths, head, next_watch, value, trail, meta, alive,
                deleted, deleted_from):
    """Check clauses ``begin`` to ``end`` in order: an original clause is added; a lemma must be
    implied, then is added. Before clause c, the clauses ``deleted[deleted_from[c]:deleted_from[c
    + 1]]`` are deleted. Returns the first lemma that is not implied (-1: none), and the first
    empty lemma, which ends the proof (-1: none)."""
    for clause in range(begin, end):
        for k in range(deleted_from[clause], deleted_from[clause + 1]):
            alive[deleted[k]] = 0
        what = kind[clause]
        if what >= ORIGINAL_TAUTOLOGY:  # a tautology, of the formula or of the proof
            continue
        if what == LEMMA:
            if not _implies(clause, lits, starts, lengths, head, next_watch, value, trail, meta, alive):
                return clause, -1
            if lengths[clause] == 0:
                return -1, clause
        _add(clause, lits, starts, lengths, head, next_watch, value, trail, meta, alive)
    return -1, -1


class CompiledChecker:
    """The checker's arrays for one formula and proof (see the module's docstring)."""

    def __init__(self, clauses: Sequence[Sequence[int]], lemmas: Sequence[Sequence[int]],
                 deletions: Sequence[Sequence[int]]) -> None:
        """``deletions``: for each lemma, the clauses (indices, formula's then lemmas') the proof
        deletes before it (:func:`~exactgrid.prove.drup.deletion_schedule`)."""
        self.size = len(clauses) + len(lemmas)
        kind = np.empty(self.size, dtype=np.int8)
        lengths = np.empty(self.size, dtype=np.int64)
        flat: list[int] = []
        variables = 0
        for index, (clause, is_lemma) in enumerate(
                [*((c, False) for c in clauses), *((lemma, True) for lemma in lemmas)]):
            codes = list(dict.fromkeys(2 * abs(x) + (x < 0) for x in clause))
            tautology = any(code ^ 1 in codes for code in codes)
            kind[index] = (LEMMA_TAUTOLOGY if tautology else LEMMA) if is_lemma else (
                ORIGINAL_TAUTOLOGY if tautology else ORIGINAL)
            lengths[index] = len(codes)
            flat.extend(codes)
            if codes:
                variables = max(variables, max(codes) >> 1)
        self.kind = kind
        self.lengths = lengths
        self.starts = np.zeros(self.size, dtype=np.int64)
        if self.size:
            self.starts[1:] = np.cumsum(lengths)[:-1]
        self.lits = np.array(flat, dtype=np.int64)
        self.head = np.full(2 * variables + 2, -1, dtype=np.int64)
        self.next_watch = np.full(2 * self.size, -1, dtype=np.int64)
        self.value = np.zeros(2 * variables + 2, dtype=np.int8)
        self.trail = np.zeros(variables + 1, dtype=np.int64)
        self.meta = np.array([0, -1], dtype=np.int64)
        self.lemma_base = len(clauses)
        self.alive = np.ones(self.size, dtype=np.int8)
        counts = np.zeros(self.size + 1, dtype=np.int64)
        flat_deleted: list[int] = []
        for index, before in enumerate(deletions):
            counts[self.lemma_base + index + 1] = len(before)
            flat_deleted.extend(before)
        self.deleted_from = np.cumsum(counts)
        self.deleted = np.array(flat_deleted, dtype=np.int64)

    def check(self, begin: int, end: int) -> tuple[int, int]:
        """:func:`check_range` on this checker's arrays."""
        failed, empty = check_range(begin, end, self.kind, self.lits, self.starts, self.lengths, self.head,
                                    self.next_watch, self.value, self.trail, self.meta, self.alive,
                                    self.deleted, self.deleted_from)
        return int(failed), int(empty)

    @property
    def refuted(self) -> bool:
        """Whether the clauses added so far are refuted by unit propagation at the top level."""
        return bool(self.meta[CONFLICT] >= 0)
