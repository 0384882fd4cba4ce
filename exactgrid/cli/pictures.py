"""Pictures of answers: ``show`` and ``--show FILE`` on ``fit`` and ``solve`` (matplotlib).

JSON of a picture (``show --json``; ``fit --show`` and ``solve --show`` add it as ``picture``):
``out``, ``format`` (svg, png, pdf), ``panels`` (the words drawn, heaviest first), ``omitted``
(found but not drawn), ``map`` (bool), ``chain`` (the map's chain or null), ``spare`` (labels of
the cells no found word needs), ``seconds``; ``{"out": null, "reason": ...}`` when there was no
grid to draw or it could not be written.
"""

from __future__ import annotations

import os
import time
from typing import Any

import click

from ..inputs import InputError
from ..wording import plural
from .base import print_json
from .progress import notice


def draw_picture(subject: Any, out: str, **options: Any) -> dict[str, Any]:
    """Draw ``subject`` to ``out``; what was drawn, JSON-ready."""
    from ..render.figure import draw, picture_format, save_figure
    from ..render.picture import picture_of

    started = time.monotonic()
    layout = {"columns": options.pop("columns", None), "dpi": options.pop("dpi", 100)}
    chosen = picture_format(out)
    picture = picture_of(subject, **options)
    save_figure(draw(picture, columns=layout["columns"]), out, dpi=layout["dpi"])
    board = picture.grid.board
    return {"out": out, "format": chosen, "panels": [p.word for p in picture.panels], "omitted": picture.omitted,
            "map": picture.tile_map is not None,
            "chain": list(picture.tile_map.chain) if picture.tile_map and picture.tile_map.chain else None,
            "spare": [board.label(c) for c in picture.spare], "seconds": round(time.monotonic() - started, 3)}


def drawn_text(drawn: dict[str, Any]) -> str:
    """One line saying what was drawn where (``wrote x.svg (svg: 5 word panels, map) in 0.3 s``)."""
    parts = [plural(len(drawn['panels']), 'word panel')]
    if drawn["omitted"]:
        parts.append(f"{drawn['omitted']} more not drawn")
    if drawn["map"]:
        parts.append("map")
    return f"wrote {drawn['out']} ({drawn['format']}: {', '.join(parts)}) in {drawn['seconds']:.1f} s"


def can_draw(out: str | None) -> None:
    """Refuse --show FILE before any work when the file type is unknown or matplotlib is missing."""
    if out is not None:
        from ..render.figure import ensure_matplotlib, picture_format

        picture_format(out)
        ensure_matplotlib()
        folder = os.path.dirname(os.path.abspath(out))
        if not os.path.isdir(folder):
            raise InputError(f"cannot write {out!r}: no such folder {folder!r}")


def show_answer(answer: Any, out: str | None, as_json: bool, **options: Any) -> dict[str, Any] | None:
    """``--show FILE`` on fit and solve: draw the answer's grid, or say on stderr why there is none."""
    if out is None:
        return None
    if answer.grid is None:
        if not as_json:
            notice(f"no grid to draw ({answer.verdict.value.upper()}); {out} not written", "--show")
        return {"out": None, "reason": f"no grid ({answer.verdict.value})"}
    try:
        drawn = draw_picture(answer, out, **options)
    except InputError as exc:  # the answer still stands and is printed; only the picture failed
        if not as_json:
            notice(str(exc), "--show")
        return {"out": None, "reason": str(exc)}
    if not as_json:
        notice(drawn_text(drawn), "")
    return drawn


def print_answer(ctx: Any, answer: Any, as_json: bool, show: str | None, **options: Any) -> None:
    """The end of ``fit`` and ``solve``: the picture asked for (``--show``), the answer as text or
    JSON (with ``picture``), and the answer's exit status."""
    drawn = show_answer(answer, show, as_json, **options)
    if as_json:
        print_json({**answer.to_dict(), **({"picture": drawn} if drawn else {})})
    else:
        click.echo(answer.text())
    ctx.exit(answer.exit_code)
