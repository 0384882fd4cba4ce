"""Benchmark the engine as a library: per-question cost through a session, fit_many scaling,
and the fit benchmark's headline figures, all in one run.

    python tools/bench_engine.py                      # everything (minutes; the fit benchmark is most of it)
    python tools/bench_engine.py --questions 200 --skip-fit

1. **Neighbourhood questions through one session.** One 5x5 encoding (every state optional,
   so any state can be asked for) and one CaDiCaL session answer ``--questions`` questions built
   from ``--grid`` (a grid over 250M): fix 20 of its 25 cells (5 random cells free) and
   alternate between a question solvable by construction (the states of a grid that differs
   from it in one to three free cells) and one requiring every state the grid holds plus
   one more (usually refuted: no change of the free cells keeps all its states and gains
   one). Reported: median and 95th percentile seconds per
   question (assumptions, solve, decode, the finder's check), against today's cost of the same
   questions asked one by one with ``fit()`` (a fresh encoding each, default backend), measured
   on a sample in the same run.
2. **fit_many throughput**: ``--many`` small 3x3/4x4 questions on 1 and on 2 worker processes.
3. **The fit benchmark** (instances/benchmarks/fit/, default backend, ``--fit-time-limit``):
   median seconds over the instances, and 5x5_top9 and 5x5_top10.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

import exactgrid as eg
from exactgrid.fitting.many import fit_many
from exactgrid.fitting.session import FitSession

ROOT = Path(__file__).resolve().parents[1]
GRID_250M = "ORTSHYESADWNNIGMIORIALACH"  # 258,291,677 points, 29 states (found by an annealer)


def percentile(values: list[float], share: float) -> float:
    """The ``share`` quantile (0..1) of ``values``, nearest rank."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def neighbourhood_questions(letters: str, count: int, rng: random.Random) -> list[tuple[dict[int, str], list[str]]]:
    """(fixed cells, required states) pairs on the grid's neighbourhood: 20 of its cells fixed.

    Even-numbered questions are solvable by construction: the required states are those of a
    grid that differs from ``letters`` in one to three of the five free cells (that grid is a
    witness). Odd-numbered ones require every state of ``letters`` plus one it does not hold
    (a good grid is locally optimal: usually refuted).
    """
    held = sorted(eg.score(letters).words)
    others = [w for w in eg.us_states().weights if w not in held]
    out: list[tuple[dict[int, str], list[str]]] = []
    while len(out) < count:
        free = rng.sample(range(25), 5)
        fixed = {c: letters[c] for c in range(25) if c not in free}
        if len(out) % 2:
            out.append((fixed, [*held, rng.choice(others)]))
            continue
        changed = list(letters)
        for cell in rng.sample(free, rng.randint(1, 3)):
            changed[cell] = rng.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
        out.append((fixed, sorted(eg.score("".join(changed)).words)))
    return out


def bench_session(letters: str, count: int, sample: int, seed: int) -> None:
    rng = random.Random(seed)
    questions = neighbourhood_questions(letters, count, rng)
    base = eg.Question(eg.Board(5, 5), optional=["all"])
    started = time.monotonic()
    session = FitSession(base, backend="cadical")
    opened = time.monotonic() - started
    times, verdicts = [], {"fits": 0, "does not fit": 0, "unknown": 0}
    with session:
        for fixed, required in questions:
            t = time.monotonic()
            answer = session.ask(fixed=fixed, required=required, time_limit=60)
            times.append(time.monotonic() - t)
            verdicts[answer.verdict.value] += 1
    print(f"session: {count} neighbourhood questions on one 5x5 encoding "
          f"({session.encoding.model.num_vars:,} variables; encode + open {opened:.2f} s once)")
    print(f"  per question: median {statistics.median(times) * 1000:.1f} ms, "
          f"95th percentile {percentile(times, 0.95) * 1000:.1f} ms, max {max(times) * 1000:.0f} ms; {verdicts}")
    baseline = {}
    for name in (eg.backends.DEFAULT_BACKEND, "cadical"):
        spent = []
        for fixed, required in questions[:sample]:
            question = eg.Question(eg.Board(5, 5), required=required, fixed=fixed)
            t = time.monotonic()
            eg.fit(question, backend=name, time_limit=60)
            spent.append(time.monotonic() - t)
        baseline[name] = statistics.median(spent)
        print(f"  one by one with fit() ({name}, fresh encoding each, {sample} of them): "
              f"median {baseline[name] * 1000:.0f} ms")
    default = baseline[eg.backends.DEFAULT_BACKEND]
    print(f"  session vs today's default: {default / statistics.median(times):.0f}x less per question")


def small_questions(count: int, seed: int) -> list[eg.Question]:
    """Random 3x3/4x4 questions: 2-4 states of at most 8 letters, some pinned exact."""
    rng = random.Random(seed)
    short = [w for w in eg.us_states().weights if len(w) <= 8]
    out = []
    while len(out) < count:
        size = rng.choice([3, 4])
        words = rng.sample(short, rng.randint(2, 4))
        required = [w + (":exact" if rng.random() < 0.3 else "") for w in words]
        out.append(eg.Question(eg.Board(size, size), required=required))
    return out


def bench_many(count: int, seed: int) -> None:
    questions = small_questions(count, seed)
    walls = {}
    for workers in (1, 2):
        started = time.monotonic()
        answers = list(fit_many(questions, backend="cadical", workers=workers, time_limit=60))
        walls[workers] = time.monotonic() - started
        kinds = {v: sum(a.verdict == v for a in answers) for v in ("fits", "does not fit", "unknown")}
        print(f"fit_many: {count} small questions, {workers} worker(s): {walls[workers]:.2f} s "
              f"({count / walls[workers]:.0f} questions/s) {kinds}")
    print(f"  2 workers vs 1: {walls[1] / walls[2]:.2f}x")


def bench_fit(time_limit: float) -> None:
    paths = sorted((ROOT / "instances" / "benchmarks" / "fit").glob("*.toml"))
    seconds = {}
    for path in paths:
        question = eg.load_instance(path).question
        started = time.monotonic()
        answer = eg.fit(question, time_limit=time_limit)
        seconds[path.stem] = (time.monotonic() - started, answer.verdict.value)
    median = statistics.median(s for s, _ in seconds.values())
    print(f"fit benchmark ({len(paths)} instances, {eg.backends.DEFAULT_BACKEND}, limit {time_limit:g} s): "
          f"median {median:.2f} s; " + ", ".join(f"{k} {seconds[k][1]} {seconds[k][0]:.2f} s"
                                                for k in ("5x5_top9", "5x5_top10")))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--grid", default=GRID_250M)
    parser.add_argument("--questions", type=int, default=1000)
    parser.add_argument("--sample", type=int, default=30, help="questions asked one by one for the baseline")
    parser.add_argument("--many", type=int, default=200)
    parser.add_argument("--fit-time-limit", type=float, default=20.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--skip-fit", action="store_true")
    args = parser.parse_args()
    print(f"# {' '.join(sys.argv)}")
    print(f"# grid {args.grid}: {eg.score(args.grid).total:,} points")
    bench_session(args.grid, args.questions, args.sample, args.seed)
    bench_many(args.many, args.seed)
    if not args.skip_fit:
        bench_fit(args.fit_time_limit)
    return 0


if __name__ == "__main__":
    sys.exit(main())
