"""Two proof checkers on every DRUP proof: exactgrid's own and dratify's. A real refutation is
accepted by both, a corrupted one rejected by both, a disagreement is never an acceptance, and
the answers name both checkers (with versions and seconds)."""

from __future__ import annotations

import os
import time
from pathlib import Path

import dratify
import pytest
from pysat.solvers import Solver

from exactgrid.cnf import compile_cnf
from exactgrid.encoding import encode
from exactgrid.prove import checkers
from exactgrid.prove.certify import certify_refutation
from exactgrid.prove.checkers import CheckerRun, check_twice, checker_names, tally
from exactgrid.prove.drup import check_drup
from exactgrid.question import load_instance

FIT = Path(__file__).resolve().parents[1] / "instances" / "benchmarks" / "fit"
OURS, DRATIFY = checker_names()


def refutation(instance: str) -> tuple[list[list[int]], list[str]]:
    """A benchmark fit question's clauses and CaDiCaL's DRUP proof of them."""
    clauses = compile_cnf(encode(load_instance(FIT / f"{instance}.toml").question).model).clauses
    with Solver(name="cadical195", bootstrap_with=clauses, with_proof=True) as solver:
        assert solver.solve() is False
        return clauses, solver.get_proof()


@pytest.fixture(params=["one after the other", "side by side"])
def way(request, monkeypatch):
    """Both ways of running the two checkers: in this process, or dratify in a child."""
    side_by_side = request.param == "side by side"
    monkeypatch.setattr(checkers, "PARALLEL_FROM_LEMMAS", 0 if side_by_side else 10**9)
    monkeypatch.setattr(checkers, "usable_cores", lambda: 2)
    return request.param


def test_a_real_refutation_is_accepted_by_both_and_the_certificate_names_them():
    assert OURS.startswith("exactgrid.prove.drup ") and DRATIFY.startswith(f"dratify {dratify.__version__}")
    certificate = certify_refutation(load_instance(FIT / "3x3_top3.toml").question, time_limit=60)
    assert certificate.checked, certificate.detail
    assert certificate.checkers == (DRATIFY, OURS)
    assert all(run.accepted and run.finished and run.seconds >= 0 for run in certificate.checks)
    assert "checked by exactgrid.prove.drup and by dratify" in certificate.method
    assert f"every step checked by both ({certificate.seconds:.2f} s; {DRATIFY} " in certificate.text()
    assert f"{OURS} " in certificate.text()
    data = certificate.to_dict()
    assert [run["checker"] for run in data["checkers"]] == [DRATIFY, OURS]
    assert set(data["checkers"][0]) == {"checker", "accepted", "finished", "seconds", "reason"}
    assert {"checked", "method", "lemmas", "clauses", "seconds", "detail"} < set(data)  # the keys it had before


def test_both_accept_a_real_proof_and_reject_it_corrupted(way):
    clauses, proof = refutation("3x3_top3")
    checked = check_twice(clauses, proof)
    assert checked.valid and not checked.disagree and checked.lemmas > 0
    assert [run.checker for run in checked.runs] == [DRATIFY, OURS]
    only_the_end = check_twice(clauses, ["0"])  # every lemma dropped
    assert not only_the_end.valid and not only_the_end.disagree
    assert not any(run.accepted for run in only_the_end.runs) and all(run.finished for run in only_the_end.runs)
    assert "not implied by unit propagation" in only_the_end.runs[1].reason
    assert "step 1 (the empty clause)" in only_the_end.runs[0].reason
    dropped = next(without for without in one_lemma_dropped(proof) if not check_drup(clauses, without).valid)
    rejected = check_twice(clauses, dropped)
    assert not rejected.valid and not rejected.disagree and not any(run.accepted for run in rejected.runs)


def one_lemma_dropped(proof: list[str]) -> list[list[str]]:
    """The proof without one of its lemmas (the final empty clause kept), for each lemma."""
    return [proof[:i] + proof[i + 1:] for i, line in enumerate(proof) if not line.startswith("d") and line != "0"]


def test_with_any_one_lemma_dropped_the_checkers_agree():
    clauses, proof = refutation("3x3_top3")
    verdicts = [check_twice(clauses, without) for without in one_lemma_dropped(proof)]
    assert not any(checked.disagree for checked in verdicts)
    assert any(not checked.valid for checked in verdicts) and any(checked.valid for checked in verdicts)


def test_dratify_s_two_engines_agree():
    """With the ``certify`` extra, dratify checks in Rust (cdclkit-native): the same verdicts as
    its pure-Python checker on a real proof and on it with each lemma dropped."""
    from dratify import CNF, check_proof, parse_proof

    if checkers.dratify_native() is None:
        pytest.skip("cdclkit-native (the certify extra) is not installed")
    assert DRATIFY.startswith(f"dratify {dratify.__version__} (native, cdclkit-native ")
    clauses, proof = refutation("3x3_top3")
    formula = CNF()
    for clause in clauses:
        formula.add_dimacs(clause)
    verdicts = []
    for lines in [proof, *one_lemma_dropped(proof)]:
        steps = parse_proof("\n".join(lines))
        python = check_proof(formula, steps, check_rat=False, engine="python")
        native = check_proof(formula, steps, check_rat=False, engine="native")
        assert (python.ok, python.failed_step) == (native.ok, native.failed_step)
        verdicts.append(python.ok)
    assert verdicts[0] and not all(verdicts)


def test_a_disagreement_is_never_an_acceptance(monkeypatch):
    clauses, proof = refutation("3x3_top3")
    real = checkers.check_with_dratify

    def rejects(*_args):
        return CheckerRun(DRATIFY, False, 0.0, True, "step 7 (1 2): stubbed")

    monkeypatch.setattr(checkers, "check_with_dratify", rejects)
    checked = check_twice(clauses, proof)
    assert checked.runs[1].accepted and not checked.valid and checked.disagree
    assert checked.reason.startswith(f"THE PROOF CHECKERS DISAGREE: {DRATIFY} rejects (step 7 (1 2): stubbed), "
                                     f"{OURS} accepts")
    certificate = certify_refutation(load_instance(FIT / "3x3_top3.toml").question, time_limit=60)
    assert not certificate.checked and certificate.text().startswith("not certified: THE PROOF CHECKERS DISAGREE")
    assert [run["accepted"] for run in certificate.to_dict()["checkers"]] == [False, True]

    monkeypatch.setattr(checkers, "check_with_dratify", lambda *args: CheckerRun(DRATIFY, True, 0.0))
    corrupted = check_twice(clauses, ["0"])  # dratify (stubbed) accepts what exactgrid's checker rejects
    assert not corrupted.valid and corrupted.disagree and "rejects (lemma 1 (the empty clause)" in corrupted.reason

    monkeypatch.setattr(checkers, "check_with_dratify", real)
    monkeypatch.setattr(checkers, "check_with_exactgrid",
                        lambda *args: (CheckerRun(OURS, False, 0.0, True, "stubbed"), 1))
    assert check_twice(clauses, proof).disagree and not check_twice(clauses, proof).valid


def test_the_time_limit_stops_both_without_a_disagreement(way):
    clauses, proof = refutation("3x3_massachusetts_exact")  # thousands of lemmas: both look at the clock
    assert len(proof) > 2 * checkers.CLOCK_EVERY
    late = check_twice(clauses, proof, deadline=time.monotonic() - 1)
    assert not late.valid and not late.disagree and not any(run.finished for run in late.runs)
    assert "time limit" in late.reason


def test_runs_of_several_proofs_add_up():
    first = (CheckerRun(DRATIFY, True, 1.0), CheckerRun(OURS, True, 2.0))
    second = (CheckerRun(DRATIFY, False, 0.5, True, "bad"), CheckerRun(OURS, True, 0.25))
    total = tally(tally((), first), second)
    assert [(run.checker, run.accepted, run.seconds, run.reason) for run in total] == [
        (DRATIFY, False, 1.5, "bad"), (OURS, True, 2.25, "")]


def test_a_certified_bound_names_both_checkers():
    from exactgrid.prove.bound import bound

    from .test_prove_answers import five_states_3x3

    answer = bound(five_states_3x3(), time_limit=None, certify=True, certify_seconds=None)
    assert answer.confirmation.startswith("certified"), answer.confirmation
    assert [run.checker for run in answer.checkers] == [DRATIFY, OURS] and all(r.accepted for r in answer.checkers)
    assert "checked by exactgrid.prove.drup and by dratify" in answer.text()
    assert [run["checker"] for run in answer.to_dict()["checkers"]] == [DRATIFY, OURS]


def children() -> set[int]:
    """The pids of this process's children (Linux: read from /proc)."""
    found = set()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rpartition(")")[2].split()
        except OSError:
            continue
        if int(fields[1]) == os.getpid():
            found.add(int(stat.parent.name))
    return found


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
def test_ctrl_c_while_checking_leaves_no_child(way, monkeypatch):
    clauses, proof = refutation("3x3_top3")
    before, seen = children(), []

    def interrupted(*_args):
        seen.extend(children() - before)
        raise KeyboardInterrupt

    monkeypatch.setattr(checkers, "check_with_exactgrid", interrupted)
    with pytest.raises(KeyboardInterrupt):
        check_twice(clauses, proof)
    assert len(seen) == (1 if way == "side by side" else 0)  # dratify's child, while exactgrid's checker ran
    assert not children() - before
