"""Draw a :class:`~exactgrid.render.picture.Picture` with matplotlib, and save it.

matplotlib is an optional extra (``pip install 'exactgrid[plot]'``): it is imported when a
figure is drawn, never when exactgrid is imported, and its absence is one clear
:class:`PlotUnavailable` error. Figures are built on :class:`matplotlib.figure.Figure`
directly (no pyplot, no global state, no window), so drawing works headless and in threads.

One figure: the grid (letters large; each cell shaded by how many found words need it, spare
cells hatched) and, for the US states, the tile map with the found states, the chain and the
award badges; below, one small panel per found word, heaviest first: its path as arrows from
cell to cell (a pair of cells crossed twice gets two curved arrows, one per crossing), the
letter positions read in each cell in its corner (``2,5``: a revisit), the first cell ringed,
and an altered cell boxed in red with the letter it stands for.

SVG output is deterministic, byte for byte: a fixed hash salt for the ids matplotlib makes up,
no date in the metadata, glyphs as paths. Every element a test or a stylesheet may want has
an id: ``grid``, ``map``, ``chain``, ``panel:WORD``, ``step:WORD:N`` (the N-th move),
``altered:WORD:POSITION``, ``tile:KEY``, ``badge:KEY:met`` / ``badge:KEY:unmet``.
"""

from __future__ import annotations

import contextlib
import io
import math
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from ..inputs import InputError, check_whole, no_stuck_fifo
from ..wording import plural
from .picture import Panel, Picture, TileMap, picture_of

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

FORMATS = ("svg", "png", "pdf")
"""File formats :func:`save_figure` writes, chosen by the file's suffix."""

Target = str | Path | IO[str] | IO[bytes]
"""Where a picture goes: a path, or a file open for writing (text or binary for SVG, binary
for PNG and PDF)."""

PALETTE = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf", "#8c564b", "#e377c2",
           "#7f7f7f", "#bcbd22")
"""Panel colours, in turn (matplotlib's tab10, reordered so neighbours differ most)."""

ALTERED = "#c00000"
FOUND_TILE = "#9ecae1"
CHAIN = "#e6550d"
MET, UNMET = "#2e7d32", "#9e9e9e"

DETAILED_CELLS = 100
"""Boards with more cells get no per-cell counts on the grid and no letters off the path in a
word's panel: thousands of text objects make a figure slow to draw and unreadable anyway."""
MAX_PIXELS = 60_000_000
"""The largest PNG drawn (about 240 MB of pixels in memory); SVG and PDF are vector files."""
MAX_PANELS = 1000
"""The most word panels one figure holds (matplotlib slows to minutes past that)."""
PANEL_INCHES = 2.1  # one word's panel, title included
PANEL_COLUMNS = 6
GRID_INCHES = 3.6
TILE_INCHES = 0.42
STYLE = {
    "font.family": "DejaVu Sans",  # shipped with matplotlib: the same glyphs on every machine
    "svg.fonttype": "path",
    "svg.hashsalt": "exactgrid",
    "svg.image_inline": True,
    "path.simplify": False,
}


class PlotUnavailable(InputError):
    """matplotlib is not installed: pictures need the ``plot`` extra."""


def ensure_matplotlib() -> Any:
    """The matplotlib module, or one clear :class:`PlotUnavailable` error when it is missing."""
    try:
        import matplotlib
        from matplotlib.figure import Figure  # noqa: F401 (checks the part we use imports)
    except ImportError as exc:
        raise PlotUnavailable("pictures need matplotlib: pip install 'exactgrid[plot]' "
                              f"(importing it failed: {exc})") from None
    return matplotlib


@contextlib.contextmanager
def _style() -> Iterator[None]:
    with ensure_matplotlib().rc_context(STYLE):
        yield


# --------------------------------------------------------------------------- geometry


def _centre(picture: Picture, cell: int) -> tuple[float, float]:
    row, col = picture.grid.board.coords(cell)
    return col + 0.5, row + 0.5


def _frame(ax: Axes, rows: int, cols: int) -> None:
    ax.set_xlim(0, cols)
    ax.set_ylim(rows, 0)
    ax.set_aspect("equal")
    ax.set_axis_off()


def _font_for(cell_inches: float, share: float) -> float:
    """A font size in points filling ``share`` of a cell ``cell_inches`` wide."""
    return max(4.0, cell_inches * 72 * share)


# --------------------------------------------------------------------------- the parts


def _draw_grid(ax: Axes, picture: Picture, cell_inches: float) -> None:
    from matplotlib.collections import PatchCollection
    from matplotlib.patches import Rectangle

    board = picture.grid.board
    top = max(picture.needed, default=0) or 1
    squares = [Rectangle((x - 0.5, y - 0.5), 1, 1) for x, y in (_centre(picture, c) for c in range(board.size))]
    used = [c for c in range(board.size) if picture.needed[c]]
    shades = [0.15 + 0.6 * picture.needed[c] / top for c in used]
    ax.add_collection(PatchCollection([squares[c] for c in used], edgecolors="#555555", linewidths=1,
                                      facecolors=[(1 - 0.75 * s, 1 - 0.45 * s, 1 - 0.1 * s) for s in shades]),
                      autolim=False)
    spare = PatchCollection([squares[c] for c in picture.spare], facecolors="#eeeeee", edgecolors="#555555",
                            linewidths=1, hatch="///")
    spare.set_gid("spare")
    ax.add_collection(spare, autolim=False)
    detailed = board.size <= DETAILED_CELLS
    for cell, letter in enumerate(picture.grid.letters):
        x, y = _centre(picture, cell)
        need = picture.needed[cell]
        if need and detailed:
            ax.text(x + 0.44, y + 0.42, str(need), ha="right", va="bottom", color="#333333",
                    fontsize=_font_for(cell_inches, 0.13))
        ax.text(x, y + 0.04, letter, ha="center", va="center", fontsize=_font_for(cell_inches, 0.55),
                fontweight="bold", color="#111111" if need else "#777777")
    _frame(ax, board.rows, board.cols)
    ax.set_gid("grid")
    legend = "number: found words needing the letter" if detailed else "darker: more found words need the cell"
    ax.text(0, board.rows + 0.08, f"{legend}\nhatched: spare (no word needs it)", ha="left", va="top", fontsize=7,
            color="#444444")


def header_lines(picture: Picture) -> list[str]:
    """The figure's heading: what the grid is, its letters and rules, what it scores."""
    words = len(picture.panels) + picture.omitted
    found = f"{words} found, {picture.weight_label} {picture.total:,}"
    return [line for line in (picture.heading, picture.caption, found) if line]


def _draw_panel(ax: Axes, picture: Picture, panel: Panel, colour: str, cell_inches: float) -> None:
    from matplotlib.collections import PatchCollection
    from matplotlib.colors import to_rgb
    from matplotlib.patches import Circle, FancyArrowPatch, Rectangle

    board = picture.grid.board
    visits = panel.visits
    small = _font_for(cell_inches, 0.22)
    detailed = board.size <= DETAILED_CELLS  # on big boards only the path's letters are written
    tint = tuple(1 - 0.18 * (1 - channel) for channel in to_rgb(colour))  # the colour at 18% on white
    shown = range(board.size) if detailed else sorted(visits)
    squares = [Rectangle((x - 0.5, y - 0.5), 1, 1) for x, y in (_centre(picture, c) for c in shown)]
    ax.add_collection(PatchCollection(squares, facecolors=[tint if c in visits else "white" for c in shown],
                                      edgecolors="#bbbbbb", linewidths=0.6), autolim=False)
    if not detailed:
        ax.add_artist(Rectangle((0, 0), board.cols, board.rows, fill=False, edgecolor="#bbbbbb", lw=0.6))
    for cell, letter in enumerate(picture.grid.letters):
        x, y = _centre(picture, cell)
        on_path = cell in visits
        if on_path or detailed:
            ax.text(x, y + 0.05, letter, ha="center", va="center", fontsize=_font_for(cell_inches, 0.42),
                    color="#111111" if on_path else "#c8c8c8", fontweight="bold" if on_path else "normal")
        if on_path:
            ax.text(x - 0.44, y - 0.42, ",".join(map(str, visits[cell])), ha="left", va="top", fontsize=small,
                    color="#333333")
    start = _centre(picture, panel.path[0])
    ax.add_artist(Circle(start, 0.36, fill=False, edgecolor=colour, lw=1.6))
    shrink = cell_inches * 72 * 0.22
    for step in panel.steps:
        bend = 0.0 if step.lane == 0 else 0.28 * step.lane
        ax.add_artist(FancyArrowPatch(_centre(picture, step.start), _centre(picture, step.end),
                                     connectionstyle=f"arc3,rad={bend}", arrowstyle="-|>",
                                     mutation_scale=max(6.0, cell_inches * 30), lw=1.4, color=colour,
                                     shrinkA=shrink, shrinkB=shrink, gid=f"step:{panel.word}:{step.number}"))
    for alteration in panel.alterations:
        x, y = _centre(picture, alteration.cell)
        ax.add_artist(Rectangle((x - 0.46, y - 0.46), 0.92, 0.92, fill=False, edgecolor=ALTERED, lw=1.6,
                               gid=f"altered:{panel.word}:{alteration.position}"))
        ax.text(x + 0.42, y + 0.42, alteration.wanted, ha="right", va="bottom", fontsize=small * 1.25,
                color=ALTERED, fontweight="bold")
    _frame(ax, board.rows, board.cols)
    ax.set_gid(f"panel:{panel.word}")
    ax.text(0.5, 1.03, f"{panel.name}  {panel.weight:,}\n{panel.spelled}", transform=ax.transAxes,
            ha="center", va="bottom", fontsize=8.5)


def _draw_map(ax: Axes, tile_map: TileMap) -> None:
    from matplotlib.patches import FancyBboxPatch, Rectangle

    chain = set(tile_map.chain or ())
    for key, (col, row) in sorted(tile_map.tiles.items()):
        found = key in tile_map.found
        ax.add_artist(Rectangle((col + 0.05, row + 0.05), 0.9, 0.9, facecolor=FOUND_TILE if found else "#f4f4f4",
                               edgecolor=CHAIN if key in chain else ("#4a7fa8" if found else "#d0d0d0"),
                               lw=2.0 if key in chain else 0.8, gid=f"tile:{key}"))
        ax.text(col + 0.5, row + 0.52, tile_map.labels[key], ha="center", va="center", fontsize=7.5,
                color="#111111" if found else "#9a9a9a", fontweight="bold" if found else "normal")
    if tile_map.chain:
        xs = [tile_map.tiles[k][0] + 0.5 for k in tile_map.chain]
        ys = [tile_map.tiles[k][1] + 0.5 for k in tile_map.chain]
        (line,) = ax.plot(xs, ys, color=CHAIN, lw=2.4, marker="o", markersize=4, alpha=0.9, solid_capstyle="round")
        line.set_gid("chain")
        chain_text = f"{tile_map.chain_title}: " + " - ".join(tile_map.labels[k] for k in tile_map.chain)
    else:
        chain_text = f"{tile_map.chain_title}: none" if tile_map.chain_title else "no chain item"
    width = max(col for col, _ in tile_map.tiles.values()) + 1
    height = max(row for _, row in tile_map.tiles.values()) + 1
    per_row = max(1, math.ceil(len(tile_map.badges) / 2)) if len(tile_map.badges) > 6 else len(tile_map.badges)
    badge_w = width / max(per_row, 1)
    for i, badge in enumerate(tile_map.badges):
        x = (i % max(per_row, 1)) * badge_w
        y = height + 0.35 + (i // max(per_row, 1)) * 0.75
        colour = MET if badge.met else UNMET
        ax.add_artist(FancyBboxPatch((x + 0.08, y), badge_w - 0.16, 0.55, boxstyle="round,pad=0,rounding_size=0.15",
                                    facecolor=colour if badge.met else "white", edgecolor=colour, lw=1.2,
                                    gid=f"badge:{badge.key}:{'met' if badge.met else 'unmet'}"))
        ax.text(x + badge_w / 2, y + 0.29, ("\u2713 " if badge.met else "\u2717 ") + badge.key, ha="center",
                va="center", fontsize=7.5, color="white" if badge.met else colour, fontweight="bold")
    rows_of_badges = math.ceil(len(tile_map.badges) / max(per_row, 1)) if tile_map.badges else 0
    _frame(ax, height + 0.35 + 0.75 * rows_of_badges, width)
    ax.set_gid("map")
    met = sum(b.met for b in tile_map.badges)
    ax.set_title(f"{len(tile_map.found & set(tile_map.tiles))} of 48 contiguous states found; "
                 f"{met} of {len(tile_map.badges)} met ({tile_map.checklist})\n{chain_text}",
                 fontsize=8.5, loc="left")


# --------------------------------------------------------------------------- the figure


@dataclass(frozen=True)
class _Layout:
    """Where a figure's parts go, in inches from the top left."""

    width: float
    height: float
    margin: float
    gap: float
    title: float
    top_h: float
    grid_w: float
    grid_h: float
    map_w: float
    map_h: float
    per_row: int
    panel_w: float
    panel_h: float
    note_h: float
    header: list[str]

    def box(self, x: float, y_top: float, w: float, h: float) -> list[float]:
        """Axes rectangle in figure fractions from inches measured from the top left."""
        return [x / self.width, (self.height - y_top - h) / self.height, w / self.width, h / self.height]


def _layout(picture: Picture, columns: int | None) -> _Layout:
    """The figure's size and the place of its grid, map and word panels."""
    if columns is not None and (isinstance(columns, bool) or not isinstance(columns, int) or columns < 1):
        raise InputError(f"columns must be a whole number 1 or more, got {columns!r}")
    aspect = picture.grid.board.rows / picture.grid.board.cols
    count = len(picture.panels)
    if count > MAX_PANELS:
        raise InputError(f"{count:,} word panels are too many for one figure (at most {MAX_PANELS:,}): "
                         "keep the heaviest with max_panels")
    per_row = min(columns or PANEL_COLUMNS, max(count, 1))
    panel_rows = math.ceil(count / per_row) if count else 0
    panel_h = PANEL_INCHES * min(max(aspect, 0.35), 1.6) + 0.35
    grid_w = GRID_INCHES if aspect <= 1 else GRID_INCHES / aspect
    tile_map = picture.tile_map
    map_w = map_h = 0.0
    if tile_map is not None:
        cols = max(c for c, _ in tile_map.tiles.values()) + 1
        rows = max(r for _, r in tile_map.tiles.values()) + 1
        badge_rows = 2 if len(tile_map.badges) > 6 else 1
        map_w, map_h = cols * TILE_INCHES, (rows + 0.35 + 0.75 * badge_rows) * TILE_INCHES
    header = header_lines(picture)
    margin, gap = 0.3, 0.45
    title = 0.3 * len(header) + (0.55 if tile_map is not None else 0.1)
    top_h = max(grid_w * aspect, map_h) + title + 0.3
    width = max(2 * margin + per_row * PANEL_INCHES, 2 * margin + grid_w + (gap + map_w if tile_map else 0))
    note_h = 0.3 if picture.omitted else 0.0
    height = margin + top_h + panel_rows * (panel_h + 0.25) + note_h + margin
    return _Layout(width, height, margin, gap, title, top_h, grid_w, grid_w * aspect, map_w, map_h, per_row,
                   PANEL_INCHES, panel_h, note_h, header)


def draw(picture: Picture, columns: int | None = None) -> Figure:
    """A matplotlib Figure of ``picture``: the grid and the map on top, the word panels below.

    ``columns`` is how many word panels per row (default: 6, or fewer when there are fewer).
    """
    ensure_matplotlib()
    from matplotlib.figure import Figure

    at = _layout(picture, columns)
    board = picture.grid.board
    margin, width, height = at.margin, at.width, at.height
    with _style():
        fig = Figure(figsize=(width, height), dpi=100)
        fig.set_facecolor("white")
        fig.text(margin / width, 1 - margin / height, "\n".join(at.header), fontsize=11, va="top", ha="left",
                 linespacing=1.5)
        grid_ax = fig.add_axes(at.box(margin, margin + at.title, at.grid_w, at.grid_h))
        _draw_grid(grid_ax, picture, at.grid_w / board.cols)
        if picture.tile_map is not None:
            map_ax = fig.add_axes(at.box(margin + at.grid_w + at.gap, margin + at.title, at.map_w, at.map_h))
            _draw_map(map_ax, picture.tile_map)
        aspect = board.rows / board.cols
        cell_inches = min(at.panel_w - 0.2, (at.panel_h - 0.45) / aspect) / board.cols
        for i, panel in enumerate(picture.panels):
            row, col = divmod(i, at.per_row)
            x = margin + col * at.panel_w + 0.1
            y = margin + at.top_h + row * (at.panel_h + 0.25) + 0.4
            ax = fig.add_axes(at.box(x, y, cell_inches * board.cols, cell_inches * board.rows))
            _draw_panel(ax, picture, panel, PALETTE[i % len(PALETTE)], cell_inches)
        if picture.omitted:
            fig.text(margin / width, (margin + at.note_h / 2) / height,
                     f"+{plural(picture.omitted, 'lighter word')} found, not drawn "
                     "(max_panels)", fontsize=8, color="#444444", va="center")
        fig.text(1 - margin / width, 0.35 * margin / height, "exactgrid: ring = first letter, n,m = letter positions "
                 "read in a cell, red box = altered cell (small letter: the one it stands for)",
                 fontsize=6.5, color="#666666", ha="right", va="center")
    return fig


class SVG(str):
    """SVG text (a ``str``) that a Jupyter notebook shows as the picture (what :func:`svg` returns)."""

    __slots__ = ()

    def _repr_svg_(self) -> str:
        return str(self)

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        printer.text(f"<SVG picture, {len(self):,} characters>")


def is_open_file(target: object) -> bool:
    """Whether ``target`` is a file object (it has ``write``) rather than a path."""
    return callable(getattr(target, "write", None))


def _name(target: Target) -> str:
    """A path as text; an open file's name (``""`` when it has none, as a StringIO)."""
    if not is_open_file(target):
        return str(target)
    name = getattr(target, "name", "")
    return name if isinstance(name, str) else ""


def picture_format(path: Target, format: str | None = None) -> str:
    """The format to write: ``format`` if given, else the file's suffix (an open file's name's);
    one of :data:`FORMATS`."""
    name = _name(path)
    chosen = (format or Path(name).suffix.lstrip(".")).lower()
    if chosen not in FORMATS:
        if is_open_file(path) and not format and not name:
            raise InputError("cannot tell a picture's format from an open file without a name: "
                             "give format='svg', 'png' or 'pdf'")
        raise InputError(f"cannot write a picture as {chosen or 'a file without a suffix'!r} "
                         f"({name!r}); use a .svg, .png or .pdf file")
    return chosen


def _wants_text(handle: Any) -> bool:
    """Whether an open file takes ``str`` (a text file, a StringIO) rather than bytes."""
    if isinstance(handle, io.TextIOBase):
        return True
    if isinstance(handle, io.RawIOBase | io.BufferedIOBase):
        return False
    try:
        handle.write(b"")
    except TypeError:
        return True
    return False


MIN_DPI, MAX_DPI = 10, 1200
"""The coarsest and sharpest a PNG is drawn (dots per inch, the same for ``show`` and
``exactgrid show --dpi``); the pixels a picture may have are limited too."""


def save_figure(fig: Figure, path: Target, format: str | None = None, dpi: int = 100) -> Target:
    """Write ``fig`` to ``path``, a path or an open file (SVG byte for byte the same for the same
    figure; PNG at ``dpi``). Returns where it went (a path as a Path, an open file as is)."""
    dpi = check_whole(dpi, "dpi", MIN_DPI, MAX_DPI)
    chosen = picture_format(path, format)
    target = path if is_open_file(path) else Path(path)
    if chosen != "svg" and is_open_file(path) and _wants_text(path):
        raise InputError(f"a {chosen.upper()} is binary: open the file for it with 'wb', not 'w'")
    width, height = fig.get_size_inches()
    pixels = width * height * dpi * dpi
    if chosen == "png" and pixels > MAX_PIXELS:
        raise InputError(f"a {width * dpi:,.0f} x {height * dpi:,.0f} pixel PNG is too big to draw (at most "
                         f"{MAX_PIXELS // 1_000_000} million pixels): lower --dpi, or draw an SVG")
    from .. import __version__

    creator = f"exactgrid {__version__}, Matplotlib v{ensure_matplotlib().__version__}"
    metadata: dict[str, Any] = {"svg": {"Date": None, "Creator": creator},
                                "pdf": {"CreationDate": None, "ModDate": None, "Creator": creator},
                                "png": {"Software": creator}}[chosen]
    with _style(), no_stuck_fifo(target) if isinstance(target, Path) else contextlib.nullcontext():
        try:
            fig.savefig(target, format=chosen, dpi=dpi, metadata=metadata, facecolor="white")
        except OSError as exc:
            raise InputError(f"cannot write {_name(path)!r}: {exc.strerror or exc}") from None
    return target


def show(subject: Any, out: Target | None = None, *, format: str | None = None, columns: int | None = None,
         dpi: int = 100, **options: Any) -> Figure:
    """Draw ``subject`` (a grid, its letters, a Score, a fit or solve answer) and, given ``out``,
    save it there. Returns the matplotlib Figure.

    ``out`` is a path (``.svg``, ``.png`` or ``.pdf``: the suffix says which, unless ``format``
    does) or a file open for writing (binary; an SVG may go to a text file or a StringIO too):
    its format is ``format``, else its name's suffix. The file is written, not closed.

    ``options`` go to :func:`~exactgrid.render.picture.picture_of`: ``words``, ``budget``,
    ``path_rule``, ``shape``, ``moves``, ``checklist``, ``water_borders``, ``tile_map``,
    ``max_panels``.

    >>> fig = show("thoainesl")                     # doctest: +SKIP
    >>> show("thoainesl", "seed.svg")               # doctest: +SKIP
    >>> with open("seed.png", "wb") as out:         # doctest: +SKIP
    ...     show("thoainesl", out)
    """
    dpi = check_whole(dpi, "dpi", MIN_DPI, MAX_DPI)
    if out is not None:
        picture_format(out, format)  # a bad file name is refused before any drawing
    fig = draw(picture_of(subject, **options), columns=columns)
    if out is not None:
        save_figure(fig, out, format, dpi)
    return fig


def svg(subject: Any, *, columns: int | None = None, **options: Any) -> SVG:
    """The picture of ``subject`` (as :func:`show` draws it, with the same ``options``) as SVG
    text: the same characters :func:`show` writes to a ``.svg`` file. It is a ``str``; in a
    Jupyter notebook, as a cell's value, it shows as the picture.

    >>> text = svg("thoainesl")                     # doctest: +SKIP
    >>> text.startswith("<?xml")                    # doctest: +SKIP
    True
    """
    buffer = io.StringIO()
    save_figure(show(subject, columns=columns, **options), buffer, "svg")
    return SVG(buffer.getvalue())
