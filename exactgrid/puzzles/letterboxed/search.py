"""Letter Boxed by breadth-first search over states (last letter, set of letters covered), one
word per edge, as numpy arrays (:func:`solve_by_search`).

Every state reachable with k words is settled before any needing k + 1, so the first level
holding the full set is the proven fewest. It runs as iterative deepening (k = 1, 2, ...), each
round cutting the states that cannot cover the rest within the round's k words by the
admissible bounds of :mod:`.bounds`.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from ...answer import DEFAULT_TIME_LIMIT, OnProgress
from ...inputs import check_whole
from ...stopping import interruption
from ...wording import plural
from ...words import WordList
from ..clock import Clock
from .answer import LetterBoxedAnswer, refereed
from .bounds import CHAIN_BITS, NEVER, CoverBound, chain_bound, cover_bounds, popcount
from .rules import LetterBox, WordEdge, Words, dominant_edges, load_words, missing_letters, playable_words, word_edges

BLOCK = 1 << 20
"""The most (state, word) pairs the search tests at once (bounds its memory)."""


@dataclass(frozen=True)
class _Edges:
    """The words as edges, sorted by first cell: edges ``starts[f]:starts[f + 1]`` leave cell ``f``."""

    words: tuple[str, ...]
    first: np.ndarray
    last: np.ndarray
    mask: np.ndarray
    length: np.ndarray
    alpha: np.ndarray
    """Alphabetical rank of each word."""
    starts: np.ndarray
    cap: np.ndarray
    """For each cell, the most letters a word starting there covers (-1: no word starts there)."""
    widest: int
    """The most letters any word covers."""
    bounds: tuple[CoverBound, ...]
    compacts: tuple[np.ndarray, ...]
    """For each cover table, each word's cover in its compact index."""
    chain: CoverBound
    chain_compact: np.ndarray
    """Each word's last letter and cover as an index of the chain table (the missing letters
    after it are then looked up as ``chain_last | (compact(need) & ~chain_cover)``)."""
    chain_cover: np.ndarray


def _edges(box: LetterBox, words: Sequence[WordEdge]) -> _Edges:
    """The edge table of ``words`` (distinct words)."""
    alphabetical = {edge.word: rank for rank, edge in enumerate(sorted(words, key=lambda e: e.word))}
    edges = sorted(words, key=lambda e: (e.first, alphabetical[e.word]))
    first = np.array([e.first for e in edges], dtype=np.int64)
    mask = np.array([e.mask for e in edges], dtype=np.int64)
    counts = popcount(mask)
    cap = np.full(box.size, -1, dtype=np.int64)
    np.maximum.at(cap, first, counts)
    last = np.array([e.last for e in edges], dtype=np.int64)
    bounds = cover_bounds(box, mask)
    chain = chain_bound(box, first, last, mask, box.size)
    chain_bits = min(box.size, CHAIN_BITS)
    return _Edges(
        words=tuple(e.word for e in edges),
        first=first,
        last=last,
        mask=mask,
        length=np.array([len(e.word) for e in edges], dtype=np.int64),
        alpha=np.array([alphabetical[e.word] for e in edges], dtype=np.int64),
        starts=np.searchsorted(first, np.arange(box.size + 1)),
        cap=cap,
        widest=int(counts.max(initial=0)),
        bounds=bounds,
        compacts=tuple(bound.compact(mask) for bound in bounds),
        chain=chain,
        chain_compact=last << chain_bits,
        chain_cover=chain.compact(mask),
    )


@dataclass(frozen=True)
class _Level:
    """The states first reached with k words, each with its best k-word prefix.

    State i is (last cell ``last[i]``, cover ``mask[i]``); its prefix has ``letters[i]`` letters,
    ends with edge ``edge[i]`` and continues the prefix of state ``parent[i]`` of level k - 1;
    ``trank[i]`` ranks the prefixes of this level alphabetically (as sequences of words).
    """

    last: np.ndarray
    mask: np.ndarray
    letters: np.ndarray
    trank: np.ndarray
    parent: np.ndarray
    edge: np.ndarray

    def __len__(self) -> int:
        return len(self.last)


@dataclass(frozen=True)
class _Round:
    """One round of iterative deepening: the levels kept, whether a bound deferred any state (see
    :class:`_Cut`), and how many states were kept in all."""

    levels: list[_Level]
    deferred: bool
    states: int


def _reach(edges: _Edges, remaining: int) -> np.ndarray:
    """For each edge, how many letters may still be missing after it when ``remaining`` words
    follow: the next word starts at the edge's last letter and covers at most ``cap`` of that
    letter, each later one at most ``widest`` (an admissible bound); 0 when no word follows.

    After a word ending where no word starts, the bound is left loose: such a state dies out by
    itself, whereas cutting it would count as deferring it (:class:`_Cut`) in every round, and
    the search would never see that it has reached every state."""
    if remaining == 0:
        return np.zeros(len(edges.words), dtype=np.int64)
    cap = edges.cap[edges.last]
    return np.where(cap < 0, remaining * edges.widest, cap + (remaining - 1) * edges.widest)


@dataclass(frozen=True)
class _Cut:
    """The hopeful (row, column) pairs of a block, and whether a bound *deferred* any pair: cut it
    for want of words in this round although more words might do (a pair no number of words can
    finish is not deferred). A round that defers nothing has searched every state it could."""

    rows: np.ndarray
    cols: np.ndarray
    deferred: bool


def _hopeful(edges: _Edges, need: np.ndarray, start: int, stop: int, remaining: int, reach: np.ndarray,
             ) -> _Cut:
    """The hopeful pairs of states (their missing letters ``need``) and edges ``start:stop``
    taken from them: by the chain table, by each cover table and by :func:`_reach`, few enough
    words needed for what is still missing; when no word remains, every letter covered."""
    chain, links = edges.chain, slice(start, stop)
    index = edges.chain_compact[None, links] | (chain.compact(need)[:, None] & ~edges.chain_cover[None, links])
    needed = chain.fewest[index]
    ok = needed <= remaining
    deferred = bool(((needed < NEVER) & ~ok).any())
    rows, cols = np.nonzero(ok)
    cols = cols + start
    after = need[rows] & ~edges.mask[cols]
    if remaining == 0:
        keep = after == 0
    else:
        keep = popcount(after) <= reach[cols]
        for bound, compact in zip(edges.bounds, edges.compacts):
            keep &= bound.fewest[bound.compact(need)[rows] & ~compact[cols]] <= remaining
    return _Cut(rows[keep], cols[keep] - start, deferred or not bool(keep.all()))


def _hopeful_pairs(level: _Level | None, edges: _Edges, box: LetterBox, remaining: int,
                   ) -> tuple[np.ndarray, np.ndarray, bool]:
    """The (state, edge) pairs whose word starts with the state's last letter and whose new
    state can still cover every letter with ``remaining`` more words (from the start, before any
    word: every hopeful edge, state -1); and whether a bound deferred any pair (see :class:`_Cut`).

    Pairs are tested one last letter at a time as a (states x edges) block, in chunks of at most
    :data:`BLOCK` pairs, so memory stays bounded and only hopeful pairs are gathered.
    """
    full, reach = box.full_mask, _reach(edges, remaining)
    if level is None:
        cut = _hopeful(edges, np.array([full], dtype=np.int64), 0, len(edges.words), remaining, reach)
        return np.full(len(cut.cols), -1, dtype=np.int64), cut.cols, cut.deferred
    order = np.argsort(level.last, kind="stable")
    bounds = np.searchsorted(level.last[order], np.arange(box.size + 1))
    states, links, deferred = [], [], False
    for cell in range(box.size):
        start, stop = int(edges.starts[cell]), int(edges.starts[cell + 1])
        here = order[bounds[cell]:bounds[cell + 1]]
        rows_at_once = max(1, BLOCK // max(1, stop - start))
        for chunk in range(0, len(here) if stop > start else 0, rows_at_once):
            part = here[chunk:chunk + rows_at_once]
            cut = _hopeful(edges, full & ~level.mask[part], start, stop, remaining, reach)
            deferred |= cut.deferred
            states.append(part[cut.rows])
            links.append(cut.cols + start)
    if not states:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64), deferred
    return np.concatenate(states), np.concatenate(links), deferred


def _next_level(level: _Level | None, edges: _Edges, box: LetterBox, remaining: int,
                visited: np.ndarray) -> tuple[_Level, bool, np.ndarray]:
    """The hopeful states first reached with one more word, whether a bound deferred any, and the
    sorted keys of every state reached so far (``visited``: those of the earlier levels). Each
    state keeps its best prefix: fewest letters, then alphabetically first."""
    state, edge, deferred = _hopeful_pairs(level, edges, box, remaining)
    if level is None:
        mask, letters, rank = edges.mask[edge], edges.length[edge], np.zeros(len(edge), dtype=np.int64)
    else:
        mask = level.mask[state] | edges.mask[edge]
        letters, rank = level.letters[state] + edges.length[edge], level.trank[state]
    last = edges.last[edge]
    key = last << box.size | mask
    letter_bits = int(letters.max(initial=0)).bit_length()
    alpha_bits = len(edges.words).bit_length()
    order = np.lexsort((rank << alpha_bits | edges.alpha[edge], key << letter_bits | letters))
    first = order[np.r_[True, key[order][1:] != key[order][:-1]]] if len(order) else order
    if len(visited):
        seen = visited[np.minimum(np.searchsorted(visited, key[first]), len(visited) - 1)] == key[first]
        first = first[~seen]
    visited = np.sort(np.concatenate([visited, key[first]]))
    by_sequence = np.lexsort((edges.alpha[edge[first]], rank[first]))
    trank = np.empty(len(first), dtype=np.int64)
    trank[by_sequence] = np.arange(len(first), dtype=np.int64)
    return _Level(last[first], mask[first], letters[first], trank, state[first], edge[first]), deferred, visited


class _TimeUp(Exception):
    """The time limit ran out in the middle of a round."""


def _deepening_round(edges: _Edges, box: LetterBox, words: int, clock: Clock | None = None) -> _Round:
    """Breadth-first search for solutions of exactly ``words`` words (fewer are known impossible),
    cutting states that cannot finish in time. Stops early when the frontier empties; raises
    :class:`_TimeUp` when ``clock``'s time limit runs out between two levels."""
    levels: list[_Level] = []
    visited = np.zeros(0, dtype=np.int64)
    deferred = False
    level: _Level | None = None
    for k in range(1, words + 1):
        if clock is not None and clock.out_of_time():
            raise _TimeUp
        level, later, visited = _next_level(level, edges, box, words - k, visited)
        deferred |= later
        levels.append(level)
        if not len(level):
            break
    return _Round(levels, deferred, len(visited))


def _best_sequence(levels: list[_Level], edges: _Edges) -> tuple[str, ...]:
    """The best solution at the last level (all of whose states cover every letter)."""
    final = levels[-1]
    index = int(np.lexsort((final.trank, final.letters))[0])
    sequence: list[str] = []
    for level in reversed(levels):
        sequence.append(edges.words[int(level.edge[index])])
        index = int(level.parent[index])
    return tuple(reversed(sequence))




@dataclass(frozen=True)
class _Search:
    """What the rounds found: the best solution (or none), the last round's number of words and
    states, whether the search reached every state without a solution, and what stopped it
    early (an interruption, or the time limit)."""

    words: tuple[str, ...]
    rounds: int
    states: int
    exhausted: bool
    stopped_by: str | None = None
    timed_out: bool = False

    @property
    def proven(self) -> bool:
        """Whether what was found is proven: the fewest count, or that none exists (within the limit)."""
        return self.stopped_by is None and not self.timed_out


def _round_function() -> Callable[..., _Round]:
    """:func:`_deepening_round`, looked up on the package: this package replaced one module, and
    replacing ``exactgrid.puzzles.letterboxed._deepening_round`` (tests interrupt a round so)
    must still reach the search."""
    package = sys.modules.get(__package__ or "")
    return getattr(package, "_deepening_round", _deepening_round)


def _search(box: LetterBox, edges: _Edges, limit: int | None, clock: Clock) -> _Search:
    """Rounds of 1, 2, ... words (up to ``limit``) until one finds a solution or none defers a state.
    Ctrl-C (or a stop signal) or the time limit ends it with what the finished rounds showed."""
    deepen = _round_function()
    k, states = 0, 0
    try:
        while limit is None or k < limit:
            k += 1
            fewer = f"none of fewer than {plural(k, 'word')}; " if k > 1 else ""
            clock.tell(f"search: {fewer}trying {plural(k, 'word')}", "round", bound=k, done=k - 1, total=limit)
            round_ = deepen(edges, box, k, clock)
            states = round_.states
            if len(round_.levels) == k and len(round_.levels[-1]):
                return _Search(_best_sequence(round_.levels, edges), k, states, False)
            if not round_.deferred:
                return _Search((), k, states, True)
    except _TimeUp:
        return _Search((), k, states, False, timed_out=True)
    except KeyboardInterrupt as exc:
        return _Search((), k, states, False, interruption(exc))
    return _Search((), k, states, False)


def solve_by_search(box: LetterBox | str, words: Words = None, max_words: int | None = None,
                    time_limit: float | None = DEFAULT_TIME_LIMIT, on_progress: OnProgress | None = None,
                    ) -> LetterBoxedAnswer:
    """The fewest-word solution of ``box`` by breadth-first search over (last letter, letters covered).

    Each edge is one word (the playable words, reduced by :func:`dominant_words`). Rounds k = 1,
    2, ... search breadth-first for a k-word solution, cutting states that cannot cover the rest
    within k words (admissible bounds, see the module notes); the first round that finds one
    proves k the fewest (every earlier round searched all it had to). Among the fewest-word
    solutions it returns the one with the fewest letters, then the alphabetically first
    sequence. With ``max_words`` it stops after that many words; without, it goes on until a
    round defers no state to a later round, which proves that no solution exists. How fast:
    measured in docs/benchmarks.md, section Puzzles.

    ``time_limit``: wall-clock seconds from the call (None: none); when it runs out, or on
    Ctrl-C (``stopped_by``), the answer says what the finished rounds showed, unproven.
    ``on_progress`` hears of each round (``bound``: the fewest words still possible).

    >>> solve_by_search("vro wal eth bdi", ["WHILED", "DRIVEBOAT", "BOAT"]).words
    ('WHILED', 'DRIVEBOAT')
    """
    clock = Clock.start("letterboxed", time_limit, on_progress)
    box = LetterBox.parse(box)
    dictionary = load_words(words)
    limit = None if max_words is None else check_whole(max_words, "max_words", 1)
    return search_answer(box, dictionary, limit, clock)


def search_answer(box: LetterBox, dictionary: WordList | frozenset[str], limit: int | None,
                  clock: Clock) -> LetterBoxedAnswer:
    """:func:`solve_by_search` on checked input, against ``clock`` (a front door's, for "both")."""
    playable: list[WordEdge] = []
    try:
        playable = word_edges(box, playable_words(box, dictionary))
        reduced = dominant_edges(playable, "shortest")
        pool = f"{plural(len(playable), 'playable word')}, {len(reduced):,} after dominance"
        missing = missing_letters(box, playable)
        if missing:
            result = _Search((), 0, 0, True)
            detail = f"no solution at all: no playable word uses {' '.join(missing)} ({pool})"
        else:
            result = _search(box, _edges(box, reduced), limit, clock)
            detail = _search_detail(result, pool)
    except KeyboardInterrupt as exc:  # while the words or the bound tables were being prepared
        result = _Search((), 0, 0, False, interruption(exc))
        detail = f"interrupted ({result.stopped_by}) before the first round"
    how = f"breadth-first search over (last letter, letters covered), deepening by words: {detail}"
    answer = LetterBoxedAnswer(box, result.words, len(result.words) or None, result.proven, how, "search",
                               clock.elapsed(), len(playable), limit, result.stopped_by)
    return refereed(answer, dictionary)


def _search_detail(result: _Search, pool: str) -> str:
    """What the search showed, for ``how``."""
    k = result.rounds
    if result.stopped_by or result.timed_out:
        why = f"interrupted ({result.stopped_by})" if result.stopped_by else "the time limit came first"
        shorter = f"no solution of fewer than {plural(k, 'word')}, then " if k > 1 else ""
        return f"{shorter}{why} in the round of {plural(k, 'word')} ({pool})"
    if result.words:
        shorter = f"no solution of fewer than {plural(k, 'word')}; " if k > 1 else ""
        return f"{shorter}a {k}-word solution at depth {k} ({pool}; {result.states:,} states in the last round)"
    if result.exhausted:
        return f"no solution at all: no state left that could lead to one ({pool}; {result.states:,} states kept)"
    return f"no solution of at most {plural(k, 'word')} ({pool})"
