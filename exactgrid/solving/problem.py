"""A search problem as the compiled kernel sees it: flat arrays built from a Question.

:class:`SearchProblem` turns a board, a weighted word list, a budget and the constraints of a
:class:`~exactgrid.question.Question` (required and forbidden words, fixed cells, minimum
count and score, chains) into numpy arrays, and :class:`ChainStates` holds the grids of many
search chains with their incremental state (:mod:`exactgrid.solving.kernel`).
"""

from __future__ import annotations

import string
from dataclasses import dataclass

import numpy as np

from ..geometry import Board
from ..inputs import InputError
from ..question import Question
from . import kernel

MAX_CELLS = 64
"""The kernel keeps a grid's cells in 64-bit masks."""

MAX_CHAIN_WORDS = 64
"""Chain constraints keep the found words in a 64-bit mask (the 50 US states fit)."""

_A = ord("A")


class SolveError(InputError):
    """A question the search cannot take (bad input: one clear line)."""


def counts_every_word(question: Question) -> bool:
    """Whether the question's scoring words are the whole list at the list's weights (forbidden
    words aside: they are absent, so they never count), as the search counts them."""
    every = question.words.weights
    counted = question.scoring_weights()
    return set(counted) | set(question.forbidden) == set(every) and all(every[w] == v for w, v in counted.items())


def dilation_table(board: Board) -> np.ndarray:
    """``table[k, byte]``: the cells one move from the cells ``8k .. 8k+7`` set in ``byte``, as
    int64 (cell 63 is the sign bit): :attr:`Board.spread_tables <exactgrid.geometry.Board.spread_tables>`,
    the board's own dilation table, as the kernel reads it."""
    return np.array([[_int64(v) for v in row] for row in board.spread_tables], dtype=np.int64).reshape(-1, 256)


def dilation(board: Board) -> tuple[np.ndarray, int]:
    """The kernel's dilation table and mode: shifts on a king or rook rectangle (the masks from
    :attr:`Board.column_masks <exactgrid.geometry.Board.column_masks>`), else the board's table."""
    if board.is_custom or board.size >= 63:  # shifts need the sign bit clear
        return dilation_table(board), len(board.spread_tables)
    not_first, not_last = board.column_masks
    table = np.zeros((1, 256), dtype=np.int64)
    table[0, :3] = board.cols, _int64(not_first), _int64(not_last)
    return table, kernel.KING if board.moves == "king" else kernel.ROOK


def _int64(mask: int) -> int:
    return mask - (1 << 64) if mask >= 1 << 63 else mask


@dataclass
class SearchProblem:
    """Everything the kernel needs about one question, as arrays (built by :meth:`build`)."""

    question: Question
    words: tuple[str, ...]
    starts: np.ndarray
    lengths: np.ndarray
    letters: np.ndarray
    weights: np.ndarray
    flags: np.ndarray
    word_index: np.ndarray
    word_ptr: np.ndarray
    table: np.ndarray
    chunks: int
    full: int
    fixed: np.ndarray
    chain_sources: np.ndarray
    chain_targets: np.ndarray
    chain_adjacency: np.ndarray
    min_count: int
    min_score: int
    letter_cdf: np.ndarray

    @classmethod
    def build(cls, question: Question, weights: dict[str, int] | None = None) -> SearchProblem:
        """The arrays for ``question``: every word of its list scores its weight, or the weight
        ``weights`` gives it (0 for a word it leaves out: found, but worth nothing)."""
        board = question.board
        if board.size > MAX_CELLS:
            raise SolveError(f"solve searches boards of up to {MAX_CELLS} cells; this one has {board.size}")
        if question.path_rule != "walk":
            raise SolveError("solve searches walks (cells may be revisited); simple paths are not supported yet")
        plain = [r.describe() for r in question.required if r.mode != "anywhere"]
        if plain:
            raise SolveError(f"solve takes required words without a pinned spelling; got {', '.join(plain)}")
        words = question.words.words
        index = {w: i for i, w in enumerate(words)}
        lengths = np.array([len(w) for w in words], dtype=np.int64)
        starts = np.concatenate([[0], np.cumsum(lengths)[:-1]]).astype(np.int64)
        letters = np.frombuffer("".join(words).encode("ascii"), dtype=np.uint8).astype(np.int64) - _A
        weights = np.array([question.words.weight(w) if weights is None else weights.get(w, 0) for w in words],
                           dtype=np.int64)
        flags = np.zeros(len(words), dtype=np.int64)
        for word in question.required_words:
            flags[index[word]] |= kernel.REQUIRED
        for word in question.forbidden:
            flags[index[word]] |= kernel.FORBIDDEN
        # for each letter, the words that contain it (CSR)
        by_letter: list[list[int]] = [[] for _ in range(26)]
        for i, word in enumerate(words):
            for ch in set(word):
                by_letter[ord(ch) - _A].append(i)
        word_ptr = np.zeros(27, dtype=np.int64)
        word_ptr[1:] = np.cumsum([len(x) for x in by_letter])
        word_index = np.array([i for x in by_letter for i in x], dtype=np.int64)
        fixed = np.full(board.size, -1, dtype=np.int64)
        for cell, letter in question.fixed.items():
            fixed[cell] = ord(letter) - _A
        sources, targets, adjacency = _chain_arrays(question, index)
        table, chunks = dilation(board)
        counts = np.bincount(letters, weights=np.repeat(weights.astype(float) / lengths, lengths), minlength=26)
        counts = counts + max(counts.sum(), 1.0) * 0.002  # every letter stays possible (all weights 0 too)
        cdf = cell_letter_cdf(counts, question)
        return cls(
            question=question, words=words, starts=starts, lengths=lengths, letters=letters,
            weights=weights, flags=flags, word_index=word_index, word_ptr=word_ptr,
            table=table, chunks=chunks, full=_int64((1 << board.size) - 1),
            fixed=fixed, chain_sources=sources, chain_targets=targets, chain_adjacency=adjacency,
            min_count=question.min_count or 0, min_score=question.min_score or 0, letter_cdf=cdf,
        )

    @property
    def budget(self) -> int:
        """The alteration budget."""
        return self.question.budget

    @property
    def cells(self) -> int:
        """Cells of the board."""
        return self.question.board.size

    def kernel_args(self) -> tuple:
        """The problem's arrays in the order the kernel's functions take them (after the state)."""
        return (self.starts, self.lengths, self.letters, self.weights, self.flags, self.word_index,
                self.word_ptr, self.table, self.chunks, self.full, self.budget)

    def chain_args(self) -> tuple:
        """The chain constraints' arrays."""
        return self.chain_sources, self.chain_targets, self.chain_adjacency

    def within_cells(self, codes: np.ndarray) -> np.ndarray:
        """Grid codes with each fixed cell's letter set, and each cell holding a letter outside
        its domain given the first letter of it."""
        codes = codes.copy()
        for cell in range(self.cells):
            allowed = self.question.cell_letters(cell)
            if allowed is not None and chr(_A + int(codes[cell])) not in allowed:
                codes[cell] = ord(allowed[0]) - _A
        return codes

    def random_grids(self, count: int, rng: np.random.Generator) -> np.ndarray:
        """``count`` grids of letters drawn from the words' letter frequencies, each cell's from
        the letters it may hold, fixed cells set."""
        draws = rng.random((count, self.cells))
        grids = np.empty((count, self.cells), dtype=np.int64)
        for cell in range(self.cells):
            grids[:, cell] = np.searchsorted(self.letter_cdf[cell], draws[:, cell], side="right")
        np.minimum(grids, 25, out=grids)
        keep = self.fixed >= 0
        grids[:, keep] = self.fixed[keep]
        return grids


def cell_letter_cdf(counts: np.ndarray, question: Question) -> np.ndarray:
    """Each cell's cumulative distribution of new letters (cells x 26): ``counts`` (how much
    each letter weighs in the words; every one positive), kept to the letters the cell may
    hold (:meth:`Question.cell_letters`: a letter outside its domain gets no weight)."""
    weights = np.tile(counts.astype(float), (question.board.size, 1))
    for cell in range(question.board.size):
        allowed = question.cell_letters(cell)
        if allowed is not None:
            weights[cell, [ord(ch) - _A for ch in string.ascii_uppercase if ch not in allowed]] = 0.0
    cdf = np.cumsum(weights / weights.sum(axis=1, keepdims=True), axis=1)
    for cell, row in enumerate(weights):  # rounding must leave no weight past a row's last letter
        cdf[cell, np.flatnonzero(row)[-1]:] = 1.0
    return cdf


def _chain_arrays(question: Question, index: dict[str, int]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    n = len(index)
    chains = question.chains
    if chains and n > MAX_CHAIN_WORDS:
        raise SolveError(f"chain constraints need a word list of at most {MAX_CHAIN_WORDS} words; this one has {n}")
    sources = np.zeros(len(chains), dtype=np.int64)
    targets = np.zeros(len(chains), dtype=np.int64)
    adjacency = np.zeros((len(chains), max(n, 1)), dtype=np.int64)
    for k, chain in enumerate(chains):
        sources[k] = _int64(sum(1 << index[w] for w in chain.sources))
        targets[k] = _int64(sum(1 << index[w] for w in chain.targets))
        for a, b in chain.links:
            adjacency[k, index[a]] |= _int64(1 << index[b])
            adjacency[k, index[b]] |= _int64(1 << index[a])
    return sources, targets, adjacency


@dataclass
class ChainStates:
    """The grids of many search chains and their incremental state (one row per chain).

    ``graded_cap`` > 0: the graded search (:func:`exactgrid.solving.kernel.anneal_graded`), where
    a missing required word counts its alterations beyond the budget, at most ``graded_cap``, as
    violations; ``grades`` holds each word's (0 for the rest), ``counters[:, EXTRA]`` their sum
    beyond one per missing word."""

    grids: np.ndarray
    lmasks: np.ndarray
    founds: np.ndarray
    supports: np.ndarray
    counters: np.ndarray
    stamps: np.ndarray
    grades: np.ndarray
    graded_cap: int = 0

    @classmethod
    def start(cls, problem: SearchProblem, grids: np.ndarray, graded_cap: int = 0) -> ChainStates:
        """States for ``grids`` (an ``(N, cells)`` array of letter codes 0..25), scored (and
        graded, with ``graded_cap`` > 0)."""
        grids = np.ascontiguousarray(grids, dtype=np.int64)
        n, w = len(grids), len(problem.words)
        states = cls(
            grids=grids,
            lmasks=np.zeros((n, 26), dtype=np.int64),
            founds=np.full((n, w), -1, dtype=np.int64),
            supports=np.zeros((n, w, 2), dtype=np.int64),
            counters=np.zeros((n, kernel.N_COUNTERS), dtype=np.int64),
            stamps=np.zeros((n, w + 1), dtype=np.int64),
            grades=np.zeros((n, w), dtype=np.int64),
            graded_cap=graded_cap,
        )
        reach = states.scratch(problem)
        for k in range(n):
            states.rescore(problem, k, reach)
        return states

    def scratch(self, problem: SearchProblem) -> np.ndarray:
        """The reach layers :meth:`rescore` needs."""
        return np.zeros((int(problem.lengths.max()), problem.budget + max(self.graded_cap, 1)), dtype=np.int64)

    def rescore(self, problem: SearchProblem, k: int, reach: np.ndarray | None = None) -> None:
        """Score chain ``k``'s grid from scratch."""
        if reach is None:
            reach = self.scratch(problem)
        kernel.rescore(self.grids[k], self.lmasks[k], self.founds[k], self.supports[k], self.counters[k],
                       problem.starts, problem.lengths, problem.letters, problem.weights, problem.flags,
                       problem.table, problem.chunks, problem.full, problem.budget, reach,
                       *problem.chain_args(), self.grades[k], self.graded_cap)


def grid_text(codes: np.ndarray) -> str:
    """Letter codes 0..25 as text (row-major)."""
    return bytes((np.asarray(codes, dtype=np.uint8) + _A).tolist()).decode("ascii")


def grid_codes(text: str) -> np.ndarray:
    """Text A-Z as letter codes 0..25."""
    return np.frombuffer(text.encode("ascii"), dtype=np.uint8).astype(np.int64) - _A
