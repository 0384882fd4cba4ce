"""Pictures: what they show (checked as data against the finder and brute force), and the files
drawn (SVG parsed element by element, PNG sizes, byte-for-byte determinism, the README picture)."""

from __future__ import annotations

import itertools
import json
import random
import struct
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from click.testing import CliRunner

import exactgrid as eg
from exactgrid.cli import cli
from exactgrid.data.us import us_states
from exactgrid.finder import is_found, score
from exactgrid.fitting import fit
from exactgrid.geometry import Board
from exactgrid.grid import Grid, parse_grid
from exactgrid.render.picture import NothingToDraw, needed_counts, picture_of, steps_of
from exactgrid.words import parse_word_list

ROOT = Path(__file__).resolve().parents[1]
README_PICTURE = ROOT / "docs" / "thoainesl.svg"
BEST = "ICOADMSNIGWESRLYOEAONRTHC"  # 264,142,662: 20S 200M 4C C2C (README "Solve benchmark")
SVG = "{http://www.w3.org/2000/svg}"

# --------------------------------------------------------------------------- what a picture shows


def test_seed_grid_panels_follow_the_finder():
    picture = picture_of("thoainesl")
    result = score(parse_grid("thoainesl"), us_states())
    assert [p.word for p in picture.panels] == [s.match.word for s in result.found]  # heaviest first
    assert [p.weight for p in picture.panels] == [12_812_508, 11_799_448, 3_271_616, 3_190_369, 1_839_106]
    for panel, scored in zip(picture.panels, result.found, strict=True):
        assert panel.path == scored.match.path
        assert len(panel.steps) == len(panel.word) - 1
        assert [(s.start, s.end) for s in panel.steps] == list(itertools.pairwise(panel.path))
    illinois = picture.panels[0]
    assert illinois.name == "Illinois" and illinois.spelled == "InLINOIS"
    # hand-checked from the README's path r2c2 r2c3 r3c3 r2c2 r2c3 r1c3 r2c2 r3c2 (cells 4 5 8 4 5 2 4 7)
    assert illinois.visits == {4: (1, 4, 7), 5: (2, 5), 8: (3,), 2: (6,), 7: (8,)}
    assert illinois.revisited == (4, 5)
    assert [(a.cell, a.position, a.shown, a.wanted) for a in illinois.alterations] == [(5, 2, "N", "L")]
    assert picture.total == 32_913_047 and picture.omitted == 0
    assert picture.caption == "THOAINESL  3x3, king moves, walks, budget 1"


def test_steps_get_lanes_only_where_a_pair_of_cells_is_crossed_again():
    steps = steps_of((0, 1, 0, 1, 2))
    assert [(s.start, s.end, s.number, s.lane) for s in steps] == [
        (0, 1, 1, 1), (1, 0, 2, 1), (0, 1, 3, 2), (1, 2, 4, 0)]
    assert steps_of((3,)) == ()


def _needed_by_brute_force(grid: Grid, words, budget: int = 1) -> list[int]:
    """Per cell, the found words lost by SOME letter in that cell: all 26 letters tried."""
    found = [w for w in words if is_found(grid, w, budget)]
    counts = []
    for cell in range(grid.board.size):
        lost = set()
        for letter in "ABCDEFGHIJKLMNOPQRSTUVWXYZ":
            changed = Grid(grid.board, grid.letters[:cell] + letter + grid.letters[cell + 1:])
            lost |= {w for w in found if not is_found(changed, w, budget)}
        counts.append(len(lost))
    return counts


@pytest.mark.parametrize("seed", range(6))
def test_needed_cells_agree_with_trying_every_letter(seed):
    rng = random.Random(seed)
    rows, cols = rng.choice([(3, 3), (3, 4), (4, 4)])
    letters = "".join(rng.choice("AEINORSTLHCMGKDUWY") for _ in range(rows * cols))
    grid = parse_grid(letters, (rows, cols), rng.choice(["king", "rook"]))
    budget = rng.choice([0, 1, 1, 2])
    states = us_states()
    assert list(needed_counts(score(grid, states, budget))) == _needed_by_brute_force(grid, states, budget)


def test_a_word_with_every_letter_still_gets_its_needed_cells():
    words = parse_word_list("ABCDEFGHIJKLMNOPQRSTUVWXYZ,1\nABC,1\n", "pangram")
    grid = parse_grid("abcdefghijklmnopqrstuvwxyz", (1, 26))
    result = score(grid, words, 1)
    assert list(needed_counts(result)) == _needed_by_brute_force(grid, words, 1)


def test_the_seed_grids_e_is_spare():
    # IDAHO reads the E as its D (IeAHO); no other word passes there, so any letter keeps every word
    assert picture_of("thoainesl").spare == (6,)
    assert _needed_by_brute_force(parse_grid("thoainesl"), us_states())[6] == 0


def test_the_map_shows_the_checklist_of_the_found_states():
    picture = picture_of(BEST)
    tile_map = picture.tile_map
    _, verdict = eg.check(BEST)
    assert tile_map is not None and len(tile_map.tiles) == 48
    assert tile_map.found == eg.score(BEST).words
    assert tile_map.chain == tuple(verdict["C2C"].details["chain"])
    assert tile_map.chain == ("GEORGIA", "TENNESSEE", "ARKANSAS", "TEXAS", "NEWMEXICO", "ARIZONA", "CALIFORNIA")
    assert {b.key for b in tile_map.badges if b.met} == {"20S", "200M", "4C", "C2C", "QUALIFY"}
    assert [b.key for b in tile_map.badges] == list(verdict.checklist.keys())


def test_max_panels_keeps_the_heaviest():
    picture = picture_of(BEST, max_panels=4)
    assert [p.word for p in picture.panels] == ["CALIFORNIA", "TEXAS", "FLORIDA", "NEWYORK"]
    assert picture.omitted == 26
    with pytest.raises(eg.InputError, match="max_panels"):
        picture_of(BEST, max_panels=-1)


def test_other_word_lists_and_boards_draw_without_a_map(tmp_path):
    words = parse_word_list("ABC,5\nCAB,3\nBAD,1\n", "tiny")
    box = Board.letter_boxed(4, 3)
    grid = parse_grid("abcdefghijkl", board=box)
    picture = picture_of(grid, words=words, budget=1)
    assert picture.tile_map is None
    assert {p.word for p in picture.panels} == set(score(grid, words, 1).words)
    with pytest.raises(NothingToDraw, match="map shows US states"):
        picture_of(grid, words=words, tile_map=True)
    with pytest.raises(NothingToDraw, match="checklist judges US states"):
        picture_of(grid, words=words, checklist=tmp_path / "any.toml")
    assert picture_of("thoainesl", tile_map=False).tile_map is None


def test_a_fit_answer_shows_requirements_spelled_as_pinned():
    question = eg.Question(Board(3, 3), required=["UTAH:4", "OHIO:exact"])
    answer = fit(question, backend="cadical", time_limit=30)
    assert answer.fits
    picture = picture_of(answer)
    utah = next(p for p in picture.panels if p.word == "UTAH")
    assert [a.position for a in utah.alterations] == [4]  # altered at letter 4, as required
    assert picture.heading.startswith("fit: FITS")
    refuted = fit(eg.Question(Board(3, 3), required=["MASSACHUSETTS:exact"]), backend="cadical", time_limit=30)
    with pytest.raises(NothingToDraw, match="DOES NOT FIT"):
        picture_of(refuted)


# --------------------------------------------------------------------------- the files

def _ids(svg: Path | bytes) -> dict[str, ET.Element]:
    root = ET.fromstring(svg.read_bytes() if isinstance(svg, Path) else svg)
    return {e.get("id"): e for e in root.iter() if e.get("id")}


def _check_svg_against_the_finder(ids: dict[str, ET.Element], grid: str) -> None:
    result = eg.score(grid)
    panels = sorted(i[len("panel:"):] for i in ids if i.startswith("panel:"))
    assert panels == sorted(result.words)  # every found word has a panel, and nothing else has one
    for scored in result.found:
        word, path = scored.match.word, scored.match.path
        steps = sorted(int(i.rsplit(":", 1)[1]) for i in ids if i.startswith(f"step:{word}:"))
        assert steps == list(range(1, len(path)))  # one arrow per move of the path
        altered = sorted(int(i.rsplit(":", 1)[1]) for i in ids if i.startswith(f"altered:{word}:"))
        assert altered == [p + 1 for p in scored.match.altered]
        arrows = [ids[f"step:{word}:{n}"] for n in steps]
        assert all(a.find(f"{SVG}path") is not None for a in arrows)  # drawn, not empty groups


def test_svg_has_a_panel_per_word_and_an_arrow_per_step(tmp_path):
    out = tmp_path / "best.svg"
    eg.show(BEST, out)
    ids = _ids(out)
    _check_svg_against_the_finder(ids, BEST)
    assert sum(i.startswith("tile:") for i in ids) == 48
    assert "chain" in ids and "grid" in ids and "map" in ids
    badges = {i.split(":")[1]: i.split(":")[2] for i in ids if i.startswith("badge:")}
    assert badges == {"20S": "met", "200M": "met", "PA": "unmet", "M8": "unmet", "4C": "met", "NOCAL": "unmet",
                      "C2C": "met", "QUALIFY": "met"}


def test_svg_is_the_same_bytes_every_time(tmp_path):
    first, second = tmp_path / "a.svg", tmp_path / "b.svg"
    eg.show("thoainesl", first)
    eg.show("thoainesl", second)
    assert first.read_bytes() == second.read_bytes()
    # and in a fresh interpreter, through the command line
    third = tmp_path / "c.svg"
    subprocess.run([sys.executable, "-c", "from exactgrid.cli import main; main()", "show", "thoainesl",
                    "--out", str(third)], check=True, capture_output=True)
    assert third.read_bytes() == first.read_bytes()


def _png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", data[16:24])


def _about(size: tuple[int, int], width: float, height: float) -> bool:
    """Pixels within one of inches x dpi (matplotlib rounds a fractional pixel either way)."""
    return abs(size[0] - width) <= 1 and abs(size[1] - height) <= 1


def test_png_size_follows_the_figure_and_dpi(tmp_path):
    out = tmp_path / "seed.png"
    fig = eg.show("thoainesl", out)
    width, height = fig.get_size_inches()
    assert _about(_png_size(out), width * 100, height * 100)
    half = tmp_path / "half.png"
    result = CliRunner().invoke(cli, ["show", "thoainesl", "--out", str(half), "--dpi", "50"])
    assert result.exit_code == 0, result.output
    assert _about(_png_size(half), width * 50, height * 50)
    pdf = tmp_path / "seed.pdf"
    eg.show("thoainesl", pdf)
    assert pdf.read_bytes().startswith(b"%PDF")


def test_show_draws_no_picture_of_a_score_cut_short(tmp_path):
    out = tmp_path / "cut.svg"
    args = ["show", "VYMIPLASETDNRSTEOIAOWMCHW", "--path", "simple", "--budget", "4", "--time-limit", "0"]
    result = CliRunner().invoke(cli, [*args, "--out", str(out), "--json"])
    data = json.loads(result.stdout)
    assert result.exit_code == 3 and data["out"] is None and "the time limit came before" in data["reason"]
    assert not out.exists()
    cut = eg.score("VYMIPLASETDNRSTEOIAOWMCHW", path_rule="simple", budget=4, time_limit=0)
    with pytest.raises(eg.InputError, match="the score was cut short"):
        eg.picture_of(cut)
    assert eg.picture_of(eg.score("thoainesl")).total == 32_913_047


def test_the_library_and_the_cli_take_the_same_dpi():
    from exactgrid.cli.grid import show_command
    from exactgrid.render.figure import MAX_DPI, MIN_DPI

    option = next(p for p in show_command.params if p.name == "dpi")
    assert (option.type.min, option.type.max) == (MIN_DPI, MAX_DPI)
    for dpi in (MIN_DPI - 1, MAX_DPI + 1):
        with pytest.raises(eg.InputError, match=f"dpi must be a whole number from {MIN_DPI} to {MAX_DPI}"):
            eg.show("thoainesl", dpi=dpi)


def test_show_command_text_and_json(tmp_path):
    out = tmp_path / "seed.svg"
    result = CliRunner().invoke(cli, ["show", "thoainesl", "--out", str(out)])
    assert result.exit_code == 0 and result.output.startswith(f"wrote {out} (svg: 5 word panels, map)")
    result = CliRunner().invoke(cli, ["show", "thoainesl", "--out", str(out), "--json", "--max-panels", "2",
                                      "--no-map"])
    data = __import__("json").loads(result.output)
    assert data["panels"] == ["ILLINOIS", "OHIO"] and data["omitted"] == 3
    assert data["map"] is False and data["spare"] == ["r3c1"]
    assert sorted(i for i in _ids(out) if i.startswith("panel:")) == ["panel:ILLINOIS", "panel:OHIO"]


@pytest.mark.parametrize("args,needle", [
    (["--out", "x.txt"], "use a .svg, .png or .pdf file"),
    (["--out", "/no/such/folder/x.svg"], "cannot write"),
    (["--out", "x.svg", "--words", "instances/words/example.txt", "--map"], "map shows US states"),
    (["--out", "x.svg", "--columns", "0"], "--columns"),
    (["--out", "x.png", "--dpi", "1200", "--columns", "1"], "too big to draw"),
])
def test_show_bad_input_is_one_line(args, needle, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    if "--words" in args:
        args[args.index("--words") + 1] = str(ROOT / "instances" / "words" / "example.txt")
    result = CliRunner().invoke(cli, ["show", "thoainesl", *args])
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1 and needle in result.stderr, result.stderr
    assert not (tmp_path / "x.svg").exists()


def test_without_matplotlib_one_clear_line(monkeypatch, tmp_path):
    for name in [m for m in sys.modules if m == "matplotlib" or m.startswith("matplotlib.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib now raises ImportError
    result = CliRunner().invoke(cli, ["show", "thoainesl", "--out", str(tmp_path / "x.svg")])
    assert result.exit_code == 2
    assert result.stderr.startswith("Error: pictures need matplotlib: pip install 'exactgrid[plot]'")
    assert result.stderr.count("\n") == 1
    result = CliRunner().invoke(cli, ["fit", "OHIO", "--shape", "3x3", "--show", str(tmp_path / "f.svg")])
    assert result.exit_code == 2 and "exactgrid[plot]" in result.stderr  # refused before solving
    with pytest.raises(eg.PlotUnavailable):
        eg.show("thoainesl")


def test_fit_and_solve_draw_their_answers(tmp_path):
    fitted = tmp_path / "fit.svg"
    result = CliRunner().invoke(cli, ["fit", "OHIO", "UTAH=ATAH", "--shape", "3x3", "--backend", "cadical",
                                      "--show", str(fitted)])
    assert result.exit_code == 0 and f"wrote {fitted}" in result.stderr
    grid = next(line.split()[1] for line in result.stdout.splitlines() if line.startswith("grid "))
    _check_svg_against_the_finder(_ids(fitted), grid)
    solved = tmp_path / "solve.png"
    result = CliRunner().invoke(cli, ["solve", "--shape", "3x3", "--max-proposals", "50000", "--time-limit", "600",
                                      "--workers", "1", "--no-progress", "--show", str(solved), "--json"])
    assert result.exit_code == 0, result.output
    picture = __import__("json").loads(result.stdout)["picture"]
    assert picture["out"] == str(solved) and _png_size(solved)[0] > 300
    refuted = CliRunner().invoke(cli, ["fit", "MASSACHUSETTS:exact", "--shape", "3x3", "--backend", "cadical",
                                       "--show", str(tmp_path / "none.svg")])
    assert refuted.exit_code == 1 and "no grid to draw" in refuted.stderr
    assert not (tmp_path / "none.svg").exists()


def test_the_readme_picture_is_the_readme_commands_output(tmp_path):
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "exactgrid show thoainesl --out docs/thoainesl.svg" in readme
    assert "](docs/thoainesl.svg)" in readme
    ids = _ids(README_PICTURE)
    _check_svg_against_the_finder(ids, "thoainesl")
    import matplotlib

    made_with = f"Matplotlib v{matplotlib.__version__}"
    if made_with.encode() in README_PICTURE.read_bytes():  # other versions draw other bytes
        fresh = tmp_path / "thoainesl.svg"
        CliRunner().invoke(cli, ["show", "thoainesl", "--out", str(fresh)])
        assert fresh.read_bytes() == README_PICTURE.read_bytes()
