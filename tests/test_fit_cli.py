"""`exactgrid fit` and `exactgrid backends` from the command line: verdicts, exit codes, JSON,
exports, the plugin, and one-line errors for bad input."""

import json
from importlib.metadata import EntryPoint, entry_points

import pytest
from click.testing import CliRunner
from pysat.formula import CNF
from pysat.solvers import Solver

from exactgrid.backends import DEFAULT_BACKEND, Backend, registry
from exactgrid.cli import cli
from exactgrid.grid import parse_grid
from exactgrid.question import build_question
from exactgrid.verify import check_grid

from .conftest import AVAILABLE_BACKENDS

SEED_EXACT = ["ILLINOIS:exact", "OHIO:exact", "UTAH:exact", "IOWA:exact", "IDAHO:exact"]


def run(*args):
    return CliRunner().invoke(cli, list(args))


#: Who may answer a plain ``fit``: the default backend, or the counting loop racing beside it,
#: whichever finishes first on this machine.
ANSWERED_BY = (DEFAULT_BACKEND, "counting")


def test_fits_prints_a_grid_the_finder_confirms():
    result = run("fit", "OHIO", "UTAH=ATAH", "IOWA:3=H", "--shape", "3x3", "--forbid", "TEXAS")
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith(tuple(f"FITS (backend {name}" for name in ANSWERED_BY))
    letters = next(line.split()[1] for line in result.stdout.splitlines() if line.startswith("grid "))
    spec = build_question(requirements=["OHIO", "UTAH=ATAH", "IOWA:3=H"], forbid=["TEXAS"], shape="3x3")
    assert check_grid(spec, parse_grid(letters)).ok
    assert "UTAH=ATAH" in result.stdout and "IOWA:3=H" in result.stdout


def test_does_not_fit_exits_1():
    result = run("fit", *SEED_EXACT, "--shape", "3x3")
    assert result.exit_code == 1, result.output
    assert result.stdout.startswith(tuple(f"DOES NOT FIT (proven; backend {name}" for name in ANSWERED_BY))


def test_unknown_after_the_time_limit_exits_3():
    result = run("fit", "CALIFORNIA", "TEXAS", "FLORIDA", "NEWYORK", "--shape", "4x4", "--time-limit", "0")
    assert result.exit_code == 3, result.output
    assert result.stdout.startswith("UNKNOWN after")


def test_fit_json():
    result = run("fit", "OHIO:exact", "--shape", "3x3", "--cells", "O.O/.../...", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert list(data)[:4] == ["outcome", "seconds", "stopped_by", "exit_code"]
    assert data["outcome"] == "fits" and data["exit_code"] == 0
    assert data["verdict"] == "fits" and data["backend"] in ANSWERED_BY
    assert data["grid"][0] == "O" and data["grid"][2] == "O"
    (ohio,) = data["requirements"]
    assert ohio["requirement"] == "OHIO:exact" and ohio["spelled"] == "OHIO" and ohio["altered"] == []
    assert "OHIO" in [f["state"] for f in data["score"]["found"]]
    assert set(data["model"]) == {"variables", "clauses", "linear"}


def test_min_score_alone_is_a_fit_question():
    result = run("fit", "--optional", "all", "--min-score", "32913047", "--shape", "3x3", "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["score"]["total"] >= 32_913_047


def test_instance_file(tmp_path):
    path = tmp_path / "q.toml"
    path.write_text('shape = "3x3"\nrequire = ["ILLINOIS", "OHIO", "UTAH", "IOWA", "IDAHO"]\n')
    assert run("fit", "--instance", str(path)).exit_code == 0
    path.write_text(f'shape = "3x3"\nrequire = {json.dumps(SEED_EXACT)}\n')
    assert run("fit", "--instance", str(path)).exit_code == 1
    # the command line adds to the file and its options win: in 4x4 the five exact states fit
    result = run("fit", "--instance", str(path), "--shape", "4x4", "TEXAS", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["shape"] == [4, 4] and [r["state"] for r in data["requirements"]][-1] == "TEXAS"


@pytest.mark.parametrize("requirements,fits", [(["OHIO", "UTAH", "IOWA"], True), (SEED_EXACT, False)])
def test_exported_cnf_decides_the_same_question(tmp_path, requirements, fits):
    files = {ext: tmp_path / f"model.{ext}" for ext in ("cnf", "wcnf", "lp", "mps")}
    result = run("fit", *requirements, "--shape", "3x3", *(f"--write-{ext}={path}" for ext, path in files.items()))
    assert result.exit_code == (0 if fits else 1), result.output
    with Solver(name="minisat22", bootstrap_with=CNF(from_file=str(files["cnf"])).clauses) as solver:
        assert solver.solve() is fits  # another solver, reading only the file, agrees
    wcnf = files["wcnf"].read_text().splitlines()
    assert all(line.startswith(("c ", "h ")) for line in wcnf)  # no objective: no soft clauses
    assert "Subject To" in files["lp"].read_text()
    assert files["mps"].read_text().startswith("OBJSENSE\n MAX\n")  # read back in test_export


def test_backends_lists_builtins_and_the_plugin():
    result = run("backends", "--json")
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    rows = {row["name"]: row for row in data["backends"]}
    assert data["default"] == DEFAULT_BACKEND and rows[DEFAULT_BACKEND]["available"]
    assert {"cadical", "kissat", "glucose", "cbc", "cpsat"} <= set(rows)
    assert set(rows["cadical"]["capabilities"]) == {"decide", "optimise", "prove", "in-process", "incremental",
                                                    "assumptions"}
    assert "child-process" in rows["kissat"]["capabilities"] and "assumptions" not in rows["kissat"]["capabilities"]


def test_backends_json_is_only_json_in_a_real_process():
    # CliRunner sees Python's stdout only; a C library printing a banner on file descriptor 1
    # (HiGHS did, from Highs()) breaks the JSON for a real user
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-c", "from exactgrid.cli import main; main()", "backends", "--json"],
                         capture_output=True, text=True, check=True).stdout
    assert json.loads(out)["default"] == DEFAULT_BACKEND


def test_plugin_is_discovered_through_its_own_entry_point():
    """exactgrid-cpsat (plugins/) is a separate package; the core finds it only by entry point."""
    (point,) = [e for e in entry_points(group="exactgrid.backends") if e.name == "cpsat"]
    assert point.value == "exactgrid_cpsat:CpSat"
    assert "cpsat" not in registry.BUILTIN_ENTRY_POINTS
    assert "cpsat" in AVAILABLE_BACKENDS  # so test_fit runs it against brute force as well
    result = run("fit", "OHIO", "UTAH=ATAH", "--shape", "3x3", "--backend", "cpsat", "--no-counting")
    assert result.exit_code == 0 and "backend cpsat" in result.stdout


class Missing(Backend):
    name = "missing"
    description = "a solver that is not installed here"

    def _solve(self, model, time_limit, seed):
        raise AssertionError("never asked: it is not available")


@pytest.fixture
def missing_backend(monkeypatch):
    points = registry._entry_points()
    points["missing"] = EntryPoint("missing", f"{__name__}:Missing", registry.GROUP)
    monkeypatch.setattr(registry, "_entry_points", lambda: points)


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["NARNIA"], "unknown"),
        (["OHIO:5"], "position 5 is out of range 1..4"),
        (["OHIO:2=H"], "already H"),
        (["OHIO=OHI"], "must have 4 letters"),
        (["OHIO=OHHH"], "alters 2 letters; the budget allows 1"),
        (["OHIO:1", "--budget", "0"], "needs a budget of at least 1"),
        (["OHIO", "OHIO:exact"], "required twice"),
        (["OHIO", "--forbid", "OH"], "both required and forbidden"),
        (["OHIO", "--shape", "3x3", "--cells", "O../..."], "3 rows of 3 cells"),
        (["OHIO", "--shape", "2x2", "--cells", ".."], "must be 2 rows of 2 cells (a letter, '.' or [letters] each), "
                                                      "got 1 row of 2 cells"),
        (["OHIO", "--cells", "tests"], "cells file 'tests' is a directory, not a file"),
        (["OHIO", "--shape", "2x3", "--cells", "O..//..."], "the cells 'O..//...' have an empty row"),
        (["OHIO", "--shape", "1x4", "--cells", "O../."], "must be 1 row of 4 cells (a letter, '.' or [letters] each), "
                                                            "got 2 rows of 3, 1 cells"),
        (["OHIO", "--shape", "2x2", "--cells", "./"], "must be 2 rows of 2 cells (a letter, '.' or [letters] each), "
                                                      "got 1 row of 1 cell"),
        (["OHIO", "--shape", "3x3", "--cells", "O1./.../..."], "is not a letter"),
        (["OHIO", "--cells", "nofile.txt"], "no such cells file"),
        (["OHIO", "--shape", "0x5"], "rows must be"),
        (["OHIO", "--backend", "gurobi"], "unknown backend 'gurobi'"),
        (["OHIO", "--backend", "pysat:nosuchsolver"], "unknown PySAT solver"),
        (["OHIO", "--backend", "cadical:x"], "takes no option"),
        (["OHIO", "--backend", "missing"], "not available here"),
        (["OHIO", "--time-limit", "-1"], "--time-limit"),
        (["OHIO", "--write-cnf", "/no/such/dir/x.cnf"], "cannot write"),
        *((["OHIO", f"--write-{kind}", ""], f"'--write-{kind}': needs a file name")
          for kind in ("cnf", "wcnf", "lp", "mps")),
        (["--instance", "nope.toml"], "no such file"),
        ([], "give at least one REQUIREMENT"),
    ],
)
def test_bad_fit_input_is_one_line_exit_2(missing_backend, args, needle):
    result = run("fit", *args)
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    assert result.stderr.count("\n") == 1 and result.stderr.startswith("Error: ")
    assert needle in result.stderr


def test_explain_names_a_minimal_conflict():
    # ILLINOIS and UTAH spelled exactly need I L N O S U T A H: nine letters, but ILLINOIS
    # needs two L cells, so ten cells; either alone fits in 3x3. (The other three are not needed.)
    result = run("fit", "ILLINOIS:exact", "OHIO:exact", "UTAH:exact", "--shape", "3x3", "--explain", "--json")
    data = json.loads(result.output)
    assert result.exit_code == 1 and data["verdict"] == "does not fit"
    assert data["conflict"] == ["ILLINOIS:exact", "UTAH:exact"]
    for alone in ("ILLINOIS:exact", "UTAH:exact"):
        assert run("fit", alone, "--shape", "3x3").exit_code == 0
    text = run("fit", "ILLINOIS:exact", "OHIO:exact", "UTAH:exact", "--shape", "3x3", "--explain").output
    # Kissat keeps no sessions: CaDiCaL finds the conflict, and the answer says so
    assert "why: ILLINOIS:exact, UTAH:exact cannot hold together (conflict found by cadical)\n" in text
    text = run("fit", "ILLINOIS:exact", "OHIO:exact", "UTAH:exact", "--shape", "3x3", "--explain", "--backend",
               "cadical").output
    assert text.endswith("why: ILLINOIS:exact, UTAH:exact cannot hold together\n")  # CaDiCaL's own session


@pytest.mark.parametrize(("shape", "cells", "grid_cell"), [("2x2", "../O.", 2), ("2x1", "./O", 1),
                                                        ("2x2", "../..", None), ("3x2", "../../..", None)])
def test_inline_cells_may_start_like_a_relative_path(shape, cells, grid_cell):
    # a first row of free cells reads './' or '../'; that is rows, not a file, when no such file
    # exists, or when it is a directory ('../..' was refused as one)
    result = run("fit", "OHIO", "--shape", shape, "--budget", "2", "--cells", cells, "--json")
    assert result.exit_code == 0, result.output
    assert grid_cell is None or json.loads(result.stdout)["grid"][grid_cell] == "O"


@pytest.mark.parametrize("cells", ["O.", "O./", ".."])
def test_a_board_of_one_row_takes_its_cells_inline_with_or_without_a_slash(tmp_path, monkeypatch, cells):
    monkeypatch.chdir(tmp_path)  # no file of that name here
    (tmp_path / "oh.csv").write_text("OH,1\n")
    result = run("fit", "OH", "--words", "oh.csv", "--shape", "1x2", "--budget", "0", "--cells", cells, "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["grid"] == "OH"
