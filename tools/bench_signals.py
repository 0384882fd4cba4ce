"""How fast each backend stops on a signal, and what it leaves behind.

For every available backend (or those named): start ``exactgrid fit`` on a question no backend
decides within minutes (4x4_m8), wait until the search is under way, send the signal, and time
the wait until the process has exited; then count the processes it had started that are still
alive 2 s later. Usage::

    python tools/bench_signals.py [--signal INT|TERM|HUP|KILL] [--repeat N] [BACKEND ...]
"""

from __future__ import annotations

import argparse
import os
import signal
import statistics
import subprocess
import sys
import time
from pathlib import Path

from processes import alive, descendants

from exactgrid.backends import list_backends

HARD = Path(__file__).resolve().parents[1] / "instances" / "benchmarks" / "fit" / "4x4_m8.toml"


def one_stop(backend: str, signum: int) -> tuple[float, int, int]:
    """(seconds from signal to exit, exit status, survivors after 2 s)."""
    process = subprocess.Popen(
        [sys.executable, "-c", "from exactgrid.cli import main; main()", "fit", "--instance", str(HARD),
         "--no-counting", "--backend", backend, "--time-limit", "600", "--progress"],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)
    seen = b""
    while b"solving with" not in seen:
        seen += process.stderr.read1(4096)
    time.sleep(1.0)  # well into the search, solver processes up
    started = descendants(process.pid)
    sent = time.monotonic()
    process.send_signal(signum)
    process.wait()
    took = time.monotonic() - sent
    time.sleep(2.0)
    survivors = alive(started)
    for pid in survivors:
        os.kill(pid, signal.SIGKILL)
    return took, process.returncode, len(survivors)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("backends", nargs="*")
    parser.add_argument("--signal", default="INT", choices=["INT", "TERM", "HUP", "KILL"])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    signum = getattr(signal, f"SIG{args.signal}")
    names = args.backends or [row.name for row in list_backends(only_available=True)]
    print(f"| backend | SIG{args.signal} to exit, median (max) of {args.repeat} | exit status | survivors |")
    print("|---|---:|---:|---:|")
    for name in names:
        runs = [one_stop(name, signum) for _ in range(args.repeat)]
        times = [r[0] for r in runs]
        codes = sorted({r[1] for r in runs})
        print(f"| {name} | {statistics.median(times):.2f} s ({max(times):.2f} s) | "
              f"{', '.join(map(str, codes))} | {sum(r[2] for r in runs)} |", flush=True)


if __name__ == "__main__":
    main()
