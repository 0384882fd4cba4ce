"""What a picture of a grid shows, as plain data: no matplotlib here.

:func:`picture_of` turns a grid (or a score, a fit answer, a solve answer) into a
:class:`Picture`: the grid with how many found words *need* each cell, one :class:`Panel` per
found word (its path as numbered steps, revisits and the altered cell), and, for the US states,
a :class:`TileMap` with the found states, the checklist's chain and the award badges.
:mod:`exactgrid.render.figure` draws it; tests read it directly.

A cell is *needed* by a found word when the word is lost if the cell's letter changes (to one
the word does not contain): then every walk that spells the word passes through it with its
letter read as is. A cell no found word needs is *spare*: any letter there keeps every word
(it can only add words). This does not depend on which witness path is shown.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from ..awards import Checklist, ChecklistResult, default_checklist, evaluate, load_checklist
from ..data import word_list
from ..data.us import state, us_states, us_tiles
from ..finder import Match, Score, is_found, score
from ..geometry import MoveRule, PathRule
from ..grid import Grid, as_grid
from ..inputs import InputError
from ..words import WordList
from .text import marked_spelling

if TYPE_CHECKING:
    from ..fitting import FitAnswer
    from ..solving import SolveAnswer


MAX_PANELS = 60
"""Word panels drawn by default: all 50 states, but not the thousands a dictionary may find."""


class NothingToDraw(InputError):
    """An answer without a grid (does not fit, unknown), or a checklist where none applies."""


@dataclass(frozen=True)
class Step:
    """One move of a path: from cell ``start`` to cell ``end``, the ``number``-th (1-based).

    ``lane`` separates strokes that would lie on top of each other: 0 when this pair of cells
    is crossed once in the path (a straight arrow), else 1, 2, ... for the first, second, ...
    crossing in this direction (curved arrows; the two directions curve to opposite sides).
    """

    start: int
    end: int
    number: int
    lane: int


@dataclass(frozen=True)
class Alteration:
    """A cell read as another letter: at ``position`` (1-based) the word has ``wanted``, the
    grid ``shown``."""

    cell: int
    position: int
    shown: str
    wanted: str


@dataclass(frozen=True)
class Panel:
    """One found word: its title, weight, spelling, and path."""

    word: str
    name: str
    weight: int
    spelled: str
    """As the finder reads it, altered letters in lower case (``InLINOIS``)."""
    path: tuple[int, ...]
    steps: tuple[Step, ...]
    alterations: tuple[Alteration, ...]

    @property
    def visits(self) -> dict[int, tuple[int, ...]]:
        """For each cell of the path, the 1-based letter positions read there (ascending)."""
        out: dict[int, list[int]] = {}
        for position, cell in enumerate(self.path, start=1):
            out.setdefault(cell, []).append(position)
        return {cell: tuple(positions) for cell, positions in out.items()}

    @property
    def revisited(self) -> tuple[int, ...]:
        """Cells the path reads more than once, ascending."""
        return tuple(sorted(cell for cell, positions in self.visits.items() if len(positions) > 1))


@dataclass(frozen=True)
class Badge:
    """A checklist item: its key, title and whether the grid meets it."""

    key: str
    title: str
    met: bool


@dataclass(frozen=True)
class TileMap:
    """The 48 contiguous states on a square tile map (key -> (column, row)), the found ones,
    a chain through found states (or None) and the checklist's badges."""

    tiles: Mapping[str, tuple[int, int]]
    labels: Mapping[str, str]
    found: frozenset[str]
    chain: tuple[str, ...] | None
    chain_title: str
    badges: tuple[Badge, ...]
    checklist: str


@dataclass(frozen=True)
class Picture:
    """Everything a picture of one grid shows."""

    grid: Grid
    caption: str
    total: int
    weight_label: str
    needed: tuple[int, ...]
    """Per cell: how many found words need it (0: a spare cell)."""
    panels: tuple[Panel, ...]
    omitted: int = 0
    """Found words without a panel (``max_panels``), the lightest."""
    tile_map: TileMap | None = None
    heading: str = ""
    """What the grid is (``fit: FITS``, ``solve: best of 60 s``), or empty."""

    @property
    def spare(self) -> tuple[int, ...]:
        """Cells no found word needs."""
        return tuple(cell for cell, count in enumerate(self.needed) if count == 0)


# --------------------------------------------------------------------------- building


def steps_of(path: tuple[int, ...]) -> tuple[Step, ...]:
    """The moves of a path, numbered from 1, each with its lane (see :class:`Step`).

    >>> [(s.start, s.end, s.lane) for s in steps_of((4, 5, 4, 1))]
    [(4, 5, 1), (5, 4, 1), (4, 1, 0)]
    """
    moves = list(zip(path, path[1:]))
    crossings = Counter(frozenset(move) for move in moves)
    seen: Counter[tuple[int, int]] = Counter()
    steps = []
    for number, (start, end) in enumerate(moves, start=1):
        seen[start, end] += 1
        lane = 0 if crossings[frozenset((start, end))] == 1 else seen[start, end]
        steps.append(Step(start, end, number, lane))
    return tuple(steps)


def panel_of(match: Match, weight: int, name: str) -> Panel:
    """The panel of one found word from its witness."""
    alterations = tuple(Alteration(match.path[i], i + 1, match.spelled[i], match.word[i]) for i in match.altered)
    return Panel(match.word, name, weight, marked_spelling(match), match.path, steps_of(match.path), alterations)


def needed_counts(result: Score) -> tuple[int, ...]:
    """Per cell, how many found words are lost when its letter changes to one they lack.

    Only cells on a word's witness path can be needed by it (the witness survives any other
    change), so each word is re-checked by the finder once per cell of its witness.
    """
    grid = result.grid
    counts = [0] * grid.board.size
    for scored in result.found:
        word = scored.match.word
        lacking = [c for c in "QZXJKVWYBFGHPMUCDLNTSRIOAE" if c not in word][:1]
        for cell in set(scored.match.path):
            # a letter the word lacks is the worst a cell can hold; a word with all 26 letters
            # has no such letter, and then every other letter is tried
            tried = lacking or [c for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZ" if c != grid.letters[cell]]
            if any(not is_found(Grid(grid.board, grid.letters[:cell] + letter + grid.letters[cell + 1:]), word,
                                result.budget, result.path_rule) for letter in tried):
                counts[cell] += 1
    return tuple(counts)


def caption_of(result: Score) -> str:
    """One line: the letters (the first 45 and ``...`` past 48) and the rules
    (``THOAINESL  3x3, king moves, walks, budget 1``)."""
    letters = result.grid.letters if len(result.grid.letters) <= 48 else result.grid.letters[:45] + "..."
    return f"{letters}  {result.rules}"


def is_us_states(words: WordList | None) -> bool:
    """Whether a list is the bundled US states (so that awards and the map apply)."""
    return words is not None and words.name == us_states().name and set(words) <= set(us_states())


def tile_map_of(found: frozenset[str], checklist: ChecklistResult) -> TileMap:
    """The map panel: found states, the first chain item's chain (if met) and every badge."""
    chains = [r for r in checklist.items if r.kind == "chain"]
    chain = tuple(chains[0].details["chain"]) if chains and chains[0].details.get("chain") else None
    tiles = us_tiles()
    return TileMap(
        tiles=tiles,
        labels={key: state(key).abbr for key in tiles},
        found=frozenset(found),
        chain=chain,
        chain_title=chains[0].title if chains else "",
        badges=tuple(Badge(r.key, r.title, r.passed) for r in checklist.items),
        checklist=checklist.checklist.name,
    )


def _checklist(checklist: Checklist | ChecklistResult | str | Path | None) -> Checklist | ChecklistResult:
    if checklist is None:
        return default_checklist()
    if isinstance(checklist, Checklist | ChecklistResult):
        return checklist
    return load_checklist(checklist)


def picture_of(
    subject: Grid | str | Score | FitAnswer | SolveAnswer,
    *,
    words: WordList | str | Path | None = None,
    budget: int = 1,
    path_rule: PathRule = "walk",
    shape: str | tuple[int, int] | None = None,
    moves: MoveRule | None = None,
    checklist: Checklist | ChecklistResult | str | Path | None = None,
    water_borders: bool | None = None,
    tile_map: bool | None = None,
    max_panels: int | None = MAX_PANELS,
) -> Picture:
    """What the picture of ``subject`` shows.

    ``subject`` is a grid (letters are read as :func:`~exactgrid.grid.parse_grid` reads them,
    with ``shape`` and ``moves``, king moves by default; a Grid keeps its own board, and other
    moves or another shape asked of it are refused), a :class:`~exactgrid.finder.Score`, or the answer of ``fit``
    or ``solve`` (its question's word list and rules; a fit answer's required words are shown
    spelled the way the question pins them). ``words``, ``budget`` and ``path_rule`` apply to a
    grid only. Panels come heaviest word first; ``max_panels`` keeps the first N (default
    :data:`MAX_PANELS`; None: every word found).

    The map panel (``tile_map``; default: when the words are the US states) shows the
    checklist (default: the Altered States 2 awards) evaluated on the found states; a
    checklist on another word list is an error, as in ``exactgrid check``.

    >>> p = picture_of("thoainesl")
    >>> [(x.word, len(x.steps), x.revisited) for x in p.panels][:2]
    [('ILLINOIS', 7, (4, 5)), ('OHIO', 3, (2,))]
    >>> p.spare, p.tile_map.chain  # the E of IEAHO: any letter there still spells IDAHO
    ((6,), None)
    """
    result, witnesses, heading = _read_subject(subject, words, budget, path_rule, shape, moves)
    if max_panels is not None and (isinstance(max_panels, bool) or not isinstance(max_panels, int)
                                   or max_panels < 0):
        raise InputError(f"max_panels must be a whole number 0 or more, got {max_panels!r}")
    names = result.word_list
    chosen = result.found if max_panels is None else result.found[:max_panels]
    panels = tuple(
        panel_of(witnesses.get(s.match.word, s.match), s.weight,
                 names.display(s.match.word) if names is not None else s.match.word)
        for s in chosen
    )
    us = is_us_states(names)
    if tile_map and not us:
        raise NothingToDraw("the map shows US states; this grid was scored on another word list")
    if checklist is not None and not us:
        raise NothingToDraw("a checklist judges US states; this grid was scored on another word list")
    drawn_map = None
    if us and tile_map is not False:
        judged = _checklist(checklist)
        if isinstance(judged, Checklist):
            judged = evaluate(judged, result.words, result.total, water_borders)
        drawn_map = tile_map_of(result.words, judged)
    label = names.weight_label if names is not None else "weight"
    return Picture(result.grid, caption_of(result), result.total, label, needed_counts(result), panels,
                   len(result.found) - len(chosen), drawn_map, heading)


def _read_subject(
    subject: object, words: WordList | str | Path | None, budget: int, path_rule: PathRule,
    shape: str | tuple[int, int] | None, moves: MoveRule | None,
) -> tuple[Score, dict[str, Match], str]:
    """The score to draw, witnesses that replace the score's, and a heading. An answer says
    what it draws through its ``picture_parts()`` (so that this layer imports no solver)."""
    if isinstance(subject, Grid | str):
        grid = as_grid(subject, shape, moves)
        listed = word_list(words)
        return score(grid, listed, listed.check_budget(budget), path_rule), {}, ""
    if isinstance(subject, Score):
        if not getattr(subject, "complete", True):  # a ScoreAnswer cut short: drawing it would show part as all
            raise NothingToDraw("the score was cut short (the time limit or a signal came first): nothing to draw")
        return subject, {}, ""
    parts = getattr(subject, "picture_parts", None)
    if callable(parts):  # an answer (fit, solve) says what to draw
        drawn = parts()
        if isinstance(drawn, str):
            raise NothingToDraw(drawn)
        return drawn
    raise InputError(f"cannot draw a {type(subject).__name__}: give a grid, a Score, or a fit or solve answer")
