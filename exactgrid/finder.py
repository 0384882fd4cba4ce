"""Exact search of one grid: is a word found, how is it spelled, and what does a grid score.

Rules (see README "The rules, exactly"):

* A *walk* visits cells ``c0, c1, ..., c(n-1)`` where each step goes to a different cell one
  move away; a cell may be visited again later (the Altered States rule). A *simple* path
  never visits a cell twice (the Trackword / Boggle rule).
* A word of length n is *found* with budget k when some path of n cells spells a string that
  differs from the word in at most k positions (Hamming distance: substitutions only).

Walks are decided by a dynamic programme over (letter index, substitutions used) whose
states are *sets* of cells held as bitmasks, so one word costs O(n * k) set operations no
matter how many walks exist. Simple paths need a depth-first search.

When a word is found, the reported witness is canonical: the fewest substitutions; among
those, the earliest altered position, then the alphabetically first altered letter (and so
on for further alterations); the path is then the one ending at the lowest cell, each
earlier cell the lowest possible. On the seed grid ``thoainesl`` this gives ILLINOIS as
INLINOIS, UTAH as ATAH, IOWA as IOHA and IDAHO as IEAHO, as the puzzle states.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

# PathRule and PATH_RULES live in geometry; they stay importable from here too
from .geometry import PATH_RULES, Board, PathRule, cells_of, check_path_rule, path_rule_text  # noqa: F401
from .grid import Grid, as_grid
from .inputs import InputError
from .notebook import block, letters_table, line, table
from .stopping import DeadlinePassed
from .words import WordList, normalise_word

_STEPS: ContextVar[_Steps | None] = ContextVar("exactgrid_finder_steps", default=None)

SIMPLE_STEPS = 20_000
"""How many steps a simple-path search takes between two looks at :func:`searching_until`'s deadline."""


@contextmanager
def searching_until(deadline: float | None) -> Iterator[None]:
    """While the body runs (in this thread or task), the finder's simple-path searches raise
    :class:`~exactgrid.stopping.DeadlinePassed` once ``deadline`` (a ``time.monotonic()``
    value; None: none) has passed (:class:`FinderTimedOut`).

    Why: they are depth-first searches over paths, exponential in the budget (a 13-letter
    word with a budget of 13 on 5x5 took minutes), and a command checking a solver's grid
    must still honour its time limit. Walks need no deadline: their search is linear. The
    steps are counted over every search in the block (a check of many words makes many
    short searches), and a block within a block keeps the earlier deadline."""
    around = _STEPS.get()
    if deadline is None or (around is not None and around.deadline <= deadline):
        yield
        return
    token = _STEPS.set(_Steps(deadline))
    try:
        yield
    finally:
        _STEPS.reset(token)


class FinderTimedOut(DeadlinePassed):
    """A simple-path search of the finder was cut short by :func:`searching_until`'s deadline."""


class _Steps:
    """Counts a simple-path search's steps, and looks at the deadline every so often."""

    def __init__(self, deadline: float) -> None:
        self.deadline, self.count = deadline, 0

    def step(self) -> None:
        self.count += 1
        if self.count % SIMPLE_STEPS == 0 and time.monotonic() > self.deadline:
            raise FinderTimedOut("the time limit came while the finder searched simple paths")


@dataclass(frozen=True)
class Match:
    """How one word is found in a grid: the ``path`` (cell indices) that spells it and what it
    spells there (``spelled`` equals ``word`` unless letters were altered).

    The one witness type of the package: the dictionary search's hits
    (:class:`exactgrid.wordsearch.WordHit`) are Matches too.
    """

    word: str
    spelled: str
    path: tuple[int, ...]

    @property
    def altered(self) -> tuple[int, ...]:
        """0-based positions where the spelled letter differs from the word's."""
        return tuple(i for i, (a, b) in enumerate(zip(self.word, self.spelled, strict=True)) if a != b)

    @property
    def substitutions(self) -> int:
        """How many letters were altered (0 for an exact match)."""
        return len(self.altered)

    @property
    def marked(self) -> str:
        """The spelled form with altered letters in lower case: ``CALIlORNIA``."""
        altered = set(self.altered)
        return "".join(c.lower() if i in altered else c for i, c in enumerate(self.spelled))

    def labels(self, board: Board) -> tuple[str, ...]:
        """The path as cell labels of ``board`` (``r1c2`` on a rectangle)."""
        return tuple(board.label(cell) for cell in self.path)


@dataclass(frozen=True)
class ScoredWord:
    """A found word with its weight and witness."""

    match: Match
    weight: int


@dataclass(frozen=True)
class Score:
    """The words a grid holds and their summed weight."""

    grid: Grid
    found: tuple[ScoredWord, ...]
    budget: int
    path_rule: PathRule
    word_list: WordList | None = None
    """The list scored against (its labels and display names are what output shows)."""

    @property
    def total(self) -> int:
        """Sum of the weights of the distinct words found."""
        return sum(s.weight for s in self.found)

    @property
    def words(self) -> frozenset[str]:
        """The words found."""
        return frozenset(s.match.word for s in self.found)

    def __len__(self) -> int:
        return len(self.found)

    @property
    def rules(self) -> str:
        """The rules it was scored under: ``3x3, king moves, walks, budget 1``."""
        board = self.grid.board
        return f"{board.shape_name}, {board.moves_text}, {path_rule_text(self.path_rule)}, budget {self.budget}"

    def _repr_html_(self) -> str:
        """In a notebook: the grid, its rules, total and count, and the words found (spelled
        with altered letters in lower case, as ``exactgrid score`` shows them)."""
        listed = self.word_list
        word, weight = (listed.word_label, listed.weight_label) if listed is not None else ("word", "weight")
        rows = [[s.match.word, s.weight, s.match.marked,
                 ", ".join(f"{i + 1} {s.match.word[i]}->{s.match.spelled[i]}" for i in s.match.altered) or "-",
                 " ".join(s.match.labels(self.grid.board))] for s in self.found]
        words = table([word, weight, "spelled", "altered", "path"], rows, right=(1,)) if rows else "(no words found)"
        return block(letters_table(self.grid.rows()), line(f"{self.grid.letters}  ({self.rules})"),
                     f"total <b>{self.total:,}</b> · {len(self.found)} found", words)


def _word_of(word: str) -> str:
    """``word`` as the finder reads it, as word lists read theirs: letters A-Z in any case,
    spaces and punctuation dropped (``"New York"`` is NEWYORK); InputError when that leaves no
    letter or finds a digit or a letter outside A-Z."""
    if isinstance(word, str) and word.isascii() and word.isalpha() and word.isupper():
        return word
    if not isinstance(word, str):
        raise InputError(f"a word is a string of letters, got {type(word).__name__}")
    letters = normalise_word(word)
    if not letters:
        raise InputError(f"a word needs at least one letter A-Z, got {word!r}")
    return letters


def _check(budget: int, path_rule: str, word: str) -> int:
    """The budget that matters for ``word``: at most its length (more alters nothing more)."""
    if isinstance(budget, bool) or not isinstance(budget, int) or budget < 0:
        raise InputError(f"alteration budget must be a whole number 0 or more, got {budget!r}")
    check_path_rule(path_rule)
    return min(budget, len(word))


def suffix_layers(grid: Grid, word: str, budget: int) -> list[list[int]]:
    """``layers[i][j]``: cells where a walk spelling ``word[i:]`` with <= j substitutions can start."""
    board = grid.board
    n = len(word)
    layers = [[0] * (budget + 1) for _ in range(n)]
    for i in range(n - 1, -1, -1):
        exact = grid.mask_of(word[i])
        for j in range(budget + 1):
            if i == n - 1:
                layers[i][j] = exact if j == 0 else board.all_cells
                continue
            same = board.spread(layers[i + 1][j]) & exact
            changed = board.spread(layers[i + 1][j - 1]) if j else 0
            layers[i][j] = same | changed
    return layers


def walk_found(grid: Grid, word: str, budget: int = 1) -> bool:
    """Whether a walk spells ``word`` with at most ``budget`` substitutions (forward DP, early exit)."""
    if not word:
        return True
    spread = grid.board.spread
    exact = grid.mask_of(word[0])
    reach = [exact] + [grid.board.all_cells] * budget
    for letter in word[1:]:
        mask = grid.mask_of(letter)
        spreads = [spread(r) if r else 0 for r in reach]
        reach = [spreads[0] & mask] + [
            (spreads[j] & mask) | spreads[j - 1] for j in range(1, budget + 1)
        ]
        if not reach[budget]:
            return False
    return reach[budget] != 0


def _letter_order(word_letter: str):
    """Sort key for candidate letters: altered letters first (alphabetically), the exact last."""
    return lambda letter: (1, "") if letter == word_letter else (0, letter)


def _walk_witness(grid: Grid, word: str, budget: int) -> Match | None:
    layers = suffix_layers(grid, word, budget)
    fewest = next((j for j in range(budget + 1) if layers[0][j]), None)
    if fewest is None:
        return None
    board = grid.board
    spelled: list[str] = []
    ends: list[int] = []  # ends[i]: cells where the chosen spelling of word[:i+1] can end
    left = fewest
    for i, target in enumerate(word):
        candidates = layers[i][left] if i == 0 else board.spread(ends[-1]) & layers[i][left]
        letters = {grid.letters[c] for c in cells_of(candidates)}
        choice = min(letters, key=_letter_order(target))
        if choice != target:
            left -= 1
        ends.append(candidates & grid.mask_of(choice))
        spelled.append(choice)
    path = [cells_of(ends[-1])[0]]
    for i in range(len(word) - 2, -1, -1):
        path.append(cells_of(ends[i] & board.neighbour_masks[path[-1]])[0])
    return Match(word, "".join(spelled), tuple(reversed(path)))


def _simple_witness(grid: Grid, word: str, budget: int) -> Match | None:
    board = grid.board
    n = len(word)
    best: list[tuple] = []  # [(subs, key sequence, path)]
    steps = _STEPS.get()

    def key(i: int, cell: int) -> tuple:
        letter = grid.letters[cell]
        return (1, "") if letter == word[i] else (0, letter)

    def extend(path: list[int], used: int, keys: list[tuple]) -> None:
        if steps is not None:
            steps.step()
        i = len(path)
        if i == n:  # the path compared from its end: the last cell lowest, then each earlier one
            candidate = (used, tuple(keys), tuple(reversed(path)))
            if not best or candidate < best[0]:
                best[:] = [candidate]
            return
        options = range(board.size) if i == 0 else board.neighbours[path[-1]]
        for cell in options:
            if cell in path:
                continue
            cost = grid.letters[cell] != word[i]
            if used + cost > budget:
                continue
            path.append(cell)
            keys.append(key(i, cell))
            extend(path, used + cost, keys)
            path.pop()
            keys.pop()

    extend([], 0, [])
    if not best:
        return None
    path = tuple(reversed(best[0][2]))
    return Match(word, "".join(grid.letters[c] for c in path), path)


def _simple_found(grid: Grid, word: str, budget: int) -> bool:
    board = grid.board
    n = len(word)
    steps = _STEPS.get()

    def extend(cell: int, i: int, used: int, visited: int) -> bool:
        if steps is not None:
            steps.step()
        if i == n - 1:
            return True
        for nxt in board.neighbours[cell]:
            if visited >> nxt & 1:
                continue
            cost = used + (grid.letters[nxt] != word[i + 1])
            if cost <= budget and extend(nxt, i + 1, cost, visited | 1 << nxt):
                return True
        return False

    return any(
        extend(c, 0, int(grid.letters[c] != word[0]), 1 << c)
        for c in range(board.size)
        if (grid.letters[c] != word[0]) <= budget
    )


def is_found(grid: Grid | str, word: str, budget: int = 1, path_rule: PathRule = "walk") -> bool:
    """Whether ``word`` is spelled in ``grid`` with at most ``budget`` substitutions.

    >>> from exactgrid.grid import parse_grid
    >>> is_found(parse_grid("thoainesl"), "OHIO")
    True

    ``grid`` may be its letters (read with king moves), and ``word`` is read as word lists
    read theirs (any case; spaces and punctuation dropped): ``is_found("thoainesl", "ohio")``.
    """
    grid, word = as_grid(grid), _word_of(word)
    budget = _check(budget, path_rule, word)
    if len(word) > grid.board.size and path_rule == "simple":
        return False
    if path_rule == "walk":
        return walk_found(grid, word, budget)
    return _simple_found(grid, word, budget)


def find(grid: Grid | str, word: str, budget: int = 1, path_rule: PathRule = "walk") -> Match | None:
    """The canonical witness for ``word`` in ``grid``, or None when it is not found.

    >>> from exactgrid.grid import parse_grid
    >>> find(parse_grid("thoainesl"), "UTAH").spelled
    'ATAH'

    ``grid`` and ``word`` are read as :func:`is_found` reads them.
    """
    grid, word = as_grid(grid), _word_of(word)
    budget = _check(budget, path_rule, word)
    if path_rule == "simple" and len(word) > grid.board.size:
        return None
    if path_rule == "walk":
        return _walk_witness(grid, word, budget)
    return _simple_witness(grid, word, budget)


def fewest_alterations(grid: Grid | str, word: str, path_rule: PathRule = "walk",
                       most: int | None = None) -> int | None:
    """The fewest letters of ``word`` a path of ``path_rule`` on ``grid`` must alter to spell it
    (0: spelled exactly), or None when that is more than ``most`` (default: the word's length,
    so a walk always answers; on the simple rule each budget tried is a depth-first search, so
    callers keep ``most`` small there), or when no path of the word's length exists.

    >>> from exactgrid.grid import parse_grid
    >>> fewest_alterations(parse_grid("thoainesl"), "UTAH"), fewest_alterations(parse_grid("thoainesl"), "OHIO")
    (1, 0)

    ``grid`` and ``word`` are read as :func:`is_found` reads them.
    """
    grid, word = as_grid(grid), _word_of(word)
    most = len(word) if most is None else _check(most, path_rule, word)
    if path_rule == "walk":  # the witness's layers alone: the fewest j whose layer is not empty
        starts = suffix_layers(grid, word, most)[0]
        return next((j for j in range(most + 1) if starts[j]), None)
    return next((k for k in range(most + 1) if is_found(grid, word, k, path_rule)), None)


SIMPLE_LETTERS_OFF = 2
"""On the simple rule, how far past the budget a missing word's nearest path is looked for
(each letter more is another depth-first search); walks are always measured exactly."""


def letters_off_limit(path_rule: PathRule, budget: int) -> int | None:
    """The ``most`` to pass :func:`fewest_alterations` when reporting how far a missing word is
    from spelled (None, any number, on walks; the budget + :data:`SIMPLE_LETTERS_OFF` on the
    simple rule)."""
    return None if path_rule == "walk" else budget + SIMPLE_LETTERS_OFF


def found_words(
    grid: Grid, words: Iterable[str], budget: int = 1, path_rule: PathRule = "walk"
) -> list[str]:
    """The words of ``words`` found in ``grid``, in the given order."""
    return [w for w in words if is_found(grid, w, budget, path_rule)]


def score(grid: Grid, words: WordList, budget: int = 1, path_rule: PathRule = "walk") -> Score:
    """Score a grid: the distinct words found, each with its witness, and their total weight.

    Found words are listed heaviest first (then alphabetically).

    >>> from exactgrid.grid import parse_grid
    >>> from exactgrid.data.us import us_states
    >>> score(parse_grid("thoainesl"), us_states()).total
    32913047
    """
    found = [scored for _, scored in scored_words(grid, words, budget, path_rule) if scored is not None]
    return Score(grid, heaviest_first(found), budget, path_rule, words)


def scored_words(grid: Grid, words: WordList, budget: int = 1,
                 path_rule: PathRule = "walk") -> Iterator[tuple[str, ScoredWord | None]]:
    """Each word of ``words`` in turn, with how ``grid`` holds it (None: it does not):
    :func:`score` one word at a time, for work that may have to stop between two words."""
    _check(budget, path_rule, "")
    for word in words:
        if not is_found(grid, word, budget, path_rule):
            yield word, None
            continue
        match = find(grid, word, budget, path_rule)
        assert match is not None, word
        yield word, ScoredWord(match, words.weight(word))


def heaviest_first(found: Iterable[ScoredWord]) -> tuple[ScoredWord, ...]:
    """Found words in a score's order: heaviest first, then alphabetically."""
    return tuple(sorted(found, key=lambda s: (-s.weight, s.match.word)))


def find_pattern(
    grid: Grid,
    word: str,
    steps: Sequence[tuple[str, bool]],
    path_rule: PathRule = "walk",
) -> Match | None:
    """A path spelling a pinned pattern, or None: per position ``(letter, must_equal)``,
    where ``must_equal`` False means "any letter but this one". No further alterations.

    The reported match is for ``word`` (so its ``altered`` positions show the pattern's).
    """
    _check(0, path_rule, word)
    if len(steps) != len(word):
        raise ValueError("a pattern needs one step per letter of the word")
    board = grid.board
    allowed = [
        grid.mask_of(letter) if must_equal else board.all_cells & ~grid.mask_of(letter)
        for letter, must_equal in steps
    ]
    if path_rule == "simple":
        return _simple_pattern(grid, word, allowed)
    ends = [allowed[0]]
    for mask in allowed[1:]:
        ends.append(board.spread(ends[-1]) & mask)
        if not ends[-1]:
            return None
    if not ends[-1]:
        return None
    path = [cells_of(ends[-1])[0]]
    for i in range(len(word) - 2, -1, -1):
        path.append(cells_of(ends[i] & board.neighbour_masks[path[-1]])[0])
    path.reverse()
    return Match(word, "".join(grid.letters[c] for c in path), tuple(path))


def _simple_pattern(grid: Grid, word: str, allowed: list[int]) -> Match | None:
    board = grid.board
    steps = _STEPS.get()

    def extend(path: list[int]) -> tuple[int, ...] | None:
        if steps is not None:
            steps.step()
        i = len(path)
        if i == len(word):
            return tuple(path)
        options = cells_of(allowed[0]) if i == 0 else board.neighbours[path[-1]]
        for cell in options:
            if cell in path or not allowed[i] >> cell & 1:
                continue
            found = extend([*path, cell])
            if found:
                return found
        return None

    path = extend([])
    if path is None:
        return None
    return Match(word, "".join(grid.letters[c] for c in path), path)
