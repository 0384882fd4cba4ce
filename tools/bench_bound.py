"""Benchmark the bound (exactgrid.prove.bound): how it falls over time, with the cores found.

    python tools/bench_bound.py --case free --minutes 60 --marks 5 30 60
    python tools/bench_bound.py --case awards --minutes 30 --marks 5 30
    python tools/bench_bound.py --case free --shape 4x4 --minutes 5
    python tools/bench_bound.py --case free --minutes 30 --marks 1 5 10 30 --workers 2
    python tools/bench_bound.py --case free --minutes 30 --marks 1 5 10 30 --exact

Cases: ``free`` (every state scored, nothing required), ``awards`` (M8, PA and 4C required,
CALIFORNIA forbidden, every other state scored: a bound below 200,000,000 would prove that no
grid earns all seven awards). Prints the bound at each mark (minutes), the trajectory, the
rounds and the cores, as Markdown, and the CPU seconds used (of this process: the workers'
are not counted); ``--json FILE`` also writes the
whole answer.
"""

from __future__ import annotations

import argparse
import json
import sys
import time

from exactgrid.prove.bound import BoundAnswer, bound
from exactgrid.question import build_question

M8 = ["MAINE", "MARYLAND", "MASSACHUSETTS", "MICHIGAN", "MINNESOTA", "MISSISSIPPI", "MISSOURI", "MONTANA"]
FOUR_CORNERS = ["ARIZONA", "COLORADO", "NEWMEXICO", "UTAH"]


def question_for(case: str, shape: str):
    """The bound question of a case."""
    if case == "free":
        return build_question(optional=["all"], shape=shape, allow_empty=True)
    return build_question(requirements=[*M8, "PENNSYLVANIA", *FOUR_CORNERS], forbid=["CALIFORNIA"],
                          optional=["all"], shape=shape)


def bound_at(answer: BoundAnswer, seconds: float) -> int | None:
    """The best bound proven by ``seconds`` into the run."""
    reached = [b for s, b in answer.trajectory if s <= seconds]
    return min(reached) if reached else None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--case", choices=["free", "awards"], default="free")
    parser.add_argument("--shape", default="5x5")
    parser.add_argument("--minutes", type=float, default=5.0)
    parser.add_argument("--marks", type=float, nargs="*", default=None, help="minutes at which to report the bound")
    parser.add_argument("--json", default=None, metavar="FILE")
    parser.add_argument("--cores-per-round", type=int, default=1, help="new cores with disjoint pairs per solution")
    parser.add_argument("--triples", action="store_true", help="cores may name letter triples")
    parser.add_argument("--workers", type=int, default=1, help="core searches at once (workers - 1 processes)")
    parser.add_argument("--exact", action="store_true", help="word count cores from the exact model first")
    parser.add_argument("--exact-seconds", type=float, default=60.0, help="the exact model's time a round")
    parser.add_argument("--no-capacity", action="store_true", help="leave out the neighbour capacity constraints")
    args = parser.parse_args()

    question = question_for(args.case, args.shape)
    started, cpu = time.monotonic(), time.process_time()

    def heard(value: int, seconds: float) -> None:
        print(f"# {seconds:8.1f} s  bound {value:,}", file=sys.stderr, flush=True)

    answer = bound(question, time_limit=args.minutes * 60, on_bound=heard, triples=args.triples,
                   cores_per_round=args.cores_per_round, workers=args.workers, exact=args.exact,
                   exact_seconds=args.exact_seconds, capacity=not args.no_capacity)
    wall, used = time.monotonic() - started, time.process_time() - cpu
    print(f"# {' '.join(sys.argv)}")
    print(f"# cores per round {args.cores_per_round}, triples {'on' if args.triples else 'off'}, "
          f"workers {args.workers}, exact {'on' if args.exact else 'off'}, "
          f"capacity {'off' if args.no_capacity else 'on'}")
    print(f"# case {args.case} on {args.shape}: {answer.status}, {answer.rounds} rounds, {len(answer.cores)} cores "
          f"({answer.renamed} renamed), {wall:.0f} s wall, {used:.0f} s CPU (this process)")
    print("| after | bound | below the total |")
    print("|---|---|---|")
    for mark in args.marks or [args.minutes]:
        value = bound_at(answer, mark * 60)
        shown = "none" if value is None else f"{value:,}"
        below = "" if value is None else f"{answer.total - value:,}"
        print(f"| {mark:g} min | {shown} | {below} |")
    print("\ntrajectory (s, bound):", ", ".join(f"{s:.0f} s {b:,}" for s, b in answer.trajectory))
    for i, core in enumerate(answer.cores, 1):
        print(f"core {i}: {core.text()}")
    for i, word_core in enumerate(answer.word_cores, 1):
        print(f"word count core {i}: {word_core.text()}")
    if answer.grid is not None:
        print(f"optimal grid: {answer.grid.letters}")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump(answer.to_dict(), out, indent=1)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
