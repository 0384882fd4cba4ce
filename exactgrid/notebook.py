"""What a Jupyter notebook shows of a grid, a score or an answer: small HTML tables.

IPython asks an object for ``_repr_html_()`` when it is a cell's value; :class:`~exactgrid.grid.Grid`,
:class:`~exactgrid.finder.Score` and every :class:`~exactgrid.answer.Answer` answer with the
tables built here: plain HTML, every value escaped, no matplotlib and no solver call (an
answer's table is its ``to_dict()``, which holds what the job found). A picture is asked for
explicitly, with ``eg.svg(x)`` (:func:`exactgrid.render.figure.svg`), which a notebook shows
as the picture.

Nothing here imports the rest of exactgrid: the grid, the finder and the answer contract, all
below the renderers, use it.
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

STYLE = ("<style>"
         ".exactgrid table{border-collapse:collapse;margin:4px 0}"
         ".exactgrid .eg-table td,.exactgrid .eg-table th{border:1px solid #999;padding:2px 8px;text-align:left}"
         ".exactgrid .eg-table .eg-num{text-align:right}"
         ".exactgrid .eg-letters td{border:1px solid #555;width:1.8em;height:1.8em;text-align:center;"
         "vertical-align:middle;font:bold 1.1em monospace;padding:0}"
         "</style>")
"""The one style sheet of an output, scoped to its ``div.exactgrid`` (as pandas scopes its own)."""
COLOURS = {"fits": "#2e7d32", "optimal": "#2e7d32", "does not fit": "#c62828", "feasible": "#8d6e00",
           "bounded": "#8d6e00", "unknown": "#616161", "pass": "#2e7d32", "fail": "#c62828"}
"""Text colour of an outcome (``fits``, ...) and of a checklist item's PASS/FAIL."""


class Markup(str):
    """HTML already escaped: a table cell holding it is written as is."""

    __slots__ = ()


def cell(value: Any) -> str:
    """One value as table-cell text: escaped unless it is :class:`Markup`; numbers with thousands
    separators; None and empty text as ``-``; a list of plain values joined with commas."""
    if isinstance(value, Markup):
        return str(value)
    return html.escape(plain(value))


def plain(value: Any) -> str:
    """One value as text (not escaped): see :func:`cell`."""
    if value is None or value == "":
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int):
        return f"{value:,}"
    if isinstance(value, float):
        return f"{value:,.3f}".rstrip("0").rstrip(".") if value == value else "nan"
    if isinstance(value, list | tuple):
        return ", ".join(plain(v) for v in value) if value else "-"
    return str(value)


def coloured(text: str, key: str | None = None) -> Markup:
    """``text`` in bold, in the colour of ``key`` (an outcome or ``pass``/``fail``; default: the text)."""
    colour = COLOURS.get((key or text).lower(), "#222")
    return Markup(f'<b style="color:{colour}">{html.escape(text)}</b>')


def table(header: Sequence[str], rows: Iterable[Sequence[Any]], right: Sequence[int] = ()) -> str:
    """An HTML table: ``header`` then ``rows`` (each value through :func:`cell`; columns in
    ``right`` right-aligned, as numbers are)."""

    def line(values: Sequence[Any], tag: str) -> str:
        cells = "".join(f'<{tag}{" class=eg-num" if i in right else ""}>{cell(v)}</{tag}>'
                        for i, v in enumerate(values))
        return f"<tr>{cells}</tr>"

    head = line(header, "th") if header else ""
    return f'<table class="eg-table">{head}{"".join(line(r, "td") for r in rows)}</table>'


def letters_table(rows: Sequence[str]) -> str:
    """A grid's letters, one bordered square per cell."""
    body = "".join("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in row) + "</tr>" for row in rows)
    return f'<table class="eg-letters">{body}</table>'


def block(*parts: str) -> str:
    """Parts one under the other, in one ``div`` (what a ``_repr_html_`` returns)."""
    return '<div class="exactgrid">' + STYLE + "".join(f"<div>{p}</div>" for p in parts if p) + "</div>"


def line(text: str) -> str:
    """A line of text, escaped."""
    return html.escape(text)


def is_plain(value: Any) -> bool:
    """Whether a value is one table cell: a scalar, or a list of scalars."""
    if isinstance(value, list | tuple):
        return all(is_plain(v) and not isinstance(v, list | tuple) for v in value)
    return value is None or isinstance(value, str | int | float | bool)


def facts(data: Mapping[str, Any], skip: Iterable[str] = ()) -> str:
    """A two-column table of ``data`` (an answer's ``to_dict()``): plain values as they are, a
    nested dict as its plain entries (``variables 189 · clauses 212``), a list of dicts as its
    length. Keys in ``skip`` are left out."""
    left_out = set(skip)
    rows = []
    for key, value in data.items():
        if key in left_out:
            continue
        if isinstance(value, Mapping):
            shown: Any = " · ".join(f"{k} {plain(v)}" for k, v in value.items() if is_plain(v)) or "-"
        elif is_plain(value):
            shown = value
        else:
            shown = f"{len(value)} entries (see to_dict())" if isinstance(value, list | tuple) else str(value)
        rows.append([key.replace("_", " "), shown])
    return table([], rows)


def answer_html(answer: Any, sections: Sequence[str] = (), skip: Iterable[str] = (), grid: bool = True,
                text: bool = True) -> str:
    """The generic notebook view of an answer (:class:`~exactgrid.answer.Answer`): its outcome
    in colour, its grid as letters when it has one (and ``grid``), its ``to_dict()`` as a table
    of facts (less the keys in ``skip``), then ``sections`` (HTML), then (with ``text``) the
    command line's text folded away under *text*."""
    data = answer.to_dict()
    outcome = str(data.get("outcome", ""))
    rows = data.get("rows")
    letters = letters_table(rows) if grid and isinstance(rows, list) and all(isinstance(r, str) for r in rows) else ""
    heading = Markup(f"{type(answer).__name__}: {coloured(outcome.upper(), outcome)}")
    folded = f"<details><summary>text</summary><pre>{html.escape(answer.text())}</pre></details>" if text else ""
    return block(heading, letters, facts(data, {"outcome", "rows", *skip}), *sections, folded)
