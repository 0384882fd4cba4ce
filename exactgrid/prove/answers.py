"""The answers of the proving jobs: :class:`BoundAnswer` (``bound``) and :class:`CoreRefutation`
(``refute_by_cores``, the counting loop), both meeting the one answer contract
(:class:`~exactgrid.answer.Answer`).

Each keeps the ``status`` it always had (``refuted``, ``bounded``, ``open``, ...): code that reads
``answer.status == "refuted"`` goes on working, and :attr:`~exactgrid.answer.Answer.outcome`
says the same in the contract's words. Both live here, apart from the loops that make them,
so that the loops and the certificates of :mod:`.certify` can import them without importing
each other.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..answer import Answer, Outcome
from ..grid import Grid
from ..wording import plural
from .checkers import CheckerRun
from .exact import WordCore
from .placement import Core

CORES_SHOWN = 5
"""``text()`` lists at most this many cores (``to_dict()`` lists them all)."""


@dataclass(frozen=True)
class BoundAnswer(Answer):
    """An upper bound on the best score of any grid answering a question, and what backs it.

    ``outcome``: DOES_NOT_FIT (refuted), OPTIMAL (the bound is reached by :attr:`grid`),
    BOUNDED (a proven bound: the relaxation's last word, or the best one proven when the time
    limit or an interruption cut the work short, which ``detail`` says), UNKNOWN (stopped before
    any bound was proven).
    """

    status: str
    """``refuted`` (no grid answers the question), ``optimal`` (with ``exact``: :attr:`grid`
    scores the bound, so it is the best score), ``bounded`` (the optimum of the relaxation with
    every cut found: counting cannot go lower), ``open`` (time limit or interrupted: the best
    bound proven so far)."""
    bound: int | None
    """The bound (None when refuted, or when no round proved one in time)."""
    total: int
    """The summed weight of every word the bound scores (the trivial bound)."""
    cores: tuple[Core, ...] = ()
    rounds: int = 0
    renamed: int = 0
    """Cuts that were renamed copies of earlier cores."""
    seconds: float = 0.0
    trajectory: tuple[tuple[float, int], ...] = ()
    """(seconds, bound) each time the bound went down."""
    detail: str = ""
    confirmation: str = ""
    """With ``certify``: what a second solver and the proof checker said."""
    word_cores: tuple[WordCore, ...] = ()
    """With ``exact``: word count cores (words that cannot be spelled together within letter
    limits, from the question's exact model)."""
    grid: Grid | None = None
    """With ``optimal``: a grid scoring the bound, checked by the finder."""
    stopped_by: str | None = None
    """The interruption that ended the work (``Ctrl-C``, ``SIGTERM``, ``SIGHUP``), or None (a
    time limit is said in ``detail``)."""
    method: str = "cores"
    """``cores`` (the relaxation cut by cores, on HiGHS) or ``relaxation`` (the relaxation alone)."""
    backend: str = "highs"
    """The solver of the relaxation."""
    checkers: tuple[CheckerRun, ...] = ()
    """With ``certify``: each proof checker's verdict and seconds, summed over the proofs
    (dratify's, then exactgrid's own); certified only when both accepted every proof."""
    cuts: tuple[Core | WordCore, ...] = ()
    """Every core cut, in order, renamed copies included: what a certificate re-proves."""

    @property
    def outcome(self) -> Outcome:  # type: ignore[override]
        """DOES_NOT_FIT, OPTIMAL, BOUNDED (any proven bound, final or not) or UNKNOWN."""
        if self.status == "refuted":
            return Outcome.DOES_NOT_FIT
        if self.status == "optimal":
            return Outcome.OPTIMAL
        return Outcome.BOUNDED if self.bound is not None else Outcome.UNKNOWN

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: the contract's keys (outcome, seconds, stopped_by, exit_code), then status,
        bound, total, rounds, renamed, trajectory, cores, word_cores, grid, detail,
        confirmation, method, backend, checkers (with ``certify``: each {checker, accepted,
        finished, seconds, reason}), and for ``relaxation`` last ``how``."""
        data = {**self.contract_dict(), "status": self.status, "bound": self.bound, "total": self.total,
                "rounds": self.rounds, "renamed": self.renamed,
                "trajectory": [[round(s, 2), b] for s, b in self.trajectory],
                "cores": [c.to_dict() for c in self.cores], "word_cores": [c.to_dict() for c in self.word_cores],
                "grid": self.grid.letters if self.grid else None, "detail": self.detail,
                "confirmation": self.confirmation, "method": self.method, "backend": self.backend,
                "checkers": [run.to_dict() for run in self.checkers]}
        if self.method == "relaxation":
            data["how"] = self.detail
        return data

    def text(self) -> str:
        """What ``exactgrid bound`` prints."""
        if self.method == "relaxation":
            return f"{self._head()}\nhow: {self.detail} ({self.backend}, {self.seconds:.2f} s)"
        cores = len(self.cores)
        lines = [self._head(), f"how: {self.detail}",
                 f"{plural(self.rounds, 'round')}, {plural(cores, 'pair/count core')} "
                 f"({self.renamed} renamed copies), {self.seconds:.1f} s"]
        if self.word_cores:
            lines[-1] += f", {plural(len(self.word_cores), 'word count core')}"
        shown = [f"core {i}: {c.text()}" for i, c in enumerate(self.cores, 1)]
        shown += [f"word count core {i}: no grid with {c.text()}" for i, c in enumerate(self.word_cores, 1)]
        lines += [f"  {line}" for line in shown[:CORES_SHOWN]]
        if len(shown) > CORES_SHOWN:
            lines.append(f"  ... and {len(shown) - CORES_SHOWN} more (--json lists them all)")
        if self.confirmation:
            lines.append(self.confirmation)
        return "\n".join(lines)

    def _head(self) -> str:
        """The first line: what is proven."""
        if self.status == "refuted":
            return "DOES NOT FIT, by counting"
        if self.status == "optimal" and self.bound is not None and self.grid is not None:
            return f"best score {self.bound:,}, proven: the bound is reached by {self.grid.letters}"
        if self.bound is None:
            return "no bound proven within the time limit"
        below = self.total - self.bound
        return f"upper bound {self.bound:,}" + (f" ({below:,} below the total {self.total:,})" if below else
                                                " (the total of the words: nothing excluded)")


@dataclass(frozen=True)
class CoreRefutation(Answer):
    """What the core loop says about a question.

    ``outcome``: DOES_NOT_FIT (refuted), FITS (the exact model found :attr:`grid`), UNKNOWN
    (``placed``: counting cannot refute it and the exact model was not asked; ``open``: the
    time limit or an interruption came first).
    """

    status: str
    """``refuted`` (no grid), ``fits`` (the exact model found :attr:`grid` with the letter counts
    of a relaxation solution; the caller has the finder confirm it), ``placed`` (a solution's
    pairs and counts can be placed and the exact model was not asked: counting cannot refute),
    ``open`` (time limit, or interrupted)."""
    cores: tuple[Core, ...]
    rounds: int
    renamed: int
    """Cuts that were renamed copies of earlier cores (no placement proof needed)."""
    seconds: float
    placement: str | None = None
    """With ``placed``: the placement's letters (``_`` for any letter)."""
    detail: str = ""
    count_cores: tuple[WordCore, ...] = ()
    """Word count cores: letter limits no grid answering this question meets (from its exact
    model, :mod:`exactgrid.prove.exact`)."""
    grid: Grid | None = None
    """With ``fits``: the grid."""
    cuts: tuple[Core | WordCore, ...] = ()
    """Every core cut, in order, renamed copies included: what a certificate re-proves."""
    stopped_by: str | None = None
    """The interruption that ended the loop (``Ctrl-C``, ``SIGTERM``, ``SIGHUP``), or None."""

    @property
    def outcome(self) -> Outcome:  # type: ignore[override]
        """DOES_NOT_FIT (refuted), FITS (a grid), else UNKNOWN."""
        if self.status == "refuted":
            return Outcome.DOES_NOT_FIT
        if self.status == "fits" and self.grid is not None:
            return Outcome.FITS
        return Outcome.UNKNOWN

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: the contract's keys, then status, rounds, renamed, cores, count_cores,
        placement, grid and detail."""
        return {**self.contract_dict(), "status": self.status, "rounds": self.rounds, "renamed": self.renamed,
                "cores": [c.to_dict() for c in self.cores],
                "count_cores": [c.to_dict() for c in self.count_cores],
                "placement": self.placement, "grid": self.grid.letters if self.grid else None,
                "detail": self.detail}

    def text(self) -> str:
        """One line for the verdict, then the cores (at most :data:`CORES_SHOWN`)."""
        heads = {"refuted": "DOES NOT FIT, by counting", "fits": f"FITS: the exact model spelled {self._grid()}",
                 "placed": "not refuted: a solution's letter counts and pairs can be placed",
                 "open": "not refuted in the time"}
        head = heads.get(self.status, self.status)
        lines = [f"{head} ({plural(self.rounds, 'round')}, {plural(len(self.cores), 'pair/count core')}, "
                 f"{plural(len(self.count_cores), 'word count core')}, {self.seconds:.1f} s)"]
        if self.detail:
            lines.append(f"how: {self.detail}")
        shown = [f"core {i}: {c.text()}" for i, c in enumerate(self.cores, 1)]
        shown += [f"word count core {i}: no grid with {c.text()}" for i, c in enumerate(self.count_cores, 1)]
        lines += [f"  {line}" for line in shown[:CORES_SHOWN]]
        if len(shown) > CORES_SHOWN:
            lines.append(f"  ... and {len(shown) - CORES_SHOWN} more (to_dict() lists them all)")
        return "\n".join(lines)

    def _grid(self) -> str:
        return self.grid.letters if self.grid is not None else "a grid"
