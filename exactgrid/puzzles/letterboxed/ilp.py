"""Letter Boxed by integer programmes (:func:`solve_by_ilp`): for k = 1, 2, ... "is there a
chain of k words covering every letter?" (:func:`chain_model`) on a
:class:`~exactgrid.model.BoolModel`, solved by a backend (CBC by default); the first feasible
k is the fewest, proven by the backend's infeasibility answers for every smaller k.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ...answer import DEFAULT_TIME_LIMIT, OnProgress
from ...inputs import check_whole
from ...model import BoolModel
from ...stopping import interruption
from ...wording import plural
from ...words import WordList
from ..clock import Clock
from .answer import LetterBoxedAnswer, refereed
from .rules import LetterBox, WordEdge, Words, dominant_edges, load_words, missing_letters, playable_words, word_edges

if TYPE_CHECKING:
    from ...backends import Backend

DEFAULT_BACKEND = "cbc"
"""The backend :func:`solve_by_ilp` uses when none is named."""


@dataclass(frozen=True)
class ChainModel:
    """The k-word question as a BoolModel: ``x[p][i]`` is true when word ``words[i]`` is at position p."""

    model: BoolModel
    words: tuple[str, ...]
    x: tuple[tuple[int, ...], ...]

    def decode(self, true_vars: frozenset[int]) -> tuple[str, ...]:
        """The words of an assignment, position by position."""
        return tuple(self.words[next(i for i, v in enumerate(row) if v in true_vars)] for row in self.x)


def chain_model(box: LetterBox, words: Sequence[str] | Sequence[WordEdge], k: int) -> ChainModel:
    """"Is there a chain of ``k`` of ``words`` (playable; or their :func:`word_edges`) covering
    every letter of ``box``?"

    * exactly one word per position: ``exactly_one(x[p])``;
    * chaining, for each position p < k - 1 and letter c: (words at p ending with c) - (words at
      p + 1 starting with c) = 0, so the word at p + 1 starts where the word at p ends;
    * coverage, for each letter: a clause over every ``x[p][i]`` whose word uses it.
    """
    edges = [w for w in words if isinstance(w, WordEdge)]
    if len(edges) < len(words):
        edges = word_edges(box, [w for w in words if isinstance(w, str)])
    model = BoolModel()
    x = tuple(tuple(model.new_vars(len(edges), f"p{p + 1}")) for p in range(k))
    for p, row in enumerate(x):
        model.exactly_one(row, f"one word at {p + 1}")
    ending = [[i for i, e in enumerate(edges) if e.last == cell] for cell in range(box.size)]
    starting = [[i for i, e in enumerate(edges) if e.first == cell] for cell in range(box.size)]
    using = [[i for i, e in enumerate(edges) if e.mask >> cell & 1] for cell in range(box.size)]
    for p in range(k - 1):
        for cell, letter in enumerate(box.letters):
            lits = [x[p][i] for i in ending[cell]] + [x[p + 1][i] for i in starting[cell]]
            if lits:
                weights = [1] * len(ending[cell]) + [-1] * len(starting[cell])
                model.add_linear(lits, weights, "==", 0, f"chain {p + 1} {letter}")
    for cell in range(box.size):
        model.add_clause(x[p][i] for p in range(k) for i in using[cell])
    return ChainModel(model, tuple(e.word for e in edges), x)


def solve_by_ilp(box: LetterBox | str, words: Words = None, max_words: int | None = None,
                 backend: str | None = None, time_limit: float | None = DEFAULT_TIME_LIMIT, seed: int = 0,
                 on_progress: OnProgress | None = None) -> LetterBoxedAnswer:
    """The fewest-word solution of ``box`` by integer programmes: for k = 1, 2, ... up to
    ``max_words`` (default: the number of letters in the box), :func:`chain_model` asks the
    backend (``cbc`` unless named; any backend works, the model is backend-neutral) whether k
    words can do it. The first feasible k is the fewest, proven by the infeasible answers for
    every smaller k; ``how`` records which backend gave each.

    The words are the playable ones reduced by :func:`dominant_words` (``keep="widest"``), so the
    programme has k x (a few hundred) variables on a 4 x 3 box with ENABLE. Each call to a
    backend that runs as a child process (CBC) costs a start-up, so a k-word answer costs k
    of them; how long, and how the search compares: measured in docs/benchmarks.md, section
    Puzzles.

    ``time_limit`` (wall-clock seconds from the call; None: none) bounds the whole run; when a
    call runs out of time the answer is not proven. Ctrl-C (or a stop signal) answers with
    what the finished k showed (``stopped_by``). ``on_progress`` hears of each k
    (``bound``: the fewest words still possible).
    """
    from ...backends import backend_name, get_backend

    clock = Clock.start("letterboxed", time_limit, on_progress)
    box = LetterBox.parse(box)
    dictionary = load_words(words)
    limit = box.size if max_words is None else check_whole(max_words, "max_words", 1)
    solver = get_backend(backend_name(backend, DEFAULT_BACKEND))
    return ilp_answer(box, dictionary, limit, solver, seed, clock)


@dataclass
class _Rounds:
    """What the ILP's rounds (one k each) showed."""

    steps: list[str] = field(default_factory=list)
    found: tuple[str, ...] = ()
    proven: bool = True
    stopped_by: str | None = None


def ilp_answer(box: LetterBox, dictionary: WordList | frozenset[str], limit: int, solver: Backend, seed: int,
               clock: Clock) -> LetterBoxedAnswer:
    """:func:`solve_by_ilp` on checked input, against ``clock`` (a front door's, for "both")."""
    playable: list[WordEdge] = []
    reduced: list[WordEdge] = []
    missing: list[str] = []
    rounds = _Rounds()
    try:
        playable = word_edges(box, playable_words(box, dictionary))
        reduced = dominant_edges(playable, "widest")
        missing = missing_letters(box, playable)
        if not missing:
            _ilp_rounds(box, reduced, limit, solver, seed, clock, rounds)
    except KeyboardInterrupt as exc:  # Ctrl-C or a stop signal: what the finished k showed
        rounds.stopped_by, rounds.proven = interruption(exc), False
        rounds.steps.append(f"k={len(rounds.steps) + 1} interrupted ({rounds.stopped_by})")
    if missing:
        detail = f"no solution at all: no playable word uses {' '.join(missing)}"
    else:
        detail = ", ".join(rounds.steps) + ("" if rounds.found or not rounds.proven
                                            else f": no solution of at most {plural(limit, 'word')}")
    how = (f"ILP ({solver.name}) over {plural(len(reduced), 'dominance-reduced word')} "
           f"of {len(playable):,} playable: {detail}")
    answer = LetterBoxedAnswer(box, rounds.found, len(rounds.found) or None, rounds.proven, how,
                               f"ilp ({solver.name})", clock.elapsed(), len(playable), limit, rounds.stopped_by)
    return refereed(answer, dictionary)


def _ilp_rounds(box: LetterBox, reduced: list[WordEdge], limit: int, solver: Backend, seed: int, clock: Clock,
                rounds: _Rounds) -> None:
    """Ask the backend for k = 1, 2, ... words until one is feasible or unknown; record it in ``rounds``."""
    from ...backends import Status
    from ...backends.base import solver_died

    for k in range(1, limit + 1):
        clock.tell(f"ILP on {solver.name}: is there a solution of {plural(k, 'word')}?", "round", bound=k,
                   done=k - 1, total=limit)
        chain = chain_model(box, reduced, k)
        left = clock.left()
        result = solver.solve(chain.model, time_limit=left, seed=seed) if left is None or left > 0 else None
        if result is not None and result.status == Status.UNSAT:
            rounds.steps.append(f"k={k} infeasible")
            continue
        if result is not None and result.found and result.true_vars is not None:
            rounds.found = chain.decode(result.true_vars)
            rounds.steps.append(f"k={k} feasible")
        else:
            died = result is not None and solver_died(result)
            why = (result.detail if died else "the time limit ran out" if clock.time_limit is not None
                   else f"the backend said {result.status.value if result is not None else 'nothing'}")
            rounds.steps.append(f"k={k} unknown ({why})")
            rounds.proven = False
        return
