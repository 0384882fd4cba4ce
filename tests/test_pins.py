"""The dependency pins in pyproject.toml say what the code needs; these tests guard the reasons.

* python-sat ``>=1.9.dev16``: the first PySAT whose CaDiCaL proofs arrive whole when the solve
  is cut into conflict-budget chunks (1.9.dev15 handed back proofs missing their tail: 1 of 4
  test proofs verified). A proof that spans several chunks must end in the empty clause and
  check.
* python-sat ``<1.10``: :func:`exactgrid.stopping.pysat_leaves_sigint_to_python` patches the
  private ``pysat._utils.MainThread.check``; a later PySAT may move it.
* pulp ``<4``: PuLP 4 drops ``PULP_CBC_CMD``, ``sol_status``, ``assignStatus`` and the
  ``LpSolution*`` constants, which :mod:`exactgrid.backends.ilp` uses.
* Every installed dependency is inside the range pyproject.toml declares.
"""

from __future__ import annotations

import tomllib
from importlib.metadata import version
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from pysat.examples.genhard import PHP
from pysat.solvers import Solver

from exactgrid.backends.sat import solve_in_chunks
from exactgrid.prove.drup import check_drup
from exactgrid.stopping import pysat_leaves_sigint_to_python

PYPROJECT = Path(__file__).resolve().parents[1] / "pyproject.toml"


def declared() -> list[Requirement]:
    """The base install's requirements, as pyproject.toml declares them."""
    project = tomllib.loads(PYPROJECT.read_text())["project"]
    return [Requirement(text) for text in project["dependencies"]]


@pytest.mark.parametrize("requirement", declared(), ids=str)
def test_installed_versions_are_inside_the_declared_ranges(requirement):
    installed = version(requirement.name)
    assert requirement.specifier.contains(installed, prereleases=True), f"{requirement.name} {installed}"


def test_the_pysat_pin_starts_where_cadical_proofs_arrive_whole():
    pin = next(r for r in declared() if r.name == "python-sat")
    assert not pin.specifier.contains("1.9.dev15", prereleases=True)
    assert pin.specifier.contains("1.9.dev16", prereleases=True)
    assert not pin.specifier.contains("1.10", prereleases=True)


def test_a_cadical_proof_cut_into_chunks_is_whole_and_checks(monkeypatch):
    """PHP(7) takes CaDiCaL several conflict-budget chunks: the proof spans them all."""
    clauses = PHP(7).clauses
    chunks = []
    with Solver(name="cadical195", bootstrap_with=clauses, with_proof=True) as solver:
        solve_limited = solver.solve_limited
        monkeypatch.setattr(solver, "solve_limited", lambda **kw: chunks.append(1) or solve_limited(**kw))
        assert solve_in_chunks(solver, deadline=None) is False
        proof = solver.get_proof()
    assert len(chunks) >= 2
    assert proof[-1].split() == ["0"], "the proof's last line is the empty clause"
    result = check_drup(clauses, proof)
    assert result.valid, result.reason
    assert result.lemmas + result.deletions == len(proof)


def test_the_private_pysat_hook_is_where_stopping_patches_it():
    from pysat._utils import MainThread

    assert isinstance(MainThread.__dict__["check"], staticmethod)
    assert MainThread.check() is True  # the tests run on the main thread
    with pysat_leaves_sigint_to_python():
        assert MainThread.check() is False
    assert MainThread.check() is True


def test_pulp_still_has_what_the_cbc_backend_uses():
    import pulp

    assert int(version("pulp").split(".")[0]) < 4
    for name in ("PULP_CBC_CMD", "LpSolutionOptimal", "LpSolutionIntegerFeasible", "LpSolutionNoSolutionFound"):
        assert hasattr(pulp, name), name
    problem = pulp.LpProblem("pin", pulp.LpMaximize)
    assert hasattr(problem, "sol_status") and hasattr(problem, "assignStatus")


def test_numba_still_has_the_option_the_kernel_turns_reference_counting_off_with():
    """``exactgrid.solving.kernel`` compiles its hot functions with ``_nrt=False``, a numba option
    (``numba.core.options.DefaultOptions``) that a later numba could rename: then the kernel would
    not import."""
    options = pytest.importorskip("numba.core.options")
    assert options.DefaultOptions._nrt.flag_name == "nrt"
    from exactgrid.solving import kernel

    assert kernel.NUMBA_MISSING is None
    assert kernel.check_word.targetoptions["_nrt"] is False
