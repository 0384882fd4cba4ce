"""Families of cuts the counting relaxation lacks, tested on its optimum before one is built.

    python tools/cut_families.py density --shape 5x5
    python tools/cut_families.py classes --shape 5x5 --seconds 600
    python tools/cut_families.py blocks --shape 5x5 --seconds 600 --keep 12

Each family is a fact every grid meets, from the board's shape alone.

``density``: any k cells of a board have at most f(k) adjacent pairs among them (counted here over every
set of cells, 2^cells of them: 11 s on 5x5). In a grid, the distinct letter pairs among a set
S of letters lie on the edges among S's cells, so they number at most f(cells holding S). The
script solves the relaxation of the all-state question (HiGHS, neighbour capacity on, as
``bound`` does), and for each k asks HiGHS for the set of letters holding at most k cells with
the most of the optimum's pairs among them. A line marked VIOLATED would be a cut the
relaxation lacks; none means the family cannot lower the bound at its first round.

``classes``: a letter pair the grid holds sits on some edge whose cells have degrees (d1, d2)
(corner 3, side 5, middle 8 on a king board), and a letter's cells of degree d1 have at most
(their number) x (the most neighbours of degree d2 any such cell has) distinct neighbouring
letters through such edges; there are only so many edges of each kind (on 5x5: 20 middle-middle,
28 side-middle, 12 side-side, 8 corner-side, 4 corner-middle). The script first asks whether
the relaxation's optimum can give each of its pairs a kind of edge within those limits (a small
HiGHS model), then adds the family to the relaxation (a variable per pair and kind of edge:
which kind realises it) and solves it again, printing the new optimum or HiGHS's bounds at the
time limit.

``blocks``: on a king board every edge lies in a block, four cells each beside the other three (a
2x2 window; 16 on 5x5). So the letter pairs a grid holds on adjacent cells, needed or not, are
exactly those of its blocks' letter multisets; there are at most 16 such multisets, each within
the letter counts; a letter lies in no more of them than the blocks its cells lie in (1 for a
corner, 2 for a side, 4 for a middle cell); and there are no more held pairs than edges. The
script asks whether the relaxation's optimum, with its letter counts per degree and its pairs,
can be so covered (a small HiGHS model), then adds the family to the relaxation (``b[Q]`` per
multiset Q; with ``--keep N`` only the N letters with the most pairs in the optimum stay apart
and the rest are read as one class, which keeps every fact true on fewer multisets) and solves
it again.
"""

from __future__ import annotations

import argparse
import itertools
import time
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass

import highspy
import numpy as np

from exactgrid.backends import get_backend
from exactgrid.geometry import Board
from exactgrid.prove.counting import OTHER, CountingModel, _Builder, counting_model
from exactgrid.question import build_question


def densest(board: Board) -> list[int]:
    """``f[k]``: the most adjacent pairs among any k cells of ``board``, by brute force."""
    n = board.size
    higher = [sum(1 << d for d in board.neighbours[c] if d > c) for c in range(n)]
    most = np.zeros(n + 1, dtype=np.int64)
    chunk = 1 << 20
    for start in range(0, 1 << n, chunk):
        masks = np.arange(start, min(start + chunk, 1 << n), dtype=np.int64)
        cells = np.zeros(len(masks), dtype=np.int64)
        edges = np.zeros(len(masks), dtype=np.int64)
        for c in range(n):
            inside = (masks >> c) & 1
            cells += inside
            edges += inside * _popcount(masks & higher[c])
        np.maximum.at(most, cells, edges)
    return most.tolist()


def _popcount(x: np.ndarray) -> np.ndarray:
    count = np.zeros(len(x), dtype=np.int64)
    x = x.copy()
    while (nonzero := x != 0).any():
        count += nonzero
        x &= x - 1
    return count


def most_pairs(counts: dict[str, int], pairs: list[tuple[str, str]], k: int) -> tuple[int, str]:
    """The most of ``pairs`` among letters holding at most ``k`` cells, and those letters."""
    letters = sorted(a for a, c in counts.items() if c)
    h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    chosen = {a: h.addBinary() for a in letters}
    among = {p: h.addBinary() for p in pairs}
    for (a, b), var in among.items():
        h.addConstr(var <= chosen[a])
        h.addConstr(var <= chosen[b])
    h.addConstr(sum(counts[a] * chosen[a] for a in letters) <= k)
    h.maximize(sum(among.values()))
    return round(h.getInfo().objective_function_value), "".join(a for a in letters if h.val(chosen[a]) > 0.5)


def edge_kinds(board: Board) -> tuple[Counter[tuple[int, int]], dict[tuple[int, int], int]]:
    """The edges of each kind (d1 <= d2: the degrees of their cells), and for each (d1, d2) the
    most neighbours of degree d2 any cell of degree d1 has."""
    degree = [len(board.neighbours[c]) for c in range(board.size)]
    kinds: Counter[tuple[int, int]] = Counter()
    for a, b in board.edges:
        d1, d2 = sorted((degree[a], degree[b]))
        kinds[d1, d2] += 1
    most: dict[tuple[int, int], int] = {}
    for c in range(board.size):
        around = Counter(degree[d] for d in board.neighbours[c])
        for d2 in set(degree):
            most[degree[c], d2] = max(most.get((degree[c], d2), 0), around[d2])
    return kinds, most


Way = tuple[tuple[str, str], int, int]
"""A pair on a kind of edge: (the pair, the degree of its first letter's cell, of its second's)."""


@dataclass
class ClassRows:
    """The ``classes`` family over some pairs, as rows of ways (each backend makes them its own)."""

    ways: dict[tuple[str, str], list[Way]]
    """Each pair's ways: a pair held takes exactly one."""
    kinds: list[tuple[list[Way], int]]
    """The ways on each kind of edge, and how many edges of that kind the board has."""
    ends: list[tuple[Counter[Way], str, int, int]]
    """(ways, letter, d1, d2): the ways reaching letter's cells of degree d1 from cells of degree
    d2 (a doubled pair on two cells of one degree counts twice), at most ``most[d1, d2]`` per
    such cell."""
    most: dict[tuple[int, int], int]


def class_rows(board: Board, pairs: Iterable[tuple[str, str]]) -> ClassRows:
    """The ``classes`` family's rows for ``pairs`` (a <= b) on ``board``."""
    kinds, most = edge_kinds(board)
    degrees = sorted({len(board.neighbours[c]) for c in range(board.size)})
    ways = {(a, b): [((a, b), d1, d2) for d1 in degrees for d2 in degrees
                     if most[d1, d2] and not (a == b and d1 > d2)] for a, b in pairs}
    every = [way for options in ways.values() for way in options]
    kind_rows = [([w for w in every if tuple(sorted(w[1:])) == kind], edges) for kind, edges in kinds.items()]
    reaching: dict[tuple[str, int, int], Counter[Way]] = {}
    for way in every:
        (a, b), d1, d2 = way
        reaching.setdefault((a, d1, d2), Counter())[way] += 1
        reaching.setdefault((b, d2, d1), Counter())[way] += 1
    ends = [(reaching[key], *key) for key in sorted(reaching)]
    return ClassRows(ways, kind_rows, ends, most)


def add_classes(builder: _Builder, relaxation: CountingModel) -> int:
    """Add the ``classes`` family to a built relaxation; the number of variables it adds."""
    model = builder.model
    rows = class_rows(builder.board, relaxation.pairs)
    var = {way: model.new_var(f"k[{''.join(way[0])},{way[1]},{way[2]}]") for options in rows.ways.values()
           for way in options}
    for pair, options in rows.ways.items():
        model.add_linear([var[w] for w in options] + [relaxation.pairs[pair]], [1] * len(options) + [-1], "==", 0)
    for ways, edges in rows.kinds:
        model.add_linear([var[w] for w in ways], None, "<=", edges)
    for ways, letter, d1, d2 in rows.ends:
        cells = builder.counts[letter, d1]
        model.add_linear([var[w] for w in ways] + [v for v, _ in cells],
                         list(ways.values()) + [-rows.most[d1, d2] * w for _, w in cells], "<=", 0)
    return len(var)


def classes_met(builder: _Builder, relaxation: CountingModel, true_vars: frozenset[int]) -> bool:
    """Whether a solution of the relaxation meets the ``classes`` family: its letter counts as
    they are, its pairs each given a kind of edge within the family's rows."""
    held = [pair for pair, v in relaxation.pairs.items() if v in true_vars]
    rows = class_rows(builder.board, held)
    h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    var = {way: h.addBinary() for options in rows.ways.values() for way in options}
    for options in rows.ways.values():
        h.addConstr(sum(var[w] for w in options) == 1)
    for ways, edges in rows.kinds:
        if ways:
            h.addConstr(sum(var[w] for w in ways) <= edges)
    for ways, letter, d1, d2 in rows.ends:
        cells = sum(w for v, w in builder.counts[letter, d1] if v in true_vars)
        h.addConstr(sum(n * var[w] for w, n in ways.items()) <= rows.most[d1, d2] * cells)
    h.run()
    return h.getModelStatus() == highspy.HighsModelStatus.kOptimal


def board_blocks(board: Board) -> tuple[list[tuple[int, ...]], dict[int, int]]:
    """The board's blocks (four cells, each beside the other three: the 2x2 windows of a king
    board), and for each cell degree the most blocks a cell of that degree lies in. Raises
    ValueError when some edge lies in no block (the ``blocks`` family does not hold there)."""
    around = [set(n) for n in board.neighbours]
    blocks = [cells for cells in itertools.combinations(range(board.size), 4)
              if all(y in around[x] for x, y in itertools.combinations(cells, 2))]
    if not all(any(u in block and v in block for block in blocks) for u, v in board.edges):
        raise ValueError("some edge of this board lies in no block")
    member = Counter(c for block in blocks for c in block)
    most: dict[int, int] = {}
    for c in range(board.size):
        most[len(around[c])] = max(most.get(len(around[c]), 0), member[c])
    return blocks, most


def block_pairs(letters: tuple[str, ...]) -> set[tuple[str, str]]:
    """The letter pairs a block holding ``letters`` (four, in the classes' order) puts on
    adjacent cells, each in that order."""
    return set(itertools.combinations(letters, 2))


@dataclass
class BlockRows:
    """The ``blocks`` family over some classes of letters, as rows (each backend makes them its own)."""

    times: dict[tuple[str, ...], Counter[str]]
    """Each multiset a block may hold (four classes, in their order), and how often each class is in it."""
    pairs: dict[tuple[str, ...], set[tuple[str, str]]]
    """Each multiset's pairs (:func:`block_pairs`)."""
    covering: dict[tuple[str, str], list[tuple[str, ...]]]
    """Each pair of classes (in their order): the multisets holding it."""


def block_rows(classes: list[str], most_cells: Callable[[str], int] = lambda _: 4) -> BlockRows:
    """The ``blocks`` family's rows over ``classes``, each class in at most ``most_cells(c)`` cells."""
    times = {}
    for letters in itertools.combinations_with_replacement(classes, 4):
        counted = Counter(letters)
        if all(n <= most_cells(c) for c, n in counted.items()):
            times[letters] = counted
    pairs = {letters: block_pairs(letters) for letters in times}
    covering: dict[tuple[str, str], list[tuple[str, ...]]] = {
        (a, b): [] for i, a in enumerate(classes) for b in classes[i:] if most_cells(a) >= 1 + (a == b)}
    for letters, inside in pairs.items():
        for pair in inside:
            covering[pair].append(letters)
    return BlockRows(times, pairs, covering)


WILD = "*"
"""The ``blocks`` family's one class for every letter it does not keep apart."""


def add_blocks(builder: _Builder, relaxation: CountingModel, keep: Iterable[str] | None = None) -> int:
    """Add the ``blocks`` family to a built relaxation; the number of variables it adds.

    The letters outside ``keep`` (default: keep all) are read as one class, :data:`WILD`: a grid
    read so is still a grid of the coarser letters, so every fact below still holds, on fewer
    variables. ``b[Q]``: some block holds the letters Q (four, a multiset over the classes);
    each of Q's pairs is then held, every held pair lies in some such Q, at most as many Q as
    blocks, Q within the letter counts, a class in no more Q than the blocks its cells lie in,
    and no more distinct held pairs (needed or not) than edges."""
    model = builder.model
    before = model.num_vars
    blocks, most = board_blocks(builder.board)
    every = [*builder.letters, OTHER]
    wanted = set(every if keep is None else keep)
    kept = [a for a in every if a in wanted]
    classes = kept + ([WILD] if len(kept) < len(every) else [])
    rank = {c: i for i, c in enumerate(classes)}
    read = {a: (a if a in wanted else WILD) for a in every}
    cells = {c: [(v, w, d) for a in every if read[a] == c for d in builder.degrees for v, w in builder.counts[a, d]]
             for c in classes}
    at_least = {}
    for c in classes:
        for k in range(1, 5):
            if (c, k) in builder.at_least:
                at_least[c, k] = builder.at_least[c, k]
                continue
            var = at_least[c, k] = model.new_var(f"g[{c},{k}]")
            model.add_linear([v for v, _, _ in cells[c]] + [var], [w for _, w, _ in cells[c]] + [-k], ">=", 0)
    rows = block_rows(classes)
    held = {pair: relaxation.pairs.get(pair) or model.new_var(f"h[{pair[0]},{pair[1]}]") for pair in rows.covering}
    for (a, b), var in relaxation.pairs.items():
        model.add_clause([-var, held[tuple(sorted((read[a], read[b]), key=rank.__getitem__))]])
    chosen = {letters: model.new_var(f"b[{''.join(letters)}]") for letters in rows.times}
    uses: dict[str, list[tuple[int, int]]] = {c: [] for c in classes}
    for letters, var in chosen.items():
        for pair in rows.pairs[letters]:
            model.add_clause([-var, held[pair]])
        for c, times in rows.times[letters].items():
            model.add_clause([-var, at_least[c, times]])
            uses[c].append((var, times))
    model.add_linear(list(chosen.values()), None, "<=", len(blocks))
    model.add_linear(list(held.values()), None, "<=", len(builder.board.edges))
    for pair, var in held.items():
        covering = [chosen[letters] for letters in rows.covering[pair]]
        model.add_linear([*covering, var], [1] * len(covering) + [-1], ">=", 0)
    for c in classes:
        room = [(v, -most[d] * w) for v, w, d in cells[c]]
        model.add_linear([v for v, _ in uses[c] + room], [w for _, w in uses[c] + room], "<=", 0)
    return model.num_vars - before


def blocks_met(board: Board, cells: dict[tuple[str, int], int], pairs: Iterable[tuple[str, str]],
               seconds: float = 60.0) -> bool | None:
    """Whether letters holding ``cells[letter, degree]`` cells of each degree, with ``pairs``
    (a <= b) on adjacent cells, meet the ``blocks`` family: some held pairs, ``pairs`` among them
    and no more than the edges, covered by at most as many letter multisets as the board has
    blocks, each within the counts, each letter in no more of them than its cells' blocks.
    Every grid's own counts and pairs meet it. None when HiGHS does not decide in ``seconds``."""
    blocks, most = board_blocks(board)
    counts: Counter[str] = Counter()
    room: Counter[str] = Counter()
    for (a, degree), n in cells.items():
        counts[a] += n
        room[a] += most[degree] * n
    rows = block_rows(sorted(a for a, n in counts.items() if n), counts.__getitem__)
    h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    h.setOptionValue("time_limit", float(seconds))
    held = {pair: h.addBinary() for pair in rows.covering}
    for pair in pairs:
        if pair not in held:
            return False
        h.addConstr(held[pair] == 1)
    h.addConstr(sum(held.values()) <= len(board.edges))
    chosen = {letters: h.addBinary() for letters in rows.times}
    uses: dict[str, list] = {}
    for letters, var in chosen.items():
        for pair in rows.pairs[letters]:
            h.addConstr(var <= held[pair])
        for a, times in rows.times[letters].items():
            uses.setdefault(a, []).append(times * var)
    h.addConstr(sum(chosen.values()) <= len(blocks))
    for pair, var in held.items():
        h.addConstr(sum(chosen[letters] for letters in rows.covering[pair]) >= var)
    for a, terms in uses.items():
        h.addConstr(sum(terms) <= room[a])
    h.run()
    status = h.getModelStatus()
    if status == highspy.HighsModelStatus.kInfeasible:
        return False
    return True if status == highspy.HighsModelStatus.kOptimal else None


def blocks(question, seconds: float, keep: int | None) -> None:
    """The ``blocks`` family: the relaxation, then the relaxation with the family (keeping apart
    the ``keep`` letters its optimum holds with the most pairs, or every letter)."""
    builder = _Builder(question, tight=True, capacity=True)
    relaxation = builder.build(objective=True)
    began = time.monotonic()
    result = get_backend("highs").solve(relaxation.model, time_limit=seconds)
    true_vars = result.true_vars or frozenset()
    print(f"relaxation: {result.status.name} {result.objective:,} in {time.monotonic() - began:.1f} s", flush=True)
    began = time.monotonic()
    classes = [*builder.letters, OTHER]
    cells = {(a, d): sum(w for v, w in builder.counts[a, d] if v in true_vars)
             for a in classes for d in builder.degrees}
    held = [pair for pair, var in relaxation.pairs.items() if var in true_vars]
    met = blocks_met(builder.board, cells, held, seconds)
    verdict = {True: "meets", False: "breaks", None: "is not decided against"}[met]
    print(f"its optimum {verdict} the family ({time.monotonic() - began:.1f} s)", flush=True)
    kept = None
    if keep is not None:
        degree = Counter(a for pair, var in relaxation.pairs.items() if var in true_vars for a in pair)
        kept = [a for a, _ in degree.most_common(keep)]
        print(f"keeping apart {''.join(sorted(kept))}", flush=True)
    added = add_blocks(builder, relaxation, kept)
    began = time.monotonic()
    result = get_backend("highs").solve(relaxation.model, time_limit=seconds)
    print(f"with the family ({added:,} variables more, {relaxation.model.num_vars:,} in all): "
          f"{result.status.name}, best solution {_number(result.objective)}, bound {_number(result.bound)} "
          f"in {time.monotonic() - began:.1f} s")


def _number(value: int | None) -> str:
    return "none" if value is None else f"{value:,}"


def density(question, seconds: float) -> None:
    """The ``density`` family on the relaxation's optimum."""
    began = time.monotonic()
    f = densest(question.board)
    print(f"f = {f} ({time.monotonic() - began:.1f} s)", flush=True)
    relaxation = counting_model(question, objective=True, capacity=True)
    began = time.monotonic()
    result = get_backend("highs").solve(relaxation.model, time_limit=seconds)
    true_vars = result.true_vars or frozenset()
    counts = relaxation.cell_counts(true_vars)
    pairs = [p for p, var in relaxation.pairs.items() if var in true_vars]
    print(f"relaxation: {result.status.name} {result.objective:,} in {time.monotonic() - began:.1f} s; "
          f"{sum(counts.values())} cells of "
          f"{sum(1 for c in counts.values() if c)} letters, {len(pairs)} distinct pairs", flush=True)
    violated = 0
    for k in range(2, question.board.size + 1):
        most, letters = most_pairs(counts, pairs, k)
        mark = "  VIOLATED" if most > f[k] else ""
        violated += bool(mark)
        print(f"k={k:2d}: {most:3d} pairs among {letters} (f = {f[k]}){mark}", flush=True)
    print(f"{violated} of {question.board.size - 1} sizes violated")


def classes(question, seconds: float) -> None:
    """The ``classes`` family: met by the relaxation's optimum? Then the relaxation with it."""
    builder = _Builder(question, tight=True, capacity=True)
    relaxation = builder.build(objective=True)
    began = time.monotonic()
    result = get_backend("highs").solve(relaxation.model, time_limit=seconds)
    met = classes_met(builder, relaxation, result.true_vars or frozenset())
    print(f"relaxation: {result.status.name} {result.objective:,} in {time.monotonic() - began:.1f} s; "
          f"its optimum {'meets' if met else 'breaks'} the family", flush=True)
    added = add_classes(builder, relaxation)
    began = time.monotonic()
    result = get_backend("highs").solve(relaxation.model, time_limit=seconds)
    print(f"with the family ({added:,} variables more, {relaxation.model.num_vars:,} in all): "
          f"{result.status.name}, best solution {result.objective:,}, bound {result.bound:,} "
          f"in {time.monotonic() - began:.1f} s")


def main() -> int:
    """Test one family (see the module's docstring)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("family", choices=("density", "classes", "blocks"))
    parser.add_argument("--shape", default="5x5")
    parser.add_argument("--seconds", type=float, default=300.0, help="HiGHS's time for each relaxation")
    parser.add_argument("--keep", type=int, default=None,
                        help="blocks: keep apart only this many letters (the rest one class)")
    args = parser.parse_args()
    question = build_question(optional=["all"], shape=args.shape, allow_empty=True)
    if args.family == "blocks":
        blocks(question, args.seconds, args.keep)
    else:
        {"density": density, "classes": classes}[args.family](question, args.seconds)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
