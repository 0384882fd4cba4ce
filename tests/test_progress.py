"""One progress line and one stop convention for every long command (exactgrid.cli_progress).

The signal tests start a real command with ``--progress`` and a long time limit, wait for a
state they can observe (the first progress line, the solver child process, an improvement
written to --out), send the signal, and check exit status 3, a JSON answer naming the signal,
and that no process the command started survives it. Nothing waits for a fixed time. The
commands that finish in about a second (trackword) are checked through the library instead,
with a KeyboardInterrupt raised from inside the work.
"""

from __future__ import annotations

import io
import json
import os
import signal
import subprocess
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from exactgrid.cli import cli
from exactgrid.cli_progress import PROGRESS_HELP, Progress
from exactgrid.puzzles import letterboxed, sumsquares, trackword
from exactgrid.wording import plural

from .children import start_cli
from .test_signals import HANG_SECONDS, descendants, stop

ROOT = Path(__file__).resolve().parents[1]
M8 = json.dumps({"shape": "4x4", "require": ["MAINE", "MARYLAND", "MASSACHUSETTS", "MICHIGAN", "MINNESOTA",
                                             "MISSISSIPPI", "MISSOURI", "MONTANA"]})


# --------------------------------------------------------------------------- the progress line


def test_plain_progress_lines_say_the_command_the_time_and_the_news() -> None:
    stream = io.StringIO()
    with Progress("bound", 60, True, "no bound yet", stream=stream, terminal=False, plain_every=3600,
                  news_every=3600) as shown:
        shown.news("bound 123")
        assert shown.line().startswith("bound: ") and " s of 60 s · bound 123 · Ctrl-C" in shown.line()
    lines = stream.getvalue().splitlines()
    assert len(lines) == 1 and lines[0].startswith("bound: 0.0 s of 60 s · no bound yet · Ctrl-C stops")


def test_a_plain_line_tells_new_news_without_waiting_for_the_next_ten_seconds() -> None:
    stream = io.StringIO()

    def lines_once(count: int) -> list[str]:
        deadline = time.monotonic() + HANG_SECONDS  # a fail-safe: the line comes at once
        while len(stream.getvalue().splitlines()) < count and time.monotonic() < deadline:
            time.sleep(0.01)
        return stream.getvalue().splitlines()

    with Progress("fit", 60, True, "starting", stream=stream, terminal=False, plain_every=3600,
                  news_every=0) as shown:
        assert len(lines_once(1)) == 1
        shown.news("starting")  # the same news: no line
        shown.news("solving with kissat")
        lines = lines_once(2)
        assert " · starting · " in lines[0] and " · solving with kissat · " in lines[1], lines
    assert len(stream.getvalue().splitlines()) == 2


def test_no_progress_writes_nothing_and_a_terminal_line_is_cleared() -> None:
    stream = io.StringIO()
    with Progress("fit", 5, False, stream=stream, terminal=False):
        pass
    assert stream.getvalue() == ""
    with Progress("fit-many", None, None, "0 answered", stream=stream, terminal=True):
        pass
    assert stream.getvalue().startswith("\r\033[Kfit-many: 0.0 s · 0 answered") and stream.getvalue().endswith(
        "\r\033[K")


def test_a_library_progress_event_is_news_and_compiling_a_notice_whatever_the_setting() -> None:
    from exactgrid.answer import ProgressEvent

    stream = io.StringIO()
    with Progress("solve", 60, False, "starting the search", stream=stream, terminal=False) as shown:
        shown.event(ProgressEvent("solve", "best 123 (1 word)", 1.0, best=123))
        assert " · best 123 (1 word) · " in shown.line()
        shown.event(ProgressEvent("solve", "compiling the search kernel", kind="compiling"))
        assert " · best 123 (1 word) · " in shown.line()  # a notice is not news
    assert stream.getvalue() == "solve: compiling the search kernel\n"  # shown with progress off


def test_every_long_command_has_the_same_progress_option() -> None:
    for command in ("fit", "fit-many", "solve", "bound", "letterboxed", "sumsquares"):
        options = {o.name: o for o in cli.commands[command].params}
        assert options["progress"].help == PROGRESS_HELP and options["progress"].default is None, command
    assert plural(1, "improvement") == "1 improvement" and plural(1234, "cut") == "1,234 cuts"


# --------------------------------------------------------------------------- the library's interrupted answers


def interrupt_after(calls: int, function):
    """``function``, raising KeyboardInterrupt once, on call number ``calls`` + 1 (as one Ctrl-C would)."""
    seen = {"calls": 0}

    def wrapped(*args, **kwargs):
        seen["calls"] += 1
        if seen["calls"] == calls + 1:
            raise KeyboardInterrupt
        return function(*args, **kwargs)

    return wrapped


def test_trackword_build_stops_with_the_best_grid_scored(monkeypatch) -> None:
    monkeypatch.setattr(trackword, "search_words", interrupt_after(5, trackword.search_words))
    result = CliRunner().invoke(cli, ["trackword", "RETRIEVES", "--json"])
    assert result.exit_code == 3, result.output
    data = json.loads(result.stdout)
    assert data["stopped_by"] == "Ctrl-C" and data["tried"] == 5 and "not proven best" in data["how"]
    assert data["count"] == data["answer"]["count"] > 0


def test_letterboxed_search_stops_unproven(monkeypatch) -> None:
    monkeypatch.setattr(letterboxed, "_deepening_round", interrupt_after(1, letterboxed._deepening_round))
    answer = letterboxed.solve_letter_boxed("xoy tws apv kri")
    assert answer.stopped_by == "Ctrl-C" and not answer.proven and not answer.words
    assert "interrupted (Ctrl-C) in the round of 2 words" in answer.how
    assert "fewest words: unknown (interrupted (Ctrl-C))" in answer.text()


def test_sumsquares_dp_stops_with_a_bound(monkeypatch) -> None:
    monkeypatch.setattr(sumsquares, "_forward", interrupt_after(3, sumsquares._forward))
    result = CliRunner().invoke(cli, ["sumsquares", "--method", "dp", "--json"])
    assert result.exit_code == 3, result.output
    data = json.loads(result.stdout)
    assert data["stopped_by"] == "Ctrl-C" and data["status"] == "none" and data["bound"] >= 205


# --------------------------------------------------------------------------- real signals to real commands


def start(args: list[str], tmp_path: Path) -> subprocess.Popen:
    """``exactgrid ARGS`` in its own session, in ``tmp_path``, taking Ctrl-C as from a terminal."""
    return start_cli(*args, cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def wait_for(process: subprocess.Popen, line_start: str, children: int, ready: Path | None) -> None:
    """Until stderr shows a progress line starting ``line_start``, ``children`` processes run
    below the command, and (when given) the file ``ready`` has something in it."""
    deadline = time.monotonic() + HANG_SECONDS
    os.set_blocking(process.stderr.fileno(), False)
    seen = b""
    while not any(line.startswith(line_start.encode()) for line in seen.split(b"\n")):
        assert time.monotonic() < deadline and process.poll() is None, seen
        try:
            seen += os.read(process.stderr.fileno(), 4096)
        except BlockingIOError:
            time.sleep(0.05)
    while len(descendants(process.pid)) < children or (ready is not None and not (
            ready.exists() and ready.read_text().strip())):
        assert time.monotonic() < deadline and process.poll() is None, "the work did not get under way"
        time.sleep(0.05)


def stopped_by(command: str, out: str) -> str:
    """What the JSON answer says stopped the command."""
    if command == "fit-many":
        return json.loads(out.splitlines()[-1])["stopped_by"]
    data = json.loads(out)
    return data["search"]["stopped_by"] if command == "solve" else data["stopped_by"]


# command -> (arguments after the command name, children to wait for, wait for --out)
LONG = {
    "fit-many": (["questions.jsonl", "--workers", "1", "--time-limit", "600", "--json"], 1, False),
    "solve": (["--time-limit", "600", "--workers", "1", "--out", "imp.jsonl", "--json"], 0, True),
    "bound": (["--time-limit", "600", "--json"], 0, False),
    "letterboxed": (["abcd efgh ijkl mnop qrst uvwx", "--method", "ilp", "--time-limit", "600", "--json"], 1, False),
    "sumsquares": (["--n", "9", "--method", "ilp", "--time-limit", "600", "--json"], 1, False),
}


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
@pytest.mark.parametrize("command", list(LONG))
def test_a_signal_gives_the_answer_so_far_and_exit_3(command: str, signum: int, tmp_path: Path) -> None:
    args, children, wait_out = LONG[command]
    (tmp_path / "questions.jsonl").write_text((M8 + "\n") * 20)
    process = start([command, *args, "--progress"], tmp_path)
    try:
        wait_for(process, f"{command}: ", children, tmp_path / "imp.jsonl" if wait_out else None)
    except BaseException:
        os.killpg(process.pid, signal.SIGKILL)
        raise
    stopped = stop(process, signum)
    code, out, survivors = stopped
    assert code == 3, stopped.said()
    assert stopped_by(command, out) == ("Ctrl-C" if signum == signal.SIGINT else "SIGTERM"), stopped.said()
    assert not survivors


def test_solve_interrupted_before_the_search_answers_unknown_with_exit_3(monkeypatch) -> None:
    import exactgrid.solving.answer

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(exactgrid.solving.answer, "_search", interrupted)  # the library answers, not the CLI
    result = CliRunner().invoke(cli, ["solve", "--shape", "3x3", "--json"])
    assert result.exit_code == 3, result.output
    data = json.loads(result.stdout)
    assert data["verdict"] == "unknown" and data["search"]["stopped_by"] == "Ctrl-C"


def test_solve_text_shows_the_checklist_asked_for_and_counts_in_words() -> None:
    result = CliRunner().invoke(cli, ["solve", "--shape", "2x2", "--award", "NOCAL", "--max-proposals", "20000",
                                      "--time-limit", "600", "--workers", "1", "--no-progress"])
    assert result.exit_code == 0, result.output
    assert "PASS  NOCAL" in result.stdout and "1 of 1 passed" in result.stdout
    assert " 1 improvements" not in result.stdout


def test_fit_many_accepts_json_and_reports_bad_input_as_json(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["fit-many", str(tmp_path / "missing.jsonl"), "--json"])
    assert result.exit_code == 2 and "error" in json.loads(result.stdout)
