"""Shell habits: ``python -m exactgrid`` runs the command line, and click's shell completion
works with it (docs/guide.md#shell-completion says how to install it).

Each test starts a real Python process on this checkout (``PYTHONPATH``), as a shell would.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def run(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    """``python -m exactgrid ARGS`` on this checkout, with ``env`` added to the environment."""
    environment = {**os.environ, "PYTHONPATH": str(ROOT), **env}
    return subprocess.run([sys.executable, "-m", "exactgrid", *args], capture_output=True, text=True,
                          env=environment, cwd=ROOT, timeout=600)


def test_python_m_exactgrid_scores_a_grid():
    result = run("score", "thoainesl")
    assert result.returncode == 0, result.stderr
    assert "total  32,913,047" in result.stdout


def test_python_m_exactgrid_help_names_the_program_exactgrid():
    result = run("--help")
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("Usage: exactgrid [OPTIONS] COMMAND [ARGS]...")
    assert "__main__" not in result.stdout and "python -m" not in result.stdout
    sub = run("fit", "--help")
    assert sub.returncode == 0 and sub.stdout.startswith("Usage: exactgrid fit [OPTIONS]")


def test_python_m_exactgrid_exits_as_the_command_does():
    assert run("score", "thoainesl", "--shape", "2x2").returncode == 2  # bad input: one line, exit 2
    assert run("check", "thoainesl").returncode == 1  # some checklist item fails


def complete(words: str, cword: int) -> list[str]:
    """What bash completion offers for ``words`` with the cursor on word ``cword``."""
    result = run(_EXACTGRID_COMPLETE="bash_complete", COMP_WORDS=words, COMP_CWORD=str(cword))
    assert result.returncode == 0, result.stderr
    return result.stdout.split()


def test_bash_completes_a_partial_command():
    assert complete("exactgrid fi", 1) == ["plain,fit", "plain,fit-many"]


def test_bash_completes_options_and_their_choices():
    assert complete("exactgrid fit --sh", 2) == ["plain,--shape", "plain,--show"]
    assert complete("exactgrid score thoainesl --moves ", 4) == ["plain,king", "plain,rook"]


def test_completion_scripts_for_bash_zsh_and_fish():
    bash = run(_EXACTGRID_COMPLETE="bash_source")
    assert bash.returncode == 0 and "complete -o nosort -F _exactgrid_completion exactgrid" in bash.stdout
    zsh = run(_EXACTGRID_COMPLETE="zsh_source")
    assert zsh.returncode == 0 and zsh.stdout.startswith("#compdef exactgrid")
    fish = run(_EXACTGRID_COMPLETE="fish_source")
    assert fish.returncode == 0 and "complete --no-files --command exactgrid" in fish.stdout
