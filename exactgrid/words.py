"""Weighted word lists: the words a puzzle scores, read from the bundled data or from a file.

A :class:`WordList` is plain data: words (A-Z) with whole-number weights in a fixed order,
optional aliases (other spellings a user may type: US postal codes), display names, and the
labels output uses for a word and its weight ("state"/"population" for the US states,
"word"/"weight" for a file). :func:`read_word_list` reads a file (one word a line, or
``word,weight`` / ``word<TAB>weight``); the bundled datasets, and
:func:`exactgrid.data.word_list` (a list by name or file), live in :mod:`exactgrid.data`.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .inputs import (
    MAX_WHOLE,
    FrozenDict,
    InputError,
    ascii_upper,
    check_big,
    check_whole,
    digits_value,
    read_text_file,
)
from .stopping import check_deadline


class UnknownWordError(InputError, KeyError):
    """A word that is not on the word list in use."""

    def __str__(self) -> str:
        return str(self.args[0])


_UPPER_WORD = re.compile(r"[A-Z]+").fullmatch
_PLAIN_WORD = re.compile(r"[A-Za-z]+").fullmatch
_DIGITS = re.compile(r"[0-9]+").fullmatch


def normalise_word(text: str) -> str:
    """Upper-case a name and drop its spaces and punctuation: ``New York`` -> ``NEWYORK``,
    ``Hawai'i`` -> ``HAWAII``.

    Letters outside A-Z are refused (InputError), not folded: ``ß`` is not ``SS``; so are
    digits (``TEXAS2`` is not ``TEXAS``).
    """
    upper = ascii_upper(text, "a word")
    digits = sorted({ch for ch in upper if ch.isalnum() and not "A" <= ch <= "Z"})
    if digits:
        raise InputError(f"a word holds letters A-Z only (spaces and punctuation are dropped); "
                         f"{text.strip()!r} has {' '.join(map(repr, digits))}")
    return re.sub(r"[^A-Z]", "", upper)


@dataclass(frozen=True)
class WordList:
    """Words (upper-case A-Z) with integer weights, in a fixed order."""

    weights: Mapping[str, int]
    name: str = "words"
    aliases: Mapping[str, str] = field(default_factory=FrozenDict)
    """Other spellings a user may type for a word (``NY`` -> ``NEWYORK``)."""
    names: Mapping[str, str] = field(default_factory=FrozenDict)
    """Display names (``NEWYORK`` -> ``New York``); a word without one is shown as itself."""
    word_label: str = "word"
    """What output calls one word of this list (a column header: "state", "word")."""
    weight_label: str = "weight"
    """What output calls a weight ("population", "weight")."""

    def __post_init__(self) -> None:
        for what in ("weights", "aliases", "names"):
            if not isinstance(getattr(self, what), Mapping):
                example = "{'OHIO': 11799448}" if what == "weights" else "{'NY': 'NEWYORK'}"
                raise InputError(f"a WordList's {what} must map words to values, such as {example}; "
                                 f"got {type(getattr(self, what)).__name__}")
        weights = FrozenDict(self.weights)
        if not weights:
            raise InputError(f"the word list {self.name!r} is empty: a list holds at least one word")
        for word, weight in weights.items():
            if not isinstance(word, str) or not _UPPER_WORD(word):
                raise InputError(f"word {word!r} must be upper-case letters A-Z only")
            if type(weight) is not int or not 0 <= weight <= MAX_WHOLE:  # the common case, checked fast
                check_big(weight, f"the weight of {word}")
        if sum(weights.values()) > MAX_WHOLE:
            raise InputError(f"the weights of the list add up to more than 2**62 = {MAX_WHOLE:,} (too large to score)")
        for alias, word in dict(self.aliases).items():
            if not isinstance(alias, str) or not _UPPER_WORD(alias):
                raise InputError(f"alias {alias!r} must be upper-case letters A-Z only, as typed words are read")
            if word not in weights:
                raise InputError(f"alias {alias!r} names {word!r}, which is not on the list")
        object.__setattr__(self, "weights", weights)
        object.__setattr__(self, "aliases", FrozenDict(self.aliases))
        object.__setattr__(self, "names", FrozenDict(self.names))

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
        whole = check_whole(budget, "the alteration budget")
        if whole > self.longest:
            raise InputError(f"the alteration budget must be from 0 to {self.longest} (the longest word on the "
                             f"{self.name} list has {self.longest} letters; more alters nothing), got {whole}")
        return whole

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
        if word in self.aliases:
            return self.aliases[word]
        raise UnknownWordError(f"unknown word {text!r}: not on the {self.name} list")

    def subset(self, words: Iterable[str]) -> WordList:
        """A word list restricted to ``words`` (kept in this list's order)."""
        keep = set(words)
        kept = {w: v for w, v in self.weights.items() if w in keep}
        return WordList(kept, self.name, {a: w for a, w in self.aliases.items() if w in kept},
                        {w: n for w, n in self.names.items() if w in kept}, self.word_label, self.weight_label)

    def __reduce__(self) -> tuple[Any, ...]:
        # A bundled list travels between processes as its name (fit_many sends one with every
        # question); any other list as its data.
        for name, make in NAMED_LISTS.items():
            info = getattr(make, "cache_info", None)  # a list never loaded is not this one (and loading it costs)
            if (info is None or info().currsize) and make() is self:
                return (named_word_list, (name,))
        return (WordList, (dict(self.weights), self.name, dict(self.aliases), dict(self.names), self.word_label,
                           self.weight_label))

    def display(self, word: str) -> str:
        """How output names a word: its display name (``New York``), else the word itself."""
        return self.names.get(word, word)



NAMED_LISTS: dict[str, Callable[[], WordList]] = {}
"""Bundled word lists by name, each a cached function (the datasets in :mod:`exactgrid.data`
register theirs), so that a bundled list is pickled as its name."""


def named_word_list(name: str) -> WordList:
    """A bundled word list by its registered name (``us-states``)."""
    return NAMED_LISTS[name]()


def read_word_list(path: str | Path, name: str | None = None, deadline: float | None = None) -> WordList:
    """Read a word-list file: one word a line (weight 1), or ``word,weight`` (CSV) or
    ``word<TAB>weight`` (TSV). Blank lines and ``#`` comments are skipped; a first line
    ``word,weight`` (a first line whose weight column is a name, not a number) is a header. Words are
    upper-cased and stripped of spaces (``New York`` -> ``NEWYORK``). InputError names the
    file and line of anything else. ``deadline`` (a ``time.monotonic()`` value; None: none):
    :class:`~exactgrid.stopping.DeadlinePassed` once it has passed.
    """
    text = read_text_file(path, "word list")
    return parse_word_list(text, name or Path(path).name, str(path), deadline)


def _is_header(weight_text: str) -> bool:
    """Whether a first line with this weight column names its columns (``word,weight``,
    ``State,Population (2020)``) rather than giving a word a weight that is not a whole number
    (``OHIO,-5``, ``OHIO,1.5``, ``OHIO,1e6``): a header's weight column holds a letter and does
    not read as a number."""
    try:
        float(weight_text)
    except ValueError:
        return bool(re.search(r"[A-Za-z]", weight_text))
    return False


def _csv_rows(text: str, delimiter: str, source: str) -> Iterator[tuple[int, list[str]]]:
    """The rows of a word list's text with their line numbers; line ends may be ``\\n``,
    ``\\r\\n`` or ``\\r``. What the CSV reader refuses (a field of more than 131,072
    characters) is an InputError naming the line. (A quote left open runs on to the next
    quote, as CSV has it; the word it makes is then checked like any other.)"""
    reader = csv.reader(io.StringIO(text, newline=None), delimiter=delimiter)
    while True:
        try:
            row = next(reader)
        except StopIteration:
            return
        except csv.Error as exc:
            raise InputError(f"{source}:{reader.line_num}: cannot read it as CSV ({exc})") from None
        yield reader.line_num, row


def parse_word_list(text: str, name: str = "words", source: str = "<words>",
                    deadline: float | None = None) -> WordList:
    """A word list from the text of a word-list file (see :func:`read_word_list`)."""
    weights: dict[str, int] = {}
    delimiter = "\t" if "\t" in text else ","
    doing = f"reading the word list {source}"
    for number, row in _csv_rows(text, delimiter, source):
        check_deadline(deadline, number, doing)
        cells = [c.strip() for c in row]
        if not cells or not cells[0] or cells[0].startswith("#"):
            continue
        if len(cells) > 2 and any(cells[2:]):
            raise InputError(f"{source}:{number}: expected 'word' or 'word,weight', got {delimiter.join(row)!r}")
        try:  # most words are letters A-Z alone, which need no more than upper-casing
            word = cells[0].upper() if _PLAIN_WORD(cells[0]) else normalise_word(cells[0])
        except InputError as err:
            raise InputError(f"{source}:{number}: {err}") from None
        weight_text = cells[1] if len(cells) > 1 else ""
        if not word:
            raise InputError(f"{source}:{number}: no letters in {cells[0]!r}")
        if len(cells) > 1 and not weight_text:
            shown = "a tab" if delimiter == "\t" else repr(delimiter)
            raise InputError(f"{source}:{number}: {word} has an empty weight after {shown} "
                             "(give a whole number, or the word alone for weight 1)")
        if weight_text and not _DIGITS(weight_text):
            if number == 1 and not weights and _is_header(weight_text):
                continue
            raise InputError(f"{source}:{number}: weight {weight_text!r} is not a whole number >= 0")
        if word in weights:
            raise InputError(f"{source}:{number}: {word} is listed twice")
        try:
            weights[word] = digits_value(weight_text, f"the weight of {word}") if weight_text else 1
        except InputError as err:
            raise InputError(f"{source}:{number}: {err}") from None
    if not weights:
        raise InputError(f"{source}: the word list is empty")
    return WordList(weights, name)
