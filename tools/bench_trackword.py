"""How long Trackword takes: loading ENABLE, building its trie, searching the seed grid, building
the best grid for RETRIEVES.

    python tools/bench_trackword.py [--repeat 200]

Prints one line per measurement (wall seconds; a search is the median of ``repeat`` runs in one
process, with its minimum and maximum, and the CPU median, steadier on a shared machine). Trie
builds are timed on fresh tries (``Trie.from_words``), not the cached ones.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

FIXTURE = "set/err/vei"


def timed(call: Callable[[], object]) -> tuple[float, float, object]:
    """(wall seconds, CPU seconds, result) of one call."""
    c0, t0 = time.process_time(), time.perf_counter()
    result = call()
    return time.perf_counter() - t0, time.process_time() - c0, result


def repeated(call: Callable[[], object], repeat: int) -> tuple[list[float], list[float], object]:
    """Wall and CPU seconds of ``repeat`` calls after one warm-up call, and the last result."""
    result = call()
    walls, cpus = [], []
    for _ in range(repeat):
        wall, cpu, result = timed(call)
        walls.append(wall)
        cpus.append(cpu)
    return walls, cpus, result


def ms(values: list[float]) -> str:
    """``median (min-max) ms``."""
    return f"{statistics.median(values) * 1e3:.3f} ms median ({min(values) * 1e3:.3f}-{max(values) * 1e3:.3f})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=200)
    args = parser.parse_args()

    from exactgrid.data import word_list
    from exactgrid.grid import parse_grid
    from exactgrid.puzzles.trackword import build_grid, list_words
    from exactgrid.wordsearch import Trie, search_words, trie_for

    wall, _, enable = timed(lambda: word_list("enable"))
    print(f"load ENABLE ({len(enable):,} words): {wall:.3f} s")  # type: ignore[arg-type]
    for low, high, label in ((3, 9, "3-9 letters"), (1, None, "all")):
        wall, cpu, trie = timed(lambda low=low, high=high: Trie.from_words(enable, low, high))  # type: ignore[misc]
        print(f"trie of ENABLE, {label}: {wall:.3f} s (CPU {cpu:.3f} s); "
              f"{len(trie):,} words, {trie.nodes:,} nodes, depth {trie.depth}")  # type: ignore[union-attr]
    grid = parse_grid(FIXTURE)
    trie = trie_for(enable, 3, 9)  # type: ignore[arg-type]
    for rule, budget in (("simple", 0), ("walk", 0), ("simple", 1)):
        count = args.repeat if budget == 0 else max(args.repeat // 10, 3)
        walls, cpus, hits = repeated(lambda rule=rule, budget=budget: search_words(grid, trie, rule, 3, 9, budget),
                                     count)
        print(f"search_words {FIXTURE} ({rule}, budget {budget}): {len(hits)} words; "  # type: ignore[arg-type]
              f"{ms(walls)}, CPU {statistics.median(cpus) * 1e3:.3f} ms, {count} runs")
    walls, _, answer = repeated(lambda: list_words(FIXTURE), max(args.repeat // 10, 3))
    print(f"list_words {FIXTURE}: {answer.count} words; {ms(walls)} (trie cached)")  # type: ignore[union-attr]
    for _ in range(3):
        wall, cpu, built = timed(lambda: build_grid("retrieves"))
        print(f"build_grid RETRIEVES: {built.grid.letters} holds {built.count} words "  # type: ignore[union-attr]
              f"({built.ties} grid(s) tie); {built.how}; {wall:.3f} s (CPU {cpu:.3f} s)")  # type: ignore[union-attr]


if __name__ == "__main__":
    main()
