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
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .answer import DEFAULT_TIME_LIMIT, Answer, OnProgress, Outcome
from .awards import Checklist, ChecklistResult, default_checklist, evaluate, load_checklist
from .data import word_list
from .data.us import us_states
from .finder import FinderTimedOut, Score, ScoredWord, heaviest_first, scored_words, searching_until
from .geometry import MoveRule, PathRule, check_path_rule
from .grid import Grid, as_grid
from .inputs import InputError, as_items, check_callbacks, check_flag, check_seconds, check_whole
from .notebook import answer_html, block, coloured, line, table
from .question import Question, checklist_question, choose_checklist
from .render.text import checklist_dict, checklist_table, item_evidence, score_dict, score_text
from .stopping import DeadlinePassed, interruption, interruption_behind
from .verify import with_letters_off
from .wording import first_few, plural
from .words import WordList

if TYPE_CHECKING:
    from .backends import Backend
    from .encoding import Encoding
    from .fitting import FitAnswer


@dataclass(frozen=True)
class ScoreAnswer(Score, Answer):
    """A grid's score as a job's answer (:func:`score`): a :class:`~exactgrid.finder.Score`
    (the words found, each with its witness, and their total) with the answer contract.

    ``outcome`` is OPTIMAL when every word of the list was looked for: the score is exact and
    complete (as :class:`~exactgrid.puzzles.trackword.TrackwordAnswer`'s list is). It is UNKNOWN
    when the time limit (``timed_out``) or an interruption (``stopped_by``) came first, which
    the US states on walks never come near, but simple paths with a large budget (a search
    exponential in it) or a list of many thousand words may:
    ``found`` then holds the words found so far, each certain, ``total`` is a lower bound, and
    ``unchecked`` names the words not looked for (``word_list`` is None, and ``unchecked``
    empty, when the time limit came while the list itself was read). Two scores are equal when
    their words are: ``seconds`` takes no part."""

    seconds: float = field(default=0.0, compare=False)
    stopped_by: str | None = None
    unchecked: tuple[str, ...] = ()
    timed_out: bool = False

    @property
    def outcome(self) -> Outcome:  # type: ignore[override]
        """OPTIMAL (every word looked for), or UNKNOWN when cut short (see the class notes)."""
        return Outcome.UNKNOWN if self.timed_out or self.stopped_by else Outcome.OPTIMAL

    @property
    def complete(self) -> bool:
        """Whether every word of the list was looked for (the total is the grid's score)."""
        return self.outcome is Outcome.OPTIMAL

    def text(self) -> str:
        """As ``exactgrid score`` prints it: the grid, total, count and words; when cut short, a
        last line saying what stopped it and which words were not looked for."""
        return score_text(self) if self.complete else f"{score_text(self)}\n\n{self.cut_short_line()}"

    def cut_short_line(self) -> str:
        """When the score was cut short, the line saying what stopped it and which words it did
        not look for (``unknown: the time limit came before ...``)."""
        why = f"interrupted ({self.stopped_by})" if self.stopped_by else "the time limit came"
        if self.word_list is None:
            return f"unknown: {why} while the word list was read"
        return (f"unknown: {why} before {plural(len(self.unchecked), 'word')} of the list "
                f"{'was' if len(self.unchecked) == 1 else 'were'} looked for ({first_few(self.unchecked)}); "
                f"the words found are certain, so the score is at least {self.total:,}")

    def _repr_html_(self) -> str:
        """In a notebook: the score's tables (see :class:`~exactgrid.finder.Score`), under a line
        saying what cut it short when it was."""
        tables = Score._repr_html_(self)
        return tables if self.complete else block(line(self.cut_short_line()), tables)

    def to_dict(self) -> dict[str, Any]:
        """As ``score --json`` prints it: the contract's keys, the score's (grid, rows, shape,
        moves, path_rule, budget, total, count, found), ``unchecked`` (the words not looked for)
        and ``timed_out``."""
        return {**self.contract_dict(), **score_dict(self), "unchecked": list(self.unchecked),
                "timed_out": self.timed_out}


def score(grid: Grid | str, words: WordList | str | Path | None = None, budget: int = 1,
          path_rule: PathRule = "walk", shape: str | tuple[int, int] | None = None,
          moves: MoveRule | None = None, time_limit: float | None = DEFAULT_TIME_LIMIT) -> ScoreAnswer:
    """Score a grid (a Grid, or letters such as ``"thoainesl"``) on a word list (default: the
    US states; a WordList, ``"us-states"`` or a word-list file): the words found, each with a
    witness path, and their total weight. ``shape`` and ``moves`` (default: king moves) read
    letters; a Grid keeps its own board (:func:`~exactgrid.grid.as_grid`). ``time_limit``
    (seconds from the call, reading the list included; None: none) or Ctrl-C ending it first
    answers UNKNOWN with the words found so far (:class:`ScoreAnswer`).

    >>> score("thoainesl").total
    32913047
    """
    started = time.monotonic()
    deadline = None if time_limit is None else started + check_seconds(time_limit)
    board_grid = as_grid(grid, shape, moves)
    check_path_rule(path_rule)
    try:
        words = word_list(words, deadline)
    except DeadlinePassed:
        return ScoreAnswer(board_grid, (), check_whole(budget, "the alteration budget"), path_rule, None,
                           time.monotonic() - started, timed_out=True)
    budget = words.check_budget(budget)
    decided: list[tuple[str, ScoredWord | None]] = []  # one append a word: none is half counted when stopped
    stopped_by, timed_out = None, False
    try:
        with searching_until(deadline):
            for pair in scored_words(board_grid, words, budget, path_rule):
                decided.append(pair)
                if deadline is not None and len(decided) < len(words) and time.monotonic() > deadline:
                    raise FinderTimedOut("the time limit came between two words")
    except FinderTimedOut:
        timed_out = True
    except KeyboardInterrupt as exc:
        stopped_by = interruption(exc)
    unchecked = tuple(words)[len(decided):]  # scored_words goes in the list's order
    if not unchecked:  # every word was decided before the limit or the signal came: the score is whole
        stopped_by, timed_out = None, False
    found = heaviest_first(scored for _, scored in decided if scored is not None)
    return ScoreAnswer(board_grid, found, budget, path_rule, words, time.monotonic() - started, stopped_by,
                       unchecked, timed_out)


@dataclass(frozen=True)
class CheckAnswer(Answer):
    """A grid's score and a checklist's verdict on it: FITS when every item passes, else
    DOES_NOT_FIT (``exactgrid check`` exits 1); UNKNOWN, with no ``checklist``, when the time
    limit or an interruption cut the score short (a verdict on part of the words could be
    wrong). When the time limit or an interruption came after the score, while the missing
    states' letters off were measured (the evidence, a search of its own on simple paths), the
    verdict stands without them and ``letters_off_cut`` says what came (``time limit`` or the
    interruption). Unpacks as ``(score, checklist)``, as :func:`check` returned before it had an
    answer type."""

    score: ScoreAnswer
    checklist: ChecklistResult | None
    seconds: float = 0.0
    stopped_by: str | None = None
    letters_off_cut: str | None = None

    @property
    def outcome(self) -> Outcome:  # type: ignore[override]
        """FITS when every item of the checklist passes, DOES_NOT_FIT when one fails, UNKNOWN
        when the score was cut short."""
        if self.checklist is None:
            return Outcome.UNKNOWN
        return Outcome.FITS if self.checklist.passed else Outcome.DOES_NOT_FIT

    @property
    def passed(self) -> bool:
        """Whether every item passes (False when the score was cut short)."""
        return self.checklist is not None and self.checklist.passed

    def __iter__(self) -> Iterator[Any]:
        return iter((self.score, self.checklist))

    def __getitem__(self, index: int) -> Any:
        return (self.score, self.checklist)[index]

    def __len__(self) -> int:
        return 2

    def text(self) -> str:
        """As ``exactgrid check`` prints it: the score, then the checklist table (or why there
        is none)."""
        if self.checklist is None:
            return f"{self.score.text()}\n\nchecklist: not judged (the score is not complete)"
        cut = f"\n\nletters off: not measured ({self._cut_by()} first)" if self.letters_off_cut else ""
        return f"{self.score.text()}\n\n{checklist_table(self.checklist)}{cut}"

    def _cut_by(self) -> str:
        """What cut the letters off short, as the text says it."""
        cut = self.letters_off_cut
        return "the time limit came" if cut == "time limit" else f"interrupted ({cut})"

    def to_dict(self) -> dict[str, Any]:
        """As ``check --json`` prints it: the contract's keys, ``score --json``'s keys and the
        checklist's (checklist, checklist_source, water_borders, passed, failed, items: null,
        null, null, null, [] and [] when the score was cut short), and ``letters_off_cut``."""
        if self.checklist is None:
            verdict = {"checklist": None, "checklist_source": None, "water_borders": None, "passed": None,
                       "failed": [], "items": []}
        else:
            verdict = checklist_dict(self.checklist)
        return {**self.score.to_dict(), **self.contract_dict(), **verdict, "letters_off_cut": self.letters_off_cut}

    def _repr_html_(self) -> str:
        """In a notebook: the verdict, the checklist item by item (PASS in green, FAIL in red,
        with its evidence), then the score (grid and words)."""
        if self.checklist is None:
            return answer_html(self, [self.score._repr_html_()], skip=self._html_skip, grid=False, text=False)
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
          moves: MoveRule | None = None, time_limit: float | None = DEFAULT_TIME_LIMIT) -> CheckAnswer:
    """Score a grid on the US states and run a checklist on it (default: the Altered States 2
    awards; ``only``: just these item keys): the score and the checklist's verdict, item by
    item. ``words``: another list is accepted only if every word it finds is a US state (a
    checklist judges US states), else InputError. ``shape`` and ``moves`` (default: king moves)
    read letters; a Grid keeps its own board, and other moves or another shape asked of it are
    refused (:func:`~exactgrid.grid.as_grid`). ``time_limit`` and Ctrl-C as in :func:`score`:
    a score cut short is judged by no checklist (UNKNOWN); cut short after the score, the
    verdict stands and only the missing states' letters off are left out.

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
    limit = None if time_limit is None else check_seconds(time_limit)
    result = score(grid, words, budget, path_rule, shape, moves, limit)
    if not result.complete:
        return CheckAnswer(result, None, time.monotonic() - started, result.stopped_by)
    strangers = sorted(w for w in result.words if w not in us_states())
    if strangers:  # checklists judge US states (awards, border chains)
        which = "is not one" if len(strangers) == 1 else "are not"
        raise InputError(f"a checklist judges US states, and the grid holds {first_few(strangers)}, which {which}; "
                         "score a grid on another word list with 'exactgrid score --words'")
    verdict, stopped_by, cut = evaluate(checklist, result.words, result.total, water_borders), None, None
    try:  # the letters off of missing states: evidence only, a search of its own on simple paths
        with searching_until(None if limit is None else started + limit):
            verdict = with_letters_off(verdict, result)
    except FinderTimedOut:
        cut = "time limit"
    except KeyboardInterrupt as exc:
        stopped_by = cut = interruption(exc)
    return CheckAnswer(result, verdict, time.monotonic() - started, stopped_by, cut)


def fit(question: Question, backend: str | Backend | None = None, time_limit: float | None = DEFAULT_TIME_LIMIT,
        seed: int = 0, *, local_search: float = 0.0, explain: bool = False, counting: bool = True,
        certify: bool = False, write: Mapping[str, str | Path] | None = None,
        on_progress: OnProgress | None = None, encoding: Encoding | None = None,
        checklist: Checklist | str | Path | None = None, awards: Iterable[str] = (),
        water_borders: bool | None = None) -> FitAnswer:
    """Decide whether ``question`` has a grid: everything ``exactgrid fit`` does, in one call.

    ``checklist`` (a Checklist or TOML file) and ``awards`` (keys of the default checklist, or
    of ``checklist``: ``["M8", "4C"]``) add their items as hard constraints, as ``fit
    --checklist``/``--award`` do (:func:`~exactgrid.question.checklist_question`; chains may
    cross the water-only borders when ``water_borders``); the answer is then about that
    question.

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
    check_callbacks(on_progress=on_progress)
    chosen = choose_checklist(checklist, awards)  # checklist_question checks the question's type
    if chosen is not None:
        question = checklist_question(question, chosen, water_borders)
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
