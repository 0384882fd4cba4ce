"""Signals at every moment: raise Ctrl-C (or SIGTERM) at the N-th line that exactgrid's code
runs in a real command, for many N, and check each run still keeps the stopping contract.

    python tools/fuzz_signals.py                        # the built-in commands, 60 points each
    python tools/fuzz_signals.py --samples 200 --signal SIGTERM -- fit OHIO UTAH --shape 3x3

Each run is ``exactgrid ARGS`` in a fresh process, started as the console script starts it
(:func:`exactgrid.cli.main`), with a trace function on the main thread that counts the line
events in ``exactgrid/`` and, at the N-th, raises the signal through the real handlers
(``signal.raise_signal``): the signal lands where a real one could, and the handlers decide
what it does there. A first run counts the events; N is drawn at random among them.

A run keeps the contract when it ends by itself (no hang) without a traceback, with exit
status 0 or 1 (the signal came as the answer was ready, or was only noted), 3 naming the
signal (``Ctrl-C``, ``SIGTERM``) on stdout or stderr, or the plain run's own status with its
answer printed (a solve whose time ran out, say, when the signal came after its answer).
Other outcomes are printed with the run's output. The line counts vary a little between runs
(waits poll the clock), so a failing N is a place to look near, not an exact replay.

Found this way in stop 44: a Ctrl-C while the search started its threads (a traceback, exit
1: once seen in CI), one as the program exited (its exit status replaced), one while numba
loaded (taken for numba missing, exit 2).
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = str(ROOT / "exactgrid") + os.sep
HANG_SECONDS = 90
SHOWN = {"SIGINT": "Ctrl-C", "SIGTERM": "SIGTERM", "SIGHUP": "SIGHUP"}

COMMANDS = {  # a few seconds each, over the paths a signal can land in
    "fit-search": ["fit", "OHIO", "UTAH", "--shape", "3x3", "--no-counting", "--local-search", "2",
                   "--backend", "glucose", "--time-limit", "20"],
    "fit-in-process": ["fit", "OHIO", "UTAH", "IOWA", "--shape", "3x3", "--no-counting", "--backend", "glucose",
                       "--time-limit", "20"],
    "fit-children": ["fit", "OHIO", "UTAH", "IOWA", "--shape", "3x3", "--time-limit", "20", "--json"],
    "fit-refuted": ["fit", "OHIO", "TEXAS", "UTAH", "IOWA", "--shape", "2x2", "--budget", "0", "--local-search",
                    "1", "--certify", "--explain", "--time-limit", "20"],
    "fit-cbc": ["fit", "OHIO", "UTAH", "IOWA", "--shape", "3x3", "--backend", "cbc", "--time-limit", "20"],
    "solve": ["solve", "--shape", "3x3", "--time-limit", "3", "--workers", "2"],
    "bound": ["bound", "--shape", "2x2", "--json", "--no-progress"],
    "sumsquares": ["sumsquares", "--n", "4", "--time-limit", "20"],
    "fit-many": ["fit-many", "{questions}", "--workers", "1", "--time-limit", "20"],
}
QUESTIONS = ('{"shape": "3x3", "require": ["OHIO", "UTAH"]}\n'
             '{"shape": "2x2", "require": ["OHIO", "TEXAS", "UTAH", "IOWA"], "budget": 0}\n')

CHILD = """
import os, signal, sys
count, at, package = 0, int(sys.argv[1]), sys.argv[2]
chosen = getattr(signal, os.environ["FUZZ_SIGNAL"])
command = os.getpid()

def tracer(frame, event, arg):
    global count
    if os.getpid() != command:  # a forked pool worker inherits the trace: the signal is the command's
        sys.settrace(None)
        return None
    if not frame.f_code.co_filename.startswith(package):
        return None
    if event == "line":
        count += 1
        if count == at:
            sys.settrace(None)
            signal.raise_signal(chosen)
            return None
    return tracer

import exactgrid.cli as cli
if at == 0:
    import atexit
    atexit.register(lambda: print(f"LINE EVENTS {count}", file=sys.stderr))
sys.argv = ["exactgrid", *sys.argv[3:]]
sys.settrace(tracer)
cli.main()
"""


def run(at: int, args: list[str], signame: str) -> tuple[int | None, str, str]:
    """``exactgrid ARGS`` with the signal at line event ``at`` (0: none, count them):
    exit status (None: it hung), stdout, stderr."""
    env = {**os.environ, "FUZZ_SIGNAL": signame}
    try:
        done = subprocess.run([sys.executable, "-c", CHILD, str(at), PACKAGE, *args], capture_output=True,
                              text=True, timeout=HANG_SECONDS, env=env, cwd=ROOT, start_new_session=True)
    except subprocess.TimeoutExpired:
        return None, "", f"no end after {HANG_SECONDS} s"
    return done.returncode, done.stdout, done.stderr


def keeps_the_contract(code: int | None, out: str, err: str, signame: str, plain: int | None) -> bool:
    """Ended by itself, no traceback, exit 0/1, or 3 naming the signal -- or the plain run's
    own exit status with an answer printed (a signal that came once the answer was made)."""
    if code is None or "Traceback" in err:
        return False
    return code in (0, 1) or (code == 3 and SHOWN[signame] in out + err) or (code == plain and bool(out.strip()))


def fuzz(name: str, args: list[str], samples: int, signame: str, rng: random.Random) -> int:
    """Runs at ``samples`` random line events; prints each failure and a summary; the failures."""
    plain, _, err = run(0, args, signame)
    if "LINE EVENTS" not in err:
        print(f"{name}: the plain run failed (exit {plain}):\n{err[-2000:]}")
        return 1
    events = int(err.rsplit("LINE EVENTS", 1)[1].split()[0])
    failures = 0
    for at in sorted(rng.sample(range(1, events + 1), min(samples, events))):
        code, out, err = run(at, args, signame)
        if not keeps_the_contract(code, out, err, signame, plain):
            failures += 1
            print(f"{name}: {signame} at line event {at}: exit {code}\nstdout: {out[-1500:]}\nstderr: {err[-3000:]}")
    print(f"{name}: {signame} at {min(samples, events)} of {events:,} line events (plain exit {plain}): "
          f"{failures} broke the contract", flush=True)
    return failures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--samples", type=int, default=60, help="line events to signal at, per command")
    parser.add_argument("--signal", choices=sorted(SHOWN), default=None,
                        help="the signal (default: SIGINT and SIGTERM in turn over the built-in commands)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("command", nargs=argparse.REMAINDER, help="-- ARGS: one exactgrid command instead")
    options = parser.parse_args()
    rng = random.Random(options.seed)
    command = options.command[1:] if options.command[:1] == ["--"] else options.command
    jobs = {"command": command} if command else COMMANDS
    failures = 0
    with tempfile.TemporaryDirectory() as scratch:
        questions = Path(scratch) / "questions.jsonl"
        questions.write_text(QUESTIONS)
        for i, (name, args) in enumerate(jobs.items()):
            signame = options.signal or ("SIGINT", "SIGTERM")[i % 2]
            args = [str(questions) if a == "{questions}" else a for a in args]
            failures += fuzz(name, args, options.samples, signame, rng)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    signal.signal(signal.SIGINT, signal.default_int_handler)
    main()
