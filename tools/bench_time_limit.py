"""Do time limits hold? Solve a question no backend decides quickly, with a short limit, per backend.

    python tools/bench_time_limit.py                      # every available backend, 2 s and 5 s
    python tools/bench_time_limit.py --limit 1 --backend cbc
    python tools/bench_time_limit.py --solve --limit 5 --seeds 5   # eg.solve instead, 1 and 2 workers

Prints, per backend and limit, the verdict and the wall-clock seconds ``fit`` took (encoding
excluded), and the overshoot past the limit. The question is ``4x4_m8`` (the eight M states
in a 4x4 grid), which no backend decided within 60 s when measured. With ``--solve``: the
5x5 all-state ``eg.solve`` per seed, on 1 and 2 workers (the kernel compiled first, so the
limit times the search), the whole call's wall-clock seconds and overshoot.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from exactgrid.backends import get_backend, list_backends
from exactgrid.encoding import encode
from exactgrid.fitting import fit
from exactgrid.question import Question, load_instance
from exactgrid.solving import solve
from exactgrid.solving.search import warm_up

INSTANCE = Path(__file__).resolve().parents[1] / "instances" / "benchmarks" / "fit" / "4x4_m8.toml"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backend", action="append", default=None)
    parser.add_argument("--limit", action="append", type=float, default=None)
    parser.add_argument("--solve", action="store_true", help="time eg.solve instead of fit")
    parser.add_argument("--seeds", type=int, default=5, help="with --solve: seeds 1..N per worker count")
    args = parser.parse_args()
    if args.solve:
        solve_overshoot(args.limit or [5.0], args.seeds)
        return
    names = args.backend or [row.name for row in list_backends(only_available=True)]
    limits = args.limit or [2.0, 5.0]
    spec = load_instance(INSTANCE).question
    encoding = encode(spec)
    print(f"# {INSTANCE.stem}: {encoding.model.num_vars:,} variables, {len(encoding.model.clauses):,} clauses")
    print("| backend | limit s | verdict | wall s | overshoot s |")
    print("|---|---:|---|---:|---:|")
    for name in names:
        backend = get_backend(name)
        for limit in limits:
            started = time.monotonic()
            answer = fit(spec, backend=backend, time_limit=limit, encoding=encoding, counting=False)
            wall = time.monotonic() - started
            print(f"| {name} | {limit:g} | {answer.verdict} | {wall:.2f} | {wall - limit:+.2f} |", flush=True)


def solve_overshoot(limits: list[float], seeds: int) -> None:
    """Print, per limit, worker count and seed, how long ``eg.solve`` took past its limit."""
    print(f"# kernel ready in {warm_up():.1f} s")
    print("| workers | limit s | seed | wall s | overshoot s |")
    print("|---:|---:|---:|---:|---:|")
    for limit in limits:
        for workers in (1, 2):
            for seed in range(1, seeds + 1):
                started = time.monotonic()
                solve(Question(), time_limit=limit, workers=workers, seed=seed)
                wall = time.monotonic() - started
                print(f"| {workers} | {limit:g} | {seed} | {wall:.2f} | {wall - limit:+.2f} |", flush=True)


if __name__ == "__main__":
    main()
