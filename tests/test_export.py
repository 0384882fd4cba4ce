"""Exported files mean the same question to other tools: another solver reads them back."""

import pytest
from pysat.examples.rc2 import RC2
from pysat.formula import WCNF

from exactgrid.export import write_lp, write_mps, write_wcnf
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
