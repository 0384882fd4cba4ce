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
from typing import Any, Literal

from .finder import PATH_RULES, PathRule
from .geometry import MOVE_RULES, Board, ShapeError, parse_shape
from .inputs import InputError, ascii_upper, check_flag, check_text, check_whole, read_text_file
from .words import UnknownWordError, WordList, us_states

Mode = Literal["anywhere", "exact", "position", "spelled"]


class SpecError(InputError):
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


def build_spec(
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
    words: WordList | None = None,
    symmetry_breaking: bool = False,
    fixed: Mapping[int, str] | None = None,
) -> FitSpec:
    """Build and validate a FitSpec from user-level words (as the CLI and TOML files give them).

    ``optional`` may contain ``all`` for every word on the list. ``cells`` is one text of
    rows (see :func:`parse_cells`) or several, merged with ``fixed`` ({cell: letter}); they
    must all agree. Raises an InputError (SpecError, ...) with a one-line message.
    """
    words = words or us_states()
    try:
        rows, cols = parse_shape(check_text(shape, "shape")) if not isinstance(shape, tuple) else shape
        if moves not in MOVE_RULES:
            raise SpecError(f"unknown move rule {moves!r}; choose from {', '.join(MOVE_RULES)}")
        board = Board(rows, cols, moves)  # type: ignore[arg-type]
    except ShapeError as err:
        raise SpecError(str(err)) from None
    if path_rule not in PATH_RULES:
        raise SpecError(f"unknown path rule {path_rule!r}; choose from {', '.join(PATH_RULES)}")
    budget = words.check_budget(budget)
    symmetry_breaking = check_flag(symmetry_breaking, "symmetry_breaking")
    if min_score is not None:
        check_whole(min_score, "min_score")
    if min_count is not None:
        check_whole(min_count, "min_count")
    reqs = tuple(parse_requirement(check_text(t, "a requirement"), words, budget) for t in requirements)
    seen: set[str] = set()
    for req in reqs:
        if req.word in seen:
            raise SpecError(f"{req.word} is required twice; give it once")
        seen.add(req.word)
    forbidden = tuple(dict.fromkeys(_resolve(words, check_text(f, "a forbidden word")) for f in forbid))
    if not reqs and not forbidden and min_score is None and min_count is None:
        raise SpecError("the question asks nothing: give at least one REQUIREMENT, a forbidden word, "
                        "or a minimum score or count")
    clash = seen & set(forbidden)
    if clash:
        raise SpecError(f"{', '.join(sorted(clash))} is both required and forbidden")
    opt: dict[str, int] = {}
    for name in optional:
        if check_text(name, "an optional word").strip().lower() == "all":
            opt.update(words.weights)
        else:
            word = _resolve(words, name)
            opt[word] = words.weight(word)
    for word in list(opt):
        if word in seen or word in forbidden:
            del opt[word]
    fixed = dict(fixed or {})
    for text in [cells] if isinstance(cells, str) else cells or ():
        fixed = merge_fixed(board, fixed, parse_cells(check_text(text, "cells"), board))
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
EXPECTS = ("fits", "does not fit")


def read_instance(path: str | Path) -> dict[str, Any]:
    """Read and type-check a TOML instance file: the keyword arguments of :func:`build_spec`.

    See :func:`instance_arguments` for the keys.
    """
    return instance_arguments(_read_toml(path), str(path))


def _read_toml(path: str | Path) -> dict[str, Any]:
    try:
        return tomllib.loads(read_text_file(path, "instance file"))
    except tomllib.TOMLDecodeError as err:
        raise SpecError(f"{path}: not valid TOML: {err}") from None


def instance_arguments(data: dict[str, Any], path: str = "<instance>") -> dict[str, Any]:
    """An instance table, type-checked, as the keyword arguments of :func:`build_spec`.

    Keys: ``shape = "5x5"``, ``moves``, ``path``, ``budget``, ``require = ["ILLINOIS:2", ...]``,
    ``forbid = [...]``, ``cells = ["P....", ...]`` (or one string), ``optional = ["all"]``,
    ``min_score``, ``min_count``, ``symmetry_breaking`` (true/false), plus free ``name``,
    ``description`` and ``expect`` ("fits" / "does not fit") for benchmarks, which are checked
    but not returned. Every value is checked for type here; SpecError names the file and key.
    """
    unknown = set(data) - _TOML_KEYS
    if unknown:
        raise SpecError(f"{path}: unknown key(s) {', '.join(sorted(unknown))}; known: {', '.join(sorted(_TOML_KEYS))}")
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
            arguments["cells"] = "/".join(_str_list(data, "cells"))
        for key, name in (("shape", "shape"), ("moves", "moves"), ("path", "path_rule")):
            if key in data:
                arguments[name] = check_text(data[key], key)
        if "budget" in data:
            arguments["budget"] = check_whole(data["budget"], "budget")
        for key in ("min_score", "min_count"):
            if key in data:
                arguments[key] = check_whole(data[key], key)
        if "symmetry_breaking" in data:
            arguments["symmetry_breaking"] = check_flag(data["symmetry_breaking"], "symmetry_breaking")
    except InputError as err:
        raise SpecError(f"{path}: {err}") from None
    return arguments


def load_instance(path: str | Path) -> tuple[FitSpec, dict]:
    """Read a TOML instance file (see :func:`read_instance`) into a FitSpec; also return the
    raw table (for ``expect``)."""
    data = _read_toml(path)
    arguments = instance_arguments(data, str(path))
    try:
        spec = build_spec(**arguments)
    except InputError as err:
        raise SpecError(f"{path}: {err}") from None
    return spec, data


def _str_list(data: dict, key: str) -> list[str]:
    value = data.get(key, [])
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise SpecError(f"{key} must be a string or a list of strings, got {value!r}")
    return value
