"""The US border graph, named groups of states, and chains of found states across it.

Plain functions over plain data: state keys go in, tuples and a :class:`ChainSearch` come out.

* :func:`border_graph` builds a networkx ``Graph`` of the 50 states whose edges are borders of
  positive length: the 105 land pairs, plus the 3 water-only pairs (IL-MI, MI-MN, NY-RI) when
  ``water=True``. Four Corners point contacts (AZ-CO, NM-UT) are never edges.
* :func:`state_group` names sets of states (``east_coast``, ``west_coast``, ...) that a
  checklist may write as ``"@east_coast"``; :func:`resolve_states` reads user text.
* :func:`find_chain` finds the shortest chain of *found* states from one set to another, each
  bordering the next; the coast-to-coast award is the chain from :func:`east_coast` to
  :func:`west_coast`.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING

from ..data.us import us_borders, us_states, us_states_info
from ..words import UnknownWordError
from .errors import ChecklistError

if TYPE_CHECKING:  # networkx loads in about a second: only the chains' own work imports it
    import networkx as nx

#: Named groups of states that checklists may write instead of a state, as ``"@east_coast"``.
STATE_GROUPS: tuple[str, ...] = ("east_coast", "west_coast", "atlantic", "pacific", "gulf", "great_lakes", "m_states")


# --------------------------------------------------------------------------- graph and states


@cache
def _graph(water: bool) -> nx.Graph:
    import networkx as nx

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

    Raises ChecklistError for an unknown group name.

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
    import networkx as nx

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


def cheapest_chain(
    cost: Mapping[str, int],
    sources: Iterable[str] | None = None,
    targets: Iterable[str] | None = None,
    water: bool = False,
) -> tuple[tuple[str, ...], int] | None:
    """The chain from a source state to a target state (defaults: the coasts, as
    :func:`find_chain`) whose states' summed ``cost`` is least, and that sum; None when no
    chain can be built. A state missing from ``cost`` may not be used (a forbidden state, or
    one left out); a found state costs 0, so the chains :func:`find_chain` finds cost 0.

    Used to ask what a grid lacks for a chain: with each state's cost the letters it is from
    spelled beyond the budget, the answer names the cheapest states to add. Among chains of
    least cost the fewest states win, then the alphabetically first key sequence.

    >>> cheapest_chain({"GEORGIA": 0, "TENNESSEE": 1, "ARKANSAS": 0, "OKLAHOMA": 2,
    ...                 "NEWMEXICO": 0, "ARIZONA": 0, "CALIFORNIA": 0})
    (('GEORGIA', 'TENNESSEE', 'ARKANSAS', 'OKLAHOMA', 'NEWMEXICO', 'ARIZONA', 'CALIFORNIA'), 3)
    """
    allowed = {state: int(c) for state, c in cost.items()}
    if any(c < 0 for c in allowed.values()):
        raise ValueError("cheapest_chain: a cost below 0")
    src = sorted(set(east_coast() if sources is None else resolve_states(sources)) & allowed.keys())
    dst = set(west_coast() if targets is None else resolve_states(targets)) & allowed.keys()
    sub = border_graph(water).subgraph(allowed)
    # (cost, states, chain): a total order, so the tie-break is part of the search
    frontier = [(allowed[s], 1, (s,)) for s in src]
    heapq.heapify(frontier)
    settled: set[str] = set()
    while frontier:
        spent, length, chain = heapq.heappop(frontier)
        if chain[-1] in settled:
            continue
        settled.add(chain[-1])
        if chain[-1] in dst:
            return chain, spent
        for step in sub.neighbors(chain[-1]):
            if step not in settled:
                heapq.heappush(frontier, (spent + allowed[step], length + 1, (*chain, step)))
    return None


# --------------------------------------------------------------------------- splitting by chain


def chain_steps(
    prefix: tuple[str, ...],
    starts: Iterable[str],
    ends: Iterable[str],
    avoid: Iterable[str] = (),
    water: bool = False,
) -> tuple[str, ...]:
    """The states that may follow ``prefix`` on a shortest chain from ``starts`` to ``ends``,
    alphabetical: the states of ``starts`` (less ``avoid``) when ``prefix`` is empty, none when
    the prefix already ends in ``ends``.

    Why this is enough to split a chain question: if a set of found states (none of ``avoid``)
    holds a chain from ``starts`` to ``ends``, a shortest one in it is an *induced* path (no
    state of it borders another but its neighbours on it, else there is a shortcut) whose
    inner states are in neither ``starts`` nor ``ends`` (else a part of it is a shorter chain).
    This function offers exactly those steps, so every shortest chain is a path of the tree
    they span, and each of its prefixes is a set of states the grid holds. A tree whose every
    branch is cut by a refuted prefix therefore refutes the chain.

    >>> chain_steps((), ["OREGON", "WASHINGTON", "CALIFORNIA"], ["MAINE"], avoid=["CALIFORNIA"])
    ('OREGON', 'WASHINGTON')
    >>> chain_steps(("WASHINGTON",), ["OREGON", "WASHINGTON"], ["MAINE"])
    ('IDAHO',)
    """
    graph = border_graph(water)
    keys = set(resolve_states(starts)), set(resolve_states(ends)), set(resolve_states(avoid))
    start_set, end_set, avoided = keys
    if not prefix:
        return tuple(sorted(start_set - avoided))
    last = prefix[-1]
    if last in end_set:
        return ()
    earlier = set(prefix[:-1])
    steps = (
        state for state in graph.neighbors(last)
        if state not in avoided and state not in start_set and state not in prefix
        and not earlier.intersection(graph.neighbors(state))
    )
    return tuple(sorted(steps))


def chain_completions(
    have: Iterable[str],
    sources: Iterable[str] | None = None,
    targets: Iterable[str] | None = None,
    avoid: Iterable[str] = (),
    water: bool = False,
    most: int = 6,
) -> tuple[tuple[str, ...], ...]:
    """Every minimal set of at most ``most`` states that, added to the states ``have``, makes a
    chain from a source to a target (defaults: the coasts, as :func:`find_chain`), never
    through a state of ``avoid``. Each set is sorted; the sets come fewest states first, then
    fewest letters, then alphabetically. ``()`` is the only set when ``have`` already holds a
    chain.

    Why this is every route: a chain in a set of states holds an induced one (no state of it
    borders another but its neighbours on it) whose inner states are neither sources nor
    targets (:func:`chain_steps`), so the states such paths add to ``have``, kept when no other
    such set is inside them, are exactly the minimal completions. A search for a chain can then
    ask for each set's states as required words, one route at a time.

    >>> chain_completions(["NEWMEXICO", "ARIZONA"], ["TEXAS"], ["CALIFORNIA"], most=2)
    (('CALIFORNIA', 'TEXAS'),)
    >>> chain_completions(["TEXAS", "NEWMEXICO", "ARIZONA", "CALIFORNIA"], ["TEXAS"], ["CALIFORNIA"])
    ((),)
    """
    if most < 0:
        raise ValueError("chain_completions: most below 0")
    graph = border_graph(water)
    have_set = set(resolve_states(have))
    avoided = set(resolve_states(avoid))
    start_set = set(east_coast() if sources is None else resolve_states(sources)) - avoided
    end_set = set(west_coast() if targets is None else resolve_states(targets)) - avoided
    found: set[frozenset[str]] = set()

    def extend(path: list[str], extra: frozenset[str]) -> None:
        last = path[-1]
        if last in end_set:
            found.add(extra)
            return
        for step in graph.neighbors(last):
            if step in avoided or step in start_set or step in path:
                continue
            if any(graph.has_edge(step, earlier) for earlier in path[:-1]):
                continue  # a chord: the shorter path is enumerated on its own
            more = extra if step in have_set else extra | {step}
            if len(more) <= most:
                extend([*path, step], more)

    for start in sorted(start_set):
        first = frozenset() if start in have_set else frozenset({start})
        if len(first) <= most:
            extend([start], first)
    minimal = [s for s in found if not any(other < s for other in found)]
    ordered = sorted(minimal, key=lambda s: (len(s), sum(len(w) for w in s), sorted(s)))
    return tuple(tuple(sorted(s)) for s in ordered)
