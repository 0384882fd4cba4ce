"""Pair placement: can letters be put on a board, each in at most so many cells, so that every
given pair of letters sits on some two adjacent cells? And when not, which pairs and which
count limits are to blame (a *pair/count core*, issue 12)?

This is the check behind the counting relaxation's cuts (:mod:`exactgrid.prove.cores`). The
relaxation picks letter counts and the adjacent letter pairs its words need; a grid holding the
words has every such pair on adjacent cells, so when no placement exists, no grid does, and a
core (pairs P, limits "letter a in at most k cells") says: no grid has all of P adjacent while
each limited letter stays within its limit. That holds on the board whatever the words are, and
for any renaming of the letters (the board does not read them), except letters pinned by fixed
cells.

The model: ``x[c,a]`` cell c holds letter a (one letter a cell; letters outside the pairs share
one "other" letter); ``p[ab]`` pair ab is adjacent somewhere (an assumption); ``o[a,k]`` at least
k cells hold a (a one-way sequential counter: more than k cells force it), so "at most k" is the
assumption ``-o[a,k+1]``. One incremental session answers every check of a question; UNSAT comes
with the solver's core over the assumptions, shrunk here to a minimal one.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass

from ..backends import Result, Status, get_backend
from ..backends.base import ResolvingSession
from ..geometry import Board
from ..model import BoolModel
from ..wording import plural

Pair = tuple[str, str]
"""Two letters, in order (a <= b); ``(a, a)`` is a doubled letter (two adjacent cells of a)."""
Triple = tuple[str, str, str]
"""(a, b, c) with a < c: some cell of b has a neighbour holding a and a neighbour holding c (a
walk spelling ...ABC... or ...CBA... unaltered passes through such a cell)."""

FILLER = "_"

COUNT_LIMIT = 6
"""The largest count limit a check asks about ("letter a in at most k cells", k <= this): the
one-way counters then cost cells x (this + 1) variables a letter instead of cells squared."""
MAX_WAYS = 400_000
"""Placement models whose pair selectors would need more (directed edge, pair) variables than
this are not built (a 32x32 board with hundreds of pairs would take gigabytes):
:func:`placement_fits` says so beforehand."""

SHRINK_CHECK_SECONDS = 1.0
"""Each trial of core shrinking gets at most this long; a literal whose trial runs out stays in
the core (still a core, perhaps not minimal). Near-minimal cores can take minutes to confirm."""


STOP_SLICE_SECONDS = 0.5
"""With a ``stop`` test (:meth:`Placement.check`), the solver is asked in slices of at most
this long, and ``stop`` between them: how long a stopped check may run on."""

SEED_KEEPS = 0.75
"""A seeded check (:meth:`Placement.check`) first asks about a random part of the pairs and
limits, each kept with this chance: when that part cannot be placed either, its core is found,
so workers with other seeds tend to find other cores of the same solution."""


class PlacementTooLarge(ValueError):
    """The placement model would exceed :data:`MAX_WAYS`."""


def placement_fits(board: Board, pairs: int, triples: int = 0) -> bool:
    """Whether a placement model for ``pairs`` pairs and ``triples`` triples on ``board`` stays
    within :data:`MAX_WAYS`."""
    return 2 * len(board.edges) * pairs + board.size * triples <= MAX_WAYS


def pair_of(a: str, b: str) -> Pair:
    """The pair of letters a and b, in order."""
    return (a, b) if a <= b else (b, a)


def triple_of(a: str, b: str, c: str) -> Triple | None:
    """The triple of a walk's letters a, b, c (b in the middle), ends in order; None when a == c
    (a cell of b next to a is already the pair ab)."""
    if a == c:
        return None
    return (a, b, c) if a < c else (c, b, a)


@dataclass(frozen=True)
class Core:
    """Pairs that no placement holds together while each limited letter stays within its limit."""

    pairs: tuple[Pair, ...]
    at_most: tuple[tuple[str, int], ...] = ()
    """(letter, k): the letter is in at most k cells."""
    triples: tuple[Triple, ...] = ()

    @property
    def letters(self) -> frozenset[str]:
        """Every letter the core names."""
        return (frozenset(ch for pair in self.pairs for ch in pair) | {a for a, _ in self.at_most}
                | {ch for triple in self.triples for ch in triple})

    def renamed(self, mapping: dict[str, str]) -> Core:
        """The same core with letters renamed (``mapping`` must be one-to-one on :attr:`letters`)."""
        def name(a: str) -> str:
            return mapping.get(a, a)

        pairs = tuple(sorted(pair_of(name(a), name(b)) for a, b in self.pairs))
        limits = tuple(sorted((name(a), k) for a, k in self.at_most))
        triples = tuple(sorted(triple_of(name(a), name(b), name(c)) for a, b, c in self.triples))  # type: ignore
        return Core(pairs, limits, triples)

    def text(self) -> str:
        """E.g. ``AB BC CA adjacent, A-B-D around a B, with A in at most 1 cell``."""
        parts = [" ".join(a + b for a, b in self.pairs) + " adjacent"] if self.pairs else []
        if self.triples:
            parts.append(" ".join(f"{a}-{b}-{c}" for a, b, c in self.triples) + " around a middle letter")
        text = ", ".join(parts)
        if not self.at_most:
            return text
        limits = ", ".join(f"{'other letters' if a == FILLER else a} in at most {plural(k, 'cell')}"
                           for a, k in self.at_most)
        return f"{text}, with {limits}" if text else limits

    def to_dict(self) -> dict[str, object]:
        """JSON-ready: pairs (two-letter strings), triples (three letters, the middle one in the
        middle) and at_most ({letter: cells})."""
        return {"pairs": [a + b for a, b in self.pairs], "triples": ["".join(t) for t in self.triples],
                "at_most": dict(self.at_most)}


def count_up(model: BoolModel, holds: list[int], limit: int = COUNT_LIMIT + 1) -> dict[int, int]:
    """A one-way sequential counter over the literals ``holds`` (one a cell): k -> a variable
    forced true when k or more of them are (k up to ``limit``), so that "at most k" is the
    assumption that the variable for k + 1 is false."""
    previous: list[int] = []  # previous[k-1]: among the cells so far, at least k hold
    for index, cell in enumerate(holds):
        current = []
        for k in range(1, min(index + 2, limit + 1)):
            var = model.new_var()
            if k <= len(previous):
                model.add_clause([-previous[k - 1], var])
            if k == 1:
                model.add_clause([-cell, var])
            else:
                model.add_clause([-previous[k - 2], -cell, var])
            current.append(var)
        previous = current
    return dict(enumerate(previous, start=1))


def shrink_core(solve: Callable[[list[int], float | None], Result | None], core: list[int],
                deadline: float | None) -> list[int]:
    """Deletion: drop each assumption whose removal keeps the rest unsatisfiable, trimming by
    each answer's own core. ``solve(assumptions, deadline)`` answers a trial (None: out of time).
    A trial that runs out of its :data:`SHRINK_CHECK_SECONDS` keeps its literal; at the deadline
    shrinking stops. Either way what is kept is still a core.

    Used for pair/count cores (:meth:`Placement.check`), whose trials on the small placement
    model are cheap, and whose minimal cores pay back: they are renamed and reused as cuts of
    later solutions, and a smaller core matches more of them."""
    kept = list(core)
    index = 0
    while index < len(kept):
        if deadline is not None and time.monotonic() >= deadline:
            break
        trial = kept[:index] + kept[index + 1:]
        trial_end = time.monotonic() + SHRINK_CHECK_SECONDS
        result = solve(trial, trial_end if deadline is None else min(trial_end, deadline))
        if result is None or result.status == Status.SAT:
            index += 1
        else:
            kept = _within(result, trial)
    return kept


def trim_core(solve: Callable[[list[int], float | None], Result | None], core: list[int],
              deadline: float | None, rounds: int = 5) -> list[int]:
    """Trimming, the cheap shrink: solve again under the core alone and keep the solver's new
    core, until it stops getting smaller (at most ``rounds`` times). Not minimal, but each step
    costs one solve, where deletion costs one a literal.

    Used for word count cores (:meth:`exactgrid.prove.exact.CountCheck.check`), whose trials on
    the question's whole exact model are costly, and which are never renamed, so minimality
    buys less there than the trials cost (measured in docs/benchmarks.md, section Prove)."""
    kept = list(core)
    for _ in range(rounds):
        result = solve(kept, deadline)
        if result is None or result.status == Status.SAT:  # pragma: no cover - the core was unsatisfiable
            break
        smaller = _within(result, kept)
        if len(smaller) >= len(kept):
            break
        kept = smaller
    return kept


def _within(result: Result, assumptions: list[int]) -> list[int]:
    """The assumptions in an unsatisfiable answer's core, in their order (all of them when the
    solver gave no core)."""
    core = set(result.core or assumptions)
    return [lit for lit in assumptions if lit in core]


class Placement:
    """One incremental placement session on a board: :meth:`check` many pair sets and limits.

    ``letters``: the letters that may be limited or paired; ``pairs``: every pair a check may
    ask for; ``fixed``: cell -> letter, held in every check (a letter outside ``letters``
    stands for "some other letter")."""

    def __init__(self, board: Board, letters: set[str] | frozenset[str], pairs: set[Pair] | frozenset[Pair],
                 fixed: dict[int, str] | None = None, backend: str = "cadical",
                 triples: set[Triple] | frozenset[Triple] = frozenset()) -> None:
        if not placement_fits(board, len(pairs), len(triples)):
            raise PlacementTooLarge(f"a placement model for {len(pairs)} letter pairs and {len(triples)} triples on "
                                    f"{board.shape_name} would be too large (over {MAX_WAYS:,} selectors)")
        self.board = board
        self.fixed = dict(fixed or {})
        self.letters = sorted(set(letters) | {ch for pair in pairs for ch in pair}
                              | {ch for triple in triples for ch in triple})
        alphabet = [*self.letters, FILLER]
        model = BoolModel()
        cells = range(board.size)
        self.x = {(c, a): model.new_var(f"x[{c},{a}]") for c in cells for a in alphabet}
        for c in cells:
            model.exactly_one([self.x[c, a] for a in alphabet])
        for c, letter in (fixed or {}).items():
            model.add_clause([self.x[c, letter if letter in self.letters else FILLER]])
        self.at_least: dict[tuple[str, int], int] = {}
        for a in self.letters:
            for k, var in count_up(model, [self.x[c, a] for c in cells]).items():
                self.at_least[a, k] = var
        self.pair_var: dict[Pair, int] = {}
        edges = [(c, d) for c, d in board.edges]
        for a, b in sorted(pairs):
            var = self.pair_var[a, b] = model.new_var(f"p[{a}{b}]")
            ways = []
            for c, d in edges:
                for s, t in ((c, d), (d, c)) if a != b else ((c, d),):
                    way = model.new_var()
                    model.add_clause([-way, self.x[s, a]])
                    model.add_clause([-way, self.x[t, b]])
                    ways.append(way)
            model.add_clause([-var, *ways])
        self.triple_var: dict[Triple, int] = {}
        near: dict[tuple[int, str], int] = {}  # near[c, a]: some neighbour of c holds a

        def next_to(c: int, a: str) -> int:
            if (c, a) not in near:
                var = near[c, a] = model.new_var()
                model.add_clause([-var, *(self.x[d, a] for d in board.neighbours[c])])
            return near[c, a]

        for a, b, c in sorted(triples):
            var = self.triple_var[a, b, c] = model.new_var(f"t[{a}{b}{c}]")
            ways = []
            for cell in cells:
                way = model.new_var()
                for lit in (self.x[cell, b], next_to(cell, a), next_to(cell, c)):
                    model.add_clause([-way, lit])
                ways.append(way)
            model.add_clause([-var, *ways])
        self.model = model
        self.session = get_backend(backend).open_session(model)
        self.checks = 0

    def assumptions(self, pairs: tuple[Pair, ...], at_most: tuple[tuple[str, int], ...],
                    triples: tuple[Triple, ...] = ()) -> dict[int, object]:
        """Assumption literal -> the pair, triple or limit it stands for."""
        named: dict[int, object] = {self.pair_var[p]: p for p in pairs}
        named.update({self.triple_var[t]: t for t in triples})
        for a, k in at_most:
            if (a, k + 1) in self.at_least:  # else not asked: fewer assumptions, still sound
                named[-self.at_least[a, k + 1]] = (a, k)
        return named

    def check(self, pairs: tuple[Pair, ...], at_most: tuple[tuple[str, int], ...] = (),
              time_limit: float | None = None, shrink: bool = True,
              triples: tuple[Triple, ...] = (), seed: int | None = None,
              stop: Callable[[], bool] | None = None) -> str | Core | None:
        """A placement's letters (cell order, ``_`` for a filler cell) when one exists; else a core
        (minimal when ``shrink`` and time allows); None at the time limit, or once ``stop()``
        says so (asked between slices of :data:`STOP_SLICE_SECONDS`: how a task on a cluster, where no
        signal reaches it, is stopped). ``seed``: shrink in a shuffled order (another order
        usually leaves another minimal core), else in the order the solver gave."""
        deadline = None if time_limit is None else time.monotonic() + time_limit

        def solve(assumptions: list[int], until: float | None) -> Result | None:
            return self._solve(assumptions, until, stop)

        named = self.assumptions(pairs, at_most, triples)
        order = list(named)
        result = None
        if seed is not None:  # first a random part of the check: its core, if any, is elsewhere
            rng = random.Random(seed)
            rng.shuffle(order)
            part = [lit for lit in order if rng.random() < SEED_KEEPS]
            result = solve(part, deadline)
            if result is not None and result.status == Status.SAT:
                result = None
        if result is None:
            result = solve(order, deadline)
        if result is None or (stop is not None and stop()):
            return None
        if result.status == Status.SAT:
            true = result.true_vars or frozenset()
            return "".join(a for c in range(self.board.size) for a in [*self.letters, FILLER]
                           if self.x[c, a] in true)
        core = list(result.core or order)
        if seed is not None:
            random.Random(seed + 1).shuffle(core)
        if shrink:
            core = shrink_core(solve, core, deadline)
        chosen = [named[lit] for lit in core]
        return Core(tuple(sorted(p for p in chosen if len(p) == 2 and isinstance(p[1], str))),  # type: ignore
                    tuple(sorted(p for p in chosen if isinstance(p[1], int))),  # type: ignore[misc]
                    tuple(sorted(p for p in chosen if len(p) == 3)))  # type: ignore[misc]

    def _solve(self, assumptions: list[int], deadline: float | None,
               stop: Callable[[], bool] | None = None) -> Result | None:
        """The session's answer under ``assumptions`` by ``deadline``; None out of time or once
        ``stop()`` says so. With ``stop``, an incremental session is asked in slices (what it
        learnt carries over); a session that would start afresh each time is asked once."""
        self.checks += 1
        sliced = stop is not None and not isinstance(self.session, ResolvingSession)
        while True:
            if stop is not None and stop():
                return None
            left = None if deadline is None else max(0.0, deadline - time.monotonic())
            if sliced:
                left = STOP_SLICE_SECONDS if left is None else min(left, STOP_SLICE_SECONDS)
            result = self.session.solve(assumptions, time_limit=left)
            if result.status != Status.UNKNOWN:
                return result
            if not sliced or (deadline is not None and time.monotonic() >= deadline):
                return None

    def close(self) -> None:
        """Free the solver."""
        self.session.close()
