"""Certified refutations: a "does not fit" backed by a proof that exactgrid checks itself.

Whatever backend refuted a question (Kissat, HiGHS, CP-SAT, a portfolio), :func:`certify_refutation`
asks CaDiCaL, through PySAT with proof logging, to refute the same model compiled to CNF, and
checks the DRUP proof it writes twice (:mod:`.checkers`): with
:func:`~exactgrid.prove.drup.check_drup`, which shares no code with any solver or with the
encoder, and with dratify's checker, which shares none with either. A proof counts only when
both accept it; the certificate names both, with their seconds (:attr:`Certificate.checks`).
What it does not cover is said in the certificate:
the encoder itself (the model is trusted to mean the question; the brute-force tests stand
behind that), and questions whose simple-path forbidden words are enforced lazily by cuts
(those are refused here).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import Any

from ..answer import DEFAULT_TIME_LIMIT
from ..backends.sat import solve_in_chunks
from ..cnf import compile_cnf
from ..encoding import Encoding, encode
from ..geometry import Board
from ..inputs import InputError, check_kind, check_seconds
from ..question import Question
from ..wording import plural
from .answers import BoundAnswer, CoreRefutation
from .checkers import CheckerRun, DoubleCheck, check_twice, tally
from .cores import core_cut
from .counting import OTHER, CountingModel, counting_model
from .exact import CountCheck, WordCore
from .placement import Core, Placement

PROOF_SOLVER = "cadical195"
"""The PySAT solver that writes the proofs (CaDiCaL 1.9.5; Glucose 4 logs proofs too)."""

CHECKED_BY = "checked by exactgrid.prove.drup and by dratify"
"""How every proof is checked, as certificates say it."""


@dataclass(frozen=True)
class Certificate:
    """What backs a refutation: ``checked`` when a proof was written and every step verified."""

    checked: bool
    method: str
    lemmas: int = 0
    clauses: int = 0
    seconds: float = 0.0
    detail: str = ""
    checks: tuple[CheckerRun, ...] = ()
    """Each proof checker's verdict and seconds, summed over the proofs (dratify's first, then
    exactgrid's); ``checked`` only when both accepted every proof. Empty when no proof came."""
    satisfiable: bool = False
    """CaDiCaL found what was to be refuted satisfiable: there is no refutation to certify
    (the question fits, or the cuts given do not hold for it). Where a solver had refuted the
    question, that refutation was wrong."""

    @property
    def checkers(self) -> tuple[str, ...]:
        """The checkers that checked the proofs, with their versions."""
        return tuple(run.checker for run in self.checks)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready, stable keys: checked, method, lemmas, clauses, seconds, detail,
        satisfiable, checkers (each {checker, accepted, finished, seconds, reason})."""
        return {"checked": self.checked, "method": self.method, "lemmas": self.lemmas, "clauses": self.clauses,
                "seconds": round(self.seconds, 3), "detail": self.detail, "satisfiable": self.satisfiable,
                "checkers": [run.to_dict() for run in self.checks]}

    def text(self) -> str:
        """One line, as ``fit --certify`` prints it."""
        if self.checked:
            return (f"certified: {self.method}: {self.lemmas:,} lemmas over {self.clauses:,} clauses, every step "
                    f"checked by both ({self.seconds:.2f} s; {', '.join(run.text() for run in self.checks)})")
        return f"not certified: {self.detail}"


def certify_refutation(question: Question, time_limit: float = DEFAULT_TIME_LIMIT,
                       encoding: Encoding | None = None) -> Certificate:
    """Refute ``question`` again with a proof-logging CaDiCaL and check the DRUP proof.

    Returns a :class:`Certificate`; ``checked`` is False (with the reason) when the question
    uses lazy cuts, when no proof came within ``time_limit`` seconds, or when the proof fails
    the check, and ``satisfiable`` too when CaDiCaL finds the model satisfiable: the question
    fits, and there is no refutation to certify. ``encoding``: the question's own (InputError
    for another question's).
    """
    started = time.monotonic()
    limit = check_seconds(time_limit)
    method = f"DRUP proof from CaDiCaL ({PROOF_SOLVER}), {CHECKED_BY}"
    if encoding is not None and encoding.spec != question:
        raise InputError("the encoding given to certify_refutation was built for another question")
    enc = encoding if encoding is not None else encode(question)
    if enc.lazy_forbidden:
        return Certificate(False, method, detail="a forbidden word under the simple-path rule is enforced by lazy "
                                                 "cuts, which a proof of the model alone does not cover")
    cnf = compile_cnf(enc.model)
    try:
        checked = refute_with_proof(cnf.clauses, started + limit)
    except Satisfiable:
        return Certificate(False, method, clauses=len(cnf.clauses), seconds=time.monotonic() - started,
                           detail="CaDiCaL finds the question's model satisfiable: it fits, so there is no "
                                  "refutation to certify", satisfiable=True)
    if checked is None:
        return Certificate(False, method, clauses=len(cnf.clauses), seconds=time.monotonic() - started,
                           detail=f"no proof within {limit:g} s")
    return Certificate(checked.valid, method, checked.lemmas, len(cnf.clauses), time.monotonic() - started,
                       checked.reason, checked.runs)


class Satisfiable(Exception):
    """Clauses that were to be refuted have a solution: what was to be certified is not so."""


def refute_with_proof(clauses: list[list[int]], deadline: float | None) -> DoubleCheck | None:
    """Refute ``clauses`` with a proof-logging CaDiCaL and check its DRUP proof with both
    checkers (:func:`.checkers.check_twice`); None when no answer came before ``deadline``.
    Raises :class:`Satisfiable` when the clauses are satisfiable."""
    from pysat.solvers import Solver

    with Solver(name=PROOF_SOLVER, bootstrap_with=clauses, with_proof=True) as solver:
        answer = solve_in_chunks(solver, deadline)
        proof = solver.get_proof() if answer is False else None
    if answer is True:
        raise Satisfiable("CaDiCaL finds the clauses satisfiable")
    if answer is None:
        return None
    return check_twice(clauses, proof or [], deadline)


def _why(checked: DoubleCheck | None) -> str:
    """Why a proof does not back a claim: none came in time, or the checkers' reason."""
    return "no proof in time" if checked is None else checked.reason


def certify_counting(question: Question, counted: CoreRefutation,
                     time_limit: float | None = DEFAULT_TIME_LIMIT) -> Certificate:
    """Certify a refutation by counting (``counted.status == "refuted"``): every core it cut is
    refuted again (a pair/count core on a placement model of its own letters, a word count core
    on the question's exact model with its assumptions as units), then the counting relaxation
    with all those cuts is refuted outright, each by a DRUP proof that both checkers accept.
    ``satisfiable`` when CaDiCaL finds a core or the relaxation with the cuts satisfiable (the
    refutation was of another question, or wrong)."""
    started = time.monotonic()
    check_kind(question, Question, "certify_counting()")
    check_kind(counted, CoreRefutation, "certify_counting()'s refutation (what refute_by_cores returns)")
    deadline = None if time_limit is None else started + check_seconds(time_limit)
    method = (f"DRUP proofs from CaDiCaL ({PROOF_SOLVER}), {CHECKED_BY}, of "
              f"{plural(len(counted.cuts), 'core')} and of the counting relaxation "
              "with their cuts")
    if counted.status != "refuted":
        return Certificate(False, method, detail="counting did not refute this question")
    counting = counting_model(question, objective=False, tight=False, unary=True)
    exact = _ExactModel(question, set(counting.cells))
    lemmas = clauses = 0
    runs: tuple[CheckerRun, ...] = ()
    cuts: list[list[int]] = []
    try:
        for index, core in enumerate(counted.cuts, 1):
            base, units = _core_clauses(question, core, exact)
            try:
                checked = refute_with_proof([*base, *units], deadline)
            except Satisfiable:
                return Certificate(False, method, lemmas, clauses, time.monotonic() - started,
                                   f"cut {index} of {len(counted.cuts)} ({core.text()[:60]}...) does not hold "
                                   "for this question: CaDiCaL finds it satisfiable", runs, satisfiable=True)
            runs = tally(runs, checked.runs if checked else ())
            if checked is None or not checked.valid:
                return Certificate(False, method, lemmas, clauses, time.monotonic() - started,
                                   f"cut {index} of {len(counted.cuts)} ({core.text()[:60]}...): {_why(checked)}",
                                   runs)
            lemmas, clauses = lemmas + checked.lemmas, clauses + len(base)
            cuts.append(_cut(counting, core, index))
    finally:
        exact.close()
    relaxed = compile_cnf(counting.model).clauses + cuts
    try:
        checked = refute_with_proof(relaxed, deadline)
    except Satisfiable:
        return Certificate(False, method, lemmas, clauses, time.monotonic() - started,
                           f"the relaxation with its {len(cuts)} cuts has a solution (CaDiCaL): they do not "
                           "refute this question", runs, satisfiable=True)
    runs = tally(runs, checked.runs if checked else ())
    if checked is None or not checked.valid:
        return Certificate(False, method, lemmas, clauses, time.monotonic() - started,
                           f"the relaxation with its {len(cuts)} cuts: {_why(checked)}", runs)
    return Certificate(True, method, lemmas + checked.lemmas, clauses + len(relaxed), time.monotonic() - started,
                       checks=runs)


class _ExactModel:
    """The question's exact model with letter counters, for word count cores: the one given, or
    made when the first such core needs it (and closed by :meth:`close`); compiled to CNF once."""

    def __init__(self, question: Question, letters: set[str], check: CountCheck | None = None) -> None:
        self.question, self.letters = question, letters
        self.check, self.made = check, False
        self.clauses: list[list[int]] | None = None

    def refutation(self, core: WordCore) -> tuple[list[list[int]], list[list[int]]]:
        """The model's clauses and ``core``'s assumptions as unit clauses."""
        if self.check is None:
            self.check = CountCheck(self.question, self.letters | {OTHER}, words=bool(core.words))
            self.made = True
        if self.clauses is None:
            self.clauses = compile_cnf(self.check.encoding.model).clauses
        return self.clauses, [[lit] for lit in self.check.assumptions(core.words, core.at_most)]

    def close(self) -> None:
        """Close the model when it was made here."""
        if self.made and self.check is not None:
            self.check.close()


def _core_clauses(question: Question, core: Core | WordCore,
                  exact: _ExactModel) -> tuple[list[list[int]], list[list[int]]]:
    """The clauses that refute ``core`` and its assumptions as unit clauses: a word count core
    on the question's exact model, a pair/count core on a placement model of its own letters
    and pairs."""
    if isinstance(core, WordCore):
        return exact.refutation(core)
    return placement_clauses(question.board, dict(question.fixed), core)


def _cut(counting: CountingModel, core: Core | WordCore, index: int) -> list[int]:
    """``core``'s clause in the relaxation (the ``index``-th cut)."""
    cut = core_cut(counting, core)
    if cut is None:  # pragma: no cover - a cut names the relaxation's own words, pairs and letters
        raise AssertionError(f"cut {index} does not apply to the relaxation")
    return cut


def placement_clauses(board: Board, fixed: dict[int, str], core: Core) -> tuple[list[list[int]], list[list[int]]]:
    """The clauses that refute a pair/count ``core`` (a placement model of its own letters and
    pairs on ``board`` with the ``fixed`` cells: the same check, far fewer clauses than the
    whole question's) and its assumptions as unit clauses."""
    alone = Placement(board, core.letters, set(core.pairs), fixed, "cadical", set(core.triples))
    try:
        units = [[lit] for lit in alone.assumptions(core.pairs, core.at_most, core.triples)]
        return compile_cnf(alone.model).clauses, units
    finally:
        alone.close()


def confirm_bound(answer: BoundAnswer, question: Question, time_limit: float | None,
                  exact: CountCheck | None = None, capacity: bool = True) -> BoundAnswer:
    """``answer`` with its ``confirmation`` and ``checkers``: every cut's core (``answer.cuts``,
    renamed copies included) refuted again, a pair/count core on a placement model of its own
    letters and pairs, a word count core on the question's exact model (``exact``, the check
    that found them); then the counting relaxation of ``question`` (with ``capacity`` as the
    bound had it) with those cuts and "score above the bound" (or outright, when the question
    was refuted), each by a DRUP proof that both checkers accept.

    The relaxation refuted is the bound's own in unary form (:func:`.counting.counting_model`
    with ``unary``): the same solutions, but each letter count is a row of order literals, so
    that CaDiCaL's propagation sees "letter A needs two cells" and the sums over the cells; on
    the binary-coded counts HiGHS solves, CaDiCaL found no proof of the 5x5 bounds at all
    (docs/benchmarks.md, Prove)."""
    started = time.monotonic()
    deadline = None if time_limit is None else started + time_limit
    if answer.word_cores and exact is None:
        return replace(answer, confirmation="not certified: word count cores without their exact model")
    if answer.status != "refuted" and answer.bound is None:
        return replace(answer, confirmation="not certified: no bound to certify")
    lemmas = 0
    runs: tuple[CheckerRun, ...] = ()
    for label, clauses in _bound_proofs(answer, question, exact, capacity):
        try:
            checked = refute_with_proof(clauses, deadline)
        except Satisfiable as exc:  # the bound's own cores and relaxation: a bug, never an answer
            raise AssertionError(f"{label}: {exc}, but the bound rests on its refutation") from exc
        runs = tally(runs, checked.runs if checked else ())
        if checked is None or not checked.valid:
            return replace(answer, confirmation=f"not certified: {label} ({_why(checked)})", checkers=runs)
        lemmas += checked.lemmas
    claim = "no solution" if answer.status == "refuted" else f"no score above {answer.bound:,}"
    copies = len({core for core in answer.cuts if isinstance(core, Core)} - set(answer.cores))
    return replace(answer, checkers=runs, confirmation=(
        f"certified: {plural(len(answer.cores), 'core')}, {plural(len(answer.word_cores), 'word count core')}, "
        f"{copies} renamed {'copy' if copies == 1 else 'copies'} and the relaxation with its cuts ({claim}) "
        f"refuted again by CaDiCaL; {lemmas:,} DRUP lemmas, every "
        f"step {CHECKED_BY} ({time.monotonic() - started:.2f} s; {', '.join(run.text() for run in runs)})"))


def _bound_proofs(answer: BoundAnswer, question: Question, exact: CountCheck | None,
                  capacity: bool) -> Iterator[tuple[str, list[list[int]]]]:
    """What :func:`confirm_bound` refutes, one at a time: (what it is, its clauses)."""
    counting = counting_model(question, objective=True, capacity=capacity, unary=True)
    model = _ExactModel(question, set(counting.cells), exact)
    cuts = []
    for index, core in enumerate(dict.fromkeys(answer.cuts), 1):
        base, units = _core_clauses(question, core, model)
        yield f"{'word count core' if isinstance(core, WordCore) else 'core'} {index}", [*base, *units]
        cuts.append(_cut(counting, core, index))
    relaxed = counting.model
    objective, relaxed.objective = relaxed.objective, None
    if answer.status != "refuted" and objective is not None:
        relaxed.add_linear(*objective, ">=", (answer.bound or 0) + 1)
    claim = "the refutation" if answer.status == "refuted" else f"score >= {(answer.bound or 0) + 1:,}"
    yield f"{claim} by counting", compile_cnf(relaxed).clauses + cuts
