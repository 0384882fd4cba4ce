"""What people see: text and JSON (:mod:`.text`), and pictures (:mod:`.picture`, :mod:`.figure`).

The text functions are re-exported here, so ``from exactgrid.render import score_text`` works as
it always did. Pictures need matplotlib (``pip install 'exactgrid[plot]'``), which is imported
only when a picture is drawn: :func:`.figure.show` (``eg.show``) draws one;
:func:`.picture.picture_of` (``eg.picture_of``) says what it holds (panels, steps, the map) as
plain data, without matplotlib.
"""

from __future__ import annotations

from .text import (
    alteration_text,
    alterations,
    checklist_dict,
    checklist_table,
    fit_dict,
    fit_text,
    grid_block,
    grid_dict,
    item_dict,
    item_evidence,
    marked_spelling,
    path_labels,
    score_dict,
    score_text,
    search_progress_line,
    solve_dict,
    solve_text,
    text_table,
    words_table,
)

__all__ = [
    "alteration_text",
    "alterations",
    "checklist_dict",
    "checklist_table",
    "fit_dict",
    "fit_text",
    "grid_block",
    "grid_dict",
    "item_dict",
    "item_evidence",
    "marked_spelling",
    "path_labels",
    "score_dict",
    "score_text",
    "search_progress_line",
    "solve_dict",
    "solve_text",
    "text_table",
    "words_table",
]
