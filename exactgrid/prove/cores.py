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
from collections.abc import Callable, Iterable
from concurrent.futures import Executor
from typing import Any

from ..answer import DEFAULT_TIME_LIMIT, OnProgress, ProgressEvent
from ..backends import Status, get_backend
from ..backends.ilp import HighsModel
from ..grid import Grid
from ..inputs import InputError, check_callbacks, check_seconds
from ..question import Question
from ..stopping import interruption
from ..verify import check_grid
from .answers import CoreRefutation
from .counting import OTHER, CountingModel, counting_model
from .cuts import Cut, Cuts, Placeable, Spelled, TimedOut
from .exact import CountCheck, WordCore
from .placement import Core, Pair, Placement, PlacementTooLarge, Triple, pair_of, triple_of
from .spread import CoreSearch, PlacementSpec, Spread, find_cores


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


def bound_of_cores(question: Question, cores: Iterable[Core | WordCore], capacity: bool = True) -> int | None:
    """What ``cores`` prove on ``question``: the optimum of its counting relaxation (HiGHS, with
    ``capacity`` as the bound had it) with each core's cut; None when no solution is left (the
    cores refute the question). A bound's record names its cores and its bound; this links the
    two, without the DRUP proofs of :func:`~exactgrid.prove.certify.confirm_bound` (minutes on
    5x5 where those take an hour). :class:`~exactgrid.inputs.InputError` for a core naming a
    pair or letter the relaxation does not hold, which cannot have come from it."""
    counting = counting_model(question, objective=True, capacity=capacity)
    for core in cores:
        cut = core_cut(counting, core)
        if cut is None:
            raise InputError(f"the core {core} names a pair or letter the question's relaxation does not hold")
        counting.model.add_clause(cut)
    solution = HighsModel(counting.model).solve()
    if solution.status == Status.UNSAT:
        return None
    assert solution.status == Status.OPTIMAL and solution.objective is not None  # HiGHS without a time limit
    return solution.objective


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

    def cut(self, true_vars: frozenset[int], time_limit: float | None) -> Cuts | Placeable | TimedOut:
        """For a relaxation solution: the clauses that cut it, each with its core (a known core
        renamed, or up to :attr:`per_round` new cores with disjoint pairs), together with the
        cores spread searches have found since the last round; or :class:`Placeable` when its
        pairs and counts can be placed (no cut exists); :class:`TimedOut` at the time limit."""
        search = self._search(true_vars)
        counts, pairs, triples = dict(search.counts), set(search.pairs), set(search.triples)
        arrived = self._new(self.spread.harvest()) if self.spread is not None else []
        self.cores += arrived
        core = renamed_copy([*arrived, *self.cores], pairs, counts, self.pinned, triples)
        if core is not None:
            if core not in arrived:
                self.renamed += 1
            return self._cuts(dict.fromkeys([*arrived, core]))
        if self.spread is not None:
            self.spread.start(search, None if time_limit is None else time.monotonic() + time_limit)
        found = find_cores(self.placement, search, time_limit)
        if isinstance(found, str):
            return Placeable(found)
        new_cores = self._new(found or [])
        self.cores += new_cores
        cuts = self._cuts([*arrived, *new_cores])
        return cuts if cuts.clauses else TimedOut()  # none: the time limit came before any core

    def spread_only(self, true_vars: frozenset[int], time_limit: float | None) -> Cuts:
        """When this round was cut otherwise (a word count core): start the spread searches of
        the solution on idle workers, searching nothing here, and hand over the cuts of the
        cores they found since the last round."""
        if self.spread is None:
            return Cuts(())
        arrived = self._new(self.spread.harvest())
        self.cores += arrived
        search = self._search(true_vars)
        self.spread.start(search, None if time_limit is None else time.monotonic() + time_limit)
        return self._cuts(arrived)

    def _search(self, true_vars: frozenset[int]) -> CoreSearch:
        """What a relaxation solution needs placed: its letter counts, pairs and triples."""
        triples = self.counting.needed_triples(true_vars) if self.triples else set()
        return CoreSearch.of(self.counting.needed_pairs(true_vars), self.counting.cell_counts(true_vars), triples,
                             self.per_round)

    def _new(self, cores: list[Core]) -> list[Core]:
        """The cores not known yet, once each."""
        return [c for c in dict.fromkeys(cores) if c not in self.cores]

    def _cuts(self, cores: Iterable[Core]) -> Cuts:
        """The cuts of ``cores``, each with its clause."""
        return Cuts(tuple((self.clause(c), c) for c in cores))

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
        # a SAT session gets unary counts: the same solutions, and CDCL then propagates the sums
        # (4x4_m8 refuted in 1.9 s instead of 24.6 s; docs/benchmarks.md, Prove)
        self.counting = counting_model(question, objective=False, tight=relaxation == "highs",
                                       unary=relaxation != "highs")
        self.cutter = Cutter(question, self.counting, backend, triples)
        self.session: Any = (HighsModel(self.counting.model) if relaxation == "highs"
                             else get_backend(backend).open_session(self.counting.model))
        self.backend = backend
        self.exact = exact
        self.counts: CountCheck | None = None
        self.count_cores: list[WordCore] = []
        self.cuts: list[Core | WordCore] = []
        self.rounds = 0
        self._started = time.monotonic()
        self._deadline: float | None = None
        self._placed: str | None = None  # this round's placement, once the exact model is asked about it

    @property
    def cores(self) -> list[Core]:
        """The pair/count cores found so far."""
        return self.cutter.cores

    def run(self, time_limit: float | None = None, on_round: Callable[[CoreLoop], None] | None = None,
            on_progress: OnProgress | None = None) -> CoreRefutation:
        """Solve, cut, repeat, until the relaxation has no solution, the exact model finds a grid
        (or, without ``exact``, a solution's pairs and counts can be placed), or the time limit.
        ``on_round(loop)`` hears each round that cut; ``on_progress`` a ``round`` event (job
        ``counting``) for each core cut. On Ctrl-C/SIGTERM the answer is ``open``, with
        ``stopped_by`` and the cores cut so far."""
        self._started = time.monotonic()
        self._deadline = None if time_limit is None else self._started + time_limit
        try:
            while True:
                settled = self._round(on_progress)
                if settled is not None:
                    return settled
                if on_round is not None:
                    on_round(self)
        except KeyboardInterrupt as exc:
            stopped = interruption(exc)
            return self._answer("open", detail=f"interrupted ({stopped})", stopped_by=stopped)

    def _left(self) -> float | None:
        return None if self._deadline is None else max(0.0, self._deadline - time.monotonic())

    def _answer(self, status: str, placement: str | None = None, grid: Grid | None = None, detail: str = "",
                stopped_by: str | None = None) -> CoreRefutation:
        return CoreRefutation(status, tuple(self.cores), self.rounds, self.cutter.renamed,
                              time.monotonic() - self._started, placement, detail, tuple(self.count_cores), grid,
                              tuple(self.cuts), stopped_by)

    def _round(self, on_progress: OnProgress | None) -> CoreRefutation | None:
        """One round: solve the relaxation and cut its solution; the answer when that settles
        the question, else None (the cuts are added)."""
        self.rounds += 1
        self._placed = None
        result = self.session.solve(time_limit=self._left())
        if result.status == Status.UNSAT:
            return self._answer("refuted")
        if result.status == Status.UNKNOWN:
            return self._answer("open", detail="the time limit came first")
        cut = self._cut(result.true_vars or frozenset())
        if isinstance(cut, Spelled):
            _check_spelled(self.question, cut.grid)
            return self._answer("fits", self._placed, cut.grid)
        if isinstance(cut, Placeable):
            return self._answer("placed", cut.letters)
        if not isinstance(cut, Cuts):
            return self._answer("open", self._placed, detail="the time limit came first")
        for clause, core in cut.clauses:
            self.session.add_clause(clause)
            self.cuts.append(core)
            if on_progress is not None:
                on_progress(ProgressEvent("counting", f"round {self.rounds}, {len(self.cuts)} cuts",
                                          time.monotonic() - self._started, done=self.rounds, kind="round",
                                          data=core))
        return None

    def _cut(self, true_vars: frozenset[int]) -> Cut:
        """What cuts a relaxation solution: the exact model first (fast where it works), then
        the placement check, then (placeable, with ``exact``) the exact model without a cap."""
        exact = self._exact(true_vars, self._left(), first=True)
        if exact is not None:
            return exact
        cut = self.cutter.cut(true_vars, self._left())
        if not isinstance(cut, Placeable) or self.counts is None or not self.counts.usable:
            return cut  # (the counts check was built by the first try, when exact)
        self._placed = cut.letters
        exact = self._exact(true_vars, self._left())
        return TimedOut() if exact is None else exact

    def _exact(self, true_vars: frozenset[int], time_limit: float | None,
               first: bool = False) -> Spelled | Cuts | None:
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
        if found is None:
            return None
        if isinstance(found, Grid):
            return Spelled(found)
        self.count_cores.append(found)
        return Cuts(((self.cutter.clause(found), found),))

    def close(self) -> None:
        """Free the solvers."""
        self.session.close()
        self.cutter.close()
        if self.counts is not None:
            self.counts.close()


def _check_spelled(question: Question, grid: Grid) -> None:
    """The finder's check of a grid the exact model spelled: a grid it rejects is a bug in an
    encoding, never an answer (AssertionError)."""
    problems = check_grid(question, grid).problems
    if problems:
        raise AssertionError(f"the exact model spelled {grid.letters}, which the finder rejects: "
                             + "; ".join(problems))


RELAXATION_SOLVERS = ("sat", "highs")
"""What solves the counting relaxation in :func:`refute_by_cores`: a SAT session or HiGHS."""


def refute_by_cores(question: Question, time_limit: float | None = DEFAULT_TIME_LIMIT, backend: str = "cadical",
                    on_round: Callable[[CoreLoop], None] | None = None, triples: bool = False,
                    exact: bool = False, relaxation: str = "sat",
                    on_progress: OnProgress | None = None) -> CoreRefutation:
    """Run the core loop on ``question`` (see the module's docstring) within ``time_limit``
    seconds of wall-clock time from the call (None: no limit); ``open`` at once when the board
    and pairs would make the placement model too large. ``triples``: placements must also hold
    the letter triples the spellings need (a cell of b next to an a and a c for each unaltered
    stretch abc): more cuts, and more rounds. ``exact``: ask the question's exact model about
    the letter counts of each solution that can be placed (:class:`CoreLoop`): the answer may
    then be ``fits``, with a grid. ``on_round(loop)`` hears each round, ``on_progress`` each
    core cut (see :meth:`CoreLoop.run`). Ctrl-C/SIGTERM answers ``open`` with ``stopped_by``."""
    started = time.monotonic()
    if not isinstance(question, Question):
        raise InputError(f"refute_by_cores() takes a Question, got {type(question).__name__}")
    check_callbacks(on_round=on_round, on_progress=on_progress)
    if time_limit is not None:
        time_limit = check_seconds(time_limit)
    if relaxation not in RELAXATION_SOLVERS:
        raise InputError(f"relaxation must be one of {', '.join(RELAXATION_SOLVERS)}, got {relaxation!r}")
    try:
        loop = CoreLoop(question, backend, triples, exact, relaxation)
    except PlacementTooLarge as exc:
        return CoreRefutation("open", (), 0, 0, time.monotonic() - started, detail=str(exc))
    except KeyboardInterrupt as exc:
        stopped = interruption(exc)
        return CoreRefutation("open", (), 0, 0, time.monotonic() - started, detail=f"interrupted ({stopped})",
                              stopped_by=stopped)
    try:
        left = None if time_limit is None else max(0.0, time_limit - (time.monotonic() - started))
        return loop.run(left, on_round, on_progress)
    finally:
        loop.close()
