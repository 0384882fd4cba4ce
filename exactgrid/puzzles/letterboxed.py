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

Two independent solvers answer "what is the fewest number of words?":

* :func:`solve_by_search`: breadth-first search over states (last letter, set of letters
  covered), one word per edge, so every state reachable with k words is settled before any
  needing k + 1, and the first level holding the full set is the proven fewest. It runs as
  iterative deepening (k = 1, 2, ...), each round cutting the states that cannot cover the rest
  within the round's k words by admissible bounds (lower bounds on the words still needed):
  tables, worked out once per box by subset-sum transforms, of the fewest chained words from
  each letter that cover each subset of the 12 rarest letters (on a 4 x 3 box: all of them),
  and of the fewest words, chaining ignored, that cover each subset of up to 16 letters. Levels
  are numpy arrays. Among the fewest-word solutions it returns the one with the fewest
  letters, then the alphabetically first sequence.
* :func:`solve_by_ilp`: for k = 1, 2, ... an integer programme "is there a chain of k words
  covering every letter?" on a :class:`~exactgrid.model.BoolModel` solved by a backend (CBC by
  default); the first feasible k is the fewest, proven by the backend's infeasibility answers
  for every smaller k.

Both shrink the word list first by dominance (:func:`dominant_words`): a word is dropped when
another with the same first and last letters covers a superset of its letters (the search
also requires the other to be no longer and, at equal length, alphabetically earlier, so its
tie-break stays exact).

>>> answer = solve_letter_boxed("vro wal eth bdi")      # ENABLE, breadth-first search
>>> answer.fewest, answer.proven
(2, True)
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache
from pathlib import Path
from typing import Any, Literal

import numpy as np

from ..data import word_list
from ..finder import is_found
from ..geometry import Board
from ..grid import Grid, parse_grid
from ..inputs import InputError, check_seconds, check_whole
from ..model import BoolModel
from ..stopping import interruption
from ..wording import plural
from ..words import WordList

MIN_LENGTH = 3
"""The shortest word Letter Boxed accepts."""
DEFAULT_WORDS = "enable"
"""The word list used when none is given (ENABLE, :mod:`exactgrid.data.enable`)."""
DEFAULT_BACKEND = "cbc"
"""The backend :func:`solve_by_ilp` uses when none is named."""
Method = Literal["search", "ilp", "both"]
METHODS: tuple[str, ...] = ("search", "ilp", "both")
"""The methods of :func:`solve_letter_boxed`."""
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
    consecutive letters on one side. About 2 ms for ENABLE on a 4 x 3 box once its letter sets
    are known (the first call for a list pays about 0.1 s for them).
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
    one's length; cached for the last few lists (ENABLE: about 0.1 s the first time)."""
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


# --------------------------------------------------------------------------- answers


@dataclass(frozen=True)
class LetterBoxedAnswer:
    """What a solver found.

    ``words`` is a solution with the fewest words (empty when none was found within
    ``max_words``); ``fewest`` its length (None when none was found); ``proven`` says whether
    what the answer claims is proven: the fewest count when ``words`` is given, else that no
    solution exists (at all, or within ``max_words`` -- ``how`` says which); False when a time
    limit cut the proof short. ``how`` is one line saying what was shown and how; ``playable``
    counts the playable words of the list; ``seconds`` is wall time (after the list is loaded).
    ``stopped_by`` names what interrupted the work (``Ctrl-C``, ``SIGTERM``, ``SIGHUP``; the
    answer is then what was shown by then), or is None.
    """

    box: LetterBox
    words: tuple[str, ...]
    fewest: int | None
    proven: bool
    how: str
    method: str
    seconds: float
    playable: int
    max_words: int | None = None
    stopped_by: str | None = None

    @property
    def solved(self) -> bool:
        """Whether a solution was found."""
        return bool(self.words)

    @property
    def letters(self) -> int:
        """How many letters the solution's words hold together."""
        return sum(map(len, self.words))

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict with stable keys: ``box`` (text), ``sides``, ``words``, ``fewest``,
        ``letters``, ``proven``, ``how``, ``method``, ``max_words``, ``playable``, ``seconds``,
        ``stopped_by``."""
        return {
            "box": str(self.box),
            "sides": list(self.box.sides),
            "words": list(self.words),
            "fewest": self.fewest,
            "letters": self.letters,
            "proven": self.proven,
            "how": self.how,
            "method": self.method,
            "max_words": self.max_words,
            "playable": self.playable,
            "seconds": round(self.seconds, 4),
            "stopped_by": self.stopped_by,
        }

    def text(self) -> str:
        """The answer as a CLI prints it: the box, the fewest count, the solution, how it was shown."""
        if self.words:
            proof = "proven fewest" if self.proven else "not proven fewest"
            head = f"fewest words: {self.fewest} ({proof})"
            body = f"solution: {' - '.join(self.words)} ({self.letters} letters)"
        elif self.proven:
            within = f" within {plural(self.max_words, 'word')}" if self.max_words else ""
            head, body = f"fewest words: no solution{within} (proven)", "solution: none"
        else:
            why = f"interrupted ({self.stopped_by})" if self.stopped_by else "the time limit came first"
            head, body = f"fewest words: unknown ({why})", "solution: none found"
        return "\n".join([
            f"Letter Boxed {self.box.describe()}",
            head,
            body,
            f"how: {self.how}",
            f"playable words: {self.playable:,}; {self.method} in {self.seconds:.3f} s",
        ])


def _refereed(answer: LetterBoxedAnswer, dictionary: WordList | frozenset[str]) -> LetterBoxedAnswer:
    """``answer`` after the independent check; AssertionError (a solver bug) when it fails."""
    if answer.words:
        problems = solution_problems(answer.box, answer.words, dictionary)
        if problems:
            raise AssertionError(f"{answer.method} returned a wrong solution {answer.words}: {'; '.join(problems)}")
    if (answer.fewest is None) != (not answer.words) or (answer.words and answer.fewest != len(answer.words)):
        raise AssertionError(f"{answer.method}: fewest {answer.fewest} does not match the words {answer.words}")
    return answer



def _missing_letters(box: LetterBox, edges: Iterable[WordEdge]) -> list[str]:
    """The box letters that no playable word uses (each makes the box unsolvable)."""
    used = 0
    for edge in edges:
        used |= edge.mask
    return [letter for cell, letter in enumerate(box.letters) if not used >> cell & 1]


# --------------------------------------------------------------------------- breadth-first search


BLOCK = 1 << 20
"""The most (state, word) pairs the search tests at once (bounds its memory)."""
COVER_BITS = 16
"""The most letters one cover table spans (a table has 2**COVER_BITS entries)."""
_NEVER = 127


@dataclass(frozen=True)
class _CoverBound:
    """The fewest words, chaining ignored, that cover each subset of some letters H of the box.

    ``parts[j][byte]`` maps byte j of a cover mask to its letters' bits in a compact index over
    H; ``fewest[index]`` is the fewest words covering those letters (``_NEVER``: no number does).
    No chain covers a set of letters with fewer words than an unchained set of words can, so a
    state whose missing letters of H need more words than remain is hopeless (an admissible
    bound). Compacting keeps bitwise operations: compact(a & ~b) = compact(a) & ~compact(b).
    """

    parts: tuple[np.ndarray, ...]
    fewest: np.ndarray

    def compact(self, masks: np.ndarray) -> np.ndarray:
        """The compact index (the bits of H only) of each cover mask."""
        index = self.parts[0][masks & 0xFF]
        for j, part in enumerate(self.parts[1:], 1):
            index = index | part[(masks >> (8 * j)) & 0xFF]
        return index


def _cover_bounds(box: LetterBox, masks: np.ndarray) -> tuple[_CoverBound, ...]:
    """Cover tables over the whole box when it has at most COVER_BITS letters (an exact set-cover
    bound); else over the COVER_BITS rarest letters, and over the others plus the rarest."""
    uses = [int(np.count_nonzero(masks >> cell & 1)) for cell in range(box.size)]
    rare = sorted(range(box.size), key=lambda cell: (uses[cell], cell))
    if box.size <= COVER_BITS:
        groups = [rare]
    else:
        rest = rare[COVER_BITS:]
        groups = [rare[:COVER_BITS], rest + rare[:COVER_BITS - len(rest)]]
    return tuple(_cover_bound(sorted(group), masks, box.size) for group in groups)


def _byte_parts(cells: list[int], size: int) -> tuple[np.ndarray, ...]:
    """For each byte of a ``size``-bit mask, the compact bits (over ``cells``) of its 256 values."""
    values = np.arange(256)
    parts = []
    for j in range((size + 7) // 8):
        part = np.zeros(256, dtype=np.int64)
        for index, cell in enumerate(cells):
            if cell // 8 == j:
                part |= (values >> (cell % 8) & 1) << index
        parts.append(part)
    return tuple(parts)


def _cover_bound(cells: list[int], masks: np.ndarray, size: int) -> _CoverBound:
    """The cover table of the letters ``cells`` for words with cover ``masks``.

    One word covers the subsets of its letters (a down-closure); c words cover the unions of
    c such sets, an OR-convolution done as a product of subset sums (zeta, then Moebius).
    """
    bits = len(cells)
    parts = _byte_parts(cells, size)
    one = np.zeros(1 << bits, dtype=np.int64)
    one[_CoverBound(parts, one).compact(masks)] = 1
    one[0] = 1
    one = _down_closure(one, bits)
    fewest = np.full(len(one), _NEVER, dtype=np.int8)
    fewest[0] = 0
    ones, reached, count = _zeta(one, bits), one, 1
    while True:
        fresh = (reached > 0) & (fewest == _NEVER)
        if not fresh.any():
            return _CoverBound(parts, fewest)
        fewest[fresh] = count
        count += 1
        # 0/1 again before the next product: subset sums stay <= 2**bits, products <= 2**(2 * bits)
        reached = (_moebius(_zeta(reached, bits) * ones, bits) > 0).astype(np.int64)


CHAIN_BITS = 12
"""The most letters the chain table spans (it has letters x 2**CHAIN_BITS entries)."""


def _chain_bound(box: LetterBox, first: np.ndarray, last: np.ndarray, masks: np.ndarray, most: int,
                 ) -> _CoverBound:
    """The fewest words of a *chain* starting at each letter that covers each subset of the
    CHAIN_BITS rarest letters (all of them on boxes of up to CHAIN_BITS letters, where the table
    is the exact answer for those letters): ``fewest[l * 2**bits + index]``.

    ``g_c[l]`` (the sets c chained words from l cover, down-closed) is the union over l' of
    ``W[l][l'] (+) g_{c-1}[l']``, where ``W[l][l']`` holds the sets one word from l to l' covers
    and (+) is the OR-convolution, done on subset sums. Values are worked out up to ``most``
    words; a set no chain of at most ``most`` words covers gets ``most + 1``.
    """
    uses = [int(np.count_nonzero(masks >> cell & 1)) for cell in range(box.size)]
    cells = sorted(sorted(range(box.size), key=lambda cell: (uses[cell], cell))[:CHAIN_BITS])
    bits, size = len(cells), box.size
    parts = _byte_parts(cells, size)
    compact = _CoverBound(parts, masks).compact(masks)
    one = np.zeros((size, size, 1 << bits), dtype=np.uint8)
    one[first, last, compact] = 1
    one = _down_closure(one.reshape(size * size, -1), bits).reshape(size, size, -1)
    # subset sums stay below 2**bits * 2**bits * size < 2**31 (bits <= 12, size <= 26): int32 is exact
    sums = _zeta(one.reshape(size * size, -1), bits, np.int32).reshape(size, size, -1)
    fewest = np.full((size, 1 << bits), most + 1, dtype=np.int8)
    fewest[:, 0] = 0
    reached = one.max(axis=1)
    for count in range(1, most + 1):
        fewest[(reached > 0) & (fewest > count)] = count
        chained = np.einsum("abx,bx->ax", sums, _zeta(reached, bits, np.int32))
        following = (_moebius(chained, bits) > 0).astype(np.uint8)
        if np.array_equal(following, reached):  # the same sets for every longer chain: the rest never
            fewest[fewest > count] = _NEVER
            break
        reached = following
    return _CoverBound(parts, fewest.reshape(-1))


def _down_closure(table: np.ndarray, bits: int) -> np.ndarray:
    """The 0/1 table of every subset of a set marked in ``table`` (each row of a 2-D table alone)."""
    out = table.copy()
    for bit in range(bits):
        view = out.reshape(-1, 2, 1 << bit)
        np.maximum(view[:, 0, :], view[:, 1, :], out=view[:, 0, :])
    return out


def _zeta(table: np.ndarray, bits: int, dtype: type = np.int64) -> np.ndarray:
    """``out[x]`` = the sum of ``table[s]`` over the subsets s of x (each row of a 2-D table alone)."""
    out = table.astype(dtype, copy=True)
    for bit in range(bits):
        view = out.reshape(-1, 2, 1 << bit)
        view[:, 1, :] += view[:, 0, :]
    return out


def _moebius(table: np.ndarray, bits: int) -> np.ndarray:
    """The inverse of :func:`_zeta`."""
    out = table.copy()
    for bit in range(bits):
        view = out.reshape(-1, 2, 1 << bit)
        view[:, 1, :] -= view[:, 0, :]
    return out


def _popcount(masks: np.ndarray) -> np.ndarray:
    """The number of set bits of each mask (non-negative, below 2**32)."""
    count = getattr(np, "bitwise_count", None)  # numpy >= 2.0
    if count is not None:
        return count(masks).astype(np.int64)
    return _POP16[masks & 0xFFFF] + _POP16[masks >> 16]


_POP16 = np.array([bin(i).count("1") for i in range(1 << 16)], dtype=np.int64)


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
    bounds: tuple[_CoverBound, ...]
    compacts: tuple[np.ndarray, ...]
    """For each cover table, each word's cover in its compact index."""
    chain: _CoverBound
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
    counts = _popcount(mask)
    cap = np.full(box.size, -1, dtype=np.int64)
    np.maximum.at(cap, first, counts)
    last = np.array([e.last for e in edges], dtype=np.int64)
    bounds = _cover_bounds(box, mask)
    chain = _chain_bound(box, first, last, mask, box.size)
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
    deferred = bool(((needed < _NEVER) & ~ok).any())
    rows, cols = np.nonzero(ok)
    cols = cols + start
    after = need[rows] & ~edges.mask[cols]
    if remaining == 0:
        keep = after == 0
    else:
        keep = _popcount(after) <= reach[cols]
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


def _deepening_round(edges: _Edges, box: LetterBox, words: int) -> _Round:
    """Breadth-first search for solutions of exactly ``words`` words (fewer are known impossible),
    cutting states that cannot finish in time. Stops early when the frontier empties."""
    levels: list[_Level] = []
    visited = np.zeros(0, dtype=np.int64)
    deferred = False
    level: _Level | None = None
    for k in range(1, words + 1):
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
    states, and whether the search reached every state without a solution."""

    words: tuple[str, ...]
    rounds: int
    states: int
    exhausted: bool
    stopped_by: str | None = None


def _search(box: LetterBox, edges: _Edges, limit: int | None) -> _Search:
    """Rounds of 1, 2, ... words (up to ``limit``) until one finds a solution or none defers a state.
    Ctrl-C (or a stop signal) ends it with what the finished rounds showed."""
    k, states = 0, 0
    try:
        while limit is None or k < limit:
            k += 1
            round_ = _deepening_round(edges, box, k)
            states = round_.states
            if len(round_.levels) == k and len(round_.levels[-1]):
                return _Search(_best_sequence(round_.levels, edges), k, states, False)
            if not round_.deferred:
                return _Search((), k, states, True)
    except KeyboardInterrupt as exc:
        return _Search((), k, states, False, interruption(exc))
    return _Search((), k, states, False)


def solve_by_search(box: LetterBox | str, words: Words = None, max_words: int | None = None) -> LetterBoxedAnswer:
    """The fewest-word solution of ``box`` by breadth-first search over (last letter, letters covered).

    Each edge is one word (the playable words, reduced by :func:`dominant_words`). Rounds k = 1,
    2, ... search breadth-first for a k-word solution, cutting states that cannot cover the rest
    within k words (admissible bounds, see the module notes); the first round that finds one
    proves k the fewest (every earlier round searched all it had to). Among the fewest-word
    solutions it returns the one with the fewest letters, then the alphabetically first
    sequence. With ``max_words`` it stops after that many words; without, it goes on until a
    round defers no state to a later round, which proves that no solution exists. A 4 x 3 box
    with ENABLE takes about 15-20 ms, a 6 x 4 box about 0.4-1.5 s (4 or 5 words).

    >>> solve_by_search("vro wal eth bdi", ["WHILED", "DRIVEBOAT", "BOAT"]).words
    ('WHILED', 'DRIVEBOAT')
    """
    started = time.perf_counter()
    box = LetterBox.parse(box)
    dictionary = load_words(words)
    limit = None if max_words is None else check_whole(max_words, "max_words", 1)
    playable = word_edges(box, playable_words(box, dictionary))
    reduced = dominant_edges(playable, "shortest")
    pool = f"{plural(len(playable), 'playable word')}, {len(reduced):,} after dominance"
    missing = _missing_letters(box, playable)
    stopped_by = None
    if missing:
        found, detail = (), f"no solution at all: no playable word uses {' '.join(missing)} ({pool})"
    else:
        result = _search(box, _edges(box, reduced), limit)
        found, detail, stopped_by = result.words, _search_detail(result, pool), result.stopped_by
    how = f"breadth-first search over (last letter, letters covered), deepening by words: {detail}"
    answer = LetterBoxedAnswer(box, found, len(found) or None, stopped_by is None, how, "search",
                               time.perf_counter() - started, len(playable), limit, stopped_by)
    return _refereed(answer, dictionary)


def _search_detail(result: _Search, pool: str) -> str:
    """What the search showed, for ``how``."""
    k = result.rounds
    if result.stopped_by:
        shorter = f"no solution of fewer than {plural(k, 'word')}, then " if k > 1 else ""
        return f"{shorter}interrupted ({result.stopped_by}) in the round of {plural(k, 'word')} ({pool})"
    if result.words:
        shorter = f"no solution of fewer than {plural(k, 'word')}; " if k > 1 else ""
        return f"{shorter}a {k}-word solution at depth {k} ({pool}; {result.states:,} states in the last round)"
    if result.exhausted:
        return f"no solution at all: no state left that could lead to one ({pool}; {result.states:,} states kept)"
    return f"no solution of at most {plural(k, 'word')} ({pool})"


# --------------------------------------------------------------------------- integer programme


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
                 backend: str | None = None, time_limit: float = 60.0, seed: int = 0) -> LetterBoxedAnswer:
    """The fewest-word solution of ``box`` by integer programmes: for k = 1, 2, ... up to
    ``max_words`` (default: the number of letters in the box), :func:`chain_model` asks the
    backend (``cbc`` unless named; any backend works, the model is backend-neutral) whether k
    words can do it. The first feasible k is the fewest, proven by the infeasible answers for
    every smaller k; ``how`` records which backend gave each.

    The words are the playable ones reduced by :func:`dominant_words` (``keep="widest"``), so the
    programme has k x (a few hundred) variables on a 4 x 3 box with ENABLE. Each CBC call costs
    a child process (about 0.3 s), so a k-word answer costs about k of them; larger boxes have
    thousands of reduced words and cost seconds or more per k (the search is far faster there).
    ``time_limit`` bounds the whole run; when a call runs out of time the answer is not proven.
    """
    from ..backends import Status, backend_name, get_backend

    started = time.perf_counter()
    box = LetterBox.parse(box)
    dictionary = load_words(words)
    limit = box.size if max_words is None else check_whole(max_words, "max_words", 1)
    budget = check_seconds(time_limit)
    solver = get_backend(backend_name(backend, DEFAULT_BACKEND))
    playable = word_edges(box, playable_words(box, dictionary))
    reduced = dominant_edges(playable, "widest")
    missing = _missing_letters(box, playable)
    steps: list[str] = []
    found: tuple[str, ...] = ()
    proven = True
    stopped_by = None
    for k in ([] if missing else range(1, limit + 1)):
        try:
            chain = chain_model(box, reduced, k)
            remaining = max(0.0, budget - (time.perf_counter() - started))
            result = solver.solve(chain.model, time_limit=remaining, seed=seed)
        except KeyboardInterrupt as exc:  # Ctrl-C or a stop signal: what the finished k showed
            stopped_by = interruption(exc)
            steps.append(f"k={k} interrupted ({stopped_by})")
            proven = False
            break
        if result.status == Status.UNSAT:
            steps.append(f"k={k} infeasible")
            continue
        if result.found and result.true_vars is not None:
            found = chain.decode(result.true_vars)
            steps.append(f"k={k} feasible")
        else:
            steps.append(f"k={k} unknown (the {budget:g} s time limit ran out)")
            proven = False
        break
    if missing:
        detail = f"no solution at all: no playable word uses {' '.join(missing)}"
    else:
        detail = ", ".join(steps) + ("" if found or not proven else f": no solution of at most {plural(limit, 'word')}")
    how = (f"ILP ({solver.name}) over {plural(len(reduced), 'dominance-reduced word')} "
           f"of {len(playable):,} playable: {detail}")
    answer = LetterBoxedAnswer(box, found, len(found) or None, proven, how, f"ilp ({solver.name})",
                               time.perf_counter() - started, len(playable), limit, stopped_by)
    return _refereed(answer, dictionary)


# --------------------------------------------------------------------------- the front door


def solve_letter_boxed(box_or_text: LetterBox | str | Sequence[str], words: Words = None,
                       max_words: int | None = None, method: Method = "search", backend: str | None = None,
                       time_limit: float = 60.0) -> LetterBoxedAnswer:
    """The fewest-word solution of a Letter Boxed box, proven fewest.

    ``method``: ``"search"`` (:func:`solve_by_search`, fast), ``"ilp"`` (:func:`solve_by_ilp`
    with ``backend``, default CBC, within ``time_limit`` seconds) or ``"both"``: the search,
    then the ILP up to the search's count (or ``max_words``), raising AssertionError if they
    disagree on the fewest number of words; it returns the search's solution with both proofs
    in ``how``. ``words`` defaults to ENABLE. Every solution returned has been re-checked by
    :func:`check_solution` (the finder referees each word).

    >>> solve_letter_boxed("xoy tws apv kri").fewest
    3
    """
    box = LetterBox.parse(box_or_text)
    if method not in METHODS:
        raise LetterBoxError(f"unknown method {method!r}; choose from {', '.join(METHODS)}")
    if max_words is not None:
        check_whole(max_words, "max_words", 1)
    check_seconds(time_limit)
    if method == "search" and backend is not None:
        raise LetterBoxError("a backend only applies to the ILP: use method 'ilp' or 'both'")
    dictionary = load_words(words)
    if method == "search":
        return solve_by_search(box, dictionary, max_words)
    if method == "ilp":
        return solve_by_ilp(box, dictionary, max_words, backend, time_limit)
    search = solve_by_search(box, dictionary, max_words)
    if search.stopped_by:
        return search
    ilp = solve_by_ilp(box, dictionary, max_words or search.fewest, backend, time_limit)
    if ilp.proven and ilp.fewest != search.fewest:
        raise AssertionError(f"the solvers disagree on {box}: search says {search.fewest} word(s) "
                             f"({search.how}); ILP says {ilp.fewest} ({ilp.how})")
    how = f"{search.how}; and {ilp.how}" + ("" if ilp.proven else " (the ILP did not finish: no cross-check)")
    return LetterBoxedAnswer(box, search.words, search.fewest, search.proven, how, f"both (search, {ilp.method})",
                             search.seconds + ilp.seconds, search.playable, max_words, ilp.stopped_by)
