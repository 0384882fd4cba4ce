"""Checklists of awards: what a TOML checklist says, and the verdict on a set of found states.

Everything here is a plain function over plain data: a set of found state keys (and,
optionally, the grid's score) goes in, dataclasses come out. The finder decides which states
a grid holds; this module only judges that set.

* A :class:`Checklist` (usually read from TOML by :func:`load_checklist`) lists items, each with
  one test; :func:`evaluate` runs them all and returns a :class:`ChecklistResult`.
* An :class:`ItemResult` holds the verdict and the facts behind it (numbers, lists of states,
  the chain) in ``details``; turning those into a sentence of evidence is the job of
  :func:`exactgrid.render.item_evidence`.

The TOML schema is documented at the top of ``instances/checklists/awards.toml`` (a copy is
bundled as ``exactgrid/data/awards.toml`` and read by :func:`default_checklist`).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any, Literal

from ..inputs import MAX_WHOLE, InputError, as_items, check_flag, check_whole, parse_toml, read_text_file
from .chains import find_chain, population, resolve_states
from .errors import ChecklistError

ItemKind = Literal["min_states", "min_score", "required", "forbidden", "chain"]
ITEM_KINDS: tuple[ItemKind, ...] = ("min_states", "min_score", "required", "forbidden", "chain")

#: Half of the 50 states' 2020 population (330,759,736): the puzzle's leaderboard threshold.
QUALIFY_SCORE = 165_379_868


# --------------------------------------------------------------------------- checklists


@dataclass(frozen=True)
class ChainTest:
    """A chain test: found states linking some state of ``sources`` to one of ``targets``.

    ``water`` None means "use the checklist's (or caller's) water_borders setting".
    """

    sources: tuple[str, ...]
    targets: tuple[str, ...]
    water: bool | None = None
    sources_label: str = "start"
    targets_label: str = "end"


@dataclass(frozen=True)
class Item:
    """One checklist item: a key, a title and exactly one test (``kind``).

    ``min_states`` and ``min_score`` use ``threshold``; ``required`` and ``forbidden`` use
    ``states``; ``chain`` uses ``chain``.
    """

    key: str
    title: str
    kind: ItemKind
    threshold: int = 0
    states: tuple[str, ...] = ()
    chain: ChainTest | None = None


@dataclass(frozen=True)
class Checklist:
    """Items to check a set of found states against, and the border convention for chains."""

    items: tuple[Item, ...]
    water_borders: bool = False
    name: str = "checklist"
    source: str = "<memory>"

    def keys(self) -> tuple[str, ...]:
        """The item keys, in order."""
        return tuple(i.key for i in self.items)

    def select(self, keys: Iterable[str]) -> Checklist:
        """A checklist with only the given item keys (case-insensitive), in checklist order.

        Raises ChecklistError naming an unknown key. A lone string is one key.
        """
        given = as_items(keys, "checklist item keys")
        if not all(isinstance(k, str) for k in given):
            raise ChecklistError(f"checklist item keys are text such as 'C2C', got {list(given)!r}")
        wanted = {k.upper() for k in given}
        unknown = sorted(wanted - {k.upper() for k in self.keys()})
        if unknown:
            raise ChecklistError(
                f"unknown checklist item {', '.join(unknown)}; {self.name} has {', '.join(self.keys())}"
            )
        return replace(self, items=tuple(i for i in self.items if i.key.upper() in wanted))


@dataclass(frozen=True)
class ItemResult:
    """The verdict on one item: passed or not, and the facts that decided it.

    ``details`` is JSON-ready data, by kind:

    * ``min_states``: ``count``, ``threshold``;
    * ``min_score``: ``score``, ``threshold``;
    * ``required``: ``missing``, ``present`` (lists of state keys, in the item's order);
    * ``forbidden``: ``present``;
    * ``chain``: ``chain`` (the chain, from a source to a target, or None), ``water`` (the
      border convention used), ``sources_found``, ``targets_found`` and, when there is no
      chain, ``reached`` (found states connected to a found source); when there is no chain
      over land borders by the checklist's (or caller's) setting, ``over_water``: the chain
      the three water-only borders would allow, or None (the puzzle's "shared border of
      positive length" admits either reading).
    """

    item: Item
    passed: bool
    details: dict[str, Any] = field(default_factory=dict)

    @property
    def key(self) -> str:
        """The item's key."""
        return self.item.key

    @property
    def title(self) -> str:
        """The item's title."""
        return self.item.title

    @property
    def kind(self) -> ItemKind:
        """The item's kind of test."""
        return self.item.kind


@dataclass(frozen=True)
class ChecklistResult:
    """The verdicts on every item of a checklist for one set of found states."""

    checklist: Checklist
    items: tuple[ItemResult, ...]
    found: tuple[str, ...]
    total: int
    water_borders: bool

    @property
    def passed(self) -> bool:
        """Whether every item passed."""
        return all(r.passed for r in self.items)

    @property
    def failed(self) -> tuple[str, ...]:
        """Keys of the items that failed."""
        return tuple(r.key for r in self.items if not r.passed)

    def __getitem__(self, key: str) -> ItemResult:
        return next(r for r in self.items if r.key == key)

    @property
    def missing(self) -> tuple[str, ...]:
        """The states required items miss, each once, in the items' order."""
        missing = (s for r in self.items if r.kind == "required" for s in r.details["missing"])
        return tuple(dict.fromkeys(missing))

    def with_letters_off(self, letters_off: Mapping[str, int | None], within: int | None = None) -> ChecklistResult:
        """This verdict with ``letters_off`` added to the details of every required item that
        misses states: for each missing state, how many letters the nearest path of its length
        on the grid differs from it in (None: more than ``within``, the most looked for,
        also kept as ``letters_off_within``; ``within`` None: every distance was measured)."""
        def annotated(r: ItemResult) -> ItemResult:
            off = {s: letters_off.get(s) for s in r.details["missing"]}
            return replace(r, details={**r.details, "letters_off": off, "letters_off_within": within})

        items = tuple(annotated(r) if r.kind == "required" and r.details["missing"] else r for r in self.items)
        return replace(self, items=items)


# --------------------------------------------------------------------------- evaluation

Verdict = tuple[bool, dict[str, Any]]
"""What one kind of test decides: passed, and the details behind it."""


def _min_states(item: Item, keys: set[str], score: int, water: bool) -> Verdict:
    count = len(keys)
    return count >= item.threshold, {"count": count, "threshold": item.threshold}


def _min_score(item: Item, keys: set[str], score: int, water: bool) -> Verdict:
    return score >= item.threshold, {"score": score, "threshold": item.threshold}


def _required(item: Item, keys: set[str], score: int, water: bool) -> Verdict:
    missing = [s for s in item.states if s not in keys]
    present = [s for s in item.states if s in keys]
    return not missing, {"missing": missing, "present": present}


def _forbidden(item: Item, keys: set[str], score: int, water: bool) -> Verdict:
    present = [s for s in item.states if s in keys]
    return not present, {"present": present}


def _chain(item: Item, keys: set[str], score: int, water: bool) -> Verdict:
    assert item.chain is not None
    use_water = item.chain.water if item.chain.water is not None else water
    search = find_chain(keys, item.chain.sources, item.chain.targets, use_water)
    common = {
        "water": use_water,
        "sources_found": list(search.sources_found),
        "targets_found": list(search.targets_found),
    }
    if search.chain is not None:
        return True, {"chain": list(search.chain), **common}
    details = {"chain": None, "reached": list(search.reached), **common}
    if not use_water and item.chain.water is None:  # an item fixed to land asks for no hint
        wet = find_chain(keys, item.chain.sources, item.chain.targets, water=True).chain
        details["over_water"] = list(wet) if wet is not None else None
    return False, details


_TESTS: dict[ItemKind, Callable[[Item, set[str], int, bool], Verdict]] = {
    "min_states": _min_states,
    "min_score": _min_score,
    "required": _required,
    "forbidden": _forbidden,
    "chain": _chain,
}


def evaluate_item(item: Item, found: Iterable[str], total: int | None = None, water: bool = False) -> ItemResult:
    """Check one item against the found states (keys) and the score (default: their population).

    ``water`` is the border convention for a chain item whose own ``water`` is unset.
    """
    keys = set(resolve_states(found))
    score = population(keys) if total is None else total
    passed, details = _TESTS[item.kind](item, keys, score, water)
    return ItemResult(item, passed, details)


def evaluate(
    checklist: Checklist,
    found: Iterable[str],
    total: int | None = None,
    water_borders: bool | None = None,
) -> ChecklistResult:
    """Check every item of ``checklist`` against the found states.

    ``found`` holds state keys (names and postal codes are resolved too); ``total`` is the
    grid's score and defaults to the found states' summed population. ``water_borders``
    overrides the checklist's own setting when given (an item's own ``water`` wins over both).

    >>> result = evaluate(default_checklist(), ["OHIO", "UTAH", "IOWA", "IDAHO", "ILLINOIS"])
    >>> result.total, result.failed[:2]
    (32913047, ('20S', '200M'))
    """
    if not isinstance(checklist, Checklist):
        raise ChecklistError(f"evaluate takes a Checklist, got {type(checklist).__name__}")
    keys = resolve_states(as_items(found, "the found states"))
    water = checklist.water_borders if water_borders is None else check_flag(water_borders, "water_borders")
    score = population(keys) if total is None else check_whole(total, "total")
    results = tuple(evaluate_item(item, keys, score, water) for item in checklist.items)
    return ChecklistResult(checklist, results, tuple(sorted(keys)), score, water)


# --------------------------------------------------------------------------- reading TOML

_TOP_KEYS = {"name", "description", "water_borders", "items"}
_ITEM_KEYS = {"key", "title", *ITEM_KINDS}
_CHAIN_KEYS = {"from", "to", "water"}


def _where(source: str, index: int | None, key: str | None = None) -> str:
    item = "" if index is None else f" item {index}" + (f" ({key})" if key else "")
    return f"{source}:{item}" if item else f"{source}:"


def _state_list(value: Any, where: str, what: str) -> tuple[str, ...]:
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not value or not all(isinstance(v, str) for v in value):
        raise ChecklistError(f"{where} {what} must be a non-empty list of state names, got {value!r}")
    try:
        return resolve_states(value)
    except ChecklistError as exc:
        raise ChecklistError(f"{where} {what}: {exc}") from None


def _label(value: Any, default: str) -> str:
    """``east-coast`` for a chain end written as the single group ``@east_coast``."""
    if isinstance(value, list) and len(value) == 1:
        value = value[0]
    if isinstance(value, str) and value.startswith("@"):
        return value[1:].replace("_", "-")
    return default


def _whole(value: Any, where: str, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ChecklistError(f"{where} {what} must be a whole number >= 0, got {value!r}")
    if value > MAX_WHOLE:  # as a question's min_score or min_count would refuse it
        raise ChecklistError(f"{where} {what} {value} is too large (at most 2**62 = {MAX_WHOLE:,})")
    return value


def _check_shown_text(text: str, where: str, what: str) -> None:
    """ChecklistError when ``text`` holds a control character (a tab, a newline, U+0001...), a
    lone surrogate, U+FFFE or U+FFFF: output shows it (tables, SVG pictures, where such
    characters are not even well-formed XML)."""
    odd = sorted({ch for ch in text if unicodedata.category(ch) in ("Cc", "Cs") or ch in "\ufffe\uffff"})
    if odd:
        raise ChecklistError(f"{where} {what} holds a control character ({', '.join(f'U+{ord(ch):04X}' for ch in odd)})"
                             "; give it printable text")


def _item(raw: Any, index: int, source: str) -> Item:
    if not isinstance(raw, dict):
        raise ChecklistError(f"{_where(source, index)} each entry of items must be a table, got {raw!r}")
    key = raw.get("key")
    if not isinstance(key, str) or not key.strip():
        raise ChecklistError(f"{_where(source, index)} needs key = \"...\" (a non-empty string)")
    _check_shown_text(key, _where(source, index), "key")
    where = _where(source, index, key)
    unknown = sorted(set(raw) - _ITEM_KEYS)
    if unknown:
        raise ChecklistError(
            f"{where} unknown field {', '.join(unknown)}; allowed: {', '.join(sorted(_ITEM_KEYS))}"
        )
    title = raw.get("title", key)
    if not isinstance(title, str):
        raise ChecklistError(f"{where} title must be a string, got {title!r}")
    _check_shown_text(title, where, "title")
    kinds = [k for k in ITEM_KINDS if k in raw]
    if len(kinds) != 1:
        raise ChecklistError(
            f"{where} needs exactly one test of {', '.join(ITEM_KINDS)}; got {len(kinds)}"
            + (f" ({', '.join(kinds)})" if kinds else "")
        )
    kind = kinds[0]
    value = raw[kind]
    if kind in ("min_states", "min_score"):
        return Item(key, title, kind, threshold=_whole(value, where, kind))
    if kind in ("required", "forbidden"):
        return Item(key, title, kind, states=_state_list(value, where, kind))
    if not isinstance(value, dict):
        raise ChecklistError(f"{where} chain must be a table like {{ from = [...], to = [...] }}, got {value!r}")
    extra = sorted(set(value) - _CHAIN_KEYS)
    if extra:
        raise ChecklistError(f"{where} chain: unknown field {', '.join(extra)}; allowed: from, to, water")
    for needed in ("from", "to"):
        if needed not in value:
            raise ChecklistError(f"{where} chain needs {needed} = [...]")
    water = value.get("water")
    if water is not None and not isinstance(water, bool):
        raise ChecklistError(f"{where} chain water must be true or false, got {water!r}")
    chain = ChainTest(
        _state_list(value["from"], where, "chain from"),
        _state_list(value["to"], where, "chain to"),
        water,
        _label(value["from"], "start"),
        _label(value["to"], "end"),
    )
    return Item(key, title, kind, chain=chain)


def checklist_from_dict(data: Mapping[str, Any], source: str = "<checklist>") -> Checklist:
    """Build a Checklist from parsed TOML data, checking every field (ChecklistError if bad)."""
    unknown = sorted(set(data) - _TOP_KEYS)
    if unknown:
        raise ChecklistError(
            f"{source}: unknown top-level field {', '.join(unknown)}; allowed: {', '.join(sorted(_TOP_KEYS))}"
        )
    water = data.get("water_borders", False)
    if not isinstance(water, bool):
        raise ChecklistError(f"{source}: water_borders must be true or false, got {water!r}")
    name = data.get("name", Path(source).stem if source and not source.startswith("<") else "checklist")
    if not isinstance(name, str):
        raise ChecklistError(f"{source}: name must be a string, got {name!r}")
    _check_shown_text(name, f"{source}:", "name")
    raw_items = data.get("items")
    if not isinstance(raw_items, list) or not raw_items:
        raise ChecklistError(f"{source}: needs at least one [[items]] table")
    items = tuple(_item(raw, i, source) for i, raw in enumerate(raw_items, 1))
    seen: set[str] = set()
    for item in items:
        if item.key.upper() in seen:
            raise ChecklistError(f"{source}: item key {item.key!r} is used twice")
        seen.add(item.key.upper())
    return Checklist(items, water, name, source)


def parse_checklist(text: str, source: str = "<checklist>") -> Checklist:
    """Read a checklist from TOML text; ChecklistError (one line, naming ``source``) if bad."""
    try:
        data = parse_toml(text)
    except ValueError as exc:  # see parse_toml
        raise ChecklistError(f"{source}: malformed TOML: {exc}") from None
    return checklist_from_dict(data, source)


def load_checklist(path: str | Path) -> Checklist:
    """Read a checklist TOML file; ChecklistError (one line) if it is missing or bad."""
    try:
        text = read_text_file(path, "checklist")
    except InputError as exc:
        raise ChecklistError(str(exc)) from None
    return parse_checklist(text, str(path))


@cache
def default_checklist() -> Checklist:
    """The Jane Street Altered States 2 awards plus QUALIFY (the bundled ``data/awards.toml``)."""
    text = resources.files("exactgrid").joinpath("data", "awards.toml").read_text(encoding="utf-8")
    return parse_checklist(text, "awards.toml")
