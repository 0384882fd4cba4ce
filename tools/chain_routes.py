"""Search an award question with a coast-to-coast chain one route at a time.

    python tools/chain_routes.py --awards PA M8 4C NOCAL C2C --seconds 30 --part 0 --parts 2

The graded search (``fit --local-search``) grades a missing required word by the letters it
lacks, but a chain only by how many states it lacks. This tool turns the chain into required
words: :func:`exactgrid.awards.chain_completions` lists every minimal set of states that,
added to the states the question requires, completes a chain (at most ``--most`` of them;
avoiding the states it forbids), and for each such *route* the graded search looks for a grid
holding the question's awards and the route's states, for ``--seconds``. Every grid that meets
the question counts: the route only guides the search.

Per route it prints one Markdown row: the route, and either the grid found (re-scored by the
finder and judged by the award checklist: ``exactgrid check``) or the grid that came closest
and the required states it lacks. ``--part K --parts N`` takes every N-th route from the K-th,
so that N processes, one core each, share the routes; ``--route`` picks routes by number and
``--start`` starts each search from a grid (a near miss of an earlier run). One worker; the
kernel compiles first, outside the timing.
"""

from __future__ import annotations

import argparse
import time

from exactgrid.api import check
from exactgrid.awards import chain_completions, default_checklist
from exactgrid.question import Question, checklist_question, choose_checklist
from exactgrid.solving.fitting import first_grid_search
from exactgrid.solving.search import warm_up
from exactgrid.stopping import interruption, raise_if_interrupted


def routes_of(awards: tuple[str, ...], most: int) -> tuple[tuple[str, ...], tuple[tuple[str, ...], ...]]:
    """The states the awards require, and every route (:func:`chain_completions`) from them,
    avoiding the states the awards forbid."""
    items = default_checklist().select(awards).items
    required = tuple(s for item in items if item.kind == "required" for s in item.states)
    forbidden = tuple(s for item in items if item.kind == "forbidden" for s in item.states)
    return required, chain_completions(required, avoid=forbidden, most=most)


def search_route(awards: tuple[str, ...], route: tuple[str, ...], seconds: float, seed: int,
                 start: str | None = None) -> tuple[bool, str | None, float]:
    """The graded search (from ``start``, if given) for a grid meeting ``awards`` and holding
    ``route``'s states: (met, the grid found or the closest one, seconds)."""
    question = checklist_question(Question(required=route), choose_checklist(None, awards))
    began = time.monotonic()
    found = first_grid_search(question, seconds, workers=1, seed=seed, start=start)
    taken = time.monotonic() - began
    raise_if_interrupted(found.stopped_by)  # Ctrl-C ends the tool, not only this route's search
    if found.best is not None:
        return True, str(found.best.grid), taken
    return False, None if found.closest is None else str(found.closest), taken


def main() -> None:
    """Search every route of this part; print a row per route and a summary."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--awards", nargs="+", default=["PA", "M8", "4C", "NOCAL", "C2C"])
    parser.add_argument("--seconds", type=float, default=30.0, help="search seconds per route")
    parser.add_argument("--most", type=int, default=6, help="at most this many states a route")
    parser.add_argument("--part", type=int, default=0)
    parser.add_argument("--parts", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--start", help="grid letters every route's search starts from")
    parser.add_argument("--route", type=int, nargs="+", help="search only these routes (numbers as listed)")
    args = parser.parse_args()
    awards = tuple(args.awards)
    required, routes = routes_of(awards, args.most)
    mine = [(i, r) for i, r in enumerate(routes)
            if i % args.parts == args.part and (args.route is None or i in args.route)]
    print(f"{len(routes)} routes for {' '.join(awards)} ({len(required)} required states); "
          f"this part searches {len(mine)}, {args.seconds:g} s each, seed {args.seed}\n", flush=True)
    warm_up()
    print("| # | route | s | grid | met | lacks (required) |")
    print("|---:|---|---:|---|---|---|", flush=True)
    met_any = []
    try:
        for i, route in mine:
            met, grid, taken = search_route(awards, route, args.seconds, args.seed, args.start)
            lacks, earned = "", ""
            if grid is not None:
                answer = check(grid, only=awards)
                earned = " ".join(r.key for r in answer.checklist.items if r.passed)
                lacks = " ".join(s for s in (*required, *route) if s not in answer.score.words)
                met = met and all(r.passed for r in answer.checklist.items)
                if met:
                    met_any.append(grid)
            print(f"| {i} | {' '.join(route)} | {taken:.1f} | `{grid}` | {'**all**' if met else earned} | {lacks} |",
                  flush=True)
    except KeyboardInterrupt as exc:
        print(f"\nstopped by {interruption(exc)}")
    print(f"\n{len(met_any)} of {len(mine)} routes gave a grid meeting {' '.join(awards)}"
          + (f": {', '.join(met_any)}" if met_any else ""))


if __name__ == "__main__":
    main()
