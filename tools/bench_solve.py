"""Benchmark ``exactgrid solve`` (and, side by side, a public optimiser) on Altered States 2.

Unconstrained: the best score at time marks, per seed, in wall time and in CPU-seconds (the
machine may be shared), and the time to a qualifying grid (>= 165,379,868) and to the best
public grid (>= 263,137,868). With awards: the best score of a grid earning them, per seed.
Every grid is re-scored by the finder (exactgrid does that itself; the peer's grids are
re-scored here).

The peer is the genetic algorithm ``junegame.cpp`` of
github.com/austinchen2005/Jane-Street-Altered-States-2-Board-Generator, built outside this
project (its code is not part of exactgrid) with the fixes the issue names, and made to take
``SEED CPU_SECONDS`` and print ``cpu_seconds<TAB>score<TAB>grid`` per improvement. Pass its
binary with ``--peer``: it is single-threaded, so it runs once per core exactgrid had (seeds
``100 s``, ``100 s + 1``, ...) side by side for the same time, and counts as the best of them.

    python tools/bench_solve.py --minutes 10 --seeds 1 2 3 --peer /path/to/junegame
    python tools/bench_solve.py --awards-minutes 5 --configs NOCAL M8 C2C M8+PA+4C+NOCAL

Prints a Markdown table per part and writes every run as JSON (``--out``); ``--report FILE``
prints an earlier run's unconstrained table again from that JSON.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import time
from pathlib import Path

import exactgrid as eg
from exactgrid.awards.checklist import QUALIFY_SCORE

SIX_AWARDS = "20S+200M+PA+4C+NOCAL+C2C"
PUBLIC_BEST = 263_137_868  # the best grid in public sources
ENGINE_BEST = 265_326_530  # the best grid this project's engine had produced before these runs


def best_at(trace: list[tuple[float, int]], mark: float) -> int | None:
    """The best score reached by ``mark`` seconds in a trace of (seconds, score)."""
    scores = [score for seconds, score in trace if seconds <= mark]
    return max(scores) if scores else None


def run_exactgrid(seed: int, seconds: float, workers: int, awards: tuple[str, ...] = ()) -> dict:
    """One solve run: the wall and CPU trace of improvements and the final answer."""
    trace: list[dict] = []
    began_cpu = time.process_time()

    def note(found: eg.solve.Improvement) -> None:
        trace.append({"wall": found.elapsed, "cpu": time.process_time() - began_cpu, "score": found.score,
                      "grid": found.grid})

    answer = eg.solve(eg.Question(), awards=awards, time_limit=seconds, workers=workers, seed=seed,
                      on_improvement=note)
    result = {"seed": seed, "awards": list(awards), "score": answer.score,
              "grid": answer.grid.letters if answer.grid else None, "trace": trace,
              "proposals": answer.stats.proposals, "cpu_seconds": answer.stats.cpu_seconds,
              "seconds": answer.stats.elapsed}
    if answer.checklist is not None:
        result["awards_met"] = [r.key for r in answer.checklist.items if r.passed]
    return result


def run_peer(binary: str, seeds: list[int], cpu_seconds: float) -> dict:
    """The peer on as many cores as exactgrid had: one single-threaded run per seed, side by
    side, each for ``cpu_seconds``; their improvements merged into one trace (the best of the
    runs at any moment), every grid re-scored by exactgrid's finder."""
    began = time.monotonic()
    runs = [subprocess.Popen([binary, str(seed), str(int(cpu_seconds))], stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL, text=True) for seed in seeds]
    trace = []
    for run in runs:
        out, _ = run.communicate()
        for line in out.splitlines():
            cpu, score, grid = line.split("\t")
            checked = eg.score(grid).total
            if checked != int(score):
                raise AssertionError(f"the peer says {grid} scores {score}; the finder says {checked}")
            trace.append({"cpu": float(cpu), "wall": float(cpu), "score": checked, "grid": grid})
    trace.sort(key=lambda t: t["cpu"])
    best = max(trace, key=lambda t: t["score"]) if trace else None
    return {"seeds": seeds, "score": best["score"] if best else 0, "grid": best["grid"] if best else None,
            "trace": trace, "seconds": time.monotonic() - began}


def _fmt(value: int | None) -> str:
    return "-" if value is None else f"{value:,}"


def unconstrained(args: argparse.Namespace) -> dict:
    """Part 1: best score at the marks, exactgrid (wall and CPU) against the peer (CPU)."""
    ours = [run_exactgrid(seed, args.minutes * 60, args.workers) for seed in args.seeds]
    peer_seeds = [[seed * 100 + k for k in range(args.workers)] for seed in args.seeds]
    peers = [run_peer(args.peer, seeds, args.minutes * 60) for seeds in peer_seeds] if args.peer else []
    report_unconstrained(ours, peers, args)
    return {"exactgrid": ours, "peer": peers}


def first_reaching(runs: list[dict], clock: str, score: int) -> str:
    """The median time at which the runs first held a grid of at least ``score`` ("-" when
    none did; the count in brackets when only some did)."""
    firsts = [min((t[clock] for t in r["trace"] if t["score"] >= score), default=None) for r in runs]
    reached = [f for f in firsts if f is not None]
    if not reached:
        return "-"
    some = "" if len(reached) == len(runs) else f" ({len(reached)} of {len(runs)} runs)"
    return f"{statistics.median(reached):.1f} s{some}"


def report_unconstrained(ours: list[dict], peers: list[dict], args: argparse.Namespace) -> None:
    """Print part 1's table and per-run lines from its runs (fresh or read back with --report)."""
    marks = [m * 60 for m in args.marks]
    print(f"\n### Unconstrained, {args.workers} workers, seeds {args.seeds}\n")
    header = ["", *[f"{m:g} min" for m in args.marks], f"first >= {QUALIFY_SCORE:,}",
              f"first >= {PUBLIC_BEST:,} (public best)"]
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))

    def row(label: str, runs: list[dict], clock: str, scale: float = 1.0) -> None:
        per_mark = []
        for mark in marks:
            values = [best_at([(t[clock], t["score"]) for t in r["trace"]], mark * scale) for r in runs]
            values = [v for v in values if v is not None]
            per_mark.append(f"{_fmt(int(statistics.median(values)))} / {_fmt(max(values))}" if values else "-")
        firsts = [first_reaching(runs, clock, score) for score in (QUALIFY_SCORE, PUBLIC_BEST)]
        print(f"| {label} | " + " | ".join(per_mark + firsts) + " |")

    row("exactgrid, wall time (median / best)", ours, "wall")
    row(f"exactgrid, CPU time x{args.workers}", ours, "cpu", args.workers)
    if peers:
        row(f"junegame GA, {args.workers} runs side by side, wall (median / best)", peers, "wall")
    for r in ours:
        print(f"\nexactgrid seed {r['seed']}: {r['score']:,} {r['grid']} ({r['proposals']:,} grids scored, "
              f"{r['cpu_seconds']:.0f} CPU-s, {r['proposals'] / max(r['cpu_seconds'], 1e-9):,.0f} per CPU-second)")
    finals = [r["score"] for r in ours]
    median, best = int(statistics.median(finals)), max(finals)
    print(f"\nAt {args.minutes:g} min: median {median:,} ({_against(median, PUBLIC_BEST)} the best public grid, "
          f"{PUBLIC_BEST:,}), best {best:,} ({_against(best, ENGINE_BEST)} the engine's earlier best, "
          f"{ENGINE_BEST:,})")
    for r in peers:
        print(f"junegame seeds {r['seeds']}: {r['score']:,} {r['grid']}")


def _against(value: int, target: int) -> str:
    return "above" if value > target else "equal to" if value == target else "below"


def with_awards(args: argparse.Namespace) -> list[dict]:
    """Part 2: the best grid earning each set of awards."""
    runs = []
    print(f"\n### With awards, {args.awards_minutes:g} min each, {args.workers} workers\n")
    print("| awards | seeds | median | best | best grid |")
    print("|---|---|---|---|---|")
    for config in args.configs:
        awards = tuple(config.split("+"))
        results = [run_exactgrid(seed, args.awards_minutes * 60, args.workers, awards) for seed in args.seeds]
        runs += results
        scores = [r["score"] for r in results]
        best = max(results, key=lambda r: r["score"])
        print(f"| {config} | {len(results)} | {_fmt(int(statistics.median(scores)))} | {_fmt(best['score'])} "
              f"| {best['grid'] or '(none found)'} |")
    return runs


def main() -> None:
    """Run the parts asked for and print their tables."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3])
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--minutes", type=float, default=10.0, help="unconstrained run length (0: skip)")
    parser.add_argument("--marks", type=float, nargs="+", default=[1, 2, 5, 10], help="minutes")
    parser.add_argument("--peer", default=None, help="the peer's binary (junegame SEED CPU_SECONDS)")
    parser.add_argument("--awards-minutes", type=float, default=0.0, help="per award set (0: skip)")
    parser.add_argument("--configs", nargs="+", default=["NOCAL", "M8", "C2C", "M8+PA+4C+NOCAL", SIX_AWARDS])
    parser.add_argument("--out", default="bench_solve.json")
    parser.add_argument("--report", default=None, help="print the tables of an earlier run's JSON; run nothing")
    args = parser.parse_args()
    if args.report:
        data = json.loads(Path(args.report).read_text())
        saved = argparse.Namespace(**data["args"])
        if "unconstrained" in data:
            report_unconstrained(data["unconstrained"]["exactgrid"], data["unconstrained"]["peer"], saved)
        return
    data: dict = {"args": vars(args)}
    if args.minutes > 0:
        args.marks = [m for m in args.marks if m <= args.minutes]
        data["unconstrained"] = unconstrained(args)
    if args.awards_minutes > 0:
        data["awards"] = with_awards(args)
    Path(args.out).write_text(json.dumps(data, indent=1))


if __name__ == "__main__":
    main()
