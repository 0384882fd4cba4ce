"""How fast does ``fit --local-search`` find a grid, with and without the graded penalty?

    python tools/bench_fit_search.py --seeds 1 2 3 --seconds 60

For each award question known to fit (each has a grid in instances/records/), per seed: the
search ``fit --local-search`` runs (:func:`exactgrid.solving.fitting.first_grid_search`:
the question's scoring words, one worker), once with the default schedule and once with
``Schedule(graded=True)``, until its first grid meeting the question or ``--seconds``. Prints a
Markdown table of seconds and proposals to that grid (the kernel compiled first, outside the
timing), and the medians.
"""

from __future__ import annotations

import argparse
import statistics
import time

from exactgrid.question import Question, checklist_question, choose_checklist
from exactgrid.solving.fitting import first_grid_search
from exactgrid.solving.search import Schedule, warm_up

QUESTIONS: dict[str, tuple[str, ...]] = {
    "M8 PA 4C NOCAL": ("M8", "PA", "4C", "NOCAL"),
    "M8 4C NOCAL C2C": ("M8", "4C", "NOCAL", "C2C"),
    "PA M8 NOCAL C2C": ("PA", "M8", "NOCAL", "C2C"),
    "20S PA 4C NOCAL C2C": ("20S", "PA", "4C", "NOCAL", "C2C"),
}
"""Award sets with a grid in instances/records/altered_states_2.toml (so each can be found)."""


def first_grid(question: Question, graded: bool, seed: int, seconds: float) -> tuple[float | None, int]:
    """Seconds to the first grid meeting ``question`` (None: none in ``seconds``), and proposals scored."""
    began = time.monotonic()
    found = first_grid_search(question, seconds, workers=1, seed=seed, schedule=Schedule(graded=graded))
    taken = time.monotonic() - began
    return (taken if found.best is not None else None), found.stats.proposals


def main() -> None:
    """Run every question, seed and schedule; print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3])
    parser.add_argument("--seconds", type=float, default=60.0)
    args = parser.parse_args()
    warm_up()
    print("| awards | seed | default: s | default: proposals | graded: s | graded: proposals |")
    print("|---|---:|---:|---:|---:|---:|")
    times: dict[bool, list[float]] = {False: [], True: []}
    for name, awards in QUESTIONS.items():
        question = checklist_question(Question(), choose_checklist(None, awards))
        for seed in args.seeds:
            cells = []
            for graded in (False, True):
                seconds, proposals = first_grid(question, graded, seed, args.seconds)
                times[graded].append(args.seconds if seconds is None else seconds)
                cells += ["none" if seconds is None else f"{seconds:.1f}", f"{proposals:,}"]
            print(f"| {name} | {seed} | " + " | ".join(cells) + " |", flush=True)
    for graded in (False, True):
        print(f"\n{'graded' if graded else 'default'}: median {statistics.median(times[graded]):.1f} s "
              f"(a question with no grid counts as {args.seconds:g} s)")


if __name__ == "__main__":
    main()
