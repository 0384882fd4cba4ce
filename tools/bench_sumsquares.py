"""Sum of Squares: solve n = 2..8 with the exact DP and with the ILP on each backend; print a table.

    python tools/bench_sumsquares.py                          # n = 2..8, DP + ILP on cbc (+ highs, cpsat)
    python tools/bench_sumsquares.py --time-limit 120 --large-time-limit 60
    python tools/bench_sumsquares.py --n 9 --n 10 --backend highs

One row per n and method: the optimum (or the best grid's sum and the proven bound), the
status ("optimal" only when the method proved it), and the wall-clock seconds (for the ILP:
building the model, the backend's child process and solve, reading and checking the grid).
The last line says whether the methods agree (every proven optimum of an n the same, and no
grid above any proven bound); it exits 1 if not.
"""

from __future__ import annotations

import argparse
import sys

from exactgrid.backends import get_backend
from exactgrid.puzzles.sumsquares import SumSquaresAnswer, solve_sum_of_squares

ILP_BACKENDS = ("cbc", "highs", "cpsat")


def available_backends(names: list[str] | None) -> list[str]:
    """The backends asked for, or those of :data:`ILP_BACKENDS` installed here."""
    if names:
        return names
    return [name for name in ILP_BACKENDS if get_backend(name).available()]


def row(answer: SumSquaresAnswer, label: str) -> str:
    """One markdown table row."""
    total = "-" if answer.total is None else str(answer.total)
    bound = "-" if answer.bound is None else str(answer.bound)
    grid = "/".join(answer.grid) or "-"
    return f"| {answer.n} | {label} | {total} | {bound} | {answer.status} | {answer.seconds:.2f} | {grid} |"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", action="append", type=int, default=None, help="n to solve (repeat; default 2..8)")
    parser.add_argument("--backend", action="append", default=None, help="ILP backend (repeat; default: "
                        "cbc, highs, cpsat where installed)")
    parser.add_argument("--time-limit", type=float, default=120.0, help="seconds per run (default 120)")
    parser.add_argument("--large-time-limit", type=float, default=None,
                        help="seconds per run for n >= 7 (default: --time-limit)")
    parser.add_argument("--no-dp", action="store_true", help="skip the DP")
    args = parser.parse_args()
    sizes = args.n or list(range(2, 9))
    backends = available_backends(args.backend)
    print(f"# time limit {args.time_limit:g} s"
          + (f" ({args.large_time_limit:g} s for n >= 7)" if args.large_time_limit is not None else ""))
    print("| n | method | sum | bound | status | seconds | grid |")
    print("|---:|---|---:|---:|---|---:|---|")
    disagreements = []
    for n in sizes:
        limit = args.large_time_limit if args.large_time_limit is not None and n >= 7 else args.time_limit
        runs = [] if args.no_dp else [("dp", solve_sum_of_squares(n, "dp", time_limit=limit))]
        if runs:
            print(row(runs[0][1], "dp"), flush=True)
        for name in backends:
            answer = solve_sum_of_squares(n, "ilp", backend=name, time_limit=limit)
            runs.append((f"ilp {name}", answer))
            print(row(answer, f"ilp {name}"), flush=True)
        optima = {label: a.total for label, a in runs if a.status == "optimal"}
        best = max((a.total for _, a in runs if a.total is not None), default=None)
        bound = min((a.bound for _, a in runs if a.bound is not None), default=None)
        if len(set(optima.values())) > 1 or (best is not None and bound is not None and bound < best):
            disagreements.append(f"n={n}: optima {optima}, best grid {best}, lowest bound {bound}")
    print("all proven optima agree" if not disagreements else "DISAGREE: " + "; ".join(disagreements))
    return 1 if disagreements else 0


if __name__ == "__main__":
    sys.exit(main())
