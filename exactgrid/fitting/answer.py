"""The answer to a fit question (:class:`FitAnswer`) and the check every grid in it has passed.

A grid a backend returns is shown only after the finder (which shares no code with the
encoder) confirms every requirement, the absence of every forbidden word, the fixed cells,
and the score and count targets (:func:`verified_answer`). A disagreement raises
:class:`VerificationError`: it is a bug, never an answer. Deciding a question is
:mod:`.decide`'s work.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any

from ..answer import Answer, Outcome
from ..backends import Result, SolverDisagreement
from ..encoding import Encoding
from ..finder import Match, Score, score
from ..grid import Grid
from ..model import BoolModel
from ..notebook import answer_html, table
from ..prove.cores import CoreRefutation
from ..question import Question, Verdict
from ..render.text import (
    alteration_text,
    alterations,
    grid_dict,
    marked_spelling,
    path_labels,
    score_dict,
    score_text,
    text_table,
)
from ..stopping import interruption
from ..verify import check_grid

if TYPE_CHECKING:
    from ..prove.certify import Certificate

@dataclass(frozen=True)
class ModelSize:
    """How big a model is: variables, clauses and linear constraints."""

    variables: int = 0
    clauses: int = 0
    linear: int = 0

    def to_dict(self) -> dict[str, int]:
        """JSON-ready: variables, clauses, linear."""
        return {"variables": self.variables, "clauses": self.clauses, "linear": self.linear}


class VerificationError(AssertionError):
    """A backend's grid failed the finder's independent check: an internal error."""


MAX_CORES_SHOWN = 5
"""A refutation by counting lists at most this many of its cores as text."""


@dataclass(frozen=True)
class FitAnswer(Answer):
    """The answer to a fit question: FITS (with a grid the finder checked), DOES NOT FIT
    (proven; ``backend`` and ``detail`` say what backs it), or UNKNOWN (``detail`` says why)."""

    verdict: Verdict
    """The outcome (:class:`~exactgrid.answer.Outcome`): FITS, DOES_NOT_FIT or UNKNOWN."""
    question: Question
    grid: Grid | None = None
    """The grid (FITS only), checked by the finder."""
    witnesses: tuple[Match, ...] = ()
    """How the finder spells each requirement in the grid, in the question's order."""
    backend: str = ""
    """The backend that answered (DOES NOT FIT: the backend whose proof backs the answer)."""
    seconds: float = 0.0
    rounds: int = 1
    detail: str = ""
    model_size: ModelSize = field(default_factory=ModelSize)
    conflict: tuple[str, ...] | None = None
    """With ``explain``, when it does not fit: a minimal set of the question's parts (requirements,
    forbidden words, fixed cells, as the CLI writes them) that cannot hold together."""
    counting: CoreRefutation | None = None
    """When the counting pre-check ran: what it found (DOES NOT FIT "by counting" when refuted,
    with the pair/count cores that back it)."""
    certificate: Certificate | None = None
    """With ``certify``, when it does not fit: the checked proof that backs the refutation."""
    stopped_by: str | None = None
    """``Ctrl-C``, ``SIGTERM`` or ``SIGHUP`` when an interruption ended the work, else None."""

    @classmethod
    def interrupted(cls, question: Question, backend: str, exc: KeyboardInterrupt, **fields: Any) -> FitAnswer:
        """UNKNOWN, stopped by ``exc`` (Ctrl-C, or SIGTERM/SIGHUP: see :mod:`exactgrid.stopping`)."""
        stopped = interruption(exc)
        return cls(Verdict.UNKNOWN, question, backend=backend, detail=f"interrupted ({stopped})", stopped_by=stopped,
                   **fields)

    @property
    def outcome(self) -> Outcome:  # type: ignore[override]
        """FITS, DOES_NOT_FIT or UNKNOWN (the same as :attr:`verdict`)."""
        return Outcome(self.verdict)

    @cached_property
    def score(self) -> Score | None:
        """The grid's full score on the question's word list (FITS only; computed by the finder
        when first asked for, so that answers nobody reads in full cost nothing more)."""
        if self.grid is None:
            return None
        q = self.question
        return score(self.grid, q.words, q.budget, q.path_rule)

    @property
    def fits(self) -> bool:
        """Whether the answer is FITS (a grid was found and verified)."""
        return self.verdict == Verdict.FITS

    def text(self) -> str:
        """The answer as ``exactgrid fit`` prints it: FITS with the grid's full score (as
        ``exactgrid score`` prints it) and each requirement's spelling and path as the finder
        found them; DOES NOT FIT with what backs it; UNKNOWN with how long was spent."""
        if self.verdict == Verdict.DOES_NOT_FIT:
            text = self._refuted_text()
        elif self.verdict == Verdict.UNKNOWN:
            text = f"UNKNOWN after {self.seconds:.1f} s ({self._about()}){': ' + self.detail if self.detail else ''}"
        else:
            text = self._fits_text()
        if self.certificate is not None:
            text += "\n" + self.certificate.text()
        return text

    def _about(self) -> str:
        size = self.model_size
        about = (f"backend {self.backend}, {self.seconds:.2f} s, model {size.variables:,} variables / "
                 f"{size.clauses:,} clauses")
        return about + (f", {self.rounds} rounds" if self.rounds > 1 else "")

    def _refuted_text(self) -> str:
        text = f"DOES NOT FIT (proven; {self._about()})"
        if self.conflict is not None:
            why = ", ".join(self.conflict) or f"{background_text(self.question)} alone"
            text += f"\nwhy: {why} cannot hold together"
            if self.detail:
                text += f" ({self.detail})"
        elif self.counting is not None and self.counting.status == "refuted":
            cores = [f"core {i}: {core.text()}" for i, core in enumerate(self.counting.cores, 1)]
            cores += [f"word count core {i}: no grid with {core.text()}"
                      for i, core in enumerate(self.counting.count_cores, 1)]
            text += f"\n{self.detail}" + "".join(f"\n  {line}" for line in cores[:MAX_CORES_SHOWN])
            if len(cores) > MAX_CORES_SHOWN:
                text += f"\n  ... and {len(cores) - MAX_CORES_SHOWN} more (--json lists them all)"
        return text

    def _fits_text(self) -> str:
        assert self.grid is not None and self.score is not None
        parts = [f"FITS ({self._about()})", "", score_text(self.score)]
        if self.question.required:
            rows = [[req.describe(), marked_spelling(m), alteration_text(m), " ".join(path_labels(self.grid, m))]
                    for req, m in zip(self.question.required, self.witnesses, strict=True)]
            parts += ["", "requirements, as the finder spells them:",
                      text_table(["requirement", "spelled", "altered", "path"], rows)]
        return "\n".join(parts)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready (``fit --json``): the contract's keys (outcome, seconds, stopped_by,
        exit_code), as every answer starts, then verdict, backend, rounds, model size, detail,
        what the counting pre-check found when it ran, the conflict (``explain``), the
        certificate (``certify``) and, when it fits, the grid, each requirement's witness and
        the grid's full score (as ``score --json``'s keys from ``grid`` to ``found``)."""
        data: dict[str, Any] = {**self.contract_dict(), "seconds": round(self.seconds, 4),
                                "verdict": self.verdict.value, "backend": self.backend, "rounds": self.rounds,
                                "model": self.model_size.to_dict(), "detail": self.detail}
        if self.conflict is not None:
            data["conflict"] = list(self.conflict)
        if self.counting is not None:
            data["counting"] = self.counting.to_dict()
        if self.certificate is not None:
            data["certificate"] = self.certificate.to_dict()
        if self.grid is not None and self.score is not None:
            data["requirements"] = [
                {"requirement": req.describe(), "state": m.word, "spelled": m.spelled,
                 "altered": [{"position": p, "from": a, "to": b} for p, a, b in alterations(m)],
                 "path": path_labels(self.grid, m), "cells": list(m.path)}
                for req, m in zip(self.question.required, self.witnesses, strict=True)
            ]
            data["score"] = score_dict(self.score)
            data.update(grid_dict(self.grid))
        return data

    def _repr_html_(self) -> str:
        """In a notebook: the verdict and its facts (the conflict, with ``explain``); when it fits,
        each requirement as the finder spells it and the grid's score (grid and words)."""
        if self.grid is None or self.score is None:
            return answer_html(self)
        rows = [[req.describe(), marked_spelling(m), alteration_text(m), " ".join(path_labels(self.grid, m))]
                for req, m in zip(self.question.required, self.witnesses, strict=True)]
        sections = [table(["requirement", "spelled", "altered", "path"], rows)] if rows else []
        return answer_html(self, [*sections, self.score._repr_html_()], grid=False, text=False,
                           skip=("requirements", "score", "grid", "shape", "moves"))

    def picture_parts(self) -> tuple[Score, dict[str, Match], str] | str:
        """What a picture of this answer draws: the score, the requirements' witnesses (drawn
        instead of the score's own paths) and a heading; or why there is nothing to draw."""
        if self.score is None:
            return f"no grid to draw: the answer is {self.verdict.value.upper()}"
        witnesses = {m.word: m for m in self.witnesses}
        return self.score, witnesses, f"fit: {self.verdict.value.upper()} ({self.backend})"


@dataclass(frozen=True)
class Explanation(Answer):
    """Why a question does not fit (:func:`~exactgrid.fitting.session.explain`): ``conflict``, a
    set of its parts (requirements, forbidden words, fixed cells, as the CLI writes them) that
    cannot hold together, proven minimal when ``minimal``. DOES_NOT_FIT when the solver refuted
    the question; UNKNOWN when the time (or an interruption) came first, and ``conflict`` is
    then every part not yet shown unneeded; FITS when the question fits (nothing conflicts),
    with ``grid``, checked by the finder. Unpacks as ``(conflict, minimal)``, as ``explain``
    returned before it had an answer type."""

    outcome: Outcome
    question: Question
    conflict: tuple[str, ...] = ()
    minimal: bool = False
    backend: str = ""
    seconds: float = 0.0
    stopped_by: str | None = None
    detail: str = ""
    """With UNKNOWN before any solving: why (the time limit came while the model was built)."""
    grid: Grid | None = None
    """With FITS: a grid meeting the question, checked by the finder."""

    def __iter__(self) -> Iterator[Any]:
        return iter((self.conflict, self.minimal))

    def text(self) -> str:
        """One line: the conflict, or why there is none."""
        if self.outcome == Outcome.FITS and self.grid is not None:
            return (f"FITS: nothing conflicts; {self.grid.letters} meets the question (checked by the finder; "
                    f"backend {self.backend}, {self.seconds:.2f} s)")
        if self.outcome == Outcome.UNKNOWN and self.detail:
            return f"UNKNOWN after {self.seconds:.1f} s: {self.detail}"
        if self.outcome == Outcome.UNKNOWN:
            return (f"UNKNOWN after {self.seconds:.1f} s: not refuted yet; parts not yet shown unneeded: "
                    f"{', '.join(self.conflict) or '-'}")
        why = ", ".join(self.conflict) or f"{background_text(self.question)} alone"
        proven = "minimal" if self.minimal else "not shrunk to minimal (time limit)"
        return f"DOES NOT FIT: {why} cannot hold together ({proven}; backend {self.backend}, {self.seconds:.2f} s)"

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: the contract's keys, conflict, minimal, backend, detail, and ``grid`` (its
        letters, or None)."""
        return {**self.contract_dict(), "conflict": list(self.conflict), "minimal": self.minimal,
                "backend": self.backend, "detail": self.detail,
                "grid": None if self.grid is None else self.grid.letters}


def decoded_grid(encoding: Encoding, result: Result, cells: Any = None) -> Grid:
    """The grid ``result``'s assignment describes (:meth:`~exactgrid.encoding.Encoding.decode`);
    :class:`~exactgrid.backends.SolverDisagreement` naming the backend when it describes none
    (a cell with no letter or two: a solver bug, before the finder's check could say so)."""
    try:
        return encoding.decode(result.true_vars or (), cells)
    except AssertionError as exc:
        raise SolverDisagreement(f"{result.backend}: its assignment is no grid ({exc})") from exc


def verified_answer(grid: Grid, solver_name: str, question: Question, **fields: Any) -> FitAnswer:
    """A FITS answer for ``grid`` once the finder confirms it meets ``question``; else
    VerificationError (a bug in an encoding or a backend, never an answer). ``fields``: the
    rest of the :class:`FitAnswer` (backend, seconds, ...)."""
    check = check_grid(question, grid)
    if check.problems:
        raise VerificationError(
            f"backend {solver_name} returned {grid.letters}, which the finder rejects: " + "; ".join(check.problems)
        )
    return FitAnswer(Verdict.FITS, question, grid=grid, witnesses=check.witnesses, **fields)


def unchecked_detail(exc: Exception) -> str:
    """The detail of an UNKNOWN answer whose grid the finder could not check in time
    (:class:`~exactgrid.finder.FinderTimedOut`): a grid is shown only once checked."""
    return f"{exc}, checking the grid found: a grid is shown only once checked"


def model_size(model: BoolModel) -> ModelSize:
    """How big a model is: variables, clauses and linear constraints."""
    return ModelSize(model.num_vars, len(model.clauses), len(model.linear))


def background_text(question: Question) -> str:
    """What an explanation leaves in the background, as words: the question's minimum score or
    count and its chains (a conflict names only requirements, forbidden words and cells)."""
    named = []
    if question.min_score is not None or question.min_count is not None:
        named.append("the minimum score or count")
    if question.chains:
        named.append("the chain" if len(question.chains) == 1 else "the chains")
    return " and ".join(named) or "the question's background"
