"""Datasets bundled with exactgrid, each a module over the files beside it (sources cited in
``README.md`` here), and :func:`word_list`, which finds a word list by name or reads a file.
Today: :mod:`exactgrid.data.us`, the 50 US states (2020 census populations, borders, coasts,
tile-map positions), the word list of Altered States 2; and :mod:`exactgrid.data.enable`, the
ENABLE dictionary of the word puzzles."""

from __future__ import annotations

import os
from pathlib import Path

from ..inputs import InputError
from ..words import WordList, read_word_list

BUILTIN_LISTS = ("us-states", "enable")
"""Word lists known by name (``--words us-states``); anything else is read as a file."""


def word_list(source: str | Path | WordList | None = None, deadline: float | None = None) -> WordList:
    """A word list: ``None`` or ``"us-states"`` for the bundled US states, ``"enable"`` for the
    ENABLE dictionary, a WordList as is, or the path of a word-list file (see
    :func:`read_word_list`; ``deadline`` is for reading such a file)."""
    if isinstance(source, WordList):
        return source
    name = "us-states" if source is None else str(source).lower()
    if name == "us-states":
        from .us import us_states

        return us_states()
    if name == "enable":
        from .enable import enable

        return enable()
    if not isinstance(source, str | os.PathLike):
        raise InputError(f"a word list is a WordList, 'us-states', 'enable' or a file's path, "
                         f"got {type(source).__name__}")
    if not os.path.lexists(source):  # type: ignore[arg-type]
        raise InputError(f"unknown word list {str(source)!r}: neither a bundled list ({', '.join(BUILTIN_LISTS)}) "
                         "nor a file")
    return read_word_list(source, deadline=deadline)  # type: ignore[arg-type]
