"""ENABLE, the public-domain English word list of the dictionary puzzles (Trackword, Letter Boxed).

``enable.txt.gz`` beside this module: 172,823 lower-case words, one a line; its source and
checksums are in ``README.md`` here. :func:`enable` is the list as a :class:`WordList` (every
word upper-cased, weight 1), registered as ``enable`` (``--words enable``).
"""

from __future__ import annotations

import gzip
from functools import cache
from importlib import resources

from ..words import NAMED_LISTS, WordList

SHA256 = "3f16130220645692ed49c7134e24a18504c2ca55b3c012f7290e3e77c63b1a89"
"""The sha256 of the uncompressed file, as the reference folder gives it."""


def enable_text() -> bytes:
    """The uncompressed bytes of the bundled ENABLE file."""
    packed = resources.files(__package__).joinpath("enable.txt.gz").read_bytes()
    return gzip.decompress(packed)


@cache
def enable() -> WordList:
    """ENABLE as a word list: 172,823 words, upper case, each of weight 1.

    >>> words = enable()
    >>> len(words), "RETRIEVES" in words, words.longest
    (172823, True, 28)
    """
    words = enable_text().decode("ascii").upper().split()
    return WordList(dict.fromkeys(words, 1), "ENABLE")


NAMED_LISTS["enable"] = enable
