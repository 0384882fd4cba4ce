"""The counting relaxation: necessary conditions on letter counts and letter pairs that any
grid holding the words must meet, as one boolean model solved through the backends.

Where the exact model follows walks cell by cell, this one only counts (issue 12's relaxation):

* ``c[a][d]``: how many cells of degree d hold letter a (binary-coded whole numbers, or with
  ``unary`` a row of order literals, "at least k cells", one per cell of that degree); per
  degree they add up to the board's cells of that degree. Letters no word uses share one
  "other" count.
* ``u[a]``: letter a is on the board (at least one cell, and no more cells than the board has).
* ``e[a,b]``: some two adjacent cells hold the letters a and b. Such a pair needs both letters;
  a doubled letter (``e[a,a]``) needs two cells of it (a walk never stays on a cell); there are
  no more distinct pairs than adjacent cell pairs; and a letter's distinct neighbouring letters
  (an a-a pair counting twice) are at most the edge ends its cells have.
* ``z[w,p]``: word w spelled with only position p altered (or none): every other letter present,
  every consecutive pair of unaltered letters an adjacent pair. The altered cell may hold any
  letter, so it demands nothing. ``y[w]``: some ``z[w,p]``.
* With ``capacity`` (:mod:`exactgrid.prove.capacity`): ``s[a,P]``, letter a's cells have
  profile P (so many cells of each degree), with two of them adjacent or not; a's distinct
  neighbouring letters are at most the cells around a set of that profile (fewer when two of its
  cells touch, which a doubled pair needs).

Fixed cells and letter domains enter as counts: a letter holds at least the cells of each
degree fixed to it, and no more than the cells of that degree that may hold it.

Every grid holding the words meets every constraint, so when the model has no solution the
question has none (a refutation "by counting"), and its optimum bounds the best score.
Forbidden words, fixed cells and domains beyond their letter counts, chains and the
simple-path rule only narrow the real question, so leaving them out keeps the model a
relaxation. Alteration budgets above 1 are not modelled (the relaxation then refuses the
question).
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from ..answer import DEFAULT_TIME_LIMIT, Answer, Outcome
from ..backends import Status, get_backend
from ..encoding import EncodingTimeout, check_model_growth
from ..inputs import InputError
from ..model import BoolModel
from ..question import Question, Requirement
from .capacity import CapacityTable, neighbour_capacity
from .placement import COUNT_LIMIT, pair_of, triple_of

OTHER = "_"
"""The letter class of every letter no modelled word uses."""


@dataclass
class CountingModel:
    """The relaxation of one question: the model and its named variables."""

    model: BoolModel
    found: dict[str, int] = field(default_factory=dict)
    """word -> y[w] (true when the word counts as found), for reading a solution back."""
    cells: dict[str, list[tuple[int, int]]] = field(default_factory=dict)
    """letter -> (bit variable, value) terms summing to the cells holding it."""
    at_least: dict[tuple[str, int], int] = field(default_factory=dict)
    """(letter, k) -> a variable that, when true, puts the letter in k or more cells (1 <= k <=
    COUNT_LIMIT + 1: enough for every limit a core can hold); also for :data:`OTHER`."""
    pairs: dict[tuple[str, str], int] = field(default_factory=dict)
    """(a, b), a <= b -> e[a,b]."""
    demands: list[tuple[int, tuple[tuple[str, str], ...]]] = field(default_factory=list)
    """(z[w,p], the pairs it needs adjacent)."""
    triples: dict[tuple[str, str, str], int] = field(default_factory=dict)
    """(a, b, c), a < c -> t[a,b,c]: some cell of b has neighbours holding a and c."""
    triple_demands: list[tuple[int, tuple[tuple[str, str, str], ...]]] = field(default_factory=list)
    """(z[w,p], the triples its unaltered stretches need)."""

    def cell_counts(self, true_vars: frozenset[int] | set[int]) -> dict[str, int]:
        """How many cells hold each letter in a solution (:data:`OTHER` not included)."""
        return {a: sum(w for v, w in terms if v in true_vars) for a, terms in self.cells.items()}

    def needed_pairs(self, true_vars: frozenset[int] | set[int]) -> set[tuple[str, str]]:
        """The pairs the solution's spellings need adjacent (a subset of the true e[a,b])."""
        return {p for z, needs in self.demands if z in true_vars for p in needs}

    def needed_triples(self, true_vars: frozenset[int] | set[int]) -> set[tuple[str, str, str]]:
        """The triples the solution's spellings need (a subset of the true t[a,b,c])."""
        return {t for z, needs in self.triple_demands if z in true_vars for t in needs}


@dataclass(frozen=True)
class CountingAnswer(Answer):
    """What counting says about a question: refuted (no grid can hold it), or not, and the
    largest score the relaxation allows (an upper bound on the best grid's).

    ``outcome``: DOES_NOT_FIT (refuted), BOUNDED (a bound: the optimum, or the backend's bound
    at the time limit), UNKNOWN (no bound)."""

    status: str
    """``refuted``, ``bounded`` (an optimum of the relaxation), ``open`` (the time limit came first)."""
    bound: int | None
    backend: str
    seconds: float
    how: str
    stopped_by: str | None = None
    """The interruption that ended the work (``Ctrl-C``, ``SIGTERM``, ``SIGHUP``), or None."""

    @property
    def outcome(self) -> Outcome:  # type: ignore[override]
        """DOES_NOT_FIT, BOUNDED or UNKNOWN."""
        if self.status == "refuted":
            return Outcome.DOES_NOT_FIT
        return Outcome.BOUNDED if self.bound is not None else Outcome.UNKNOWN

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: the contract's keys, then status, bound, backend, seconds, how."""
        return {**self.contract_dict(), "status": self.status, "bound": self.bound, "backend": self.backend,
                "seconds": round(self.seconds, 3), "how": self.how}

    def text(self) -> str:
        """What ``exactgrid bound --method relaxation`` printed."""
        if self.status == "refuted":
            head = "DOES NOT FIT, by counting"
        elif self.bound is None:
            head = "no bound within the time limit"
        else:
            head = f"upper bound {self.bound:,}" + (" (the relaxation's optimum)" if self.status == "bounded" else "")
        return f"{head}\nhow: {self.how} ({self.backend}, {self.seconds:.2f} s)"


def _spellings(requirement: Requirement, budget: int) -> list[tuple[str, int | None]]:
    """(letters, altered position or None) forms a required word may take in the relaxation."""
    word = requirement.word
    if requirement.mode == "exact" or budget == 0:
        return [(word, None)]
    if requirement.mode == "spelled":
        return [(requirement.spelled, None)]  # type: ignore[list-item]
    if requirement.mode == "position":
        p = requirement.position - 1  # type: ignore[operator]
        if requirement.letter is not None:
            return [(word[:p] + requirement.letter + word[p + 1:], None)]
        return [(word, p)]
    return [(word, None), *((word, p) for p in range(len(word)))]


def _any_form(word: str, budget: int) -> list[tuple[str, int | None]]:
    return [(word, None)] if budget == 0 else [(word, None), *((word, p) for p in range(len(word)))]


def counting_model(question: Question, objective: bool = True, tight: bool = True,
                   capacity: bool = False, unary: bool = False, deadline: float | None = None) -> CountingModel:
    """The counting relaxation of ``question`` (see the module's docstring); with ``objective``,
    maximise the summed weight of the words counted found (required and optional).

    ``tight``: a found word takes exactly one spelling, and each letter or pair it may need is
    bounded below by the sum of the spellings needing it. The solutions are the same; the LP
    relaxation is far tighter, while SAT solvers are a little slower with the extra sums, so the
    core loop leaves them out (measured in docs/benchmarks.md, section Prove).

    ``capacity``: bound each letter's distinct neighbouring letters by the board's geometry
    (:mod:`exactgrid.prove.capacity`): fewer solutions, every grid's still among them; the
    bound's HiGHS model uses it.

    ``unary``: each count is a row of order literals instead of binary digits: the same
    solutions, more variables. HiGHS does as well either way; CaDiCaL only with ``unary``, where
    "letter A needs two cells" is one literal that the sums over the cells propagate (the
    certificates refute this form: docs/benchmarks.md, Prove).

    ``deadline`` (a ``time.monotonic()`` value): raise
    :class:`~exactgrid.encoding.EncodingTimeout` once it has passed while the words are modelled.

    Raises InputError for an alteration budget above 1, and
    :class:`~exactgrid.encoding.ModelTooLarge` (an InputError) for a model of more than
    :data:`~exactgrid.encoding.MAX_MODEL_LITERALS` literals (some 9,000 words of ENABLE).
    """
    if question.budget > 1:
        raise InputError("the counting relaxation models at most one altered letter per word")
    return _Builder(question, tight, capacity, unary, deadline).build(objective)


Terms = list[tuple[int, int]]
"""(bit variable, value) terms of a binary-coded whole number."""


class _Builder:
    """Builds one question's counting relaxation, part by part (see the module's docstring)."""

    def __init__(self, question: Question, tight: bool, capacity: bool = False, unary: bool = False,
                 deadline: float | None = None) -> None:
        self.question = question
        self.deadline = deadline
        self.unary = unary
        self.board = question.board
        self.tight = tight
        self.capacity = neighbour_capacity(self.board) if capacity else None
        budget = question.budget
        self.forms: dict[str, list[tuple[str, int | None]]] = {r.word: _spellings(r, budget)
                                                                for r in question.required}
        for word in question.optional:
            self.forms.setdefault(word, _any_form(word, budget))
        self.letters = sorted({ch for options in self.forms.values() for text, _ in options for ch in text})
        self.model = BoolModel()
        self.degrees = Counter(len(self.board.neighbours[c]) for c in range(self.board.size))
        self.counts: dict[tuple[str, int], Terms] = {}  # (letter, degree) -> its cells of that degree
        self.present: dict[str, int] = {}
        self.cells_of: dict[str, Terms] = {}
        self.at_least: dict[tuple[str, int], int] = {}
        self.pairs: dict[tuple[str, str], int] = {}
        self.found: dict[str, int] = {}
        self.demands: list[tuple[int, tuple[tuple[str, str], ...]]] = []
        self.triples: dict[tuple[str, str, str], int] = {}
        self.triple_demands: list[tuple[int, tuple[tuple[str, str, str], ...]]] = []

    def build(self, objective: bool) -> CountingModel:
        """The whole relaxation (``objective``: maximise the found words' weight)."""
        self._letter_counts()
        self._presence()
        self._fixed_cells()
        self._cell_room()
        self._thresholds()
        for word, options in self.forms.items():
            self._word(word, options)
        for r in self.question.required:
            self.model.add_clause([self.found[r.word]])
        self._pair_limits()
        if self.capacity is not None:
            for a in self.letters:
                self._capacity(a, self.capacity)
        self._targets(objective)
        return CountingModel(self.model, self.found, self.cells_of, self.at_least, self.pairs, self.demands,
                             self.triples, self.triple_demands)

    def _letter_counts(self) -> None:
        """c[a][d]: per degree, the cells of each letter (and of the other letters) add up to
        the board's cells of that degree."""
        for letter in [*self.letters, OTHER]:
            for degree, cells in self.degrees.items():
                if self.unary:
                    order = self.model.new_vars(cells, f"c[{letter},{degree}]")
                    for lower, higher in zip(order, order[1:]):
                        self.model.add_clause([-higher, lower])
                    self.counts[letter, degree] = [(var, 1) for var in order]
                    continue
                bits = self.model.new_vars(cells.bit_length(), f"c[{letter},{degree}]")
                self.counts[letter, degree] = [(var, 1 << k) for k, var in enumerate(bits)]
        for degree, cells in self.degrees.items():
            terms = [t for letter in [*self.letters, OTHER] for t in self.counts[letter, degree]]
            self.model.add_linear([v for v, _ in terms], [w for _, w in terms], "==", cells)

    def _presence(self) -> None:
        """u[a]: letter a is on the board (at least one cell), else in no cell."""
        self.present = {a: self.model.new_var(f"u[{a}]") for a in self.letters}
        self.cells_of = {a: [t for d in self.degrees for t in self.counts[a, d]] for a in self.letters}
        for a in self.letters:
            lits, weights = [v for v, _ in self.cells_of[a]], [w for _, w in self.cells_of[a]]
            self.model.add_linear([*lits, self.present[a]], [*weights, -1], ">=", 0)
            self.model.add_linear([*lits, self.present[a]], [*weights, -self.board.size], "<=", 0)

    def _fixed_cells(self) -> None:
        """Fixed cells: at least that many cells of the letter with that degree."""
        neighbours = self.board.neighbours
        fixed = Counter((letter if letter in self.present else OTHER, len(neighbours[cell]))
                        for cell, letter in self.question.fixed.items())
        for (letter, degree), number in fixed.items():
            terms = self.counts[letter, degree]
            self.model.add_linear([v for v, _ in terms], [w for _, w in terms], ">=", number)

    def _cell_room(self) -> None:
        """Fixed cells and letter domains: no more cells of a letter with a degree than the
        cells of that degree that may hold it."""
        if not (self.question.fixed or self.question.domains):
            return
        room: Counter[tuple[str, int]] = Counter()
        for cell in range(self.board.size):
            degree = len(self.board.neighbours[cell])
            allowed = self.question.cell_letters(cell)
            classes = None if allowed is None else {ch if ch in self.present else OTHER for ch in allowed}
            for letter in [*self.letters, OTHER]:
                room[letter, degree] += classes is None or letter in classes
        for (letter, degree), terms in self.counts.items():
            if room[letter, degree] < self.degrees[degree]:
                self.model.add_linear([v for v, _ in terms], [w for _, w in terms], "<=", room[letter, degree])

    def _thresholds(self) -> None:
        """g[a,k]: letter a in k or more cells, for every k a core can name (the other letters
        too: word count cores may limit them)."""
        top = min(self.board.size, COUNT_LIMIT + 1)
        for a in self.letters:
            self.at_least[a, 1] = self.present[a]
            for k in range(2, top + 1):
                self._at_least(a, k, self.cells_of[a])
        other = [t for d in self.degrees for t in self.counts[OTHER, d]]
        for k in range(1, top + 1):
            self._at_least(OTHER, k, other)

    def _at_least(self, letter: str, k: int, terms: Terms) -> None:
        var = self.at_least[letter, k] = self.model.new_var(f"g[{letter},{k}]")
        self.model.add_linear([v for v, _ in terms] + [var], [w for _, w in terms] + [-k], ">=", 0)

    def _pair(self, a: str, b: str) -> int:
        """e[a,b] (made when first needed): both letters present, two cells of a doubled one."""
        key = pair_of(a, b)
        if key not in self.pairs:
            var = self.pairs[key] = self.model.new_var(f"e[{key[0]},{key[1]}]")
            self.model.add_clause([-var, self.present[key[0]]])
            self.model.add_clause([-var, self.present[key[1]]])
            if key[0] == key[1]:  # a doubled letter needs two cells
                lits, weights = [v for v, _ in self.cells_of[a]], [w for _, w in self.cells_of[a]]
                self.model.add_linear([*lits, var], [*weights, -2], ">=", 0)
        return self.pairs[key]

    def _word(self, word: str, options: list[tuple[str, int | None]]) -> None:
        """z[w,p] for each spelling and y[w] for the word (see the module's docstring)."""
        alternatives = []
        letter_needs: dict[str, list[int]] = {}
        pair_needs: dict[tuple[str, str], list[int]] = {}
        for text, altered in options:
            check_model_growth(self.model, self.deadline)
            z = self.model.new_var(f"z[{word},{altered}]")
            alternatives.append(z)
            for ch in {ch for i, ch in enumerate(text) if i != altered}:
                self.model.add_clause([-z, self.present[ch]])
                letter_needs.setdefault(ch, []).append(z)
            needs = {pair_of(text[i], text[i + 1]) for i in range(len(text) - 1) if altered not in (i, i + 1)}
            for a, b in sorted(needs):
                self.model.add_clause([-z, self._pair(a, b)])
                pair_needs.setdefault((a, b), []).append(z)
            self.demands.append((z, tuple(sorted(needs))))
            self._stretches(z, text, altered)
        y = self.found[word] = self.model.new_var(f"y[{word}]")
        if not self.tight:
            self.model.add_clause([-y, *alternatives])
            return
        # one spelling per found word (a grid holding it picks one), so a letter or pair is needed
        # by the sum of the spellings needing it: the same solutions, a far tighter LP
        self.model.add_linear([*alternatives, y], [1] * len(alternatives) + [-1], "==", 0)
        for needed, chosen in [*((self.present[ch], zs) for ch, zs in letter_needs.items()),
                               *((self.pairs[key], zs) for key, zs in pair_needs.items())]:
            if len(chosen) > 1:
                self.model.add_linear([needed, *chosen], [1] + [-1] * len(chosen), ">=", 0)

    def _stretches(self, z: int, text: str, altered: int | None) -> None:
        """t[a,b,c] for each unaltered stretch abc of a spelling z."""
        stretches = {triple_of(*text[i:i + 3]) for i in range(len(text) - 2) if altered not in (i, i + 1, i + 2)}
        stretches.discard(None)
        for key in sorted(stretches):  # type: ignore[type-var]
            if key not in self.triples:
                self.triples[key] = self.model.new_var(f"t[{''.join(key)}]")
            self.model.add_clause([-z, self.triples[key]])
        self.triple_demands.append((z, tuple(sorted(stretches))))  # type: ignore[arg-type]

    def _pair_limits(self) -> None:
        """No more distinct pairs than adjacent cell pairs; a letter's distinct neighbouring
        letters at most the edge ends of its cells (an a-a pair uses two)."""
        if self.pairs:
            self.model.add_linear(list(self.pairs.values()), None, "<=", len(self.board.edges))
        for a in self.letters:
            ends = [(v, w * d) for d in self.degrees for v, w in self.counts[a, d]]
            touching = [(var, 2 if key[0] == key[1] else 1) for key, var in self.pairs.items() if a in key]
            if touching:
                self.model.add_linear([v for v, _ in touching] + [v for v, _ in ends],
                                      [w for _, w in touching] + [-w for _, w in ends], "<=", 0)

    def _capacity(self, a: str, table: CapacityTable) -> None:
        """s[a,P] (see the module's docstring): letter a's cells take one profile, or more
        cells than the table holds; its distinct neighbouring letters are at most the
        profile's capacity, and a doubled pair needs a profile whose cells touch."""
        model = self.model
        chosen: list[tuple[int, tuple[int, ...], int, bool]] = []  # (s, profile, capacity, touching)
        for profile, room in sorted(table.profiles.items()):
            name = "".join(map(str, profile))
            chosen.append((model.new_var(f"s[{a},{name}]"), profile, room.spread, False))
            if room.touching is not None:
                chosen.append((model.new_var(f"s[{a},{name},touching]"), profile, room.touching, True))
        beyond = model.new_var(f"s[{a},beyond]")
        picks = [s for s, *_ in chosen]
        model.add_linear([*picks, beyond, self.present[a]], [1] * (len(picks) + 1) + [-1], "==", 0)
        cells = self.cells_of[a]
        model.add_linear([v for v, _ in cells] + [beyond], [w for _, w in cells] + [-(table.most_cells + 1)],
                         ">=", 0)
        for index, degree in enumerate(table.degrees):
            terms = self.counts[a, degree]  # a profile fixes the cells of each degree, "beyond" does not
            lits = [v for v, _ in terms] + picks
            weights = [w for _, w in terms] + [-profile[index] for _, profile, _, _ in chosen]
            model.add_linear(lits, weights, ">=", 0)
            model.add_linear([*lits, beyond], [*weights, -self.degrees[degree]], "<=", 0)
        doubled = self.pairs.get((a, a))
        if doubled is not None:
            touching = [s for s, _, _, touches in chosen if touches]
            model.add_linear([doubled, *touching, beyond], [1] + [-1] * (len(touching) + 1), "<=", 0)
        others = [var for key, var in self.pairs.items() if a in key and key[0] != key[1]]
        if others:
            model.add_linear(others + picks + [beyond], [1] * len(others) + [-room for _, _, room, _ in chosen]
                             + [-table.beyond], "<=", 0)

    def _targets(self, objective: bool) -> None:
        """The question's minimum score and count, and the objective."""
        question = self.question
        weights = [question.optional.get(w, question.words.weight(w)) for w in self.forms]
        counted = [self.found[w] for w in self.forms]
        if question.min_score is not None:
            self.model.add_linear(counted, weights, ">=", question.min_score)
        if question.min_count is not None:
            self.model.add_linear(counted, None, ">=", question.min_count)
        if objective:
            self.model.maximise(counted, weights)


def count_question(question: Question, backend: str | None = "highs", time_limit: float | None = DEFAULT_TIME_LIMIT,
                   objective: bool = True) -> CountingAnswer:
    """Solve the counting relaxation: ``refuted`` when it has no solution (then the question has
    none), else the relaxation's best score as an upper bound (``bounded`` when proven optimal,
    ``open`` with the backend's bound at the time limit)."""
    started = time.monotonic()
    solver = get_backend(backend)
    try:
        counting = counting_model(question, objective,
                                  deadline=None if time_limit is None else started + time_limit)
    except EncodingTimeout as exc:
        return CountingAnswer("open", None, solver.name, time.monotonic() - started,
                              f"the time limit came while the relaxation was built ({exc})")
    left = None if time_limit is None else max(0.0, time_limit - (time.monotonic() - started))
    result = solver.solve(counting.model, time_limit=left)
    seconds = time.monotonic() - started
    size = f"{counting.model.num_vars:,} variables"
    if result.status == Status.UNSAT:
        return CountingAnswer("refuted", None, solver.name, seconds,
                              f"the letter counts and pairs the words need cannot share a "
                              f"{question.board.shape_name} board (counting relaxation, {size})")
    if result.status == Status.OPTIMAL:
        return CountingAnswer("bounded", result.objective, solver.name, seconds,
                              f"the largest score the counting relaxation allows ({size})")
    if result.status == Status.SAT and not objective:
        return CountingAnswer("open", None, solver.name, seconds, f"the counting relaxation has a solution ({size})")
    return CountingAnswer("open", result.bound, solver.name, seconds, f"the time limit came first ({size})")
