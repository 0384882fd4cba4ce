"""Regression tests for inputs that once ended in a traceback, a flood of processes or a silent
misreading (issue 22, point 4): each now has one clean answer, in the library and at the CLI."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import warnings
from concurrent.futures import ThreadPoolExecutor

import pytest
from click.testing import CliRunner

import exactgrid as eg
import exactgrid.inputs
from exactgrid.backends import BackendError, backend_name, get_backend
from exactgrid.cli import cli
from exactgrid.encoding import EncodingTimeout
from exactgrid.fitting import many
from exactgrid.fitting.many import fit_many, read_questions
from exactgrid.inputs import (
    MAX_SECONDS,
    InputError,
    WorkersClamped,
    check_seconds,
    clamp_workers,
    read_text_file,
    read_text_stream,
)
from exactgrid.prove import bound as bound_module
from exactgrid.words import WordList

BOM = b"\xef\xbb\xbf"
HUGE = str(10**27)


def run(*args, stdin: bytes | None = None):
    return CliRunner().invoke(cli, [str(a) for a in args], input=stdin)


def assert_one_line_error(result, needle: str) -> None:
    assert result.exit_code == 2, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert result.stdout == ""
    assert result.stderr.count("\n") == 1 and result.stderr.startswith("Error: "), result.stderr
    assert needle in result.stderr, result.stderr


# --------------------------------------------------------------------------- numbers too large


@pytest.mark.parametrize("args", [
    ["solve", "--min-score", HUGE, "--shape", "2x2", "--workers", "1"],
    ["solve", "--min-count", HUGE, "--shape", "2x2", "--workers", "1"],
    ["fit", "OHIO", "--min-score", HUGE, "--shape", "3x3"],
    ["fit", "OHIO", "--min-count", HUGE, "--shape", "3x3"],
    ["bound", "--min-score", HUGE, "--shape", "2x2"],
    ["bound", "--min-count", HUGE, "--shape", "2x2", "--method", "relaxation"],
])
def test_a_min_score_or_count_past_2_62_is_refused(args):
    assert_one_line_error(run(*args), "is too large (at most 2**62")


def test_the_library_refuses_it_too(tmp_path):
    with pytest.raises(InputError, match=r"min_score 10+ is too large \(at most 2\*\*62"):
        eg.Question(eg.Board(3, 3), min_score=10**27)
    with pytest.raises(InputError, match="min_count .* is too large"):
        eg.Question(eg.Board(3, 3), min_count=2**62 + 1)
    assert eg.Question(eg.Board(3, 3), min_score=2**62).min_score == 2**62  # the largest accepted
    path = tmp_path / "q.toml"
    path.write_text(f'shape = "3x3"\nrequire = ["OHIO"]\nmin_score = {2**63 - 1}\n')
    assert_one_line_error(run("fit", "--instance", path), "is too large")


def test_word_weights_past_2_62_are_refused(tmp_path):
    with pytest.raises(InputError, match="the weight of OHIO .* is too large"):
        WordList({"OHIO": 10**23})
    with pytest.raises(InputError, match="add up to more than 2"):
        WordList({"OHIO": 2**62, "IOWA": 2**62})
    path = tmp_path / "w.csv"
    path.write_text(f"OHIO,{10**23}\n")
    assert_one_line_error(run("solve", "--words", path, "--shape", "2x2", "--workers", "1"), "is too large")


def test_a_huge_time_limit_means_no_practical_limit():
    assert check_seconds(1e300) == MAX_SECONDS
    assert check_seconds(5) == 5.0
    result = run("fit", "OHIO", "--shape", "3x3", "--time-limit", "1e300", "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["verdict"] == "fits"


# --------------------------------------------------------------------------- workers


def test_clamp_workers_lowers_to_the_cores(two_cores):
    assert clamp_workers(None) == (2, None)
    assert clamp_workers(2) == (2, None)
    assert clamp_workers(16, "--workers") == (2, "--workers 16 is more than the 2 cores here; using 2")
    with pytest.raises(InputError, match="whole number"):
        clamp_workers(0)


def test_solve_runs_on_the_clamped_count(two_cores, monkeypatch):
    from exactgrid.solving import answer as solve_answer

    seen = []
    real = solve_answer.search

    def spy(problem, **options):
        seen.append(options["workers"])
        return real(problem, **{**options, "max_proposals": 200})

    monkeypatch.setattr(solve_answer, "search", spy)
    result = run("solve", "--shape", "2x2", "--workers", "100000", "--time-limit", "30", "--json")
    assert result.exit_code in (0, 3), result.output
    assert result.stderr == "exactgrid: --workers 100000 is more than the 2 cores here; using 2\n"
    assert "grid" in json.loads(result.stdout)
    with pytest.warns(WorkersClamped, match="workers 16 is more than the 2 cores here; using 2"):
        eg.solve(eg.Question(eg.Board(2, 2)), workers=16, max_proposals=200)
    assert seen == [2, 2]


def _thread_pool(seen):
    def make(count):
        seen.append(count)
        return ThreadPoolExecutor(count)
    return make


def test_fit_many_runs_on_the_clamped_count(two_cores, monkeypatch, tmp_path):
    seen: list[int] = []
    monkeypatch.setattr(many, "process_pool", _thread_pool(seen))
    path = tmp_path / "q.jsonl"
    path.write_text('{"id": "a", "shape": "2x2", "require": ["OH"]}\n')
    result = run("fit-many", path, "--workers", "100000", "--time-limit", "30")
    assert result.exit_code == 0, result.output
    assert result.stderr == "exactgrid: --workers 100000 is more than the 2 cores here; using 2\n"
    assert json.loads(result.stdout)["verdict"] == "fits"
    question = eg.Question(eg.Board(2, 2), required=("OH",))
    with pytest.warns(WorkersClamped):
        answers = list(fit_many([question], workers=5000))
    assert answers[0].verdict == "fits"
    assert seen == [2, 2]


def test_fit_many_on_an_executor_leaves_workers_alone(two_cores):
    question = eg.Question(eg.Board(2, 2), required=("OH",))
    with warnings.catch_warnings(), ThreadPoolExecutor(1) as pool:
        warnings.simplefilter("error")
        assert [a.verdict for a in fit_many([question], workers=64, executor=pool)] == ["fits"]


class _Stop(Exception):
    pass


def test_bound_runs_on_the_clamped_count(two_cores, monkeypatch):
    from exactgrid.prove import bound as bound_module

    seen = []

    def pool(count):
        seen.append(count)
        raise _Stop  # enough: the pool it would have made

    monkeypatch.setattr(bound_module, "process_pool", pool)
    result = run("bound", "--shape", "2x2", "--workers", "200", "--time-limit", "5")
    assert isinstance(result.exception, _Stop)
    assert result.stderr == "exactgrid: --workers 200 is more than the 2 cores here; using 2\n"
    with pytest.warns(WorkersClamped), pytest.raises(_Stop):
        bound_module.bound(eg.Question(eg.Board(2, 2), optional=("all",)), 5, workers=200)
    assert seen == [1, 1]  # this process and one worker process


# --------------------------------------------------------------------------- fit-many lines


def test_a_deeply_nested_line_is_an_error_for_that_line_only(tmp_path):
    path = tmp_path / "q.jsonl"
    deep = "[" * 5000 + "]" * 5000
    path.write_text(f'{{"id": {deep}, "shape": "2x2"}}\n{{"id": "ok", "shape": "2x2", "require": ["OH"]}}\n'
                    f'{{"id": {"[" * 500 + "]" * 500}, "shape": "2x2"}}\n')
    result = run("fit-many", path, "--workers", "1", "--time-limit", "30")
    assert result.exit_code == 2, result.output
    lines = {line["id"]: line for line in map(json.loads, result.stdout.splitlines())}
    assert lines[1]["error"].endswith(":1: nested too deeply to read")
    assert lines["ok"]["verdict"] == "fits"
    assert "id must be a string or a whole number" in lines[3]["error"] and len(lines[3]["error"]) < 200


def test_a_key_given_twice_is_an_error_for_that_line():
    lines = ['{"id": "x", "shape": "2x2", "shape": "3x3", "require": ["OH"]}', '{"shape": "2x2", "require": ["OH"]}']
    first, second = read_questions(lines, "q.jsonl")
    assert first.error == "q.jsonl:1: the key 'shape' is given twice"
    assert second[1].board.rows == 2


def test_toml_refuses_a_key_given_twice(tmp_path):
    path = tmp_path / "q.toml"
    path.write_text('shape = "3x3"\nshape = "4x4"\nrequire = ["OHIO"]\n')
    assert_one_line_error(run("fit", "--instance", path), "not valid TOML")


@pytest.mark.parametrize("text", ["", "\n\n  \n", "\ufeff"])
def test_a_questions_file_without_questions_is_refused(tmp_path, text):
    path = tmp_path / "q.jsonl"
    path.write_text(text, encoding="utf-8")
    assert_one_line_error(run("fit-many", path), "no questions in")
    assert_one_line_error(run("fit-many", "-", stdin=text.encode()), "no questions in standard input")
    with pytest.raises(InputError, match="no questions in"):
        list(read_questions(text.splitlines(), "q.jsonl"))


def test_fit_many_from_a_closed_standard_input_is_one_error_line():
    # started without file descriptor 0, the process has sys.stdin None
    closed = subprocess.run([sys.executable, "-m", "exactgrid", "fit-many", "-", "--workers", "1"],
                            stdin=None, capture_output=True, text=True, timeout=120, check=False,
                            preexec_fn=lambda: os.close(0))  # noqa: PLW1509 (no threads in the child yet)
    assert closed.returncode == 2 and "Traceback" not in closed.stderr
    assert closed.stderr == "Error: questions file on standard input: cannot read it (closed)\n"


@pytest.mark.parametrize("stdout", ["full", "closed"])
def test_an_answer_that_cannot_be_written_is_one_error_line(stdout):
    if stdout == "full" and not os.path.exists("/dev/full"):
        pytest.skip("needs /dev/full, a device every write to fails")
    with open("/dev/full" if stdout == "full" else os.devnull, "w") as sink:
        done = subprocess.run([sys.executable, "-m", "exactgrid", "score", "thoainesl", "--json"], stdout=sink,
                              stderr=subprocess.PIPE, text=True, timeout=120, check=False,
                              preexec_fn=(lambda: os.close(1)) if stdout == "closed" else None)  # noqa: PLW1509
    reason = "No space left on device" if stdout == "full" else "it is closed"
    assert done.returncode == 2 and done.stderr == f"Error: cannot write the answer to standard output: {reason}\n"


@pytest.mark.parametrize("stderr", ["full", "closed"])
def test_bad_input_whose_error_line_cannot_be_written_still_exits_2(stderr):
    """The error line lost (stderr on a full disk, or closed): exit 2 still, not the 1 that is
    a proven DOES NOT FIT for ``fit``, and no second message about standard output."""
    if stderr == "full" and not os.path.exists("/dev/full"):
        pytest.skip("needs /dev/full, a device every write to fails")
    with open("/dev/full" if stderr == "full" else os.devnull, "w") as sink:
        done = subprocess.run([sys.executable, "-m", "exactgrid", "fit", "NARNIA"], stdout=subprocess.PIPE,
                              stderr=sink, text=True, timeout=120, check=False,
                              preexec_fn=(lambda: os.close(2)) if stderr == "closed" else None)  # noqa: PLW1509
    assert (done.returncode, done.stdout) == (2, "")


def test_a_reader_gone_is_no_error_and_a_closed_output_still_gets_the_files_written(tmp_path):
    read, write = os.pipe()
    os.close(read)  # the reader left before the answer came (as | true does)
    try:
        done = subprocess.run([sys.executable, "-m", "exactgrid", "score", "ZZ1", "--json"], stdout=write,
                              stderr=subprocess.PIPE, text=True, timeout=120, check=False)
    finally:
        os.close(write)
    assert (done.returncode, done.stderr) == (1, "")  # quiet, as click has it for a normal answer
    picture = tmp_path / "s.svg"
    shown = subprocess.run([sys.executable, "-m", "exactgrid", "show", "OHIOWTEXASUTAHNIOWAMMAINE", "--out",
                            str(picture)], stderr=subprocess.PIPE, text=True, timeout=120, check=False,
                           preexec_fn=lambda: os.close(1))  # noqa: PLW1509 (no threads in the child yet)
    assert picture.read_text().startswith("<?xml") and "it is closed" in shown.stderr


def test_latin1_on_stdin_is_refused_as_a_file_is(tmp_path):
    data = '{"shape": "2x2", "require": ["caf\xe9"]}\n'.encode("latin-1")
    assert_one_line_error(run("fit-many", "-", stdin=data), "questions file on standard input is not UTF-8 text")
    path = tmp_path / "q.jsonl"
    path.write_bytes(data)
    assert_one_line_error(run("fit-many", path), "is not UTF-8 text")


# --------------------------------------------------------------------------- byte order marks


def test_a_leading_bom_is_accepted_everywhere_text_is_read(tmp_path):
    def bom_file(name: str, text: str):
        path = tmp_path / name
        path.write_bytes(BOM + text.encode())
        return path

    assert read_text_file(bom_file("t.txt", "abc"), "file") == "abc"
    assert run("score", bom_file("grid.txt", "tho\nain\nesl\n")).exit_code == 0
    fits = run("fit", "OHIO", "--shape", "3x3", "--cells", bom_file("cells.txt", "O..\n...\n...\n"),
               "--instance", bom_file("i.toml", 'shape = "3x3"\n'), "--json")
    assert fits.exit_code == 0, fits.output
    assert json.loads(fits.stdout)["grid"][0] == "O"
    words = run("score", "thoainesl", "--words", bom_file("w.csv", "OHIO,5\nIOWA,3\n"), "--json")
    assert json.loads(words.stdout)["total"] == 8, words.output
    checked = run("check", "thoainesl", "--checklist", bom_file("c.toml", '[[items]]\nkey = "A"\nrequired = ["OH"]\n'))
    assert checked.exit_code == 0, checked.output
    line = '{"id": "a", "shape": "2x2", "require": ["OH"]}\n'
    for result in (run("fit-many", bom_file("q.jsonl", line), "--workers", "1", "--time-limit", "30"),
                   run("fit-many", "-", "--workers", "1", "--time-limit", "30", stdin=BOM + line.encode())):
        assert result.exit_code == 0, result.output
        assert json.loads(result.stdout)["id"] == "a"


def test_read_text_stream_reads_as_read_text_file_does():
    import io

    assert read_text_stream(io.BytesIO(BOM + b"abc"), "x") == "abc"
    with pytest.raises(InputError, match="x on standard input is not UTF-8 text"):
        read_text_stream(io.BytesIO(b"caf\xe9"), "x")


# --------------------------------------------------------------------------- names and budgets


@pytest.mark.parametrize("args", [
    ["fit", "OHIO", "--backend", ""],
    ["fit", "OHIO", "--backend", " "],
    ["fit-many", "-", "--backend", ""],
    ["bound", "--method", "relaxation", "--backend", ""],
    ["letterboxed", "vro wal eth bdi", "--method", "ilp", "--backend", ""],
    ["sumsquares", "--n", "3", "--backend", ""],
    ["sumsquares", "--n", "3", "--method", "dp", "--backend", ""],
])
def test_an_empty_backend_name_is_refused(args):
    assert_one_line_error(run(*args, stdin=b'{"require": ["OH"]}\n'), "backend name")


def test_the_library_refuses_an_empty_backend_name():
    with pytest.raises(BackendError, match="empty"):
        get_backend("")
    with pytest.raises(BackendError, match="empty"):
        backend_name("  ")
    assert backend_name(None, "highs") == "highs"


def test_a_words_budget_past_the_longest_word_is_refused():
    assert_one_line_error(run("words", "thoainesl", "--path", "walk", "--budget", "9999"),
                          "the alteration budget must be from 0 to 9 (the longest word counted has 9 letters")
    assert_one_line_error(run("words", "thoainesl", "--path", "walk", "--max-length", "4", "--budget", "5"),
                          "from 0 to 4")


def test_bound_exact_with_no_time_to_encode_the_exact_model_is_open(monkeypatch):
    result = run("bound", "--exact", "--time-limit", "0", "--json")  # found by the fuzz: EncodingTimeout
    assert result.exit_code == 3, result.output
    answer = json.loads(result.stdout)  # the time limit comes as the relaxation is built, before the exact model
    assert answer["status"] == "open" and "the relaxation was still being built" in answer["detail"]

    def no_time(*args, **kwargs):
        raise EncodingTimeout("time limit reached while encoding")

    monkeypatch.setattr(bound_module, "CountCheck", no_time)  # the exact model's turn: the bound goes on without it
    answer = json.loads(run("bound", "--shape", "2x2", "--exact", "--time-limit", "600", "--json").stdout)
    assert answer["bound"] is not None and "no exact check: the time limit came while encoding it" in answer["detail"]


def test_a_number_json_cannot_hold_is_an_error_for_that_line(tmp_path):
    """An integer of more than 4,300 digits: Python's json refuses it with a plain ValueError."""
    lines = ['{"id": "big", "shape": "2x2", "min_score": ' + "1" * 5000 + "}", '{"shape": "2x2", "require": ["OH"]}']
    first, second = read_questions(lines, "q.jsonl")
    assert first.error == "q.jsonl:1: not valid JSON: an integer of more than 4,300 digits"
    assert second[1].board.rows == 2
    path = tmp_path / "big.toml"
    path.write_text("min_score = " + "1" * 5000 + "\n")
    result = run("fit", "--instance", path, "--shape", "2x2")
    assert result.exit_code == 2 and result.output.count("\n") == 1 and "Traceback" not in result.output
    assert result.output.endswith("not valid TOML: an integer of more than 4,300 digits\n")
    # a word list's weight: read as a number only when it can be within 2**62
    words = tmp_path / "big.csv"
    words.write_text("OHIO," + "9" * 5000 + "\n")
    assert_one_line_error(run("score", "thoainesl", "--words", words),
                          "big.csv:1: the weight of OHIO 999999999999... (5,000 digits) is too large")
    words.write_text("OHIO," + "0" * 40 + "5\n")  # leading zeros are no size
    assert_one_line_error(run("score", "thoainesl", "--shape", "3x" + "9" * 5000),
                          "the number of columns 999999999999... (5,000 digits) is too large (at most 32)")
    assert_one_line_error(run("fit", "OHIO:" + "1" * 5000, "--shape", "3x3"),
                          "the position 111111111111... (5,000 digits) is too large")
    assert json.loads(run("score", "thoainesl", "--words", words, "--json").stdout)["total"] == 5


def _cli_with(patch: str, *args: str) -> subprocess.CompletedProcess[str]:
    """``exactgrid ARGS`` in a process where ``patch`` (Python) ran first."""
    code = f"{patch}\nfrom exactgrid.cli import main; main()"
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, timeout=120,
                          check=False)


NO_DESCRIPTOR_LEFT = """
import errno, exactgrid.backends._child as child
def _start(*args):
    raise OSError(errno.EMFILE, "Too many open files")
child._start = _start
"""


@pytest.mark.parametrize("as_json", [False, True])
def test_an_error_of_the_system_is_one_error_line(as_json):
    # as with `ulimit -n 8`: fit's child backend cannot be started (it was a traceback, exit 1,
    # which fit gives to DOES NOT FIT)
    done = _cli_with(NO_DESCRIPTOR_LEFT, "fit", "OHIO", "IOWA", "--shape", "3x3", "--no-counting",
                     *(["--json"] if as_json else []))
    message = "the system refused what the command needed: Too many open files [Errno 24]"
    assert done.returncode == 2 and "Traceback" not in done.stderr
    if as_json:
        assert (json.loads(done.stdout), done.stderr) == ({"error": message}, "")
    else:
        assert (done.stdout, done.stderr) == ("", f"Error: {message}\n")


A_BUG = """
import exactgrid.api
def score(*args, **kwargs):
    raise ZeroDivisionError("a bug")
exactgrid.api.score = score
"""

AN_ODD_OS_ERROR = """
import exactgrid.api
def score(*args, **kwargs):
    raise ConnectionResetError(104, "Connection reset by peer")
exactgrid.api.score = score
"""


def test_an_os_error_that_is_no_refusal_of_the_system_is_taken_for_a_bug():
    done = _cli_with(AN_ODD_OS_ERROR, "score", "thoainesl")
    assert done.returncode == 4 and "Traceback" in done.stderr
    assert "failed unexpectedly, with no answer (Connection reset by peer [Errno 104])" in done.stderr


@pytest.mark.parametrize("as_json", [False, True])
def test_a_bug_shows_its_traceback_and_exits_4_not_1(as_json):
    done = _cli_with(A_BUG, "score", "thoainesl", *(["--json"] if as_json else []))
    assert done.returncode == 4
    assert "Traceback" in done.stderr and "ZeroDivisionError: a bug" in done.stderr
    message = "exactgrid failed unexpectedly, with no answer (ZeroDivisionError: a bug)"
    assert done.stderr.splitlines()[-1] == f"Error: {message}; the traceback above says where"
    assert done.stdout == (json.dumps({"error": message}) + "\n" if as_json else "")


def test_word_lists_with_old_mac_line_ends_or_a_line_too_long_for_csv(tmp_path):
    words = tmp_path / "cr.txt"
    words.write_bytes(b"OHIO\rIOWA\rUTAH")  # line ends of a classic Mac OS file: was a _csv.Error traceback
    assert [w["word"] for w in json.loads(run("score", "ohiowa", "--shape", "2x3", "--words", words,
                                              "--json").stdout)["found"]] == ["IOWA", "OHIO"]
    words.write_text("OHIO\n" + "A" * 200_000 + "\n")
    assert_one_line_error(run("score", "ohiowa", "--shape", "2x3", "--words", words),
                          "cr.txt:2: cannot read it as CSV (field larger than field limit (131072))")


def test_a_fifo_nothing_reads_is_refused_and_one_with_a_reader_is_written(tmp_path):
    fifo = tmp_path / "model.cnf"
    os.mkfifo(fifo)
    # nothing reads it: writing would have waited forever, past the time limit
    done = subprocess.run([sys.executable, "-m", "exactgrid", "fit", "OHIO", "--shape", "2x2", "--write-cnf",
                           str(fifo), "--time-limit", "5"], capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 2
    assert done.stderr == f"Error: cannot write {str(fifo)!r}: it is a FIFO that nothing reads, and writing to it " \
                          "would wait forever\n"
    # a reader (as '>(gzip > model.cnf.gz)' gives), here this process, opened before: the model (a
    # few kB, within the pipe's buffer) is written, and the look before does not end the reading
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
    try:
        done = subprocess.run([sys.executable, "-m", "exactgrid", "fit", "OHIO", "--shape", "2x2", "--write-cnf",
                               str(fifo), "--time-limit", "5"], capture_output=True, text=True, timeout=120,
                              check=False)
        text = os.read(reader, 1 << 16).decode()
    finally:
        os.close(reader)
    assert done.returncode == 0 and text.startswith("c exactgrid model:") and "\np cnf " in text
