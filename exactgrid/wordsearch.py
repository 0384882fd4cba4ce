"""Every word of a list that a grid spells: one depth-first search of the grid guided by a trie.

The finder (:mod:`exactgrid.finder`) decides one word at a time, which is right for 50 states
and wrong for a dictionary: ENABLE has 172,823 words, and a 3x3 grid spells a few dozen. Here
the words are merged once into a :class:`Trie` (a prefix tree), and one search walks the grid
and the trie together: a path of cells is extended only while its letters are a prefix of
some word, so the work is proportional to the prefixes the grid spells, not to the list.

Rules (the same as the finder's, see docs/rules.md):

* ``path_rule="simple"`` (Trackword, Boggle): a path never visits a cell twice.
* ``path_rule="walk"`` (Altered States): consecutive cells are distinct and adjacent; a cell
  may be visited again later. The search is bounded by ``max_length`` and by the trie's
  depth (no prefix outlives the longest word), and a walk's future depends only on (trie node,
  cell, alterations used), so each such state is expanded once: polynomial, not exponential.
* ``budget`` (default 0, exact matches): a word is found when some path spells a string that
  differs from it in at most ``budget`` letters (substitutions only). Exact search (budget 0)
  follows one trie child per step and is the fast path; with a budget, every child of a trie
  node may be taken as an alteration, which costs more.

Each distinct word is reported once, as a :class:`WordHit` (a :class:`~exactgrid.finder.Match`,
the package's one witness type), with one path chosen
deterministically: the fewest alterations, then the lexicographically smallest sequence of
cell indices (the depth-first search visits start cells and neighbours in ascending order, so
the first path found is that one). This is not always the finder's canonical witness (which
prefers the path ending at the lowest cell); both are valid paths spelling the word. Hits are
sorted longest first, then alphabetically.

How long building the trie and searching take: docs/benchmarks.md, Puzzles (Trackword),
measured with ``python tools/bench_trackword.py``.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from .finder import Match
from .geometry import Board, PathRule, check_path_rule
from .grid import Grid
from .inputs import InputError, check_whole
from .stopping import DeadlinePassed, check_deadline
from .words import WordList

TrieNode = dict[str, Any]
"""A trie node: one entry per next letter (``"A"`` -> child node), and :data:`END` -> the word
when a word ends here."""

END = ""
"""The key of a trie node under which the word ending there is stored (never a letter)."""


@dataclass(frozen=True, eq=False)
class Trie:
    """The words of a list merged into a prefix tree of nested dicts (read-only once built).

    ``min_length`` .. ``max_length`` are the lengths it was restricted to (``max_length`` None:
    no upper bound); ``depth`` is the length of its longest word.

    >>> trie = Trie.from_words(["TEE", "TREE", "TREES"])
    >>> len(trie), trie.nodes, trie.depth, "TREE" in trie, "TRE" in trie
    (3, 7, 5, True, False)
    """

    root: TrieNode
    words: int
    nodes: int
    depth: int
    min_length: int = 1
    max_length: int | None = None
    name: str = "words"

    @classmethod
    def from_words(cls, words: Iterable[str], min_length: int = 1, max_length: int | None = None,
                   name: str = "words", deadline: float | None = None) -> Trie:
        """A trie of the words with ``min_length`` to ``max_length`` letters (None: any length).

        Words must be upper-case A-Z (a :class:`~exactgrid.words.WordList` holds only such);
        anything else raises InputError. A word given twice counts once. ``deadline`` (a
        ``time.monotonic()`` value; None: none): :class:`~exactgrid.stopping.DeadlinePassed`
        once it has passed.
        """
        low, high = check_lengths(min_length, max_length)
        checked = words.words if isinstance(words, WordList) else _checked_words(words)
        root: TrieNode = {}
        count = nodes = depth = 0
        doing = f"building the trie of {name}"
        for index, word in enumerate(checked, 1):
            check_deadline(deadline, index, doing)
            size = len(word)
            if size < low or (high is not None and size > high):
                continue
            node = root
            for letter in word:
                child = node.get(letter)
                if child is None:
                    child = node[letter] = {}
                    nodes += 1
                node = child
            if END not in node:
                node[END] = word
                count += 1
                depth = max(depth, size)
        return cls(root, count, nodes, depth, low, high, name)

    def __len__(self) -> int:
        return self.words

    def __contains__(self, word: object) -> bool:
        node: TrieNode | None = self.root
        if not isinstance(word, str) or not word:
            return False
        for letter in word:
            node = node.get(letter)
            if node is None:
                return False
        return END in node

    def __iter__(self) -> Iterator[str]:
        stack = [self.root]
        while stack:
            node = stack.pop()
            for key, value in node.items():
                if key == END:
                    yield value
                else:
                    stack.append(value)


class WordHit(Match):
    """One word found by :func:`search_words`: a :class:`~exactgrid.finder.Match` (the one
    witness type: ``word``, ``spelled``, ``path``, ``altered``, ``substitutions``,
    ``labels(board)``) that keeps this class's own argument order, ``WordHit(word, path,
    spelled)``.

    >>> hit = WordHit("TREE", (2, 4, 1, 3), "TREE")
    >>> isinstance(hit, Match), hit.path, hit.substitutions
    (True, (2, 4, 1, 3), 0)
    """

    __match_args__ = ("word", "path", "spelled")

    def __init__(self, word: str, path: tuple[int, ...], spelled: str) -> None:
        super().__init__(word, spelled, path)


def check_lengths(min_length: Any, max_length: Any) -> tuple[int, int | None]:
    """``(min_length, max_length)`` when they make sense: whole numbers >= 1, ``max_length``
    None (no upper bound) or >= ``min_length``; else InputError with a one-line message."""
    low = check_whole(min_length, "the minimum word length", 1)
    if max_length is None:
        return low, None
    high = check_whole(max_length, "the maximum word length", 1)
    if low > high:
        raise InputError(f"the minimum word length ({low}) is more than the maximum ({high})")
    return low, high


def _checked_words(words: Iterable[str]) -> list[str]:
    """The words as a list, each checked to be upper-case A-Z (InputError otherwise)."""
    if isinstance(words, str | bytes):
        raise InputError("give the words as a list of strings, not one string")
    out = list(words)
    for word in out:
        if not isinstance(word, str) or not (word.isascii() and word.isalpha() and word.isupper()):
            raise InputError(f"a word must be upper-case letters A-Z, got {word!r}")
    return out


TRIES_KEPT = 4
"""How many tries :func:`trie_for` keeps (their memory: docs/benchmarks.md, Puzzles)."""

_tries: dict[tuple[WordList, int, int | None], Trie] = {}
_tries_lock = threading.Lock()


def trie_for(words: WordList, min_length: int = 1, max_length: int | None = None,
             deadline: float | None = None) -> Trie:
    """The trie of a word list restricted to ``min_length`` .. ``max_length`` letters, built
    once per (list, min, max) and kept (the last :data:`TRIES_KEPT` used). ``deadline``: as for
    :meth:`Trie.from_words` (a trie cut short is not kept)."""
    key = (words, min_length, max_length)
    with _tries_lock:
        trie = _tries.pop(key, None)
        if trie is not None:
            _tries[key] = trie  # the last used last
            return trie
    trie = Trie.from_words(words, min_length, max_length, words.name, deadline)  # outside the lock: seconds
    with _tries_lock:
        _tries[key] = trie
        while len(_tries) > TRIES_KEPT:
            del _tries[next(iter(_tries))]
    return trie


def as_trie(words: Trie | WordList | Iterable[str], min_length: int = 1, max_length: int | None = None) -> Trie:
    """A trie for ``words``: a Trie as it is, a WordList's cached trie for these lengths, or a
    new trie of an iterable of upper-case words."""
    if isinstance(words, Trie):
        return words
    if isinstance(words, WordList):
        return trie_for(words, min_length, max_length)
    return Trie.from_words(words, min_length, max_length)


class SearchTimedOut(DeadlinePassed):
    """The deadline of :func:`search_words` passed before the search ended."""


DEADLINE_STEPS = 4096
"""How many search states are visited between two looks at the deadline (milliseconds)."""


def search_words(grid: Grid, words: Trie | WordList | Iterable[str], path_rule: PathRule = "simple",
                 min_length: int = 3, max_length: int | None = None, budget: int = 0,
                 deadline: float | None = None, *, found_so_far: list[WordHit] | None = None
                 ) -> list[WordHit]:
    """Every word of ``words`` that ``grid`` spells with ``min_length`` to ``max_length`` letters
    (None: no upper bound) under ``path_rule``, found by one depth-first search of the grid
    guided by a trie (not one search per word).

    ``budget`` is the number of letters that may be altered (substituted); the default 0 asks
    for exact matches (Trackword, Boggle). Each distinct word is reported once, with the path
    of fewest alterations, then the lexicographically smallest list of cell indices. Hits are
    sorted longest first, then alphabetically. ``words`` is a :class:`Trie` (used as it is, so
    its own length restriction applies too), a WordList (its trie for these lengths is built
    once and cached) or an iterable of upper-case words.
    Bad lengths, path rules or budgets raise InputError with a one-line message. ``deadline``
    (a ``time.monotonic()`` value): raise :class:`SearchTimedOut` once it has passed.
    ``found_so_far``, when given, is extended by the hits found by the time the search ends,
    in the same order, however it ends: all of them when it completes, and when the deadline or
    Ctrl-C cuts it short, the words found before that (each held; with a budget, a word's path
    is the best seen so far, which a complete search might have replaced by one with fewer
    alterations).

    >>> from exactgrid.grid import parse_grid
    >>> hits = search_words(parse_grid("set/err/vei"), ["RETRIEVES", "TREE", "TRESS", "SET"])
    >>> [(hit.word, hit.path) for hit in hits]
    [('RETRIEVES', (4, 1, 2, 5, 8, 7, 6, 3, 0)), ('TREE', (2, 4, 1, 3)), ('SET', (0, 1, 2))]
    """
    low, high = check_lengths(min_length, max_length)
    check_path_rule(path_rule)
    budget = check_whole(budget, "the alteration budget")
    trie = as_trie(words, low, high)
    limit = trie.depth if high is None else min(high, trie.depth)
    simple = path_rule == "simple"
    if simple:
        limit = min(limit, grid.board.size)
    if limit > MAX_DEPTH:
        raise InputError(f"words of more than {MAX_DEPTH} letters are not searched (the search goes one level "
                         f"deeper per letter); ask for at most {MAX_DEPTH} letters")
    budget = min(budget, limit)  # more alterations than letters alter nothing more
    if simple and budget > MAX_SIMPLE_BUDGET:
        raise InputError(f"simple paths with more than {MAX_SIMPLE_BUDGET} alterations are not searched (the "
                         f"search grows exponentially with the budget: see docs/benchmarks.md); "
                         "walks take any budget")
    letters, neighbours = grid.letters, grid.board.neighbours
    clock = _Clock(deadline)
    found: Found = {}
    try:
        if budget == 0 and simple:
            _exact_simple(letters, neighbours, trie.root, low, limit, clock, found)
        else:
            _altered(letters, neighbours, trie.root, low, limit, budget, simple, clock, found)
    finally:
        hits = _hits(letters, found)
        if found_so_far is not None:
            found_so_far.extend(hits)
    return hits


def _hits(letters: str, found: Found) -> list[WordHit]:
    """The search's words as hits, longest first, then alphabetically."""
    hits = [WordHit(word, path, "".join(letters[c] for c in path)) for word, (_, path) in found.items()]
    hits.sort(key=lambda hit: (-len(hit.word), hit.word))
    return hits


MAX_DEPTH = 300
"""The longest word searched: the depth-first search recurses once or twice per letter, and
Python's default recursion limit is 1,000 frames."""

MAX_SIMPLE_BUDGET = 2
"""The most alterations searched under the simple-path rule, where every trie child may be
tried at every cell of every path: the work grows exponentially with the budget."""

Found = dict[str, tuple[int, tuple[int, ...]]]
"""word -> (alterations, path) of the best path found so far."""


class _Clock:
    """Counts a search's states and, every :data:`DEADLINE_STEPS`, looks at the deadline."""

    def __init__(self, deadline: float | None) -> None:
        self.deadline = deadline
        self.steps = 0

    def tick(self) -> None:
        """One more state: :class:`SearchTimedOut` when the deadline has passed."""
        self.steps += 1
        if self.deadline is not None and self.steps % DEADLINE_STEPS == 0 and time.monotonic() > self.deadline:
            raise SearchTimedOut(f"the time limit came after {self.steps:,} search states")


def _exact_simple(letters: str, neighbours: tuple[tuple[int, ...], ...], root: TrieNode,
                  low: int, high: int, clock: _Clock, found: Found) -> None:
    """Simple paths, exact letters: the fast path (one trie child per step, a visited bitmask),
    into ``found``."""
    path: list[int] = []

    def extend(cell: int, node: TrieNode, visited: int, depth: int) -> None:
        clock.tick()
        word = node.get(END)
        if word is not None and depth >= low and word not in found:
            found[word] = (0, tuple(path))
        if depth == high:
            return
        for nxt in neighbours[cell]:
            if visited >> nxt & 1:
                continue
            child = node.get(letters[nxt])
            if child is not None:
                path.append(nxt)
                extend(nxt, child, visited | 1 << nxt, depth + 1)
                path.pop()

    if high >= 1:
        for cell, letter in enumerate(letters):
            child = root.get(letter)
            if child is not None:
                path.append(cell)
                extend(cell, child, 1 << cell, 1)
                path.pop()


def _altered(letters: str, neighbours: tuple[tuple[int, ...], ...], root: TrieNode, low: int, high: int,
             budget: int, simple: bool, clock: _Clock, found: Found) -> None:
    """Any path rule and budget: a depth-first search over (cell, trie node, alterations used),
    into ``found``.

    Walks expand each state once (``seen``): a walk's continuations do not depend on how it
    got there, and the first arrival comes by the lexicographically smallest path, since the
    search runs in that order and a later arrival could swap in the earlier prefix. Simple
    paths carry the visited cells, so they are searched path by path (``seen`` is None).
    """
    seen: set[tuple[int, int, int]] | None = None if simple else set()
    path: list[int] = []

    def arrive(cell: int, node: TrieNode, depth: int, used: int, visited: int) -> None:
        clock.tick()
        if seen is not None:
            state = (id(node), cell, used)
            if state in seen:
                return
            seen.add(state)
        word = node.get(END)
        if word is not None and depth >= low:
            _keep_fewest(found, word, used, path)
        if depth == high:
            return
        for nxt in neighbours[cell]:
            if not (simple and visited >> nxt & 1):
                step(nxt, node, depth, used, visited)

    def step(cell: int, node: TrieNode, depth: int, used: int, visited: int) -> None:
        letter = letters[cell]
        path.append(cell)
        visited |= 1 << cell
        if used == budget:
            child = node.get(letter)
            if child is not None:
                arrive(cell, child, depth + 1, used, visited)
        else:
            for key, child in node.items():
                if key != END:
                    arrive(cell, child, depth + 1, used + (key != letter), visited)
        path.pop()

    # (an empty trie has depth 0: then ``high`` is 0 and the root has no child to step into)
    for cell in range(len(letters)):
        step(cell, root, 0, 0, 0)


def _keep_fewest(found: Found, word: str, used: int, path: list[int]) -> None:
    """Record ``path`` for ``word`` unless a path with as few alterations is already recorded
    (an earlier one is the lexicographically smaller)."""
    best = found.get(word)
    if best is None or used < best[0]:
        found[word] = (used, tuple(path))


def hamiltonian_paths(board: Board, limit: int | None = None,
                      deadline: float | None = None) -> Iterator[tuple[int, ...]]:
    """Every Hamiltonian path of ``board`` (a simple path through all its cells), as a tuple of
    cell indices, each direction separately, in lexicographic order.

    With ``limit``, at most ``limit + 1`` paths are produced (so a caller can tell "more than
    ``limit``" without enumerating them all). The 3x3 king board has 784 (392 undirected).
    A partial path whose unvisited cells are not all reachable from its end through unvisited
    cells is dropped (no Hamiltonian path extends it): on long thin boards the dead ends are
    most of the search. :class:`~exactgrid.stopping.DeadlinePassed` once ``deadline`` (a
    ``time.monotonic()`` value) passes.

    >>> sum(1 for _ in hamiltonian_paths(Board(3, 3)))
    784
    """
    size, neighbours = board.size, board.neighbours
    cap = None if limit is None else limit + 1
    count = steps = 0
    stack: list[tuple[tuple[int, ...], int]] = [((cell,), 1 << cell) for cell in reversed(range(size))]
    while stack:
        steps += 1
        check_deadline(deadline, steps, "listing the board's Hamiltonian paths")
        path, visited = stack.pop()
        if not _rest_reachable(board, path[-1], visited):
            continue
        if len(path) == size:
            yield path
            count += 1
            if cap is not None and count >= cap:
                return
            continue
        for nxt in reversed(neighbours[path[-1]]):
            if not visited >> nxt & 1:
                stack.append(((*path, nxt), visited | 1 << nxt))


def _rest_reachable(board: Board, end: int, visited: int) -> bool:
    """Whether every cell not in ``visited`` can be reached from ``end`` through such cells."""
    rest = board.all_cells & ~visited
    reached = 1 << end
    while True:
        grown = reached | (board.spread(reached) & rest)
        if grown == reached:
            return rest & ~reached == 0
        reached = grown


def is_valid_path(board: Board, path: tuple[int, ...] | list[int], path_rule: PathRule) -> bool:
    """Whether ``path`` is a path of ``board`` under ``path_rule``: each step one move, and
    under ``simple`` no cell twice."""
    if not all(isinstance(c, int) and 0 <= c < board.size for c in path):
        return False
    if path_rule == "simple" and len(set(path)) != len(path):
        return False
    return all(board.is_adjacent(a, b) for a, b in zip(path, path[1:]))

