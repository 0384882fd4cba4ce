"""Letter Boxed's rules: the box (:class:`LetterBox`), which words are playable on it
(:func:`playable_words`, :func:`is_playable`), the words as edges of the state graph and their
dominance (:func:`dominant_words`), and the referee (:func:`check_solution`), which asks the
finder about every word of a solution.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache
from pathlib import Path
from typing import Any, Literal

import numpy as np

from ...data import word_list
from ...finder import is_found
from ...geometry import Board
from ...grid import Grid, parse_grid
from ...inputs import InputError
from ...words import WordList

MIN_LENGTH = 3
"""The shortest word Letter Boxed accepts."""
DEFAULT_WORDS = "enable"
"""The word list used when none is given (ENABLE, :mod:`exactgrid.data.enable`)."""
Words = WordList | str | Path | Iterable[str] | None
"""A word list: a WordList, a bundled list's name or a file (``"enable"``), any iterable of
words (any case), or None for :data:`DEFAULT_WORDS`."""



class LetterBoxError(InputError):
    """A box, or a question about one, that cannot make sense (one line)."""


class InvalidSolution(InputError):
    """A proposed solution that breaks a rule of the puzzle; the message names every broken rule."""


# --------------------------------------------------------------------------- the box


@dataclass(frozen=True)
class LetterBox:
    """The letters on the sides of the box: ``sides[s]`` is side ``s`` (upper case, clockwise).

    Checked when built: at least 2 sides, every side the same number (>= 1) of letters A-Z, no
    letter twice. Build one with :meth:`parse`.

    >>> box = LetterBox.parse("vro wal eth bdi")
    >>> box.letters, box.side_of("E"), box.board.shape_name
    ('VROWALETHBDI', 2, 'letter boxed 4x3')
    """

    sides: tuple[str, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "sides", _checked_sides(self.sides))

    @classmethod
    def parse(cls, source: str | Sequence[str] | LetterBox) -> LetterBox:
        """A box from text (sides separated by spaces, commas or slashes: ``"vro wal eth bdi"``),
        from a list of sides (``["vro", "wal", "eth", "bdi"]``) or a box; any case.

        Raises LetterBoxError (one line) on bad input.
        """
        if isinstance(source, LetterBox):
            return source
        if isinstance(source, str):
            return cls(tuple(part for part in re.split(r"[\s,/]+", source.strip()) if part))
        if isinstance(source, bytes) or not isinstance(source, Sequence):
            raise LetterBoxError(f"a box is text like 'vro wal eth bdi' or a list of sides, got {source!r}")
        return cls(tuple(source))

    @property
    def letters(self) -> str:
        """Every letter of the box, side by side (the board's cell order)."""
        return "".join(self.sides)

    @property
    def per_side(self) -> int:
        """How many letters each side holds."""
        return len(self.sides[0])

    @property
    def size(self) -> int:
        """How many letters the box holds."""
        return len(self.sides) * self.per_side

    @cached_property
    def cell_of(self) -> dict[str, int]:
        """For each letter of the box, its cell on :attr:`board` (bit ``cell`` of a cover mask)."""
        return {letter: cell for cell, letter in enumerate(self.letters)}

    def side_of(self, letter: str) -> int:
        """The side (0-based) that holds ``letter`` (any case); LetterBoxError when none does."""
        cell = self.cell_of.get(letter.upper()) if isinstance(letter, str) else None
        if cell is None:
            raise LetterBoxError(f"letter {letter!r} is not in the box {self}")
        return cell // self.per_side

    @cached_property
    def board(self) -> Board:
        """The box as a board: cells on different sides are adjacent (Board.letter_boxed)."""
        return Board.letter_boxed(len(self.sides), self.per_side)

    @cached_property
    def grid(self) -> Grid:
        """The box's letters on :attr:`board`, the grid the finder referees words on."""
        return parse_grid(self.letters, board=self.board)

    @property
    def full_mask(self) -> int:
        """The cover mask of every letter (one bit per cell)."""
        return (1 << self.size) - 1

    def mask_of(self, word: str) -> int:
        """The cover mask of the box letters ``word`` uses (letters outside the box count nothing)."""
        cells = self.cell_of
        return sum(1 << cells[letter] for letter in set(word) if letter in cells)

    def describe(self) -> str:
        """One line: the sides and the shape (``VRO WAL ETH BDI (4 sides of 3)``)."""
        return f"{self} ({len(self.sides)} sides of {self.per_side})"

    def __str__(self) -> str:
        return " ".join(self.sides)


def _checked_sides(sides: Any) -> tuple[str, ...]:
    """``sides`` upper-cased and validated (see :class:`LetterBox`), or LetterBoxError."""
    if isinstance(sides, str | bytes) or not isinstance(sides, Iterable):
        raise LetterBoxError(f"a box needs a list of sides, got {sides!r}")
    sides = tuple(sides)
    for number, side in enumerate(sides, 1):
        if not isinstance(side, str):
            raise LetterBoxError(f"side {number} must be text, got {side!r}")
        odd = sorted({ch for ch in side if not ("A" <= ch <= "Z" or "a" <= ch <= "z")})
        if odd:
            raise LetterBoxError(f"the box may hold letters A-Z only; found {' '.join(map(repr, odd))} "
                                 f"on side {number} ({side!r})")
    sides = tuple(side.upper() for side in sides)
    if not sides:
        raise LetterBoxError("the box is empty: give its sides, e.g. 'vro wal eth bdi'")
    if len(sides) < 2:
        raise LetterBoxError(f"a box needs at least 2 sides, got one ({sides[0]!r}): consecutive letters must "
                             "lie on different sides, so with one side no move is legal")
    lengths = [len(side) for side in sides]
    if 0 in lengths:
        raise LetterBoxError(f"side {lengths.index(0) + 1} of the box is empty")
    if len(set(lengths)) > 1:
        raise LetterBoxError(f"every side must hold the same number of letters; got "
                             f"{', '.join(map(str, lengths))} ({' '.join(sides)})")
    seen: dict[str, int] = {}
    for number, side in enumerate(sides, 1):
        for letter in side:
            if letter in seen:
                where = f"twice on side {number}" if seen[letter] == number else f"on sides {seen[letter]} and {number}"
                raise LetterBoxError(f"letter {letter!r} appears {where}; every letter of the box must be distinct")
            seen[letter] = number
    return sides


# --------------------------------------------------------------------------- words


def load_words(words: Words = None) -> WordList | frozenset[str]:
    """The dictionary to play with: a WordList as is; a name or path through
    :func:`exactgrid.data.word_list` (None: :data:`DEFAULT_WORDS`); any other iterable of
    words as a frozenset of its words upper-cased (entries that are not letters A-Z are left out)."""
    if words is None:
        return word_list(DEFAULT_WORDS)
    if isinstance(words, WordList):
        return words
    if isinstance(words, str | Path):
        return word_list(words)
    if isinstance(words, bytes) or not isinstance(words, Iterable):
        raise LetterBoxError(f"words must be a word list, a list's name or file, or a list of words; got {words!r}")
    upper = (word.upper() for word in words if isinstance(word, str))
    return frozenset(word for word in upper if re.fullmatch(r"[A-Z]+", word))


@dataclass(frozen=True)
class _Patterns:
    """The two regular expressions of the fast filter for one box."""

    only_box: re.Pattern[str]
    """Lines of 3+ letters, all from the box (MULTILINE, for a whole joined list)."""
    same_side: re.Pattern[str]
    """Two consecutive letters from the same side (a word holding this is not playable)."""


def _patterns(box: LetterBox) -> _Patterns:
    """The fast filter's regular expressions for ``box``."""
    only_box = re.compile(rf"^[{box.letters}]{{{MIN_LENGTH},}}$", re.MULTILINE)
    same_side = re.compile("|".join(f"[{side}]{{2}}" for side in box.sides))
    return _Patterns(only_box, same_side)


def is_playable(box: LetterBox, word: str) -> bool:
    """Whether ``word`` (upper case) is playable on ``box``: 3+ letters, all in the box, no two
    consecutive letters on the same side. A direct check; :func:`check_solution` asks the finder.

    >>> box = LetterBox.parse("vro wal eth bdi")
    >>> is_playable(box, "WHILED"), is_playable(box, "BIRD"), is_playable(box, "DRIVEBOAT")
    (True, False, True)
    """
    patterns = _patterns(box)
    return patterns.only_box.fullmatch(word) is not None and patterns.same_side.search(word) is None


def playable_words(box: LetterBox | str, words: Words = None) -> tuple[str, ...]:
    """The distinct words of ``words`` (upper-cased) playable on ``box``, sorted alphabetically.

    First the words of 3+ letters that use box letters only: for a WordList, a numpy test of
    each word's letter set (worked out once per list, :func:`letter_sets`); for other lists, one
    regular expression over the joined list. Then the few thousand survivors are checked for two
    consecutive letters on one side. How fast: measured in docs/benchmarks.md, section Puzzles.
    """
    box = LetterBox.parse(box)
    dictionary = load_words(words)
    patterns = _patterns(box)
    if isinstance(dictionary, WordList):
        listed, sets, lengths = letter_sets(dictionary)
        outside = ALL_LETTERS & ~sum(1 << (ord(letter) - ord("A")) for letter in box.letters)
        candidates = [listed[i] for i in np.nonzero(((sets & outside) == 0) & (lengths >= MIN_LENGTH))[0]]
    else:
        candidates = patterns.only_box.findall("\n".join(dictionary))
    return tuple(sorted({word for word in candidates if patterns.same_side.search(word) is None}))


ALL_LETTERS = (1 << 26) - 1
"""The letter-set mask of A-Z (bit 0 is A)."""


@lru_cache(maxsize=4)
def letter_sets(words: WordList) -> tuple[tuple[str, ...], np.ndarray, np.ndarray]:
    """The words of a list, the set of letters of each as a 26-bit mask (bit 0: A), and each
    one's length; cached for the last few lists (how long the first time: measured in
    docs/benchmarks.md, section Puzzles)."""
    listed = words.words
    codes = np.frombuffer("\n".join(listed).encode("ascii"), dtype=np.uint8).astype(np.int64)
    lengths = np.fromiter(map(len, listed), dtype=np.int64, count=len(listed))
    starts = np.concatenate([[0], np.cumsum(lengths[:-1] + 1)]) if len(listed) else np.zeros(0, dtype=np.int64)
    bits = np.left_shift(1, np.where(codes == ord("\n"), 26, codes - ord("A"))) & ALL_LETTERS  # "\n": nothing
    sets = np.bitwise_or.reduceat(bits, starts) if len(listed) else np.zeros(0, dtype=np.int64)
    return listed, sets, lengths


@dataclass(frozen=True)
class WordEdge:
    """One playable word as an edge of the state graph: first and last cell, cover mask."""

    word: str
    first: int
    last: int
    mask: int


def word_edges(box: LetterBox, words: Iterable[str]) -> list[WordEdge]:
    """Each word (upper case) as a :class:`WordEdge`, in the given order; LetterBoxError names a
    word that is not playable on ``box``."""
    cells, patterns = box.cell_of, _patterns(box)
    edges = []
    for word in words:
        if patterns.only_box.fullmatch(word) is None or patterns.same_side.search(word) is not None:
            raise LetterBoxError(f"{word!r} is not playable on the box {box}")
        edges.append(WordEdge(word, cells[word[0]], cells[word[-1]], box.mask_of(word)))
    return edges


def dominant_words(box: LetterBox, words: Iterable[str], keep: Literal["shortest", "widest"] = "shortest",
                   ) -> tuple[str, ...]:
    """The playable ``words`` that no other word dominates, sorted alphabetically.

    Words with the same first and last letters are interchangeable in a solution when one covers
    a superset of the other's letters. ``keep="widest"`` (the ILP's rule) drops a word whenever
    another with the same first and last letters covers a superset of its letters (of equal
    covers, the shortest, then alphabetically first, stays). ``keep="shortest"`` (the search's
    rule) drops it only when the other is also no longer and, at equal length, alphabetically
    earlier: swapping it in then never makes a solution longer or later, so the search's
    tie-break (fewest letters, then alphabetical) is unchanged.

    >>> box = LetterBox.parse("vro wal eth bdi")
    >>> words = ["WEARABLE", "WIRABLE", "WIRE", "WHILE"]  # WIRABLE covers WEARABLE's letters and WIRE's
    >>> dominant_words(box, words), dominant_words(box, words, keep="widest")
    (('WHILE', 'WIRABLE', 'WIRE'), ('WHILE', 'WIRABLE'))
    """
    return tuple(edge.word for edge in dominant_edges(word_edges(box, words), keep))


def dominant_edges(edges: Iterable[WordEdge], keep: Literal["shortest", "widest"] = "shortest",
                   ) -> list[WordEdge]:
    """:func:`dominant_words` on edges: those no other edge dominates, sorted by word."""
    if keep not in ("shortest", "widest"):
        raise LetterBoxError(f"keep must be 'shortest' or 'widest', got {keep!r}")
    groups: dict[tuple[int, int], list[WordEdge]] = {}
    for edge in edges:
        groups.setdefault((edge.first, edge.last), []).append(edge)
    kept = [edge for group in groups.values() for edge in _undominated(group, keep)]
    return sorted(kept, key=lambda edge: edge.word)


def _undominated(group: list[WordEdge], keep: str) -> list[WordEdge]:
    """The edges of one (first, last) group that no edge before them (in the rule's order)
    covers: ``(mask_i & ~mask_j) == 0`` for some j < i. An edge covered only by dropped edges is
    covered by a kept one too (covering is transitive), so testing against all earlier is right."""
    if keep == "widest":
        order = sorted(group, key=lambda e: (-e.mask.bit_count(), len(e.word), e.word))
    else:
        order = sorted(group, key=lambda e: (len(e.word), e.word))
    masks = np.array([e.mask for e in order], dtype=np.int64)
    covered = (masks[:, None] & ~masks[None, :]) == 0
    dominated = np.tril(covered, -1).any(axis=1)
    return [edge for edge, out in zip(order, dominated) if not out]


# --------------------------------------------------------------------------- the referee


def solution_problems(box: LetterBox | str, words: Sequence[str], dictionary: Words = None) -> list[str]:
    """Every rule ``words`` breaks as a solution of ``box`` (an empty list: it is a solution).

    Each word must be in ``dictionary``, have 3+ letters and be spelled on the box by the
    finder (a walk, no letter altered: consecutive letters on different sides); each word must
    start with the last letter of the one before; together they must use every letter.
    """
    box = LetterBox.parse(box)
    known = load_words(dictionary)
    if isinstance(words, str):
        return [f"a solution is a list of words, got the text {words!r}"]
    problems: list[str] = []
    if not words:
        problems.append("no words given")
    spelled: list[str] = []
    for number, given in enumerate(words, 1):
        word = given.upper() if isinstance(given, str) else ""
        if not re.fullmatch(r"[A-Z]+", word):
            problems.append(f"word {number} ({given!r}) is not a word of letters A-Z")
            continue
        if word not in known:
            problems.append(f"{word} is not in the dictionary")
        if len(word) < MIN_LENGTH:
            problems.append(f"{word} has fewer than {MIN_LENGTH} letters")
        elif not is_found(box.grid, word, budget=0, path_rule="walk"):
            problems.append(f"{word} cannot be played on the box (a letter outside it, or two consecutive "
                            "letters on one side)")
        if spelled and spelled[-1][-1] != word[0]:
            problems.append(f"{word} does not start with the last letter of {spelled[-1]}")
        spelled.append(word)
    missing = [letter for letter in box.letters if not any(letter in word for word in spelled)]
    if missing:
        problems.append(f"letters not used: {' '.join(missing)}")
    return problems


def check_solution(box: LetterBox | str, words: Sequence[str], dictionary: Words = None) -> tuple[str, ...]:
    """``words`` (upper-cased) when they solve ``box``; else InvalidSolution naming every broken rule.

    >>> check_solution("vro wal eth bdi", ["whiled", "driveboat"], ["WHILED", "DRIVEBOAT"])
    ('WHILED', 'DRIVEBOAT')
    """
    problems = solution_problems(box, words, dictionary)
    if problems:
        raise InvalidSolution(f"not a solution of {LetterBox.parse(box)}: {'; '.join(problems)}")
    return tuple(word.upper() for word in words)


def missing_letters(box: LetterBox, edges: Iterable[WordEdge]) -> list[str]:
    """The box letters that no playable word uses (each makes the box unsolvable)."""
    used = 0
    for edge in edges:
        used |= edge.mask
    return [letter for cell, letter in enumerate(box.letters) if not used >> cell & 1]

