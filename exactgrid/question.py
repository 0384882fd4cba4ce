"""Fit questions: which words must (or must not) appear, and how; validated on construction.

A :class:`Question` is the puzzle (board, path rule, budget, word list), the words that must
appear (each a :class:`Requirement`, its alteration pinned down or not), words that must not
appear at all, fixed cells, and optional weighted words with a minimum total weight and/or
count. Every constructor checks what it is given and raises an :class:`~exactgrid.inputs.InputError`
with the same one-line message the CLI prints; a Question is frozen and hashable.

User-level text (``ILLINOIS``, ``ILLINOIS:exact``, ``ILLINOIS:2``, ``ILLINOIS:2=N``,
``ILLINOIS=INLINOIS``, rows of fixed cells) is read by :func:`parse_requirement`,
:func:`parse_cells` and :func:`build_question`; TOML instance files (and JSON lines with the
same keys) by :func:`load_instance` / :func:`question_from_table`, which also merge
overrides the way the CLI does (lists add, other options win).
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Literal

from .answer import Outcome
from .awards import Checklist, default_checklist, load_checklist
from .awards.chains import border_graph
from .data import BUILTIN_LISTS, word_list
from .data.us import us_states
from .finder import PATH_RULES, PathRule
from .geometry import MOVE_RULES, Board, ShapeError, parse_shape
from .inputs import (
    FrozenDict,
    InputError,
    ascii_upper,
    check_big,
    check_flag,
    check_text,
    check_whole,
    read_text_file,
)
from .words import UnknownWordError, WordList, normalise_word

Mode = Literal["anywhere", "exact", "position", "spelled"]
MODES: tuple[Mode, ...] = ("anywhere", "exact", "position", "spelled")


class SpecError(InputError):
    """A requirement, question or instance file that cannot be understood or cannot make sense."""


@dataclass(frozen=True)
class Requirement:
    """One word that must appear, and how it may be spelled.

    ``anywhere``: within the puzzle's alteration budget (the puzzle's own rule);
    ``exact``: no letter altered; ``position``: exactly letter number ``position`` (1-based,
    as on the command line: ``ILLINOIS:2``) altered, to ``letter`` when given, else to any
    other letter, the rest exact; ``spelled``: spelled exactly as ``spelled``.

    >>> Requirement("ILLINOIS", "position", position=2, letter="N").describe()
    'ILLINOIS:2=N'
    >>> Requirement("OHIO", "position", position=9)
    Traceback (most recent call last):
    ...
    exactgrid.question.SpecError: OHIO: position 9 is out of range 1..4
    """

    word: str
    mode: Mode = "anywhere"
    position: int | None = None
    letter: str | None = None
    spelled: str | None = None

    def __post_init__(self) -> None:
        text = check_text(self.word, "a required word")
        word = normalise_word(text)
        if not word or re.search(r"[0-9]", text):
            raise SpecError(f"a required word must be letters A-Z, got {text!r}")
        object.__setattr__(self, "word", word)
        if self.mode not in MODES:
            raise SpecError(f"{word}: unknown requirement mode {self.mode!r}; choose from {', '.join(MODES)}")
        if (self.position is not None) != (self.mode == "position"):
            raise SpecError(f"{word}: a position goes with mode 'position' (and that mode needs one)")
        if self.letter is not None and self.mode != "position":
            raise SpecError(f"{word}: a letter goes with mode 'position'")
        if (self.spelled is not None) != (self.mode == "spelled"):
            raise SpecError(f"{word}: a spelled form goes with mode 'spelled' (and that mode needs one)")
        if self.mode == "position":
            position = check_whole(self.position, f"{word}: the position")
            if not 1 <= position <= len(word):
                raise SpecError(f"{word}: position {position} is out of range 1..{len(word)}")
            if self.letter is not None:
                letter = _letters(check_text(self.letter, "a letter"), f"{word}:{position}")
                if len(letter) != 1:
                    raise SpecError(f"{word}:{position}: give one letter, e.g. {word}:{position}=N")
                if letter == word[position - 1]:
                    raise SpecError(f"{word}: letter {position} is already {letter}; that is not an alteration")
                object.__setattr__(self, "letter", letter)
        if self.mode == "spelled":
            spelled = _letters(check_text(self.spelled, "a spelled form"), f"{word}={self.spelled}")
            if len(spelled) != len(word):
                raise SpecError(f"{word}={spelled}: a spelled form must have {len(word)} letters "
                                "(only substitutions are allowed)")
            object.__setattr__(self, "spelled", spelled)

    @property
    def alterations(self) -> int:
        """Letters this requirement itself alters (0 for anywhere/exact, 1 for a position)."""
        if self.mode == "position":
            return 1
        if self.mode == "spelled":
            assert self.spelled is not None
            return sum(a != b for a, b in zip(self.word, self.spelled, strict=True))
        return 0

    def pattern(self) -> tuple[tuple[str, bool], ...] | None:
        """Per position ``(letter, must_equal)``; None for ``anywhere`` (budget-limited).

        ``must_equal`` False means "any letter but this one".
        """
        if self.mode == "anywhere":
            return None
        if self.mode == "exact":
            return tuple((ch, True) for ch in self.word)
        if self.mode == "spelled":
            assert self.spelled is not None
            return tuple((ch, True) for ch in self.spelled)
        assert self.position is not None
        out = []
        for i, ch in enumerate(self.word, 1):
            if i != self.position:
                out.append((ch, True))
            elif self.letter is not None:
                out.append((self.letter, True))
            else:
                out.append((ch, False))
        return tuple(out)

    def describe(self) -> str:
        """The requirement in the CLI's own words (``ILLINOIS:2=N``)."""
        if self.mode == "exact":
            return f"{self.word}:exact"
        if self.mode == "spelled":
            return f"{self.word}={self.spelled}"
        if self.mode == "position":
            tail = f"={self.letter}" if self.letter else ""
            return f"{self.word}:{self.position}{tail}"
        return self.word

    def __str__(self) -> str:
        return self.describe()


@dataclass(frozen=True)
class Chain:
    """A chain of found words from one of ``sources`` to one of ``targets``, each word linked
    to the next (``links``: unordered pairs of words). Coast-to-coast is a chain of US states
    from an east-coast state to a west-coast state over the border graph
    (:func:`chain_from_checklist`). A source that is also a target is a chain by itself.
    """

    sources: tuple[str, ...]
    targets: tuple[str, ...]
    links: frozenset[tuple[str, str]] = frozenset()
    label: str = "chain"

    def __post_init__(self) -> None:
        for name in ("sources", "targets"):
            value = getattr(self, name)
            if isinstance(value, str) or not all(isinstance(w, str) for w in value):
                raise SpecError(f"a chain's {name} must be a list of words, got {value!r}")
            if not value:
                raise SpecError(f"a chain needs at least one word in its {name}")
            object.__setattr__(self, name, tuple(value))
        links = set()
        for pair in self.links:
            a, b = pair
            if a == b:
                raise SpecError(f"a chain links two different words, not {a} with itself")
            links.add((min(a, b), max(a, b)))
        object.__setattr__(self, "links", frozenset(links))

    @property
    def nodes(self) -> tuple[str, ...]:
        """Every word the chain may use, sorted."""
        return tuple(sorted({*self.sources, *self.targets, *(w for pair in self.links for w in pair)}))

    def path(self, found: Iterable[str]) -> tuple[str, ...] | None:
        """A shortest chain through the ``found`` words (breadth-first), or None."""
        present = set(found)
        near: dict[str, list[str]] = {}
        for a, b in sorted(self.links):
            if a in present and b in present:
                near.setdefault(a, []).append(b)
                near.setdefault(b, []).append(a)
        starts = sorted(w for w in set(self.sources) if w in present)
        goals = set(self.targets)
        before: dict[str, str | None] = {w: None for w in starts}
        queue = list(starts)
        for word in queue:  # grows while it is read: breadth-first
            if word in goals:
                chain = [word]
                while before[chain[-1]] is not None:
                    chain.append(before[chain[-1]])  # type: ignore[arg-type]
                return tuple(reversed(chain))
            for other in near.get(word, ()):
                if other not in before:
                    before[other] = word
                    queue.append(other)
        return None

    def check_words(self, words: WordList) -> None:
        """Raise SpecError naming a word of the chain that is not in ``words``."""
        unknown = [w for w in self.nodes if w not in words]
        if unknown:
            raise SpecError(f"the chain {self.label} uses {', '.join(unknown[:5])}, not in the word list {words.name}")


@dataclass(frozen=True)
class Question:
    """A complete fit question, checked on construction (SpecError with a one-line message).

    ``required`` takes Requirements or CLI text (``"ILLINOIS:2"``); ``forbidden`` and the keys
    of ``optional`` take words as a user types them (``"New York"``, ``"NY"``); ``optional``
    may also be a list of words (weights from the word list) or ``"all"``; ``fixed`` is
    {cell: letter} or rows of text (``"O.O/.H./..."``). Everything is normalised to the
    list's words, tuples and read-only mappings, so that questions are hashable.

    >>> q = Question(Board(3, 3), required=["OHIO", "UTAH=ATAH"], forbidden=["Texas"])
    >>> q.required_words, q.forbidden
    (('OHIO', 'UTAH'), ('TEXAS',))
    """

    board: Board = field(default_factory=Board)
    budget: int = 1
    path_rule: PathRule = "walk"
    required: tuple[Requirement, ...] = ()
    forbidden: tuple[str, ...] = ()
    fixed: Mapping[int, str] = field(default_factory=FrozenDict)
    optional: Mapping[str, int] = field(default_factory=FrozenDict)
    min_score: int | None = None
    min_count: int | None = None
    words: WordList = field(default_factory=us_states)
    symmetry_breaking: bool = False
    chains: tuple[Chain, ...] = ()

    def __post_init__(self) -> None:
        try:
            self._check_and_normalise()
        except SpecError:
            raise
        except InputError as err:  # one error type for a question, whatever check failed
            raise SpecError(str(err)) from None

    def _check_and_normalise(self) -> None:
        if not isinstance(self.board, Board):
            raise SpecError(f"board must be a Board, got {self.board!r}")
        if not isinstance(self.words, WordList):
            raise SpecError(f"words must be a WordList, got {self.words!r}")
        words = self.words
        budget = words.check_budget(self.budget)
        if self.path_rule not in PATH_RULES:
            raise SpecError(f"unknown path rule {self.path_rule!r}; choose from {', '.join(PATH_RULES)}")
        check_flag(self.symmetry_breaking, "symmetry_breaking")
        for key in ("min_score", "min_count"):
            if getattr(self, key) is not None:
                check_big(getattr(self, key), key)
        required = tuple(self._requirement(r, budget) for r in _sequence(self.required, "required"))
        seen: set[str] = set()
        for req in required:
            if req.word in seen:
                raise SpecError(f"{req.word} is required twice; give it once")
            seen.add(req.word)
        forbidden = tuple(dict.fromkeys(_resolve(words, check_text(f, "a forbidden word"))
                                        for f in _sequence(self.forbidden, "forbidden")))
        clash = seen & set(forbidden)
        if clash:
            raise SpecError(f"{', '.join(sorted(clash))} is both required and forbidden")
        optional = {w: v for w, v in self._optional().items() if w not in seen and w not in forbidden}
        fixed = self._fixed()
        chains = _sequence(self.chains, "chains")
        for chain in chains:
            if not isinstance(chain, Chain):
                raise SpecError(f"chains must be Chain values, got {chain!r}")
            chain.check_words(words)
        if fixed and self.symmetry_breaking:
            raise SpecError("symmetry breaking needs a grid with no fixed cells")
        for name, value in (("budget", budget), ("required", required), ("forbidden", forbidden),
                            ("optional", FrozenDict(optional)), ("fixed", fixed), ("chains", chains)):
            object.__setattr__(self, name, value)

    def _requirement(self, req: Requirement | str, budget: int) -> Requirement:
        if isinstance(req, str):
            return parse_requirement(req, self.words, budget)
        if not isinstance(req, Requirement):
            raise SpecError(f"a requirement must be a Requirement or text like 'OHIO:2', got {req!r}")
        word = _resolve(self.words, req.word)
        if word != req.word:
            req = replace(req, word=word)
        _check_budget(req, budget)
        return req

    def _optional(self) -> dict[str, int]:
        given = self.optional
        if isinstance(given, str):
            given = [given]
        out: dict[str, int] = {}
        if isinstance(given, Mapping):
            listed = self.words.weights
            for name, weight in given.items():
                word = name if name in listed else _resolve(self.words, check_text(name, "an optional word"))
                out[word] = check_big(weight, f"the weight of optional {name}")
            return out
        for name in _sequence(given, "optional"):
            if check_text(name, "an optional word").strip().lower() == "all":
                out.update(self.words.weights)
            else:
                word = _resolve(self.words, name)
                out[word] = self.words.weight(word)
        return out

    def _fixed(self) -> FrozenDict[int, str]:
        given = self.fixed
        if isinstance(given, str):
            return FrozenDict(parse_cells(given, self.board))
        if not isinstance(given, Mapping):
            raise SpecError(f"fixed cells must be {{cell: letter}} or rows of text, got {given!r}")
        fixed = {}
        for cell, letter in sorted(given.items()):
            if isinstance(cell, bool) or not isinstance(cell, int) or not 0 <= cell < self.board.size:
                raise SpecError(f"fixed cell {cell!r} is not a cell of the board (0..{self.board.size - 1})")
            if not isinstance(letter, str) or not re.fullmatch(r"[A-Z]", letter):
                raise SpecError(f"fixed cell {self.board.label(cell)} must hold one letter A-Z, got {letter!r}")
            fixed[cell] = letter
        return FrozenDict(fixed)

    @property
    def required_words(self) -> tuple[str, ...]:
        """The required words, in order."""
        return tuple(r.word for r in self.required)

    @property
    def asks_something(self) -> bool:
        """Whether the question constrains anything (a requirement, a forbid, a target)."""
        return bool(self.required or self.forbidden or self.chains
                    or self.min_score is not None or self.min_count is not None)

    def scoring_weights(self) -> dict[str, int]:
        """Weights that count towards ``min_score`` / ``min_count``: optional and required words."""
        weights = dict(self.optional)
        for word in self.required_words:
            weights[word] = self.words.weight(word) if word in self.words else 0
        return weights

    def but(self, **changes: Any) -> Question:
        """A copy with some fields changed, checked again (``q.but(fixed={0: "O"})``)."""
        return replace(self, **changes)


def choose_checklist(checklist: Checklist | str | Path | None = None, awards: Iterable[str] = ()) -> Checklist | None:
    """The checklist asked for: a Checklist, a TOML file, or (None) the default Altered States 2
    awards; narrowed to the item keys in ``awards`` when given. None when neither is given."""
    awards = tuple(awards)
    if checklist is None and not awards:
        return None
    if checklist is None:
        chosen = default_checklist()
    elif isinstance(checklist, Checklist):
        chosen = checklist
    else:
        chosen = load_checklist(checklist)
    return chosen.select(awards) if awards else chosen


def checklist_question(question: Question, checklist: Checklist, water_borders: bool | None = None) -> Question:
    """``question`` with the items of ``checklist`` as hard constraints, exactly: a required item
    requires its states, a forbidden item forbids them, ``min_states`` and ``min_score`` become
    ``min_count`` and ``min_score`` (over every word of the list: optional becomes "all"), and a
    chain item (coast-to-coast) becomes a :class:`Chain` over the US border graph (land borders,
    plus water-only pairs when ``water_borders`` or the checklist or item says so).

    Raises SpecError when the items contradict each other or the question (a state both
    required and forbidden) or name states the question's word list does not hold.
    """
    water = checklist.water_borders if water_borders is None else water_borders
    required = list(question.required)
    have = set(question.required_words)
    forbidden = list(question.forbidden)
    chains = list(question.chains)
    min_count, min_score = question.min_count, question.min_score
    for item in checklist.items:
        if item.kind == "required":
            for word in item.states:
                if word not in have:
                    required.append(Requirement(word))
                    have.add(word)
        elif item.kind == "forbidden":
            forbidden += [w for w in item.states if w not in forbidden]
        elif item.kind == "min_states":
            min_count = max(min_count or 0, item.threshold)
        elif item.kind == "min_score":
            min_score = max(min_score or 0, item.threshold)
        elif item.kind == "chain" and item.chain is not None:
            use_water = item.chain.water if item.chain.water is not None else water
            links = frozenset(border_graph(use_water).edges)
            chains.append(Chain(item.chain.sources, item.chain.targets, links, label=item.key))
    counts = min_count is not None or min_score is not None
    optional = "all" if counts and not question.optional else question.optional
    return question.but(required=tuple(required), forbidden=tuple(forbidden), chains=tuple(chains),
                        min_count=min_count, min_score=min_score, optional=optional)


def _sequence(value: Any, what: str) -> tuple[Any, ...]:
    if isinstance(value, str):
        return (value,)
    try:
        return tuple(value)
    except TypeError:
        raise SpecError(f"{what} must be a list, got {value!r}") from None


def _check_budget(req: Requirement, budget: int) -> None:
    """The checks of a requirement that depend on the puzzle's budget."""
    if req.mode == "spelled" and req.alterations > budget:
        raise SpecError(f"{req.word}={req.spelled} alters {req.alterations} letters; the budget allows {budget}")
    if req.mode == "position" and budget < 1:
        raise SpecError(f"{req.describe()}: an alteration needs a budget of at least 1")


def parse_requirement(text: str, words: WordList, budget: int = 1) -> Requirement:
    """Read one CLI requirement: ``WORD``, ``WORD:exact``, ``WORD:any``, ``WORD:N``,
    ``WORD:N=L`` (letter N altered, to L) or ``WORD=SPELLED``."""
    raw = text.strip()
    match = re.fullmatch(r"([^:=]+)(?::([^=]+))?(?:=(.+))?", raw)
    if not match:
        raise SpecError(f"cannot read requirement {text!r}; try WORD, WORD:exact, WORD:2, WORD=SPELLED")
    name, how, spelled = match.groups()
    word = _resolve(words, name)
    how = how.strip().lower() if how else None
    if how is None and spelled is None:
        req = Requirement(word)
    elif how is None:
        req = Requirement(word, "spelled", spelled=_letters(spelled, text))
    elif how in ("exact", "any", "anywhere"):
        if spelled is not None:
            raise SpecError(f"cannot read requirement {text!r}: '=' goes with a position")
        req = Requirement(word, "exact" if how == "exact" else "anywhere")
    elif how.isdigit():
        letter = _letters(spelled, text) if spelled is not None else None
        if letter is not None and len(letter) != 1:
            raise SpecError(f"{text!r}: give one letter after '=', e.g. {word}:{how}=N")
        req = Requirement(word, "position", position=int(how), letter=letter)
    else:
        raise SpecError(
            f"cannot read requirement {text!r}: after ':' put exact, any, or a 1-based position"
        )
    _check_budget(req, budget)
    return req


def _letters(text: str, context: str) -> str:
    letters = ascii_upper(text.strip(), f"{context!r}")
    if not re.fullmatch(r"[A-Z]+", letters):
        raise SpecError(f"{context!r}: {text!r} must be letters A-Z")
    return letters


def _resolve(words: WordList, name: str) -> str:
    try:
        return words.resolve(name)
    except UnknownWordError as err:
        raise SpecError(str(err)) from None


def parse_cells(text: str, board: Board) -> dict[int, str]:
    """Read fixed cells: rows of letters with ``.`` (or ``?``, ``_``) for a free cell,
    separated by newlines or ``/``. Returns {cell: letter}."""
    rows = [re.sub(r"\s", "", r) for r in re.split(r"[/\n]", ascii_upper(text, "fixed cells")) if r.strip()]
    if len(rows) != board.rows or any(len(r) != board.cols for r in rows):
        raise SpecError(
            f"fixed cells must be {board.rows} rows of {board.cols} characters "
            f"(letters or '.'), got {len(rows)} row(s) of widths {sorted({len(r) for r in rows})}"
        )
    fixed = {}
    for r, row in enumerate(rows):
        for c, ch in enumerate(row):
            if ch in ".?_":
                continue
            if not "A" <= ch <= "Z":
                raise SpecError(f"fixed cells: {ch!r} at row {r + 1}, column {c + 1} is not a letter or '.'")
            fixed[board.cell(r, c)] = ch
    return fixed


def merge_fixed(board: Board, first: Mapping[int, str], second: Mapping[int, str]) -> dict[int, str]:
    """Two sets of fixed cells as one; SpecError naming the cell where they disagree."""
    merged = dict(first)
    for cell, letter in second.items():
        if merged.get(cell, letter) != letter:
            raise SpecError(f"fixed cells contradict each other at {board.label(cell)}: {merged[cell]} and {letter}")
        merged[cell] = letter
    return merged


def build_question(
    *,
    requirements: Iterable[str] = (),
    forbid: Iterable[str] = (),
    cells: str | Iterable[str] | None = None,
    optional: Iterable[str] = (),
    min_score: int | None = None,
    min_count: int | None = None,
    shape: str | tuple[int, int] = (5, 5),
    moves: str = "king",
    path_rule: str = "walk",
    budget: int = 1,
    words: WordList | str | Path | None = None,
    symmetry_breaking: bool = False,
    fixed: Mapping[int, str] | None = None,
    allow_empty: bool = False,
) -> Question:
    """A Question from user-level words, as the CLI and instance files give them.

    ``optional`` may contain ``all`` for every word on the list. ``cells`` is one text of
    rows (see :func:`parse_cells`) or several, merged with ``fixed`` ({cell: letter}); they
    must all agree. ``words`` is a WordList, ``"us-states"`` or a word-list file. A question
    that asks nothing (no requirement, forbid or target) is refused unless ``allow_empty`` (solve
    asks for the best grid of any question, and awards may add constraints later): it is a
    mistake at the door of ``fit``, though a valid (trivial) :class:`Question` in the library.
    """
    words = word_list(words)
    try:
        rows, cols = parse_shape(check_text(shape, "shape")) if not isinstance(shape, tuple) else shape
        if moves not in MOVE_RULES:
            raise SpecError(f"unknown move rule {moves!r}; choose from {', '.join(MOVE_RULES)}")
        board = Board(rows, cols, moves)  # type: ignore[arg-type]
    except ShapeError as err:
        raise SpecError(str(err)) from None
    merged = dict(fixed or {})
    for text in [cells] if isinstance(cells, str) else cells or ():
        merged = merge_fixed(board, merged, parse_cells(check_text(text, "cells"), board))
    question = Question(
        board=board, budget=budget, path_rule=path_rule,  # type: ignore[arg-type]
        required=tuple(check_text(t, "a requirement") for t in requirements),
        forbidden=tuple(check_text(f, "a forbidden word") for f in forbid),
        fixed=merged, optional=tuple(optional), min_score=min_score, min_count=min_count,
        words=words, symmetry_breaking=symmetry_breaking,
    )
    if not question.asks_something and not allow_empty:
        raise SpecError(ASKS_NOTHING)
    return question


ASKS_NOTHING = ("the question asks nothing: give at least one REQUIREMENT, a forbidden word, an award, "
                "or a minimum score or count")


Verdict = Outcome
"""The old name of :class:`~exactgrid.answer.Outcome` (a fit question's answers are three of its values)."""


@dataclass(frozen=True)
class Instance:
    """A question read from an instance file (or a table with the same keys), with its label."""

    question: Question
    name: str = ""
    description: str = ""
    expect: Verdict | None = None
    """What the file says the answer is (benchmarks check it); None when it says nothing."""
    source: str = ""


TABLE_KEYS = frozenset({
    "shape", "moves", "path", "budget", "require", "forbid", "cells", "optional", "words",
    "min_score", "min_count", "symmetry_breaking", "name", "description", "expect",
})
"""The keys of an instance table (a TOML file, or one JSON line of ``fit-many``)."""
EXPECTS = (Verdict.FITS.value, Verdict.DOES_NOT_FIT.value)
LIST_ARGUMENTS = ("requirements", "forbid", "optional", "cells")
"""Arguments of :func:`build_question` that overrides add to; other overrides replace."""


def merge_arguments(base: Mapping[str, Any], overrides: Mapping[str, Any]) -> dict[str, Any]:
    """Arguments of :func:`build_question` from a base (an instance) and overrides (the command
    line): requirements, forbids, optional words and cells add up; any other override wins."""
    merged = dict(base)
    for key, value in overrides.items():
        if key in LIST_ARGUMENTS:
            merged[key] = [*_as_list(merged.get(key)), *_as_list(value)]
        else:
            merged[key] = value
    return merged


def _as_list(value: Any) -> list[Any]:
    if value is None:
        return []
    return [value] if isinstance(value, str) else list(value)


def table_arguments(data: Mapping[str, Any], source: str = "<instance>",
                    directory: Path | None = None) -> dict[str, Any]:
    """An instance table, type-checked, as the keyword arguments of :func:`build_question`.

    Keys: ``shape = "5x5"``, ``moves``, ``path``, ``budget``, ``require = ["ILLINOIS:2", ...]``,
    ``forbid = [...]``, ``cells = ["P....", ...]`` (or one string), ``optional = ["all"]``,
    ``min_score``, ``min_count``, ``symmetry_breaking`` (true/false), ``words`` (``us-states``
    or a word-list file, relative to ``directory``), plus ``name``, ``description`` and
    ``expect`` ("fits" / "does not fit"), which are checked but not returned. SpecError
    names the source and key.
    """
    if not isinstance(data, Mapping):
        raise SpecError(f"{source}: an instance must be a table of keys, got {data!r}")
    unknown = set(data) - TABLE_KEYS
    if unknown:
        raise SpecError(f"{source}: unknown key(s) {', '.join(sorted(map(str, unknown)))}; "
                        f"known: {', '.join(sorted(TABLE_KEYS))}")
    try:
        for key in ("name", "description"):
            if key in data:
                check_text(data[key], key)
        if "expect" in data and data["expect"] not in EXPECTS:
            raise SpecError(f"expect must be one of {', '.join(map(repr, EXPECTS))}, got {data['expect']!r}")
        arguments: dict[str, Any] = {
            "requirements": _str_list(data, "require"),
            "forbid": _str_list(data, "forbid"),
            "optional": _str_list(data, "optional"),
        }
        if "cells" in data:
            arguments["cells"] = ["/".join(_str_list(data, "cells"))]
        for key, name in (("shape", "shape"), ("moves", "moves"), ("path", "path_rule")):
            if key in data:
                arguments[name] = check_text(data[key], key)
        if "words" in data:
            name = check_text(data["words"], "words")
            if name.lower() not in BUILTIN_LISTS and directory is not None:
                name = str(directory / name)
            arguments["words"] = name
        if "budget" in data:
            arguments["budget"] = check_whole(data["budget"], "budget")
        for key in ("min_score", "min_count"):
            if key in data:
                arguments[key] = check_big(data[key], key)
        if "symmetry_breaking" in data:
            arguments["symmetry_breaking"] = check_flag(data["symmetry_breaking"], "symmetry_breaking")
    except InputError as err:
        raise SpecError(f"{source}: {err}") from None
    return arguments


def question_from_table(data: Mapping[str, Any], source: str = "<instance>", directory: Path | None = None,
                        **overrides: Any) -> Instance:
    """An :class:`Instance` from a table of instance keys (see :func:`table_arguments`), with
    ``overrides`` (arguments of :func:`build_question`) merged in by :func:`merge_arguments`."""
    arguments = merge_arguments(table_arguments(data, source, directory), overrides)
    try:
        question = build_question(**arguments)
    except InputError as err:
        raise SpecError(f"{source}: {err}") from None
    expect = Verdict(data["expect"]) if "expect" in data else None
    return Instance(question, data.get("name", ""), data.get("description", ""), expect, source)


def load_instance(path: str | Path, **overrides: Any) -> Instance:
    """Read a TOML instance file (keys: :func:`table_arguments`) into an :class:`Instance`;
    ``overrides`` (arguments of :func:`build_question`) are merged as the CLI merges its options:
    requirements, forbids, optional words and cells add to the file's, anything else wins.
    """
    text = read_text_file(path, "instance file")
    try:
        data = tomllib.loads(text)
    except ValueError as err:  # TOMLDecodeError, or an integer of more than 4,300 digits
        raise SpecError(f"{path}: not valid TOML: {err}") from None
    return question_from_table(data, str(path), Path(path).parent, **overrides)


def _str_list(data: Mapping[str, Any], key: str) -> list[str]:
    value = data.get(key, [])
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise SpecError(f"{key} must be a string or a list of strings, got {value!r}")
    return value
