"""What the base install runs, and what each optional extra's absence looks like: one error line
naming the command that installs it, exit status 2, never a traceback.

The extras are made absent by ``sys.modules[name] = None`` in a child process, which makes
``import name`` fail as it does on a machine without the package.
"""

import json
import subprocess
import sys

import pytest

from exactgrid.cli import cli

RUN_WITHOUT = """
import sys
for name in {missing!r}:
    sys.modules[name] = None
from exactgrid.cli import main
sys.argv = ["exactgrid", *{argv!r}]
main()
"""


def run_without(missing: list[str], *argv: str) -> subprocess.CompletedProcess:
    code = RUN_WITHOUT.format(missing=missing, argv=list(argv))
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)


@pytest.mark.parametrize("argv", [
    ("solve", "--shape", "3x3", "--time-limit", "5"),
    ("fit", "OHIO", "--shape", "3x3", "--local-search", "1"),
])
def test_without_numba_the_search_names_the_solve_extra(argv):
    done = run_without(["numba"], *argv)
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), done.stderr
    assert "pip install 'exactgrid[solve]'" in lines[0]
    assert "Traceback" not in done.stderr


def test_without_numba_json_gets_an_error_object():
    done = run_without(["numba"], "solve", "--shape", "3x3", "--time-limit", "5", "--json")
    assert done.returncode == 2
    assert "exactgrid[solve]" in json.loads(done.stdout)["error"]


def test_without_numba_every_other_job_still_runs():
    """score, fit (SAT), bound (HiGHS) and a puzzle, with numba absent: the base install's jobs."""
    score = run_without(["numba"], "score", "thoainesl", "--json")
    assert score.returncode == 0 and json.loads(score.stdout)["total"] == 32_913_047
    fit = run_without(["numba"], "fit", "OHIO", "UTAH=ATAH", "--shape", "3x3", "--json")
    assert fit.returncode == 0 and json.loads(fit.stdout)["verdict"] == "fits"
    bound = run_without(["numba"], "bound", "--shape", "2x2", "--json", "--no-progress")
    assert bound.returncode == 0, bound.stderr
    assert json.loads(bound.stdout)["outcome"] in {"bounded", "optimal"}


def test_without_matplotlib_show_names_the_plot_extra(tmp_path):
    done = run_without(["matplotlib"], "show", "thoainesl", "--out", str(tmp_path / "t.svg"))
    assert done.returncode == 2
    assert "pip install 'exactgrid[plot]'" in done.stderr and "Traceback" not in done.stderr
    assert not (tmp_path / "t.svg").exists()


def test_without_dask_the_scheduler_names_the_dask_extra(tmp_path):
    questions = tmp_path / "q.jsonl"
    questions.write_text('{"required": ["OHIO"], "shape": "3x3"}\n')
    done = run_without(["distributed"], "fit-many", str(questions), "--scheduler", "tcp://127.0.0.1:1")
    assert done.returncode == 2, done.stderr
    assert "pip install 'exactgrid[dask]'" in done.stderr and "Traceback" not in done.stderr


def test_the_first_screen_and_each_commands_help_name_the_extras():
    """The extras are named where a user looks: ``exactgrid --help`` and the help of each command
    that needs one."""
    first = " ".join(cli.get_help(click_context(cli, "exactgrid")).split())
    for extra in ("pip install 'exactgrid[solve]'", "pip install 'exactgrid[plot]'", "pip install 'exactgrid[dask]'",
                  "pip install 'exactgrid[all]'", "Python 3.11"):
        assert extra in first
    needs = {"solve": "exactgrid[solve]", "show": "exactgrid[plot]", "fit": "exactgrid[solve]",
             "fit-many": "exactgrid[dask]", "bound": "HiGHS"}
    for name, extra in needs.items():
        command = cli.commands[name]
        text = " ".join(command.get_help(click_context(command, name)).split())
        assert extra in text, name


def click_context(command, name):
    import click

    parent = None if command is cli else click.Context(cli, info_name="exactgrid")
    return click.Context(command, info_name=name, parent=parent)
