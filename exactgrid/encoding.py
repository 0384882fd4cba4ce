"""Turn a Question into one backend-neutral BoolModel, and a solution back into a grid.

Encodings, and why
------------------
* **Letters.** One variable ``x[c, l]`` per cell and modelled letter, exactly one per cell.
  Only letters that occur in some word of the question are modelled, plus one *filler*
  letter standing for all the others (they are interchangeable: each matches no letter of
  any word in the question). Fewer letters means fewer variables and no symmetric copies.
* **Walks (revisits allowed): support-style reachability layers.** For a word that must
  appear, ``s[i, j, c]`` reads "a walk spelling the first i+1 letters with at most j
  alterations can end at cell c". Each true ``s`` must be *supported*:
  ``s[i,j,c] -> A or (x[c, w_i] and C)`` with ``A = OR s[i-1, j-1, c']`` (an alteration here)
  and ``C = OR s[i-1, j, c']`` over the neighbours c' of c, written without auxiliaries as
  the two clauses ``s -> A or x`` and ``s -> A or C``. One clause ``OR_c s[n-1, k, c]`` asks
  for the word. No at-most-one per step is needed (a walk may revisit cells), so the solver
  is free to keep many candidate cells alive: this beat one-hot position variables in most
  solver/instance pairs, with fewer clauses (docs/benchmarks.md, Fit: Encodings). Layers known to be all-true
  (j > i: the first j letters can all be altered) are constants, not variables.
* **Pinned spellings** (exact, one position altered, a given spelled form) are the same
  layers with k = 0 and, per position, "letter l" or "any letter but l".
* **Forbidden words (walks): forced reachability.** ``f[i, j, c]`` is forced *true* whenever
  a walk spelling the prefix with <= j alterations can end at c (``x[c, w_i] and f[i-1,j,c']
  -> f[i,j,c]``, ``f[i-1,j-1,c'] -> f[i,j,c]``), and ``not f[n-1, k, c]`` for every cell.
  Propagation then refutes any grid that spells the word, exactly and without search.
* **Simple paths: one-hot positions.** ``p[i, c]``: letter i sits on cell c; at most one
  cell per step, at most one step per cell (no cell twice), ``p[i,c] -> OR p[i+1, c']``
  over neighbours, and ``p[i,c] -> x[c, w_i] or alt[i]`` with ``sum alt <= k``. A forbidden
  word under the simple rule has no compact encoding (simple-path non-existence), so each
  path that could spell it gets a cut "this path has at least k+1 mismatches": all of them up
  front when there are at most :data:`EAGER_CUT_PATHS` (small boards, short words), else
  lazily, by the fit loop, for each path along which a solver's grid spells the word.
* **Optional words** get a *found* variable y that guards their word clause (``y -> OR_c
  s[n-1,k,c]``): y true only if the word is really there, so ``sum weight * y`` is a lower
  bound of the real score. ``min_score`` and ``min_count`` are linear constraints on it
  (required words count as constants). Fits are therefore sound (the real score is at least
  the modelled one), and so are refutations (set y = "found" in any real grid).
* **Letter domains** (a cell that may hold only some letters): "not this letter" for each
  modelled letter outside its domain, as unit clauses or assumptions.
* **Symmetry breaking** (flag, only with no fixed cells): lex-leader — the grid's bit vector
  ``x`` is lexicographically <= its image under each of the shape's symmetries, with one
  auxiliary "prefixes equal so far" variable per bit. About 4k variables on 5x5.
"""

from __future__ import annotations

import itertools
import string
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from .grid import Grid
from .inputs import InputError
from .model import BoolModel
from .question import Chain, Question, SpecError

TRUE = 0  # a layer entry that is constantly true (no variable)

MAX_MODEL_LITERALS = 5_000_000
"""The largest model built, in literals (clauses and linear constraints together); the memory
it takes and the sizes of real questions are in docs/benchmarks.md (Fit: Model sizes).
A question that needs more is refused (:class:`ModelTooLarge`), which bounds the memory of the
encoder and of the solver processes that receive the model."""

EAGER_CUT_PATHS = 20_000
"""A forbidden word under the simple-path rule is cut path by path up front when it has at
most this many candidate paths (2x4, length 5: 512; 4x4, length 6: 22,672); beyond that, the
fit loop cuts lazily, one path per grid that spells it."""


class ModelTooLarge(InputError):
    """The question's model would pass :data:`MAX_MODEL_LITERALS` (bad input: ask a smaller question)."""


class EncodingTimeout(Exception):
    """The deadline passed before the model was built (the answer is UNKNOWN, not an error)."""


def check_model_growth(model: BoolModel, deadline: float | None, max_literals: int | None = None) -> None:
    """For a builder to call as a model grows: :class:`EncodingTimeout` once ``deadline`` (a
    ``time.monotonic()`` value) has passed, :class:`ModelTooLarge` once the model holds more
    than ``max_literals`` literals (default :data:`MAX_MODEL_LITERALS`)."""
    if deadline is not None and time.monotonic() > deadline:
        raise EncodingTimeout(f"time limit reached while encoding ({model.literals:,} literals built)")
    max_literals = MAX_MODEL_LITERALS if max_literals is None else max_literals
    if model.literals > max_literals:
        raise ModelTooLarge(
            f"the question's model passes {max_literals:,} literals (the most exactgrid builds); "
            "ask a smaller question: a smaller board, fewer optional or forbidden words, a smaller budget")


@dataclass
class Encoding:
    """A model together with what is needed to read a solution back."""

    spec: Question
    model: BoolModel
    alphabet: tuple[str, ...]
    filler: str | None
    letter_vars: list[dict[str, int]]
    found_vars: dict[str, int] = field(default_factory=dict)
    lazy_forbidden: tuple[str, ...] = ()
    """Forbidden words (simple paths, too many paths to cut up front) checked by the fit loop."""
    required_lits: dict[str, int] = field(default_factory=dict)
    """Assumable encodings: the selector of each required word (true: the requirement holds)."""
    forbidden_lits: dict[str, int] = field(default_factory=dict)
    """Assumable encodings: the selector of each forbidden word (true: the word is absent)."""

    assumable: bool = False
    """Whether fixed cells, requirements and walk forbids are assumptions (see :meth:`parts`)
    rather than clauses."""

    def cell_lit(self, cell: int, letter: str) -> int:
        """The literal "``cell`` holds ``letter``", to assume (a fixed cell) or to read.

        A letter the question's words do not use is not modelled: all such letters behave
        alike, so the filler letter's literal stands for it (:meth:`decode` puts the letter
        asked for back). Raises SpecError for a cell off the board or a non-letter.
        """
        if not 0 <= cell < len(self.letter_vars):
            raise SpecError(f"cell {cell} is not a cell of the board (0..{len(self.letter_vars) - 1})")
        if not (isinstance(letter, str) and len(letter) == 1 and "A" <= letter <= "Z"):
            raise SpecError(f"a cell holds one letter A-Z, got {letter!r}")
        table = self.letter_vars[cell]
        if letter in table:
            return table[letter]
        assert self.filler is not None  # every letter unmodelled but the 26th leaves a filler
        return table[self.filler]

    def domain_lits(self, cell: int, letters: str) -> tuple[int, ...]:
        """The literals that keep ``cell`` to one of ``letters``, to assume or to add as units:
        "not this letter" for each modelled letter outside them (the filler's literal stays
        allowed when some of ``letters`` is unmodelled, as :meth:`cell_lit` reads it)."""
        for letter in letters:
            self.cell_lit(cell, letter)  # SpecError for a cell off the board or a non-letter
        return domain_negations(self.letter_vars[cell], self.filler, letters)

    def word_lit(self, word: str) -> int:
        """The literal "``word`` is spelled": a required word's selector (spelled as the
        requirement pins it), else an optional word's found variable (within the budget).

        Raises SpecError for a word the encoding does not know (make it optional in the
        question encoded, e.g. ``optional=["all"]``, to ask for it later).
        """
        if word in self.required_lits:
            return self.required_lits[word]
        if word in self.found_vars:
            return self.found_vars[word]
        raise SpecError(f"{word} is neither required nor optional in the encoded question, so it cannot be asked for")

    def decode(self, true_vars: Iterable[int], cells: Mapping[int, str] | None = None) -> Grid:
        """The grid a solution describes. ``cells`` (default: the encoded question's
        :attr:`~exactgrid.question.Question.cells`) gives the letters each limited cell may
        hold: a cell left at the filler letter, which stands for every letter the words do not
        use, gets the first such letter it may hold when the filler itself is not one of them."""
        true_set = set(true_vars)
        cells = self.spec.cells if cells is None else cells
        letters = []
        for cell, table in enumerate(self.letter_vars):
            chosen = [letter for letter, var in table.items() if var in true_set]
            if len(chosen) != 1:
                raise AssertionError(f"cell {cell} has {len(chosen)} letters in the solution")
            letter = chosen[0]
            if letter == self.filler and letter not in cells.get(cell, letter):
                letter = min(set(cells[cell]) - set(table))
            letters.append(letter)
        return Grid(self.spec.board, "".join(letters))

    def forbid_path(self, word: str, path: Sequence[int]) -> None:
        """Cut off one path spelling ``word``: at least budget+1 of its cells must mismatch."""
        add_path_cut(self.model, self.letter_vars, word, path, self.spec.budget)


def add_path_cut(model: BoolModel, letter_vars: Sequence[dict[str, int]], word: str, path: Sequence[int],
                 budget: int, guard: int | None = None) -> None:
    """``path`` must not spell ``word`` within ``budget``: at least budget+1 of its cells mismatch.

    A clause when exactly one more mismatch is needed (not all of these cells hold these
    letters), else a cardinality constraint; nothing when the path cannot spell it anyway.
    With a ``guard`` literal the cut holds only when the guard is true (a big-M weight on it).
    """
    lits = [letter_vars[cell][letter] for cell, letter in zip(path, word, strict=True)
            if letter in letter_vars[cell]]
    bound = len(word) - budget - 1
    if bound >= len(lits):
        return
    if bound < 0:
        model.add_clause([-guard] if guard else [])
    elif bound == len(lits) - 1:
        model.add_clause([-lit for lit in lits] + ([-guard] if guard else []))
    elif guard is None:
        model.add_linear(lits, None, "<=", bound, name=f"cut:{word}")
    else:
        slack = len(lits) - bound
        model.add_linear([*lits, guard], [1] * len(lits) + [slack], "<=", bound + slack, name=f"cut:{word}")


def domain_negations(table: Mapping[str, int], filler: str | None, letters: str) -> tuple[int, ...]:
    """"Not this letter" for each letter of a cell's ``table`` (letter -> variable) outside
    ``letters``; a letter the table does not model is the ``filler``'s, which then stays."""
    keep = {table[ch] if ch in table else table[filler] for ch in letters}  # type: ignore[index]
    return tuple(-var for var in table.values() if var not in keep)


def modelled_alphabet(spec: Question) -> tuple[tuple[str, ...], str | None]:
    """Letters worth modelling for ``spec``, and the filler letter standing for the rest."""
    used: set[str] = set()
    for req in spec.required:
        used.update(req.word)
        if req.spelled:
            used.update(req.spelled)
        if req.letter:
            used.add(req.letter)
    for word in (*spec.forbidden, *spec.optional, *(w for chain in spec.chains for w in chain.nodes)):
        used.update(word)
    used.update(spec.fixed.values())
    spare = [ch for ch in string.ascii_uppercase if ch not in used]
    filler = spare[0] if spare else None
    alphabet = tuple(sorted(used)) + ((filler,) if filler else ())
    return alphabet, filler


class _Encoder:
    def __init__(self, spec: Question, deadline: float | None = None,
                 max_literals: int = MAX_MODEL_LITERALS, assumable: bool = False) -> None:
        self.assumable = assumable
        self.deadline = deadline
        self.max_literals = max_literals
        self.spec = spec
        self.board = spec.board
        self.model = BoolModel()
        self.alphabet, self.filler = modelled_alphabet(spec)
        self.letter_vars: list[dict[str, int]] = []
        for cell in range(self.board.size):
            row, col = self.board.coords(cell)
            table = {ch: self.model.new_var(f"x_r{row + 1}c{col + 1}_{ch}") for ch in self.alphabet}
            self.letter_vars.append(table)
            self.model.exactly_one(list(table.values()), name=f"one_letter_r{row + 1}c{col + 1}")
            if cell in spec.fixed and not assumable:
                self.model.add_clause([table[spec.fixed[cell]]])
        if not assumable:
            for cell, letters in spec.domains.items():
                for lit in domain_negations(self.letter_vars[cell], self.filler, letters):
                    self.model.add_clause([lit])

    def tick(self) -> None:
        """Called every few thousand literals: stop at the deadline or past the size limit."""
        check_model_growth(self.model, self.deadline, self.max_literals)

    # -- letters ---------------------------------------------------------------------------

    def letter_lit(self, cell: int, letter: str, must_equal: bool = True) -> int | None:
        """Literal for "cell holds letter" (or "does not"); None when the letter is not modelled."""
        var = self.letter_vars[cell].get(letter)
        if var is None:
            return None if must_equal else TRUE
        return var if must_equal else -var

    # -- walks -----------------------------------------------------------------------------

    def walk_support(self, tag: str, steps: Sequence[tuple[str, bool]], budget: int) -> list[int]:
        """Support layers for a walk spelling ``steps`` with <= budget alterations.

        Returns the literals "the walk can end at c with <= budget alterations" (TRUE for a
        constant), whose disjunction asserts the word.
        """
        board = self.board
        prev: list[list[int | None]] = []  # prev[j][c]: var, TRUE, or None (impossible)
        for i, (letter, must_equal) in enumerate(steps):
            self.tick()
            layer: list[list[int | None]] = []
            for j in range(budget + 1):
                row: list[int | None] = []
                for cell in range(board.size):
                    row.append(self._support_var(tag, i, j, cell, letter, must_equal, prev))
                layer.append(row)
            prev = layer
        return [lit for lit in prev[budget] if lit is not None]

    def _support_var(self, tag, i, j, cell, letter, must_equal, prev) -> int | None:
        model = self.model
        letter_lit = self.letter_lit(cell, letter, must_equal)
        if i == 0:
            if j >= 1:
                return TRUE
            if letter_lit is None:
                return None
            if letter_lit == TRUE:
                return TRUE
            return letter_lit
        near = self.board.neighbours[cell]
        altered = [prev[j - 1][c] for c in near if prev[j - 1][c] is not None] if j else []
        if TRUE in altered:
            return TRUE
        same = [prev[j][c] for c in near if prev[j][c] is not None]
        if letter_lit is None or not same:
            if not altered:
                return None
            same_possible = False
        else:
            same_possible = True
        if same_possible and letter_lit == TRUE and TRUE in same:
            return TRUE
        var = model.new_var(f"s_{tag}_{i}_{j}_{cell}")
        if same_possible:
            if letter_lit != TRUE:
                model.add_clause([-var, *altered, letter_lit])
            if TRUE not in same:
                model.add_clause([-var, *altered, *same])
        else:
            model.add_clause([-var, *altered])
        return var

    def walk_forbid(self, word: str, budget: int, guard: int | None = None) -> None:
        """Forced-reachability layers refuting every walk that spells ``word`` within budget
        (only when ``guard`` is true, if given: the layers themselves never bind)."""
        unless = [-guard] if guard else []
        model, board = self.model, self.board
        prev: list[list[int | None]] = []  # var, TRUE, or None (never reachable)
        for i, letter in enumerate(word):
            self.tick()
            layer = []
            for j in range(budget + 1):
                row: list[int | None] = []
                for cell in range(board.size):
                    lit = self.letter_lit(cell, letter)
                    if i == 0:
                        row.append(TRUE if j >= 1 else lit)
                        continue
                    near = board.neighbours[cell]
                    altered = [prev[j - 1][c] for c in near if prev[j - 1][c] is not None] if j else []
                    same = [prev[j][c] for c in near if prev[j][c] is not None] if lit is not None else []
                    if TRUE in altered:
                        row.append(TRUE)
                        continue
                    if not altered and not same:
                        row.append(None)
                        continue
                    var = model.new_var(f"f_{word}_{i}_{j}_{cell}")
                    for a in altered:
                        model.add_clause([-a, var])
                    for s in same:
                        model.add_clause([var, *([] if s == TRUE else [-s]), -lit])
                    row.append(var)
                layer.append(row)
            prev = layer
        for lit in prev[budget]:
            if lit == TRUE:
                model.add_clause(unless)  # the word is spelled in every grid
                return
            if lit is not None:
                model.add_clause([*unless, -lit])

    # -- simple paths ----------------------------------------------------------------------

    def simple_positions(self, tag: str, steps: Sequence[tuple[str, bool]] | None, word: str,
                         budget: int, guard: int | None) -> None:
        """One-hot position encoding of a simple path spelling ``word`` (or ``steps``)."""
        model, board = self.model, self.board
        n = len(word)
        if n > board.size:
            model.add_clause([-guard] if guard else [])
            return
        self.tick()
        pos = [[model.new_var(f"p_{tag}_{i}_{c}") for c in range(board.size)] for i in range(n)]
        for i in range(n):
            model.at_most_one(pos[i])
        start = [*([-guard] if guard else []), *pos[0]]
        model.add_clause(start)
        for c in range(board.size):
            model.at_most_one([pos[i][c] for i in range(n)])
        for i in range(n - 1):
            for c in range(board.size):
                model.add_clause([-pos[i][c], *(pos[i + 1][d] for d in board.neighbours[c])])
        alts: list[int] = []
        if steps is None:
            alts = [model.new_var(f"alt_{tag}_{i}") for i in range(n)] if budget else []
            if alts and budget < n:
                model.add_linear(alts, None, "<=", budget, name=f"budget_{tag}")
        for i in range(n):
            letter, must_equal = steps[i] if steps else (word[i], True)
            for c in range(board.size):
                lit = self.letter_lit(c, letter, must_equal)
                clause = [-pos[i][c]]
                if lit == TRUE:
                    continue
                if lit is not None:
                    clause.append(lit)
                if alts:
                    clause.append(alts[i])
                model.add_clause(clause)

    def simple_forbid(self, word: str, max_paths: int = EAGER_CUT_PATHS, guard: int | None = None) -> bool:
        """Cut every simple path that could spell ``word``, when there are at most ``max_paths``.

        Paths a fixed cell already rules out are skipped. Returns False (adding nothing)
        when there are more: the word is then left to the lazy cuts of the fit loop.
        """
        budget, n = self.spec.budget, len(word)
        fixed = {} if self.assumable else self.spec.fixed  # assumed cells may be lifted: cut every path
        if n > self.board.size:
            return True
        paths: list[tuple[int, ...]] = []
        seen: set[frozenset[tuple[int, str]]] = set()

        def extend(path: list[int], visited: int, mismatches: int) -> bool:
            if len(path) == n:
                key = frozenset(zip(path, word, strict=True))
                if key not in seen:
                    seen.add(key)
                    paths.append(tuple(path))
                    if len(paths) % 1000 == 0:
                        self.tick()
                return len(paths) <= max_paths
            options = range(self.board.size) if not path else self.board.neighbours[path[-1]]
            for cell in options:
                if visited >> cell & 1:
                    continue
                miss = mismatches + (cell in fixed and fixed[cell] != word[len(path)])
                if miss > budget:
                    continue
                path.append(cell)
                ok = extend(path, visited | 1 << cell, miss)
                path.pop()
                if not ok:
                    return False
            return True

        if not extend([], 0, 0):
            return False
        for path in paths:
            add_path_cut(self.model, self.letter_vars, word, path, budget, guard)
        return True

    # -- requirements ------------------------------------------------------------------------

    def want(self, tag: str, word: str, steps: Sequence[tuple[str, bool]] | None,
             guard: int | None) -> None:
        """Assert the word (or, with a guard variable, ``guard -> word``)."""
        budget = self.spec.budget if steps is None else 0
        if self.spec.path_rule == "simple":
            self.simple_positions(tag, steps, word, self.spec.budget, guard)
            return
        steps = steps or tuple((ch, True) for ch in word)
        ends = self.walk_support(tag, steps, budget)
        if TRUE in ends:
            return
        self.model.add_clause([*([-guard] if guard else []), *ends])

    def letter_presence(self, guards: dict[str, int] | None = None) -> None:
        """Redundant counting: the letters the required words cannot do without need cells.

        ``u[l]`` -> some cell holds l; a pinned letter needs its u; with budget k a letter
        occurring more than k times needs its u, and of any k+1 distinct letters of the word
        one is present (k <= 1 only, to keep it small); and at most one u per cell.
        This lets the solver refute over-full grids by counting instead of by search.
        With ``guards`` (word -> selector), each word's clauses hold only under its selector.
        (The same clauses for optional words under their found variables slowed CaDiCaL on the
        neighbourhood benchmark, so they are not added: docs/benchmarks.md, Fit: Encodings.)
        """
        model, spec = self.model, self.spec
        present: dict[str, int] = {}
        guards = guards or {}

        def u(letter: str) -> int:
            if letter not in present:
                present[letter] = model.new_var(f"has_{letter}")
                cells = [self.letter_vars[c][letter] for c in range(self.board.size)]
                model.add_clause([-present[letter], *cells])
            return present[letter]

        items = [(req.word, req.pattern(), guards.get(req.word)) for req in spec.required]
        for word, steps, guard in items:
            unless = [-guard] if guard else []
            if steps is not None:
                for letter, must_equal in steps:
                    if must_equal:
                        model.add_clause([*unless, u(letter)])
                continue
            counts = {ch: word.count(ch) for ch in word}
            if spec.budget == 0:
                for letter in counts:
                    model.add_clause([*unless, u(letter)])
            elif spec.budget == 1:
                for letter, times in counts.items():
                    if times > 1:
                        model.add_clause([*unless, u(letter)])
                letters = sorted(counts)
                for a, b in itertools.combinations(letters, 2):
                    model.add_clause([*unless, u(a), u(b)])
        if len(present) > self.board.size:
            model.add_linear(list(present.values()), None, "<=", self.board.size, name="letters_fit")

    def chain(self, chain: Chain, found_vars: dict[str, int]) -> None:
        """Some found words link a source to a target (coast to coast), as layered reachability.

        ``r[k][v]``: word v is found and reached from a found source in at most k links, each
        through found words: ``r[0][s] -> y_s`` for a source s, ``r[k][v] -> y_v`` and
        ``r[k][v] -> r[k-1][v] or OR r[k-1][u]`` over the words u linked to v; then one of
        ``r[K][t]`` over the targets, K = words - 1 (a chain visits each word once at most).
        Layers count up, so no word supports itself in a cycle, and ``r[k][v]`` is created only
        when v is k links or fewer from a source in the whole graph. ``y_v`` is an optional word's
        found variable, or a new one (``y -> the word is spelled``): sound both ways, as for
        targets. Forbidden words are left out of the graph.
        """
        model = self.model
        forbidden = set(self.spec.forbidden)
        nodes = [w for w in chain.nodes if w not in forbidden]
        near: dict[str, list[str]] = {w: [] for w in nodes}
        for a, b in sorted(chain.links):
            if a in near and b in near:
                near[a].append(b)
                near[b].append(a)
        found: dict[str, int] = {}

        def y(word: str) -> int:
            if word not in found:
                if word in found_vars:
                    found[word] = found_vars[word]
                else:
                    found[word] = model.new_var(f"chain_found_{word}")
                    self.want(f"chain_{word}", word, None, guard=found[word])
            return found[word]

        layer: dict[str, int] = {}
        for word in chain.sources:
            if word in near:
                layer[word] = model.new_var(f"{chain.label}_reach0_{word}")
                model.add_clause([-layer[word], y(word)])
        for k in range(1, len(nodes)):
            self.tick()
            nxt: dict[str, int] = {}
            for word in nodes:
                support = [layer[u] for u in (word, *near[word]) if u in layer]
                if not support:
                    continue
                lit = model.new_var(f"{chain.label}_reach{k}_{word}")
                model.add_clause([-lit, y(word)])
                model.add_clause([-lit, *support])
                nxt[word] = lit
            layer = nxt
        model.add_clause([layer[t] for t in chain.targets if t in layer])

    def symmetry_breaking(self) -> None:
        """Lex-leader: the grid is lexicographically least among its symmetric images."""
        add_lex_leader(self.model, self.letter_vars, self.board.symmetries[1:], self.alphabet, self.tick)


def add_lex_leader(model: BoolModel, letter_vars: Sequence[Mapping[str, int]],
                   symmetries: Iterable[Sequence[int]], alphabet: Sequence[str],
                   tick: Callable[[], None] | None = None) -> None:
    """Ask that the bit vector ``letter_vars[cell][letter]`` (cells in order, then ``alphabet``)
    be lexicographically <= its image under each permutation of cells in ``symmetries``, with
    one auxiliary "equal so far" variable per bit. Some grid of every symmetry class meets it,
    so it keeps a question's answer while cutting its symmetric copies. ``tick`` is called once
    per symmetry (the encoder's deadline check)."""
    bits = [(cell, ch) for cell in range(len(letter_vars)) for ch in alphabet]
    for perm in symmetries:
        if tick is not None:
            tick()
        equal = TRUE
        for cell, ch in bits:
            if perm[cell] == cell:
                continue
            a = letter_vars[cell][ch]
            b = letter_vars[perm[cell]][ch]
            prefix = [] if equal == TRUE else [-equal]
            # while equal so far, a <= b: not (a and not b)
            model.add_clause([*prefix, -a, b])
            nxt = model.new_var("")
            model.add_clause([*prefix, -a, -b, nxt])
            model.add_clause([*prefix, a, b, nxt])
            equal = nxt


def encode(spec: Question, letter_presence: bool = True, deadline: float | None = None,
           max_literals: int = MAX_MODEL_LITERALS, assumable: bool = False, found: bool = False) -> Encoding:
    """Encode a fit question as one BoolModel (see the module docstring for the encodings).

    ``deadline`` (a ``time.monotonic()`` value): raise :class:`EncodingTimeout` once it has
    passed. A model passing ``max_literals`` raises :class:`ModelTooLarge` (an InputError).

    ``assumable``: fixed cells, letter domains, requirements and forbidden words are not
    asserted but made assumptions (:meth:`Encoding.cell_lit`, :meth:`Encoding.domain_lits`,
    :meth:`Encoding.word_lit`, ``forbidden_lits``),
    and every optional word gets a found variable, so one encoding (and one solver session)
    answers many questions that differ in those (:mod:`exactgrid.fitting.session`).

    ``found``: every optional word gets a found variable (true: the word is spelled, within the
    budget), to assume or read, with nothing else changed (the counting bound's exact check).
    """
    if not isinstance(spec, Question):
        raise InputError(f"encode() takes a Question, got {type(spec).__name__}")
    enc = _Encoder(spec, deadline, max_literals, assumable)
    model = enc.model
    required_lits = {r.word: model.new_var(f"require_{r.word}") for r in spec.required} if assumable else {}
    forbidden_lits = {w: model.new_var(f"forbid_{w}") for w in spec.forbidden} if assumable else {}
    if letter_presence:
        enc.letter_presence(required_lits)
    for req in spec.required:
        enc.want(req.word, req.word, req.pattern(), guard=required_lits.get(req.word))
    lazy: list[str] = []
    for word in spec.forbidden:
        if spec.path_rule == "walk":
            enc.walk_forbid(word, spec.budget, forbidden_lits.get(word))
        elif not enc.simple_forbid(word, guard=forbidden_lits.get(word)):
            lazy.append(word)
            forbidden_lits.pop(word, None)  # enforced by the fit loop's cuts, always
    found_vars: dict[str, int] = {}
    targets = spec.min_score is not None or spec.min_count is not None
    if targets or assumable or found:
        for word in spec.optional:
            y = model.new_var(f"found_{word}")
            found_vars[word] = y
            enc.want(f"opt_{word}", word, None, guard=y)
        # Assumable: a requirement switched off may still be spelled, and then it counts, as an
        # optional word would; so required words count through found variables of their own
        # (within the budget), never through their selectors. Lifting a part only relaxes.
        counted_required = {}
        if assumable and targets:
            for word in spec.required_words:
                counted_required[word] = model.new_var(f"found_{word}")
                enc.want(f"count_{word}", word, None, guard=counted_required[word])
        _add_targets(model, spec, found_vars, counted_required)
    for chain in spec.chains:
        enc.chain(chain, found_vars)
    if spec.symmetry_breaking:
        enc.symmetry_breaking()
    enc.tick()
    return Encoding(spec, model, enc.alphabet, enc.filler, enc.letter_vars, found_vars, tuple(lazy),
                    required_lits, forbidden_lits, assumable)


def _add_targets(model: BoolModel, spec: Question, found_vars: dict[str, int],
                 required_lits: dict[str, int] | None = None) -> None:
    """``min_score`` and ``min_count`` as linear constraints over the found variables.

    Required words count as constants, or, in an assumable encoding (``required_lits``: a found
    variable per required word), only when found (a requirement not assumed may be absent).
    """
    counted = dict(found_vars)
    weights = dict(spec.optional)
    given_words = list(spec.required_words)
    if required_lits:
        counted.update(required_lits)
        weights.update({w: spec.words.weight(w) if w in spec.words else 0 for w in required_lits})
        given_words = []
    words = list(counted)
    if spec.min_score is not None:
        need = spec.min_score - sum(spec.words.weight(w) for w in given_words if w in spec.words)
        if need > 0:
            if sum(weights[w] for w in words) < need:
                model.add_clause([])
            else:
                model.add_linear([counted[w] for w in words], [weights[w] for w in words], ">=", need,
                                 name="min_score")
    if spec.min_count is not None:
        need = spec.min_count - len(given_words)
        if need > 0:
            if len(words) < need:
                model.add_clause([])
            else:
                model.add_linear([counted[w] for w in words], None, ">=", need, name="min_count")
