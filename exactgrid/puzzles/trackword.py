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
  every word) covers every grid that holds the word. The best is therefore a proven optimum,
  in about a second. ``exactgrid solve`` is the wrong tool here: it refuses simple paths, and
  local search proves nothing. Any board works whose cells number the word's letters, as long
  as it has at most :data:`MAX_BUILD_PATHS` Hamiltonian paths (the 3x4 king board has 9,356;
  4x4 has far more and is refused).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from ..data import word_list
from ..geometry import Board, PathRule
from ..grid import Grid, parse_grid
from ..inputs import InputError, ascii_upper, check_whole
from ..stopping import interruption
from ..words import WordList
from ..wordsearch import WordHit, check_lengths, hamiltonian_paths, search_words, trie_for

MIN_LENGTH = 3
MAX_LENGTH = 9
DEFAULT_WORDS = "enable"
MAX_BUILD_PATHS = 20_000
"""The most Hamiltonian paths :func:`build_grid` enumerates (and scores up to that many grids)."""


@dataclass(frozen=True)
class TrackwordAnswer:
    """The words a grid holds, each with the path that spells it (cell indices, row-major).

    ``words`` are sorted longest first, then alphabetically; ``seconds`` is the wall time of
    the search (including building the list's trie, the first time only).
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

    @property
    def count(self) -> int:
        """How many distinct words the grid holds."""
        return len(self.words)

    def by_length(self) -> dict[int, tuple[WordHit, ...]]:
        """The words grouped by length, longest first."""
        groups: dict[int, list[WordHit]] = {}
        for hit in self.words:
            groups.setdefault(len(hit.word), []).append(hit)
        return {size: tuple(groups[size]) for size in sorted(groups, reverse=True)}

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict with stable keys (``grid``, ``rows``, ``shape``, ``moves``,
        ``path_rule``, ``budget``, ``list``, ``min_length``, ``max_length``, ``count``, ``words``:
        each with ``word``, ``length``, ``spelled`` (altered letters in lower case), ``path`` as
        cell labels and ``cells`` as 0-based indices;
        ``seconds``)."""
        board = self.grid.board
        return {
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
            "seconds": round(self.seconds, 6),
        }

    def text(self) -> str:
        """What a command line prints: the grid block, the count, then the words by length,
        each with its path as cell labels (``r1c2``)."""
        rules = _describe(self.grid.board, self.path_rule) + (f", budget {self.budget}" if self.budget else "")
        lines = [self.grid.block(), "", f"grid   {self.grid.letters}  ({rules})",
                 f"words  {self.count} of {_lengths(self.min_length, self.max_length)} letters "
                 f"({self.list_name})"]
        lines += _word_lines(self.by_length(), self.grid.board)
        return "\n".join(lines)


@dataclass(frozen=True)
class TrackwordBuild:
    """The best grid holding ``word``: the most words of the list, proven over every grid
    that holds it (see :func:`build_grid`).

    ``paths`` is how many Hamiltonian paths were enumerated, ``tried`` how many distinct grids
    (up to symmetry) were scored, ``ties`` how many of them reach the best count; ``answer``
    lists the best grid's words with their paths. ``stopped_by`` names what interrupted the
    scoring (``Ctrl-C``, ``SIGTERM``, ``SIGHUP``: the grid is then the best of those scored, not
    proven), or is None.
    """

    word: str
    answer: TrackwordAnswer
    word_path: tuple[int, ...]
    paths: int
    tried: int
    ties: int
    how: str
    seconds: float
    stopped_by: str | None = None

    @property
    def grid(self) -> Grid:
        """The best grid (the smallest string among its symmetric images)."""
        return self.answer.grid

    @property
    def count(self) -> int:
        """How many words of the list the best grid holds."""
        return self.answer.count

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict with stable keys: ``word``, ``grid``, ``rows``, ``count``,
        ``word_path`` (cell labels), ``paths``, ``tried``, ``ties``, ``how``, ``seconds``,
        ``stopped_by``, and ``answer`` (the best grid's :meth:`TrackwordAnswer.to_dict`)."""
        board = self.grid.board
        return {
            "word": self.word,
            "grid": self.grid.letters,
            "rows": self.grid.rows(),
            "count": self.count,
            "word_path": [board.label(cell) for cell in self.word_path],
            "paths": self.paths,
            "tried": self.tried,
            "ties": self.ties,
            "how": self.how,
            "seconds": round(self.seconds, 6),
            "stopped_by": self.stopped_by,
            "answer": self.answer.to_dict(),
        }

    def text(self) -> str:
        """What a command line prints: the grid, how it was found, the word's path, and the
        grid's words by length."""
        board = self.grid.board
        lines = [self.grid.block(), "",
                 f"grid   {self.grid.letters}  ({_describe(board, self.answer.path_rule)})",
                 f"word   {self.word}  {' '.join(board.label(c) for c in self.word_path)}",
                 f"words  {self.count} of {_lengths(self.answer.min_length, self.answer.max_length)} letters "
                 f"({self.answer.list_name}); {_ties(self.ties)}",
                 f"how    {self.how}",
                 f"time   {self.seconds:.2f} s"]
        lines += _word_lines(self.answer.by_length(), board)
        return "\n".join(lines)


def list_words(grid: Grid | str, words: str | WordList = DEFAULT_WORDS, path_rule: PathRule = "simple",
               min_length: int = MIN_LENGTH, max_length: int | None = MAX_LENGTH, budget: int = 0) -> TrackwordAnswer:
    """Every word of the list (``"enable"`` by default, or a WordList or word-list file) that
    ``grid`` spells with ``min_length`` to ``max_length`` letters (None: no upper bound), with at
    most ``budget`` letters altered (0, Trackword's rule: exactly), under ``path_rule``
    (``simple`` by Trackword's rules).

    ``grid`` is a Grid or its text (``"set/err/vei"``; see :func:`~exactgrid.grid.parse_grid`,
    king moves). Bad input raises InputError with a one-line message.

    >>> answer = list_words("set/err/vei")
    >>> answer.count, answer.words[0].word
    (59, 'RETRIEVES')
    """
    start = time.perf_counter()
    low, high = check_lengths(min_length, max_length)
    board_grid = parse_grid(grid) if isinstance(grid, str) else grid
    if not isinstance(board_grid, Grid):
        raise InputError(f"a grid must be a Grid or its letters as text, got {grid!r}")
    chosen = word_list(words)
    longest = min(high if high is not None else chosen.longest, chosen.longest)
    if check_whole(budget, "the alteration budget") > longest:
        raise InputError(f"the alteration budget must be from 0 to {longest} (the longest word counted has "
                         f"{longest} letters; more alters nothing), got {budget}")
    hits = search_words(board_grid, trie_for(chosen, low, high), path_rule, low, high, budget)
    return TrackwordAnswer(board_grid, tuple(hits), low, high, path_rule, chosen.name, time.perf_counter() - start,
                           budget)


def build_grid(word: str, words: str | WordList = DEFAULT_WORDS, min_length: int = MIN_LENGTH,
               max_length: int | None = MAX_LENGTH, board: Board | None = None) -> TrackwordBuild:
    """The grid holding ``word`` (simple paths, exact) with the most words of the list: an
    exact optimum over every grid that holds it.

    A word with as many letters as the board has cells fills every cell along a Hamiltonian
    path, so each grid holding it *is* the word laid along one of those paths. Every path is
    enumerated, grids that are the same up to the board's symmetries (which keep every word)
    are scored once with :func:`~exactgrid.wordsearch.search_words`, and the grid with the
    most words wins; ties go to the alphabetically first grid string, and the grid is shown
    as the smallest string among its symmetric images. ``board`` defaults to Trackword's 3x3
    king board; any board with at most :data:`MAX_BUILD_PATHS` Hamiltonian paths works.
    ``word`` must be letters A-Z (any case), exactly one per cell; it need not be on the list
    (it counts when it is). Bad input raises InputError with a one-line message.
    """
    start = time.perf_counter()
    low, high = check_lengths(min_length, max_length)
    shape = Board(3, 3) if board is None else board
    if not isinstance(shape, Board):
        raise InputError(f"board must be a Board, got {shape!r}")
    target = _check_build_word(word, shape)
    chosen = word_list(words)
    trie = trie_for(chosen, low, high)
    paths = list(hamiltonian_paths(shape, MAX_BUILD_PATHS))
    if len(paths) > MAX_BUILD_PATHS:
        raise InputError(f"the {_board_name(shape)} board has more than {MAX_BUILD_PATHS:,} Hamiltonian paths; "
                         "too many grids to score them all")
    grids = sorted({_canonical(_lay(target, path), shape) for path in paths})
    counts: dict[str, int] = {}
    stopped_by = None
    try:
        for letters in grids:
            counts[letters] = len(search_words(Grid(shape, letters), trie, "simple", low, high))
    except KeyboardInterrupt as exc:  # Ctrl-C or a stop signal: the best of the grids scored so far
        if not counts:
            raise
        stopped_by = interruption(exc)
    best = max(counts.values(), default=0)
    winners = [letters for letters in grids if counts.get(letters) == best]
    if not winners:
        raise InputError(f"the {_board_name(shape)} board has no path through all its cells for {target}")
    answer = list_words(Grid(shape, winners[0]), chosen, "simple", low, high)
    word_path = next(path for path in paths if all(winners[0][c] == ch for c, ch in zip(path, target)))
    how = (f"exhaustive over all {len(paths)} Hamiltonian paths of the {_board_name(shape)} board "
           f"({len(grids)} distinct grids): proven best")
    if stopped_by:
        how = (f"interrupted ({stopped_by}) after scoring {len(counts):,} of the {len(grids):,} distinct grids "
               f"of the {_board_name(shape)} board: the best of those, not proven best")
    return TrackwordBuild(target, answer, word_path, len(paths), len(counts), len(winners), how,
                          time.perf_counter() - start, stopped_by)


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


def _canonical(letters: str, board: Board) -> str:
    """The smallest string among the grid's images under the board's symmetries."""
    images = []
    for perm in board.symmetries:
        cells = [""] * len(letters)
        for cell, letter in enumerate(letters):
            cells[perm[cell]] = letter
        images.append("".join(cells))
    return min(images)


def _board_name(board: Board) -> str:
    """``3x3 king`` for a rectangle, the name of a custom board."""
    return board.shape_name if board.is_custom else f"{board.shape_name} {board.moves}"


def _describe(board: Board, path_rule: PathRule) -> str:
    """``3x3, king moves, simple paths``."""
    moves = "custom adjacency" if board.is_custom else f"{board.moves} moves"
    rule = "simple paths" if path_rule == "simple" else "walks"
    return f"{board.shape_name}, {moves}, {rule}"


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
