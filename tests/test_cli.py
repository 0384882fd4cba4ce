import functools
import json

import pytest
from click.testing import CliRunner

from exactgrid.cli import cli

SEED_3X3 = "thoainesl"
SEED_5X5 = "WTIMAENSVFKOALIRCSROENAIN"
# All eight awards but NOCAL need 20+ states; this 3x3 grid passes a custom list instead.
EASY = """
[[items]]
key = "OHIO"
required = ["Ohio"]

[[items]]
key = "NOTX"
forbidden = ["TX"]
"""


def run(*args):
    return CliRunner().invoke(cli, list(args))


def test_score_text():
    result = run("score", SEED_3X3)
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[:3] == ["T H O", "A I N", "E S L"]
    assert "total  32,913,047" in result.stdout
    assert "count  5" in result.stdout
    utah = next(line for line in lines if line.startswith("UTAH"))
    assert utah.split() == ["UTAH", "3,271,616", "aTAH", "1", "U->A", "r2c1", "r1c1", "r2c1", "r1c2"]
    ohio = next(line for line in lines if line.startswith("OHIO"))
    assert ohio.split()[2:4] == ["OHIO", "-"]


def test_score_json():
    result = run("score", "THO/ain/E S L", "--json")
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert data["grid"] == "THOAINESL" and data["shape"] == [3, 3] and data["rows"] == ["THO", "AIN", "ESL"]
    assert (data["total"], data["count"], data["budget"], data["moves"], data["path_rule"]) == (
        32_913_047, 5, 1, "king", "walk",
    )
    idaho = next(f for f in data["found"] if f["state"] == "IDAHO")
    assert idaho["spelled"] == "IEAHO" and idaho["marked"] == "IeAHO"
    assert idaho["altered"] == [{"position": 2, "from": "D", "to": "E"}]
    assert idaho["name"] == "Idaho" and idaho["population"] == 1_839_106
    assert len(idaho["path"]) == len(idaho["cells"]) == 5
    assert [f["state"] for f in data["found"]] == ["ILLINOIS", "OHIO", "UTAH", "IOWA", "IDAHO"]
    assert (data["outcome"], data["exit_code"], data["unchecked"], data["timed_out"]) == ("optimal", 0, [], False)


def test_score_and_check_cut_short_by_the_time_limit_exit_3():
    grid = "VYMIPLASETDNRSTEOIAOWMCHW"  # simple paths, budget 4: about a second of searching
    score = run("score", grid, "--path", "simple", "--budget", "4", "--time-limit", "0", "--json")
    data = json.loads(score.stdout)
    assert score.exit_code == 3 and data["outcome"] == "unknown" and data["timed_out"] and data["unchecked"]
    check = run("check", grid, "--path", "simple", "--budget", "4", "--time-limit", "0")
    assert check.exit_code == 3 and "checklist: not judged" in check.stdout and "the time limit came" in check.stdout


def test_score_options_change_the_answer():
    exact = json.loads(run("score", SEED_3X3, "--budget", "0", "--json").stdout)
    assert [f["state"] for f in exact["found"]] == ["OHIO"]
    rook = json.loads(run("score", SEED_3X3, "--moves", "rook", "--json").stdout)
    assert rook["moves"] == "rook" and rook["total"] < 32_913_047
    simple = json.loads(run("score", SEED_3X3, "--path", "simple", "--json").stdout)
    # the grid has one I: ILLINOIS (three I's) needs 2+ alterations without revisiting a cell
    assert "ILLINOIS" not in {f["state"] for f in simple["found"]}
    assert {"UTAH", "OHIO"} <= {f["state"] for f in simple["found"]}
    # ... and one O: exact OHIO needs the O cell twice
    assert run("score", SEED_3X3, "--path", "simple", "--budget", "0", "--json").stdout.count('"state"') == 0
    wide = json.loads(run("score", "OHIOXX", "--shape", "1x6", "--budget", "0", "--json").stdout)
    assert wide["shape"] == [1, 6] and [f["state"] for f in wide["found"]] == ["OHIO"]


def test_grid_from_file(tmp_path):
    path = tmp_path / "grid.txt"
    path.write_text("W T I M A\nE N S V F\nK O A L I\nR C S R O\nE N A I N\n")
    data = json.loads(run("score", str(path), "--json").stdout)
    assert data["total"] == 188_652_076 and data["count"] == 18


def test_check_seed_5x5_fails_with_evidence():
    result = run("check", SEED_5X5)
    assert result.exit_code == 1
    out = result.stdout
    assert "PASS  QUALIFY" in out and "FAIL  C2C" in out and "FAIL  20S" in out
    m8 = ["MARYLAND", "MASSACHUSETTS", "MICHIGAN", "MINNESOTA", "MISSISSIPPI", "MISSOURI", "MONTANA"]
    off = [walk_letters_off(SEED_5X5, state) for state in m8]
    assert off == [3, 5, 3, 3, 4, 2, 2]
    assert "missing " + ", ".join(f"{s} ({k} letters off)" for s, k in zip(m8, off)) in out
    assert "reach only ALABAMA, FLORIDA, MAINE, NEWYORK, VIRGINIA" in out
    assert "1 of 8 passed" in out


def walk_letters_off(letters: str, word: str) -> int:
    """Fewest letters of ``word`` any king's walk on the 5x5 grid ``letters`` differs in
    (memoised recursion over (position, cell); the finder's own search works on bit sets)."""

    def neighbours(cell: int) -> list[int]:
        r, c = divmod(cell, 5)
        return [i * 5 + j for i in range(r - 1, r + 2) for j in range(c - 1, c + 2)
                if 0 <= i < 5 and 0 <= j < 5 and (i, j) != (r, c)]

    @functools.cache
    def rest(i: int, cell: int) -> int:
        after = min(rest(i + 1, d) for d in neighbours(cell)) if i + 1 < len(word) else 0
        return (letters[cell] != word[i]) + after

    return min(rest(0, cell) for cell in range(25))


def test_check_on_simple_paths_measures_missing_states_only_so_far():
    result = run("check", "thoainesl", "--path", "simple", "--only", "M8", "--json")
    details = json.loads(result.stdout)["items"][0]["details"]
    assert details["letters_off_within"] == 3  # the budget + 2
    assert details["letters_off"]["MASSACHUSETTS"] is None  # 13 letters, 9 cells: no simple path
    assert details["letters_off"]["MAINE"] == 2  # M-A-I-N-E: AIN is a path, then two letters wrong
    text = run("check", "thoainesl", "--path", "simple", "--only", "M8").stdout
    assert "MASSACHUSETTS (more than 3 letters off)" in text and "MAINE (2 letters off)" in text
    assert "PENNSYLVANIA (no path that long)" in run("check", "A", "--shape", "1x1", "--only", "PA").stdout


def test_check_json():
    result = run("check", SEED_5X5, "--json")
    assert result.exit_code == 1
    data = json.loads(result.stdout)
    assert data["total"] == 188_652_076 and data["passed"] is False
    assert data["failed"] == ["20S", "200M", "PA", "M8", "4C", "NOCAL", "C2C"]
    assert data["water_borders"] is False
    items = {i["key"]: i for i in data["items"]}
    assert items["QUALIFY"]["passed"] is True and items["C2C"]["details"]["chain"] is None
    assert set(items["C2C"]) == {"key", "title", "kind", "passed", "evidence", "details"}
    assert items["PA"]["details"]["letters_off"] == {"PENNSYLVANIA": walk_letters_off(SEED_5X5, "PENNSYLVANIA")}
    assert items["PA"]["details"]["letters_off_within"] is None  # walks: measured however far
    assert "letters_off" not in items["NOCAL"]["details"]


def test_check_passes_with_custom_checklist(tmp_path):
    path = tmp_path / "easy.toml"
    path.write_text(EASY)
    result = run("check", SEED_3X3, "--checklist", str(path))
    assert result.exit_code == 0, result.output
    assert "PASS  OHIO" in result.stdout and "2 of 2 passed" in result.stdout
    assert run("check", SEED_3X3, "--only", "nocal").exit_code == 0
    assert run("check", SEED_3X3, "--only", "NOCAL", "--only", "C2C").exit_code == 1


def test_check_water_borders_flag(tmp_path):
    # A 1x21 strip spelling OHIO, MICHIGAN, MINNESOTA exactly: Michigan meets Minnesota only in
    # Lake Superior, so the OH -> MN chain exists only with water borders.
    path = tmp_path / "lakes.toml"
    path.write_text('[[items]]\nkey = "LAKES"\nchain = { from = "OHIO", to = "MINNESOTA" }\n')
    opts = ["--checklist", str(path), "--budget", "0", "--shape", "1x21", "--json"]
    dry = run("check", "OHIOMICHIGANMINNESOTA", *opts)
    wet = run("check", "OHIOMICHIGANMINNESOTA", *opts, "--water-borders")
    found = {f["state"] for f in json.loads(dry.stdout)["found"]}
    assert {"OHIO", "MICHIGAN", "MINNESOTA"} <= found and "WISCONSIN" not in found
    assert dry.exit_code == 1 and wet.exit_code == 0
    assert json.loads(wet.stdout)["items"][0]["details"]["chain"] == ["OHIO", "MICHIGAN", "MINNESOTA"]


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["score", "abc"], "not square"),
        (["score", "thoa1nesl"], "letters A-Z only"),
        (["score", ""], "empty"),
        (["score", SEED_3X3, "--shape", "2x3"], "needs 6 letters, got 9"),
        (["score", SEED_3X3, "--shape", "0x9"], "rows must be"),
        (["score", SEED_3X3, "--shape", "big"], "shape must look like"),
        (["score", SEED_3X3, "--moves", "queen"], "queen"),
        (["score", SEED_3X3, "--budget", "-1"], "--budget"),
        (["score", "missing/grid.txt"], "no such grid file"),
        (["score"], "Missing argument 'GRID'"),
        (["check", SEED_3X3, "--checklist", "nope.toml"], "checklist 'nope.toml': no such file"),
        (["check", SEED_3X3, "--only", "XYZ"], "unknown checklist item XYZ"),
        (["frobnicate"], "No such command"),
    ],
)
def test_bad_input_is_one_line_exit_2(args, needle):
    result = run(*args)
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr.count("\n") == 1 and result.stderr.startswith("Error: ")
    assert needle in result.stderr
    assert "Traceback" not in result.output


@pytest.mark.parametrize(
    ("toml", "needle"),
    [
        ("[[items]\nkey = 'A'", "malformed TOML"),
        ("[[items]]\nkey = 'A'\nrequired = " + "[" * 3000 + "]" * 3000, "malformed TOML: arrays or tables nested"),
        ("[[items]]\nkey = 'A'\nrequired = ['Narnia']", "unknown state 'Narnia'"),
        ("[[items]]\nkey = 'A'\nrequired = ['OH']\ncolour = 'red'", "unknown field colour"),
        ("[[items]]\nkey = 'A'\nmin_states = 'many'", "min_states must be a whole number"),
    ],
)
def test_bad_checklist_is_one_line_exit_2(tmp_path, toml, needle):
    path = tmp_path / "bad.toml"
    path.write_text(toml)
    result = run("check", SEED_3X3, "--checklist", str(path))
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1 and needle in result.stderr and "bad.toml" in result.stderr
    assert "Traceback" not in result.output


def test_console_script_is_installed():
    from importlib.metadata import entry_points

    (script,) = [e for e in entry_points(group="console_scripts") if e.name == "exactgrid"]
    assert script.value == "exactgrid.cli:main"


def test_word_lists_from_files_label_the_output(tmp_path):
    path = tmp_path / "words.csv"
    path.write_text("word,weight\ntho,7\nain,5\nzzz,1\n")
    result = CliRunner().invoke(cli, ["score", "thoainesl", "--words", str(path), "--json"])
    data = json.loads(result.output)
    assert result.exit_code == 0 and data["total"] == 12 and data["count"] == 2  # THO and AIN, each exact
    assert {f["word"] for f in data["found"]} == {"THO", "AIN"} and "state" not in data["found"][0]
    text = CliRunner().invoke(cli, ["score", "thoainesl", "--words", str(path)]).output
    assert "word  weight" in text and "population" not in text
    bad = CliRunner().invoke(cli, ["check", "thoainesl", "--words", str(path)])
    assert bad.exit_code == 2
    assert "a checklist judges US states, and the grid holds AIN, THO, which are not" in bad.output
    enable = CliRunner().invoke(cli, ["check", "thoainesl", "--words", "enable"])  # thousands of words: three named
    assert enable.exit_code == 2 and enable.stderr.count("\n") == 1 and len(enable.stderr) < 300
    assert "the grid holds AA, AAH, AAL and 2,957 more, which are not" in enable.stderr
    path.write_text("tho,7\ntho,2\n")
    dup = CliRunner().invoke(cli, ["score", "thoainesl", "--words", str(path)])
    assert dup.exit_code == 2 and "words.csv:2: THO is listed twice" in dup.output


@pytest.mark.parametrize(("args", "as_json"), [
    (["score", "thoainesl", "--json"], True),
    (["score", "--json", "thoainesl"], True),
    (["score", "thoainesl", "--words", "--json"], False),  # the value of --words, a word list named --json
    (["score", "thoainesl", "--words", "--json", "--json"], True),
    (["fit", "--forbid", "--json", "OHIO"], False),
    (["fit", "OHIO", "--", "--json"], False),
    (["score", "thoainesl"], False),
])
def test_json_is_asked_for_by_the_flag_not_by_an_options_value(args, as_json):
    result = CliRunner().invoke(cli, args)
    assert result.exit_code in (0, 2)
    assert result.stdout.startswith("{") == as_json, result.output
    if result.exit_code == 2:  # the error line where the flag says: stdout under --json, else stderr
        assert (result.stderr == "") == as_json
