"""Certify times: the documentation's certificate examples, and each proof checker alone.

    python tools/bench_certify.py                        # this checkout's exactgrid
    python tools/bench_certify.py --tree /tmp/before     # another checkout's (an older commit)
    python tools/bench_certify.py --checkers             # the two checkers on one biggish proof
    python tools/bench_certify.py --checkers --seven-core 60   # ... and on a 5x5 core's proof

Without ``--checkers``: each example command (``fit --instance ... --certify`` on the fit
benchmark's refuted questions, and ``bound ... --certify`` on five states in a 3x3) runs three
times with ``--json``, in a fresh process from ``--tree``; printed are the best certificate
seconds (``certificate.seconds``, or the seconds in ``bound``'s confirmation), the best wall
time of the command, and each checker's seconds where the answer names them.

With ``--checkers``: CaDiCaL's DRUP proof of ``3x3_seed_no_ohio``, checked by exactgrid's
checker alone (pure Python, and compiled when numba is installed), by dratify's alone, and by
both (one after the other, then side by side), best of three each. With ``--seven-core S`` as
well: the same on the proof of the first core that ``bound`` under the seven Altered States 2
awards finds in S seconds (the one its ``--certify`` must check first), once each.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
FIT = "instances/benchmarks/fit"
REFUTED = ("3x3_top3", "3x3_seed_exact", "3x3_massachusetts_exact", "3x3_seed_no_ohio", "4x4_top6_exact",
           "5x5_rows_fixed_forbid")
EXAMPLES = [*(["fit", "--instance", f"{FIT}/{name}.toml", "--certify"] for name in REFUTED),
            ["bound", "ILLINOIS:exact", "OHIO:exact", "UTAH:exact", "IOWA:exact", "IDAHO:exact", "--shape", "3x3",
             "--certify"]]


def run(tree: Path, args: list[str]) -> tuple[float, float, dict[str, float]]:
    """One run of ``exactgrid ARGS --json`` from ``tree``: certify seconds, wall seconds, checkers."""
    started = time.monotonic()
    out = subprocess.run([sys.executable, "-c", "from exactgrid.cli import main; main()", *args, "--json"],
                         capture_output=True, text=True, cwd=tree, env={**os.environ, "PYTHONPATH": str(tree)})
    wall = time.monotonic() - started
    data = json.loads(out.stdout)
    certificate = data.get("certificate") or {}
    seconds = certificate.get("seconds")
    if seconds is None:  # bound: the seconds are in its confirmation
        found = re.search(r"\(([\d.]+) s", data.get("confirmation", ""))
        seconds = float(found.group(1)) if found else float("nan")
    runs = certificate.get("checkers", data.get("checkers", []))
    return seconds, wall, {r["checker"]: r["seconds"] for r in runs}


def examples(tree: Path) -> None:
    """The table of the examples, best of three."""
    print("| command | certify s | wall s | checkers s |")
    print("|---|---:|---:|---|")
    for args in EXAMPLES:
        runs = [run(tree, args) for _ in range(3)]
        best = min(runs, key=lambda r: r[0])
        checkers = ", ".join(f"{name} {s:.2f}" for name, s in best[2].items()) or "-"
        print(f"| `exactgrid {' '.join(args)}` | {best[0]:.2f} | {min(r[1] for r in runs):.2f} | {checkers} |",
              flush=True)


def best_of_three(work: Callable[[], Any]) -> float:
    """The best wall time of three calls."""
    times = []
    for _ in range(3):
        started = time.monotonic()
        work()
        times.append(time.monotonic() - started)
    return min(times)


def refutation(clauses: list[list[int]]) -> list[str]:
    """CaDiCaL's DRUP proof of the clauses (which it must refute)."""
    from pysat.solvers import Solver

    with Solver(name="cadical195", bootstrap_with=clauses, with_proof=True) as solver:
        assert solver.solve() is False
        return solver.get_proof()


def seven_core(seconds: float) -> list[list[int]]:
    """The clauses certifying the first core of ``bound`` under the seven awards, as
    ``--certify`` builds them (:func:`exactgrid.prove.certify.placement_clauses`)."""
    from exactgrid.prove.bound import bound
    from exactgrid.prove.certify import placement_clauses
    from exactgrid.question import Question

    question = Question()
    answer = bound(question, time_limit=seconds, awards=["20S", "200M", "PA", "M8", "4C", "NOCAL", "C2C"])
    print(f"bound under the seven, {seconds:g} s: {answer.bound:,}, {len(answer.cores)} cores")
    base, units = placement_clauses(question.board, dict(question.fixed), answer.cores[0])
    return [*base, *units]


def checkers_alone(name: str, clauses: list[list[int]], repeat: Callable[[Callable[[], Any]], float]) -> None:
    """Each checker alone and both together on CaDiCaL's proof of ``clauses``."""
    from exactgrid.prove import checkers
    from exactgrid.prove.drup import check_drup, compiled_available

    proof = refutation(clauses)
    lemmas = sum(not line.startswith("d") for line in proof)
    print(f"{name}: {len(clauses):,} clauses, {len(proof):,} proof lines ({lemmas:,} lemmas)")
    ours, theirs = checkers.checker_names()
    ours = ours.removesuffix(" (compiled)")
    print(f"{ours}, pure Python: {repeat(lambda: check_drup(clauses, proof, compiled=False)):.2f} s")
    if compiled_available():
        print(f"{ours}, compiled: {repeat(lambda: check_drup(clauses, proof, compiled=True)):.2f} s")
    print(f"{theirs} alone: {repeat(lambda: checkers.check_with_dratify(clauses, proof, None)):.2f} s")
    for way, lines in (("one after the other", len(proof) + 1), ("side by side", 0)):
        checkers.PARALLEL_FROM_LEMMAS = lines
        print(f"both, {way}: {repeat(lambda: checkers.check_twice(clauses, proof)):.2f} s")


def once(work: Callable[[], Any]) -> float:
    """Seconds one call of ``work`` takes."""
    started = time.monotonic()
    work()
    return time.monotonic() - started


def seed_no_ohio() -> list[list[int]]:
    """The clauses of the fit benchmark's ``3x3_seed_no_ohio``, as ``encode`` makes them."""
    from exactgrid.cnf import compile_cnf
    from exactgrid.encoding import encode
    from exactgrid.question import load_instance

    return compile_cnf(encode(load_instance(ROOT / FIT / "3x3_seed_no_ohio.toml").question).model).clauses


def main() -> None:
    """Parse the arguments and print the measurements."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tree", type=Path, default=ROOT, help="the checkout whose exactgrid runs the examples")
    parser.add_argument("--checkers", action="store_true", help="time the two checkers on one proof instead")
    parser.add_argument("--seven-core", type=float, metavar="SECONDS",
                        help="with --checkers: also on the first core of a bound under the seven awards")
    args = parser.parse_args()
    if args.checkers:
        from exactgrid.prove.drup import check_drup

        check_drup([[1], [-1]], [])  # the compiled checker's first call loads it: not timed
        checkers_alone("3x3_seed_no_ohio", seed_no_ohio(), best_of_three)
        if args.seven_core:
            checkers_alone("the seven awards' first core", seven_core(args.seven_core), once)
    else:
        examples(args.tree.resolve())


if __name__ == "__main__":
    main()
