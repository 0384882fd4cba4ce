"""Independent checks of a grid against a fit question, with the finder alone.

Nothing here looks at the encoder's model: a grid is accepted only when the exact finder
spells every requirement the way it is pinned down and spells no forbidden word.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from .awards import Checklist, ChecklistResult, evaluate
from .finder import Match, Score, fewest_alterations, find, find_pattern, letters_off_limit, score
from .grid import Grid
from .question import Question, Requirement
from .wording import letters_off, plural


def requirement_holds(grid: Grid, req: Requirement, budget: int, path_rule: str) -> Match | None:
    """The witness (a Match) that ``grid`` meets ``req``, or None. Independent of the model."""
    steps = req.pattern()
    if steps is None:
        return find(grid, req.word, budget, path_rule)  # type: ignore[arg-type]
    return find_pattern(grid, req.word, steps, path_rule)  # type: ignore[arg-type]


@dataclass(frozen=True)
class GridCheck:
    """What the finder says of a grid against a question."""

    question: Question
    grid: Grid
    witnesses: tuple[Match, ...]
    """How each requirement met is spelled, in the question's order (missing ones left out)."""
    problems: tuple[str, ...]
    """Every way the grid fails the question, one line each; empty when it meets it."""

    @property
    def ok(self) -> bool:
        """Whether the grid meets the question."""
        return not self.problems

    @cached_property
    def score(self) -> Score:
        """The grid's full score on the question's word list (computed when first asked for)."""
        q = self.question
        return score(self.grid, q.words, q.budget, q.path_rule)


def cell_problems(spec: Question, grid: Grid) -> list[str]:
    """What ``grid`` breaks of ``spec``'s fixed cells and letter domains, a line each."""
    label = spec.board.label
    return ([f"fixed cell {label(cell)} is not {letter}"
             for cell, letter in spec.fixed.items() if grid.letters[cell] != letter]
            + [f"cell {label(cell)} holds {grid.letters[cell]}, not one of {letters}"
               for cell, letters in spec.domains.items() if grid.letters[cell] not in letters])


def check_grid(spec: Question, grid: Grid, measure: bool = False) -> GridCheck:
    """Check a grid against a question with the finder alone (a grid on another board or move
    rule than the question's is rejected as such). ``measure``: each required word
    not spelled also says how many letters its nearest path is off (``MAINE is not spelled (2
    letters off)``; a pinned spelling is not measured)."""
    if grid.board.size != spec.board.size or grid.board.neighbours != spec.board.neighbours:
        other = f"the grid is on {grid.board.shape_name} ({grid.board.moves_text}), the question on " \
                f"{spec.board.shape_name} ({spec.board.moves_text})"
        return GridCheck(spec, grid, (), (other,))
    problems: list[str] = []
    witnesses: list[Match] = []
    for req in spec.required:
        match = requirement_holds(grid, req, spec.budget, spec.path_rule)
        if match is None:
            problems.append(f"{req.describe()} is not spelled{_how_far(grid, req, spec) if measure else ''}")
        else:
            witnesses.append(match)
    for word in spec.forbidden:
        if find(grid, word, spec.budget, spec.path_rule) is not None:
            problems.append(f"forbidden {word} is spelled")
    problems += cell_problems(spec, grid)
    if spec.min_score is not None or spec.min_count is not None:
        weights = spec.scoring_weights()
        counted = [w for w in weights if find(grid, w, spec.budget, spec.path_rule) is not None]
        if spec.min_score is not None:
            total = sum(weights[w] for w in counted)
            if total < spec.min_score:
                problems.append(f"scores {total:,} < {spec.min_score:,}")
        if spec.min_count is not None and len(counted) < spec.min_count:
            problems.append(f"holds {plural(len(counted), 'word')} < {spec.min_count}")
    if spec.chains:
        nodes = {w for chain in spec.chains for w in chain.nodes}
        present = [w for w in sorted(nodes) if find(grid, w, spec.budget, spec.path_rule) is not None]
        for chain in spec.chains:
            if chain.path(present) is None:
                problems.append(f"no {chain.label} chain of words found")
    return GridCheck(spec, grid, tuple(witnesses), tuple(problems))


def _how_far(grid: Grid, req: Requirement, spec: Question) -> str:
    """`` (N letters off)`` for a plain required word, else nothing."""
    if req.pattern() is not None:
        return ""
    within = letters_off_limit(spec.path_rule, spec.budget)
    return f" ({letters_off(fewest_alterations(grid, req.word, spec.path_rule, within), within)})"


def checklist_verdict(checklist: Checklist, result: Score, water_borders: bool | None = None) -> ChecklistResult:
    """The checklist's verdict on a scored grid, each missing state of a required item with the
    fewest letters a path must alter to spell it (``details.letters_off``), as ``check`` shows it."""
    return with_letters_off(evaluate(checklist, result.words, result.total, water_borders), result)


def with_letters_off(verdict: ChecklistResult, result: Score) -> ChecklistResult:
    """``verdict`` with each missing state of a required item given the fewest letters a path
    on ``result``'s grid must alter to spell it (``details.letters_off``): the evidence
    ``check`` shows, a search of its own on simple paths."""
    within = letters_off_limit(result.path_rule, result.budget)
    return verdict.with_letters_off(
        {state: fewest_alterations(result.grid, state, result.path_rule, within) for state in verdict.missing}, within)
