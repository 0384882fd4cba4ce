"""Achievements over the US border graph: coast-to-coast chains, awards and checklists.

Everything here is a plain function over plain data: a set of found state keys (and,
optionally, the grid's score) goes in, dataclasses come out. The finder decides which states
a grid holds; this module only judges that set.

* :func:`border_graph` builds a networkx ``Graph`` of the 50 states whose edges are borders of
  positive length: the 105 land pairs, plus the 3 water-only pairs (IL-MI, MI-MN, NY-RI) when
  ``water=True``. Four Corners point contacts (AZ-CO, NM-UT) are never edges.
* :func:`find_chain` finds the shortest chain of *found* states from one set to another, each
  bordering the next; the coast-to-coast award is the chain from ``east_coast()`` to
  ``west_coast()``.
* A :class:`Checklist` (usually read from TOML by :func:`load_checklist`) lists items, each with
  one test; :func:`evaluate` runs them all and returns a :class:`ChecklistResult`.

The TOML schema is documented at the top of ``instances/checklists/awards.toml`` (a copy is
bundled as ``exactgrid/data/awards.toml`` and read by :func:`default_checklist`).
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any, Literal

import networkx as nx

from .data.us import us_borders, us_states, us_states_info
from .inputs import InputError, read_text_file
from .words import UnknownWordError

ItemKind = Literal["min_states", "min_score", "required", "forbidden", "chain"]
ITEM_KINDS: tuple[ItemKind, ...] = ("min_states", "min_score", "required", "forbidden", "chain")

#: Named groups of states that checklists may write instead of a state, as ``"@east_coast"``.
STATE_GROUPS: tuple[str, ...] = ("east_coast", "west_coast", "atlantic", "pacific", "gulf", "great_lakes", "m_states")

#: Half of the 50 states' 2020 population (330,759,736): the puzzle's leaderboard threshold.
QUALIFY_SCORE = 165_379_868


class ChecklistError(InputError):
    """A checklist that cannot be read or makes no sense (message is one line)."""


# --------------------------------------------------------------------------- graph and states


@cache
def _graph(water: bool) -> nx.Graph:
    graph = nx.Graph()
    for info in us_states_info():
        graph.add_node(
            info.key,
            abbr=info.abbr,
            population=info.population,
            east_coast=info.east_coast,
            west_coast=info.west_coast,
        )
    for border in us_borders():
        if border.kind == "land" or water:
            graph.add_edge(border.a, border.b, kind=border.kind)
    return nx.freeze(graph)


def border_graph(water: bool = False) -> nx.Graph:
    """The 50 states as a (frozen) networkx graph; an edge joins two states sharing a border.

    Land borders only by default; ``water=True`` adds the three pairs that meet only in water.
    Nodes carry ``abbr``, ``population``, ``east_coast`` and ``west_coast``; edges carry ``kind``.

    >>> border_graph().has_edge("ARIZONA", "COLORADO")   # a point contact, not a border
    False
    >>> border_graph().number_of_edges(), border_graph(water=True).number_of_edges()
    (105, 108)
    """
    return _graph(bool(water))


def state_group(name: str) -> tuple[str, ...]:
    """The keys of a named group of states (see ``STATE_GROUPS``), alphabetical.

    >>> state_group("west_coast")
    ('CALIFORNIA', 'OREGON', 'WASHINGTON')
    """
    if name not in STATE_GROUPS:
        raise ChecklistError(f"unknown state group @{name}; choose from {', '.join('@' + g for g in STATE_GROUPS)}")
    if name == "m_states":
        return tuple(s.key for s in us_states_info() if s.starts_with_m)
    return tuple(s.key for s in us_states_info() if getattr(s, name))


def east_coast() -> tuple[str, ...]:
    """The 14 Atlantic (east-coast) states, Florida to Maine, alphabetical."""
    return state_group("east_coast")


def west_coast() -> tuple[str, ...]:
    """The west-coast states: California, Oregon, Washington."""
    return state_group("west_coast")


def resolve_states(names: Iterable[str]) -> tuple[str, ...]:
    """State keys for user text: keys, names (``New York``), postal codes, or ``@group`` names.

    Order is kept and duplicates dropped. Raises ChecklistError naming an unknown state.
    """
    out: list[str] = []
    for name in names:
        if not isinstance(name, str):
            raise ChecklistError(f"a state must be written as a string, got {name!r}")
        if name.startswith("@"):
            keys: Iterable[str] = state_group(name[1:])
        else:
            try:
                keys = (us_states().resolve(name),)
            except UnknownWordError:
                raise ChecklistError(f"unknown state {name!r}") from None
        out.extend(k for k in keys if k not in out)
    return tuple(out)


def population(states: Iterable[str]) -> int:
    """Summed 2020 population of distinct state keys (the grid score those states give)."""
    words = us_states()
    return sum(words.weight(s) for s in set(states))


# --------------------------------------------------------------------------- chains


def is_chain(states: Iterable[str], water: bool = False) -> bool:
    """Whether each state in the sequence borders the next (land only unless ``water``).

    A chain never repeats a state. States may be keys, names or postal codes.

    >>> is_chain(["CA", "AZ", "NM", "OK", "AR", "TN", "GA"])
    True
    >>> is_chain(["ARIZONA", "COLORADO"])
    False
    """
    keys = [us_states().resolve(s) for s in states]
    graph = border_graph(water)
    return (
        len(keys) > 0
        and len(set(keys)) == len(keys)
        and all(graph.has_edge(a, b) for a, b in zip(keys, keys[1:], strict=False))
    )


@dataclass(frozen=True)
class ChainSearch:
    """What :func:`find_chain` learned: the chain (or None), and the reach when there is none."""

    chain: tuple[str, ...] | None
    sources_found: tuple[str, ...]
    targets_found: tuple[str, ...]
    reached: tuple[str, ...]

    @property
    def found(self) -> bool:
        """Whether a chain exists."""
        return self.chain is not None


def find_chain(
    found: Iterable[str],
    sources: Iterable[str] | None = None,
    targets: Iterable[str] | None = None,
    water: bool = False,
) -> ChainSearch:
    """The shortest chain of found states from a source state to a target state.

    A chain is a sequence of distinct found states, each sharing a border of positive length
    with the next (land only unless ``water``), that starts in ``sources`` (default: the east
    coast) and ends in ``targets`` (default: the west coast). A state in both sets is a chain
    of one. Among shortest chains the one whose key sequence is alphabetically first is
    returned (so the answer is deterministic). ``reached`` lists every found state connected to
    a found source state, alphabetically, which explains a failure.

    >>> find_chain(["CALIFORNIA", "ARIZONA", "NEWMEXICO", "OKLAHOMA", "ARKANSAS",
    ...             "TENNESSEE", "GEORGIA"]).chain
    ('GEORGIA', 'TENNESSEE', 'ARKANSAS', 'OKLAHOMA', 'NEWMEXICO', 'ARIZONA', 'CALIFORNIA')
    """
    keys = set(resolve_states(found))
    src = sorted(set(east_coast() if sources is None else resolve_states(sources)) & keys)
    dst = sorted(set(west_coast() if targets is None else resolve_states(targets)) & keys)
    sub = border_graph(water).subgraph(keys)
    reached = sorted(set().union(*(nx.node_connected_component(sub, s) for s in src))) if src else []
    if not dst:
        return ChainSearch(None, tuple(src), tuple(dst), tuple(reached))
    distance = nx.multi_source_dijkstra_path_length(sub, set(dst))  # hops to the nearest target
    starts = [s for s in src if s in distance]
    if not starts:
        return ChainSearch(None, tuple(src), tuple(dst), tuple(reached))
    best = min(distance[s] for s in starts)
    chain = [min(s for s in starts if distance[s] == best)]
    while distance[chain[-1]] > 0:
        here = distance[chain[-1]]
        chain.append(min(n for n in sub.neighbors(chain[-1]) if distance.get(n) == here - 1))
    return ChainSearch(tuple(chain), tuple(src), tuple(dst), tuple(reached))


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

        Raises ChecklistError naming an unknown key.
        """
        wanted = {k.upper() for k in keys}
        unknown = sorted(wanted - {k.upper() for k in self.keys()})
        if unknown:
            raise ChecklistError(
                f"unknown checklist item {', '.join(unknown)}; {self.name} has {', '.join(self.keys())}"
            )
        return replace(self, items=tuple(i for i in self.items if i.key.upper() in wanted))


@dataclass(frozen=True)
class ItemResult:
    """The verdict on one item: passed or not, a one-line evidence text, and data for JSON."""

    key: str
    title: str
    kind: ItemKind
    passed: bool
    evidence: str
    details: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict: key, title, kind, passed, evidence, details."""
        return {
            "key": self.key,
            "title": self.title,
            "kind": self.kind,
            "passed": self.passed,
            "evidence": self.evidence,
            "details": self.details,
        }


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


def _names(states: Iterable[str]) -> str:
    return ", ".join(states) or "none"


def evaluate_item(item: Item, found: Iterable[str], total: int | None = None, water: bool = False) -> ItemResult:
    """Check one item against the found states (keys) and the score (default: their population).

    ``water`` is the border convention for a chain item whose own ``water`` is unset.
    """
    keys = set(resolve_states(found))
    score = population(keys) if total is None else total

    def result(passed: bool, evidence: str, **details: Any) -> ItemResult:
        return ItemResult(item.key, item.title, item.kind, passed, evidence, details)

    if item.kind == "min_states":
        count = len(keys)
        verdict = "at least" if count >= item.threshold else "short of"
        return result(
            count >= item.threshold,
            f"{count} states found, {verdict} {item.threshold}"
            + ("" if count >= item.threshold else f" (need {item.threshold - count} more)"),
            count=count,
            threshold=item.threshold,
        )
    if item.kind == "min_score":
        if score >= item.threshold:
            text = f"score {score:,} >= {item.threshold:,} (margin {score - item.threshold:,})"
        else:
            text = f"score {score:,} < {item.threshold:,} (short by {item.threshold - score:,})"
        return result(score >= item.threshold, text, score=score, threshold=item.threshold)
    if item.kind == "required":
        missing = [s for s in item.states if s not in keys]
        present = [s for s in item.states if s in keys]
        text = f"all found: {_names(present)}" if not missing else f"missing {_names(missing)}"
        return result(not missing, text, missing=missing, present=present)
    if item.kind == "forbidden":
        present = [s for s in item.states if s in keys]
        text = f"none found of {_names(item.states)}" if not present else f"found {_names(present)}"
        return result(not present, text, present=present)
    assert item.chain is not None
    use_water = item.chain.water if item.chain.water is not None else water
    search = find_chain(keys, item.chain.sources, item.chain.targets, use_water)
    borders = "land and water borders" if use_water else "land borders"
    common = {
        "water": use_water,
        "sources_found": list(search.sources_found),
        "targets_found": list(search.targets_found),
    }
    start, end = item.chain.sources_label, item.chain.targets_label
    if search.chain is not None:
        return result(
            True,
            f"chain of {len(search.chain)} on {borders}: {'-'.join(search.chain)}",
            chain=list(search.chain),
            **common,
        )
    if not search.sources_found:
        text = f"no chain: no {start} state found (any of {_names(item.chain.sources)})"
    elif not search.targets_found:
        text = (
            f"no chain: {start} states {_names(search.sources_found)} found, "
            f"but no {end} state (any of {_names(item.chain.targets)})"
        )
    else:
        text = (
            f"no chain on {borders}: found {start} states {_names(search.sources_found)} reach only "
            f"{_names(search.reached)}; found {end} states {_names(search.targets_found)} are cut off"
        )
    return result(False, text, chain=None, reached=list(search.reached), **common)


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
    keys = resolve_states(found)
    water = checklist.water_borders if water_borders is None else water_borders
    score = population(keys) if total is None else total
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
    return value


def _item(raw: Any, index: int, source: str) -> Item:
    if not isinstance(raw, dict):
        raise ChecklistError(f"{_where(source, index)} each entry of items must be a table, got {raw!r}")
    key = raw.get("key")
    if not isinstance(key, str) or not key.strip():
        raise ChecklistError(f"{_where(source, index)} needs key = \"...\" (a non-empty string)")
    where = _where(source, index, key)
    unknown = sorted(set(raw) - _ITEM_KEYS)
    if unknown:
        raise ChecklistError(
            f"{where} unknown field {', '.join(unknown)}; allowed: {', '.join(sorted(_ITEM_KEYS))}"
        )
    title = raw.get("title", key)
    if not isinstance(title, str):
        raise ChecklistError(f"{where} title must be a string, got {title!r}")
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
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
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
