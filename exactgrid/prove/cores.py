"""The counting relaxation made stronger by pair/count cores, added lazily to one model (issue 12).

The loop: solve the counting relaxation (:mod:`exactgrid.prove.counting`); read the letter
counts it chose and the adjacent pairs (and, with ``triples``, the letter triples) its
spellings need; ask the placement session
(:mod:`exactgrid.prove.placement`) whether letters in those numbers can hold those pairs on the
board. If they can, counting has nothing more to say about this solution. If not, the placement
core becomes a cut in the relaxation, ``not (all pairs of the core) or (some limited letter has
more cells)``, and the relaxation is solved again. A known core is also tried under every
renaming of its letters against each new solution (a small matching search), so one placement
proof serves every letter-renamed copy without a second proof.

For deciding (``objective=False``) the relaxation lives in one incremental solver session: cuts
are clauses added to it and learnt clauses carry over. When it runs out of solutions the
question is refuted "by counting", backed by the cores listed.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from concurrent.futures import Executor
from dataclasses import dataclass
from typing import Any

from ..backends import Status, get_backend
from ..backends.ilp import HighsModel
from ..grid import Grid
from ..question import Question
from .counting import OTHER, CountingModel, counting_model
from .exact import CountCheck, WordCore
from .placement import Core, Pair, Placement, PlacementTooLarge, Triple, pair_of, triple_of
from .spread import CoreSearch, PlacementSpec, Spread, find_cores


@dataclass(frozen=True)
class CoreRefutation:
    """What the core loop says about a question."""

    status: str
    """``refuted`` (no grid), ``fits`` (the exact model found :attr:`grid` with the letter counts
    of a relaxation solution; the caller has the finder confirm it), ``placed`` (a solution's
    pairs and counts can be placed and the exact model was not asked: counting cannot refute),
    ``open`` (time limit)."""
    cores: tuple[Core, ...]
    rounds: int
    renamed: int
    """Cuts that were renamed copies of earlier cores (no placement proof needed)."""
    seconds: float
    placement: str | None = None
    """With ``placed``: the placement's letters (``_`` for any letter)."""
    detail: str = ""
    count_cores: tuple[WordCore, ...] = ()
    """Word count cores: letter limits no grid answering this question meets (from its exact
    model, :mod:`exactgrid.prove.exact`)."""
    grid: Grid | None = None
    """With ``fits``: the grid."""
    cuts: tuple[Core | WordCore, ...] = ()
    """Every core cut, in order, renamed copies included: what a certificate re-proves."""

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready."""
        return {"status": self.status, "rounds": self.rounds, "renamed": self.renamed,
                "seconds": round(self.seconds, 3), "cores": [c.to_dict() for c in self.cores],
                "count_cores": [c.to_dict() for c in self.count_cores],
                "placement": self.placement, "grid": self.grid.letters if self.grid else None,
                "detail": self.detail}


def core_cut(counting: CountingModel, core: Core | WordCore) -> list[int] | None:
    """The relaxation's clause for ``core``: some pair (triple, word) of it absent, or some
    limited letter in more cells than its limit. None when the core names a pair or letter the
    model lacks (then it cannot apply)."""
    if isinstance(core, WordCore):
        if any(word not in counting.found for word in core.words):
            return None
        limits = _limits_cut(counting, core.at_most)
        return None if limits is None else [*(-counting.found[word] for word in core.words), *limits]
    clause = []
    for pair in core.pairs:
        if pair not in counting.pairs:
            return None
        clause.append(-counting.pairs[pair])
    for triple in core.triples:
        if triple not in counting.triples:
            return None
        clause.append(-counting.triples[triple])
    limits = _limits_cut(counting, core.at_most)
    return None if limits is None else clause + limits


def _limits_cut(counting: CountingModel, at_most: tuple[tuple[str, int], ...]) -> list[int] | None:
    """"Some limited letter in more cells than its limit", as literals of the relaxation (None
    when it lacks one)."""
    literals = []
    for letter, k in at_most:
        var = counting.at_least.get((letter, k + 1))
        if var is None:
            return None
        literals.append(var)
    return literals


MATCH_STEPS = 20_000
"""A renaming search gives up (no match: always safe, the placement session is asked instead)
after this many tries."""


def match_core(core: Core, pairs: set[Pair], counts: dict[str, int],
               pinned: frozenset[str] = frozenset(), triples: set[Triple] | frozenset[Triple] = frozenset(),
               ) -> dict[str, str] | None:
    """A one-to-one renaming of the core's letters under which every pair of the core is in
    ``pairs``, every triple in ``triples`` and every limited letter's count is within its limit;
    None if there is none (or none found within :data:`MATCH_STEPS` tries). Letters in ``pinned``
    (those of fixed cells) keep their names."""
    limits = dict(core.at_most)
    needs: list[tuple[str, ...]] = [*core.pairs, *core.triples]
    touching: dict[str, list[tuple[str, ...]]] = {}
    for need in needs:
        for a in set(need):
            touching.setdefault(a, []).append(need)
    # constrained letters first (most constrained first); a letter only limited goes last
    order = sorted(core.letters, key=lambda a: (-len(touching.get(a, ())), a))
    present = {a for pair in pairs for a in pair}
    candidates = {}
    for a in order:
        pool = [a] if a in pinned else [b for b in sorted(counts) if b not in pinned or b == a]
        candidates[a] = [b for b in pool if counts.get(b, 0) <= limits.get(a, counts.get(b, 0))
                         and (a not in touching or b in present)]
    mapping: dict[str, str] = {}
    used: set[str] = set()
    steps = 0

    def holds(need: tuple[str, ...]) -> bool:
        if len(need) == 2:
            return pair_of(mapping[need[0]], mapping[need[1]]) in pairs
        return triple_of(mapping[need[0]], mapping[need[1]], mapping[need[2]]) in triples

    def extend(index: int) -> bool:
        nonlocal steps
        if index == len(order):
            return True
        a = order[index]
        for b in candidates[a]:
            steps += 1
            if steps > MATCH_STEPS:
                return False
            if b in used:
                continue
            mapping[a] = b
            if all(holds(need) for need in touching.get(a, ()) if all(x in mapping for x in need)):
                used.add(b)
                if extend(index + 1):
                    return True
                used.discard(b)
            del mapping[a]
        return False

    return dict(mapping) if extend(0) else None


def renamed_copy(cores: list[Core], pairs: set[Pair], counts: dict[str, int],
                 pinned: frozenset[str] = frozenset(), triples: set[Triple] | frozenset[Triple] = frozenset(),
                 ) -> Core | None:
    """A known core, renamed so that this solution (its needed ``pairs`` and ``triples`` and its
    letter ``counts``) violates it; None when no known core applies under any renaming."""
    for core in cores:
        mapping = match_core(core, pairs, counts, pinned, triples)
        if mapping is not None:
            return core.renamed(mapping)
    return None


class Cutter:
    """Finds the cut for each solution of one question's relaxation: a known core under a
    renaming when one applies, else a new core from the placement session (kept in
    :attr:`cores`). With an ``executor``, ``jobs`` more searches run on its workers, each
    shrinking in its own order (:mod:`exactgrid.prove.spread`); every different core they
    find is a cut too, added at the round after it arrives."""

    def __init__(self, question: Question, counting: CountingModel, backend: str = "cadical",
                 triples: bool = False, per_round: int = 1, executor: Executor | None = None,
                 jobs: int = 0) -> None:
        self.counting = counting
        self.triples = triples
        self.per_round = per_round
        self.cells = question.board.size
        letters = set(counting.cells)
        self.pinned = frozenset(a for a in question.fixed.values() if a in letters)
        self.placement = Placement(question.board, letters, set(counting.pairs), dict(question.fixed), backend,
                                   set(counting.triples) if triples else set())
        self.spread = (Spread(executor, jobs, PlacementSpec.of(self.placement, backend))
                       if executor is not None and jobs > 0 else None)
        self.cores: list[Core] = []
        self.renamed = 0

    def cut(self, true_vars: frozenset[int], time_limit: float | None) -> list[tuple[list[int], Core]] | str | None:
        """For a relaxation solution: the clauses that cut it, each with its core (a known core
        renamed, or up to :attr:`per_round` new cores with disjoint pairs), together with the
        cores spread searches have found since the last round; or the placement's letters when
        its pairs and counts can be placed (no cut exists); None at the time limit."""
        search = self._search(true_vars)
        counts, pairs, triples = dict(search.counts), set(search.pairs), set(search.triples)
        arrived = self._new(self.spread.harvest()) if self.spread is not None else []
        self.cores += arrived
        core = renamed_copy([*arrived, *self.cores], pairs, counts, self.pinned, triples)
        if core is not None:
            if core not in arrived:
                self.renamed += 1
            return [(self.clause(c), c) for c in dict.fromkeys([*arrived, core])]
        if self.spread is not None:
            self.spread.start(search, None if time_limit is None else time.monotonic() + time_limit)
        found = find_cores(self.placement, search, time_limit)
        if isinstance(found, str):
            return found
        new_cores = self._new(found or [])
        self.cores += new_cores
        cuts = [(self.clause(c), c) for c in [*arrived, *new_cores]]
        return cuts or None  # None: the time limit came before any core

    def spread_only(self, true_vars: frozenset[int], time_limit: float | None) -> list[tuple[list[int], Core]]:
        """When this round was cut otherwise (a word count core): start the spread searches of
        the solution on idle workers, searching nothing here, and hand over the cuts of the
        cores they found since the last round."""
        if self.spread is None:
            return []
        arrived = self._new(self.spread.harvest())
        self.cores += arrived
        search = self._search(true_vars)
        self.spread.start(search, None if time_limit is None else time.monotonic() + time_limit)
        return [(self.clause(c), c) for c in arrived]

    def _search(self, true_vars: frozenset[int]) -> CoreSearch:
        """What a relaxation solution needs placed: its letter counts, pairs and triples."""
        triples = self.counting.needed_triples(true_vars) if self.triples else set()
        return CoreSearch.of(self.counting.needed_pairs(true_vars), self.counting.cell_counts(true_vars), triples,
                             self.per_round)

    def _new(self, cores: list[Core]) -> list[Core]:
        """The cores not known yet, once each."""
        return [c for c in dict.fromkeys(cores) if c not in self.cores]

    def clause(self, core: Core | WordCore) -> list[int]:
        """The relaxation's clause that cuts ``core`` (a core of this question's own letters)."""
        clause = core_cut(self.counting, core)
        if clause is None:  # pragma: no cover - a core only names the model's own pairs and letters
            raise AssertionError(f"core {core.text()} does not apply to its own model")
        return clause

    def close(self) -> None:
        """Free the placement session and stop the spread searches."""
        if self.spread is not None:
            self.spread.stop()
        self.placement.close()


EXACT_FIRST_SECONDS = 5.0
"""Each relaxation solution first gets this long in the exact model with its letter counts;
when that does not settle it, the placement check (pair/count cores) comes next."""


class CoreLoop:
    """The relaxation of one question in one solver session, cut by the cores its solutions
    violate (see the module's docstring). With ``exact``, a solution whose pairs and counts can
    be placed goes on to the question's exact model with its letter counts
    (:class:`~exactgrid.prove.exact.CountCheck`): a grid there answers the question, a word
    count core is one more cut, so the loop decides the question rather than only refuting it."""

    def __init__(self, question: Question, backend: str = "cadical", triples: bool = False,
                 exact: bool = False, relaxation: str = "sat") -> None:
        self.question = question
        self.counting = counting_model(question, objective=False, tight=relaxation == "highs")
        self.cutter = Cutter(question, self.counting, backend, triples)
        self.session: Any = (HighsModel(self.counting.model) if relaxation == "highs"
                             else get_backend(backend).open_session(self.counting.model))
        self.backend = backend
        self.exact = exact
        self.counts: CountCheck | None = None
        self.count_cores: list[WordCore] = []
        self.cuts: list[Core | WordCore] = []
        self.rounds = 0

    @property
    def cores(self) -> list[Core]:
        """The pair/count cores found so far."""
        return self.cutter.cores

    def run(self, time_limit: float | None = None,
            on_round: Callable[[CoreLoop], None] | None = None) -> CoreRefutation:
        """Solve, cut, repeat, until the relaxation has no solution, the exact model finds a grid
        (or, without ``exact``, a solution's pairs and counts can be placed), or the time limit."""
        started = time.monotonic()
        deadline = None if time_limit is None else started + time_limit

        def left() -> float | None:
            return None if deadline is None else max(0.0, deadline - time.monotonic())

        def answer(status: str, placement: str | None = None, grid: Grid | None = None,
                   detail: str = "") -> CoreRefutation:
            return CoreRefutation(status, tuple(self.cores), self.rounds, self.cutter.renamed,
                                  time.monotonic() - started, placement, detail, tuple(self.count_cores), grid,
                                  tuple(self.cuts))

        while True:
            self.rounds += 1
            result = self.session.solve(time_limit=left())
            if result.status == Status.UNSAT:
                return answer("refuted")
            if result.status == Status.UNKNOWN:
                return answer("open")
            true_vars = result.true_vars or frozenset()
            exact = self._exact(true_vars, left(), first=True)  # fast where it works: try it first
            if isinstance(exact, Grid):
                return answer("fits", grid=exact)
            cut = exact if exact is not None else self.cutter.cut(true_vars, left())
            if cut is None:
                return answer("open")
            if isinstance(cut, str):
                if self.counts is None or not self.counts.usable:  # (built by the first try, when exact)
                    return answer("placed", cut)
                exact = self._exact(true_vars, left())
                if exact is None:
                    return answer("open", cut)
                if isinstance(exact, Grid):
                    return answer("fits", cut, exact)
                cut = exact
            for clause, core in cut:
                self.session.add_clause(clause)
                self.cuts.append(core)
            if on_round is not None:
                on_round(self)

    def _exact(self, true_vars: frozenset[int], time_limit: float | None,
               first: bool = False) -> Grid | list[tuple[list[int], Core | WordCore]] | None:
        """Ask the exact model about a solution's letter counts (``first``: within
        :data:`EXACT_FIRST_SECONDS`, before any placement check): a grid, the cut of a word
        count core, or None (time limit, or no exact check for this question)."""
        if not self.exact:
            return None
        if self.counts is None:
            deadline = None if time_limit is None else time.monotonic() + time_limit
            self.counts = CountCheck(self.question, set(self.counting.cells) | {OTHER}, self.backend, deadline)
        if not self.counts.usable:
            return None
        counts = self.counting.cell_counts(true_vars)
        counts[OTHER] = self.question.board.size - sum(counts.values())
        if first:
            time_limit = EXACT_FIRST_SECONDS if time_limit is None else min(time_limit, EXACT_FIRST_SECONDS)
        found = self.counts.check(counts, time_limit)
        if found is None or isinstance(found, Grid):
            return found
        self.count_cores.append(found)
        return [(self.cutter.clause(found), found)]

    def close(self) -> None:
        """Free the solvers."""
        self.session.close()
        self.cutter.close()
        if self.counts is not None:
            self.counts.close()


def refute_by_cores(question: Question, time_limit: float | None = 60.0, backend: str = "cadical",
                    on_round: Callable[[CoreLoop], None] | None = None, triples: bool = False,
                    exact: bool = False, relaxation: str = "sat") -> CoreRefutation:
    """Run the core loop on ``question`` (see the module's docstring) within ``time_limit``;
    ``open`` at once when the board and pairs would make the placement model too large.
    ``triples``: placements must also hold the letter triples the spellings need (a cell of b
    next to an a and a c for each unaltered stretch abc): more cuts, and more rounds.
    ``exact``: ask the question's exact model about the letter counts of each solution that can
    be placed (:class:`CoreLoop`): the answer may then be ``fits``, with a grid."""
    started = time.monotonic()
    try:
        loop = CoreLoop(question, backend, triples, exact, relaxation)
    except PlacementTooLarge as exc:
        return CoreRefutation("open", (), 0, 0, time.monotonic() - started, detail=str(exc))
    try:
        return loop.run(time_limit, on_round)
    finally:
        loop.close()
