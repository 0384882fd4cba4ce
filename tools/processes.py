"""The processes below a process, read from ``ps``: what a signal leaves behind.

Shared by ``tools/bench_signals.py`` and the tests of signals (``tests/test_signals.py``), which
count the processes a command started and those still alive after it ended.
"""

from __future__ import annotations

import subprocess


def descendants(pid: int) -> set[int]:
    """Every live process below ``pid`` (children, their children, ...)."""
    rows = subprocess.run(["ps", "-eo", "pid=,ppid=,stat="], capture_output=True, text=True, check=True).stdout
    children: dict[int, list[int]] = {}
    for row in rows.split("\n"):
        parts = row.split()
        if len(parts) == 3 and not parts[2].startswith("Z"):
            children.setdefault(int(parts[1]), []).append(int(parts[0]))
    found, todo = set(), [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.add(child)
            todo.append(child)
    return found


def alive(pids: set[int]) -> set[int]:
    """Those of ``pids`` still running (zombies count as gone)."""
    live = set()
    for pid in pids:
        stat = subprocess.run(["ps", "-o", "stat=", "-p", str(pid)], capture_output=True, text=True).stdout.strip()
        if stat and not stat.startswith("Z"):
            live.add(pid)
    return live
