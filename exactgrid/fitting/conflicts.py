"""Which awards conflict: a minimal set of a checklist's items that no grid of a question earns
together, each award in it shown needed by a grid that earns all the others.

:func:`award_conflict` asks :func:`~exactgrid.fitting.decide.fit` with every award as a hard
constraint (:func:`~exactgrid.question.checklist_question`). When that does not fit it drops
the awards one at a time and asks again (deletion): an award whose removal still does not fit
is not needed and stays out; an award whose removal fits is needed, and the grid that fits
without it (checked by the finder, like every grid ``fit`` returns) is the evidence. A question
cut short by the time limit keeps its award in and the set is then not proven minimal.

Where :func:`~exactgrid.fitting.session.explain` names words and cells, this names awards:
targets (20S, 200M) and chains (C2C) are hard constraints there and never part of its
conflict, but they are awards like the others here.

>>> import exactgrid as eg
>>> from exactgrid.awards.checklist import checklist_from_dict
>>> items = checklist_from_dict({"items": [{"key": "20M", "min_score": 20_000_000},
...     {"key": "IOWA", "required": ["IOWA"]}, {"key": "NOOHIO", "forbidden": ["OHIO"]}]})
>>> answer = award_conflict(eg.Question(eg.Board(3, 3), fixed="TH./A.N/E.L"), items.keys(),
...                         checklist=items, backend="cadical", counting=False)
>>> answer.outcome.name, answer.conflict, answer.minimal
('DOES_NOT_FIT', ('20M', 'IOWA', 'NOOHIO'), True)

Items that contradict outright (a state both required and forbidden) raise
:class:`~exactgrid.question.SpecError` naming the state, as ``checklist_question`` does.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from ..answer import DEFAULT_TIME_LIMIT, Answer, Outcome
from ..awards import Checklist
from ..backends import Backend
from ..grid import Grid
from ..inputs import as_items, check_kind, check_seconds
from ..question import Question, SpecError, Verdict, checklist_question, choose_checklist
from ..stopping import interruption, is_interruption
from .answer import FitAnswer, verified_answer
from .decide import fit


@dataclass(frozen=True)
class Asked:
    """One fit question of the deletion: the awards asked together and what ``fit`` said."""

    awards: tuple[str, ...]
    verdict: Verdict
    seconds: float
    grid: str | None = None


@dataclass(frozen=True)
class AwardConflict(Answer):
    """Which of ``awards`` cannot be earned together by a grid of ``question``.

    * DOES_NOT_FIT: ``conflict`` cannot be earned together (``refutation``: the fit answer that
      refuted exactly that set: its backend, and its certificate when asked for); ``minimal``
      when every award in it is needed, with ``needed[award]`` a grid earning the others.
    * FITS: no conflict: ``grid`` earns every award.
    * UNKNOWN: the first question was not decided in time (or an interruption came).
    """

    outcome: Outcome
    question: Question
    awards: tuple[str, ...]
    conflict: tuple[str, ...] = ()
    minimal: bool = False
    needed: dict[str, Grid] = field(default_factory=dict)
    grid: Grid | None = None
    refutation: FitAnswer | None = None
    asked: list[Asked] = field(default_factory=list)
    seconds: float = 0.0
    stopped_by: str | None = None

    def text(self) -> str:
        """The conflict and its evidence, one line each."""
        if self.outcome == Outcome.FITS:
            return f"FITS: {self.grid.letters if self.grid else '-'} earns {' '.join(self.awards)}"
        if self.outcome == Outcome.UNKNOWN:
            return f"UNKNOWN after {self.seconds:.1f} s ({self.detail}): {' '.join(self.awards)} not refuted"
        proven = "minimal" if self.minimal else "not shown minimal (a question was cut short)"
        backed = f"; refuted by {self.refutation.backend}" if self.refutation is not None else ""
        together = "cannot be earned together" if len(self.conflict) > 1 else "cannot be earned"
        lines = [f"DOES NOT FIT: {' + '.join(self.conflict)} {together} ({proven}{backed}; "
                 f"{len(self.asked)} questions, {self.seconds:.1f} s)"]
        others = "the others" if len(self.conflict) > 1 else "the question with no award"
        lines += [f"  {award} is needed: {grid.letters} meets {others}" for award, grid in self.needed.items()]
        if self.refutation is not None and self.refutation.certificate is not None:
            lines.append(self.refutation.certificate.text())
        return "\n".join(lines)

    @property
    def detail(self) -> str:
        """Why the answer is UNKNOWN (``the time limit``, or ``stopped by Ctrl-C``); else empty."""
        if self.outcome != Outcome.UNKNOWN:
            return ""
        return f"stopped by {self.stopped_by}" if self.stopped_by else "the time limit"

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: the contract's keys, why it is UNKNOWN (``detail``), the awards asked,
        the conflict, its evidence."""
        return {**self.contract_dict(), "detail": self.detail, "awards": list(self.awards),
                "conflict": list(self.conflict), "minimal": self.minimal,
                "needed": {k: g.letters for k, g in self.needed.items()},
                "grid": self.grid.letters if self.grid else None,
                "refuted_by": self.refutation.backend if self.refutation else None,
                "asked": [{"awards": list(a.awards), "verdict": a.verdict.value, "seconds": round(a.seconds, 3),
                           "grid": a.grid} for a in self.asked]}


def award_conflict(question: Question, awards: Iterable[str], checklist: Checklist | None = None,
                   backend: str | Backend | None = None, time_limit: float | None = DEFAULT_TIME_LIMIT,
                   question_seconds: float | None = None, counting: bool = True,
                   certify: bool = False, seed: int = 0, water_borders: bool | None = None) -> AwardConflict:
    """Which of ``awards`` (item keys of ``checklist``, default the Altered States 2 awards)
    cannot be earned together by a grid of ``question`` (its board, words, fixed cells and
    requirements): a minimal conflicting set by deletion, each needed award shown needed by a
    grid the finder checked.

    ``time_limit`` covers everything; ``question_seconds`` caps each fit question (default:
    whatever is left). ``certify``: refute the final conflict again with a checked DRUP proof
    (one more question, with whatever time is left: ``question_seconds`` caps the search
    questions, not the proof). ``water_borders``: chains may cross the water-only borders (None: as
    the checklist says). Ctrl-C or SIGTERM answer with what is known by then.
    """
    started = time.monotonic()
    check_kind(question, Question, "award_conflict()")
    keys = tuple(dict.fromkeys(as_items(awards, "awards")))
    if not keys:
        raise SpecError("name at least one award")
    chosen = choose_checklist(checklist, keys)
    deadline = None if time_limit is None else started + check_seconds(time_limit)
    run = _Deletion(question, chosen, backend, deadline, question_seconds, counting, seed, water_borders)
    try:
        first = run.ask(keys)
        if first.verdict != Verdict.DOES_NOT_FIT:
            outcome = Outcome.FITS if first.verdict == Verdict.FITS else Outcome.UNKNOWN
            return AwardConflict(outcome, question, keys, grid=first.grid, asked=run.asked,
                                 seconds=time.monotonic() - started)
        minimal = run.shrink(keys, first)
        if certify:
            certified = run.ask(run.conflict, certify=True)
            if certified.verdict == Verdict.DOES_NOT_FIT:
                run.refutation = certified
    except (KeyboardInterrupt, _Stopped) as exc:
        stopped = exc.stopped_by if isinstance(exc, _Stopped) else interruption(exc)
        if run.refutation is None:
            return AwardConflict(Outcome.UNKNOWN, question, keys, asked=run.asked,
                                 seconds=time.monotonic() - started, stopped_by=stopped)
        return run.answer(keys, False, time.monotonic() - started, stopped)
    return run.answer(keys, minimal, time.monotonic() - started)


class _Stopped(Exception):
    """A fit question of the deletion was stopped by Ctrl-C or a stop signal (``fit`` answers
    UNKNOWN then; the deletion must stop too, not ask the next question)."""

    def __init__(self, stopped_by: str) -> None:
        super().__init__(stopped_by)
        self.stopped_by = stopped_by


@dataclass
class _Deletion:
    """The deletion's questions, and what they showed so far."""

    question: Question
    checklist: Checklist
    backend: str | Backend | None
    deadline: float | None
    question_seconds: float | None
    counting: bool
    seed: int
    water_borders: bool | None
    asked: list[Asked] = field(default_factory=list)
    needed: dict[str, Grid] = field(default_factory=dict)
    conflict: tuple[str, ...] = ()
    """The smallest set of awards refuted so far."""
    refutation: FitAnswer | None = None
    """The answer that refuted exactly :attr:`conflict` (None before any refutation)."""

    def ask(self, keys: tuple[str, ...], certify: bool = False) -> FitAnswer:
        """``fit`` with the awards ``keys`` as hard constraints, within the time left (and
        ``question_seconds``, unless certifying)."""
        limit = None if certify else self.question_seconds
        if self.deadline is not None:
            left = max(0.0, self.deadline - time.monotonic())
            limit = left if limit is None else min(limit, left)
        asked = self.question
        if keys:
            asked = checklist_question(self.question, self.checklist.select(keys), self.water_borders)
        if asked.asks_something:
            answer = fit(asked, self.backend, limit, self.seed, counting=self.counting, certify=certify)
        else:  # no award and nothing else asked: any grid within the cells will do
            answer = verified_answer(_any_grid(asked), "none", asked)
        self.asked.append(Asked(keys, answer.verdict, answer.seconds, answer.grid.letters if answer.grid else None))
        if is_interruption(answer.stopped_by):
            raise _Stopped(answer.stopped_by or "")
        return answer

    def shrink(self, keys: tuple[str, ...], refutation: FitAnswer) -> bool:
        """Starting from ``keys`` (refuted by ``refutation``), drop each award whose removal
        still does not fit; keep the others (needed, or undecided). Whether the set left is
        minimal: every award kept was shown needed."""
        self.conflict, self.refutation = keys, refutation
        for award in keys:
            rest = tuple(k for k in self.conflict if k != award)
            answer = self.ask(rest)
            if answer.verdict == Verdict.DOES_NOT_FIT:
                self.conflict, self.refutation = rest, answer
            elif answer.verdict == Verdict.FITS and answer.grid is not None:
                self.needed[award] = answer.grid
        return all(k in self.needed for k in self.conflict)

    def answer(self, keys: tuple[str, ...], minimal: bool, seconds: float,
               stopped_by: str | None = None) -> AwardConflict:
        """DOES NOT FIT with the conflict found, its refutation and the evidence for its awards."""
        needed = {award: grid for award, grid in self.needed.items() if award in self.conflict}
        return AwardConflict(Outcome.DOES_NOT_FIT, self.question, keys, self.conflict, minimal, needed,
                             refutation=self.refutation, asked=self.asked, seconds=seconds, stopped_by=stopped_by)


def _any_grid(question: Question) -> Grid:
    """A grid of ``question``'s board with its fixed cells, the first letter of each domain,
    and A in every other cell."""
    return Grid(question.board, "".join((question.cell_letters(c) or "A")[0] for c in range(question.board.size)))
