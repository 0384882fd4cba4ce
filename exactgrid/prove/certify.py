"""Certified refutations: a "does not fit" backed by a proof that exactgrid checks itself.

Whatever backend refuted a question (Kissat, HiGHS, CP-SAT, a portfolio), :func:`certify_refutation`
asks CaDiCaL, through PySAT with proof logging, to refute the same model compiled to CNF, and
checks the DRUP proof it writes with :func:`~exactgrid.prove.drup.check_drup`, which shares no
code with any solver or with the encoder. What it does not cover is said in the certificate:
the encoder itself (the model is trusted to mean the question; the brute-force tests stand
behind that), and questions whose simple-path forbidden words are enforced lazily by cuts
(those are refused here).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace
from typing import Any

from ..answer import DEFAULT_TIME_LIMIT
from ..backends.sat import solve_in_chunks
from ..cnf import compile_cnf
from ..encode import Encoding, encode
from ..inputs import check_seconds
from ..model import BoolModel
from ..question import Question
from ..wording import plural
from .answers import BoundAnswer, CoreRefutation
from .cores import core_cut
from .counting import OTHER, counting_model
from .drup import ProofCheck, check_drup
from .exact import CountCheck, WordCore
from .placement import Placement

PROOF_SOLVER = "cadical195"
"""The PySAT solver that writes the proofs (CaDiCaL 1.9.5; Glucose 4 logs proofs too)."""


@dataclass(frozen=True)
class Certificate:
    """What backs a refutation: ``checked`` when a proof was written and every step verified."""

    checked: bool
    method: str
    lemmas: int = 0
    clauses: int = 0
    seconds: float = 0.0
    detail: str = ""

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready, stable keys: checked, method, lemmas, clauses, seconds, detail."""
        return {"checked": self.checked, "method": self.method, "lemmas": self.lemmas, "clauses": self.clauses,
                "seconds": round(self.seconds, 3), "detail": self.detail}

    def text(self) -> str:
        """One line, as ``fit --certify`` prints it."""
        if self.checked:
            return (f"certified: {self.method}: {self.lemmas:,} lemmas over {self.clauses:,} clauses, every step "
                    f"checked ({self.seconds:.2f} s)")
        return f"not certified: {self.detail}"


def certify_refutation(question: Question, time_limit: float = DEFAULT_TIME_LIMIT,
                       encoding: Encoding | None = None) -> Certificate:
    """Refute ``question`` again with a proof-logging CaDiCaL and check the DRUP proof.

    Returns a :class:`Certificate`; ``checked`` is False (with the reason) when the question
    uses lazy cuts, when no proof came within ``time_limit`` seconds, or when the proof fails
    the check. Raises AssertionError when CaDiCaL finds the model satisfiable: the refutation
    being certified was then wrong, which is a bug, never an answer.
    """
    started = time.monotonic()
    limit = check_seconds(time_limit)
    method = f"DRUP proof from CaDiCaL ({PROOF_SOLVER}), checked by exactgrid.prove.drup"
    enc = encoding if encoding is not None else encode(question)
    if enc.lazy_forbidden:
        return Certificate(False, method, detail="a forbidden word under the simple-path rule is enforced by lazy "
                                                 "cuts, which a proof of the model alone does not cover")
    cnf = compile_cnf(enc.model)
    checked = refute_with_proof(cnf.clauses, started + limit)
    if checked is None:
        return Certificate(False, method, clauses=len(cnf.clauses), seconds=time.monotonic() - started,
                           detail=f"no proof within {limit:g} s")
    return Certificate(checked.valid, method, checked.lemmas, len(cnf.clauses), time.monotonic() - started,
                       checked.reason)


def refute_with_proof(clauses: list[list[int]], deadline: float | None) -> ProofCheck | None:
    """Refute ``clauses`` with a proof-logging CaDiCaL and check its DRUP proof; None when no
    answer came before ``deadline``. Raises AssertionError when the clauses are satisfiable
    (what was to be certified was wrong: a bug, never an answer)."""
    from pysat.solvers import Solver

    with Solver(name=PROOF_SOLVER, bootstrap_with=clauses, with_proof=True) as solver:
        answer = solve_in_chunks(solver, deadline)
        proof = solver.get_proof() if answer is False else None
    if answer is True:
        raise AssertionError("CaDiCaL finds the clauses satisfiable: the refutation to certify is wrong")
    if answer is None:
        return None
    return check_drup(clauses, proof or [], deadline)


def certify_counting(question: Question, counted: CoreRefutation,
                     time_limit: float | None = DEFAULT_TIME_LIMIT) -> Certificate:
    """Certify a refutation by counting (``counted.status == "refuted"``): every core it cut is
    refuted again (a pair/count core on a placement model of its own letters, a word count core
    on the question's exact model with its assumptions as units), then the counting relaxation
    with all those cuts is refuted outright, each by a DRUP proof that exactgrid checks."""
    started = time.monotonic()
    deadline = None if time_limit is None else started + check_seconds(time_limit)
    method = (f"DRUP proofs from CaDiCaL ({PROOF_SOLVER}), checked by exactgrid.prove.drup, of "
              f"{plural(len(counted.cuts), 'core')} and of the counting relaxation "
              "with their cuts")
    if counted.status != "refuted":
        return Certificate(False, method, detail="counting did not refute this question")
    counting = counting_model(question, objective=False, tight=False)
    exact = None
    lemmas = clauses = 0
    cuts: list[list[int]] = []
    try:
        for index, core in enumerate(counted.cuts, 1):
            if isinstance(core, WordCore):
                if exact is None:
                    exact = CountCheck(question, set(counting.cells) | {OTHER}, words=bool(core.words))
                units = [[lit] for lit in exact.assumptions(core.words, core.at_most)]
                base = compile_cnf(exact.encoding.model).clauses
            else:
                alone = Placement(question.board, core.letters, set(core.pairs), dict(question.fixed), "cadical",
                                  set(core.triples))
                units = [[lit] for lit in alone.assumptions(core.pairs, core.at_most, core.triples)]
                base = compile_cnf(alone.model).clauses
                alone.close()
            checked = refute_with_proof([*base, *units], deadline)
            if checked is None or not checked.valid:
                why = "no proof in time" if checked is None else checked.reason
                return Certificate(False, method, lemmas, clauses, time.monotonic() - started,
                                   f"cut {index} of {len(counted.cuts)} ({core.text()[:60]}...): {why}")
            lemmas, clauses = lemmas + checked.lemmas, clauses + len(base)
            cut = core_cut(counting, core)
            if cut is None:  # pragma: no cover - a cut names the relaxation's own words, pairs and letters
                raise AssertionError(f"cut {index} does not apply to the relaxation")
            cuts.append(cut)
    finally:
        if exact is not None:
            exact.close()
    relaxed = compile_cnf(counting.model).clauses + cuts
    checked = refute_with_proof(relaxed, deadline)
    if checked is None or not checked.valid:
        why = "no proof in time" if checked is None else checked.reason
        return Certificate(False, method, lemmas, clauses, time.monotonic() - started,
                           f"the relaxation with its {len(cuts)} cuts: {why}")
    return Certificate(True, method, lemmas + checked.lemmas, clauses + len(relaxed), time.monotonic() - started)


def confirm_bound(answer: BoundAnswer, model: BoolModel, cuts: list[tuple[int, ...]], placement: Placement,
                  time_limit: float | None, exact: CountCheck | None = None) -> BoundAnswer:
    """``answer`` with its ``confirmation``: every core refuted again on the placement model,
    every word count core on the question's exact model (``exact``, the check that found them),
    and the relaxation with its cuts refuted with "score above the bound" (or outright, when the
    question was refuted), each by a DRUP proof that :mod:`exactgrid.prove.drup` checks."""
    started = time.monotonic()
    deadline = None if time_limit is None else started + time_limit
    lemmas = 0
    if answer.word_cores:
        if exact is None:
            return replace(answer, confirmation="not certified: word count cores without their exact model")
        base = compile_cnf(exact.encoding.model).clauses
        for index, word_core in enumerate(answer.word_cores, 1):
            units = [[lit] for lit in exact.assumptions(word_core.words, word_core.at_most)]
            checked = refute_with_proof([*base, *units], deadline)
            if checked is None or not checked.valid:
                why = "no proof in time" if checked is None else checked.reason
                return replace(answer, confirmation=f"not certified: word count core {index} ({why})")
            lemmas += checked.lemmas
    for index, core in enumerate(answer.cores, 1):
        # a placement of the core's own letters and pairs: the same check, far fewer clauses
        alone = Placement(placement.board, core.letters, set(core.pairs), placement.fixed, "cadical",
                          set(core.triples))
        try:
            units = [[lit] for lit in alone.assumptions(core.pairs, core.at_most, core.triples)]
            checked = refute_with_proof([*compile_cnf(alone.model).clauses, *units], deadline)
        finally:
            alone.close()
        if checked is None or not checked.valid:
            why = "no proof in time" if checked is None else checked.reason
            return replace(answer, confirmation=f"not certified: core {index} ({why})")
        lemmas += checked.lemmas
    relaxed = BoolModel(model.num_vars, [*model.clauses, *cuts], list(model.linear), None, model.names,
                        model.literals)
    if answer.status != "refuted":
        if answer.bound is None or model.objective is None:
            return replace(answer, confirmation="not certified: no bound to certify")
        relaxed.add_linear(*model.objective, ">=", answer.bound + 1)
    clauses = compile_cnf(relaxed).clauses
    checked = refute_with_proof(clauses, deadline)
    if checked is None or not checked.valid:
        why = "no proof in time" if checked is None else checked.reason
        claim = "the refutation" if answer.status == "refuted" else f"score >= {answer.bound + 1:,}"
        return replace(answer, confirmation=f"not certified: {claim} by counting ({why})")
    lemmas += checked.lemmas
    claim = "no solution" if answer.status == "refuted" else f"no score above {answer.bound:,}"
    return replace(answer, confirmation=(
        f"certified: {plural(len(answer.cores), 'core')}, {plural(len(answer.word_cores), 'word count core')} "
        f"and the relaxation "
        f"with its cuts ({claim}) refuted again by "
        f"CaDiCaL; {lemmas:,} DRUP lemmas, every step checked by exactgrid.prove.drup "
        f"({time.monotonic() - started:.2f} s)"))
