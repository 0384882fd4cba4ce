"""The library's front door: the few calls most users need, with sensible defaults.

``import exactgrid as eg`` re-exports these (see ``exactgrid/__init__.py``)::

    import exactgrid as eg
    print(eg.score("thoainesl").total)                          # 32913047
    question = eg.Question(eg.Board(3, 3), required=["OHIO", "UTAH=ATAH"], forbidden=["TEXAS"])
    answer = eg.fit(question, time_limit=30)
    print(answer.verdict, answer.grid)                          # fits THO/... (finder-checked)
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .answer import DEFAULT_TIME_LIMIT, Answer, OnProgress, Outcome
from .awards import Checklist, ChecklistResult, default_checklist, load_checklist
from .data import word_list
from .data.us import us_states
from .finder import Score
from .finder import score as score_grid
from .geometry import MoveRule, PathRule
from .grid import Grid, as_grid
from .inputs import InputError, as_items, check_flag, check_seconds
from .notebook import answer_html, coloured, table
from .question import Question
from .render.text import checklist_dict, checklist_table, item_evidence, score_dict, score_text
from .stopping import interruption_behind
from .verify import checklist_verdict
from .wording import first_few
from .words import WordList

if TYPE_CHECKING:
    from .backends import Backend
    from .encoding import Encoding
    from .fitting import FitAnswer


def score(grid: Grid | str, words: WordList | str | Path | None = None, budget: int = 1,
          path_rule: PathRule = "walk", shape: str | tuple[int, int] | None = None,
          moves: MoveRule | None = None) -> Score:
    """Score a grid (a Grid, or letters such as ``"thoainesl"``) on a word list (default: the
    US states; a WordList, ``"us-states"`` or a word-list file): the words found, each with a
    witness path, and their total weight. ``shape`` and ``moves`` (default: king moves) read
    letters; a Grid keeps its own board (:func:`~exactgrid.grid.as_grid`).

    >>> score("thoainesl").total
    32913047
    """
    words = word_list(words)
    return score_grid(as_grid(grid, shape, moves), words, words.check_budget(budget), path_rule)


@dataclass(frozen=True)
class CheckAnswer(Answer):
    """A grid's score and a checklist's verdict on it: FITS when every item passes, else
    DOES_NOT_FIT (``exactgrid check`` exits 1). Unpacks as ``(score, checklist)``, as
    :func:`check` returned before it had an answer type."""

    score: Score
    checklist: ChecklistResult
    seconds: float = 0.0
    stopped_by: str | None = None

    @property
    def outcome(self) -> Outcome:  # type: ignore[override]
        """FITS when every item of the checklist passes, else DOES_NOT_FIT."""
        return Outcome.FITS if self.checklist.passed else Outcome.DOES_NOT_FIT

    @property
    def passed(self) -> bool:
        """Whether every item passes."""
        return self.checklist.passed

    def __iter__(self) -> Iterator[Any]:
        return iter((self.score, self.checklist))

    def __getitem__(self, index: int) -> Any:
        return (self.score, self.checklist)[index]

    def __len__(self) -> int:
        return 2

    def text(self) -> str:
        """As ``exactgrid check`` prints it: the score, then the checklist table."""
        return f"{score_text(self.score)}\n\n{checklist_table(self.checklist)}"

    def to_dict(self) -> dict[str, Any]:
        """As ``check --json`` prints it: the contract's keys, ``score --json``'s keys and the
        checklist's (checklist, checklist_source, water_borders, passed, failed, items)."""
        return {**self.contract_dict(), **score_dict(self.score), **checklist_dict(self.checklist)}

    def _repr_html_(self) -> str:
        """In a notebook: the verdict, the checklist item by item (PASS in green, FAIL in red,
        with its evidence), then the score (grid and words)."""
        items = [[coloured("PASS" if r.passed else "FAIL"), r.key, r.title, item_evidence(r)]
                 for r in self.checklist.items]
        passed = sum(r.passed for r in self.checklist.items)
        summary = f"{passed} of {len(items)} passed (checklist {self.checklist.checklist.name})"
        return answer_html(self, [table(["", "item", "title", "evidence"], items), summary,
                                  self.score._repr_html_()], skip=self._html_skip, grid=False, text=False)

    _html_skip = ("grid", "shape", "moves", "path_rule", "budget", "total", "count", "found", "items",
                  "checklist_source", "failed", "passed")
    """``to_dict()`` keys the notebook view leaves to its tables."""


def check(grid: Grid | str, checklist: Checklist | str | Path | None = None, water_borders: bool | None = None,
          budget: int = 1, path_rule: PathRule = "walk", only: Iterable[str] = (),
          words: WordList | str | Path | None = None, shape: str | tuple[int, int] | None = None,
          moves: MoveRule | None = None) -> CheckAnswer:
    """Score a grid on the US states and run a checklist on it (default: the Altered States 2
    awards; ``only``: just these item keys): the score and the checklist's verdict, item by
    item. ``words``: another list is accepted only if every word it finds is a US state (a
    checklist judges US states), else InputError. ``shape`` and ``moves`` (default: king moves)
    read letters; a Grid keeps its own board, and other moves or another shape asked of it are
    refused (:func:`~exactgrid.grid.as_grid`).

    >>> score_found, verdict = check("thoainesl")
    >>> verdict.passed, check("thoainesl").outcome
    (False, <Outcome.DOES_NOT_FIT: 'does not fit'>)
    """
    started = time.monotonic()
    if checklist is None:
        checklist = default_checklist()
    elif not isinstance(checklist, Checklist):
        checklist = load_checklist(checklist)
    only = as_items(only, "only")
    if only:
        checklist = checklist.select(only)
    result = score(grid, words, budget, path_rule, shape, moves)
    strangers = sorted(w for w in result.words if w not in us_states())
    if strangers:  # checklists judge US states (awards, border chains)
        which = "is not one" if len(strangers) == 1 else "are not"
        raise InputError(f"a checklist judges US states, and the grid holds {first_few(strangers)}, which {which}; "
                         "score a grid on another word list with 'exactgrid score --words'")
    return CheckAnswer(result, checklist_verdict(checklist, result, water_borders), time.monotonic() - started)


def fit(question: Question, backend: str | Backend | None = None, time_limit: float | None = DEFAULT_TIME_LIMIT,
        seed: int = 0, *, local_search: float = 0.0, explain: bool = False, counting: bool = True,
        certify: bool = False, write: Mapping[str, str | Path] | None = None,
        on_progress: OnProgress | None = None, encoding: Encoding | None = None) -> FitAnswer:
    """Decide whether ``question`` has a grid: everything ``exactgrid fit`` does, in one call.

    :func:`exactgrid.fitting.fit` (which see: ``explain``, ``certify``, ``write``, ``counting``,
    ``on_progress``, Ctrl-C as an UNKNOWN answer), and ``local_search`` seconds of local
    search first (:func:`exactgrid.solving.fitting.search_for_fit`, the annealer of ``solve``):
    a grid it finds is an answer like any other, checked by the finder; when none comes, the
    backend gets the rest of ``time_limit``. Only FITS can come from the search.

    >>> import exactgrid as eg
    >>> answer = eg.fit(eg.Question(eg.Board(3, 3), required=["OHIO", "UTAH=ATAH"]), time_limit=30)
    >>> answer.outcome, answer.exit_code
    (<Outcome.FITS: 'fits'>, 0)
    """
    started = time.monotonic()
    if time_limit is not None:
        time_limit = check_seconds(time_limit)
    local_search = check_seconds(local_search, "local_search")
    for flag, what in ((explain, "explain"), (counting, "counting"), (certify, "certify")):
        check_flag(flag, what)
    if on_progress is not None and not callable(on_progress):
        raise InputError(f"on_progress must be a function of one event, got {type(on_progress).__name__}")
    try:  # an interruption while the solvers' modules load is an answer too
        from .fitting import fit as decide

        first = None
        if local_search > 0:
            from .solving.fitting import search_for_fit

            first = (lambda q, seconds: search_for_fit(q, seconds, seed=seed), local_search)
    except (KeyboardInterrupt, RuntimeError) as caught:
        if (exc := interruption_behind(caught)) is None:
            raise
        return _interrupted_fit(question, backend, started, exc)
    left = None if time_limit is None else max(0.0, time_limit - (time.monotonic() - started))  # the imports took some
    answer = decide(question, backend, left, seed, encoding=encoding, explain=explain, counting=counting,
                    certify=certify, write=write, on_progress=on_progress, first=first)
    return replace(answer, seconds=time.monotonic() - started)


def _interrupted_fit(question: Question, backend: str | Backend | None, started: float,
                     exc: KeyboardInterrupt) -> FitAnswer:
    """UNKNOWN, stopped by ``exc``, before the fit began."""
    from .fitting import FitAnswer

    return FitAnswer.interrupted(question, str(getattr(backend, "name", backend or "")), exc,
                                 seconds=time.monotonic() - started)
