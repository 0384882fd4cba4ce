"""The question's own exact model asked about letter counts: the step that lets the core loop
decide a question instead of only refuting it.

CDCL solvers are poor at counting: on ``4x4_m8`` Kissat does not settle whether the eight M
states fit in 16 cells, yet told how many cells each letter gets it answers at once (measured
in docs/benchmarks.md, section Prove). The counting relaxation proposes exactly such counts.
So when a relaxation solution's pairs and counts can be placed (no pair/count core applies),
this check asks the exact model (the fit encoding, :func:`exactgrid.encoding.encode`) with a
one-way counter per letter of the relaxation whether the words can be spelled with each letter
in at most as many cells as the solution gives it:

* yes: the solver's grid answers the question (the caller has the finder confirm it);
* no: the solver's core over the count assumptions, trimmed, is a *word count core*: no grid
  answering this question has those letters within those limits. (Trimmed, not shrunk to a
  minimal core: deletion makes each round much slower and saves fewer rounds than that costs;
  measured in docs/benchmarks.md, section Prove.) It becomes a cut of the relaxation like a
  pair/count core, but it speaks of this question's words, so it is never renamed.

A relaxation solution fixes every count (the cells add up to the board, the "other" letters
included), so "at most" each count is "exactly" it, and one count core cuts a whole family of
solutions. Questions whose forbidden words are enforced lazily (too many paths to cut up front)
are not checked here: the exact model alone does not hold them.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import dataclass

from ..backends import Result, Status, get_backend
from ..encoding import encode
from ..grid import Grid
from ..question import Question
from ..wording import plural
from .counting import OTHER
from .placement import COUNT_LIMIT, count_up, trim_core

ALONE_SECONDS = 2.0
"""How long :class:`CountCheck` asks, once, whether the question's exact model is unsatisfiable
with no assumption (a hard question is not decided in that time, and the loop goes on)."""


@dataclass(frozen=True)
class WordCore:
    """Words and letter limits no grid answering the question meets together: a grid spelling
    every one of ``words`` has some limited letter in more cells than its limit. Found in the
    question's exact model, so it speaks of these words only (never renamed)."""

    words: tuple[str, ...]
    at_most: tuple[tuple[str, int], ...]

    def text(self) -> str:
        """E.g. ``OHIO, UTAH spelled, with A in at most 1 cell``."""
        limits = ", ".join(f"{'other letters' if a == OTHER else a} in at most {plural(k, 'cell')}"
                           for a, k in self.at_most)
        if not self.words:
            return limits or "the question's own constraints"
        spelled = ", ".join(self.words) + " spelled"
        return f"{spelled}, with {limits}" if limits else spelled

    def to_dict(self) -> dict[str, object]:
        """JSON-ready: words and at_most ({letter: cells})."""
        return {"words": list(self.words), "at_most": dict(self.at_most)}


class CountCheck:
    """One incremental session on a question's exact model with a letter counter for each of
    ``letters`` (the relaxation's letters; :data:`~exactgrid.prove.counting.OTHER` stands for
    every letter not among them). With ``words``, every optional word has a found variable, so
    a check may also ask for words to be spelled."""

    def __init__(self, question: Question, letters: set[str] | frozenset[str], backend: str = "cadical",
                 deadline: float | None = None, words: bool = False) -> None:
        self.encoding = encode(question, deadline=deadline, found=words)
        model = self.encoding.model
        cells = range(question.board.size)
        named = set(letters) - {OTHER}
        self.at_least: dict[tuple[str, int], int] = {}
        for a in sorted(named):
            holds = [self.encoding.letter_vars[c][a] for c in cells if a in self.encoding.letter_vars[c]]
            for k, var in count_up(model, holds, COUNT_LIMIT + 1).items():
                self.at_least[a, k] = var
        if OTHER in letters:
            others = []
            for c in cells:
                other = model.new_var(f"other[{c}]")
                for b, var in self.encoding.letter_vars[c].items():
                    if b not in named:
                        model.add_clause([-var, other])
                others.append(other)
            for k, var in count_up(model, others, COUNT_LIMIT + 1).items():
                self.at_least[OTHER, k] = var
        self.session = get_backend(backend).open_session(model)
        self.asked_alone = False

    @property
    def usable(self) -> bool:
        """Whether the exact model holds the whole question (no forbidden word left to lazy cuts)."""
        return not self.encoding.lazy_forbidden

    def check(self, counts: dict[str, int], time_limit: float | None = None,
              words: Iterable[str] = ()) -> Grid | WordCore | None:
        """A grid answering the question with each letter in at most ``counts`` cells and every
        one of ``words`` (optional words of the question) spelled, as the exact model sees it
        (the caller verifies it); or a word count core; or None at the time limit. Counts above
        :data:`COUNT_LIMIT` are not asked (fewer assumptions: still sound)."""
        deadline = None if time_limit is None else time.monotonic() + time_limit
        named = self.assumptions(words, tuple(sorted(counts.items())))
        result = self._solve(list(named), deadline)
        if result is None:
            return None
        if result.status == Status.SAT:
            return self.encoding.decode(result.true_vars or ())
        if self._unsatisfiable_alone(deadline):
            return WordCore((), ())
        core = [named[lit] for lit in trim_core(self._solve, list(result.core or named), deadline)]
        return WordCore(tuple(sorted(w for w in core if isinstance(w, str))),
                        tuple(sorted(c for c in core if isinstance(c, tuple))))

    def _unsatisfiable_alone(self, deadline: float | None) -> bool:
        """Once per session, at the first refuted check: whether the model refutes the question
        with no assumption at all, within :data:`ALONE_SECONDS`. Then the empty core cuts every
        solution of the relaxation at once, where cores trimmed from the assumptions would cut
        one letter count at a time (a question no grid meets, such as one forbidding a word every
        grid holds, took 122 rounds)."""
        if self.asked_alone:
            return False
        self.asked_alone = True
        soon = time.monotonic() + ALONE_SECONDS
        result = self._solve([], soon if deadline is None else min(deadline, soon))
        return result is not None and result.status == Status.UNSAT

    def assumptions(self, words: Iterable[str],
                    at_most: tuple[tuple[str, int], ...]) -> dict[int, tuple[str, int] | str]:
        """Assumption literal -> the word ("spelled") or the limit ("at most") it stands for;
        words without a found variable and limits above the counters are left out."""
        named: dict[int, tuple[str, int] | str] = {self.encoding.found_vars[w]: w for w in words
                                                   if w in self.encoding.found_vars}
        named.update({-self.at_least[a, n + 1]: (a, n) for a, n in at_most if (a, n + 1) in self.at_least})
        return named

    def _solve(self, assumptions: list[int], deadline: float | None) -> Result | None:
        left = None if deadline is None else max(0.0, deadline - time.monotonic())
        result = self.session.solve(assumptions, time_limit=left)
        return None if result.status == Status.UNKNOWN else result

    def close(self) -> None:
        """Free the solver."""
        self.session.close()
