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
from dataclasses import dataclass
from typing import Any

from ..backends.sat import solve_in_chunks
from ..cnf import compile_cnf
from ..encode import Encoding, encode
from ..inputs import check_seconds
from ..question import Question
from .drup import check_drup

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


def certify_refutation(question: Question, time_limit: float = 60.0, encoding: Encoding | None = None) -> Certificate:
    """Refute ``question`` again with a proof-logging CaDiCaL and check the DRUP proof.

    Returns a :class:`Certificate`; ``checked`` is False (with the reason) when the question
    uses lazy cuts, when no proof came within ``time_limit`` seconds, or when the proof fails
    the check. Raises AssertionError when CaDiCaL finds the model satisfiable: the refutation
    being certified was then wrong, which is a bug, never an answer.
    """
    from pysat.solvers import Solver

    started = time.monotonic()
    limit = check_seconds(time_limit)
    method = f"DRUP proof from CaDiCaL ({PROOF_SOLVER}), checked by exactgrid.prove.drup"
    enc = encoding if encoding is not None else encode(question)
    if enc.lazy_forbidden:
        return Certificate(False, method, detail="a forbidden word under the simple-path rule is enforced by lazy "
                                                 "cuts, which a proof of the model alone does not cover")
    cnf = compile_cnf(enc.model)
    with Solver(name=PROOF_SOLVER, bootstrap_with=cnf.clauses, with_proof=True) as solver:
        answer = solve_in_chunks(solver, started + limit)
        proof = solver.get_proof() if answer is False else None
    if answer is True:
        raise AssertionError("CaDiCaL finds the model satisfiable: the refutation to certify is wrong")
    if answer is None:
        return Certificate(False, method, clauses=len(cnf.clauses), seconds=time.monotonic() - started,
                           detail=f"no proof within {limit:g} s")
    verdict = check_drup(cnf.clauses, proof or [])
    return Certificate(verdict.valid, method, verdict.lemmas, len(cnf.clauses), time.monotonic() - started,
                       verdict.reason)
