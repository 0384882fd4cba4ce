"""MIP backends: CBC (bundled with PuLP) and HiGHS (``highspy``).

Translation (:mod:`exactgrid.ilp_model`, shared with LP/MPS export): each model variable is a
binary; a clause is ``sum(lit) >= 1`` with a negative literal read as ``1 - x``; a linear
constraint keeps its weights; the objective is maximised.
Answers are read back by rounding (> 0.5) and then checked exactly by the base class, so a
MIP tolerance accident with large populations is caught rather than reported. Feasibility
tolerances are tightened to 1e-9 so that 40-million weights times the tolerance stay below 1.
"""

from __future__ import annotations

import math
import os
import subprocess
import sys
import time
import warnings
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import replace

from ..encoding import EncodingTimeout
from ..ilp_model import linear_terms, to_pulp
from ..model import BoolModel
from ..stopping import uncut_import
from .base import (
    Backend,
    ChildCall,
    Result,
    SolverDisagreement,
    Status,
    check_float_exact,
    check_result,
)


def _cbc_command(**options):
    """PuLP's bundled CBC. PuLP 3.3 calls PULP_CBC_CMD deprecated in favour of 4.x's separate
    ``pulp[cbc]``; 3.3.2 is pinned because it bundles CBC, so the warning is silenced here."""
    import pulp

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        return pulp.PULP_CBC_CMD(**options)


def _cbc_child(model: BoolModel, time_limit: float | None, seed: int) -> Iterator[tuple]:
    prob, xs = to_pulp(model)
    options = ["integerTolerance 1e-9", "primalTolerance 1e-9", f"randomCbcSeed {seed + 1}"]
    solver = _cbc_command(msg=False, timeLimit=time_limit, threads=1, gapRel=0, gapAbs=0.5, options=options)
    run_cbc(prob, solver)
    values = {v: (x.value() or 0) for v, x in xs.items()}
    yield ("done", prob.status, prob.sol_status, values)


def run_cbc(prob, solver) -> None:
    """Solve ``prob`` with PuLP's CBC command, the way ``prob.solve(solver)`` does, but leaving no
    file behind and no CBC outliving this process.

    The model and solution travel through anonymous in-memory files (``memfd``, Linux) that
    vanish with the last process holding them, whatever kills it; CBC is started with
    :func:`~exactgrid.backends._child.die_with_parent`. Elsewhere, PuLP's own temporary files
    are used and removed when CBC returns.
    """
    import pulp

    from ._child import die_with_parent

    if not hasattr(os, "memfd_create"):
        prob.solve(solver)
        return
    model_fd, solution_fd = os.memfd_create("exactgrid.mps"), os.memfd_create("exactgrid.sol")
    try:
        model_path, solution_path = (f"/proc/{os.getpid()}/fd/{fd}" for fd in (model_fd, solution_fd))
        variables, variable_names, constraint_names, _ = prob.writeMPS(model_path, rename=1)
        args = [solver.path, model_path, "-max", *(f"-{opt}" for opt in solver.options + solver.getOptions())]
        if solver.timeLimit is not None:
            args += ["-sec", str(solver.timeLimit)]
        args += ["-solve", "-printingOptions", "all", "-solution", solution_path]
        args = " ".join(args).split()  # options like "ratio 0" are two words
        subprocess.run(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL,
                       pass_fds=(model_fd, solution_fd), preexec_fn=die_with_parent, check=True)
        status, values, _, _, _, sol_status = solver.readsol_MPS(solution_path, prob, variables,
                                                                 variable_names, constraint_names)
        prob.assignVarsVals(values)
        prob.assignStatus(status, sol_status)
    except subprocess.CalledProcessError as exc:
        raise pulp.PulpSolverError(f"CBC exited with status {exc.returncode}") from None
    finally:
        os.close(model_fd)
        os.close(solution_fd)


class Cbc(Backend):
    """COIN-OR CBC as bundled with PuLP, run in a child process killed at the time limit."""

    name = "cbc"
    description = "CBC MIP (bundled with PuLP); child process killed at the limit"
    capabilities = frozenset({"decide", "optimise", "prove", "child-process"})
    floating_point = "CBC"
    install_hint = "pip install --force-reinstall 'pulp==3.3.2' (it bundles CBC)"

    def available(self) -> bool:
        """Whether PuLP's bundled (or a system) CBC is present."""
        try:

            return bool(_cbc_command(msg=False).available())
        except Exception:  # noqa: BLE001
            return False

    def version(self) -> str | None:
        """PuLP's version (CBC is the one it bundles)."""
        try:
            import pulp
        except ImportError:
            return None
        return f"PuLP {pulp.__version__} bundled CBC"

    def child_call(self, model: BoolModel, time_limit: float | None, seed: int) -> ChildCall:
        """PuLP and CBC in a child process (killed at the limit if CBC overruns its timeLimit);
        a model too large for its floating point is refused before
        (:meth:`~exactgrid.backends.base.Backend.accept`)."""
        return _cbc_child, (model, time_limit, seed)

    def read_child(self, model: BoolModel, messages: list[tuple], finished: bool) -> Result:
        """Read CBC's statuses: the solution status, not only the model status."""
        import pulp

        if not finished:
            return Result(Status.UNKNOWN, detail="time limit reached (CBC killed)")
        _, status, sol_status, values = messages[-1]
        if sol_status == pulp.LpSolutionInfeasible or status == pulp.LpStatusInfeasible:
            return Result(Status.UNSAT)
        if sol_status in (pulp.LpSolutionOptimal, pulp.LpSolutionIntegerFeasible):
            true_vars = frozenset(v for v, val in values.items() if val > 0.5)
            proven = sol_status == pulp.LpSolutionOptimal
            if model.objective is None:
                return Result(Status.SAT, true_vars=true_vars)
            return Result(Status.OPTIMAL if proven else Status.SAT, true_vars=true_vars,
                          detail="" if proven else "time limit reached")
        return Result(Status.UNKNOWN, detail=f"CBC: {pulp.LpStatus.get(status)} / {pulp.LpSolution.get(sol_status)}")


class Highs(Backend):
    """HiGHS MIP through ``highspy``, in a child process, with its own ``time_limit``."""

    name = "highs"
    description = "HiGHS MIP (highspy); its own time limit, in a child process"
    capabilities = frozenset({"decide", "optimise", "prove", "child-process"})
    floating_point = "HiGHS"
    install_hint = "pip install 'highspy>=1.8,<2' (exactgrid's base install brings it; reinstall it)"

    def available(self) -> bool:
        """Whether ``highspy`` imports. (No Ctrl-C or stop signal cuts the import short: one that
        did made the extension's import fail, and a SIGINT to ``bound`` read as HiGHS missing.)"""
        try:
            uncut_import("highspy")
        except ImportError:
            return False
        return True

    def version(self) -> str | None:
        """HiGHS's version, as the ``highspy`` package gives it (a ``Highs()`` object would print
        its banner on stdout, into ``exactgrid backends --json``)."""
        from importlib.metadata import PackageNotFoundError, version

        try:
            return f"HiGHS {version('highspy')}"
        except PackageNotFoundError:
            return None

    def child_call(self, model: BoolModel, time_limit: float | None, seed: int) -> ChildCall:
        """HiGHS in a child process, killed on Ctrl-C or SIGTERM at once: in-process, HiGHS
        can run on for seconds before its next interrupt check (docs/benchmarks.md, Signals).
        A model too large for its floating point is refused before
        (:meth:`~exactgrid.backends.base.Backend.accept`)."""
        return _highs_child, (model, time_limit, seed)

    def read_child(self, model: BoolModel, messages: list[tuple], finished: bool) -> Result:
        """The child's one message carries the Result itself."""
        if not finished:
            return Result(Status.UNKNOWN, detail="time limit reached (HiGHS killed)")
        return messages[-1][1]


def _highs_child(model: BoolModel, time_limit: float | None, seed: int) -> Iterator[tuple]:
    yield ("done", solve_highs(model, time_limit, seed))


def solve_highs(model: BoolModel, time_limit: float | None, seed: int) -> Result:
    """Solve ``model`` with HiGHS in this process, within ``time_limit`` seconds, the loading of
    the model included (UNKNOWN when that takes them all)."""
    deadline = None if time_limit is None else time.monotonic() + float(time_limit)
    try:
        built = _build_highs(model, seed, deadline)
    except EncodingTimeout as exc:
        return Result(Status.UNKNOWN, detail=str(exc))
    if isinstance(built, Result):
        return built
    h, offset = built
    if deadline is not None:
        h.setOptionValue("time_limit", max(deadline - time.monotonic(), 1e-3))
    h.run()
    return _read_highs(h, model, offset)


DEADLINE_ROWS = 10_000
"""How many rows HiGHS is given between two looks at the deadline (about a tenth of a second)."""


def _build_highs(model: BoolModel, seed: int, deadline: float | None = None):
    """A silent single-threaded ``Highs`` holding ``model`` (binaries, rows, objective), with the
    objective's constant; or an UNSAT Result when a constraint without variables fails.
    ``deadline`` (``time.monotonic()``): :class:`~exactgrid.encoding.EncodingTimeout` once it has
    passed while the rows are added. :class:`~exactgrid.backends.base.FloatingPointLimit` for
    weights too large for HiGHS to answer exactly."""
    import highspy
    import numpy as np

    check_float_exact(model, "HiGHS")

    with _banner_hidden():
        h = highspy.Highs()
    h.silent()
    h.setOptionValue("output_flag", False)
    h.setOptionValue("threads", 1)
    h.setOptionValue("random_seed", int(seed))
    h.setOptionValue("mip_rel_gap", 0.0)
    h.setOptionValue("mip_abs_gap", 0.5)
    h.setOptionValue("mip_feasibility_tolerance", 1e-9)
    h.setOptionValue("primal_feasibility_tolerance", 1e-9)
    n = model.num_vars
    inf = highspy.kHighsInf
    if n:
        h.addVars(n, np.zeros(n), np.ones(n))
        h.changeColsIntegrality(n, np.arange(n, dtype=np.int32),
                                np.array([highspy.HighsVarType.kInteger] * n))
    rows = [(clause, [1] * len(clause), 1, inf) for clause in model.clauses]
    for con in model.linear:
        lo = con.bound if con.op in (">=", "==") else -inf
        hi = con.bound if con.op in ("<=", "==") else inf
        rows.append((con.lits, con.weights, lo, hi))
    for done, (lits, weights, lo, hi) in enumerate(rows):
        if done % DEADLINE_ROWS == 0 and deadline is not None and time.monotonic() > deadline:
            raise EncodingTimeout(f"time limit reached while HiGHS took the model ({done:,} of {len(rows):,} rows)")
        if not _add_row(h, lits, weights, lo, hi):
            return Result(Status.UNSAT, detail="constant constraint violated")
    offset = 0
    if model.objective is not None and n:
        offset, coefs = linear_terms(*model.objective)
        for v, c in coefs.items():
            if c:
                h.changeColCost(v - 1, float(c))
        h.changeObjectiveSense(highspy.ObjSense.kMaximize)
    return h, offset


@contextmanager
def _banner_hidden() -> Iterator[None]:
    """Send file descriptor 1 to /dev/null meanwhile: ``highspy.Highs()`` prints its banner from
    C++ on stdout, which would spoil ``--json`` output when HiGHS runs in this process."""
    sys.stdout.flush()
    saved = os.dup(1)
    try:
        with open(os.devnull, "w") as null:
            os.dup2(null.fileno(), 1)
        yield
    finally:
        os.dup2(saved, 1)
        os.close(saved)


def _add_row(h, lits, weights, lo: float, hi: float) -> bool:
    """Add ``lo <= sum(weights * lits) <= hi`` (negative literals as ``1 - x``); False when it
    has no variables and cannot hold."""
    import highspy
    import numpy as np

    inf = highspy.kHighsInf
    const, coefs = linear_terms(lits, weights)
    idx = [v - 1 for v, c in coefs.items() if c]
    val = [float(coefs[v + 1]) for v in idx]
    lower = lo - const if lo != -inf else -inf
    upper = hi - const if hi != inf else inf
    if not idx:
        return not (lower > 0 or upper < 0)
    h.addRow(lower, upper, len(idx), np.array(idx, dtype=np.int32), np.array(val))
    return True


def _read_highs(h, model: BoolModel, offset: int) -> Result:
    """The Result of the last run of ``h`` on ``model`` (unchecked; the caller checks it)."""
    import highspy

    n = model.num_vars
    status = h.getModelStatus()
    info = h.getInfo()
    ms = highspy.HighsModelStatus
    if status == ms.kInfeasible:
        return Result(Status.UNSAT)
    has_solution = info.primal_solution_status == 2 or (n == 0 and status in (ms.kOptimal, ms.kModelEmpty))
    bound = info.mip_dual_bound if model.objective is not None else math.nan
    proven = None if not math.isfinite(bound) else math.floor(bound + offset + 1e-6)
    if not has_solution:
        return Result(Status.UNKNOWN, bound=proven, detail=f"HiGHS: {h.modelStatusToString(status)}")
    values = h.getSolution().col_value if n else []
    true_vars = frozenset(i + 1 for i, val in enumerate(values) if val > 0.5)
    if model.objective is None:
        return Result(Status.SAT, true_vars=true_vars)
    if status in (ms.kOptimal, ms.kModelEmpty):
        return Result(Status.OPTIMAL, true_vars=true_vars)
    return Result(Status.SAT, true_vars=true_vars, bound=proven,
                  detail=f"HiGHS: {h.modelStatusToString(status)}")


class HighsModel:
    """One HiGHS MIP kept open on a model (in this process): add clauses between solves, and each
    solve starts from the model as it now stands (the cut loop of exactgrid.prove.bound).

    ``solve`` runs HiGHS in its own thread, watches the clock and Ctrl-C (a KeyboardInterrupt
    cancels HiGHS, waits for it to stop, and is raised again), and reports the best bound so
    far to ``on_bound`` as HiGHS proves it.
    """

    def __init__(self, model: BoolModel, seed: int = 0, deadline: float | None = None) -> None:
        built = _build_highs(model, seed, deadline)
        self.model = model
        self.infeasible = isinstance(built, Result)
        self._h, self._offset = (None, 0) if self.infeasible else built
        self.added: list[tuple[int, ...]] = []
        self._dual = math.inf
        if self._h is not None:
            self._h.HandleUserInterrupt = True
            self._h.cbMipInterrupt += self._watch

    def _watch(self, event) -> None:
        bound = event.data_out.mip_dual_bound
        if math.isfinite(bound):
            self._dual = min(self._dual, bound)

    def add_clause(self, lits: Iterable[int]) -> None:
        """Add a clause (kept for every later solve)."""
        clause = tuple(lits)
        self.added.append(clause)
        if self._h is not None and not _add_row(self._h, clause, [1] * len(clause), 1, math.inf):
            self.infeasible = True

    def close(self) -> None:
        """Free HiGHS."""
        self._h = None
        self.infeasible = True

    def solve(self, time_limit: float | None = None, on_bound: Callable[[int], None] | None = None) -> Result:
        """Optimise the model and the clauses added so far; the Result is checked against both."""
        if self.infeasible:
            return Result(Status.UNSAT, backend="highs")
        started = time.monotonic()
        h = self._h
        h.setOptionValue("time_limit", math.inf if time_limit is None else max(float(time_limit), 1e-3))
        self._dual = math.inf
        thread = h.startSolve()
        reported = math.inf
        try:
            while not h.wait(0.1)[0]:
                if on_bound is not None and self._dual < reported:
                    reported = self._dual
                    on_bound(math.floor(reported + self._offset + 1e-6))
        except BaseException:
            h.cancelSolve()
            while not h.wait(0.1)[0]:
                pass
            raise
        finally:
            thread.join()
        result = replace(_read_highs(h, self.model, self._offset), seconds=time.monotonic() - started,
                         backend="highs")
        if result.found and not all(any((lit > 0) == (abs(lit) in result.true_vars) for lit in clause)
                                    for clause in self.added):
            raise SolverDisagreement("highs: a solution violates an added clause")
        return check_result(self.model, result)
