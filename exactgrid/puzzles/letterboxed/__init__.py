"""NYT Letter Boxed: the fewest dictionary words that use every letter of the box, proven fewest.

The rules (seed document 002): a box of S sides with L letters each (the NYT's is 4 sides of 3),
every letter distinct. A solution is a sequence of dictionary words, each

* of 3 or more letters, using only letters of the box,
* with consecutive letters on *different* sides (a letter may come back later in the word),
* starting with the last letter of the word before,

that together use every letter of the box. Since the letters are distinct, a word is playable
exactly when the finder spells it as a walk with no letter altered on the box's board
(:meth:`exactgrid.geometry.Board.letter_boxed`: cells on different sides are adjacent), so the
finder is the referee: :func:`check_solution` re-checks every answer with it before it is
returned. :func:`playable_words` is a fast direct filter (letter sets, then a regular
expression); a test shows it agrees with the finder on all of ENABLE.

The front door is :func:`solve_letter_boxed` (a :class:`LetterBoxedAnswer`, which meets the
answer contract of :mod:`exactgrid.answer`). Two independent solvers answer "what is the
fewest number of words?":

* :func:`solve_by_search` (:mod:`.search`): breadth-first search over states (last letter, set
  of letters covered), one word per edge, so every state reachable with k words is settled
  before any needing k + 1, and the first level holding the full set is the proven fewest. It
  runs as iterative deepening (k = 1, 2, ...), each round cutting the states that cannot cover
  the rest within the round's k words by admissible bounds (:mod:`.bounds`: lower bounds on
  the words still needed): tables, worked out once per box by subset-sum transforms, of the
  fewest chained words from each letter that cover each subset of the 12 rarest letters (on a
  4 x 3 box: all of them), and of the fewest words, chaining ignored, that cover each subset of
  up to 16 letters. Levels are numpy arrays. Among the fewest-word solutions it returns the
  one with the fewest letters, then the alphabetically first sequence.
* :func:`solve_by_ilp` (:mod:`.ilp`): for k = 1, 2, ... an integer programme "is there a chain
  of k words covering every letter?" on a :class:`~exactgrid.model.BoolModel` solved by a
  backend (CBC by default); the first feasible k is the fewest, proven by the backend's
  infeasibility answers for every smaller k.

Both shrink the word list first by dominance (:func:`dominant_words`): a word is dropped when
another with the same first and last letters covers a superset of its letters (the search
also requires the other to be no longer and, at equal length, alphabetically earlier, so its
tie-break stays exact).

The modules: :mod:`.rules` (the box, the word rules, the referee), :mod:`.bounds` and
:mod:`.search` (the search), :mod:`.ilp` (the integer programme), :mod:`.answer` (the answer)
and :mod:`.front` (the front door); every name is importable from here.

>>> answer = solve_letter_boxed("vro wal eth bdi")      # ENABLE, breadth-first search
>>> answer.fewest, answer.proven, answer.outcome.value
(2, True, 'optimal')
"""

from __future__ import annotations

from .answer import LetterBoxedAnswer
from .bounds import CHAIN_BITS, COVER_BITS
from .front import METHODS, Method, solve_letter_boxed
from .ilp import DEFAULT_BACKEND, ChainModel, chain_model, solve_by_ilp
from .rules import (
    ALL_LETTERS,
    DEFAULT_WORDS,
    MIN_LENGTH,
    InvalidSolution,
    LetterBox,
    LetterBoxError,
    WordEdge,
    Words,
    check_solution,
    dominant_edges,
    dominant_words,
    is_playable,
    letter_sets,
    load_words,
    playable_words,
    solution_problems,
    word_edges,
)
from .search import BLOCK, solve_by_search

# Private, but kept reachable here as on the one module this package replaced: tests replace
# _deepening_round (the search looks it up here) and inspect _edges.
from .search import _deepening_round as _deepening_round
from .search import _edges as _edges

__all__ = [
    "ALL_LETTERS", "BLOCK", "CHAIN_BITS", "COVER_BITS", "DEFAULT_BACKEND", "DEFAULT_WORDS", "METHODS", "MIN_LENGTH",
    "ChainModel", "InvalidSolution", "LetterBox", "LetterBoxError", "LetterBoxedAnswer", "Method", "WordEdge",
    "Words", "chain_model", "check_solution", "dominant_edges", "dominant_words", "is_playable", "letter_sets",
    "load_words", "playable_words", "solution_problems", "solve_by_ilp", "solve_by_search", "solve_letter_boxed",
    "word_edges",
]
