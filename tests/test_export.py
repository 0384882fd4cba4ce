"""Exported files mean the same question to other tools: another solver reads them back."""

import subprocess
import sys

import pytest
from pysat.examples.rc2 import RC2
from pysat.formula import WCNF

from exactgrid.export import write_lp, write_mps, write_wcnf
from exactgrid.ilp_model import linear_terms, to_pulp
from exactgrid.model import BoolModel


def small_optimisation() -> BoolModel:
    """Maximise 3a - 2b + 5c subject to (a or b) and (a + c <= 1): the optimum is 3."""
    model = BoolModel()
    a, b, c = model.new_vars(3)
    model.add_clause([a, b])
    model.add_linear([a, c], None, "<=", 1)
    model.maximise([a, b, c], [3, -2, 5])
    return model  # a alone gives 3, b and c give -2 + 5 = 3; nothing gives more


@pytest.mark.parametrize("writer", [write_lp, write_mps])
def test_ilp_files_are_maximised_by_highs(tmp_path, writer):
    highspy = pytest.importorskip("highspy")
    path = tmp_path / ("model.lp" if writer is write_lp else "model.mps")
    writer(small_optimisation(), path)
    h = highspy.Highs()
    h.silent()
    h.readModel(str(path))
    h.run()
    assert round(h.getInfo().objective_function_value) == 3


def test_wcnf_is_solved_by_a_maxsat_solver(tmp_path):
    path = tmp_path / "model.wcnf"
    model = small_optimisation()
    write_wcnf(model, path)
    with RC2(WCNF(from_file=str(path))) as rc2:
        assignment = rc2.compute()
        true_vars = {lit for lit in assignment if lit > 0}
    assert model.satisfied_by(true_vars) and model.objective_value(true_vars) == 3


def test_linear_terms_read_negative_literals_as_one_minus_x():
    assert linear_terms([1, -2, 1], [3, 5, 1]) == (5, {1: 4, 2: -5})
    assert linear_terms([-1, 1], [2, 2]) == (2, {1: 0})
    assert linear_terms([], []) == (0, {})


def test_to_pulp_maximises_with_one_row_per_constraint():
    import pulp

    problem, xs = to_pulp(small_optimisation())
    assert problem.sense == pulp.LpMaximize
    assert sorted(xs) == [1, 2, 3] and all(x.isBinary() for x in xs.values())
    assert problem.numConstraints() == 2
    assert all(problem.get_constraint_by_name(name) is not None for name in ("c0", "l0"))


def test_writing_lp_files_loads_no_backend(tmp_path):
    code = (
        "import sys; from exactgrid.export import write_lp, write_mps; from exactgrid.model import BoolModel\n"
        "m = BoolModel(); a, b = m.new_vars(2); m.add_clause([a, b]); m.maximise([a], [1])\n"
        f"write_lp(m, {str(tmp_path / 'm.lp')!r}); write_mps(m, {str(tmp_path / 'm.mps')!r})\n"
        "print(sorted(name for name in sys.modules if name.startswith('exactgrid.backends.')))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    # `import exactgrid` brings the backend contract (base, registry); no solver backend is loaded
    loaded = set(eval(out))
    assert not loaded & {"exactgrid.backends.sat", "exactgrid.backends.ilp", "exactgrid.backends.portfolio"}
    assert (tmp_path / "m.lp").stat().st_size > 0 and (tmp_path / "m.mps").stat().st_size > 0


def test_two_formats_to_one_file_are_refused_before_either_is_written(tmp_path):
    """``--write-cnf X --write-wcnf X`` once wrote both, the second over the first."""
    import exactgrid as eg
    from exactgrid.inputs import InputError

    question = eg.Question(eg.Board(3, 3), required=["OHIO"])
    target = tmp_path / "model.txt"
    with pytest.raises(InputError, match="would both be written to"):
        eg.fit(question, write={"cnf": target, "wcnf": str(tmp_path / "." / "model.txt")})
    assert not target.exists()
