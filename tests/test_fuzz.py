"""Fuzz: generated command lines and instance files, thrown at every command.

Whatever comes in, a command ends with an answer (exit 0, 1 or 3) or with exactly one
``Error: ...`` line (a JSON error object under ``--json``) and exit 2: never a traceback, never a
crash. No verdict here reads the clock: a slow or loaded machine cannot fail a run that is
merely late (a hang would stall the suite instead). The examples are derandomised, so CI runs
the same ones every time; set ``EXACTGRID_FUZZ_EXAMPLES`` to run more and ``EXACTGRID_FUZZ_RANDOM=1`` to draw new ones.
"""

from __future__ import annotations

import json
import os

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from exactgrid.cli import cli
from exactgrid.cli.base import wants_json as cli_wants_json

EXAMPLES = int(os.environ.get("EXACTGRID_FUZZ_EXAMPLES", "200"))
FUZZ = settings(max_examples=EXAMPLES, deadline=None, database=None,
                derandomize=not os.environ.get("EXACTGRID_FUZZ_RANDOM"),
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])

ODD_TEXT = st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=12)
GRIDS = ["thoainesl", "THO/AIN/ESL", "tho ain esl", "WTIMAENSVFKOALIRCSROENAIN", "", " ", "/", "abc",
         "ßhoainesl", "thoaınesl", "th0ainesl", "ﬁhoainesl", "ABCDEFGH", "A" * 1024, "--json", "-x", "nofile.txt",
         "./missing", "~", "-"]
SHAPES = ["3x3", "5x5", "2x4", "1x1", "4x4", "0x0", "33x1", "x", "²x3", "５x５", "-1x3", "3X3", "3×3", " 3 x 3 ",
          "99999999999999999999x2", ""]
NUMBERS = ["0", "1", "2", "13", "14", "-1", "1e3", "abc", "", str(10**30), "nan", "inf", "0x10", "1_000", "٣"]
SECONDS = ["0", "0.05", "0.3", "inf", "-inf", "nan", "-1", "1e999", "soon", "", "1e-320", "0x1"]
WORDS = ["OHIO", "ohio:exact", "OHIO:2", "OHIO:2=X", "OHIO:2=H", "OHIO:5", "OHIO:0", "OHIO=OHIA", "OHIO=OHHH",
         "New York", "NY", "ny:any", "UTAH=ATAH", "IOWA:3=H", "Narnia", "ß", "OHIO:", ":", "=", "==",
         "OHIO:exact=X", "OHIO:2=ß", "OHIO:x", "OHIO:2=XY", "all", "CALIFORNIA", "TEXAS"]
BACKENDS = ["cadical", "glucose", "kissat", "nosuch", "pysat:nosuch", "pysat:minisat22", "portfolio:cadical+glucose",
            "portfolio:x", "cadical:1", "", ":", "highs"]
CELLS = ["O.O/.../...", "...", ".../.../...", "ß../.../...", "O1./.../...", "P..../...../...../...../.....",
         "/", "", "nofile.txt"]


def file_paths(root) -> list[str]:
    """Files of every awkward kind a path option may be given."""
    (root / "dir").mkdir()
    (root / "latin1.toml").write_bytes('require = ["OHIO"] # caf\xe9'.encode("latin-1"))
    (root / "empty.toml").write_text("")
    (root / "grid.txt").write_text("tho\nain\nesl\n")
    (root / "ok.toml").write_text('shape = "3x3"\nrequire = ["OHIO"]\n')
    (root / "check.toml").write_text('[[items]]\nkey = "A"\nrequired = ["OH"]\n')
    os.mkfifo(root / "fifo")
    return [str(root / name) for name in ("dir", "latin1.toml", "empty.toml", "grid.txt", "ok.toml",
                                          "check.toml", "fifo", "missing.toml")]


@pytest.fixture(autouse=True)
def in_a_scratch_folder(tmp_path, monkeypatch) -> None:
    """Odd text drawn for an output path (``--write-cnf``, ``--out``) is a file in a scratch
    folder, never in the checkout."""
    monkeypatch.chdir(tmp_path)


@pytest.fixture(scope="module")
def paths(tmp_path_factory) -> list[str]:
    return file_paths(tmp_path_factory.mktemp("fuzz"))


def option(name: str, values: list[str]) -> st.SearchStrategy[list[str]]:
    return st.tuples(st.just(name), st.sampled_from(values) | ODD_TEXT).map(list)


def tame_option(name: str, values: list[str]) -> st.SearchStrategy[list[str]]:
    """:func:`option` drawing odd text one time in five, so that more runs get past the door."""
    listed = st.sampled_from(values)
    return st.tuples(st.just(name), st.one_of(listed, listed, listed, listed, ODD_TEXT)).map(list)


def command_line(command: str, positional, options, paths: list[str],
                 path_options: tuple[str, ...] = ("--instance", "--cells", "--checklist", "--write-cnf"),
                 max_positional: int = 4) -> st.SearchStrategy[list[str]]:
    """``command``, some positional arguments and options (drawn, shuffled), maybe ``--json``."""
    path_options = [option(name, paths) for name in path_options]
    return st.tuples(
        st.lists(positional, max_size=max_positional),
        st.lists(st.one_of(*options, *path_options), max_size=6),
        st.booleans(),
        st.permutations(range(3)),
    ).map(lambda t: [command, *_interleave(t[0], [x for pair in t[1] for x in pair], t[3]),
                     *(["--json"] if t[2] else [])])


def _interleave(positional: list[str], flat_options: list[str], order) -> list[str]:
    parts = [positional, flat_options, []]
    return [x for i in order for x in parts[i]]


def grid_options():
    return [option("--shape", SHAPES), option("--moves", ["king", "rook", "queen", ""]),
            option("--path", ["walk", "simple", "fly"]), option("--budget", NUMBERS[:8])]


def fit_options():
    return [*grid_options(), option("--time-limit", SECONDS), option("--backend", BACKENDS),
            option("--forbid", WORDS), option("--optional", WORDS), option("--min-score", NUMBERS),
            option("--min-count", NUMBERS), option("--seed", NUMBERS), option("--cells", CELLS),
            st.just(["--symmetry-breaking"])]


JSON_COMMANDS = ("score", "check", "fit", "show", "words", "trackword", "sumsquares", "letterboxed", "bound",
                 "solve")
"""Commands whose answer under --json is one JSON document."""


def check_clean(args: list[str], stdin: bytes | None = None) -> None:
    """Run one command line in-process and hold it to the contract."""
    if args[0] in ("fit", "sumsquares", "letterboxed", "bound", "solve", "fit-many"):  # short unless the line says
        args = [*args[:1], "--time-limit", "0.3", *args[1:]]
    if args[0] in ("solve", "fit-many"):  # one thread or process a run (more are clamped to the cores anyway)
        args = [*args[:1], "--workers", "1", *args[1:]]
    # the simple-path witness search is exponential in the budget (see the README's known limits)
    if "simple" in args and "--budget" in args:
        args = [*args, "--budget", "1"]
    result = CliRunner().invoke(cli, args, input=stdin)
    assert result.exception is None or isinstance(result.exception, SystemExit), (args, repr(result.exception))
    assert "Traceback" not in result.output, (args, result.output)
    assert result.exit_code in (0, 1, 2, 3), (args, result.exit_code, result.output)
    wants_json = cli_wants_json(args, cli)  # "--json" as a flag, not as another option's value
    if args[0] == "fit-many" and result.stdout and result.exit_code != 2 or result.exit_code == 2 and (
            args[0] == "fit-many" and result.stdout.startswith('{"id"')):
        lines = [json.loads(line) for line in result.stdout.splitlines()]  # one JSON line per question
        assert all("id" in line or "stopped" in line for line in lines), (args, result.stdout)
        bad = any("error" in line and not str(line["error"]).startswith("not answered") for line in lines)
        assert result.exit_code in ((2, 3) if bad else (0, 3)), (args, result.exit_code, result.stdout)  # 3 wins
    elif result.exit_code == 2 and not wants_json:
        assert result.stdout == "", (args, result.stdout)
        assert result.stderr.count("\n") == 1 and result.stderr.startswith("Error: "), (args, result.stderr)
    elif result.exit_code == 2:
        assert result.stderr == "", (args, result.stderr)
        assert list(json.loads(result.stdout)) == ["error"], (args, result.stdout)
    elif wants_json and args[0] in JSON_COMMANDS and not {"--help", "--version"} & set(args):
        json.loads(result.stdout)  # an answer under --json is JSON


@FUZZ
@given(data=st.data())
def test_fuzz_score(paths, data):
    positional = st.sampled_from(GRIDS + paths) | ODD_TEXT
    check_clean(data.draw(command_line("score", positional, grid_options(), paths)))


@FUZZ
@given(data=st.data())
def test_fuzz_check(paths, data):
    positional = st.sampled_from(GRIDS + paths) | ODD_TEXT
    options = [*grid_options(), option("--only", ["20S", "PA", "XYZ", ""]), st.just(["--water-borders"])]
    check_clean(data.draw(command_line("check", positional, options, paths)))


@FUZZ
@given(data=st.data())
def test_fuzz_fit(paths, data):
    positional = st.sampled_from(WORDS) | ODD_TEXT
    check_clean(data.draw(command_line("fit", positional, fit_options(), paths)))


@settings(FUZZ, max_examples=max(EXAMPLES // 4, 1))
@given(data=st.data())
def test_fuzz_bound(paths, data):
    positional = st.sampled_from(WORDS) | ODD_TEXT
    options = [*fit_options(), option("--method", ["cores", "relaxation", "x"]),
               option("--award", ["M8", "NOCAL", "4C", "XYZ", ""]), st.just(["--certify"]), st.just(["--no-progress"]),
               option("--workers", ["1", "2", "0", "-1", "200", str(10**30), "x"]),
               option("--cores-per-round", NUMBERS), st.just(["--exact"]), st.just(["--triples"])]
    check_clean(data.draw(command_line("bound", positional, options, paths)))


@settings(FUZZ, max_examples=max(EXAMPLES // 5, 1))  # a run that draws takes ~0.5-2 s
@given(data=st.data())
def test_fuzz_show(paths, tmp_path_factory, data):
    folder = tmp_path_factory.getbasetemp()
    outs = [str(folder / name) for name in ("out.svg", "out.png", "out.pdf", "out.txt", "out", "OUT.SVG")]
    outs += ["/no/such/folder/x.svg", paths[0], str(folder)]
    positional = st.sampled_from(GRIDS + paths) | ODD_TEXT
    options = [*grid_options(), option("--out", outs), option("--out", outs), option("--max-panels", NUMBERS),
               option("--columns", NUMBERS), option("--dpi", NUMBERS), st.just(["--no-map"]), st.just(["--map"]),
               option("--words", ["us-states", paths[3], "nofile.txt"]), st.just(["--water-borders"])]
    check_clean(data.draw(command_line("show", positional, options, paths)))


@settings(FUZZ, max_examples=max(EXAMPLES // 4, 1))
@given(data=st.data())
def test_fuzz_puzzle_commands(paths, data):
    command = data.draw(st.sampled_from(["words", "trackword", "sumsquares", "letterboxed"]))
    positional = {"words": st.sampled_from(GRIDS + paths) | ODD_TEXT,
                  "trackword": st.sampled_from(["retrieves", "RETRIEVE", "abcdefghi", "ab", "", "é" * 9]) | ODD_TEXT,
                  "sumsquares": st.sampled_from(["5", "extra"]) | ODD_TEXT,
                  "letterboxed": st.sampled_from(["vro wal eth bdi", "vro wal", "abc abd", "ab cd ef", "a b", "",
                                                  "vro,wal,eth,bdi", "VRO/WAL/ETH/BDI", "é"]) | ODD_TEXT}[command]
    options = [option("--min-length", NUMBERS), option("--max-length", NUMBERS),
               option("--list", ["enable", "us-states", paths[3], "nosuch"]), option("--shape", SHAPES),
               option("--moves", ["king", "rook", "x"]), option("--path", ["walk", "simple", "x"]),
               option("--budget", ["0", "1", "-1", "x"]), option("--n", ["1", "2", "3", "5", "0", "13", "x", ""]),
               option("--method", ["ilp", "dp", "both", "search", "x"]), option("--backend", BACKENDS),
               option("--max-words", NUMBERS)]
    check_clean(data.draw(command_line(command, positional, options, paths)))


@FUZZ
@given(data=st.data())
def test_fuzz_other_commands(paths, data):
    command = data.draw(st.sampled_from(["backends", "frobnicate", "--version", "--help", "", "score --help"]))
    extra = data.draw(st.lists(st.sampled_from(["--json", "-x", "--", "fit", "--help"]) | ODD_TEXT, max_size=3))
    check_clean([*command.split(), *extra] or ["--help"])


TOML_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-10**20, 10**20) | st.floats(allow_nan=True) | ODD_TEXT
    | st.sampled_from(["3x3", "5x5", "king", "rook", "walk", "simple", "OHIO", "UTAH=ATAH", "all", "fits"]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from(["a", "b"]), inner, max_size=2),
    max_leaves=6)
KEYS = ["shape", "moves", "path", "budget", "require", "forbid", "cells", "optional", "min_score", "min_count",
        "symmetry_breaking", "name", "description", "expect", "colour"]


def toml_value(value) -> str | None:
    """``value`` as TOML (None: no TOML spelling, e.g. null)."""
    if value is None:
        return None
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        text = repr(value)
        return {"nan": "nan", "inf": "inf", "-inf": "-inf"}.get(text, text)
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, list):
        items = [toml_value(v) for v in value]
        return None if None in items else "[" + ", ".join(items) + "]"
    items = {k: toml_value(v) for k, v in value.items()}
    return None if None in items.values() else "{" + ", ".join(f"{k} = {v}" for k, v in items.items()) + "}"


@FUZZ
@given(table=st.dictionaries(st.sampled_from(KEYS), TOML_VALUES, max_size=6), garble=st.integers(0, 20),
       extra=st.lists(st.sampled_from(WORDS), max_size=2), as_json=st.booleans())
def test_fuzz_instance_files(tmp_path, table, garble, extra, as_json):
    lines = [f"{key} = {text}" for key, value in table.items() if (text := toml_value(value)) is not None]
    body = "\n".join(lines)
    if garble == 0:
        body = body[: len(body) // 2]  # cut off mid-value
    path = tmp_path / "q.toml"
    path.write_text(body, encoding="utf-8")
    check_clean(["fit", "--instance", str(path), *extra, *(["--json"] if as_json else [])])


SMALL_SHAPES = ["2x2", "3x3", "2x3", "1x1", "0x0", "x", "-1x3", "99999999999999999999x2", "33x1", ""]


@settings(FUZZ, max_examples=max(EXAMPLES // 5, 1))  # a run that searches takes its 0.3 s
@given(data=st.data())
def test_fuzz_solve(paths, data):  # the kernel is compiled first (conftest)
    positional = st.sampled_from(WORDS) | ODD_TEXT
    opt = tame_option
    options = [opt("--shape", SMALL_SHAPES), opt("--moves", ["king", "rook", "x"]), opt("--budget", NUMBERS[:8]),
               opt("--time-limit", SECONDS), opt("--forbid", WORDS), opt("--min-score", NUMBERS),
               opt("--min-count", NUMBERS), opt("--seed", NUMBERS), opt("--max-proposals", NUMBERS),
               opt("--cells", CELLS), opt("--award", ["M8", "NOCAL", "XYZ", ""]),
               opt("--workers", ["1", "2", "0", "16", "100000", str(10**30), "x"]),
               opt("--start", ["thoa", "tho/ain/esl", "ab", "", "ß"]), opt("--certify-window", NUMBERS),
               opt("--certify-time-limit", SECONDS), opt("--words", ["us-states", paths[3], "nofile.txt"]),
               st.just(["--no-progress"])]
    args = data.draw(command_line("solve", positional, options, paths, path_options=("--cells", "--checklist")))
    if "--shape" not in args:
        args = [*args[:1], "--shape", "2x2", *args[1:]]  # the default 5x5 would search longer than needed
    check_clean(args)


JSON_LINE_KEYS = ["id", *KEYS]


def jsonl_line(table: dict) -> str:
    """One question line of a JSONL file (no NaN: JSON has none)."""
    return json.dumps(table, allow_nan=False)


JSONL_LINES = st.one_of(
    st.dictionaries(st.sampled_from(JSON_LINE_KEYS), TOML_VALUES.filter(
        lambda v: "nan" not in repr(v) and "inf" not in repr(v)), max_size=5).map(jsonl_line),
    st.sampled_from(['{"shape": "2x2", "require": ["OH"]}', '{"id": "a", "shape": "2x2", "require": ["OH"]}',
                     '{"shape": "2x2", "shape": "3x3", "require": ["OH"]}',  # a key twice
                     '{"id": ' + "[" * 5000 + "]" * 5000 + "}",  # nested too deep
                     '{"id": {"a": 1}, "shape": "2x2"}', '{"id": true}', "[1, 2]", "null", '"x"', "{", "",
                     "   ", "# a comment", '{"shape": "2x2", "require": ["OHIO"], "budget": 0}']),
    ODD_TEXT)


@settings(FUZZ, max_examples=max(EXAMPLES // 5, 1))  # a run may start a process pool
@given(data=st.data(), lines=st.lists(JSONL_LINES, max_size=4),
       form=st.sampled_from(["utf-8", "bom", "latin-1", "empty", "stdin", "stdin-bom", "stdin-latin-1"]))
def test_fuzz_fit_many(paths, tmp_path_factory, data, lines, form):
    text = "\n".join(lines) + ("\n" if lines else "")
    body = {"latin-1": text.encode("utf-8") + "caf\xe9\n".encode("latin-1"), "empty": b""}.get(
        form.removeprefix("stdin-"), text.encode("utf-8"))
    if form.endswith("bom"):
        body = b"\xef\xbb\xbf" + body
    folder = tmp_path_factory.mktemp("jsonl")
    path = folder / "q.jsonl"
    path.write_bytes(body)
    source = "-" if form.startswith("stdin") else str(path)
    opt = tame_option
    options = [opt("--backend", BACKENDS), opt("--time-limit", SECONDS), opt("--total-time-limit", SECONDS),
               opt("--workers", ["1", "0", "-1", "100000", "x"]), opt("--seed", NUMBERS), st.just(["--no-progress"])]
    positional = st.sampled_from([source, *paths[:4]])
    given = data.draw(command_line("fit-many", positional, options, paths, path_options=(), max_positional=1))
    given = [arg for arg in given if arg != "--json"]  # fit-many prints JSON lines; --json is not its option
    args = given if any(p in given for p in (source, *paths[:4])) else [*given, source]
    check_clean(args, stdin=body if source == "-" else None)
