"""Jane Street's "Sum of Squares" (January 2014), for any n from 1 to :data:`MAX_N`.

The rules: fill an n x n grid with digits 0-9. The n-digit number read along row i (1-based,
left to right, leading zeros allowed) must be divisible by i; the number read down column j
(top to bottom) by n + j. Maximise the sum of all the digits. The puzzle's own n = 5 has the
optimum 205 (``98999/99998/79899/99896/89890``); its example ``16235/52460/04893/24868/47030``
is valid with sum 100.

Two methods that share nothing but the rules, and a referee that shares nothing with either:

* :func:`check_grid` reads each row and column as an integer and divides (plain arithmetic).
* ``"ilp"``: a 0-1 integer programme (:func:`build_model`) solved through the project's
  backends (CBC by default; HiGHS, CP-SAT, the SAT solvers). Digit literals ``x[i][j][v]``
  (v = 1..9, at most one per cell; none true is the digit 0); objective ``sum v * x``. The
  number ``sum_p 10^p * d_p`` is divisible by k when ``sum_p sum_v ((v * 10^p) mod k) * x_pv
  = k * q`` for a whole q >= 0, written in binary literals (weights ``-k * 2^b``). Reducing
  every coefficient modulo k keeps them below k (the raw place values reach 10^(n-1)), so the
  LP relaxation stays tight; how much that helps the backends, against ``v * (10^p mod k)``
  and raw place values: measured in docs/benchmarks.md, section Puzzles.
* ``"dp"``: an exact dynamic programme (:func:`solve_dp`) over the cells in column-major order.
  Its state is the remainder of every row number read so far and of the current column. A row
  i whose digits up to column j are read as R only needs R modulo ``i / gcd(i, 10^e)``, e the
  number of columns still to come (the rest of R is a multiple of i once shifted left e
  places), so rows 2, 4, 5, 8, 10 cost nothing until their last digits, and a row or column
  is dropped from the state (remainder 0 enforced) once its last digit is placed. The largest
  state table has 60 entries at n = 5, 81,648 at n = 9, 7.2 million at n = 12 (how long each
  n takes: measured in docs/benchmarks.md, section Puzzles).

:func:`solve_sum_of_squares` is the front door: one call, one time limit, an answer
(:class:`SumSquaresAnswer`) that meets the contract of :mod:`exactgrid.answer`.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np

from ..answer import DEFAULT_TIME_LIMIT, Answer, OnProgress, Outcome
from ..backends import Result, Status, backend_name, get_backend
from ..backends.base import solver_died
from ..inputs import InputError, plain_int
from ..model import BoolModel
from ..stopping import interruption
from ..wording import plural
from .clock import Clock

MIN_N = 1
MAX_N = 12
"""The largest n accepted: what the exact DP proves in seconds on a small machine. Its largest
table has 7.2 million entries at n = 12, 101 million at n = 13 and 763 million at n = 14, so
n >= 13 is refused rather than left to exhaust memory. Time and memory per n, and how far
each backend's ILP gets: measured in docs/benchmarks.md, section Puzzles."""

METHODS = ("ilp", "dp", "both")
DEFAULT_BACKEND = "cbc"

Method = Literal["ilp", "dp", "both"]
Digits = str | Sequence[str] | Sequence[int] | Sequence[Sequence[int]]
"""A grid as :func:`parse_digits` reads it: ``"98/98"``, ``["98", "98"]``, ``[98, 98]``
(row numbers, zero-padded to n digits) or ``[[9, 8], [9, 8]]``."""


class SumSquaresInputError(InputError):
    """A Sum of Squares question or grid that cannot be understood (one line)."""


# --------------------------------------------------------------------------- the rules


def row_divisor(i: int) -> int:
    """The divisor of row ``i`` (1-based): ``i``."""
    return i


def column_divisor(n: int, j: int) -> int:
    """The divisor of column ``j`` (1-based) of an ``n`` x ``n`` grid: ``n + j``."""
    return n + j


def check_n(n: Any) -> int:
    """``n`` as an int if it is a whole number (numpy's too) from :data:`MIN_N` to :data:`MAX_N`;
    else SumSquaresInputError."""
    n = plain_int(n)
    if isinstance(n, bool) or not isinstance(n, int) or not MIN_N <= n <= MAX_N:
        raise SumSquaresInputError(f"n must be a whole number from {MIN_N} to {MAX_N}, got {n!r}")
    return n


def parse_digits(digits: Digits, n: int) -> tuple[tuple[int, ...], ...]:
    """The grid as n rows of n digits; SumSquaresInputError (one line) when it is not one.

    Accepts a string of rows separated by ``/``, ``,`` or white space (or n*n digits in a
    row), a sequence of row strings, a sequence of n row numbers (zero-padded to n digits, as
    the seed writes ``04893`` as ``4893``), or a sequence of n sequences of digits.
    """
    n = check_n(n)
    if digits is None or isinstance(digits, bytes) or not isinstance(digits, str | Iterable):
        raise SumSquaresInputError(f"a grid is rows of digits ('12/34') or a list of rows, "
                                   f"got {type(digits).__name__}")
    if isinstance(digits, str):
        parts = digits.replace("/", " ").replace(",", " ").split()
        if len(parts) == 1 and len(parts[0]) == n * n:
            parts = [parts[0][k * n:(k + 1) * n] for k in range(n)]
        rows: list[Any] = parts
    else:
        rows = list(digits)
    if len(rows) != n:
        raise SumSquaresInputError(f"a {n}x{n} grid needs {n} rows, got {len(rows)}")
    return tuple(_parse_row(row, n, k + 1) for k, row in enumerate(rows))


def _parse_row(row: Any, n: int, number: int) -> tuple[int, ...]:
    if isinstance(row, bool):
        raise SumSquaresInputError(f"row {number} is not digits: {row!r}")
    if isinstance(row, int):
        if not 0 <= row < 10 ** n:
            raise SumSquaresInputError(f"row {number} is not a number of at most {n} digits: {row!r}")
        row = str(row).zfill(n)
    if isinstance(row, str):
        if len(row) != n or not all(ch in "0123456789" for ch in row):
            raise SumSquaresInputError(f"row {number} must be {n} digits 0-9, got {row!r}")
        return tuple(int(ch) for ch in row)
    cells = list(row)
    if len(cells) != n or any(isinstance(d, bool) or not isinstance(d, int) or not 0 <= d <= 9 for d in cells):
        raise SumSquaresInputError(f"row {number} must be {n} digits 0-9, got {row!r}")
    return tuple(cells)


def violations(digits: Digits, n: int) -> list[str]:
    """Which rules a grid breaks, one phrase each (``"row 3 = 4893 is not divisible by 3"``); empty if none."""
    grid = parse_digits(digits, n)
    found = []
    for i in range(1, n + 1):
        number = int("".join(str(d) for d in grid[i - 1]))
        if number % row_divisor(i):
            found.append(f"row {i} = {number} is not divisible by {row_divisor(i)}")
    for j in range(1, n + 1):
        number = int("".join(str(grid[i][j - 1]) for i in range(n)))
        if number % column_divisor(n, j):
            found.append(f"column {j} = {number} is not divisible by {column_divisor(n, j)}")
    return found


def check_grid(digits: Digits, n: int) -> bool:
    """Whether a grid keeps every rule: each row and column number divisible by its divisor.

    Independent of both solvers: it reads the numbers with ``int`` and divides. A grid that is
    not n x n digits raises SumSquaresInputError rather than returning False.
    """
    return not violations(digits, n)


def digit_sum(digits: Digits, n: int | None = None) -> int:
    """The sum of all digits of a grid in any form :func:`parse_digits` reads.

    ``n`` defaults to the number of rows given (for one string without separators, the
    square root of its length).
    """
    if n is None:
        if isinstance(digits, str):
            parts = digits.replace("/", " ").replace(",", " ").split()
            n = math.isqrt(len(parts[0])) if len(parts) == 1 else len(parts)
        else:
            n = len(digits)
    return sum(sum(row) for row in parse_digits(digits, n))


def grid_rows(grid: Sequence[Sequence[int]]) -> tuple[str, ...]:
    """Rows of digits as strings: ``((9, 8), (9, 8))`` -> ``("98", "98")``."""
    return tuple("".join(str(d) for d in row) for row in grid)


# --------------------------------------------------------------------------- method 1: the ILP


@dataclass(frozen=True)
class SumSquaresModel:
    """The 0-1 programme of an n x n puzzle and how to read its answer."""

    n: int
    model: BoolModel
    digit_lits: tuple[tuple[tuple[int, ...], ...], ...]
    """``digit_lits[i][j][v - 1]`` (0-based cell, v = 1..9): the literal "cell (i, j) holds v"."""
    divisibility: tuple[tuple[str, int], ...]
    """(constraint name, divisor) of every divisibility row of the model."""

    def grid(self, true_vars: frozenset[int] | set[int]) -> tuple[tuple[int, ...], ...]:
        """The digits an assignment gives (0 where no digit literal of the cell is true)."""
        return tuple(tuple(next((v + 1 for v, lit in enumerate(cell) if lit in true_vars), 0) for cell in row)
                     for row in self.digit_lits)


def reduced_weights(place: int, divisor: int) -> tuple[int, ...]:
    """``(v * place) mod divisor`` for v = 1..9: the literal weights of one digit in a divisibility row."""
    return tuple(v * place % divisor for v in range(1, 10))


def _add_divisibility(model: BoolModel, cells: Sequence[tuple[int, ...]], divisor: int, name: str) -> bool:
    """Add ``number(cells) = divisor * q`` with every weight reduced modulo ``divisor``.

    ``cells`` holds each digit's nine literals, most significant digit first. Returns False
    (and adds nothing) when the divisor divides every term, as for row 1.
    """
    lits: list[int] = []
    weights: list[int] = []
    largest = 0
    for position, cell in enumerate(cells):
        place = pow(10, len(cells) - 1 - position, divisor)
        cell_weights = reduced_weights(place, divisor)
        for lit, weight in zip(cell, cell_weights, strict=True):
            if weight:
                lits.append(lit)
                weights.append(weight)
        largest += max(cell_weights)
    if not lits:
        return False
    quotient_max = largest // divisor
    for bit in range(quotient_max.bit_length()):
        lits.append(model.new_var(f"q[{name}][{bit}]"))
        weights.append(-divisor * 2 ** bit)
    model.add_linear(lits, weights, "==", 0, name)
    return True


def build_model(n: int) -> SumSquaresModel:
    """The n x n puzzle as a :class:`~exactgrid.model.BoolModel`: one-hot digits, divisibility
    rows with coefficients reduced modulo their divisor, objective the digit sum."""
    n = check_n(n)
    model = BoolModel()
    lits = tuple(tuple(tuple(model.new_var(f"d[{i + 1},{j + 1}]={v}") for v in range(1, 10)) for j in range(n))
                 for i in range(n))
    for i in range(n):
        for j in range(n):
            model.at_most_one(lits[i][j], f"cell {i + 1},{j + 1}")
    rows: list[tuple[str, int]] = []
    for i in range(1, n + 1):
        name = f"row {i} mod {row_divisor(i)}"
        if _add_divisibility(model, lits[i - 1], row_divisor(i), name):
            rows.append((name, row_divisor(i)))
    for j in range(1, n + 1):
        name = f"column {j} mod {column_divisor(n, j)}"
        if _add_divisibility(model, [lits[i][j - 1] for i in range(n)], column_divisor(n, j), name):
            rows.append((name, column_divisor(n, j)))
    objective = [lit for row in lits for cell in row for lit in cell]
    model.maximise(objective, [v for _ in range(n * n) for v in range(1, 10)])
    return SumSquaresModel(n, model, lits, tuple(rows))


@dataclass(frozen=True)
class MethodResult:
    """What one method found: the grid (empty if none), its sum, whether it is proven, the bound,
    and what interrupted it (``Ctrl-C``, ``SIGTERM``, ``SIGHUP``) or None."""

    grid: tuple[tuple[int, ...], ...]
    total: int | None
    proven: bool
    bound: int | None
    seconds: float
    how: str
    stopped_by: str | None = None


def solve_ilp(n: int, backend: str | None = None, time_limit: float | None = DEFAULT_TIME_LIMIT,
              seed: int = 0, on_progress: OnProgress | None = None) -> MethodResult:
    """Solve the ILP of :func:`build_model` with a backend that can optimise (CBC by default).

    Proven only when the backend says OPTIMAL; when ``time_limit`` (wall-clock seconds from the
    call, None: none) runs out, the best grid it found (if any) and the bound it proved (if it
    reports one: HiGHS and CP-SAT do, CBC does not). Ctrl-C (or a stop signal) ends it with no
    grid (the backend's incumbent is lost with it). ``on_progress`` hears when the model goes
    to the backend.
    """
    name = backend_name(backend, DEFAULT_BACKEND)
    solver = get_backend(name)
    if "optimise" not in solver.capabilities:
        raise SumSquaresInputError(f"backend {name!r} cannot optimise; `exactgrid backends` lists those that can")
    clock = Clock.start("sumsquares", time_limit, on_progress)
    try:
        built = build_model(n)
        size = f"{built.model.num_vars} binaries, {len(built.model.linear)} rows"
        clock.tell(f"ILP on {name}: {size}")
        result = solver.solve(built.model, time_limit=clock.left(), seed=seed)
    except KeyboardInterrupt as exc:  # Ctrl-C or a stop signal: the backend's incumbent is lost with it
        stopped_by = interruption(exc)
        return MethodResult((), None, False, None, clock.elapsed(),
                            f"ILP via {name}: interrupted ({stopped_by}) before an answer", stopped_by)
    seconds = clock.elapsed()
    if result.status == Status.UNSAT:
        raise AssertionError(f"{name} calls the {n}x{n} puzzle infeasible, but the all-zero grid keeps every rule")
    if not result.found or result.true_vars is None:
        return MethodResult((), None, False, result.bound, seconds,
                            f"ILP ({size}) via {name}: no grid {_why_none(clock, result)} "
                            f"({result.detail or result.status.value})")
    grid = built.grid(result.true_vars)
    proven = result.status == Status.OPTIMAL
    bound = result.objective if proven else result.bound
    verdict = "proved optimal" if proven else f"best found at the time limit, bound {_text(bound)}"
    return MethodResult(grid, result.objective, proven, bound, seconds, f"ILP ({size}) via {name}: {verdict}")


def _why_none(clock: Clock, result: Result) -> str:
    """Why a backend gave no grid although the all-zero grid keeps every rule: its time ran out
    (the solver's own words, CBC's "Not Solved", say no more), unless its process died (the
    detail then says how)."""
    timed_out = clock.time_limit is not None and not solver_died(result)
    return "found before the time limit ran out" if timed_out else "found"


# --------------------------------------------------------------------------- method 2: the DP

_UNREACHABLE = -30000
"""Value of a state no partial grid reaches (stays negative after adding at most 9 * 144)."""


def row_modulus(divisor: int, columns_left: int) -> int:
    """How much of a row's prefix R matters when ``columns_left`` digits are still to come:
    ``R * 10^e`` mod ``divisor`` depends only on R mod ``divisor / gcd(divisor, 10^e)``."""
    return divisor // math.gcd(divisor, 10 ** columns_left)


@dataclass(frozen=True)
class _Step:
    """One cell of the DP: which axes change, their old and new sizes, and the moduli used."""

    row: int
    column: int
    row_modulus: int
    """Modulus of the row's remainder after this digit (its final divisor in the last column)."""
    row_final: bool
    column_modulus: int
    column_final: bool


def _steps(n: int, j: int) -> list[_Step]:
    """The n cells of column ``j`` (0-based), top to bottom."""
    return [_Step(i, j, row_modulus(row_divisor(i + 1), n - 1 - j), j == n - 1,
                  column_divisor(n, j + 1), i == n - 1) for i in range(n)]


def _forward(values: np.ndarray, step: _Step) -> np.ndarray:
    """Place one digit: the best digit sum of every state after the cell, from ``values`` before it.

    Axis ``step.row`` holds the row's remainder, the last axis the column's. A remainder r
    becomes ``(10 r + d) mod m``; when the digit is the row's (or column's) last, only
    remainder 0 survives and the axis shrinks to size 1.
    """
    axes = (step.row, values.ndim - 1)
    source = np.moveaxis(values, axes, (0, 1))
    rows_out = 1 if step.row_final else step.row_modulus
    cols_out = 1 if step.column_final else step.column_modulus
    out = np.full((rows_out, cols_out, *source.shape[2:]), _UNREACHABLE, dtype=values.dtype)
    for r in range(source.shape[0]):
        for c in range(source.shape[1]):
            block = source[r, c, ...]
            if block.max() < 0:
                continue
            for d in range(10):
                r2, c2 = (10 * r + d) % step.row_modulus, (10 * c + d) % step.column_modulus
                if (step.row_final and r2) or (step.column_final and c2):
                    continue
                target = out[r2, c2, ...]
                np.maximum(target, block + d, out=target)
    return np.ascontiguousarray(np.moveaxis(out, (0, 1), axes))


def _backward(before: np.ndarray, after: np.ndarray, state: tuple[int, ...],
              step: _Step) -> tuple[tuple[int, ...], int]:
    """A state before the cell and a digit that lead to ``state`` after it with its best value."""
    col_axis = before.ndim - 1
    for d in range(9, -1, -1):
        for r in range(before.shape[step.row]):
            for c in range(before.shape[col_axis]):
                r2, c2 = (10 * r + d) % step.row_modulus, (10 * c + d) % step.column_modulus
                if step.row_final:
                    if r2:
                        continue
                    r2 = 0
                if step.column_final:
                    if c2:
                        continue
                    c2 = 0
                if (r2, c2) != (state[step.row], state[col_axis]):
                    continue
                previous = list(state)
                previous[step.row], previous[col_axis] = r, c
                if before[tuple(previous)] >= 0 and before[tuple(previous)] + d == after[state]:
                    return tuple(previous), d
    raise AssertionError("DP backtrack found no predecessor")  # a bug, never an answer


def _column(start: np.ndarray, n: int, j: int) -> list[np.ndarray]:
    """The tables of column ``j``: the one at its start, then one after each of its n cells."""
    tables = [start]
    for step in _steps(n, j):
        tables.append(_forward(tables[-1], step))
    return tables


@dataclass
class _Forward:
    """Where the DP's forward pass is: the table after the cells placed so far (the next one is
    row ``i`` of column ``j``), the table at the start of each column done, the largest table."""

    n: int
    table: np.ndarray
    starts: list[np.ndarray]
    largest: int = 1
    i: int = 0
    j: int = 0

    def bound(self) -> int:
        """A proven upper bound on the sum: the best table value plus 9 for every cell to come."""
        return int(self.table.max()) + 9 * (self.n * self.n - self.j * self.n - self.i)


def solve_dp(n: int, time_limit: float | None = None, on_progress: OnProgress | None = None) -> MethodResult:
    """The exact optimum by dynamic programming over the cells (see the module docstring).

    The forward pass keeps the table at the start of each column; the grid is read back
    column by column from the right, recomputing that column's tables. If ``time_limit``
    (wall-clock seconds from the call; None: none) runs out during the forward pass, no grid
    is returned, only a bound: the best table value plus 9 for every cell not yet placed. So
    does Ctrl-C (or a stop signal). ``on_progress`` hears of each column (``bound``: that bound).
    """
    n = check_n(n)
    clock = Clock.start("sumsquares", time_limit, on_progress)
    at = _Forward(n, np.zeros((1,) * (n + 1), dtype=np.int16), [])
    try:
        for j in range(n):
            at.starts.append(at.table)
            at.i, at.j = 0, j
            clock.tell(f"DP: column {j + 1} of {n} ({plural(at.table.size, 'state')})", "round",
                       bound=at.bound(), done=j, total=n)
            for i, step in enumerate(_steps(n, j)):
                at.i = i
                if clock.out_of_time():
                    return MethodResult((), None, False, at.bound(), clock.elapsed(),
                                        f"DP: stopped at cell {at.i + 1},{at.j + 1} after {clock.time_limit:g} s")
                at.table = _forward(at.table, step)
                at.largest = max(at.largest, at.table.size)
        at.i, at.j = 0, n  # every cell placed: the bound is the optimum
        grid = _read_back(at)
    except KeyboardInterrupt as exc:  # the table before the cell being placed still bounds the sum
        stopped_by = interruption(exc)
        where = f"at cell {at.i + 1},{at.j + 1}" if at.j < n else "while reading the grid back"
        return MethodResult((), None, False, at.bound(), clock.elapsed(), f"DP: interrupted ({stopped_by}) {where}",
                            stopped_by)
    total = int(at.table[(0,) * (n + 1)])
    how = f"exact DP over the {n * n} cells (largest table {at.largest:,} states): proved optimal"
    return MethodResult(grid, total, True, total, clock.elapsed(), how)


def _read_back(at: _Forward) -> tuple[tuple[int, ...], ...]:
    """The optimal grid, read back column by column from the right after the forward pass."""
    n = at.n
    state = (0,) * (n + 1)
    digits = [[0] * n for _ in range(n)]
    for j in range(n - 1, -1, -1):
        tables = _column(at.starts[j], n, j)
        for i, step in reversed(list(enumerate(_steps(n, j)))):
            state, digits[i][j] = _backward(tables[i], tables[i + 1], state, step)
    return tuple(tuple(row) for row in digits)


# --------------------------------------------------------------------------- the answer


@dataclass(frozen=True)
class SumSquaresAnswer(Answer):
    """The answer to one Sum of Squares question; its grid has been checked by :func:`check_grid`.

    ``outcome`` (:class:`~exactgrid.answer.Outcome`): OPTIMAL for a grid proven optimal,
    FEASIBLE for the best grid found without that proof (with ``bound`` when one was proven),
    UNKNOWN when no grid was found (``bound`` may still say how high the sum can go).
    """

    n: int
    grid: tuple[str, ...]
    """The rows as digit strings (empty when no grid was found)."""
    total: int | None
    status: str
    """``"optimal"`` (proven), ``"best found"`` (not proven), or ``"none"`` (no grid found)."""
    how: str
    bound: int | None
    """The proven upper bound on the sum (the total when optimal; None when nothing was proven)."""
    seconds: float
    method: str = "dp"
    backend: str | None = None
    stopped_by: str | None = None
    """What interrupted the work (``Ctrl-C``, ``SIGTERM``, ``SIGHUP``), or None."""

    @property
    def outcome(self) -> Outcome:  # type: ignore[override]
        """OPTIMAL, FEASIBLE or UNKNOWN: :attr:`status` in the contract's words."""
        return STATUS_OUTCOMES[self.status]

    @property
    def proven(self) -> bool:
        """Whether the total is proven optimal."""
        return self.status == "optimal"

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready, stable keys: the contract's (outcome, seconds, stopped_by, exit_code), then
        n, status, total, bound, grid, method, backend, how."""
        return {**self.contract_dict(), "n": self.n, "status": self.status, "total": self.total,
                "bound": self.bound, "grid": list(self.grid), "method": self.method, "backend": self.backend,
                "how": self.how}

    def text(self) -> str:
        """The answer as ``exactgrid sumsquares`` prints it: the grid as a block of digits, the
        sum with its status, and how it was found."""
        lines = [" ".join(row) for row in self.grid]
        if self.status == "none":
            lines.append(f"no grid found (bound {_text(self.bound)})")
        elif self.status == "optimal":
            lines.append(f"sum {self.total} (optimal)")
        else:
            lines.append(f"sum {self.total} (best found; bound {_text(self.bound)})")
        lines.append(f"how: {self.how}")
        return "\n".join(lines)


STATUS_OUTCOMES = {"optimal": Outcome.OPTIMAL, "best found": Outcome.FEASIBLE, "none": Outcome.UNKNOWN}
""":attr:`SumSquaresAnswer.status` -> its outcome."""


def _text(value: int | None) -> str:
    return "unknown" if value is None else str(value)


def _answer(n: int, found: MethodResult, method: str, backend: str | None, seconds: float) -> SumSquaresAnswer:
    """The answer of one method's result, after checking its grid independently."""
    if found.grid:
        if not check_grid(found.grid, n) or digit_sum(found.grid, n) != found.total:
            raise AssertionError(f"{method} returned a grid that breaks the rules or misstates its sum: {found.grid}")
        status = "optimal" if found.proven else "best found"
    else:
        status = "none"
    return SumSquaresAnswer(n, grid_rows(found.grid), found.total, status, found.how, found.bound, seconds,
                            method, backend, found.stopped_by)


def _agree(n: int, dp: MethodResult, ilp: MethodResult, backend: str) -> str:
    """Check two methods against each other; the one line saying how they agree. AssertionError if not."""
    if dp.proven and ilp.proven:
        if dp.total != ilp.total:
            raise AssertionError(f"n={n}: the DP proves {dp.total} but {backend} proves {ilp.total}")
        return f"DP and ILP via {backend} both prove {dp.total}"
    for a, b, a_name, b_name in ((dp, ilp, "the DP", backend), (ilp, dp, backend, "the DP")):
        if a.proven and a.total is not None and b.total is not None and b.total > a.total:
            raise AssertionError(f"n={n}: {b_name} found {b.total}, above the optimum {a.total} {a_name} proves")
        if a.total is not None and b.bound is not None and b.bound < a.total:
            raise AssertionError(f"n={n}: {b_name} bounds the sum by {b.bound}, below {a.total} found by {a_name}")
    return f"DP {'proves ' + str(dp.total) if dp.proven else 'stopped, no grid'}; {ilp.how}"


def solve_sum_of_squares(n: int, method: Method = "both", backend: str | None = None,
                         time_limit: float | None = DEFAULT_TIME_LIMIT, seed: int = 0,
                         on_progress: OnProgress | None = None) -> SumSquaresAnswer:
    """The largest digit sum of an n x n Sum of Squares grid, with a grid that reaches it.

    ``method``: ``"dp"`` (exact dynamic programme), ``"ilp"`` (integer programme through
    ``backend``, default ``"cbc"``), or ``"both"``: the DP, then the ILP in the time left, and
    the DP's answer after checking that the two agree (AssertionError if they disagree on a
    proven optimum, or if one finds a grid above the other's proven optimum or bound).
    ``time_limit``: wall-clock seconds from the call for everything (None: no limit).
    ``on_progress(event)`` hears of each DP column (``bound``: the sum can go no higher) and of
    the ILP's start. Ctrl-C (or a stop signal) ends the work with the answer so far
    (``stopped_by``). Raises :class:`SumSquaresInputError` for n outside 1..MAX_N, an unknown
    method or a bad time limit, and :class:`~exactgrid.backends.BackendError` for a backend
    that is unknown or not installed.
    """
    clock = Clock.start("sumsquares", time_limit, on_progress)
    n = check_n(n)
    if method not in METHODS:
        raise SumSquaresInputError(f"method must be one of {', '.join(METHODS)}, got {method!r}")
    name = backend_name(backend, DEFAULT_BACKEND)
    if method == "dp" and backend is not None:
        raise SumSquaresInputError(f"the dynamic programme uses no backend; --backend {backend} goes with "
                                   "--method ilp or both")
    try:
        return _run(n, method, name, seed, clock)
    except KeyboardInterrupt as exc:  # between the methods' own answers to an interruption
        stopped_by = interruption(exc)
        stopped = MethodResult((), None, False, None, 0.0, f"interrupted ({stopped_by}) before an answer", stopped_by)
        return _answer(n, stopped, method, None if method == "dp" else name, clock.elapsed())


def _run(n: int, method: str, name: str, seed: int, clock: Clock) -> SumSquaresAnswer:
    """:func:`solve_sum_of_squares` on checked input."""
    on_progress = clock.on_progress
    clock.tell({"dp": "the dynamic programme", "ilp": f"the ILP on {name}",
                "both": f"the dynamic programme, then the ILP on {name}"}[method])
    # the methods are called positionally (tests replace them with stand-ins taking *args)
    if method == "dp":
        return _answer(n, solve_dp(n, clock.left(), on_progress), "dp", None, clock.elapsed())
    if method == "ilp":
        return _answer(n, solve_ilp(n, name, clock.left(), seed, on_progress), "ilp", name, clock.elapsed())
    dp = solve_dp(n, clock.left(), on_progress)
    if dp.stopped_by:  # interrupted: the ILP is not started
        return _answer(n, dp, "both", name, clock.elapsed())
    left = clock.left()
    if left is not None and left <= 0:
        ilp = MethodResult((), None, False, None, 0.0, f"ILP via {name}: not started (the time limit ran out)")
    else:
        ilp = solve_ilp(n, name, left, seed, on_progress)
    _answer(n, ilp, "ilp", name, 0.0)  # checks the ILP's grid too
    how = _agree(n, dp, ilp, name)
    best = dp if dp.proven or ilp.total is None or (dp.total or -1) >= ilp.total else ilp
    bounds = [b for b in (dp.bound, ilp.bound) if b is not None]
    bound = min(bounds) if bounds else None
    merged = MethodResult(best.grid, best.total, dp.proven or ilp.proven, bound, 0.0, how, ilp.stopped_by)
    return _answer(n, merged, "both", name, clock.elapsed())
