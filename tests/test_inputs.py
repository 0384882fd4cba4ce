"""Every input class has one clean answer: exit 2 with one ``Error:`` line (or a JSON error object
under ``--json``), never a traceback or a silent misreading."""

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from exactgrid.backends import Backend, BackendError, get_backend, registry
from exactgrid.cli import cli
from exactgrid.encoding import ModelTooLarge, encode
from exactgrid.fitting import fit
from exactgrid.grid import parse_grid
from exactgrid.inputs import InputError, check_flag, check_seconds, read_text_file
from exactgrid.question import build_question, load_instance


def run(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


def assert_one_line_error(result, needle):
    assert result.exit_code == 2, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert result.stdout == ""
    assert result.stderr.count("\n") == 1 and result.stderr.startswith("Error: "), result.stderr
    assert needle in result.stderr, result.stderr


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["fit", "OHIO", "--time-limit", "inf"], "finite number of seconds"),
        (["fit", "OHIO", "--time-limit", "nan"], "finite number of seconds"),
        (["fit", "OHIO", "--time-limit", "1e999"], "finite number of seconds"),
        (["fit", "OHIO", "--time-limit", "soon"], "not a number of seconds"),
        (["fit", "OHIO", "--seed", "-1"], "--seed"),
        (["fit", "OHIO", "--seed", str(2**40)], "--seed"),
        (["fit", "OHIO", "--budget", "14"], "from 0 to 13"),
        (["fit", "OHIO", "--budget", str(10**12)], "from 0 to 13"),
        (["score", "thoainesl", "--budget", "1000000000"], "from 0 to 13"),
        (["check", "thoainesl", "--budget", "99"], "from 0 to 13"),
        (["score", "ßhoainesl"], "'ß'"),
        (["score", "thoaınesl"], "'ı'"),
        (["score", "thoainesl", "--shape", "²x3"], "shape must look like"),
        (["fit", "OHIO", "--cells", "ß..../...../...../...../....."], "'ß'"),
        (["fit", "OHIO=OHßO"], "'ß'"),
        (["fit", "Oßhio"], "'ß'"),
        (["fit", "OHIO", "--backend", "cpsat-nope"], "unknown backend"),
        (["fit", "OHIO:²", "--shape", "3x3"], "1-based position"),
        (["fit", "OHIO:١", "--shape", "3x3"], "1-based position"),
        (["score", "THOA/IN/ESL"], "rows of 4, 2, 3 letters"),
        (["score", "THO/AIN/ESL", "--shape", "1x9"], "3 rows of 3 letters, but the shape is 1x9"),
    ],
)
def test_bad_options(args, needle):
    assert_one_line_error(run(*args), needle)


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ("OHIO,-5\nUTAH,3\n", ":1: weight '-5'"),  # a first line with a bad weight is no header
        ("OHIO,1.5\nUTAH,3\n", ":1: weight '1.5'"),
        ("OHIO,1e6\nUTAH,3\n", ":1: weight '1e6'"),
        ("OHIO,5\nUTAH,_\n", ":2: weight '_'"),
        ("OHIO,5\nUTAH,1__0\n", ":2: weight '1__0'"),
        ("word,weight\nOHIO,5\nTEXAS2,3\n", ":3: a word holds letters A-Z only"),
    ],
)
def test_bad_word_list_lines(tmp_path, text, needle):
    words = tmp_path / "words.csv"
    words.write_text(text)
    assert_one_line_error(run("score", "thoainesl", "--words", words), needle)


def test_a_word_list_header_and_names_with_spaces_and_punctuation(tmp_path):
    words = tmp_path / "words.csv"
    words.write_text("State,Population (2020)\nOhio,5\nNew York,3\nHawai'i,4\nRhode Island – RI,1\n")
    data = json.loads(run("score", "thoainesl", "--words", words, "--json").stdout)
    assert [w["word"] for w in data["found"]] == ["OHIO"] and data["total"] == 5


def test_rows_agreeing_with_the_shape_are_read_as_given():
    assert parse_grid("THO/AIN/ESL", shape="3x3").rows() == ["THO", "AIN", "ESL"]
    assert parse_grid("THOAINESL", shape="1x9").rows() == ["THOAINESL"]
    assert parse_grid("THOA/INES", shape=None).rows() == ["THOA", "INES"]
    assert parse_grid("/THOA/INES/\n\nTHOA/INES\n").rows() == ["THOA", "INES", "THOA", "INES"]


def test_a_grid_of_the_wrong_length_says_how_many_letters_its_shape_needs():
    with pytest.raises(InputError, match="a 1x1 grid needs 1 letter, got 9"):
        parse_grid("thoainesl", shape="1x1")


@pytest.mark.parametrize("text", ["a//b", "ab/ /cd", "ab/cd\nef//gh"])
def test_an_empty_row_between_slashes_is_refused(text):
    with pytest.raises(InputError, match="has an empty row"):
        parse_grid(text)


def test_a_budget_up_to_the_longest_word_is_fine():
    data = json.loads(run("score", "thoainesl", "--budget", "13", "--json").stdout)
    assert data["count"] == 50  # with every letter alterable, any walk of the right length spells a word
    assert data["budget"] == 13


def test_files_that_are_not_text_files(tmp_path):
    directory = tmp_path / "dir.toml"
    directory.mkdir()
    binary = tmp_path / "latin1.toml"
    binary.write_bytes('require = ["OHIO"]\n# caf\xe9\n'.encode("latin-1"))
    grid_dir = tmp_path / "grid"
    grid_dir.mkdir()
    assert_one_line_error(run("fit", "--instance", directory), "is a directory")
    assert_one_line_error(run("fit", "--instance", binary), "not UTF-8")
    assert_one_line_error(run("score", grid_dir), "is a directory")
    assert_one_line_error(run("check", "thoainesl", "--checklist", directory), "is a directory")
    assert_one_line_error(run("fit", "OHIO", "--cells", grid_dir), "is a directory")
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    assert_one_line_error(run("score", fifo), "not a regular file")  # and it does not block


@pytest.mark.parametrize(
    ("toml", "needle"),
    [
        ("", "asks nothing"),
        ("# a comment only\n", "asks nothing"),
        ('shape = "3x3"', "asks nothing"),
        ('require = ["OHIO"]\nmin_score = "abc"', "min_score must be a whole number"),
        ('require = ["OHIO"]\nmin_score = -5', "min_score must be a whole number >= 0"),
        ('require = ["OHIO"]\nmin_count = 2.5', "min_count must be a whole number"),
        ('require = ["OHIO"]\ncells = 5', "cells must be a string or a list of strings"),
        ('require = ["OHIO"]\nsymmetry_breaking = "false"', "symmetry_breaking must be true or false"),
        ('require = ["OHIO"]\nsymmetry_breaking = 0', "symmetry_breaking must be true or false"),
        ('require = ["OHIO"]\nbudget = true', "budget must be a whole number"),
        ('require = ["OHIO"]\nbudget = 1e9', "budget must be a whole number"),
        ('require = ["OHIO"]\nbudget = 40', "from 0 to 13"),
        ('require = ["OHIO"]\nwords = " "', "words names no list: give 'us-states' or 'enable' or a file, got ' '"),
        ('require = ["OHIO"]\nshape = 5', "shape must be a string"),
        ('require = ["OHIO"]\nmoves = ["king"]', "moves must be a string"),
        ('require = [1, 2]', "require must be a string or a list of strings"),
        ('require = { a = 1 }', "require must be a string or a list of strings"),
        ('require = ["OHIO"]\nexpect = "maybe"', "expect must be one of"),
        ('require = ["OHIO"]\nname = 3', "name must be a string"),
        ('require = ["OHIO"]\ntime_limit = 3', "unknown key(s) time_limit"),
        ('require = ["OHIO"\n', "not valid TOML"),
        ("require = " + "[" * 3000 + "]" * 3000, "not valid TOML: arrays or tables nested too deeply"),
    ],
)
def test_bad_instance_files(tmp_path, toml, needle):
    path = tmp_path / "q.toml"
    path.write_text(toml, encoding="utf-8")
    result = run("fit", "--instance", path)
    assert_one_line_error(result, needle)
    assert "q.toml" in result.stderr
    with pytest.raises(InputError, match="q.toml"):
        load_instance(path)


def test_an_empty_instance_with_words_on_the_command_line_is_a_question(tmp_path):
    path = tmp_path / "q.toml"
    path.write_text('shape = "3x3"\n')
    assert run("fit", "--instance", path, "OHIO").exit_code == 0


def test_instance_and_command_line_cells_are_merged(tmp_path):
    path = tmp_path / "q.toml"
    path.write_text('shape = "3x3"\nrequire = ["OHIO"]\ncells = ["O..", "...", "..."]\n')
    data = json.loads(run("fit", "--instance", path, "--cells", "..O/.../...", "--json").stdout)
    assert data["grid"][0] == "O" and data["grid"][2] == "O"
    assert_one_line_error(run("fit", "--instance", path, "--cells", "H../.../..."), "contradict")


def test_json_errors_are_json_objects_on_stdout():
    for args in (["fit", "OHIO:5", "--json"], ["fit", "--json", "--time-limit", "nan", "OHIO"],
                 ["score", "abc", "--json"], ["check", "thoainesl", "--only", "XYZ", "--json"],
                 ["fit", "--json", "--no-such-option"], ["backends", "--json", "extra"]):
        result = run(*args)
        assert result.exit_code == 2, args
        assert result.stderr == ""
        data = json.loads(result.stdout)
        assert list(data) == ["error"] and data["error"], args


class NotInstalled(Backend):
    name = "notinstalled"
    description = "a solver that is not installed here"
    install_hint = "pip install 'exactgrid[notinstalled]'"

    def _solve(self, model, time_limit, seed):
        raise AssertionError("never asked: it is not available")


def test_an_unavailable_backend_names_what_to_install(monkeypatch):
    points = registry._entry_points()
    points["notinstalled"] = registry.EntryPoint("notinstalled", f"{__name__}:NotInstalled", registry.GROUP)
    monkeypatch.setattr(registry, "_entry_points", lambda: points)
    result = run("fit", "OHIO", "--backend", "notinstalled")
    assert_one_line_error(result, "install it with: pip install 'exactgrid[notinstalled]'")
    assert "list_backends" not in result.stderr


def test_a_plugin_backend_that_is_not_installed_names_the_plugin(monkeypatch):
    points = {k: v for k, v in registry._entry_points().items() if k != "cpsat"}
    monkeypatch.setattr(registry, "_entry_points", lambda: points)
    with pytest.raises(BackendError, match="plugins/exactgrid-cpsat"):
        get_backend("cpsat")


def test_highs_names_what_to_reinstall():
    assert "pip install 'highspy>=1.8,<2'" in get_backend("highs").install_hint


def test_library_doors_check_too():
    spec = build_question(requirements=["OHIO"], shape="3x3")
    for bad in (float("inf"), float("nan"), -1, "5", True):
        with pytest.raises(InputError):
            fit(spec, time_limit=bad)
    with pytest.raises(InputError, match="'ß'"):
        parse_grid("ßß/ßß")
    with pytest.raises(InputError, match="symmetry_breaking"):
        build_question(requirements=["OHIO"], symmetry_breaking="false")
    with pytest.raises(InputError, match="asks nothing"):
        build_question(shape="3x3")
    assert check_seconds(0) == 0.0 and check_flag(False, "x") is False
    with pytest.raises(InputError, match="no such file"):
        read_text_file("/no/such/file", "grid file")


def test_a_model_too_large_is_refused_and_a_slow_encoding_answers_unknown():
    big = ["fit", "--optional", "all", "--min-score", "1", "--shape", "32x32"]
    assert_one_line_error(run(*big), "passes 5,000,000 literals")
    result = run(*big, "--time-limit", "0")  # the deadline passes before the model is built
    assert result.exit_code == 3 and "time limit reached while encoding" in result.stdout
    spec = build_question(optional=["all"], min_score=1, shape="32x32")
    answer = fit(spec, time_limit=0)
    assert answer.verdict == "unknown" and "while encoding" in answer.detail
    with pytest.raises(ModelTooLarge):
        encode(build_question(requirements=["OHIO"], shape="5x5"), max_literals=100)


def test_paths_seeds_and_lists_of_names_are_checked_at_the_library_door(tmp_path):
    """A number given for a path is refused (open() took it as a file descriptor: it read the
    caller's open file and closed it); seeds are 0 to 2**31 - 1, as on the command line; a
    lone string where a list of names goes is one name (``only="C2C"`` was read as C, 2, C)."""
    import os

    import exactgrid as eg

    handle = tmp_path / "open.txt"
    handle.write_text("OHIO\n")
    descriptor = os.open(handle, os.O_RDONLY)
    try:
        for read in (lambda: eg.read_word_list(descriptor), lambda: eg.load_checklist(descriptor),
                     lambda: eg.load_instance(descriptor)):
            with pytest.raises(eg.InputError, match=r"must be a file's path \(a str or a Path\), got int"):
                read()
        with pytest.raises(eg.InputError, match=r"a word list is a WordList, 'us-states', 'enable' or a file's path"):
            eg.score("thoainesl", words=descriptor)
        os.fstat(descriptor)  # still open
    finally:
        os.close(descriptor)
    question = eg.Question(eg.Board(2, 2), required=["OHIO"])
    for seed, message in ((None, "seed must be a whole number, got None"), (1.5, "got 1.5"),
                          (-1, "from 0 to 2147483647, got -1"), (2**31, "got 2147483648")):
        with pytest.raises(eg.InputError, match=message):
            eg.fit(question, seed=seed, time_limit=60)
        with pytest.raises(eg.InputError, match=message):
            eg.solve(question, seed=seed, time_limit=1, workers=1)
    import numpy

    assert eg.fit(question, seed=numpy.int64(1), time_limit=60).verdict == "fits"  # numpy's integers are whole
    with pytest.raises(eg.InputError, match="write must map formats to paths"):
        eg.fit(question, write=5, time_limit=60)
    with pytest.raises(eg.InputError, match="start must be a Grid or its letters"):
        eg.solve(question, start=5, time_limit=1, workers=1)
    assert [i.key for i in eg.check("thoainesl", only="C2C").checklist.items] == ["C2C"]
    assert eg.build_question(requirements="OHIO", shape="3x3").required[0].word == "OHIO"
    all_words = eg.Question(required=["OHIO"], optional="all").optional
    assert eg.build_question(requirements=["OHIO"], optional="all").optional == all_words
    for bad in (5, None):
        with pytest.raises(eg.InputError, match="must be a list of names"):
            eg.check("thoainesl", only=bad)


@pytest.mark.parametrize("call,message", [
    (lambda eg, q: eg.bound(q, time_limit=5, cores_per_round=0), "cores_per_round must be a whole number >= 1"),
    (lambda eg, q: eg.bound(q, time_limit=5, exact_seconds=-1), "exact_seconds must be a finite number"),
    (lambda eg, q: eg.bound(q, time_limit=5, certify=True, certify_seconds=float("nan")), "certify_seconds must be"),
    (lambda eg, q: eg.bound("OHIO"), "bound\\(\\) takes a Question, got str"),
    (lambda eg, q: eg.fit(q, local_search=-1), "local_search must be a finite number"),
    (lambda eg, q: eg.fit(q, explain="yes"), "explain must be true or false"),
    (lambda eg, q: eg.fit(q, on_progress=5), "on_progress must be a function"),
    (lambda eg, q: eg.fit(q, backend="portfolio:"), "names no option after its ':'"),
    (lambda eg, q: eg.solve(q, max_proposals=0, workers=1), "max_proposals must be a whole number >= 1"),
    (lambda eg, q: eg.Scorer("3x3", eg.us_states()), "a Scorer's board must be a Board"),
    (lambda eg, q: eg.Scorer(eg.Board(3, 3), "us-states"), "a Scorer's words must be a WordList"),
    (lambda eg, q: eg.evaluate(eg.default_checklist(), ["OHIO"], total=-5), "total must be a whole number >= 0"),
    (lambda eg, q: eg.check("thoainesl", water_borders="yes"), "water_borders must be true or false"),
    (lambda eg, q: eg.refute_by_cores(q, 5, relaxation="nope"), "relaxation must be one of sat, highs"),
    (lambda eg, q: eg.bound(q, time_limit=5, executor=5), "executor must be a concurrent.futures Executor"),
    (lambda eg, q: list(eg.fit_many([q], executor="pool")), "executor must be a concurrent.futures Executor"),
    (lambda eg, q: eg.bound(q, time_limit=5, workers=2, executor=__import__("concurrent.futures").futures.Executor),
     "executor must be a concurrent.futures Executor \\(.*\\), got type"),
    (lambda eg, q: eg.score("thoainesl", path_rule="simpel"), "unknown path rule 'simpel'"),
    (lambda eg, q: eg.score("thoainesl", time_limit=-1), "time limit must be"),
])
def test_the_librarys_options_refuse_values_they_cannot_mean(call, message):
    """Values the fuzz campaign found accepted (and mostly ignored, or taken as something
    else), each now one InputError saying what is expected."""
    import exactgrid as eg

    question = eg.Question(eg.Board(2, 2), required=["OHIO"])
    with pytest.raises(eg.InputError, match=message):
        call(eg, question)


@pytest.mark.parametrize("call,message", [
    (lambda eg: eg.WordList(["OHIO"]), "a WordList's weights must map words to values"),
    (lambda eg: eg.WordList({"OHIO": 1}, aliases={"oh": "OHIO"}), "alias 'oh' must be upper-case"),
    (lambda eg: eg.Board.from_edges(3, None), "edges must be a list of \\(cell, cell\\) pairs"),
    (lambda eg: eg.Question(eg.Board(3, 3), fixed={0: "A", "0": "B"}), "fixed cell '0' is not a cell"),
    (lambda eg: eg.Chain(None, None), "a chain's sources must be a list of words"),
    (lambda eg: eg.Chain(("OHIO",), ("UTAH",), links=[("OHIO",)]), "a chain's link is a pair of words"),
    (lambda eg: eg.score("A" * 10**6), "a grid of 1,000,000 letters is too big"),
    (lambda eg: eg.encode("OHIO"), "encode\\(\\) takes a Question"),
    (lambda eg: eg.refute_by_cores("OHIO"), "refute_by_cores\\(\\) takes a Question"),
    (lambda eg: eg.fit("OHIO"), "fit\\(\\) takes a Question"),
    (lambda eg: list(eg.fit_many([(1, 2, 3)], workers=1)), "fit_many takes Questions or \\(id, Question\\) pairs"),
    (lambda eg: list(eg.fit_many(eg.Question(required=["OHIO"]), workers=1)), "an iterable of Questions"),
    (lambda eg: eg.load_instance("instances/benchmarks/fit/3x3_seed_pinned.toml", require=["UTAH"]),
     "unknown question argument 'require'"),
    (lambda eg: __import__("exactgrid.puzzles.sumsquares").puzzles.sumsquares.check_grid("1234", -2),
     "n must be a whole number from 1 to 12, got -2"),
])
def test_values_of_the_wrong_kind_are_the_projects_errors_not_pythons(call, message, monkeypatch):
    """Each of these was a TypeError, ValueError or AttributeError from deep inside (the fuzz
    campaign's), or a message naming the wrong problem."""
    import exactgrid as eg

    monkeypatch.chdir(Path(__file__).resolve().parents[1])
    with pytest.raises(eg.InputError, match=message):
        call(eg)


def _wrong_types():
    """Calls of the public API with an argument of the wrong type, and the words the one-line
    error must hold (each once ended in an AttributeError or a TypeError from deep inside, some
    after a second or more of work)."""
    import exactgrid as eg
    from exactgrid.prove.certify import certify_counting
    from exactgrid.puzzles.letterboxed import solve_letter_boxed
    from exactgrid.puzzles.sumsquares import solve_sum_of_squares
    from exactgrid.puzzles.trackword import build_grid

    question = eg.Question(eg.Board(3, 3), required=["OHIO"])
    return [
        (lambda: eg.checklist_question(question, "C2C"), "expected a Checklist, got str"),
        (lambda: eg.checklist_question("OHIO", eg.default_checklist()), "expected a Question, got str"),
        (lambda: eg.award_conflict("OHIO", ["PA"]), "expected a Question, got str"),
        (lambda: eg.fit(question, encoding="model"), "takes an Encoding"),
        (lambda: certify_counting(question, "refuted"), "expected a CoreRefutation, got str"),
        (lambda: eg.solve(question, on_progress=5), "on_progress must be a function"),
        (lambda: eg.solve(question, on_improvement="print"), "on_improvement must be a function"),
        (lambda: eg.bound(question, on_bound=5), "on_bound must be a function"),
        (lambda: eg.refute_by_cores(question, on_progress=5), "on_progress must be a function"),
        (lambda: eg.fit(question, on_progress=5), "on_progress must be a function"),
        (lambda: solve_letter_boxed("ABC DEF GHI JKL", on_progress=5), "on_progress must be a function"),
        (lambda: solve_sum_of_squares(3, on_progress=5), "on_progress must be a function"),
        (lambda: build_grid("CAT", on_progress=5), "on_progress must be a function"),
    ]


@pytest.mark.parametrize("case", range(13))
def test_an_argument_of_the_wrong_type_is_one_clear_error_before_any_work(case):
    cases = _wrong_types()
    assert len(cases) == 13  # each case is a test of its own
    call, says = cases[case]
    with pytest.raises(InputError, match=says):
        call()


def test_a_mapping_where_a_list_is_wanted_is_refused_not_read_as_its_keys():
    """``required={"OHIO": 1}`` once asked for OHIO whatever the 1 meant; an empty WordList
    once failed later on "the alteration budget must be from 0 to 0"; a dict adjacency named
    cell 0's neighbours "0"."""
    import exactgrid as eg

    with pytest.raises(InputError, match="required must be a list, got a dict"):
        eg.Question(eg.Board(3, 3), required={"OHIO": 1})
    with pytest.raises(InputError, match="awards must be a list of names, got dict"):
        eg.solve(eg.Question(), awards={"PA": True})
    with pytest.raises(InputError, match="is empty: a list holds at least one word"):
        eg.WordList({})
    with pytest.raises(InputError, match="one list of neighbours per cell, cell 0 first, got a dict"):
        eg.Board.from_adjacency({0: [1], 1: [0]})
    assert eg.Question(eg.Board(3, 3), optional={"OHIO": 5}).optional == {"OHIO": 5}  # a mapping is right here


def test_numpy_integers_are_whole_numbers_everywhere():
    """``budget``/``workers`` took numpy's integers while a board's sides, a fixed cell's number
    and Sum of Squares' n refused them (the cell with a message calling it no cell)."""
    import numpy as np

    import exactgrid as eg
    from exactgrid.puzzles.sumsquares import check_n

    board = eg.Board(np.int64(3), np.int32(3))
    assert board == eg.Board(3, 3) and type(board.rows) is int
    question = eg.Question(eg.Board(3, 3), fixed={np.int64(0): "O"}, required=["OHIO"])
    assert dict(question.fixed) == {0: "O"} and type(next(iter(question.fixed))) is int
    assert check_n(np.int64(3)) == 3 and type(check_n(np.int64(3))) is int
    with pytest.raises(InputError, match="rows must be a whole number"):
        eg.Board(np.float64(3), 3)


@pytest.mark.parametrize("text", ["ohio,\nutah,2\n", "word,weight\nohio, \n", "ohio\t\nutah\n"])
def test_a_weight_left_empty_after_its_separator_is_refused_not_read_as_1(text):
    """``ohio,`` said a weight was coming and gave none; only the word alone means weight 1."""
    from exactgrid.words import parse_word_list

    with pytest.raises(InputError, match="OHIO has an empty weight after"):
        parse_word_list(text, source="w.csv")
    assert parse_word_list("ohio\nutah,2\n").weights == {"OHIO": 1, "UTAH": 2}
