"""One required word and how it may be spelled (:class:`Requirement`), and the user-level
syntax of requirements and cells: ``ILLINOIS``, ``ILLINOIS:exact``, ``ILLINOIS:2``,
``ILLINOIS:2=N``, ``ILLINOIS=INLINOIS`` (:func:`parse_requirement`) and rows of letters with
``.`` for free cells and ``[ABC]`` for a choice of letters (:func:`parse_cell_letters`)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from ..geometry import Board
from ..grid import empty_row_line
from ..inputs import (
    InputError,
    ascii_upper,
    check_text,
    check_whole,
    digits_value,
)
from ..wording import plural
from ..words import UnknownWordError, WordList, normalise_word

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
    exactgrid.question.requirement.SpecError: OHIO: position 9 is out of range 1..4
    """

    word: str
    mode: Mode = "anywhere"
    position: int | None = None
    letter: str | None = None
    spelled: str | None = None

    def __post_init__(self) -> None:
        text = check_text(self.word, "a required word")
        if ":" in text or "=" in text:  # the text form, which normalising would run together
            raise SpecError(f"{text!r} is a requirement's text form: give it to Question(required=[...]), "
                            "or its parts here, e.g. Requirement('OHIO', 'exact')")
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


def _sequence(value: Any, what: str) -> tuple[Any, ...]:
    if isinstance(value, str):
        return (value,)
    if isinstance(value, Mapping):  # a dict would give its keys alone, whatever its values said
        raise SpecError(f"{what} must be a list, got a {type(value).__name__}")
    try:
        return tuple(value)
    except TypeError:
        raise SpecError(f"{what} must be a list, got {value!r}") from None


def _check_budget(req: Requirement, budget: int) -> None:
    """The checks of a requirement that depend on the puzzle's budget."""
    if req.mode == "spelled" and req.alterations > budget:
        raise SpecError(f"{req.word}={req.spelled} alters {plural(req.alterations, 'letter')}; "
                        f"the budget allows {budget}")
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
    elif re.fullmatch(r"[0-9]+", how):
        letter = _letters(spelled, text) if spelled is not None else None
        if letter is not None and len(letter) != 1:
            raise SpecError(f"{text!r}: give one letter after '=', e.g. {word}:{how}=N")
        req = Requirement(word, "position", position=digits_value(how, "the position"), letter=letter)
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


CELL_TOKEN = re.compile(r"\[[^\]]*\]|.")
"""One cell of a row of cells: a letter, a free mark, or ``[...]``: the letters it may hold."""


def parse_cell_letters(text: str, board: Board) -> dict[int, str]:
    """Read cells: rows of tokens separated by newlines or ``/``, each a letter (the cell holds
    it), ``.`` (or ``?``, ``_``: the cell is free), or ``[ABC]`` (the cell holds one of these
    letters). Returns {cell: the letters it may hold, sorted} for every cell that is not free.

    >>> parse_cell_letters("A[CB]./.../[Z]..", Board(3, 3))
    {0: 'A', 1: 'BC', 6: 'Z'}
    """
    empty = empty_row_line(text)
    if empty is not None:
        raise SpecError(f"the cells {empty!r} have an empty row: two '/' with nothing between them "
                        "(a free cell is '.')")
    rows = [CELL_TOKEN.findall(re.sub(r"\s", "", r)) for r in re.split(r"[/\n]", ascii_upper(text, "cells"))
            if r.strip()]
    choices = {}
    for r, row in enumerate(rows):
        for c, token in enumerate(row):
            if token in ".?_":
                continue
            letters = token[1:-1] if len(token) > 1 else token
            if not re.fullmatch(r"[A-Z]+", letters):
                raise SpecError(f"cells: {token!r} at row {r + 1}, column {c + 1} is not a letter, '.' or [letters]")
            choices[r, c] = letters
    if len(rows) != board.rows or any(len(r) != board.cols for r in rows):
        widths = [len(r) for r in rows]
        got = ("no rows" if not rows else f"{plural(len(rows), 'row')} of {plural(widths[0], 'cell')}"
               if len(set(widths)) == 1 else f"{plural(len(rows), 'row')} of {', '.join(map(str, widths))} cells")
        raise SpecError(f"cells must be {plural(board.rows, 'row')} of {plural(board.cols, 'cell')} "
                        f"(a letter, '.' or [letters] each), got {got}")
    return {board.cell(r, c): "".join(sorted(set(letters))) for (r, c), letters in choices.items()}


def parse_cells(text: str, board: Board) -> dict[int, str]:
    """Read fixed cells: rows of letters with ``.`` (or ``?``, ``_``) for a free cell,
    separated by newlines or ``/``. Returns {cell: letter}. (A cell given as ``[ABC]`` is
    refused here: :func:`parse_cell_letters` reads those.)"""
    cells = parse_cell_letters(text, board)
    several = [c for c, letters in cells.items() if len(letters) > 1]
    if several:
        raise SpecError(f"fixed cells hold one letter each; {board.label(several[0])} is given "
                        f"[{cells[several[0]]}] (give letter choices as domains)")
    return cells


def show_letters(letters: str) -> str:
    """A cell's letters as the cell syntax writes them: ``A``, or ``[BC]`` for a choice."""
    return letters if len(letters) == 1 else f"[{letters}]"


def merge_cell_letters(board: Board, first: Mapping[int, str], second: Mapping[int, str]) -> dict[int, str]:
    """Two sets of cells ({cell: the letters it may hold}) as one: each cell given by both may
    hold the letters both allow; SpecError naming a cell they leave no letter."""
    merged = dict(first)
    for cell, letters in second.items():
        if cell in merged:
            both = "".join(sorted(set(merged[cell]) & set(letters)))
            if not both:
                raise SpecError(f"cells contradict each other at {board.label(cell)}: "
                                f"{show_letters(merged[cell])} and {show_letters(letters)}")
            letters = both
        merged[cell] = letters
    return merged


def merge_fixed(board: Board, first: Mapping[int, str], second: Mapping[int, str]) -> dict[int, str]:
    """Two sets of fixed cells as one; SpecError naming the cell where they disagree (a
    fixed cell is a choice of one letter: :func:`merge_cell_letters`)."""
    return merge_cell_letters(board, first, second)


