"""The fit question itself: :class:`Question` (board, rules, required and forbidden words,
fixed cells and letter domains, targets, chains), validated on construction, frozen and hashable."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from ..answer import Outcome
from ..data.us import us_states
from ..finder import PATH_RULES, PathRule
from ..geometry import Board
from ..inputs import (
    FrozenDict,
    InputError,
    check_big,
    check_flag,
    check_text,
    plain_int,
)
from ..words import WordList
from .requirement import (
    Requirement,
    SpecError,
    _check_budget,
    _resolve,
    _sequence,
    merge_cell_letters,
    parse_cell_letters,
    parse_requirement,
    show_letters,
)


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
            if not isinstance(value, str) and isinstance(value, Iterable):
                value = tuple(value)
            if not isinstance(value, tuple) or not all(isinstance(w, str) for w in value):
                raise SpecError(f"a chain's {name} must be a list of words, got {value!r}")
            if not value:
                raise SpecError(f"a chain needs at least one word in its {name}")
            object.__setattr__(self, name, tuple(value))
        links = set()
        if isinstance(self.links, str) or not isinstance(self.links, Iterable):
            raise SpecError(f"a chain's links must be pairs of words, got {self.links!r}")
        for pair in self.links:
            if (isinstance(pair, str) or not isinstance(pair, Iterable) or len(pair := tuple(pair)) != 2
                    or not all(isinstance(w, str) for w in pair)):
                raise SpecError(f"a chain's link is a pair of words, such as ('OHIO', 'INDIANA'), got {pair!r}")
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
    may also be a list of words (weights from the word list) or ``"all"``, and a question with
    ``min_score`` or ``min_count`` and no optional word makes every word optional (its target
    counts every word of the list, as ``solve``'s and ``bound``'s do); ``fixed`` is
    {cell: letter} or rows of text (``"O.O/.H./..."``). ``domains`` limits cells to a choice
    of letters: {cell: letters} (``{4: "HO"}``); in rows of text a choice is written
    ``[HO]``, in ``fixed`` or ``domains`` alike. A choice of one letter is a fixed cell, and a
    cell given both ways holds the letters both allow. Everything is normalised to the list's
    words, tuples and read-only mappings, so that questions are hashable.

    >>> q = Question(Board(3, 3), required=["OHIO", "UTAH=ATAH"], forbidden=["Texas"])
    >>> q.required_words, q.forbidden
    (('OHIO', 'UTAH'), ('TEXAS',))
    >>> q = Question(Board(3, 3), required=["OHIO"], fixed="O[HO]./.[I]./...", domains={8: "XYZ"})
    >>> dict(q.fixed), dict(q.domains), q.allows(1, "H"), q.allows(1, "I")
    ({0: 'O', 4: 'I'}, {1: 'HO', 8: 'XYZ'}, True, False)
    """

    board: Board = field(default_factory=Board)
    budget: int = 1
    path_rule: PathRule = "walk"
    required: tuple[Requirement, ...] = ()
    forbidden: tuple[str, ...] = ()
    fixed: Mapping[int, str] = field(default_factory=FrozenDict)
    domains: Mapping[int, str] = field(default_factory=FrozenDict)
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
        given = self._optional()
        if not given and (self.min_score is not None or self.min_count is not None):
            given = dict(words.weights)  # a target with no optional word counts every word, as solve's does
        optional = {w: v for w, v in given.items() if w not in seen and w not in forbidden}
        fixed, domains = self._cells()
        chains = _sequence(self.chains, "chains")
        for chain in chains:
            if not isinstance(chain, Chain):
                raise SpecError(f"chains must be Chain values, got {chain!r}")
            chain.check_words(words)
        if (fixed or domains) and self.symmetry_breaking:
            raise SpecError("symmetry breaking needs a grid with no fixed cells or letter domains")
        for name, value in (("budget", budget), ("required", required), ("forbidden", forbidden),
                            ("optional", FrozenDict(optional)), ("fixed", fixed), ("domains", domains),
                            ("chains", chains)):
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

    def _cells(self) -> tuple[FrozenDict[int, str], FrozenDict[int, str]]:
        """The fixed cells and the letter domains, merged and split: a cell with one letter
        allowed is fixed, a cell with several has a domain."""
        cells = self._cell_letters(self.fixed, "fixed cell", single=True)
        cells = merge_cell_letters(self.board, cells, self._cell_letters(self.domains, "letter domain of cell"))
        fixed = {c: letters for c, letters in sorted(cells.items()) if len(letters) == 1}
        domains = {c: letters for c, letters in sorted(cells.items()) if len(letters) > 1}
        return FrozenDict(fixed), FrozenDict(domains)

    def _cell_letters(self, given: Any, what: str, single: bool = False) -> dict[int, str]:
        if isinstance(given, str):
            return parse_cell_letters(given, self.board)
        if not isinstance(given, Mapping):
            kind = "{cell: letter}" if single else "{cell: letters}"
            raise SpecError(f"{what}s must be {kind} or rows of text, got {given!r}")
        cells = {}
        given = {plain_int(cell): letters for cell, letters in given.items()}
        for cell in given:  # before sorting: keys of mixed types do not sort
            if isinstance(cell, bool) or not isinstance(cell, int) or not 0 <= cell < self.board.size:
                raise SpecError(f"{what} {cell!r} is not a cell of the board (0..{self.board.size - 1})")
        for cell, letters in sorted(given.items()):
            label = self.board.label(cell)
            if single:
                if not isinstance(letters, str) or not re.fullmatch(r"[A-Z]", letters):
                    raise SpecError(f"fixed cell {label} must hold one letter A-Z, got {letters!r}")
            else:
                if isinstance(letters, (list, tuple, set, frozenset)) and all(isinstance(x, str) for x in letters):
                    letters = "".join(letters)
                if not isinstance(letters, str) or not re.fullmatch(r"[A-Z]+", letters):
                    raise SpecError(f"{what} {label} must be letters A-Z, got {letters!r}")
            cells[cell] = "".join(sorted(set(letters)))
        return cells

    @property
    def cells(self) -> dict[int, str]:
        """Every cell the question limits, with the letters it may hold (one for a fixed cell)."""
        return {**self.fixed, **self.domains}

    def allows(self, cell: int, letter: str) -> bool:
        """Whether ``cell`` may hold ``letter`` (its fixed letter, its domain, or any letter)."""
        return letter in (self.cell_letters(cell) or letter)

    def cell_letters(self, cell: int) -> str | None:
        """The letters ``cell`` may hold, sorted (one for a fixed cell), or None: any letter."""
        return self.fixed.get(cell) or self.domains.get(cell)

    def describe_cells(self) -> str:
        """The fixed cells and domains as rows of text (``O[HO]./.I./...``), '' when none."""
        if not (self.fixed or self.domains):
            return ""
        rows = ["".join(show_letters(self.cell_letters(self.board.cell(r, c)) or ".")
                        for c in range(self.board.cols)) for r in range(self.board.rows)]
        return "/".join(rows)

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


ASKS_NOTHING = ("the question asks nothing: give at least one REQUIREMENT, a forbidden word, an award, "
                "or a minimum score or count")


Verdict = Outcome
"""The old name of :class:`~exactgrid.answer.Outcome` (a fit question's answers are three of its values)."""


