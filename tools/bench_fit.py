"""Benchmark fit questions over instances/benchmarks/fit/ for one or more backends.

    python tools/bench_fit.py --backend cadical --time-limit 60
    python tools/bench_fit.py --backend cadical --backend cpsat --only 5x5_top9 --time-limit 120

Each instance is encoded once per backend and solved within the time limit; every grid a
backend returns is verified by the finder (exactgrid.fit does that), and a verdict that
contradicts an instance's ``expect`` key, or another backend's proven verdict, is reported.
Prints a Markdown table (instance, required words, then verdict and seconds per backend)
and a summary line per backend (decided, median seconds, the slowest instance).
"""

from __future__ import annotations

import argparse
import dataclasses
import statistics
import sys
import time
from pathlib import Path

from exactgrid.backends import get_backend
from exactgrid.encoding import encode
from exactgrid.fitting import fit
from exactgrid.question import load_instance

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_DIR = ROOT / "instances" / "benchmarks" / "fit"
SHORT = {"fits": "fits", "does not fit": "NO", "unknown": "UNKNOWN"}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dir", type=Path, default=DEFAULT_DIR)
    parser.add_argument("--backend", action="append", default=None, help="repeatable; default: the default backend")
    parser.add_argument("--time-limit", type=float, default=60.0)
    parser.add_argument("--only", action="append", default=None, help="instance name prefix (repeatable)")
    parser.add_argument("--symmetry", choices=["file", "on", "off"], default="file",
                        help="symmetry breaking: as the instance file says, or forced on/off (no fixed cells)")
    parser.add_argument("--no-counting", action="store_true",
                        help="without the counting pre-check (fit's default races it beside the backend)")
    args = parser.parse_args()

    paths = sorted(args.dir.glob("*.toml"))
    if args.only:
        paths = [p for p in paths if any(p.stem.startswith(o) for o in args.only)]
    backends = [get_backend(name) for name in (args.backend or [None])]
    names = [b.name for b in backends]
    print(f"# {' '.join(sys.argv)}")
    print(f"# {len(paths)} instances, time limit {args.time_limit:g} s, symmetry {args.symmetry}, "
          f"counting {'off' if args.no_counting else 'on'}")
    print("| instance | required | " + " | ".join(names) + " |")
    print("|---|---|" + "---|" * len(names))
    seconds: dict[str, list[float]] = {n: [] for n in names}
    undecided: dict[str, list[str]] = {n: [] for n in names}
    disagreements = []
    for path in paths:
        instance = load_instance(path)
        spec = instance.question
        if args.symmetry != "file" and not spec.fixed:
            spec = dataclasses.replace(spec, symmetry_breaking=args.symmetry == "on")
        cells = []
        verdicts = set()
        for backend in backends:
            started = time.monotonic()
            answer = fit(spec, backend=backend, time_limit=args.time_limit, encoding=encode(spec),
                         counting=not args.no_counting)
            elapsed = time.monotonic() - started
            seconds[backend.name].append(elapsed)
            if answer.verdict == "unknown":
                undecided[backend.name].append(path.stem)
            else:
                verdicts.add(answer.verdict)
            expected = instance.expect
            if expected and answer.verdict != "unknown" and answer.verdict != expected:
                disagreements.append(f"{path.stem}: {backend.name} says {answer.verdict}, file expects {expected}")
            by = " (counting)" if answer.backend == "counting" else ""
            cells.append(f"{SHORT[answer.verdict]}{by} {elapsed:.2f}s")
        if len(verdicts) > 1:
            disagreements.append(f"{path.stem}: backends disagree {sorted(verdicts)}")
        print(f"| {path.stem} | {len(spec.required)} | " + " | ".join(cells) + " |", flush=True)
    print()
    for name in names:
        times = seconds[name]
        slowest = max(range(len(times)), key=times.__getitem__) if times else None
        print(f"{name}: decided {len(times) - len(undecided[name])}/{len(times)}, "
              f"median {statistics.median(times):.2f} s, "
              f"slowest {paths[slowest].stem if slowest is not None else '-'} "
              f"({max(times) if times else 0:.2f} s); undecided: {', '.join(undecided[name]) or 'none'}")
    for line in disagreements:
        print("DISAGREEMENT:", line)
    return 1 if disagreements else 0


if __name__ == "__main__":
    sys.exit(main())
