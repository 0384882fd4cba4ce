"""Certified refutations: a "does not fit" re-proved by a proof-logging CaDiCaL and its DRUP
proof checked by exactgrid's own checker."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

import exactgrid as eg
from exactgrid.cli import cli
from exactgrid.prove.certify import certify_refutation
from exactgrid.question import load_instance

from . import racers

FIT = Path(__file__).resolve().parents[1] / "instances" / "benchmarks" / "fit"


@pytest.mark.parametrize("instance", ["3x3_seed_exact", "3x3_top3", "4x4_top6_exact", "5x5_rows_fixed_forbid"])
def test_refutations_of_the_benchmark_are_certified(instance):
    question = load_instance(FIT / f"{instance}.toml").question
    assert eg.fit(question, backend="cadical", time_limit=60).verdict == "does not fit"
    certificate = certify_refutation(question, time_limit=60)
    assert certificate.checked and certificate.lemmas > 0 and certificate.clauses > 0, certificate.detail


def test_a_question_that_fits_cannot_be_certified_as_refuted():
    """Asked of a question that fits, the certificate says so (it used to be an
    AssertionError); given another question's encoding, it is refused, as fit refuses it (it
    used to certify the other question's refutation)."""
    fits = eg.Question(eg.Board(3, 3), required=["OHIO"])
    certificate = certify_refutation(fits)
    assert not certificate.checked and certificate.satisfiable and "it fits" in certificate.detail
    refuted = eg.Question(eg.Board(3, 3), required=["ILLINOIS:exact", "UTAH:exact"])
    assert certify_refutation(refuted).checked
    with pytest.raises(eg.InputError, match="built for another question"):
        certify_refutation(fits, encoding=eg.encode(refuted))


def test_what_a_proof_of_the_model_does_not_cover_is_said():
    lazy = eg.Question(eg.Board(5, 5), required=["OHIO:exact"], forbidden=["PENNSYLVANIA"], path_rule="simple")
    certificate = certify_refutation(lazy)
    assert not certificate.checked and "lazy cuts" in certificate.detail
    hard = load_instance(FIT / "3x3_seed_exact.toml").question
    assert certify_refutation(hard, time_limit=0).detail == "no proof within 0 s"


def test_fit_certify_on_the_command_line():
    args = ["fit", "ILLINOIS:exact", "OHIO:exact", "UTAH:exact", "IOWA:exact", "IDAHO:exact", "--shape", "3x3",
            "--certify"]
    result = CliRunner().invoke(cli, args)
    # one proof when the backend refuted it, one a core when the counting loop racing it did
    assert result.exit_code == 1 and "\ncertified: DRUP proof" in result.output and "from CaDiCaL" in result.output
    data = json.loads(CliRunner().invoke(cli, [*args, "--json"]).output)
    assert data["verdict"] == "does not fit" and data["certificate"]["checked"] is True
    fits = json.loads(CliRunner().invoke(cli, ["fit", "OHIO", "--shape", "3x3", "--certify", "--json"]).output)
    assert fits["verdict"] == "fits" and "certificate" not in fits  # a grid is its own certificate


@pytest.mark.parametrize("relaxation", ["sat", "highs"])
def test_refutations_by_counting_are_certified_core_by_core(relaxation):
    from dataclasses import replace

    from exactgrid.prove.certify import certify_counting
    from exactgrid.prove.cores import refute_by_cores

    from .test_fit import EXPECTED, SPECS

    if relaxation == "highs":
        pytest.importorskip("highspy")
    certified = kinds = 0
    for index, spec in enumerate(SPECS[:60]):
        if spec.budget > 1:
            continue
        counted = refute_by_cores(spec, 30, exact=True, relaxation=relaxation)
        if counted.status != "refuted" or not counted.cuts:
            continue
        assert not EXPECTED[index]
        certificate = certify_counting(spec, counted, 60)
        assert certificate.checked, certificate.detail
        cuts = len(counted.cuts)
        assert f"of {cuts} core{'' if cuts == 1 else 's'} " in certificate.method
        certified += 1
        kinds |= {type(c).__name__ for c in counted.cuts} == {"Core", "WordCore"}
        short = certify_counting(spec, replace(counted, cuts=counted.cuts[:-1]), 60)
        assert not short.checked and short.satisfiable and "has a solution" in short.detail  # without its last cut
    assert certified >= 3


def test_fit_certifies_a_refutation_by_counting(monkeypatch):

    import exactgrid.backends

    monkeypatch.setattr(exactgrid.backends, "get_backend", lambda name: racers.Undecided())  # counting decides
    result = CliRunner().invoke(cli, ["fit", "NEWYORK:exact", "NEWJERSEY:exact", "NEWMEXICO:exact", "--shape", "3x3",
                                      "--certify", "--backend", "undecided", "--time-limit", "60"])
    assert result.exit_code == 1 and "backend counting" in result.output, result.output
    assert "\ncertified: DRUP proofs from CaDiCaL" in result.output and "counting relaxation" in result.output


def test_a_refutation_its_certificate_finds_satisfiable_is_a_solver_disagreement(monkeypatch):
    """fit --certify on a refutation that CaDiCaL then finds satisfiable: a bug (the refutation
    was wrong), raised as SolverDisagreement, never a DOES NOT FIT shown beside "not
    certified"."""
    import exactgrid.prove.certify as certify_module
    from exactgrid.backends.base import SolverDisagreement
    from exactgrid.prove.certify import Certificate

    def satisfiable(question, time_limit, encoding=None):
        return Certificate(False, "test", detail="CaDiCaL finds the question's model satisfiable", satisfiable=True)

    monkeypatch.setattr(certify_module, "certify_refutation", satisfiable)
    refuted = eg.Question(eg.Board(3, 3), required=["ILLINOIS:exact", "UTAH:exact"])
    with pytest.raises(SolverDisagreement, match="refuted the question, but CaDiCaL finds"):
        eg.fit(refuted, backend="cadical", time_limit=60, counting=False, certify=True)
