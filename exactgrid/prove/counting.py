"""The counting relaxation: necessary conditions on letter counts and letter pairs that any
grid holding the words must meet, as one boolean model solved through the backends.

Where the exact model follows walks cell by cell, this one only counts (issue 12's relaxation):

* ``c[a][d]``: how many cells of degree d hold letter a (binary-coded whole numbers); per
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

Every grid holding the words meets every constraint, so when the model has no solution the
question has none (a refutation "by counting"), and its optimum bounds the best score. Forbidden
words, fixed cells beyond their letter counts, chains and the simple-path rule only narrow the
real question, so leaving them out keeps the model a relaxation. Alteration budgets above 1 are
not modelled (the relaxation then refuses the question).
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from ..backends import Status, get_backend
from ..inputs import InputError
from ..model import BoolModel
from ..question import Question, Requirement
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
class CountingAnswer:
    """What counting says about a question: refuted (no grid can hold it), or not, and the
    largest score the relaxation allows (an upper bound on the best grid's)."""

    status: str
    """``refuted``, ``bounded`` (an optimum of the relaxation), ``open`` (the time limit came first)."""
    bound: int | None
    backend: str
    seconds: float
    how: str

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: status, bound, backend, seconds, how."""
        return {"status": self.status, "bound": self.bound, "backend": self.backend,
                "seconds": round(self.seconds, 3), "how": self.how}

    def text(self) -> str:
        """What ``exactgrid bound`` prints."""
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


def counting_model(question: Question, objective: bool = True, tight: bool = True) -> CountingModel:
    """The counting relaxation of ``question`` (see the module's docstring); with ``objective``,
    maximise the summed weight of the words counted found (required and optional).

    ``tight``: a found word takes exactly one spelling, and each letter or pair it may need is
    bounded below by the sum of the spellings needing it. The solutions are the same; the LP
    relaxation is far tighter (the 4x4 all-state optimum: 21 s with HiGHS instead of 234 s),
    while SAT solvers are a little slower with the extra sums, so the core loop leaves them out.

    Raises InputError for an alteration budget above 1.
    """
    if question.budget > 1:
        raise InputError("the counting relaxation models at most one altered letter per word")
    budget = question.budget
    board = question.board
    forms: dict[str, list[tuple[str, int | None]]] = {r.word: _spellings(r, budget) for r in question.required}
    for word in question.optional:
        forms.setdefault(word, _any_form(word, budget))
    letters = sorted({ch for options in forms.values() for text, _ in options for ch in text})
    model = BoolModel()
    degrees = Counter(len(board.neighbours[c]) for c in range(board.size))
    counts: dict[tuple[str, int], list[tuple[int, int]]] = {}  # (letter, degree) -> [(bit var, value)]
    for letter in [*letters, OTHER]:
        for degree, cells in degrees.items():
            bits = model.new_vars(cells.bit_length(), f"c[{letter},{degree}]")
            counts[letter, degree] = [(var, 1 << k) for k, var in enumerate(bits)]
    for degree, cells in degrees.items():
        terms = [t for letter in [*letters, OTHER] for t in counts[letter, degree]]
        model.add_linear([v for v, _ in terms], [w for _, w in terms], "==", cells)
    present = {a: model.new_var(f"u[{a}]") for a in letters}
    cells_of = {a: [t for d in degrees for t in counts[a, d]] for a in letters}
    ends_of = {a: [(v, w * d) for d in degrees for v, w in counts[a, d]] for a in letters}
    for a in letters:
        lits, weights = [v for v, _ in cells_of[a]], [w for _, w in cells_of[a]]
        model.add_linear([*lits, present[a]], [*weights, -1], ">=", 0)  # present: at least one cell
        model.add_linear([*lits, present[a]], [*weights, -board.size], "<=", 0)  # absent: none
    fixed = Counter((letter if letter in present else OTHER, len(board.neighbours[cell]))
                    for cell, letter in question.fixed.items())
    for (letter, degree), number in fixed.items():  # fixed cells: at least that many of the letter there
        terms = counts[letter, degree]
        model.add_linear([v for v, _ in terms], [w for _, w in terms], ">=", number)
    pairs: dict[tuple[str, str], int] = {}
    at_least: dict[tuple[str, int], int] = {}
    for a in letters:
        lits, weights = [v for v, _ in cells_of[a]], [w for _, w in cells_of[a]]
        at_least[a, 1] = present[a]
        for k in range(2, min(board.size, COUNT_LIMIT + 1) + 1):  # what cores can name
            var = at_least[a, k] = model.new_var(f"g[{a},{k}]")
            model.add_linear([*lits, var], [*weights, -k], ">=", 0)
    other = [t for d in degrees for t in counts[OTHER, d]]  # word count cores may limit the other letters
    for k in range(1, min(board.size, COUNT_LIMIT + 1) + 1):
        var = at_least[OTHER, k] = model.new_var(f"g[{OTHER},{k}]")
        model.add_linear([v for v, _ in other] + [var], [w for _, w in other] + [-k], ">=", 0)

    def pair(a: str, b: str) -> int:
        key = pair_of(a, b)
        if key not in pairs:
            var = pairs[key] = model.new_var(f"e[{key[0]},{key[1]}]")
            model.add_clause([-var, present[key[0]]])
            model.add_clause([-var, present[key[1]]])
            if key[0] == key[1]:  # a doubled letter needs two cells
                lits, weights = [v for v, _ in cells_of[a]], [w for _, w in cells_of[a]]
                model.add_linear([*lits, var], [*weights, -2], ">=", 0)
        return pairs[key]

    found: dict[str, int] = {}
    demands: list[tuple[int, tuple[tuple[str, str], ...]]] = []
    triples: dict[tuple[str, str, str], int] = {}
    triple_demands: list[tuple[int, tuple[tuple[str, str, str], ...]]] = []
    for word, options in forms.items():
        alternatives = []
        letter_needs: dict[str, list[int]] = {}
        pair_needs: dict[tuple[str, str], list[int]] = {}
        for text, altered in options:
            z = model.new_var(f"z[{word},{altered}]")
            alternatives.append(z)
            for ch in {ch for i, ch in enumerate(text) if i != altered}:
                model.add_clause([-z, present[ch]])
                letter_needs.setdefault(ch, []).append(z)
            needs = {pair_of(text[i], text[i + 1]) for i in range(len(text) - 1) if altered not in (i, i + 1)}
            for a, b in sorted(needs):
                model.add_clause([-z, pair(a, b)])
                pair_needs.setdefault((a, b), []).append(z)
            demands.append((z, tuple(sorted(needs))))
            stretches = {triple_of(*text[i:i + 3]) for i in range(len(text) - 2) if altered not in (i, i + 1, i + 2)}
            stretches.discard(None)
            for key in sorted(stretches):  # type: ignore[type-var]
                if key not in triples:
                    triples[key] = model.new_var(f"t[{''.join(key)}]")
                model.add_clause([-z, triples[key]])
            triple_demands.append((z, tuple(sorted(stretches))))  # type: ignore[arg-type]
        y = found[word] = model.new_var(f"y[{word}]")
        if not tight:
            model.add_clause([-y, *alternatives])
            continue
        # one spelling per found word (a grid holding it picks one), so a letter or pair is needed
        # by the sum of the spellings needing it: the same solutions, a far tighter LP
        model.add_linear([*alternatives, y], [1] * len(alternatives) + [-1], "==", 0)
        for needed, chosen in [*((present[ch], zs) for ch, zs in letter_needs.items()),
                               *((pairs[key], zs) for key, zs in pair_needs.items())]:
            if len(chosen) > 1:
                model.add_linear([needed, *chosen], [1] + [-1] * len(chosen), ">=", 0)
    for r in question.required:
        model.add_clause([found[r.word]])
    edges = len(board.edges)
    if pairs:
        model.add_linear(list(pairs.values()), None, "<=", edges)
    for a in letters:  # distinct neighbouring letters <= edge ends of a's cells (an a-a pair uses two)
        touching = [(var, 2 if key[0] == key[1] else 1) for key, var in pairs.items() if a in key]
        if touching:
            model.add_linear([v for v, _ in touching] + [v for v, _ in ends_of[a]],
                             [w for _, w in touching] + [-w for _, w in ends_of[a]], "<=", 0)
    weights = {w: question.optional.get(w, question.words.weight(w)) for w in forms}
    counted = [found[w] for w in forms]
    if question.min_score is not None:
        model.add_linear(counted, [weights[w] for w in forms], ">=", question.min_score)
    if question.min_count is not None:
        model.add_linear(counted, None, ">=", question.min_count)
    if objective:
        model.maximise(counted, [weights[w] for w in forms])
    return CountingModel(model, found, cells_of, at_least, pairs, demands, triples, triple_demands)


def count_question(question: Question, backend: str | None = "highs", time_limit: float = 60.0,
                   objective: bool = True) -> CountingAnswer:
    """Solve the counting relaxation: ``refuted`` when it has no solution (then the question has
    none), else the relaxation's best score as an upper bound (``bounded`` when proven optimal,
    ``open`` with the backend's bound at the time limit)."""
    started = time.monotonic()
    solver = get_backend(backend)
    counting = counting_model(question, objective)
    result = solver.solve(counting.model, time_limit=time_limit)
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
