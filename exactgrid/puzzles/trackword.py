"""Trackword: every dictionary word of 3 to 9 letters in a 3x3 grid, and the best grid for a word.

The rules (seed document 22.3): a 3x3 grid of letters; a word is spelled by a path of king
moves that never visits a cell twice (a *simple* path, no letter altered); words have 3 to 9
letters; the grid always holds a 9-letter word. With ENABLE the grid ``set/err/vei`` holds 59
words, RETRIEVES among them.

* :func:`list_words` lists the words of a grid (one trie-guided search,
  :func:`exactgrid.wordsearch.search_words`), with a path for each.
* :func:`build_grid` finds a 3x3 grid that holds a given 9-letter word and as many dictionary
  words as possible, exactly. Under the simple rule a 9-letter word on 9 cells occupies every
  cell along a Hamiltonian path, so the path alone determines the grid: enumerating every
  Hamiltonian path of the board (784 on the 3x3 king board, each direction counted), placing
  the word along it, and scoring every distinct grid (up to the board's symmetries, which keep
  every word) covers every grid that holds the word. The best is therefore a proven optimum
  (how long it takes: measured in docs/benchmarks.md, section Puzzles). ``exactgrid solve`` is
  the wrong tool here: it refuses simple paths, and local search proves nothing. Any board
  works whose cells number the word's letters, as long as it has at most
  :data:`MAX_BUILD_PATHS` Hamiltonian paths (the 3x4 king board has 9,356; 4x4 has far more
  and is refused).

Both answers (:class:`TrackwordAnswer`, :class:`TrackwordBuild`) meet the contract of
:mod:`exactgrid.answer`.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..answer import DEFAULT_TIME_LIMIT, Answer, OnProgress, Outcome
from ..data import word_list
from ..geometry import Board, MoveRule, PathRule, parse_shape, path_rule_text
from ..grid import Grid, parse_grid
from ..inputs import InputError, ascii_upper, check_seconds, check_whole
from ..stopping import DeadlinePassed, interruption
from ..words import WordList
from ..wordsearch import (
    Trie,
    WordHit,
    check_lengths,
    hamiltonian_paths,
    search_words,
    trie_for,
)
from .clock import Clock

MIN_LENGTH = 3
MAX_LENGTH = 9
DEFAULT_WORDS = "enable"
MAX_BUILD_PATHS = 20_000
"""The most Hamiltonian paths :func:`build_grid` enumerates (and scores up to that many grids)."""


@dataclass(frozen=True)
class TrackwordAnswer(Answer):
    """The words a grid holds, each with the path that spells it (cell indices, row-major).

    ``words`` are sorted longest first, then alphabetically; ``seconds`` is the wall time of
    the search (including building the list's trie, the first time only).

    ``outcome`` is OPTIMAL: the list answers "which words does this grid hold?" exactly and
    completely (one exhaustive search; nothing is guessed, nothing left out), which is a proven
    answer, like an optimum that is proven; a yes/no outcome (FITS, DOES_NOT_FIT) would answer a
    question nobody asked. UNKNOWN when the time limit or Ctrl-C (or a stop signal,
    ``stopped_by``) cut the search short: ``words`` then holds the words found before the stop,
    each held by the grid, so ``count`` is a lower bound (with a budget, a word's path is the
    best seen so far, not necessarily the one with fewest alterations).
    """

    grid: Grid
    words: tuple[WordHit, ...]
    min_length: int
    max_length: int | None
    path_rule: PathRule
    list_name: str
    seconds: float
    budget: int = 0
    """Letters a word may have altered (0 in Trackword: exact)."""
    stopped_by: str | None = None
    """``Ctrl-C``, ``SIGTERM`` or ``SIGHUP`` when an interruption cut the search short, else None."""
    timed_out: bool = False
    """Whether the time limit cut the search short."""

    @property
    def outcome(self) -> Outcome:  # type: ignore[override]
        """OPTIMAL (the complete list), or UNKNOWN when interrupted (see the class notes)."""
        return Outcome.OPTIMAL if self.complete else Outcome.UNKNOWN

    @property
    def count(self) -> int:
        """How many distinct words the grid holds (found before the stop, when cut short)."""
        return len(self.words)

    @property
    def complete(self) -> bool:
        """Whether the search ran to its end, so that ``words`` are all the grid holds."""
        return not (self.stopped_by or self.timed_out)

    def by_length(self) -> dict[int, tuple[WordHit, ...]]:
        """The words grouped by length, longest first."""
        groups: dict[int, list[WordHit]] = {}
        for hit in self.words:
            groups.setdefault(len(hit.word), []).append(hit)
        return {size: tuple(groups[size]) for size in sorted(groups, reverse=True)}

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict with stable keys: the contract's (``outcome``, ``seconds``,
        ``stopped_by``, ``exit_code``), then ``grid``, ``rows``, ``shape``, ``moves``,
        ``path_rule``, ``budget``, ``list``, ``min_length``, ``max_length``, ``count``, ``words``:
        each with ``word``, ``length``, ``spelled`` (altered letters in lower case), ``path`` as
        cell labels and ``cells`` as 0-based indices; ``timed_out`` (the time limit ended the
        search: ``count`` and ``words`` are those found before it)."""
        board = self.grid.board
        return {
            **self.contract_dict(),
            "grid": self.grid.letters,
            "rows": self.grid.rows(),
            "shape": board.shape_name,
            "moves": board.moves,
            "path_rule": self.path_rule,
            "budget": self.budget,
            "list": self.list_name,
            "min_length": self.min_length,
            "max_length": self.max_length,
            "count": self.count,
            "words": [_hit_dict(hit, board) for hit in self.words],
            "timed_out": self.timed_out,
            "seconds": round(self.seconds, 6),
        }

    def text(self) -> str:
        """What ``exactgrid words`` prints: the grid block, the count, then the words by length,
        each with its path as cell labels (``r1c2``)."""
        rules = _describe(self.grid.board, self.path_rule) + (f", budget {self.budget}" if self.budget else "")
        count = f"{self.count} of {_lengths(self.min_length, self.max_length)} letters ({self.list_name})"
        if not self.complete:
            why = f"interrupted ({self.stopped_by})" if self.stopped_by else "the time limit came first"
            count = f"at least {count}: {why}, and more may be held"
        lines = [self.grid.block(), "", f"grid   {self.grid.letters}  ({rules})", f"words  {count}"]
        lines += _word_lines(self.by_length(), self.grid.board)
        return "\n".join(lines)


@dataclass(frozen=True)
class TrackwordBuild(Answer):
    """The best grid holding ``word``: the most words of the list, proven over every grid
    that holds it (see :func:`build_grid`).

    ``paths`` is how many Hamiltonian paths were enumerated, ``tried`` how many distinct grids
    (up to symmetry) were scored, ``ties`` how many of them reach the best count; ``answer``
    lists the best grid's words with their paths (None when no grid was scored). ``stopped_by``
    names what interrupted the scoring (``Ctrl-C``, ``SIGTERM``, ``SIGHUP``: the grid is then
    the best of those scored, not proven), or is None; ``proven`` is False when an
    interruption or the time limit stopped the scoring early.

    ``outcome``: OPTIMAL when every grid was scored (the proven best), FEASIBLE for the best of
    the grids scored before the scoring stopped, UNKNOWN when none was.
    """

    word: str
    answer: TrackwordAnswer | None
    word_path: tuple[int, ...]
    paths: int
    tried: int
    ties: int
    how: str
    seconds: float
    stopped_by: str | None = None
    proven: bool = True

    @property
    def outcome(self) -> Outcome:  # type: ignore[override]
        """OPTIMAL, FEASIBLE or UNKNOWN (see the class notes)."""
        if self.answer is None:
            return Outcome.UNKNOWN
        return Outcome.OPTIMAL if self.proven and not self.stopped_by else Outcome.FEASIBLE

    @property
    def grid(self) -> Grid | None:
        """The best grid (the smallest string among its symmetric images), or None."""
        return self.answer.grid if self.answer is not None else None

    @property
    def count(self) -> int:
        """How many words of the list the best grid holds (0 without a grid)."""
        return self.answer.count if self.answer is not None else 0

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict with stable keys: the contract's (``outcome``, ``seconds``,
        ``stopped_by``, ``exit_code``), then ``word``, ``grid``, ``rows``, ``count``,
        ``word_path`` (cell labels), ``paths``, ``tried``, ``ties``, ``how``, and ``answer``
        (the best grid's :meth:`TrackwordAnswer.to_dict`); without a grid, ``grid``, ``rows``
        and ``answer`` are null."""
        grid = self.grid
        return {
            **self.contract_dict(),
            "seconds": round(self.seconds, 6),
            "word": self.word,
            "grid": grid.letters if grid is not None else None,
            "rows": grid.rows() if grid is not None else None,
            "count": self.count,
            "word_path": [grid.board.label(cell) for cell in self.word_path] if grid is not None else [],
            "paths": self.paths,
            "tried": self.tried,
            "ties": self.ties,
            "how": self.how,
            "answer": self.answer.to_dict() if self.answer is not None else None,
        }

    def text(self) -> str:
        """What ``exactgrid trackword`` prints: the grid, how it was found, the word's path, and
        the grid's words by length (without a grid: the word, how and the time)."""
        if self.answer is None:
            return "\n".join([f"word   {self.word}", f"how    {self.how}", f"time   {self.seconds:.2f} s"])
        answer, board = self.answer, self.answer.grid.board
        lines = [answer.grid.block(), "",
                 f"grid   {answer.grid.letters}  ({_describe(board, answer.path_rule)})",
                 f"word   {self.word}  {' '.join(board.label(c) for c in self.word_path)}",
                 f"words  {self.count} of {_lengths(answer.min_length, answer.max_length)} letters "
                 f"({answer.list_name}); {_ties(self.ties)}",
                 f"how    {self.how}",
                 f"time   {self.seconds:.2f} s"]
        lines += _word_lines(answer.by_length(), board)
        return "\n".join(lines)


def list_words(grid: Grid | str, words: str | WordList = DEFAULT_WORDS, path_rule: PathRule = "simple",
               min_length: int = MIN_LENGTH, max_length: int | None = MAX_LENGTH, budget: int = 0,
               time_limit: float | None = None) -> TrackwordAnswer:
    """Every word of the list (``"enable"`` by default, or a WordList or word-list file) that
    ``grid`` spells with ``min_length`` to ``max_length`` letters (None: no upper bound), with at
    most ``budget`` letters altered (0, Trackword's rule: exactly), under ``path_rule``
    (``simple`` by Trackword's rules).

    ``grid`` is a Grid or its text (``"set/err/vei"``; see :func:`~exactgrid.grid.parse_grid`,
    king moves). Bad input raises InputError with a one-line message. ``time_limit`` (seconds
    from the call; None, the default: none) or Ctrl-C (or a stop signal, ``stopped_by``) ending the search
    first answers UNKNOWN with the words found before the stop.

    >>> answer = list_words("set/err/vei")
    >>> answer.count, answer.words[0].word
    (59, 'RETRIEVES')
    """
    start = time.perf_counter()
    deadline = None if time_limit is None else time.monotonic() + check_seconds(time_limit)
    low, high = check_lengths(min_length, max_length)
    board_grid = parse_grid(grid) if isinstance(grid, str) else grid
    if not isinstance(board_grid, Grid):
        raise InputError(f"a grid must be a Grid or its letters as text, got {grid!r}")
    check_whole(budget, "the alteration budget")
    chosen: WordList | None = None
    found_so_far: list[WordHit] = []  # sorted by the search, longest first
    stopped_by, timed_out = None, False
    try:  # reading and indexing a long list counts against the time limit too
        chosen = word_list(words, deadline)
        longest = min(high if high is not None else chosen.longest, chosen.longest)
        if budget > longest:
            raise InputError(f"the alteration budget must be from 0 to {longest} (the longest word counted has "
                             f"{longest} letters; more alters nothing), got {budget}")
        search_words(board_grid, trie_for(chosen, low, high, deadline), path_rule, low, high, budget, deadline,
                     found_so_far=found_so_far)
    except DeadlinePassed:
        timed_out = True
    except KeyboardInterrupt as exc:
        stopped_by = interruption(exc)
    list_name = chosen.name if chosen is not None else Path(str(words)).name  # only a file is read under the clock
    return TrackwordAnswer(board_grid, tuple(found_so_far), low, high, path_rule, list_name,
                           time.perf_counter() - start, budget, stopped_by, timed_out)


@dataclass
class _Scoring:
    """How the scoring of the grids holding the word went: the grids, how many were scored,
    the best so far (the alphabetically first of the most words), its ties, what stopped it."""

    paths: list[tuple[int, ...]] = field(default_factory=list)
    grids: list[str] = field(default_factory=list)
    tried: int = 0
    letters: str = ""
    hits: list[WordHit] | None = None
    ties: int = 0
    seconds: float = 0.0
    stopped_by: str | None = None
    timed_out: bool = False


def build_grid(word: str, words: str | WordList = DEFAULT_WORDS, min_length: int = MIN_LENGTH,
               max_length: int | None = MAX_LENGTH, board: Board | str | None = None, moves: MoveRule = "king",
               time_limit: float | None = DEFAULT_TIME_LIMIT, on_progress: OnProgress | None = None,
               ) -> TrackwordBuild:
    """The grid holding ``word`` (simple paths, exact) with the most words of the list: an
    exact optimum over every grid that holds it.

    A word with as many letters as the board has cells fills every cell along a Hamiltonian
    path, so each grid holding it *is* the word laid along one of those paths. Every path is
    enumerated, grids that are the same up to the board's symmetries (which keep every word)
    are scored once with :func:`~exactgrid.wordsearch.search_words`, and the grid with the
    most words wins; ties go to the alphabetically first grid string, and the grid is shown
    as the smallest string among its symmetric images. ``board`` is a Board or a shape
    (``"3x4"``, with ``moves``), by default Trackword's 3x3 king board; any board with at most
    :data:`MAX_BUILD_PATHS` Hamiltonian paths works. ``word`` must be letters A-Z (any case),
    exactly one per cell; it need not be on the list (it counts when it is). Bad input raises
    InputError with a one-line message.

    ``time_limit`` (wall-clock seconds from the call; None: none) or Ctrl-C (``stopped_by``)
    ends the scoring early with the best grid of those scored (FEASIBLE), or none (UNKNOWN).
    ``on_progress`` hears how many grids there are to score and of each better grid found.
    """
    clock = Clock.start("trackword", time_limit, on_progress)
    low, high = check_lengths(min_length, max_length)
    shape = _build_board(board, moves)
    target = _check_build_word(word, shape)
    scoring = _Scoring()
    try:  # the board first (a board refused is refused whatever the time limit, given the half
        # second 5x5 takes), then reading and indexing a long list, which count against the limit too
        scoring.paths = list(hamiltonian_paths(shape, MAX_BUILD_PATHS, clock.deadline()))
        if len(scoring.paths) > MAX_BUILD_PATHS:
            raise InputError(f"the {_board_name(shape)} board has more than {MAX_BUILD_PATHS:,} Hamiltonian "
                             "paths; too many grids to score them all")
        if not scoring.paths:
            raise InputError(f"the {_board_name(shape)} board has no path through all its cells for {target}")
        chosen = word_list(words, clock.deadline())
        trie = trie_for(chosen, low, high, clock.deadline())
        scoring.grids = sorted({shape.canonical(_lay(target, path)) for path in scoring.paths})
        _score_grids(scoring, shape, trie, low, high, clock)
    except DeadlinePassed:  # before any grid was scored
        scoring.timed_out = True
    except KeyboardInterrupt as exc:  # Ctrl-C or a stop signal: the best of the grids scored so far
        scoring.stopped_by = interruption(exc)
    answer = None
    word_path: tuple[int, ...] = ()
    if scoring.hits is not None:
        answer = TrackwordAnswer(Grid(shape, scoring.letters), tuple(scoring.hits), low, high, "simple", chosen.name,
                                 scoring.seconds)
        word_path = next(path for path in scoring.paths
                         if all(scoring.letters[c] == ch for c, ch in zip(path, target)))
    proven = scoring.stopped_by is None and not scoring.timed_out
    return TrackwordBuild(target, answer, word_path, len(scoring.paths), scoring.tried, scoring.ties,
                          _build_how(scoring, shape, clock), clock.elapsed(), scoring.stopped_by, proven)


def _score_grids(scoring: _Scoring, shape: Board, trie: Trie, low: int, high: int | None, clock: Clock) -> None:
    """Score the grids in order (alphabetical) until done or out of time, keeping the best in ``scoring``."""
    clock.tell(f"scoring {len(scoring.grids):,} distinct grids", total=len(scoring.grids), done=0)
    for letters in scoring.grids:
        if clock.out_of_time():
            scoring.timed_out = True
            return
        started = time.perf_counter()
        hits = search_words(Grid(shape, letters), trie, "simple", low, high)
        scoring.tried += 1
        if scoring.hits is None or len(hits) > len(scoring.hits):
            scoring.letters, scoring.hits, scoring.ties = letters, hits, 1
            scoring.seconds = time.perf_counter() - started
            clock.tell(f"{len(hits)} words: {letters}", "improvement", best=len(hits), done=scoring.tried,
                       total=len(scoring.grids))
        elif len(hits) == len(scoring.hits):
            scoring.ties += 1


def _build_how(scoring: _Scoring, shape: Board, clock: Clock) -> str:
    """How the best grid was found (or why there is none), for ``how``."""
    board, grids = _board_name(shape), len(scoring.grids)
    if scoring.stopped_by is None and not scoring.timed_out:
        return (f"exhaustive over all {len(scoring.paths)} Hamiltonian paths of the {board} board "
                f"({grids} distinct grids): proven best")
    why = (f"interrupted ({scoring.stopped_by})" if scoring.stopped_by
           else "the time limit ran out")  # no number: the clock holds what start-up left of the limit given
    if scoring.hits is None:
        return f"{why} before any grid of the {board} board was scored: no grid"
    return (f"{why} after scoring {scoring.tried:,} of the {grids:,} distinct grids "
            f"of the {board} board: the best of those, not proven best")


def _build_board(board: Board | str | None, moves: MoveRule) -> Board:
    """The board to build on: a Board as given, a shape (``"3x3"``) with ``moves``, or Trackword's 3x3."""
    if board is None or isinstance(board, str):
        rows, cols = parse_shape(board or "3x3")
        return Board(rows, cols, moves)
    if not isinstance(board, Board):
        raise InputError(f"board must be a Board or a shape such as '3x3', got {board!r}")
    return board


def _check_build_word(word: Any, board: Board) -> str:
    """The word upper-cased when it is letters A-Z, one per cell of ``board``; else InputError."""
    if not isinstance(word, str):
        raise InputError(f"the word must be text, got {word!r}")
    text = ascii_upper(word.strip(), "the word")
    if not text or not text.isascii() or not text.isalpha():
        raise InputError(f"the word must be letters A-Z, got {word!r}")
    if len(text) != board.size:
        raise InputError(f"a {_board_name(board)} grid needs a word of {board.size} letters, "
                         f"got {text} ({len(text)})")
    return text


def _lay(word: str, path: tuple[int, ...]) -> str:
    """The grid letters (row-major) with ``word[i]`` in cell ``path[i]``."""
    cells = [""] * len(path)
    for cell, letter in zip(path, word):
        cells[cell] = letter
    return "".join(cells)


def _board_name(board: Board) -> str:
    """``3x3 king`` for a rectangle, the name of a custom board."""
    return board.shape_name if board.is_custom else f"{board.shape_name} {board.moves}"


def _describe(board: Board, path_rule: PathRule) -> str:
    """``3x3, king moves, simple paths``."""
    return f"{board.shape_name}, {board.moves_text}, {path_rule_text(path_rule)}"


def _lengths(low: int, high: int | None) -> str:
    """``3-9`` or ``3+``."""
    return f"{low}+" if high is None else (f"{low}" if low == high else f"{low}-{high}")


def _ties(ties: int) -> str:
    """``1 distinct grid reaches this count`` / ``3 distinct grids reach ...``."""
    return f"{ties} distinct grid reaches this count" if ties == 1 else f"{ties} distinct grids reach this count"


def _hit_dict(hit: WordHit, board: Board) -> dict[str, Any]:
    """One word as JSON: word, length, path (labels), cells (indices)."""
    return {"word": hit.word, "length": len(hit.word), "spelled": _marked(hit), "path": list(hit.labels(board)),
            "cells": list(hit.path)}


def _word_lines(groups: dict[int, tuple[WordHit, ...]], board: Board) -> list[str]:
    """The words by length: a heading per length, then one word a line with its path."""
    lines: list[str] = []
    for size, hits in groups.items():
        lines += ["", f"{size} letters ({len(hits)})"]
        lines += [f"  {hit.word:<{size}}  {_marked(hit) + '  ' if hit.altered else ''}{' '.join(hit.labels(board))}"
                  for hit in hits]
    return lines


def _marked(hit: WordHit) -> str:
    """The spelled form with altered letters in lower case (``TReE``), as ``exactgrid score`` shows it."""
    return "".join(c.lower() if i in hit.altered else c for i, c in enumerate(hit.spelled))
