"""Signals to a real ``exactgrid fit`` process: it answers UNKNOWN (exit 3), and no process it
started survives it, whichever signal ends it -- Ctrl-C, SIGTERM (``kill``, ``timeout``), SIGHUP
(a closed terminal), or SIGKILL of the parent itself.

The question (the eight M states in 4x4) is one no backend decides within minutes, so every
backend is still searching when the signal comes. Nothing here depends on the machine's speed:
the test waits for the search to be under way, and the bounds are generous fail-safes for a
hang (the measured stop times are in the README, from ``tools/bench_signals.py``).
"""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from .children import CLI, start, start_cli
from .conftest import AVAILABLE_BACKENDS
from .tools import load_tool

ROOT = Path(__file__).resolve().parents[1]
HARD = ROOT / "instances" / "benchmarks" / "fit" / "4x4_m8.toml"  # no backend decides it alone: --no-counting
# processes each backend has running while it searches: a child interpreter, and for CBC the
# solver binary below it; the portfolio's two members
CHILD_PROCESSES = {"kissat": 1, "cbc": 2, "cpsat": 1, "highs": 1, "portfolio": 2}
HANG_SECONDS = 600  # fail-safe bounds only, never reached by working code on any machine
PROCESSES = load_tool("processes")  # what a process has running below it: shared with tools/bench_signals.py
alive, descendants = PROCESSES.alive, PROCESSES.descendants


def start_fit(backend: str, tmp_path: Path) -> subprocess.Popen:
    """``exactgrid fit`` on the hard question, searching (progress ticking) when this returns."""
    env = {**os.environ, "TMPDIR": str(tmp_path)}
    process = start_cli("fit", "--instance", str(HARD), "--no-counting", "--backend", backend, "--time-limit", "600",
                        "--progress", stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        wait_until_searching(process, backend)
    except BaseException:
        for pid in descendants(process.pid) | {process.pid}:  # leave nothing running behind a failure
            os.kill(pid, signal.SIGKILL)
        raise
    return process


def wait_until_searching(process: subprocess.Popen, backend: str, wrappers: int = 0) -> None:
    """Until the first progress tick (the search is under way) and the solver processes are up
    (``wrappers``: processes between ``process`` and exactgrid, such as ``timeout``'s command)."""
    deadline = time.monotonic() + HANG_SECONDS
    os.set_blocking(process.stderr.fileno(), False)
    seen = b""
    while b"solving with" not in seen:
        assert time.monotonic() < deadline and process.poll() is None, seen
        try:
            seen += os.read(process.stderr.fileno(), 4096)
        except BlockingIOError:
            time.sleep(0.05)
    while len(descendants(process.pid)) < CHILD_PROCESSES.get(backend, 0) + wrappers:
        assert time.monotonic() < deadline, "the solver processes did not start"
        time.sleep(0.05)


class Stopped(tuple):
    """What :func:`stop` saw: (exit status, stdout, surviving processes); ``stderr`` beside them,
    so that a failing assertion can show what the process said."""

    stderr: str = ""

    def said(self) -> str:
        """Both streams, for a failing assertion's message."""
        return f"exit {self[0]}\nstdout: {self[1]!r}\nstderr: {self.stderr[-3000:]}"


def assert_unknown(stopped: Stopped, name: str) -> None:
    """The process answered UNKNOWN, stopped by ``name`` (``Ctrl-C``, ``SIGTERM``, ...), exit 3,
    and left no process running; what it said is shown when not (a failure once seen in CI, exit 1
    with no stdout, could not be told apart without its stderr)."""
    code, out, survivors = stopped
    assert code == 3 and out.startswith("UNKNOWN after") and f"interrupted ({name})" in out, stopped.said()
    assert not survivors, stopped.said()


def stop(process: subprocess.Popen, signum: int) -> Stopped:
    """Send ``signum``; return the exit status, stdout, and the processes it had started that live on."""
    started = descendants(process.pid)
    process.send_signal(signum)
    err = ""
    try:
        out, err = process.communicate(timeout=HANG_SECONDS)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
    deadline = time.monotonic() + HANG_SECONDS  # a loaded machine may take a while to end them
    while alive(started) and time.monotonic() < deadline:
        time.sleep(0.05)
    survivors = alive(started)
    for pid in survivors:  # leave the machine clean even when the test fails
        os.kill(pid, signal.SIGKILL)
    stopped = Stopped((process.returncode, out, survivors))
    stopped.stderr = err or ""
    return stopped


@pytest.mark.parametrize("backend", AVAILABLE_BACKENDS)
def test_ctrl_c_stops_every_backend_with_unknown(backend, tmp_path):
    assert_unknown(stop(start_fit(backend, tmp_path), signal.SIGINT), "Ctrl-C")
    assert not list(tmp_path.iterdir())  # no temporary file left behind


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP])
@pytest.mark.parametrize("backend", ["kissat", "cbc", "portfolio"])
def test_sigterm_and_sighup_answer_like_ctrl_c(backend, signum, tmp_path):
    assert_unknown(stop(start_fit(backend, tmp_path), signum), signal.Signals(signum).name)
    assert not list(tmp_path.iterdir())


@pytest.mark.parametrize("backend", ["kissat", "cbc", "portfolio"])
def test_children_die_with_a_killed_parent(backend, tmp_path):
    """SIGKILL leaves the parent no cleanup: the children notice by themselves (PR_SET_PDEATHSIG)."""
    code, _, survivors = stop(start_fit(backend, tmp_path), signal.SIGKILL)
    assert code == -signal.SIGKILL
    assert not survivors
    assert not list(tmp_path.iterdir())  # CBC's model and solution files live in memory only


def test_timeout_command_leaves_no_orphan(tmp_path):
    """Under ``timeout``, which passes the SIGTERM it gets (or sends at its deadline) to the command,
    ``exactgrid fit`` answers UNKNOWN and takes its solver with it. The signal goes to ``timeout``
    once the search is under way (not at a fixed time, which a slow start-up could beat)."""
    process = start(["timeout", "600", sys.executable, "-c", CLI, "fit", "--instance", str(HARD), "--no-counting",
                     "--time-limit", "600", "--progress"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    wait_until_searching(process, "kissat", wrappers=1)  # the exactgrid process under timeout, then kissat
    seen = descendants(process.pid)
    assert_unknown(stop(process, signal.SIGTERM), "SIGTERM")  # timeout exits with the command's status
    assert len(seen) >= 2  # the exactgrid process and its kissat child


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_a_signal_during_fits_local_search_ends_the_fit(signum, tmp_path):
    """A stop signal while ``fit --local-search`` searches ends the fit, not only its search: the
    search used to catch it, find no grid, and hand the backend the rest of the time limit."""
    process = start_cli("fit", "--instance", str(HARD), "--no-counting", "--local-search", "900", "--time-limit",
                        "1200", "--progress", stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                        env={**os.environ, "TMPDIR": str(tmp_path)})
    wait_until_searching(process, "search")  # "trying first, then solving with ...": the search runs
    assert_unknown(stop(process, signum), "Ctrl-C" if signum == signal.SIGINT else "SIGTERM")


CTRL_C_IN_A_CHUNK = """
import json, signal
from pysat.examples.genhard import PHP
from pysat.solvers import Solver
from exactgrid.backends.sat import solve_in_chunks

solver = Solver(name="cadical195", bootstrap_with=PHP(12).clauses)  # minutes for CaDiCaL
try:
    print("solving", flush=True)  # inside the try: wherever the Ctrl-C lands, it is caught
    solve_in_chunks(solver, None)
    interrupted = False
except KeyboardInterrupt:
    interrupted = True
blocked = [line.split()[1] for line in open("/proc/self/status") if line.startswith("SigBlk")][0]
solver.conf_budget(10)  # CaDiCaL aborts the process here if the solve was jumped out of
solver.solve_limited()
solver.delete()
print(json.dumps({"interrupted": interrupted, "sigint_blocked": bool(int(blocked, 16) & 2)}))
"""


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads the signal mask from /proc")
def test_ctrl_c_in_a_cadical_chunk_leaves_the_solver_and_the_signal_mask_sound():
    """PySAT's own SIGINT handler (which CaDiCaL's binding installs even with expect_interrupt)
    longjmps out of the solver: that can deadlock the process in free(), leaves SIGINT blocked and
    the solver unusable. The chunked solve keeps it away, so Python raises KeyboardInterrupt."""
    process = start([sys.executable, "-c", CTRL_C_IN_A_CHUNK], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                    text=True)
    try:
        assert process.stdout.readline() == "solving\n"  # then into the C solver, where it spends its time
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=HANG_SECONDS)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
    assert process.returncode == 0, err
    assert json.loads(out) == {"interrupted": True, "sigint_blocked": False}


def test_children_take_ctrl_c_even_when_the_suite_was_started_ignoring_it():
    """The hazard behind a once-flaky test, and the helper that removes it: from a process that
    ignores SIGINT (a background job), a plain child ignores Ctrl-C; one started by
    ``tests.children.start`` takes it."""
    probe = [sys.executable, "-c",
             "import signal; print(signal.getsignal(signal.SIGINT) is signal.default_int_handler)"]
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        plain = subprocess.run(probe, capture_output=True, text=True, check=True).stdout
        helped = start(probe, stdout=subprocess.PIPE, text=True).communicate(timeout=HANG_SECONDS)[0]
    finally:
        signal.signal(signal.SIGINT, previous)
    assert plain == "False\n"
    assert helped == "True\n"


def test_an_interruption_while_a_class_is_made_is_still_an_interruption():
    """Ctrl-C inside ``__set_name__`` (a lazy import at a job's start: seen in CI) reaches the
    caller as a RuntimeError caused by the KeyboardInterrupt; it still means "stopped"."""
    from exactgrid.stopping import Terminated, interruption_behind

    class Interrupts:
        def __set_name__(self, owner, name):
            raise KeyboardInterrupt

    with pytest.raises(RuntimeError) as caught:
        type("Made", (), {"field": Interrupts()})
    assert isinstance(interruption_behind(caught.value), KeyboardInterrupt)
    assert interruption_behind(RuntimeError("a real bug")) is None
    stop_signal = Terminated(signal.SIGTERM)
    assert interruption_behind(stop_signal) is stop_signal


def test_the_cli_answers_an_interruption_wrapped_in_a_runtime_error_with_exit_3():
    from click.testing import CliRunner

    from exactgrid.cli.base import stopped_without_an_answer

    def wrapped() -> None:
        with stopped_without_an_answer(as_json=False):
            raise RuntimeError("while making a class") from KeyboardInterrupt()

    import click

    command = click.command()(wrapped)
    result = CliRunner().invoke(command, [])
    assert result.exit_code == 3 and "stopped: interrupted (Ctrl-C) before an answer" in result.output
    with pytest.raises(RuntimeError, match="a real bug"), stopped_without_an_answer(as_json=False):
        raise RuntimeError("a real bug")


def test_an_interruption_as_a_command_ends_leaves_its_exit_status_alone():
    """A signal that lands while the command's exit (its answer printed) is on its way out:
    the command's status stands, not "stopped before an answer" (found by raising SIGINT at
    each line in turn: tools/fuzz_signals.py)."""
    import click

    from exactgrid.cli.base import stopped_without_an_answer

    with pytest.raises(click.exceptions.Exit) as ended, stopped_without_an_answer(as_json=False):
        try:
            raise click.exceptions.Exit(1)
        finally:
            raise KeyboardInterrupt()  # what the handler raises, in the middle of the exit
    assert ended.value.exit_code == 1


ENDS_AS_A_SIGNAL_COMES = """
import signal, sys
import exactgrid.cli as c

def command(**_):
    try:
        sys.exit(SYSTEM_EXIT)
    finally:
        signal.raise_signal(signal.SIGTERM)

c.cli = command
c.main()
"""

SIGNALLED_AS_THE_HOLD_IS_SET = """
import exactgrid.cli as c

def hold():
    raise KeyboardInterrupt()

c.hold_for_the_process = hold
c.main()
"""


def test_the_program_keeps_its_exit_status_whenever_a_signal_comes():
    """``main``: a signal as the command's exit status is on its way out of the program leaves
    it alone (it once replaced it with a traceback, or ended the process by SIGTERM's
    default); one before the command began is the stopped line and exit 3, not a traceback."""
    for status in (0, 1):
        done = subprocess.run([sys.executable, "-c", ENDS_AS_A_SIGNAL_COMES.replace("SYSTEM_EXIT", str(status))],
                              capture_output=True, text=True, timeout=HANG_SECONDS)
        assert done.returncode == status and not done.stderr, done.stderr
    for args, where in (([], "stderr"), (["fit", "--json"], "stdout")):
        done = subprocess.run([sys.executable, "-c", SIGNALLED_AS_THE_HOLD_IS_SET, *args], capture_output=True,
                              text=True, timeout=HANG_SECONDS)
        assert done.returncode == 3 and "Traceback" not in done.stderr, done.stderr
        said = done.stderr if where == "stderr" else json.loads(done.stdout)["stopped"]
        assert "interrupted (Ctrl-C)" in said
        if where == "stdout":  # the answer contract's keys, as any answer's
            assert list(json.loads(done.stdout))[:4] == ["outcome", "seconds", "stopped_by", "exit_code"]
            assert json.loads(done.stdout)["exit_code"] == done.returncode


def test_after_the_first_interruption_later_ones_are_only_noted():
    """``first_interruption_only``: the first Ctrl-C or stop signal raises, later ones (and any
    once the work winds down) are noted; a hold within a hold raises once in all; Python's
    handlers come back after, and a signal that was ignored stays ignored."""
    import threading

    from exactgrid.stopping import first_interruption_only, stop_on_signals

    if threading.current_thread() is not threading.main_thread():
        pytest.skip("Python runs signal handlers in the main thread only")
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        with stop_on_signals(), first_interruption_only() as held:
            with pytest.raises(KeyboardInterrupt):
                signal.raise_signal(signal.SIGINT)
            signal.raise_signal(signal.SIGTERM)
            signal.raise_signal(signal.SIGINT)
        assert held.noted == ["Ctrl-C", "SIGTERM", "Ctrl-C"]
        assert held.stopped_by("time limit") == "Ctrl-C" and held.stopped_by(None) == "Ctrl-C"
        assert held.stopped_by("SIGTERM") == "SIGTERM"  # what the work caught stands
        with stop_on_signals(), first_interruption_only() as held:
            held.winding_down = True
            signal.raise_signal(signal.SIGTERM)
        assert held.noted == ["SIGTERM"]
        with first_interruption_only() as outer:
            with first_interruption_only() as inner, pytest.raises(KeyboardInterrupt):
                signal.raise_signal(signal.SIGINT)
            signal.raise_signal(signal.SIGINT)
            with first_interruption_only() as late:
                signal.raise_signal(signal.SIGINT)
        assert inner.noted == ["Ctrl-C"] and late.noted == ["Ctrl-C"]
        assert outer.noted == ["Ctrl-C", "Ctrl-C", "Ctrl-C"]
        assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
        with pytest.raises(KeyboardInterrupt):
            signal.raise_signal(signal.SIGINT)
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        with first_interruption_only() as held:
            signal.raise_signal(signal.SIGINT)
        assert held.noted == [] and held.stopped_by("time limit") == "time limit"
    finally:
        signal.signal(signal.SIGINT, before)


def test_a_signal_as_an_inner_hold_ends_finds_the_enclosing_hold_knowing_the_first_came(monkeypatch):
    """The moment an inner hold gives the enclosing hold's handler back, a signal must reach
    a hold that knows the first already came, and only be noted. It used to raise a second
    KeyboardInterrupt there (the inner passed its signals on only after giving the handlers
    back), which threw away solve's best grid in one CI run. A patched ``signal.signal`` sends
    the signal in that very moment."""
    import threading

    from exactgrid.stopping import first_interruption_only

    if threading.current_thread() is not threading.main_thread():
        pytest.skip("Python runs signal handlers in the main thread only")
    give_back = signal.signal
    escaped = []

    def give_back_then_signal(signum, handler):
        previous = give_back(signum, handler)
        if signum == signal.SIGINT and getattr(handler, "__self__", None) is outer:
            signal.raise_signal(signal.SIGINT)
        return previous

    with first_interruption_only() as outer:
        try:
            with first_interruption_only() as inner:
                with pytest.raises(KeyboardInterrupt):
                    signal.raise_signal(signal.SIGINT)
                monkeypatch.setattr(signal, "signal", give_back_then_signal)
        except KeyboardInterrupt:
            escaped.append("a second interruption")
        monkeypatch.undo()
    assert escaped == []
    assert inner.noted == ["Ctrl-C"] and outer.noted == ["Ctrl-C", "Ctrl-C"]


def test_a_signal_while_a_hold_sets_up_leaves_pythons_handler_in_place(monkeypatch):
    """A Ctrl-C that raises as ``first_interruption_only`` sets its handlers up gives
    Python's handler back: a hold left in place, which had seen its first, would only have
    noted every later Ctrl-C, for the rest of the process."""
    import threading

    from exactgrid.stopping import first_interruption_only

    if threading.current_thread() is not threading.main_thread():
        pytest.skip("Python runs signal handlers in the main thread only")
    set_up = signal.signal

    def set_up_then_signal(signum, handler):
        previous = set_up(signum, handler)
        if signum == signal.SIGINT and handler is not signal.default_int_handler:
            signal.raise_signal(signal.SIGINT)
        return previous

    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        monkeypatch.setattr(signal, "signal", set_up_then_signal)
        with pytest.raises(KeyboardInterrupt), first_interruption_only():
            pass
        monkeypatch.undo()
        assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    finally:
        signal.signal(signal.SIGINT, before)


def test_a_deferred_step_raises_the_first_interruption_when_it_ends():
    """``Interruptions.deferred``: a signal that comes inside the step is raised after it, the
    step finished (later ones are only noted, as ever); with none, nothing is raised."""
    import threading

    from exactgrid.stopping import Terminated, first_interruption_only, stop_on_signals

    if threading.current_thread() is not threading.main_thread():
        pytest.skip("Python runs signal handlers in the main thread only")
    finished = []
    with stop_on_signals(), first_interruption_only() as held:
        with pytest.raises(KeyboardInterrupt) as raised, held.deferred():
            signal.raise_signal(signal.SIGTERM)
            signal.raise_signal(signal.SIGINT)
            finished.append("step")
        with held.deferred():
            finished.append("quiet step")
    assert finished == ["step", "quiet step"]
    assert isinstance(raised.value, Terminated) and held.noted == ["SIGTERM", "Ctrl-C"]


def test_an_import_is_not_cut_short_by_a_signal(tmp_path, monkeypatch):
    """``uncut_import``: a Ctrl-C that comes while a module loads is raised once it has loaded.
    Cut short, numba's import failed with an ImportError that ``solve`` took for numba missing
    (exit 2 and "pip install 'exactgrid[solve]'", found by raising SIGINT at each line in turn)."""
    import threading

    from exactgrid.stopping import first_interruption_only, uncut_import

    if threading.current_thread() is not threading.main_thread():
        pytest.skip("Python runs signal handlers in the main thread only")
    (tmp_path / "loads_slowly.py").write_text("import signal\nsignal.raise_signal(signal.SIGINT)\nLOADED = True\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    with first_interruption_only() as held, pytest.raises(KeyboardInterrupt):
        uncut_import("loads_slowly")
    assert sys.modules["loads_slowly"].LOADED and held.noted == ["Ctrl-C"]
    del sys.modules["loads_slowly"]


def test_a_signal_while_highspy_loads_is_a_signal_not_a_missing_backend(tmp_path, monkeypatch):
    """A Ctrl-C that came while ``highspy`` loaded made its extension's import fail (pybind11
    turns an error inside a module's set-up into ``ImportError: initialization failed``), and
    ``bound`` answered "backend 'highs' is not available here", exit 2, where the answer so far
    and exit 3 were due (a fresh clone's ``.ci/run``, 2026-11-27). A stand-in ``highspy`` fails
    that way when cut short; loaded whole, the Ctrl-C must come after it."""
    import threading

    from exactgrid.backends.ilp import Highs
    from exactgrid.stopping import first_interruption_only

    if threading.current_thread() is not threading.main_thread():
        pytest.skip("Python runs signal handlers in the main thread only")
    (tmp_path / "highspy.py").write_text(
        "import signal\ntry:\n    signal.raise_signal(signal.SIGINT)\n"
        "except KeyboardInterrupt as exc:\n    raise ImportError('initialization failed') from exc\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "highspy", raising=False)
    with first_interruption_only() as held, pytest.raises(KeyboardInterrupt):
        Highs().available()
    assert held.noted == ["Ctrl-C"]


@pytest.mark.skipif(not hasattr(os, "fork"), reason="forks")
def test_a_forked_worker_takes_a_stop_signal_as_a_worker_not_as_the_parent():
    """A pool worker forked while the CLI holds the signals, stopped (``terminate``: SIGTERM)
    before its ``quiet_worker`` ran, ends as by SIGTERM, quietly: it used to run the parent's
    handler and print a traceback on the parent's stderr (found by tools/fuzz_signals.py)."""
    import threading

    from exactgrid.stopping import first_interruption_only, stop_on_signals

    if threading.current_thread() is not threading.main_thread():
        pytest.skip("Python runs signal handlers in the main thread only")
    with stop_on_signals(), first_interruption_only() as held:
        read, write = os.pipe()
        pid = os.fork()
        if pid == 0:  # the worker, as forked: the parent's handlers
            try:
                os.dup2(write, 2)
                signal.raise_signal(signal.SIGINT)  # the parent's to handle: nothing here
                signal.raise_signal(signal.SIGTERM)
                time.sleep(5)
            finally:
                os._exit(7)
        os.close(write)
        _, status = os.waitpid(pid, 0)
        with os.fdopen(read, "rb") as said:
            err = said.read()
    assert os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGTERM, (status, err)
    assert err == b"" and held.noted == []


def test_fit_many_workers_die_with_a_killed_parent(tmp_path):
    """SIGKILL of ``fit-many``: its pool workers (and their solvers) die too, by PR_SET_PDEATHSIG;
    they used to be adopted by init and go on solving the queued questions."""
    # 40 or more states on 5x5: no grid is known (33 at most) and nothing refutes it (docs/benchmarks.md,
    # Prove), so on any machine the questions are still being solved when the parent is killed
    questions = tmp_path / "q.jsonl"
    questions.write_text("".join(json.dumps({"id": f"q{n}", "optional": "all", "min_count": n}) + "\n"
                                 for n in (40, 41, 42, 43)))
    process = start_cli("fit-many", str(questions), "--workers", "2", "--time-limit", "600",
                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + HANG_SECONDS
    while len(descendants(process.pid)) < 4:  # two workers, each with its solver child
        assert time.monotonic() < deadline and process.poll() is None
        time.sleep(0.05)
    code, _, survivors = stop(process, signal.SIGKILL)
    assert code == -signal.SIGKILL
    assert not survivors
