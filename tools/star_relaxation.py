"""The letter-triple relaxation without the board's shape: can some *stars* hold N words?

    python tools/star_relaxation.py --count 40 --seconds 300

A real grid gives every cell a letter and a set of neighbouring letters (at most its degree:
3, 5 or 8 on 5x5). A stretch a-b-c of a word is spelled around a cell of b whose neighbours
hold a and c, so the triples a grid realises are known from its cells' stars alone. This model
keeps only that: one slot per cell with the cell's degree, a letter and a set of neighbour
letters (at most the degree), adjacency symmetric (a slot of b next to a needs a slot of a next
to b), each letter a neighbour of at most as many slots as its cells have neighbours, and a word
found when some spelling's 3-windows (``pair_relaxation_search.window_needs``) are realised. It
forgets which slot is next to which. Every real grid's stars satisfy it, so "no stars hold N
words" would prove that no grid holds N words.

Measured (docs/benchmarks.md, Prove): on 5x5 kissat finds stars holding 40 states in seconds, so
without the board's shape, triples prove nothing about 40 states.
"""

from __future__ import annotations

import argparse

from board_pairs import ask
from pair_relaxation_search import window_needs

from exactgrid.model import BoolModel
from exactgrid.question import build_question

OTHER = "_"


class Stars:
    """The model (see the module's docstring); ``found[w]`` is true only when word w is found."""

    def __init__(self, degrees: list[int], words: list[str]) -> None:
        self.model = BoolModel()
        self.degrees = sorted(degrees)
        self.letters = sorted({ch for word in words for ch in word})
        self.order = [*self.letters, OTHER]
        slots = range(len(self.degrees))
        self.x = {(s, a): self.model.new_var() for s in slots for a in self.order}
        self.y = {(s, a): self.model.new_var() for s in slots for a in self.letters}
        self._holds_next_to: dict[tuple[int, str, str], int] = {}
        self._needs: dict[str, int] = {}
        for s in slots:
            self.model.add_linear([self.x[s, a] for a in self.order], None, "==", 1)
            self.model.add_linear([self.y[s, a] for a in self.letters], None, "<=", self.degrees[s])
        self._sorted_within_degree()
        self._symmetric()
        self._capacity()
        self.found = {word: self._word(word) for word in words}

    def _sorted_within_degree(self) -> None:
        """Slots of one degree are interchangeable: their letters in alphabetical order."""
        for s in range(len(self.degrees) - 1):
            if self.degrees[s] == self.degrees[s + 1]:
                for i, a in enumerate(self.order):
                    self.model.add_clause([-self.x[s + 1, a], *(self.x[s, b] for b in self.order[:i + 1])])

    def holds_next_to(self, s: int, a: str, b: str) -> int:
        """A variable true only when slot s holds a and has a neighbour holding b."""
        if (s, a, b) not in self._holds_next_to:
            var = self._holds_next_to[s, a, b] = self.model.new_var()
            self.model.add_clause([-var, self.x[s, a]])
            self.model.add_clause([-var, self.y[s, b]])
        return self._holds_next_to[s, a, b]

    def _symmetric(self) -> None:
        """A slot of a next to b needs another slot, of b, next to a."""
        slots = range(len(self.degrees))
        for s in slots:
            for a in self.letters:
                for b in self.letters:
                    partners = [self.holds_next_to(t, b, a) for t in slots if t != s]
                    self.model.add_clause([-self.x[s, a], -self.y[s, b], *partners])

    def _capacity(self) -> None:
        """Letter a is a neighbour of at most as many slots as a's slots have neighbours."""
        slots = range(len(self.degrees))
        for a in self.letters:
            lits = [self.y[s, a] for s in slots] + [self.x[t, a] for t in slots]
            self.model.add_linear(lits, [1] * len(slots) + [-d for d in self.degrees], "<=", 0)

    def need(self, stretch: str) -> int:
        """A variable true only when the stars realise ``stretch`` (one to three letters)."""
        if len(stretch) == 3 and stretch[0] == stretch[2]:
            stretch = stretch[:2]
        key = stretch if len(stretch) != 2 else "".join(sorted(stretch))
        if key not in self._needs:
            var = self._needs[key] = self.model.new_var()
            self.model.add_clause([-var, *self._ways(key)])
        return self._needs[key]

    def _ways(self, stretch: str) -> list[int]:
        slots = range(len(self.degrees))
        if len(stretch) == 1:
            return [self.x[s, stretch] for s in slots]
        if len(stretch) == 2:
            return [self.holds_next_to(s, stretch[1], stretch[0]) for s in slots]
        a, b, c = stretch
        ways = []
        for s in slots:
            way = self.model.new_var()
            ways.append(way)
            for lit in (self.x[s, b], self.y[s, a], self.y[s, c]):
                self.model.add_clause([-way, lit])
        return ways

    def _word(self, word: str) -> int:
        found = self.model.new_var()
        forms = []
        for need in window_needs(word, 3):
            form = self.model.new_var()
            forms.append(form)
            for stretch in need:
                self.model.add_clause([-form, self.need(stretch)])
        self.model.add_clause([-found, *forms])
        return found

    def describe(self, true_vars: frozenset[int]) -> list[str]:
        """A solution's slots: degree, letter, neighbour letters."""
        lines = []
        for s, degree in enumerate(self.degrees):
            letter = next(a for a in self.order if self.x[s, a] in true_vars)
            near = "".join(a for a in self.letters if self.y[s, a] in true_vars)
            lines.append(f"{degree} {letter} {near}")
        return lines


def main() -> int:
    """Build the model, ask the backend, print the verdict; exit 0 for stars, 1 for none, 3 unknown."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--shape", default="5x5")
    parser.add_argument("--count", type=int, required=True, help="how many words the stars must hold")
    parser.add_argument("--seconds", type=float, default=300.0)
    parser.add_argument("--backend", default="kissat")
    args = parser.parse_args()
    question = build_question(optional=["all"], shape=args.shape, allow_empty=True)
    board = question.board
    words = list(question.scoring_weights())
    stars = Stars([len(board.neighbours[c]) for c in range(board.size)], words)
    stars.model.add_linear([stars.found[w] for w in words], None, ">=", args.count)
    print(f"{args.shape}, stars holding >= {args.count} of {len(words)} words: {stars.model.num_vars:,} "
          f"variables, {len(stars.model.clauses):,} clauses, {len(stars.model.linear)} linear constraints", flush=True)
    true_vars, seconds, code = ask(stars.model, args.backend, args.seconds, f"no stars hold {args.count} words")
    if true_vars is None:
        return code
    held = [w for w in words if stars.found[w] in true_vars]
    print(f"stars in {seconds:.1f} s holding {len(held)} words: {', '.join(held)}")
    print("\n".join(stars.describe(true_vars)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
