"""Benchmark Letter Boxed: the fewest-word solvers on the ENABLE fixtures and larger boxes.

    python tools/bench_letterboxed.py                     # search x5, ILP (CBC) x1, every box
    python tools/bench_letterboxed.py --repeat 11 --ilp-repeat 3 --backend highs
    python tools/bench_letterboxed.py --no-ilp-large      # skip the ILP on the 6 x 4 box (about 20 s)

ENABLE is loaded once (its load time is printed), then for each box: the fast filter
(``playable_words``), ``solve_by_search`` (filter included) and ``solve_by_ilp`` (filter
included; a CBC or HiGHS child process per k), each the median of its repeats, wall time. Both
solvers must agree on the fewest count, and every answer has been checked by the finder.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from typing import Any

from exactgrid.data.enable import enable
from exactgrid.puzzles.letterboxed import LetterBox, playable_words, solve_by_ilp, solve_by_search

FIXTURES = ["vro wal eth bdi", "erb uln imk jav", "vyq fig ote xlu", "xoy tws apv kri"]
LARGER = ["abc def ghi jkl mno", "abcd efgh ijkl mnop", "esci dpou mgvh aqrj ntzf bwkl"]


def median_seconds(run: Callable[[], Any], repeat: int) -> tuple[float, Any]:
    """The median wall time of ``repeat`` calls of ``run``, and the last result."""
    times, result = [], None
    for _ in range(repeat):
        started = time.perf_counter()
        result = run()
        times.append(time.perf_counter() - started)
    return statistics.median(times), result


def bench_box(text: str, words, repeat: int, ilp_repeat: int, backend: str, time_limit: float) -> dict[str, Any]:
    """One row of the table: the timings and answers for one box (``ilp_repeat`` 0: no ILP)."""
    box = LetterBox.parse(text)
    filter_s, playable = median_seconds(lambda: playable_words(box, words), repeat)
    search_s, search = median_seconds(lambda: solve_by_search(box, words), repeat)
    row = {"box": str(box), "shape": f"{len(box.sides)}x{box.per_side}", "playable": len(playable),
           "fewest": search.fewest, "filter_ms": filter_s * 1e3, "search_ms": search_s * 1e3,
           "ilp_s": None, "ilp_k": "", "words": " ".join(search.words)}
    if ilp_repeat:
        ilp_s, ilp = median_seconds(
            lambda: solve_by_ilp(box, words, max_words=search.fewest, backend=backend, time_limit=time_limit),
            ilp_repeat)
        if ilp.proven and ilp.fewest != search.fewest:
            raise AssertionError(f"{box}: search says {search.fewest}, ILP says {ilp.fewest} ({ilp.how})")
        row["ilp_s"] = ilp_s
        row["ilp_k"] = ilp.how.rsplit(": ", 1)[-1].replace(" infeasible", " no").replace(" feasible", " yes")
    return row


def print_table(rows: list[dict[str, Any]]) -> None:
    """The rows as a fixed-width table."""
    header = f"{'box':<30} {'shape':>5} {'playable':>8} {'fewest':>6} {'filter ms':>9} {'search ms':>9} " \
             f"{'ILP s':>6}  ILP per k / solution"
    print(header)
    print("-" * len(header))
    for r in rows:
        ilp = "-" if r["ilp_s"] is None else f"{r['ilp_s']:.2f}"
        print(f"{r['box']:<30} {r['shape']:>5} {r['playable']:>8,} {r['fewest'] or '-':>6} {r['filter_ms']:>9.1f} "
              f"{r['search_ms']:>9.1f} {ilp:>6}  {r['ilp_k']}")
        print(f"{'':<30} {'':>5} {'':>8} {'':>6} {'':>9} {'':>9} {'':>6}  {r['words']}")


def main() -> None:
    """Run the benchmark and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=5, help="runs of the filter and the search per box (median)")
    parser.add_argument("--ilp-repeat", type=int, default=1, help="runs of the ILP per box (median); 0: no ILP")
    parser.add_argument("--backend", default="cbc", help="the ILP backend (cbc, highs, ...)")
    parser.add_argument("--time-limit", type=float, default=300.0, help="seconds for one ILP run")
    parser.add_argument("--no-ilp-large", action="store_true", help="skip the ILP on the 6 x 4 box")
    parser.add_argument("--box", action="append", default=[], help="another box to time (repeatable)")
    args = parser.parse_args()

    started = time.perf_counter()
    words = enable()
    print(f"ENABLE loaded in {time.perf_counter() - started:.2f} s ({len(words):,} words); "
          f"search x{args.repeat}, ILP ({args.backend}) x{args.ilp_repeat}, medians\n")
    rows = []
    for text in [*FIXTURES, *LARGER, *args.box]:
        large = len(LetterBox.parse(text).letters) > 16
        ilp_repeat = 0 if large and args.no_ilp_large else args.ilp_repeat
        rows.append(bench_box(text, words, args.repeat, ilp_repeat, args.backend, args.time_limit))
    print_table(rows)


if __name__ == "__main__":
    main()
