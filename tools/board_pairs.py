"""Can any board reach a given *pair score*? The pair relaxation asked on the board itself, as one
SAT question: no counting, no cores, the letters placed on real cells.

    python tools/board_pairs.py --threshold 320000000 --seconds 900

The pair score (``tools/pair_relaxation_search.py``) counts a word when some spelling of it
(exact, or one position altered) has every unaltered letter on the board and every consecutive
unaltered pair on two adjacent cells. A real grid's score is at most its pair score, so "no
board has pair score >= T" would prove that no grid scores T or more. The model: ``x[c,a]`` cell
c holds letter a (one a cell; letters no word uses are one "other" letter); ``e[a,b]`` some cell
of a has a neighbour holding b; ``z[w,p]`` word w's letters but position p's are on the board
and its unaltered pairs adjacent; ``y[w]`` some ``z[w,p]``; the found words' summed weight at
least T (a linear constraint, exact). With ``--triples``, an unaltered stretch a-b-c (a != c)
also needs a cell of b with a neighbour of a and one of c, and an altered middle letter a cell
next to both of its neighbours' letters.

Prints the model's size and the verdict: a board (with its pair score, recomputed, and the
finder's score), "no board" (the backend's UNSAT, not certified), or UNKNOWN at the time limit.

``--maxsat`` asks for no threshold: core-guided MaxSAT (PySAT's RC2, stratified, on Glucose 4,
which can be interrupted) maximises the pair score, printing the upper bound its cores prove
(not certified) every 10 seconds and, if reached within ``--seconds``, the optimum and its
board.

``--unit`` weighs every word 1, so the threshold counts words (a grid scoring 320 million holds
at least 40 states). ``--require WORD...`` makes the board count those words; ``--drop
WORD...`` never counts a word (a relaxation cannot forbid a word, only leave it out).

Measured (docs/benchmarks.md, Prove): on 5x5 neither kissat nor CaDiCaL settles it at 320 or
328 million in 5-10 minutes (with or without ``--triples``), nor 40 words with ``--unit
--triples``, nor finds the known 296.6-million board in 60 s; HiGHS's dual bound on it stays
at the total, and ``--maxsat`` does not finish in 30 s even on 2x2. ``--symmetry-breaking`` makes
kissat faster on 3x3 word counts but settles no 4x4 count that the counting bound leaves
open, nor 40 states on 5x5 (the same section, "Without the board's symmetries"). It is
kept as the command behind those numbers.
"""

from __future__ import annotations

import argparse
import threading
import time

from pair_relaxation_search import add_word_options, check_words, pair_score, spellings

from exactgrid.api import score
from exactgrid.backends import Status, get_backend
from exactgrid.encoding import add_lex_leader
from exactgrid.geometry import Board
from exactgrid.model import BoolModel
from exactgrid.question import build_question

OTHER = "_"


class BoardPairs:
    """The SAT model of "some board has pair score >= threshold" (see the module's docstring)."""

    def __init__(self, board: Board, weights: dict[str, int], triples: bool) -> None:
        self.board = board
        self.model = BoolModel()
        self.letters = sorted({ch for word in weights for ch in word}) + [OTHER]
        self.x = {(c, a): self.model.new_var() for c in range(board.size) for a in self.letters}
        self._pairs: dict[tuple[str, str], int] = {}
        self._near: dict[tuple[int, str], int] = {}
        self._around: dict[tuple[str, ...], int] = {}
        for c in range(board.size):
            row = [self.x[c, a] for a in self.letters]
            self.model.add_linear(row, None, "==", 1)
        self.found = {word: self._word(word, triples) for word in weights}

    def _on_board(self, a: str) -> list[int]:
        return [self.x[c, a] for c in range(self.board.size)]

    def _near_to(self, c: int, a: str) -> int:
        """A variable true only when some neighbour of cell c holds a."""
        if (c, a) not in self._near:
            var = self._near[c, a] = self.model.new_var()
            self.model.add_clause([-var, *(self.x[d, a] for d in self.board.neighbours[c])])
        return self._near[c, a]

    def _somewhere(self, key: tuple[str, ...], middle: str | None, sides: tuple[str, ...]) -> int:
        """A variable true only when some cell (holding ``middle``, unless None) has a neighbour
        holding each letter of ``sides``."""
        if key not in self._around:
            var = self._around[key] = self.model.new_var()
            cells = []
            for c in range(self.board.size):
                cell = self.model.new_var()
                cells.append(cell)
                if middle is not None:
                    self.model.add_clause([-cell, self.x[c, middle]])
                for side in sides:
                    self.model.add_clause([-cell, self._near_to(c, side)])
            self.model.add_clause([-var, *cells])
        return self._around[key]

    def pair(self, a: str, b: str) -> int:
        """e[a,b]: a cell of a next to a cell of b (two distinct cells, so a doubled letter needs two)."""
        a, b = min(a, b), max(a, b)
        return self._somewhere(("pair", a, b), a, (b,))

    def _word(self, word: str, triples: bool) -> int:
        found = self.model.new_var()
        forms = []
        for altered in [None, *range(len(word))]:
            form = self.model.new_var()
            forms.append(form)
            for i, ch in enumerate(word):
                if i != altered:
                    self.model.add_clause([-form, *self._on_board(ch)])
            for i in range(len(word) - 1):
                if altered not in (i, i + 1):
                    self.model.add_clause([-form, self.pair(word[i], word[i + 1])])
            if triples:
                for need in self._stretches(word, altered):
                    self.model.add_clause([-form, need])
        self.model.add_clause([-found, *forms])
        return found

    def _stretches(self, word: str, altered: int | None) -> list[int]:
        needs = []
        for i in range(1, len(word) - 1):
            a, b, c = word[i - 1], word[i], word[i + 1]
            if a == c or i - 1 == altered or i + 1 == altered:
                continue
            if i == altered:
                needs.append(self._somewhere(("between", *sorted((a, c))), None, (a, c)))
            else:
                needs.append(self._somewhere(("triple", *sorted((a, c)), b), b, (a, c)))
        return needs

    def break_symmetries(self) -> None:
        """Keep only the lex-least board of each symmetry class: the pair score is the same on
        a turned or mirrored board, so this keeps the answer."""
        rows = [{a: self.x[c, a] for a in self.letters} for c in range(self.board.size)]
        add_lex_leader(self.model, rows, self.board.symmetries[1:], self.letters)

    def board_of(self, true_vars: frozenset[int]) -> str:
        """The letters of a solution's board, cell by cell (the other letter as '_')."""
        return "".join(next(a for a in self.letters if self.x[c, a] in true_vars) for c in range(self.board.size))


def ask(model: BoolModel, backend: str, seconds: float, refuted: str) -> tuple[frozenset[int] | None, float, int]:
    """Ask ``backend`` about ``model`` for up to ``seconds``: a solution's true variables, the
    seconds taken and exit code 0; or None and exit code 1 (UNSAT, printed as ``refuted``) or
    3 (UNKNOWN, printed)."""
    started = time.monotonic()
    result = get_backend(backend).solve(model, seconds)
    taken = time.monotonic() - started
    if result.status is Status.UNSAT:
        print(f"{refuted} ({backend}'s UNSAT, not certified; {taken:.1f} s)")
        return None, taken, 1
    if result.status is not Status.SAT:
        print(f"UNKNOWN after {taken:.1f} s ({backend})")
        return None, taken, 3
    return frozenset(result.true_vars), taken, 0


def maxsat(built: BoardPairs, weights: dict[str, int], seconds: float) -> int:
    """Maximise the pair score by core-guided MaxSAT (RC2, stratified) for up to ``seconds``,
    printing the bound each core proves; exit 0 at the optimum, 1 when no board meets the hard
    part (the required words), 3 at the time limit."""
    from pysat.examples.rc2 import RC2Stratified
    from pysat.formula import WCNF

    from exactgrid.cnf import compile_cnf

    formula = WCNF()
    for clause in compile_cnf(built.model).clauses:
        formula.append(clause)
    for word, var in built.found.items():
        if weights[word] > 0:
            formula.append([var], weight=weights[word])
    total = sum(weights.values())
    started = time.monotonic()
    shown = [started]

    class Reporting(RC2Stratified):
        cores = 0

        def process_core(self) -> None:
            super().process_core()
            self.cores += 1
            if time.monotonic() - shown[0] >= 10:
                shown[0] = time.monotonic()
                print(f"{shown[0] - started:.0f} s: pair score <= {total - self.cost:,} "
                      f"({self.cores:,} cores)", flush=True)

    with Reporting(formula, solver="g4", adapt=True) as rc2:
        timer = threading.Timer(seconds, rc2.interrupt)
        timer.start()
        try:
            solution = rc2.compute(expect_interrupt=True)
        finally:
            timer.cancel()
        taken = time.monotonic() - started
        if rc2.interrupted:
            print(f"UNKNOWN after {taken:.1f} s: pair score <= {total - rc2.cost:,} "
                  f"({rc2.cores:,} cores of RC2, not certified)")
            return 3
        if solution is None:
            print(f"no board counts the required words (RC2, {taken:.1f} s, not certified)")
            return 1
    letters = built.board_of(frozenset(lit for lit in solution if lit > 0))
    print(f"optimum in {taken:.1f} s: pair score {total - rc2.cost:,}, board {letters} (RC2, not certified)")
    return 0


def main() -> int:
    """Build the model, ask the backend, print the verdict; exit 0 for a board, 1 for none, 3 unknown."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--shape", default="5x5")
    parser.add_argument("--threshold", type=int, help="the pair score asked for")
    parser.add_argument("--maxsat", action="store_true",
                        help="no threshold: maximise the pair score by core-guided MaxSAT (RC2)")
    parser.add_argument("--seconds", type=float, default=300.0)
    parser.add_argument("--backend", default="kissat")
    parser.add_argument("--triples", action="store_true", help="also the stretches of three letters")
    parser.add_argument("--unit", action="store_true", help="weigh every word 1: the threshold counts words")
    parser.add_argument("--symmetry-breaking", action="store_true",
                        help="ask for the lex-least board of its symmetry class (as fit's flag does)")
    add_word_options(parser)
    args = parser.parse_args()
    if (args.threshold is None) == (not args.maxsat):
        parser.error("give one of --threshold and --maxsat")
    question = build_question(optional=["all"], shape=args.shape, allow_empty=True)
    weights = question.scoring_weights()
    if args.unit:
        weights = dict.fromkeys(weights, 1)
    check_words(parser, set(args.require) | set(args.drop), weights)
    weights = {w: 0 if w in args.drop else weight for w, weight in weights.items()}
    built = BoardPairs(question.board, weights, args.triples)
    words = list(weights)
    for word in args.require:
        built.model.add_clause([built.found[word]])
    if args.symmetry_breaking:
        built.break_symmetries()
    if args.maxsat:
        print(f"{args.shape}, maximising the pair score (total {sum(weights.values()):,}): "
              f"{built.model.num_vars:,} variables, {len(built.model.clauses):,} clauses", flush=True)
        return maxsat(built, weights, args.seconds)
    built.model.add_linear([built.found[w] for w in words], [weights[w] for w in words], ">=", args.threshold)
    print(f"{args.shape}, pair score >= {args.threshold:,} (total {sum(weights.values()):,}): "
          f"{built.model.num_vars:,} variables, {len(built.model.clauses):,} clauses, "
          f"{len(built.model.linear)} linear constraints", flush=True)
    true_vars, seconds, code = ask(built.model, args.backend, args.seconds,
                                   f"no board has pair score >= {args.threshold:,}")
    if true_vars is None:
        return code
    letters = built.board_of(true_vars)
    needs = {w: spellings(w) for w in words}
    pairs, _ = pair_score(list(letters), list(question.board.edges), needs, weights)
    grid = letters.replace(OTHER, "Q")
    print(f"a board in {seconds:.1f} s: {letters}, pair score {pairs:,} (recomputed); "
          f"as a grid ({OTHER} as Q) the finder scores it {score(grid).total:,}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
