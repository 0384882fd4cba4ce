"""``exactgrid solve`` from the command line: output, --out lines, errors, and stopping."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time

import pytest
from click.testing import CliRunner

import exactgrid as eg
from exactgrid.cli import cli

from .children import start_cli


def run(*args: str):
    return CliRunner().invoke(cli, list(args))


#: A search ended by a budget of proposals on one worker, not by the clock: the same grids on
#: any machine, however slow or loaded (the time limit is only a fail-safe).
BUDGET = ("--max-proposals", "200000", "--workers", "1", "--time-limit", "600")


def test_solve_prints_a_checked_grid_with_its_checklist(tmp_path) -> None:
    out = tmp_path / "improvements.jsonl"
    result = run("solve", "--shape", "4x4", "--award", "NOCAL", *BUDGET, "--out", str(out), "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["verdict"] == "fits"
    assert eg.score(data["grid"]).total == data["total"]
    assert {item["key"]: item["passed"] for item in data["checklist"]["items"]} == {"NOCAL": True}
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert lines and lines[-1]["grid"] == data["grid"] and lines[-1]["score"] == data["total"]
    for line in lines:  # every improvement line is what the finder says of its grid
        assert set(line) == {"grid", "score", "states", "awards", "elapsed", "cpu_seconds", "worker"}
        assert eg.score(line["grid"]).total == line["score"]
        assert sorted(eg.score(line["grid"]).words) == sorted(line["states"])
        assert "NOCAL" in line["awards"] and "CALIFORNIA" not in line["states"]
    assert [line["score"] for line in lines] == sorted(line["score"] for line in lines)


def test_solve_text_and_the_start_grid() -> None:
    result = run("solve", "--shape", "3x3", "--start", "thoainesl", *BUDGET)
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("best grid found (")
    assert "checked by the finder" in result.stdout


def test_graded_search_from_the_command_line(monkeypatch) -> None:
    import exactgrid.solving as solving

    schedules = []
    real = solving.solve

    def spy(*args, **kwargs):
        schedules.append(kwargs.get("schedule"))
        return real(*args, **kwargs)

    monkeypatch.setattr(solving, "solve", spy)
    result = run("solve", "OHIO", "IOWA", "--shape", "3x3", "--graded", *BUDGET, "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert {"OHIO", "IOWA"} <= set(eg.score(data["grid"]).words)
    assert schedules == [eg.solving.Schedule(graded=True)]
    run("solve", "--shape", "2x2", *BUDGET)
    assert schedules[-1] is None


def test_certify_window_in_text_and_json() -> None:
    result = run("solve", "--shape", "3x3", *BUDGET, "--certify-window", "1", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["certificate"]["verdict"] == "does not fit" and data["certificate"]["window"] == 1
    assert data["certificate"]["score"] == data["total"] and data["certificate"]["grid"] == data["grid"]
    result = run("solve", "--shape", "2x2", *BUDGET, "--certify-window", "1")
    assert "proven 1-optimal" in result.stdout


def test_no_grid_meeting_the_constraints_is_unknown() -> None:
    result = run("solve", "--shape", "2x2", "--award", "M8", *BUDGET, "--json")
    assert result.exit_code == 3, result.output
    data = json.loads(result.stdout)
    assert data["verdict"] == "unknown" and len(data["closest"]) == 4
    assert data["closest_total"] == eg.score(data["closest"], shape="2x2").total
    assert data["closest_problems"] == []  # the question has nothing besides the checklist
    (m8,) = data["closest_checklist"]["items"]
    assert m8["key"] == "M8" and not m8["passed"]
    _, verdict = eg.check(data["closest"], only=["M8"], shape="2x2")
    assert m8["details"]["letters_off"] == verdict.items[0].details["letters_off"]
    assert set(m8["details"]["letters_off"]) == set(verdict.items[0].details["missing"])
    # MASSACHUSETTS needs 7 distinct letters, more than 2x2 has: the question's own word, always missed
    text = run("solve", "--shape", "2x2", "--award", "M8", "MASSACHUSETTS", *BUDGET).stdout.splitlines()
    assert text[1].startswith("closest grid ") and text[1].endswith("which fails:")
    assert text[2].startswith("  MASSACHUSETTS is not spelled (") and text[2].endswith(" letters off)")
    assert "FAIL  M8" in "\n".join(text)


@pytest.mark.parametrize(("args", "message"), [
    (["--award", "XYZ"], "unknown checklist item XYZ"),
    (["--start", "abc"], "needs 25 letters"),
    (["--words", "no-such-file.txt"], "no-such-file.txt"),
    (["OHIO:exact"], "pinned spelling"),
    (["--shape", "9x9"], "64 cells"),
    (["--time-limit", "-1"], "time-limit"),
])
def test_bad_input_is_one_line_and_status_2(args: list[str], message: str) -> None:
    result = run("solve", *args, "--time-limit", "1") if "--time-limit" not in args else run("solve", *args)
    assert result.exit_code == 2, result.output
    assert message in result.output
    assert "Traceback" not in result.output
    result = run("solve", *args, "--json")
    assert result.exit_code == 2
    assert message in json.loads(result.stdout)["error"]


@pytest.mark.parametrize(("signum", "times"), [(signal.SIGINT, 1), (signal.SIGTERM, 1),
                                              (signal.SIGINT, 5), (signal.SIGTERM, 5)])
def test_a_signal_ends_the_search_with_the_best_grid(signum: int, times: int, tmp_path) -> None:
    """Ctrl-C or SIGTERM: exit 3 with the best grid so far. Signals after the first (an
    impatient user's Ctrl-Cs; ``kill`` sent to a command under ``timeout``, which passes it on)
    land while the answer is put together, and must not throw it away."""
    out = tmp_path / "imp.jsonl"
    process = start_cli("solve", "--time-limit", "600", "--out", str(out), "--json",
                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 600  # a fail-safe: the first improvement comes in a second
        while not (out.exists() and out.read_text().strip()):  # the search is under way
            assert process.poll() is None and time.monotonic() < deadline
            time.sleep(0.1)
        for _ in range(times):
            process.send_signal(signum)
            time.sleep(0.01)
        stdout, stderr = process.communicate(timeout=600)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
    assert process.returncode == 3, f"exit {process.returncode}\nstdout: {stdout!r}\nstderr: {stderr[-3000:]}"
    data = json.loads(stdout)
    assert data["search"]["stopped_by"] == ("Ctrl-C" if signum == signal.SIGINT else "SIGTERM")
    assert eg.score(data["grid"]).total == data["total"]


def test_fit_with_local_search_answers_c2c_with_a_qualifying_score() -> None:
    result = run("fit", "--award", "C2C", "--optional", "all", "--min-score", "165379868",
                 "--local-search", "600", "--time-limit", "900", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["verdict"] == "fits" and data["backend"] == "search"
    result_score, verdict = eg.check(data["grid"]["letters"] if isinstance(data["grid"], dict) else data["grid"])
    assert verdict["C2C"].passed and result_score.total >= 165_379_868


def test_fit_local_search_leaves_a_refutation_to_the_solver() -> None:
    result = run("fit", "OHIO", "TEXAS", "UTAH", "IOWA", "--shape", "2x2", "--budget", "0",
                 "--local-search", "1", "--json")
    assert result.exit_code == 1, result.output
    assert json.loads(result.stdout)["verdict"] == "does not fit"


def test_fits_time_limit_counts_the_time_its_modules_take_to_load(monkeypatch) -> None:
    """``eg.fit(..., local_search=...)`` loads the search's modules before the fit: that time
    comes out of the time limit (it used to be added to it, about 0.6 s), and the answer's
    seconds count it. A clock that moves 4 s a reading stands in for a slow import."""
    import types

    import exactgrid.api as api
    import exactgrid.fitting

    readings = iter(range(0, 400, 4))
    monkeypatch.setattr(api, "time", types.SimpleNamespace(monotonic=lambda: float(next(readings))))
    given = []

    def decide(question, backend, time_limit, seed, **kwargs):
        given.append(time_limit)
        return exactgrid.fitting.FitAnswer.interrupted(question, "kissat", KeyboardInterrupt())

    monkeypatch.setattr(exactgrid.fitting, "fit", decide)
    question = eg.Question(eg.Board(3, 3), required=["OHIO"])
    answer = api.fit(question, time_limit=10, local_search=1.0)
    assert given == [6.0] and answer.seconds == 8.0  # read at 0 (start), 4 (before the fit), 8 (after)
    assert api.fit(question, time_limit=3, local_search=1.0) is not None and given[-1] == 0.0  # none left


def test_awards_on_a_list_of_other_words_are_refused_before_any_search(tmp_path) -> None:
    """A checklist judges US states: with CAT in the list, solve used to search, then fail on
    the grid it found ("unknown state 'CAT'"); fit and bound counted CAT towards 20S."""
    words = tmp_path / "mixed.txt"
    words.write_text("CALIFORNIA,5\nOHIO,3\nCAT,2\n")
    for command in ("solve", "fit", "bound"):
        result = run(command, "--words", str(words), "--award", "NOCAL", "--shape", "3x3", "--time-limit", "600")
        assert result.exit_code == 2, (command, result.output)
        assert "a checklist judges US states, and the word list holds CAT, which is not a state" in result.output
    states = tmp_path / "states.txt"  # a list of states, weighted as one likes, is fine
    states.write_text("CALIFORNIA,1\nOHIO,1\nUTAH,1\nIOWA,1\n")
    result = run("solve", "--words", str(states), "--award", "NOCAL", "--shape", "3x3", *BUDGET, "--json")
    assert result.exit_code == 0, result.output


def test_a_minimum_of_its_own_goes_with_the_awards_that_count_every_word() -> None:
    """solve's targets count every word, so its own --min-score goes with 20S (it used to be
    refused, with advice solve has no option to follow)."""
    result = run("solve", "--shape", "3x3", "--min-score", "1000", "--award", "20S", *BUDGET, "--json")
    assert result.exit_code in (0, 3), result.output  # 20 states on 3x3: the search may not get there
    data = json.loads(result.stdout)
    assert data["verdict"] in ("fits", "unknown")
    question = eg.solving.solve_question(eg.Question(eg.Board(3, 3), min_score=1000), awards=["20S"])
    assert question.min_count == 20 and question.min_score == 1000
    assert question.optional == question.but(optional="all").optional


def test_fixed_cells_leaving_few_grids_are_answered_by_checking_each() -> None:
    # every cell fixed to the record grid: the one grid allowed is the best, proven (it was
    # annealed on until the time limit); 2x2 cannot spell MASSACHUSETTS, so M8 does not fit
    record = run("solve", "--cells", "ORTOH/YESAM/WGNIL/IAROF/NHCUS", "--time-limit", "600", "--json")
    assert record.exit_code == 0, record.output
    data = json.loads(record.stdout)
    assert (data["outcome"], data["grid"], data["total"]) == ("optimal", "ORTOHYESAMWGNILIAROFNHCUS", 265_326_530)
    assert data["search"]["stopped_by"] == "every filling checked" and data["search"]["proposals"] == 1
    refuted = run("solve", "--shape", "2x2", "--cells", "MA/S.", "--award", "M8", "--time-limit", "600")
    assert refuted.exit_code == 1, refuted.output
    assert refuted.stdout.startswith("DOES NOT FIT: none of the 26 grids the cells allow meets the constraints")
    assert "FAIL  M8" in refuted.stdout


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full, a device every write to fails")
def test_an_out_file_that_fails_mid_search_is_told_and_the_search_goes_on() -> None:
    result = run("solve", "--shape", "3x3", *BUDGET, "--out", "/dev/full", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["outcome"] == "feasible" and eg.score(data["grid"], shape="3x3").total == data["total"]
    assert data["search"]["out_error"] == ("cannot write '/dev/full' (No space left on device): the improvements "
                                           "from then on are not in it")
    text = run("solve", "--shape", "3x3", *BUDGET, "--out", "/dev/full").stdout
    assert text.endswith("\n\n--out: cannot write '/dev/full' (No space left on device): the improvements from "
                         "then on are not in it\n")


def test_a_certify_window_too_large_is_refused_before_the_search() -> None:
    result = run("solve", "--shape", "2x2", "--certify-window", "5", "--workers", "1", "--time-limit", "600")
    assert result.exit_code == 2 and "the certify window must be 1..4 cells" in result.output
    assert "grids scored" not in result.output  # no search ran (its summary would say so)
    fixed = run("solve", "--shape", "2x2", "--cells", "A./..", "--certify-window", "4", "--time-limit", "600")
    assert fixed.exit_code == 2 and "must be 1..3 cells" in fixed.output


def test_bad_input_leaves_no_out_file_and_a_fifo_is_refused(tmp_path) -> None:
    out = tmp_path / "improvements.jsonl"
    result = run("solve", "OHIO:exact", "--shape", "3x3", "--out", str(out), "--time-limit", "600")
    assert result.exit_code == 2 and "pinned spelling" in result.output
    assert not out.exists()  # it used to be left behind, empty
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    result = run("solve", "--shape", "3x3", "--out", str(fifo), "--time-limit", "600")  # used to block for ever
    assert result.exit_code == 2 and "it is a FIFO" in result.output


def test_the_progress_line_names_no_award_before_a_grid() -> None:
    stats = eg.solving.SearchStats(elapsed=1.0, proposals=10, best_score=None, best_found=())
    events = []
    news = eg.solving.answer._News(eg.Question(eg.Board(3, 3)), events.append, None,
                                   {"on_improvement": None, "on_compile": None, "on_certify_progress": None})
    news.progress(stats)
    assert "no grid yet" in events[0].message and "awards" not in events[0].message  # NOCAL used to pass here
