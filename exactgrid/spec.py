"""Requirements of a fit question: which words must (or must not) appear, and how.

A fit question is a :class:`FitSpec`: the puzzle (shape, move rule, path rule, budget), the
words that must appear (each with its alteration pinned down or not), words that must not
appear at all, fixed cells, and optional weighted words with a minimum total weight and/or
count. It is read from CLI words (``ILLINOIS``, ``ILLINOIS:exact``, ``ILLINOIS:2``,
``ILLINOIS:2=N``, ``ILLINOIS=INLINOIS``) or from a TOML instance file.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from .finder import PATH_RULES, PathRule
from .geometry import MOVE_RULES, Board, ShapeError, parse_shape
from .words import UnknownWordError, WordList, us_states

Mode = Literal["anywhere", "exact", "position", "spelled"]


class SpecError(ValueError):
    """A requirement or instance file that cannot be understood or cannot make sense."""


@dataclass(frozen=True)
class Requirement:
    """One word that must appear, and how it may be spelled.

    ``anywhere``: within the puzzle's alteration budget (the puzzle's own rule);
    ``exact``: no letter altered; ``position``: exactly the letter at 0-based ``position``
    altered (to ``letter`` when given, else to any other letter), the rest exact;
    ``spelled``: spelled exactly as ``spelled``.
    """

    word: str
    mode: Mode = "anywhere"
    position: int | None = None
    letter: str | None = None
    spelled: str | None = None

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
        for i, ch in enumerate(self.word):
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
            assert self.position is not None
            tail = f"={self.letter}" if self.letter else ""
            return f"{self.word}:{self.position + 1}{tail}"
        return self.word


@dataclass(frozen=True)
class FitSpec:
    """A complete fit question."""

    board: Board = field(default_factory=Board)
    budget: int = 1
    path_rule: PathRule = "walk"
    required: tuple[Requirement, ...] = ()
    forbidden: tuple[str, ...] = ()
    fixed: Mapping[int, str] = field(default_factory=dict)
    optional: Mapping[str, int] = field(default_factory=dict)
    min_score: int | None = None
    min_count: int | None = None
    words: WordList = field(default_factory=us_states)
    symmetry_breaking: bool = False

    @property
    def required_words(self) -> tuple[str, ...]:
        """The required words, in order."""
        return tuple(r.word for r in self.required)

    def scoring_weights(self) -> dict[str, int]:
        """Weights that count towards ``min_score`` / ``min_count``: optional and required words."""
        weights = dict(self.optional)
        for word in self.required_words:
            weights[word] = self.words.weight(word) if word in self.words else 0
        return weights


def _validate_pinned(req: Requirement, budget: int) -> None:
    word = req.word
    if req.mode == "position":
        assert req.position is not None
        if not 0 <= req.position < len(word):
            raise SpecError(
                f"{word}: position {req.position + 1} is out of range 1..{len(word)}"
            )
        if req.letter is not None and req.letter == word[req.position]:
            raise SpecError(
                f"{word}: letter {req.position + 1} is already {req.letter}; that is not an alteration"
            )
    if req.mode == "spelled":
        assert req.spelled is not None
        if len(req.spelled) != len(word):
            raise SpecError(
                f"{word}={req.spelled}: a spelled form must have {len(word)} letters "
                "(only substitutions are allowed)"
            )
        distance = sum(a != b for a, b in zip(word, req.spelled, strict=True))
        if distance > budget:
            raise SpecError(
                f"{word}={req.spelled} alters {distance} letters; the budget allows {budget}"
            )
    if req.mode in ("position",) and budget < 1:
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
        req = Requirement(word, "position", position=int(how) - 1, letter=letter)
    else:
        raise SpecError(
            f"cannot read requirement {text!r}: after ':' put exact, any, or a 1-based position"
        )
    _validate_pinned(req, budget)
    return req


def _letters(text: str, context: str) -> str:
    letters = text.strip().upper()
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
    rows = [re.sub(r"\s", "", r) for r in re.split(r"[/\n]", text) if r.strip()]
    if len(rows) != board.rows or any(len(r) != board.cols for r in rows):
        raise SpecError(
            f"fixed cells must be {board.rows} rows of {board.cols} characters "
            f"(letters or '.'), got {len(rows)} row(s) of widths {sorted({len(r) for r in rows})}"
        )
    fixed = {}
    for r, row in enumerate(rows):
        for c, ch in enumerate(row.upper()):
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


def build_spec(
    *,
    requirements: Iterable[str] = (),
    forbid: Iterable[str] = (),
    cells: str | None = None,
    optional: Iterable[str] = (),
    min_score: int | None = None,
    min_count: int | None = None,
    shape: str | tuple[int, int] = (5, 5),
    moves: str = "king",
    path_rule: str = "walk",
    budget: int = 1,
    words: WordList | None = None,
    symmetry_breaking: bool = False,
    fixed: Mapping[int, str] | None = None,
) -> FitSpec:
    """Build and validate a FitSpec from user-level words (as the CLI and TOML files give them).

    ``optional`` may contain ``all`` for every word on the list. ``fixed`` ({cell: letter})
    is merged with ``cells``; the two must agree. Raises SpecError with a one-line message.
    """
    words = words or us_states()
    try:
        rows, cols = parse_shape(shape) if isinstance(shape, str) else shape
        if moves not in MOVE_RULES:
            raise SpecError(f"unknown move rule {moves!r}; choose from {', '.join(MOVE_RULES)}")
        board = Board(rows, cols, moves)  # type: ignore[arg-type]
    except ShapeError as err:
        raise SpecError(str(err)) from None
    if path_rule not in PATH_RULES:
        raise SpecError(f"unknown path rule {path_rule!r}; choose from {', '.join(PATH_RULES)}")
    if not isinstance(budget, int) or budget < 0:
        raise SpecError(f"the alteration budget must be a whole number >= 0, got {budget!r}")
    reqs = tuple(parse_requirement(t, words, budget) for t in requirements)
    seen: set[str] = set()
    for req in reqs:
        if req.word in seen:
            raise SpecError(f"{req.word} is required twice; give it once")
        seen.add(req.word)
    forbidden = tuple(dict.fromkeys(_resolve(words, f) for f in forbid))
    clash = seen & set(forbidden)
    if clash:
        raise SpecError(f"{', '.join(sorted(clash))} is both required and forbidden")
    opt: dict[str, int] = {}
    for name in optional:
        if name.strip().lower() == "all":
            opt.update(words.weights)
        else:
            word = _resolve(words, name)
            opt[word] = words.weight(word)
    for word in list(opt):
        if word in seen or word in forbidden:
            del opt[word]
    if min_score is not None and min_score < 0:
        raise SpecError(f"--min-score must be >= 0, got {min_score}")
    if min_count is not None and min_count < 0:
        raise SpecError(f"--min-count must be >= 0, got {min_count}")
    fixed = merge_fixed(board, dict(fixed or {}), parse_cells(cells, board) if cells else {})
    if fixed and symmetry_breaking:
        raise SpecError("symmetry breaking needs a grid with no fixed cells")
    return FitSpec(
        board=board,
        budget=budget,
        path_rule=path_rule,  # type: ignore[arg-type]
        required=reqs,
        forbidden=forbidden,
        fixed=fixed,
        optional=opt,
        min_score=min_score,
        min_count=min_count,
        words=words,
        symmetry_breaking=symmetry_breaking,
    )


_TOML_KEYS = {
    "shape", "moves", "path", "budget", "require", "forbid", "cells", "optional",
    "min_score", "min_count", "symmetry_breaking", "name", "description", "expect",
}


def load_instance(path: str | Path) -> tuple[FitSpec, dict]:
    """Read a TOML instance file into a FitSpec; also return the raw table (for ``expect``).

    Keys: ``shape = "5x5"``, ``moves``, ``path``, ``budget``, ``require = ["ILLINOIS:2", ...]``,
    ``forbid = [...]``, ``cells = ["P....", ...]`` (or one string), ``optional = ["all"]``,
    ``min_score``, ``min_count``, ``symmetry_breaking``, plus free ``name``, ``description``
    and ``expect`` ("fits" / "does not fit") for benchmarks.
    """
    path = Path(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise SpecError(f"{path}: no such file") from None
    except tomllib.TOMLDecodeError as err:
        raise SpecError(f"{path}: not valid TOML: {err}") from None
    unknown = set(data) - _TOML_KEYS
    if unknown:
        raise SpecError(f"{path}: unknown key(s) {', '.join(sorted(unknown))}")
    cells = data.get("cells")
    if isinstance(cells, list):
        cells = "/".join(cells)
    try:
        spec = build_spec(
            requirements=_str_list(data, "require", path),
            forbid=_str_list(data, "forbid", path),
            cells=cells,
            optional=_str_list(data, "optional", path),
            min_score=data.get("min_score"),
            min_count=data.get("min_count"),
            shape=str(data.get("shape", "5x5")),
            moves=str(data.get("moves", "king")),
            path_rule=str(data.get("path", "walk")),
            budget=data.get("budget", 1),
            symmetry_breaking=bool(data.get("symmetry_breaking", False)),
        )
    except SpecError as err:
        raise SpecError(f"{path}: {err}") from None
    return spec, data


def _str_list(data: dict, key: str, path: Path) -> list[str]:
    value = data.get(key, [])
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise SpecError(f"{path}: {key} must be a list of strings")
    return value
