"""Achievements over the US border graph: coast-to-coast chains, awards and checklists.

* :mod:`exactgrid.awards.chains`: the networkx border graph, named groups of states, and the
  shortest chain of found states from one group to another (:func:`find_chain`).
* :mod:`exactgrid.awards.checklist`: checklists read from TOML (:func:`load_checklist`,
  :func:`default_checklist`) and their verdict on a set of found states (:func:`evaluate`).

This package returns data only; the evidence sentences shown to people are written by
:func:`exactgrid.render.item_evidence`.
"""

from .chains import (
    STATE_GROUPS,
    ChainSearch,
    border_graph,
    chain_completions,
    chain_steps,
    cheapest_chain,
    east_coast,
    find_chain,
    is_chain,
    population,
    resolve_states,
    state_group,
    west_coast,
)
from .checklist import (
    ITEM_KINDS,
    QUALIFY_SCORE,
    ChainTest,
    Checklist,
    ChecklistResult,
    Item,
    ItemKind,
    ItemResult,
    checklist_from_dict,
    default_checklist,
    evaluate,
    evaluate_item,
    load_checklist,
    parse_checklist,
)
from .errors import ChecklistError

__all__ = [
    "ITEM_KINDS",
    "QUALIFY_SCORE",
    "STATE_GROUPS",
    "ChainSearch",
    "ChainTest",
    "Checklist",
    "ChecklistError",
    "ChecklistResult",
    "Item",
    "ItemKind",
    "ItemResult",
    "border_graph",
    "chain_completions",
    "chain_steps",
    "cheapest_chain",
    "checklist_from_dict",
    "default_checklist",
    "east_coast",
    "evaluate",
    "evaluate_item",
    "find_chain",
    "is_chain",
    "load_checklist",
    "parse_checklist",
    "population",
    "resolve_states",
    "state_group",
    "west_coast",
]
