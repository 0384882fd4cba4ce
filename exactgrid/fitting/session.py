"""Many related fit questions on one encoding and one solver session; why a question does not fit.

A :class:`FitSession` encodes a base question once with its fixed cells, requirements and
forbidden words as *assumptions* (:func:`~exactgrid.encoding.encode` with ``assumable=True``),
opens a solver session on it (:meth:`~exactgrid.backends.Backend.open_session`), and then
answers questions that add fixed cells and required words to the base by solving under
assumptions: no new encoding, no new solver, and what the solver learnt carries over. Every
grid it returns is decoded and checked by the finder against the question actually asked.

:func:`explain` turns an UNSAT core into *why it does not fit*: a minimal set of the
question's parts (requirements, forbidden words, fixed cells) that cannot hold together,
shrunk by deletion with every removal re-checked by the solver. Targets (``min_score``,
``min_count``) and forbidden words with too many simple paths to cut up front stay hard
constraints, never part of an explanation; a requirement left out of a conflict is lifted,
not negated: its word still counts towards a target if it is spelled (as an optional word).

>>> import exactgrid as eg
>>> base = eg.Question(eg.Board(3, 3), optional=["all"])
>>> with FitSession(base, backend="cadical") as session:
...     session.ask(fixed="O.O/.H./...", required=["OHIO"]).verdict
<Outcome.FITS: 'fits'>
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from ..answer import DEFAULT_TIME_LIMIT, Outcome
from ..backends import Backend, Result, Status, backend_name, get_backend
from ..backends.portfolio import RACE_GRACE_SECONDS
from ..encoding import Encoding, EncodingTimeout, encode
from ..finder import FinderTimedOut, searching_until
from ..inputs import FrozenDict, InputError, as_items, check_seconds, check_seed
from ..question import Question, Requirement, SpecError, Verdict, merge_cell_letters
from ..stopping import interruption
from .answer import Explanation, FitAnswer, decoded_grid, model_size, unchecked_detail, verified_answer


class QuestionFits(SpecError):
    """:meth:`FitSession.explain` was asked about a question that fits: nothing conflicts."""

SESSION_BACKEND = "cadical"
"""The backend a session (and ``explain``) uses by default: in-process, incremental, with cores."""


@dataclass(frozen=True)
class Part:
    """One assumable part of a question: how the CLI writes it, and its literals (one, or a
    letter domain's "not this letter" for each letter outside it)."""

    label: str
    lits: tuple[int, ...]


def assumed(parts: Iterable[Part]) -> list[int]:
    """The assumptions that pose ``parts``: all their literals."""
    return [lit for part in parts for lit in part.lits]


def session_backend(backend: str | Backend | None) -> Backend:
    """``backend`` when it keeps sessions with assumptions, else the default session backend
    (a one-shot backend would re-solve from scratch for every call of an explanation)."""
    chosen = backend if isinstance(backend, Backend) else get_backend(backend_name(backend, SESSION_BACKEND))
    return chosen if "assumptions" in chosen.capabilities else get_backend(SESSION_BACKEND)


class FitSession:
    """One encoding of ``question`` and one solver session on it, for many questions.

    :meth:`ask` answers the base question with more fixed cells and more required words (the
    words must be required or optional in the base: ``optional=["all"]`` makes every word
    askable). :meth:`explain` gives a minimal conflict. Use as a context manager, or call
    :meth:`close`.
    """

    def __init__(self, question: Question, backend: str | Backend | None = SESSION_BACKEND, seed: int = 0,
                 time_limit: float | None = None) -> None:
        if not isinstance(question, Question):
            raise InputError(f"FitSession takes a Question, got {type(question).__name__}")
        self.question = question
        seed = check_seed(seed)
        self.backend = backend if isinstance(backend, Backend) else get_backend(backend)
        deadline = None if time_limit is None else time.monotonic() + check_seconds(time_limit)
        self.encoding: Encoding = encode(question, deadline=deadline, assumable=True)
        if self.encoding.lazy_forbidden:
            raise SpecError(f"forbidden {', '.join(self.encoding.lazy_forbidden)} has too many simple paths to cut "
                            "up front, which a session cannot do; ask with fit() instead")
        self.session = self.backend.open_session(self.encoding.model, seed)
        self.target_weights = question.scoring_weights() if question.min_score is not None else None
        """The weights the encoded ``min_score`` counts (None without one)."""
        self.calls = 0
        self.closed = False

    # -- the parts of a question --------------------------------------------------------------

    def question_for(self, fixed: Mapping[int, str] | str | None = None,
                     required: Iterable[str | Requirement] = (),
                     domains: Mapping[int, str] | str | None = None) -> Question:
        """The base question with more fixed cells, letter domains and required words (checked
        as any Question); a cell the base limits too may hold the letters both allow."""
        base = self.question
        extra = Question(base.board, fixed=fixed or FrozenDict(), domains=domains or FrozenDict())  # checked
        cells = merge_cell_letters(base.board, base.cells, extra.cells)
        return base.but(fixed=FrozenDict(), domains=FrozenDict(cells),
                        required=(*base.required, *as_items(required, "required words")))

    def parts(self, question: Question) -> list[Part]:
        """The assumptions that pose ``question`` (made by :meth:`question_for`) to this encoding."""
        enc, board = self.encoding, question.board
        base = {r.word: r for r in self.question.required}
        asked: dict[str, int] | None = None  # the question's own weights, read once a new word needs them
        out = []
        for req in question.required:
            if req.word in base and base[req.word] != req:
                raise SpecError(f"{req.describe()}: the session's question requires {base[req.word].describe()}")
            if req.word not in base and req.mode != "anywhere":
                raise SpecError(f"{req.describe()}: a session asks for new words within the budget only "
                                "(put a pinned requirement in the base question)")
            if req.word not in base and self.target_weights is not None:
                # The target's sum was encoded with the word's optional weight; required, it
                # counts at its list weight, so the encoded target may not be the one asked.
                asked = question.scoring_weights() if asked is None else asked
                if self.target_weights.get(req.word) != asked[req.word]:
                    raise SpecError(f"{req.word} weighs {self.target_weights.get(req.word)} in the session's "
                                    f"question but {asked[req.word]} required (its list weight): ask fit() this "
                                    "question instead")
            out.append(Part(req.describe(), (enc.word_lit(req.word),)))
        out += [Part(f"forbid {word}", (lit,)) for word, lit in enc.forbidden_lits.items()]
        out += [Part(f"{board.label(cell)}={letter}", (enc.cell_lit(cell, letter),))
                for cell, letter in question.fixed.items()]
        out += [Part(f"{board.label(cell)} in [{letters}]", enc.domain_lits(cell, letters))
                for cell, letters in question.domains.items()]
        return out

    # -- asking ---------------------------------------------------------------------------------

    def ask(self, fixed: Mapping[int, str] | str | None = None, required: Iterable[str | Requirement] = (),
            time_limit: float | None = None, domains: Mapping[int, str] | str | None = None) -> FitAnswer:
        """Does the base question fit with these extra fixed cells, letter domains and required
        words? (Cells may be given as rows of text, ``[AB]`` a choice, in either argument.)

        FITS comes with a grid the finder has checked against the question asked; DOES NOT FIT
        with ``conflict``, the parts in the solver's core (not minimised: see :meth:`explain`).
        """
        started = time.monotonic()
        self._check_open()
        time_limit = None if time_limit is None else check_seconds(time_limit)
        question = self.question_for(fixed, required, domains)
        parts = self.parts(question)
        result = self.session.solve(assumed(parts), time_limit)
        self.calls += 1
        common = dict(question=question, backend=result.backend, seconds=time.monotonic() - started,
                      model_size=model_size(self.encoding.model))
        if result.status == Status.UNSAT:
            core = set(result.core or ())
            conflict = tuple(p.label for p in parts if core.intersection(p.lits))
            return FitAnswer(Verdict.DOES_NOT_FIT, conflict=conflict, detail="refuted under assumptions", **common)
        if result.status == Status.UNKNOWN:
            return FitAnswer(Verdict.UNKNOWN, detail=result.detail, **common)
        grid = decoded_grid(self.encoding, result, question.cells)
        checks_until = None if time_limit is None else started + time_limit + RACE_GRACE_SECONDS
        try:
            with searching_until(checks_until):  # the finder's check of a grid on simple paths, too
                return verified_answer(grid, result.backend, **common)
        except FinderTimedOut as exc:
            return FitAnswer(Verdict.UNKNOWN, detail=unchecked_detail(exc), **common)

    def _check_open(self) -> None:
        if self.closed:
            raise InputError("this FitSession is closed: open a new one to ask more")

    def explain(self, question: Question | None = None,
                time_limit: float | None = None) -> tuple[tuple[str, ...], bool]:
        """A minimal set of the parts of ``question`` (default: the base) that cannot hold
        together, and whether it is proven minimal (False when time ran out while shrinking).

        Deletion: start from the solver's core; drop each part in turn and solve again; a part
        whose removal still leaves UNSAT goes (and the new core trims the rest), one whose
        removal makes it SAT stays. Returns ``((), True)`` when the parts are not needed: the
        targets or the board alone cannot be met. Raises :class:`QuestionFits` (a SpecError) if
        the question fits.
        """
        conflict, minimal, _ = self.shrink_conflict(question, time_limit)
        return conflict, minimal

    def shrink_conflict(self, question: Question | None = None,
                        time_limit: float | None = None) -> tuple[tuple[str, ...], bool, bool]:
        """:meth:`explain`'s conflict and minimality, and whether the question was refuted at
        all (False: the time ran out before the first refutation, and the conflict is every
        part)."""
        self._check_open()
        question = question or self.question
        deadline = None if time_limit is None else time.monotonic() + check_seconds(time_limit)
        parts = self.parts(question)

        def left() -> float | None:
            return None if deadline is None else max(0.0, deadline - time.monotonic())

        def solve(kept_parts: list[Part]) -> Result:
            # A part left out is left free (a relaxation), so deletion is sound: a part whose
            # removal leaves UNSAT is not needed, and stays unneeded in any subset.
            return self.session.solve(assumed(kept_parts), left())

        result = solve(parts)
        if result.status == Status.SAT:
            raise QuestionFits("the question fits: there is no conflict to explain")
        if result.status == Status.UNKNOWN:
            return tuple(p.label for p in parts), False, False
        current = [p for p in parts if set(result.core or ()).intersection(p.lits)]
        kept = 0  # current[:kept] are proven necessary
        while kept < len(current):
            trial = current[:kept] + current[kept + 1:]
            result = solve(trial)
            if result.status == Status.UNKNOWN:
                return tuple(p.label for p in current), False, True
            if result.status == Status.SAT:
                kept += 1
            else:
                core = set(result.core or ())
                current = [p for p in trial if core.intersection(p.lits)]
        return tuple(p.label for p in current), True, True

    def close(self) -> None:
        """Free the solver (asking afterwards is an InputError)."""
        if not self.closed:
            self.closed = True
            self.session.close()

    def __enter__(self) -> FitSession:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def explain(question: Question, backend: str | Backend | None = None,
            time_limit: float | None = DEFAULT_TIME_LIMIT) -> Explanation:
    """Why ``question`` does not fit: a minimal conflicting set of its requirements, forbidden
    words and fixed cells (see :meth:`FitSession.explain`), as an :class:`Explanation` (which
    unpacks as ``(conflict, minimal)``). Uses ``backend`` if it keeps sessions with
    assumptions, else CaDiCaL. A question that fits has nothing to explain: the answer is then
    FITS, with a grid the finder has checked (``grid``). Ctrl-C or SIGTERM answer UNKNOWN with
    ``stopped_by`` set."""
    started = time.monotonic()
    solver = session_backend(backend)
    limit = None if time_limit is None else check_seconds(time_limit)
    try:
        with FitSession(question, solver, time_limit=limit) as session:
            left = None if limit is None else max(0.0, started + limit - time.monotonic())
            try:
                conflict, minimal, refuted = session.shrink_conflict(time_limit=left)
            except QuestionFits:
                return _fits(session, question, solver.name, started, limit)
    except KeyboardInterrupt as exc:
        return Explanation(Outcome.UNKNOWN, question, backend=solver.name, seconds=time.monotonic() - started,
                           stopped_by=interruption(exc))
    except EncodingTimeout as exc:
        return Explanation(Outcome.UNKNOWN, question, backend=solver.name, seconds=time.monotonic() - started,
                           detail=str(exc))
    outcome = Outcome.DOES_NOT_FIT if refuted else Outcome.UNKNOWN
    return Explanation(outcome, question, conflict, minimal, solver.name, time.monotonic() - started)


def _fits(session: FitSession, question: Question, backend: str, started: float, limit: float | None) -> Explanation:
    """The explanation of a question that fits: FITS with the grid the session gives again (the
    solver keeps what it learnt, so the second solve is quick), checked by the finder; UNKNOWN
    when the time runs out before that grid is checked."""
    left = None if limit is None else max(0.0, started + limit - time.monotonic())
    found = session.ask(time_limit=left)
    seconds = time.monotonic() - started
    if found.verdict != Verdict.FITS:
        return Explanation(Outcome.UNKNOWN, question, backend=backend, seconds=seconds,
                           detail=f"the question fits, but its grid came no second time ({found.detail})")
    return Explanation(Outcome.FITS, question, backend=backend, seconds=seconds, grid=found.grid)
