"""Exact neighbourhoods by letter domains: each cell of a near miss may take only some letters,
and SAT decides whether any grid within those domains earns a set of awards (or a score).

The neighbourhoods of ``award_neighbourhoods.py`` fix most cells and free 4-13; these fix no
cell and narrow every one instead, so whole words may slide, swap and merge:

* ``--shuffle R``: each cell may take any letter the grid holds within R moves of it (R = 1:
  its own letter or a neighbour's); ``--also K`` frees K random cells besides (``--tries N``
  draws N sets of them per grid);
* ``--cross``: each cell takes the letter of grid A or of grid B turned by one of the board's
  symmetries, for every pair of the grids given and every symmetry: a crossover of two near
  misses that share no cells as they stand.

    python tools/domain_neighbourhoods.py --awards 20S 200M PA M8 NOCAL C2C \\
        --grid VADNTLINETROSSPTACIULNMHT PINNPMASETVLRSTAIOIADNMCH --shuffle 1

``--awards`` takes award keys (all seven by default); ``--min-score N`` asks for a grid
scoring N or more instead (every state optional). ``--records`` adds every grid of
``instances/records/altered_states_2.toml``. One CaDiCaL session per run: the question is
encoded once and each neighbourhood's letter domains are assumptions
(``Encoding.domain_lits``), so what one neighbourhood teaches the solver carries to the next.
A grid found is re-checked by the finder against the question and judged by the checklist;
UNSAT is CaDiCaL's word (not certified) and rules out that neighbourhood only; UNKNOWN means
``--seconds`` ran out.
Prints one line per neighbourhood and a summary; exit 0 when a grid is found, else 1.
"""

from __future__ import annotations

import argparse
import random
import time
import tomllib
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import combinations
from pathlib import Path

from seven_awards import SEVEN, judge, seven_question

from exactgrid.backends import Status, get_backend
from exactgrid.encoding import Encoding, encode
from exactgrid.fitting.answer import verified_answer
from exactgrid.geometry import Board, cells_of
from exactgrid.grid import Grid, parse_grid
from exactgrid.question import Question
from exactgrid.stopping import interruption, stop_on_signals

RECORDS = Path(__file__).resolve().parents[1] / "instances" / "records" / "altered_states_2.toml"
ALPHABET = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
Domains = tuple[frozenset[str], ...]
"""The letters each cell may hold, by cell."""


def within(board: Board, cell: int, radius: int) -> set[int]:
    """The cells at most ``radius`` moves from ``cell`` (itself included), by the board's
    dilation (``Board.spread``)."""
    reached = 1 << cell
    for _ in range(radius):
        reached |= board.spread(reached)
    return set(cells_of(reached))


def shuffle_domains(grid: Grid, radius: int, free: Iterable[int] = ()) -> Domains:
    """Each cell: the letters ``grid`` holds within ``radius`` moves of it; a ``free`` cell: any.

    >>> d = shuffle_domains(parse_grid("abcdefghi"), 1, free=[8])
    >>> sorted(d[0]), sorted(d[4]) == sorted("ABCDEFGHI"), len(d[8])
    (['A', 'B', 'D', 'E'], True, 26)
    """
    free = set(free)
    return tuple(ALPHABET if cell in free else frozenset(grid.letters[c] for c in within(grid.board, cell, radius))
                 for cell in range(grid.board.size))


def cross_domains(first: Grid, second: str) -> Domains:
    """Each cell: ``first``'s letter or ``second``'s (a letter string on the same board)."""
    return tuple(frozenset({a, b}) for a, b in zip(first.letters, second, strict=True))


@dataclass
class Asked:
    """One neighbourhood's answer: ``verdict`` True (a grid), False (none), None (budget out)."""

    verdict: bool | None
    grid: str | None
    seconds: float


class DomainSession:
    """One question encoded once and one solver session on it (``Backend.open_session``);
    :meth:`ask` decides it within letter domains, passed as assumptions
    (``Encoding.domain_lits``).

    Not a ``FitSession``: that one makes the question's own requirements assumptions too (so
    that ``explain`` may lift them), a bigger model that was slower on the crux
    (docs/benchmarks.md, Seven awards).
    """

    def __init__(self, question: Question, backend: str = "cadical") -> None:
        self.question = question
        self.encoding: Encoding = encode(question)
        self.session = get_backend(backend).open_session(self.encoding.model)

    def ask(self, domains: Domains, seconds: float | None) -> Asked:
        """Whether a grid within ``domains`` meets the question, within ``seconds``; a grid
        found has been checked by the finder (``verified_answer``: VerificationError if not)."""
        held = {cell: "".join(sorted(letters)) for cell, letters in enumerate(domains) if letters != ALPHABET}
        assumptions = [lit for cell, letters in held.items() for lit in self.encoding.domain_lits(cell, letters)]
        result = self.session.solve(assumptions, seconds)
        if result.status == Status.UNKNOWN:
            return Asked(None, None, result.seconds)
        if result.status == Status.UNSAT:
            return Asked(False, None, result.seconds)
        asked = self.question.but(domains=held)
        grid = self.encoding.decode(result.true_vars or (), asked.cells)
        verified_answer(grid, result.backend, asked)
        return Asked(True, grid.letters, result.seconds)

    def close(self) -> None:
        """Free the solver."""
        self.session.close()


def neighbourhoods(grids: Sequence[str], args: argparse.Namespace) -> Iterator[tuple[str, Domains]]:
    """(label, domains) for every neighbourhood the arguments ask for, in order."""
    rng = random.Random(args.seed)
    parsed = [parse_grid(g) for g in grids]
    if args.cross:
        symmetries = parsed[0].board.symmetries
        for a, b in combinations(parsed, 2):
            for k, symmetry in enumerate(symmetries):
                yield f"{a.letters} x {b.letters} turned {k}", cross_domains(a, b.board.image(b.letters, symmetry))
        return
    for grid in parsed:
        for _ in range(args.tries):
            free = sorted(rng.sample(range(grid.board.size), args.also))
            label = f"{grid.letters} shuffle {args.shuffle}" + (f" free {' '.join(map(str, free))}" if free else "")
            yield label, shuffle_domains(grid, args.shuffle, free)


def ask_all(session: DomainSession, asked: Iterable[tuple[str, Domains]], seconds: float, end: float,
            tally: Counter[str]) -> bool:
    """Ask each neighbourhood until ``end`` (a monotonic time), printing a line each and
    counting the verdicts in ``tally``; whether one held a grid (it is printed, judged)."""
    found = False
    for label, domains in asked:
        if time.monotonic() > end:
            break
        answer = session.ask(domains, seconds)
        word = {True: "FITS", False: "DOES NOT FIT", None: "UNKNOWN"}[answer.verdict]
        tally[word] += 1
        print(f"{label}: {word} in {answer.seconds:.1f} s", flush=True)
        if answer.grid is not None:
            judged = judge(answer.grid, label)
            print(f"FITS: {judged.grid} {judged.score:,} ({judged.states} states) earns {' '.join(judged.awards)}",
                  flush=True)
            found = True
    return found


def main() -> int:
    """Ask every neighbourhood (or until the time is up); exit 0 when one holds a grid, else 1."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--awards", nargs="*", default=list(SEVEN), help="award keys (default: all seven)")
    parser.add_argument("--min-score", type=int, help="ask for this score instead of awards")
    parser.add_argument("--grid", nargs="*", default=[], help="near misses to start from")
    parser.add_argument("--records", action="store_true", help="add every grid of the records file")
    kind = parser.add_mutually_exclusive_group(required=True)
    kind.add_argument("--shuffle", type=int, metavar="R", help="each cell: the grid's letters within R moves")
    kind.add_argument("--cross", action="store_true", help="each cell: grid A's letter or grid B's, turned")
    parser.add_argument("--also", type=int, default=0, metavar="K", help="with --shuffle: K random cells free")
    parser.add_argument("--tries", type=int, default=1, help="with --shuffle: neighbourhoods per grid")
    parser.add_argument("--seconds", type=float, default=60.0, help="the time limit of one neighbourhood")
    parser.add_argument("--minutes", type=float, default=60.0)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    grids = list(args.grid)
    if args.records:
        with RECORDS.open("rb") as handle:
            grids += [g["grid"] for g in tomllib.load(handle)["grids"]]
    grids = list(dict.fromkeys(g.upper() for g in grids))
    if not grids:
        parser.error("no grid: give --grid or --records")
    if args.min_score is not None:
        question = Question(optional="all", min_score=args.min_score)
        asked_for = f"score >= {args.min_score:,}"
    else:
        question = seven_question(args.awards)
        asked_for = " ".join(args.awards)
    end = time.monotonic() + 60 * args.minutes
    began = time.monotonic()
    session = DomainSession(question)
    print(f"{asked_for}: {len(grids)} grids; {len(session.encoding.model.clauses):,} clauses "
          f"encoded in {time.monotonic() - began:.1f} s", flush=True)
    tally: Counter[str] = Counter()
    found = False
    try:
        with stop_on_signals():
            found = ask_all(session, neighbourhoods(grids, args), args.seconds, end, tally)
    except KeyboardInterrupt as exc:
        print(f"stopped by {interruption(exc)}")
    finally:
        session.close()
    print(f"{tally.total()} neighbourhoods in {time.monotonic() - began:.0f} s: "
          + ", ".join(f"{n} {word}" for word, n in tally.most_common()))
    return 0 if found else 1


if __name__ == "__main__":
    raise SystemExit(main())
