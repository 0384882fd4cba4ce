"""Do time limits hold? Solve a question no backend decides quickly, with a short limit, per backend.

    python tools/bench_time_limit.py                      # every available backend, 2 s and 5 s
    python tools/bench_time_limit.py --limit 1 --backend cbc

Prints, per backend and limit, the verdict and the wall-clock seconds ``fit`` took (encoding
excluded), and the overshoot past the limit. The question is ``4x4_m8`` (the eight M states
in a 4x4 grid), which no backend decided within 60 s when measured.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from exactgrid.backends import get_backend, list_backends
from exactgrid.encode import encode
from exactgrid.fitting import fit
from exactgrid.question import load_instance

INSTANCE = Path(__file__).resolve().parents[1] / "instances" / "benchmarks" / "fit" / "4x4_m8.toml"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backend", action="append", default=None)
    parser.add_argument("--limit", action="append", type=float, default=None)
    args = parser.parse_args()
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


if __name__ == "__main__":
    main()
