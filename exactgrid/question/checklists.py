"""Checklists as questions: the items of a checklist (awards) as hard constraints."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from ..awards import Checklist, default_checklist, load_checklist
from ..awards.chains import border_graph
from ..data.us import us_states
from ..inputs import as_items, check_kind
from ..wording import first_few
from .core import Chain, Question, SpecError
from .requirement import Requirement


def choose_checklist(checklist: Checklist | str | Path | None = None, awards: Iterable[str] = ()) -> Checklist | None:
    """The checklist asked for: a Checklist, a TOML file, or (None) the default Altered States 2
    awards; narrowed to the item keys in ``awards`` when given. None when neither is given."""
    awards = as_items(awards, "awards")
    if checklist is None and not awards:
        return None
    if checklist is None:
        chosen = default_checklist()
    elif isinstance(checklist, Checklist):
        chosen = checklist
    else:
        chosen = load_checklist(checklist)
    return chosen.select(awards) if awards else chosen


def checklist_question(question: Question, checklist: Checklist, water_borders: bool | None = None) -> Question:
    """``question`` with the items of ``checklist`` as hard constraints, exactly: a required item
    requires its states, a forbidden item forbids them, ``min_states`` and ``min_score`` become
    ``min_count`` and ``min_score`` (over every word of the list: optional becomes "all"), and a
    chain item (coast-to-coast) becomes a :class:`Chain` over the US border graph (land borders,
    plus water-only pairs when ``water_borders`` or the checklist or item says so).

    Raises SpecError when the items contradict each other or the question (a state both
    required and forbidden), name states the question's word list does not hold, or the list
    holds a word that is not a US state (a checklist judges US states: its counts, scores and
    chains are over states).
    """
    check_kind(question, Question, "checklist_question()")
    check_kind(checklist, Checklist, "checklist_question()'s checklist (such as eg.default_checklist())")
    _check_us_states(question)
    water = checklist.water_borders if water_borders is None else water_borders
    required = list(question.required)
    have = set(question.required_words)
    forbidden = list(question.forbidden)
    chains = list(question.chains)
    min_count, min_score = question.min_count, question.min_score
    for item in checklist.items:
        if item.kind == "required":
            for word in item.states:
                if word not in have:
                    required.append(Requirement(word))
                    have.add(word)
        elif item.kind == "forbidden":
            forbidden += [w for w in item.states if w not in forbidden]
        elif item.kind == "min_states":
            min_count = max(min_count or 0, item.threshold)
        elif item.kind == "min_score":
            min_score = max(min_score or 0, item.threshold)
        elif item.kind == "chain" and item.chain is not None:
            use_water = item.chain.water if item.chain.water is not None else water
            links = frozenset(border_graph(use_water).edges)
            chains.append(Chain(item.chain.sources, item.chain.targets, links, label=item.key))
    targets = [item.key for item in checklist.items if item.kind in ("min_states", "min_score")]
    if targets:
        _check_targets_count_every_word(question, targets)
    counts = min_count is not None or min_score is not None
    optional = "all" if counts and not question.optional else question.optional
    return question.but(required=tuple(required), forbidden=tuple(forbidden), chains=tuple(chains),
                        min_count=min_count, min_score=min_score, optional=optional)


def _check_us_states(question: Question) -> None:
    """SpecError when the question's word list holds words that are not US states."""
    strangers = [w for w in question.words.weights if w not in us_states()]
    if strangers:
        named = first_few(strangers)
        which = "is not a state" if len(strangers) == 1 else "are not states"
        raise SpecError(f"a checklist judges US states, and the word list holds {named}, which {which}; "
                        "use a list of states, or drop the awards")


def _check_targets_count_every_word(question: Question, targets: list[str]) -> None:
    """An item's ``min_states`` or ``min_score`` counts every word of the list at its list
    weight, and a question has one scored set: so the question must score every word so (its
    optional words all of them, as a question with a target and no optional word of its own
    does), or have no optional word. Otherwise the merged target would count another set than
    one of the two asks (a proven DOES NOT FIT, or a FITS, for a question nobody asked):
    SpecError."""
    named = " and ".join(targets) + (" count" if len(targets) > 1 else " counts")
    if question.optional and question.optional != question.but(optional="all").optional:
        raise SpecError(f"{named} every word at its own weight; with optional words of your own "
                        "they would count only those: ask for every word (optional 'all'), or drop the award")
