"""The border graph, state groups and chains (exactgrid.awards.chains)."""

import random

import networkx as nx
import pytest

from exactgrid.awards import (
    ChecklistError,
    border_graph,
    cheapest_chain,
    east_coast,
    find_chain,
    is_chain,
    resolve_states,
    state_group,
    west_coast,
)
from exactgrid.data.us import us_states

# ---------------------------------------------------------------- graph and groups


def test_border_graph_land_and_water():
    land, water = border_graph(), border_graph(water=True)
    assert (land.number_of_nodes(), land.number_of_edges()) == (50, 105)
    assert water.number_of_edges() == 108
    assert not land.has_edge("ARIZONA", "COLORADO")
    assert not water.has_edge("NEWMEXICO", "UTAH")
    assert not land.has_edge("ILLINOIS", "MICHIGAN") and water.has_edge("ILLINOIS", "MICHIGAN")
    assert land.degree("TENNESSEE") == 8 and land.degree("MAINE") == 1


def test_coasts():
    assert west_coast() == ("CALIFORNIA", "OREGON", "WASHINGTON")
    assert len(east_coast()) == 14
    assert {"FLORIDA", "MAINE", "GEORGIA", "VIRGINIA"} <= set(east_coast())
    assert "PENNSYLVANIA" not in east_coast() and "VERMONT" not in east_coast()


def test_resolve_states_accepts_names_codes_and_groups():
    assert resolve_states(["New York", "pa", "NEWJERSEY", "NY"]) == ("NEWYORK", "PENNSYLVANIA", "NEWJERSEY")
    assert resolve_states(["@west_coast"]) == ("CALIFORNIA", "OREGON", "WASHINGTON")
    with pytest.raises(ChecklistError, match="unknown state 'Narnia'"):
        resolve_states(["Narnia"])
    with pytest.raises(ChecklistError, match="unknown state group"):
        resolve_states(["@north_coast"])


# ---------------------------------------------------------------- chains on given sets


def test_reference_chains_are_valid_on_land():
    assert is_chain("CALIFORNIA NEVADA UTAH COLORADO NEBRASKA IOWA ILLINOIS INDIANA KENTUCKY VIRGINIA".split())
    assert is_chain("FLORIDA ALABAMA MISSISSIPPI ARKANSAS MISSOURI KANSAS COLORADO UTAH IDAHO OREGON".split())
    assert is_chain(["CA", "AZ", "NM", "OK", "AR", "TN", "GA"])
    assert not is_chain(["CALIFORNIA", "ARIZONA", "COLORADO", "KANSAS"])  # AZ-CO is a point
    assert not is_chain(["MICHIGAN", "MINNESOTA"]) and is_chain(["MICHIGAN", "MINNESOTA"], water=True)
    assert not is_chain(["OHIO", "PENNSYLVANIA", "OHIO"])  # no repeats


def test_shortest_chain_within_the_reference_chain_skips_indiana():
    # Illinois borders Kentucky (Ohio River), so Indiana is not needed; every other step is forced:
    # VA's only found neighbour is KY, CA's is NV, NV's UT, UT's CO, CO's NE, NE's IA, IA's IL.
    found = "CALIFORNIA NEVADA UTAH COLORADO NEBRASKA IOWA ILLINOIS INDIANA KENTUCKY VIRGINIA".split()
    search = find_chain(found)
    assert search.chain == (
        "VIRGINIA", "KENTUCKY", "ILLINOIS", "IOWA", "NEBRASKA", "COLORADO", "UTAH", "NEVADA", "CALIFORNIA",
    )


def test_seven_state_chain_reported_east_to_west():
    found = ["CA", "AZ", "NM", "OK", "AR", "TN", "GA"]
    assert find_chain(found).chain == (
        "GEORGIA", "TENNESSEE", "ARKANSAS", "OKLAHOMA", "NEWMEXICO", "ARIZONA", "CALIFORNIA",
    )


def test_shortest_land_chain_over_all_states_has_seven():
    chain = find_chain(us_states().words).chain
    assert chain is not None and len(chain) == 7
    assert chain[0] in east_coast() and chain[-1] in west_coast()
    assert is_chain(chain)


def test_tie_break_is_alphabetical_first_chain():
    # NC and GA both start 7-state chains (NC-TN, GA-TN); at AR both OK and TX lead on to NM.
    found = ["CA", "AZ", "NM", "OK", "TX", "AR", "TN", "GA", "NC"]
    assert find_chain(found).chain == (
        "GEORGIA", "TENNESSEE", "ARKANSAS", "OKLAHOMA", "NEWMEXICO", "ARIZONA", "CALIFORNIA",
    )
    assert find_chain(list(reversed(found))).chain == find_chain(found).chain


def test_arizona_colorado_point_contact_gives_no_chain():
    # West part {CA, AZ} meets the east part {CO, KS, MO, KY, VA} only at the Four Corners point.
    found = ["CALIFORNIA", "ARIZONA", "COLORADO", "KANSAS", "MISSOURI", "KENTUCKY", "VIRGINIA"]
    for water in (False, True):
        search = find_chain(found, water=water)
        assert search.chain is None
        assert search.reached == ("COLORADO", "KANSAS", "KENTUCKY", "MISSOURI", "VIRGINIA")
    # Either Utah or New Mexico closes the gap through a real border.
    assert find_chain([*found, "UTAH"]).chain == (
        "VIRGINIA", "KENTUCKY", "MISSOURI", "KANSAS", "COLORADO", "UTAH", "ARIZONA", "CALIFORNIA",
    )
    assert find_chain([*found, "NEWMEXICO"]).chain[4:6] == ("COLORADO", "NEWMEXICO")


def test_water_borders_open_a_chain_through_michigan():
    # Michigan's land neighbours are IN, OH, WI; it meets Minnesota only in Lake Superior.
    found = ["NEWYORK", "PENNSYLVANIA", "OHIO", "MICHIGAN", "MINNESOTA", "NORTHDAKOTA", "MONTANA", "IDAHO", "OREGON"]
    assert find_chain(found).chain is None
    assert find_chain(found, water=True).chain == (
        "NEWYORK", "PENNSYLVANIA", "OHIO", "MICHIGAN", "MINNESOTA", "NORTHDAKOTA", "MONTANA", "IDAHO", "OREGON",
    )


def test_custom_chain_endpoints_and_single_state_chain():
    assert find_chain(["OHIO"], sources=["OH"], targets=["Ohio"]).chain == ("OHIO",)
    assert find_chain(["TEXAS", "OKLAHOMA", "KANSAS"], sources=["TX"], targets=["KS"]).chain == (
        "TEXAS", "OKLAHOMA", "KANSAS",
    )


def test_state_groups():
    assert len(state_group("m_states")) == 8 and all(s.startswith("M") for s in state_group("m_states"))
    assert set(state_group("great_lakes")) >= {"MICHIGAN", "OHIO", "NEWYORK"}
    with pytest.raises(ChecklistError, match="unknown state group @mars"):
        state_group("mars")


def test_chain_search_reports_found():
    assert find_chain(["CA", "AZ", "NM", "OK", "AR", "TN", "GA"]).found
    assert not find_chain(["CALIFORNIA", "VIRGINIA"]).found


# ---------------------------------------------------------------- splitting a chain question


def _tree_reaches(found: set[str], starts: tuple[str, ...], ends: tuple[str, ...], avoid: tuple[str, ...]) -> bool:
    """Whether the tree of chain_steps, walked only through found states, reaches an end."""
    from exactgrid.awards import chain_steps

    def walk(prefix: tuple[str, ...]) -> bool:
        if prefix and prefix[-1] in ends:
            return True
        return any(walk((*prefix, s)) for s in chain_steps(prefix, starts, ends, avoid) if s in found)

    return walk(())


def test_chain_steps_tree_holds_a_chain_exactly_when_find_chain_does():
    # the tree refutes a chain only by refuting prefixes, so it must reach an end within every
    # found set that find_chain (an independent breadth-first search) says holds a chain
    import random

    rng = random.Random(7)
    states = sorted(us_states().words)
    west = ("OREGON", "WASHINGTON")
    checked = {True: 0, False: 0}
    for _ in range(300):
        found = {s for s in states if rng.random() < 0.55} - {"CALIFORNIA"}
        expected = find_chain(found).found
        assert _tree_reaches(found, (*west, "CALIFORNIA"), east_coast(), ("CALIFORNIA",)) == expected
        checked[expected] += 1
    assert min(checked.values()) > 20  # both answers were exercised


def test_chain_steps_are_induced_and_stop_at_the_ends():
    from exactgrid.awards import chain_steps

    ends = east_coast()
    assert chain_steps((), west_coast(), ends, avoid=["CA"]) == ("OREGON", "WASHINGTON")
    assert chain_steps(("OREGON",), west_coast(), ends, avoid=["CA"]) == ("IDAHO", "NEVADA")
    # Idaho borders Oregon: after OR, NV the chain may not go on to Idaho (OR-ID is shorter)
    assert "IDAHO" not in chain_steps(("OREGON", "NEVADA"), west_coast(), ends, avoid=["CA"])
    assert chain_steps(("OREGON", "NEVADA"), west_coast(), ends, avoid=["CA"]) == ("ARIZONA", "UTAH")
    assert chain_steps(("PENNSYLVANIA", "MARYLAND"), ["PA"], ends) == ()


def _region(rng, size):
    """A connected set of ``size`` states grown from a random bordering one."""
    graph = border_graph()
    region = [rng.choice(sorted(s for s in graph.nodes if graph.degree(s) > 0))]
    while len(region) < size:
        around = sorted({n for s in region for n in graph.neighbors(s)} - set(region))
        region.append(rng.choice(around))
    return region


@pytest.mark.parametrize("seed", range(30))
def test_cheapest_chain_is_the_least_of_every_simple_path(seed):
    rng = random.Random(seed)
    region = _region(rng, 9)
    cost = {s: rng.choice([0, 0, 1, 2, 5]) for s in region}
    sources = rng.sample(region, 3)
    targets = rng.sample(region, 2)
    sub = border_graph().subgraph(region)
    every = [(cost[s], 1, (s,)) for s in sources if s in targets]
    for s in sources:
        for t in targets:
            if s != t:
                every += [(sum(cost[x] for x in p), len(p), tuple(p)) for p in nx.all_simple_paths(sub, s, t)]
    expected = min(every, default=None)
    got = cheapest_chain(cost, sources, targets)
    assert got == (None if expected is None else (expected[2], expected[0]))


def test_cheapest_chain_of_found_states_is_find_chains_chain():
    found = ["CALIFORNIA", "ARIZONA", "NEWMEXICO", "OKLAHOMA", "ARKANSAS", "TENNESSEE", "GEORGIA",
             "TEXAS", "LOUISIANA", "MISSISSIPPI", "ALABAMA", "FLORIDA"]
    assert cheapest_chain(dict.fromkeys(found, 0)) == (find_chain(found).chain, 0)
    assert cheapest_chain(dict.fromkeys(found[1:], 0)) is None  # no west coast state may be used
    with pytest.raises(ValueError):
        cheapest_chain({"OREGON": -1})


def _minimal_completions_by_brute_force(have: set[str], avoid: set[str], most: int) -> set[frozenset[str]]:
    """Every set of at most ``most`` other states that completes a chain (find_chain), kept
    when no smaller such set is inside it."""
    from itertools import combinations

    others = sorted(set(us_states().words) - have - avoid)
    completing = [frozenset(extra) for k in range(most + 1) for extra in combinations(others, k)
                  if find_chain(have | set(extra)).found]
    return {s for s in completing if not any(t < s for t in completing)}


def test_chain_completions_are_the_minimal_sets_that_brute_force_finds():
    from exactgrid.awards import chain_completions

    rng = random.Random(11)
    states = sorted(us_states().words)
    sizes = []
    for density in (0.3, 0.5, 0.7) * 4:
        have = {s for s in states if rng.random() < density}
        avoid = {"CALIFORNIA"} if rng.random() < 0.5 else set()
        have -= avoid
        got = chain_completions(have, avoid=avoid, most=2)
        assert len(set(got)) == len(got) and all(list(s) == sorted(s) for s in got)
        assert {frozenset(s) for s in got} == _minimal_completions_by_brute_force(have, avoid, 2)
        assert [len(s) for s in got] == sorted(len(s) for s in got)
        sizes += [len(s) for s in got]
    assert {0, 1, 2} <= set(sizes)  # the random sets exercised chains there, one and two away


def test_chain_completions_of_the_thirteen_award_states_without_california():
    from exactgrid.awards import chain_completions

    thirteen = ["PA", "ME", "MD", "MA", "MI", "MN", "MS", "MO", "MT", "AZ", "CO", "NM", "UT"]
    routes = chain_completions(thirteen, avoid=["CA"], most=5)
    # by hand: MD-PA-OH-KY-MO-KS-CO-UT-ID-OR is a chain through the thirteen plus five states,
    # and no four states complete one (Missouri and the Four Corners are at least five from
    # the Atlantic and the Pacific through non-award states)
    assert ("IDAHO", "KANSAS", "KENTUCKY", "OHIO", "OREGON") in routes
    assert min(len(r) for r in routes) == 5
    assert all("CALIFORNIA" not in r for r in routes)
    for route in routes:
        assert find_chain(set(resolve_states(thirteen)) | set(route)).found
