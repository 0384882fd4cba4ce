"""Datasets bundled with exactgrid, each a module over the files beside it (sources cited in
``README.md`` here), and :func:`word_list`, which finds a word list by name or reads a file.
Today: :mod:`exactgrid.data.us`, the 50 US states (2020 census populations, borders, coasts),
the word list of Altered States 2."""

from __future__ import annotations

from pathlib import Path

from ..words import WordList, read_word_list

BUILTIN_LISTS = ("us-states",)
"""Word lists known by name (``--words us-states``); anything else is read as a file."""


def word_list(source: str | Path | WordList | None = None) -> WordList:
    """A word list: ``None`` or ``"us-states"`` for the bundled US states, a WordList as is, or
    the path of a word-list file (see :func:`read_word_list`)."""
    if isinstance(source, WordList):
        return source
    if source is None or str(source).lower() in BUILTIN_LISTS:
        from .us import us_states

        return us_states()
    return read_word_list(source)
