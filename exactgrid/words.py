"""Weighted word lists, and the bundled US-states data (2020 census, borders, coasts).

The data files live in ``exactgrid/data/``; their sources are cited in ``data/README.md``.
"""

from __future__ import annotations

import csv
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Literal

from .inputs import InputError, ascii_upper, check_whole

BorderKind = Literal["land", "water"]


class UnknownWordError(InputError, KeyError):
    """A word that is not on the word list in use."""

    def __str__(self) -> str:
        return str(self.args[0])


def normalise_word(text: str) -> str:
    """Upper-case a name and drop everything but letters: ``New York`` -> ``NEWYORK``.

    Letters outside A-Z are refused (InputError), not folded: ``ß`` is not ``SS``.
    """
    return re.sub(r"[^A-Z]", "", ascii_upper(text, "a word"))


@dataclass(frozen=True)
class WordList:
    """Words (upper-case A-Z) with integer weights, in a fixed order."""

    weights: Mapping[str, int]
    name: str = "words"

    def __post_init__(self) -> None:
        for word in self.weights:
            if not re.fullmatch(r"[A-Z]+", word):
                raise ValueError(f"word {word!r} must be upper-case letters A-Z only")

    @property
    def words(self) -> tuple[str, ...]:
        """The words, in list order."""
        return tuple(self.weights)

    def __iter__(self) -> Iterator[str]:
        return iter(self.weights)

    def __len__(self) -> int:
        return len(self.weights)

    def __contains__(self, word: object) -> bool:
        return word in self.weights

    def weight(self, word: str) -> int:
        """The weight of one word."""
        return self.weights[word]

    @property
    def longest(self) -> int:
        """The length of the longest word (0 for an empty list)."""
        return max(map(len, self.weights), default=0)

    def check_budget(self, budget: object) -> int:
        """``budget`` when it is a whole number from 0 to the longest word's length.

        A larger budget would mean nothing more (a word of n letters with n alterations is
        spelled by any path of n cells), so it is refused as a likely mistake (InputError).
        """
        check_whole(budget, "the alteration budget")
        if budget > self.longest:  # type: ignore[operator]
            raise InputError(f"the alteration budget must be from 0 to {self.longest} (the longest word on the "
                             f"{self.name} list has {self.longest} letters; more alters nothing), got {budget}")
        return budget  # type: ignore[return-value]

    @property
    def total(self) -> int:
        """Sum of all weights."""
        return sum(self.weights.values())

    def resolve(self, text: str) -> str:
        """Turn user text (any case, spaces, a postal code for US states) into a listed word.

        Raises UnknownWordError naming the word when it is not on the list.
        """
        word = normalise_word(text)
        if word in self.weights:
            return word
        aliases = _aliases(self)
        if word in aliases:
            return aliases[word]
        raise UnknownWordError(f"unknown word {text!r}: not on the {self.name} list")

    def subset(self, words: Iterable[str]) -> WordList:
        """A word list restricted to ``words`` (kept in this list's order)."""
        keep = set(words)
        return WordList({w: v for w, v in self.weights.items() if w in keep}, self.name)


def _aliases(words: WordList) -> dict[str, str]:
    if words.name != "US states":
        return {}
    return {s.abbr: s.key for s in us_states_info()}


@dataclass(frozen=True)
class StateInfo:
    """One US state as the bundled data describes it."""

    name: str
    key: str
    abbr: str
    population: int
    region: str
    division: str
    atlantic: bool
    pacific: bool
    gulf: bool
    great_lakes: bool
    east_coast: bool
    west_coast: bool

    @property
    def starts_with_m(self) -> bool:
        """Whether the name begins with M (the M8 award)."""
        return self.key.startswith("M")


@dataclass(frozen=True)
class Border:
    """Two states sharing a border of positive length."""

    a: str
    b: str
    kind: BorderKind


def _read_csv(name: str) -> list[dict[str, str]]:
    text = resources.files("exactgrid").joinpath("data", name).read_text(encoding="utf-8")
    return list(csv.DictReader(text.splitlines()))


@cache
def us_states_info() -> tuple[StateInfo, ...]:
    """The 50 states, alphabetical, with 2020 census resident population and coasts."""
    coasts = {row["key"]: row for row in _read_csv("coasts.csv")}
    out = []
    for row in _read_csv("states_2020.csv"):
        coast = coasts[row["key"]]
        out.append(
            StateInfo(
                name=row["name"],
                key=row["key"],
                abbr=row["abbr"],
                population=int(row["population_2020"]),
                region=row["region"],
                division=row["division"],
                **{flag: coast[flag] == "1" for flag in (
                    "atlantic", "pacific", "gulf", "great_lakes", "east_coast", "west_coast"
                )},
            )
        )
    return tuple(out)


@cache
def us_borders() -> tuple[Border, ...]:
    """The 108 bordering pairs of states (105 on land, 3 only in water), by state key."""
    return tuple(
        Border(row["key_a"], row["key_b"], row["kind"])  # type: ignore[arg-type]
        for row in _read_csv("borders.csv")
    )


@cache
def us_states() -> WordList:
    """The 50 states as a word list weighted by 2020 census resident population."""
    return WordList({s.key: s.population for s in us_states_info()}, "US states")


def state(key: str) -> StateInfo:
    """The bundled record of one state, by key (``NEWYORK``) or postal code (``NY``)."""
    word = us_states().resolve(key)
    return next(s for s in us_states_info() if s.key == word)


def load_word_list(path: str, name: str | None = None) -> WordList:
    """Read a word list file: one word per line, optionally ``WORD,weight`` (default 1)."""
    weights: dict[str, int] = {}
    with open(path, encoding="utf-8") as handle:
        for number, raw in enumerate(handle, 1):
            line = raw.split("#", 1)[0].strip()
            if not line:
                continue
            word_text, _, weight_text = line.partition(",")
            word = normalise_word(word_text)
            if not word:
                raise ValueError(f"{path}:{number}: no letters in {raw.strip()!r}")
            try:
                weights[word] = int(weight_text) if weight_text.strip() else 1
            except ValueError:
                raise ValueError(f"{path}:{number}: weight {weight_text.strip()!r} is not a whole number") from None
    return WordList(weights, name or path)
