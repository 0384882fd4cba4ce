"""Starting ``exactgrid`` as a real process for the tests that signal it.

Why a helper: a process started from a background job of a non-interactive shell (``pytest &``,
many CI and editor runners) inherits SIGINT *ignored*, and Python keeps an inherited SIG_IGN, so
a child started plainly from such a pytest ignores the Ctrl-C a test sends it and runs on to its
time limit. That is how ``test_a_signal_ends_the_search_with_the_best_grid[SIGINT]`` once failed
in a full run (and passed whenever it was run in the foreground). Every child started here gets
SIGINT back at its default before Python starts, so it takes Ctrl-C as from a terminal, however
the suite was started.
"""

from __future__ import annotations

import signal
import subprocess
import sys
from typing import Any

CLI = "from exactgrid.cli import main; main()"


def restore_ctrl_c() -> None:
    """In the child, before ``exec``: SIGINT at its default, so Python installs its handler."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def start_cli(*args: str, **popen: Any) -> subprocess.Popen:
    """``exactgrid ARGS`` in a session of its own (a test can kill its whole group), taking
    Ctrl-C as from a terminal; ``popen`` goes to :class:`subprocess.Popen` (stdout, env, ...)."""
    return start([sys.executable, "-c", CLI, *args], **popen)


def start(command: list[str], **popen: Any) -> subprocess.Popen:
    """Any command, started as :func:`start_cli` starts exactgrid."""
    return subprocess.Popen(command, start_new_session=True, preexec_fn=restore_ctrl_c, **popen)
