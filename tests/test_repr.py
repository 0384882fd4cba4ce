"""What Jupyter shows: grids, scores and answers as HTML tables (no matplotlib), ``eg.svg`` as
the picture, and ``eg.show`` writing to a path or to an open file."""

from __future__ import annotations

import html
import importlib.util
import io
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

import exactgrid as eg
from exactgrid.answer import Answer, Outcome

ROOT = Path(__file__).resolve().parents[1]


def cells(markup: str) -> list[str]:
    """The text of every cell of the tables (not the letter grids), in order, unescaped."""
    tables = re.sub(r'<table class="eg-letters">.*?</table>', "", markup)
    return [html.unescape(re.sub(r"<[^>]+>", "", c)) for c in re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", tables)]


def letters(markup: str) -> list[str]:
    """The letters of the first letter table, row by row."""
    table = re.search(r'<table class="eg-letters">(.*?)</table>', markup).group(1)
    return ["".join(re.findall(r"<td>(.)</td>", row)) for row in re.findall(r"<tr>(.*?)</tr>", table)]


def test_a_grid_shows_its_letters_in_cells():
    markup = eg.as_grid("tho/ain/esl")._repr_html_()
    assert letters(markup) == ["THO", "AIN", "ESL"]
    assert "THOAINESL  (3x3, king moves)" in markup


def test_a_score_shows_the_grid_the_total_and_each_word():
    markup = eg.score("thoainesl")._repr_html_()
    assert letters(markup) == ["THO", "AIN", "ESL"]
    assert "total <b>32,913,047</b> · 5 found" in markup
    found = cells(markup)
    assert found[:5] == ["state", "population", "spelled", "altered", "path"]
    assert found[5:10] == ["ILLINOIS", "12,812,508", "InLINOIS", "2 L->N", "r2c2 r2c3 r3c3 r2c2 r2c3 r1c3 r2c2 r3c2"]
    assert "2 L-&gt;N" in markup  # escaped in the HTML itself
    assert [found[i] for i in range(5, len(found), 5)] == ["ILLINOIS", "OHIO", "UTAH", "IOWA", "IDAHO"]


def test_a_check_shows_each_item_pass_or_fail_with_its_evidence():
    markup = eg.check("thoainesl")._repr_html_()
    assert "CheckAnswer: <b style=\"color:#c62828\">DOES NOT FIT</b>" in markup
    found = cells(markup)
    start = found.index("item") - 1
    items = [found[i : i + 4] for i in range(start + 4, start + 4 + 8 * 4, 4)]
    assert [verdict for verdict, *_ in items] == ["FAIL"] * 5 + ["PASS", "FAIL", "FAIL"]
    assert items[1][1:] == ["200M", "scores at least 200 million", "score 32,913,047 < 200,000,000 (short by "
                                                                  "167,086,953)"]
    assert '<b style="color:#2e7d32">PASS</b>' in markup and "1 of 8 passed" in markup
    assert letters(markup) == ["THO", "AIN", "ESL"] and "32,913,047" in markup


def test_a_refuted_fit_with_explain_names_the_conflict():
    question = eg.Question(eg.Board(3, 3), required=["ILLINOIS:exact", "UTAH:exact"])
    markup = eg.fit(question, backend="cadical", explain=True)._repr_html_()
    assert "FitAnswer: <b style=\"color:#c62828\">DOES NOT FIT</b>" in markup
    facts = dict(zip(cells(markup)[::2], cells(markup)[1::2], strict=False))
    assert facts["conflict"] == "ILLINOIS:exact, UTAH:exact" and facts["exit code"] == "1"
    assert '<table class="eg-letters">' not in markup  # no grid to show
    explained = eg.explain(question, backend="cadical")._repr_html_()
    assert "Explanation:" in explained and "<td>conflict</td><td>ILLINOIS:exact, UTAH:exact</td>" in explained
    assert "<td>minimal</td><td>yes</td>" in explained


def test_a_fitting_answer_shows_its_grid_and_how_each_requirement_is_spelled():
    answer = eg.fit(eg.Question(eg.Board(3, 3), required=["OHIO", "UTAH=ATAH"]), backend="cadical")
    markup = answer._repr_html_()
    assert "FitAnswer: <b style=\"color:#2e7d32\">FITS</b>" in markup
    assert letters(markup) == answer.grid.rows()
    found = cells(markup)
    at = found.index("requirement")
    assert found[at : at + 4] == ["requirement", "spelled", "altered", "path"]
    assert found[at + 4] == "OHIO" and found[at + 8] == "UTAH=ATAH" and found[at + 9] == "aTAH"
    assert f"{answer.score.total:,}" in markup


@dataclass(frozen=True)
class _Toy(Answer):
    outcome: Outcome = Outcome.FEASIBLE
    seconds: float = 1.5
    stopped_by: str | None = None

    def text(self) -> str:
        return "best <script>alert(1)</script>"

    def to_dict(self) -> dict[str, Any]:
        return {**self.contract_dict(), "rows": ["AB", "CD"], "note": "<b>bold?</b>", "sizes": [1000, 2],
                "model": {"variables": 12345, "nested": [{"x": 1}]}, "items": [{"a": 1}, {"a": 2}]}


def test_any_answer_shows_its_facts_escaped():
    markup = _Toy()._repr_html_()
    assert "_Toy: <b style=\"color:#8d6e00\">FEASIBLE</b>" in markup
    assert letters(markup) == ["AB", "CD"]
    facts = dict(zip(cells(markup)[::2], cells(markup)[1::2], strict=False))
    assert facts["seconds"] == "1.5" and facts["stopped by"] == "-" and facts["sizes"] == "1,000, 2"
    assert facts["note"] == "<b>bold?</b>" and "&lt;b&gt;bold?&lt;/b&gt;" in markup  # shown, not obeyed
    assert facts["model"] == "variables 12,345" and facts["items"] == "2 entries (see to_dict())"
    assert "<script>" not in markup and "best &lt;script&gt;" in markup  # the text, folded away


def test_a_notebook_gets_html_and_no_hidden_picture():
    # frontends prefer text/html to image/svg+xml: a picture beside the table would cost every
    # display a drawing nobody sees, so a picture is asked for with eg.svg (below)
    ipython = pytest.importorskip("IPython.core.interactiveshell")
    formatter = ipython.InteractiveShell.instance().display_formatter
    for shown in (eg.score("thoainesl"), eg.check("thoainesl"), eg.as_grid("thoainesl")):
        data, _ = formatter.format(shown)
        assert set(data) == {"text/plain", "text/html"}, type(shown).__name__


def test_html_views_import_no_matplotlib():
    code = ("import sys, exactgrid as eg\n"
            "eg.score('thoainesl')._repr_html_(); eg.check('thoainesl')._repr_html_()\n"
            "eg.as_grid('thoainesl')._repr_html_()\n"
            "print(sorted(m for m in ('matplotlib', 'numba', 'pysat', 'pulp') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    assert out.stdout.strip() == "[]"


def test_importing_exactgrid_stays_cheap():
    out = subprocess.run([sys.executable, "-X", "importtime", "-c", "import exactgrid"], capture_output=True,
                         text=True, check=True, cwd=ROOT)
    imported = {line.split("|")[-1].strip() for line in out.stderr.splitlines() if "|" in line}
    assert "exactgrid" in imported
    assert not {name.split(".")[0] for name in imported} & {"matplotlib", "numba", "pysat", "pulp", "networkx"}


def test_scoring_from_the_command_line_imports_no_networkx():
    """networkx (about a second to import on a busy machine) is for the awards' chains only."""
    code = ("import sys, exactgrid as eg, exactgrid.cli\n"
            "eg.score('thoainesl')\n"
            "print('networkx' in sys.modules)\n"
            "eg.check('thoainesl')\n"
            "print('networkx' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    assert out.stdout.split() == ["False", "True"]  # the chain of C2C needs it, and gets it


# --------------------------------------------------------------------------- pictures

needs_plot = pytest.mark.skipif(importlib.util.find_spec("matplotlib") is None, reason="needs exactgrid[plot]")


@needs_plot
def test_svg_is_the_text_show_writes_and_a_notebook_shows_it():
    text = eg.svg("thoainesl")
    assert isinstance(text, str) and text.encode() == (ROOT / "docs" / "thoainesl.svg").read_bytes()
    assert text._repr_svg_() == text
    ipython = pytest.importorskip("IPython.core.interactiveshell")
    data, _ = ipython.InteractiveShell.instance().display_formatter.format(text)
    assert data["image/svg+xml"] == text and data["text/plain"] == f"<SVG picture, {len(text):,} characters>"
    assert 'id="panel:ILLINOIS"' in eg.svg(eg.score("thoainesl"))


@needs_plot
def test_show_writes_to_open_files(tmp_path):
    expected = eg.svg("thoainesl")
    with open(tmp_path / "seed.svg", "w", encoding="utf-8") as out:  # a text file: format from its name
        eg.show("thoainesl", out)
    with open(tmp_path / "also.svg", "wb") as out:
        eg.show("thoainesl", out)
    assert (tmp_path / "seed.svg").read_text(encoding="utf-8") == expected
    assert (tmp_path / "also.svg").read_bytes() == expected.encode()
    png = io.BytesIO()
    eg.show("thoainesl", png, format="png", dpi=20)
    assert png.getvalue().startswith(b"\x89PNG\r\n\x1a\n") and not png.closed
    with open(tmp_path / "seed.pdf", "wb") as out:
        eg.show("thoainesl", out)
    assert (tmp_path / "seed.pdf").read_bytes().startswith(b"%PDF")


@pytest.mark.parametrize("target,format,needle", [
    (io.StringIO, "png", "a PNG is binary: open the file for it with 'wb'"),
    (io.BytesIO, None, "give format='svg', 'png' or 'pdf'"),
    (io.BytesIO, "gif", "cannot write a picture as 'gif'"),
])
@needs_plot
def test_show_to_an_open_file_refuses_what_it_cannot_write(target, format, needle):
    with pytest.raises(eg.InputError, match=re.escape(needle)):
        eg.show("thoainesl", target(), format=format)
