"""Can one 5x5 grid earn all seven Altered States 2 awards? Run the strategy end to end and print
a Markdown report.

    python tools/seven_awards.py --minutes 30

The seven: 20S 200M PA M8 4C NOCAL C2C (exactgrid/data/awards.toml). Four phases share the time:

1. **search**: ``solve`` with all seven awards as hard constraints, one worker, in rounds of
   different seeds (the later rounds start from the closest grid so far); every round's best
   grid, or the grid that came closest, is kept as a near miss;
2. **neighbourhoods**: exact award-aware neighbourhoods of the near misses (and of the known
   award grids), asked with all seven awards by ``fit`` (:mod:`exactgrid.solving.neighbourhoods`):
   first around what each grid lacks when that is one or two states
   (:func:`~exactgrid.solving.neighbourhoods.lacking`: free the cells of one nearest walk of
   each, keep the rest), then keep the cells
   spelling some of the hard words (the M states, the Four Corners, Pennsylvania) and free
   10-13 others;
3. **six awards**: ``solve`` for every six of the seven that keep M8;
4. **chain split**: the exact sub-question M8 + PA + 4C + NOCAL + C2C, split by chain prefix
   (:func:`exactgrid.awards.chain_steps`): every C2C chain without California starts in Oregon
   or Washington, so refuting every prefix of the tree would refute the seven.

Every grid shown is re-scored by the finder and judged by the checklist (``exactgrid check``);
every refutation says what backs it. One core throughout (``--workers 1``, fit without its
counting child). Timings in the report are wall seconds with the process's CPU seconds.
"""

from __future__ import annotations

import argparse
import resource
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from itertools import combinations

from exactgrid.api import check
from exactgrid.awards import chain_steps, default_checklist, east_coast, west_coast
from exactgrid.fitting import fit
from exactgrid.grid import parse_grid
from exactgrid.question import Question, Verdict, checklist_question, choose_checklist
from exactgrid.solving import solve
from exactgrid.solving.neighbourhoods import around_walks, explore, keep_sets, lacking
from exactgrid.stopping import is_interruption

SEVEN = ("20S", "200M", "PA", "M8", "4C", "NOCAL", "C2C")
KNOWN_GRIDS = {
    "6 awards, docs/benchmarks.md": "DNSCHAIOAIVLRUMYKAEWSSNTP",
    "M8 + PA + 4C + NOCAL + 20S, docs/benchmarks.md": "LMCHCDOISARNSPTIANETLVMWE",
    "closest to seven, solve seed 1, 10 min": "MIHTMGACSIROSNPLINEAVADTU",
    "M8 + 4C + NOCAL + C2C + 20S (no PA), a 25 s seven-award round": "AHMDNTCIAOAOSRLPSNEMIATTW",
    "20S + PA + 4C + NOCAL + C2C, M8 but MASSACHUSETTS, 7 min six-award solve": "MANAVRICSLGOSIPLANEMHDTNW",
    "20S + 200M + PA + M8 + C2C, NEWMEXICO 2 letters away, a graded solve": "FIRYLLOSAMCANSIHIENTUMPTA",
    "20S + PA + M8 + NOCAL + C2C, NEWMEXICO 2 letters away, a graded solve": "APTTUIYESHLNSICDANOMMIREL",
    "20S + 200M + M8 + 4C + C2C, no PA, a six-award solve": "LIDYLAORAWCSNEMHISNTPMATU",
}
"""Grids known before this run: starting points of the neighbourhoods."""

AROUND_AT_MOST = 2
"""Neighbourhoods around what a grid lacks only when it lacks at most this many states (one
nearest walk of each: their product grows fast)."""


def cpu_seconds() -> float:
    """CPU seconds of this process and its finished children."""
    own, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


@dataclass(frozen=True)
class Judged:
    """A grid as the finder scores it and the full award checklist judges it."""

    grid: str
    score: int
    states: int
    awards: tuple[str, ...]
    source: str

    @property
    def seven(self) -> tuple[str, ...]:
        """The seven awards it earns."""
        return tuple(a for a in SEVEN if a in self.awards)


def judge(grid: str, source: str, water_borders: bool = False) -> Judged:
    """``grid`` re-scored by the finder and checked against the award checklist (C2C over the
    water-only borders too when ``water_borders``)."""
    answer = check(grid, water_borders=water_borders)
    passed = tuple(r.key for r in answer.checklist.items if r.passed)
    return Judged(grid, answer.score.total, len(answer.score.words), passed, source)


def hard_words() -> tuple[str, ...]:
    """The states the required awards among the seven name (M8, 4C, PA)."""
    items = default_checklist().select(SEVEN).items
    return tuple(s for item in items if item.kind == "required" for s in item.states)


def seven_question(awards: Iterable[str] = SEVEN, required: Iterable[str] = ()) -> Question:
    """The fit question of ``awards`` (default: all seven), with ``required`` states added."""
    return checklist_question(Question(required=tuple(required)), choose_checklist(None, tuple(awards)))


@dataclass
class Clock:
    """The run's deadline and its phases' shares."""

    began: float
    minutes: float
    stopped_by: str | None = None
    """Ctrl-C (or a stop signal) that ended an answer: every phase then ends, and the report
    shows what was done."""

    def until(self, share_end: float) -> float:
        """Seconds left until ``share_end`` (a fraction of the whole run) has passed (none once
        an interruption ended an answer)."""
        if self.stopped_by is not None:
            return 0.0
        return self.began + share_end * self.minutes * 60 - time.monotonic()

    def heard(self, stopped_by: str | None) -> None:
        """Note what stopped an answer, when it was an interruption."""
        if is_interruption(stopped_by):
            self.stopped_by = stopped_by


# --------------------------------------------------------------------------- 1. search


@dataclass
class SearchLog:
    """What the search rounds found."""

    rounds: list[tuple[int, float, float, Judged]] = field(default_factory=list)
    """(seed, wall seconds, CPU seconds, best or closest grid) per round."""


def search_phase(clock: Clock, end: float, round_seconds: float) -> SearchLog:
    """Rounds of ``solve`` with all seven awards until ``end``; each round's best or closest grid."""
    log = SearchLog()
    seed, start = 1, None
    while (left := clock.until(end)) > 20:
        wall, cpu = time.monotonic(), cpu_seconds()
        answer = solve(awards=SEVEN, time_limit=min(round_seconds, left), workers=1, seed=seed, start=start)
        clock.heard(answer.stopped_by)
        grid = answer.check.grid.letters if answer.check is not None else answer.closest
        if grid is None:
            break
        kind = "seven awards" if answer.check is not None else "closest"
        judged = judge(grid, f"solve seed {seed} ({kind})" + (", from the closest so far" if start else ""))
        log.rounds.append((seed, time.monotonic() - wall, cpu_seconds() - cpu, judged))
        best = max((r[3] for r in log.rounds), key=lambda j: (len(j.seven), j.score))
        start = best.grid if seed % 2 == 1 else None  # alternate: from the closest so far, then afresh
        seed += 1
    return log


# --------------------------------------------------------------------------- 2. neighbourhoods


@dataclass
class NeighbourhoodLog:
    """What the exact neighbourhoods answered."""

    asked: int = 0
    refuted: int = 0
    unknown: int = 0
    fits: list[Judged] = field(default_factory=list)
    by_grid: dict[str, tuple[int, int, int]] = field(default_factory=dict)
    """grid: (asked, refuted, unknown)."""
    wall: float = 0.0
    cpu: float = 0.0


def neighbourhood_phase(clock: Clock, end: float, grids: list[Judged], free: tuple[int, int],
                        per_question: float, backend: str) -> NeighbourhoodLog:
    """Exact neighbourhoods of ``grids`` (best first, round robin over the grids: first the
    cells around what each lacks, then its keep sets) until ``end``, with all seven awards;
    stops at the first grid that fits."""
    log = NeighbourhoodLog()
    wall, cpu = time.monotonic(), cpu_seconds()
    question, hard = seven_question(), hard_words()
    checklist = default_checklist().select(SEVEN)
    queues: list[tuple[Judged, list[tuple[str, ...] | frozenset[int]]]] = []
    for g in grids:
        grid = parse_grid(g.grid)
        lacks = lacking(grid, checklist)
        around = around_walks(grid, lacks) if 0 < len(lacks) <= AROUND_AT_MOST else []
        queues.append((g, [*around, *keep_sets(grid, hard, free, seed=7)]))
    index = 0
    while clock.until(end) > per_question and any(q for _, q in queues) and not log.fits:
        grid, queue = queues[index % len(queues)]
        index += 1
        if not queue:
            continue
        area = queue.pop(0)
        if isinstance(area, frozenset):
            answer, _ = explore(question, parse_grid(grid.grid), (), backend, per_question, free=area)
        else:
            answer, _ = explore(question, parse_grid(grid.grid), area, backend, per_question)
        clock.heard(answer.stopped_by)
        asked, refuted, unknown = log.by_grid.get(grid.grid, (0, 0, 0))
        log.asked += 1
        if answer.verdict == Verdict.FITS:
            log.fits.append(judge(answer.grid.letters, f"neighbourhood of {grid.grid}"))
        elif answer.verdict == Verdict.DOES_NOT_FIT:
            log.refuted, refuted = log.refuted + 1, refuted + 1
        else:
            log.unknown, unknown = log.unknown + 1, unknown + 1
        log.by_grid[grid.grid] = (asked + 1, refuted, unknown)
    log.wall, log.cpu = time.monotonic() - wall, cpu_seconds() - cpu
    return log


# --------------------------------------------------------------------------- 3. six awards


def six_phase(clock: Clock, end: float) -> list[tuple[tuple[str, ...], Judged | None, float, float]]:
    """``solve`` for every six of the seven awards that keep M8, the time until ``end`` shared
    evenly: (awards asked, best grid or None, wall seconds, CPU seconds)."""
    sixes = [six for six in combinations(SEVEN, 6) if "M8" in six]
    share = clock.until(end) / len(sixes)
    out = []
    for six in sixes:
        seconds = min(share, clock.until(end))
        if seconds < 10:
            out.append((six, None, 0.0, 0.0))
            continue
        wall, cpu = time.monotonic(), cpu_seconds()
        answer = solve(awards=six, time_limit=seconds, workers=1, seed=11)
        clock.heard(answer.stopped_by)
        best = judge(answer.check.grid.letters, "solve " + " ".join(six)) if answer.check is not None else None
        out.append((six, best, time.monotonic() - wall, cpu_seconds() - cpu))
    return out


# --------------------------------------------------------------------------- 4. chain split


def chain_phase(clock: Clock, end: float, per_question: float, backend: str,
                certify: bool) -> list[tuple[tuple[str, ...], str, str]]:
    """The chain tree of M8 + PA + 4C + NOCAL breadth first until ``end``: (prefix, verdict,
    what backs it). A refuted prefix cuts its subtree; a fitting one is extended."""
    awards = ("PA", "M8", "4C", "NOCAL")
    ends, avoid = east_coast(), ("CALIFORNIA",)
    queue: list[tuple[str, ...]] = [(s,) for s in chain_steps((), west_coast(), ends, avoid)]
    out = []
    while queue and clock.until(end) > per_question:
        prefix = queue.pop(0)
        answer = fit(seven_question(awards, prefix), backend, per_question, counting=False, certify=certify)
        clock.heard(answer.stopped_by)
        backing = answer.backend
        if answer.verdict == Verdict.DOES_NOT_FIT:
            certificate = answer.certificate
            backing = certificate.text() if certificate is not None else f"{answer.backend}, not certified"
        elif answer.verdict == Verdict.FITS:
            backing = f"grid {answer.grid.letters} (checked by the finder)"
            queue += [(*prefix, s) for s in chain_steps(prefix, west_coast(), ends, avoid)]
        out.append((prefix, answer.verdict.value, backing))
    out += [(prefix, "not asked", "time") for prefix in queue]
    return out


# --------------------------------------------------------------------------- report


def grid_row(j: Judged) -> str:
    """One Markdown table row for a judged grid."""
    missing = ", ".join(a for a in SEVEN if a not in j.awards) or "none"
    return f"| `{j.grid}` | {j.score:,} | {j.states} | {' '.join(j.seven)} ({len(j.seven)}) | {missing} | {j.source} |"


GRID_HEADER = ("| grid | score (finder) | states | of the seven | missing | from |\n"
               "|---|---:|---:|---|---|---|")


def records(search: SearchLog, near: NeighbourhoodLog,
            sixes: list[tuple[tuple[str, ...], Judged | None, float, float]]) -> list[str]:
    """Markdown lines: the best grid of the run for each set of six or more of the seven that
    includes M8 (no such grid was known before)."""
    grids = [r[3] for r in search.rounds] + near.fits + [best for _, best, _, _ in sixes if best]
    best: dict[tuple[str, ...], Judged] = {}
    for j in grids:
        if len(j.seven) < 6 or "M8" not in j.seven:
            continue
        if j.seven not in best or j.score > best[j.seven].score:
            best[j.seven] = j
    lines = ["", "Records (six or more of the seven, with M8):", ""]
    if not best:
        return [*lines, "none"]
    return [*lines, GRID_HEADER, *(grid_row(j) for j in sorted(best.values(), key=lambda j: -j.score))]


def report(args: argparse.Namespace, search: SearchLog, near: NeighbourhoodLog,
           sixes: list[tuple[tuple[str, ...], Judged | None, float, float]],
           chains: list[tuple[tuple[str, ...], str, str]], wall: float, cpu: float) -> str:
    """The run as Markdown."""
    lines = [f"# Seven awards: {' '.join(SEVEN)}", "",
             f"`python tools/seven_awards.py --minutes {args.minutes:g} --backend {args.backend}` "
             f"({wall:.0f} s wall, {cpu:.0f} CPU-s, one core)", ""]
    winners = [r[3] for r in search.rounds if len(r[3].seven) == 7] + near.fits
    lines += ["**Verdict: " + (f"a grid earns all seven: `{winners[0].grid}`" if winners else
                               "open: no grid with all seven found, and no refutation") + "**", ""]
    lines += ["## 1. Search: solve with all seven awards", "", GRID_HEADER]
    lines += [grid_row(j) + f" {w:.0f} s / {c:.0f} CPU-s" for _, w, c, j in search.rounds]
    lines += ["", "## 2. Exact neighbourhoods (fit, all seven: around what a grid lacks, then cells of some hard "
                  "words kept)", "",
              f"{near.asked} asked in {near.wall:.0f} s ({near.cpu:.0f} CPU-s), free cells "
              f"{args.free[0]}-{args.free[1]}, {args.question_seconds:g} s each, {args.backend}: "
              f"{near.refuted} DOES NOT FIT ({args.backend}'s UNSAT; a local refutation only, not certified), "
              f"{near.unknown} UNKNOWN, {len(near.fits)} FITS.", "",
              "| around grid | asked | does not fit | unknown |", "|---|---:|---:|---:|"]
    lines += [f"| `{g}` | {a} | {r} | {u} |" for g, (a, r, u) in near.by_grid.items()]
    if near.fits:
        lines += ["", GRID_HEADER, *map(grid_row, near.fits)]
    lines += ["", "## 3. Six of the seven, with M8 (solve, one worker)", "", GRID_HEADER]
    for six, best, w, c in sixes:
        lines.append(grid_row(best) + f" {w:.0f} s / {c:.0f} CPU-s" if best else
                     f"| none found | | | asked {' '.join(six)} | | {w:.0f} s / {c:.0f} CPU-s |")
    lines += records(search, near, sixes)
    lines += ["", "## 4. Chain split of M8 + PA + 4C + NOCAL + C2C (fit per chain prefix)", "",
              "| prefix (from the west coast) | verdict | backed by |", "|---|---|---|"]
    lines += [f"| {'-'.join(p)} | {v} | {b} |" for p, v, b in chains]
    return "\n".join(lines)


def main() -> None:
    """Parse the options, run the four phases, print the report."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=30.0, help="the whole run (default 30)")
    parser.add_argument("--backend", default="kissat", help="SAT backend of the fit questions (default kissat)")
    parser.add_argument("--round-seconds", type=float, default=150.0, help="one search round (default 150)")
    parser.add_argument("--question-seconds", type=float, default=20.0, help="one neighbourhood (default 20)")
    parser.add_argument("--chain-seconds", type=float, default=60.0, help="one chain prefix question (default 60)")
    parser.add_argument("--free", type=int, nargs=2, default=(10, 13), metavar=("MIN", "MAX"),
                        help="free cells of a neighbourhood (default 10 13)")
    parser.add_argument("--shares", type=float, nargs=4, default=(0.3, 0.35, 0.25, 0.1),
                        metavar=("SEARCH", "NEAR", "SIX", "CHAIN"), help="the phases' shares of the time")
    parser.add_argument("--certify", action="store_true", help="certify the chain split's refutations")
    args = parser.parse_args()
    clock = Clock(time.monotonic(), args.minutes)
    ends = [sum(args.shares[:i + 1]) / sum(args.shares) for i in range(4)]
    search = search_phase(clock, ends[0], args.round_seconds)
    found = [r[3] for r in search.rounds]
    known = [judge(g, source) for source, g in KNOWN_GRIDS.items()]
    pool = sorted({j.grid: j for j in found + known}.values(), key=lambda j: (-len(j.seven), -j.score))
    near = neighbourhood_phase(clock, ends[1], pool, tuple(args.free), args.question_seconds, args.backend)
    sixes = six_phase(clock, ends[2])
    chains = chain_phase(clock, ends[3], args.chain_seconds, args.backend, args.certify)
    if clock.stopped_by is not None:
        print(f"Stopped by {clock.stopped_by}: the report shows what was done until then.\n")
    print(report(args, search, near, sixes, chains, time.monotonic() - clock.began, cpu_seconds()))


if __name__ == "__main__":
    main()
