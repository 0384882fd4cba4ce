"""The search's admissible bounds: tables, worked out once per box by subset-sum transforms
(zeta, then Moebius), of the fewest words that cover each set of letters (:func:`cover_bounds`)
and of the fewest *chained* words from each letter that do (:func:`chain_bound`)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .rules import LetterBox

COVER_BITS = 16
"""The most letters one cover table spans (a table has 2**COVER_BITS entries)."""
NEVER = 127
"""A table value no number of words reaches."""


@dataclass(frozen=True)
class CoverBound:
    """The fewest words, chaining ignored, that cover each subset of some letters H of the box.

    ``parts[j][byte]`` maps byte j of a cover mask to its letters' bits in a compact index over
    H; ``fewest[index]`` is the fewest words covering those letters (``NEVER``: no number does).
    No chain covers a set of letters with fewer words than an unchained set of words can, so a
    state whose missing letters of H need more words than remain is hopeless (an admissible
    bound). Compacting keeps bitwise operations: compact(a & ~b) = compact(a) & ~compact(b).
    """

    parts: tuple[np.ndarray, ...]
    fewest: np.ndarray

    def compact(self, masks: np.ndarray) -> np.ndarray:
        """The compact index (the bits of H only) of each cover mask."""
        index = self.parts[0][masks & 0xFF]
        for j, part in enumerate(self.parts[1:], 1):
            index = index | part[(masks >> (8 * j)) & 0xFF]
        return index


def cover_bounds(box: LetterBox, masks: np.ndarray) -> tuple[CoverBound, ...]:
    """Cover tables over the whole box when it has at most COVER_BITS letters (an exact set-cover
    bound); else over the COVER_BITS rarest letters, and over the others plus the rarest."""
    uses = [int(np.count_nonzero(masks >> cell & 1)) for cell in range(box.size)]
    rare = sorted(range(box.size), key=lambda cell: (uses[cell], cell))
    if box.size <= COVER_BITS:
        groups = [rare]
    else:
        rest = rare[COVER_BITS:]
        groups = [rare[:COVER_BITS], rest + rare[:COVER_BITS - len(rest)]]
    return tuple(_cover_bound(sorted(group), masks, box.size) for group in groups)


def _byte_parts(cells: list[int], size: int) -> tuple[np.ndarray, ...]:
    """For each byte of a ``size``-bit mask, the compact bits (over ``cells``) of its 256 values."""
    values = np.arange(256)
    parts = []
    for j in range((size + 7) // 8):
        part = np.zeros(256, dtype=np.int64)
        for index, cell in enumerate(cells):
            if cell // 8 == j:
                part |= (values >> (cell % 8) & 1) << index
        parts.append(part)
    return tuple(parts)


def _cover_bound(cells: list[int], masks: np.ndarray, size: int) -> CoverBound:
    """The cover table of the letters ``cells`` for words with cover ``masks``.

    One word covers the subsets of its letters (a down-closure); c words cover the unions of
    c such sets, an OR-convolution done as a product of subset sums (zeta, then Moebius).
    """
    bits = len(cells)
    parts = _byte_parts(cells, size)
    one = np.zeros(1 << bits, dtype=np.int64)
    one[CoverBound(parts, one).compact(masks)] = 1
    one[0] = 1
    one = _down_closure(one, bits)
    fewest = np.full(len(one), NEVER, dtype=np.int8)
    fewest[0] = 0
    ones, reached, count = _zeta(one, bits), one, 1
    while True:
        fresh = (reached > 0) & (fewest == NEVER)
        if not fresh.any():
            return CoverBound(parts, fewest)
        fewest[fresh] = count
        count += 1
        # 0/1 again before the next product: subset sums stay <= 2**bits, products <= 2**(2 * bits)
        reached = (_moebius(_zeta(reached, bits) * ones, bits) > 0).astype(np.int64)


CHAIN_BITS = 12
"""The most letters the chain table spans (it has letters x 2**CHAIN_BITS entries)."""


def chain_bound(box: LetterBox, first: np.ndarray, last: np.ndarray, masks: np.ndarray, most: int,
                 ) -> CoverBound:
    """The fewest words of a *chain* starting at each letter that covers each subset of the
    CHAIN_BITS rarest letters (all of them on boxes of up to CHAIN_BITS letters, where the table
    is the exact answer for those letters): ``fewest[l * 2**bits + index]``.

    ``g_c[l]`` (the sets c chained words from l cover, down-closed) is the union over l' of
    ``W[l][l'] (+) g_{c-1}[l']``, where ``W[l][l']`` holds the sets one word from l to l' covers
    and (+) is the OR-convolution, done on subset sums. Values are worked out up to ``most``
    words; a set no chain of at most ``most`` words covers gets ``most + 1``.
    """
    uses = [int(np.count_nonzero(masks >> cell & 1)) for cell in range(box.size)]
    cells = sorted(sorted(range(box.size), key=lambda cell: (uses[cell], cell))[:CHAIN_BITS])
    bits, size = len(cells), box.size
    parts = _byte_parts(cells, size)
    compact = CoverBound(parts, masks).compact(masks)
    one = np.zeros((size, size, 1 << bits), dtype=np.uint8)
    one[first, last, compact] = 1
    one = _down_closure(one.reshape(size * size, -1), bits).reshape(size, size, -1)
    # subset sums stay below 2**bits * 2**bits * size < 2**31 (bits <= 12, size <= 26): int32 is exact
    sums = _zeta(one.reshape(size * size, -1), bits, np.int32).reshape(size, size, -1)
    fewest = np.full((size, 1 << bits), most + 1, dtype=np.int8)
    fewest[:, 0] = 0
    reached = one.max(axis=1)
    for count in range(1, most + 1):
        fewest[(reached > 0) & (fewest > count)] = count
        chained = np.einsum("abx,bx->ax", sums, _zeta(reached, bits, np.int32))
        following = (_moebius(chained, bits) > 0).astype(np.uint8)
        if np.array_equal(following, reached):  # the same sets for every longer chain: the rest never
            fewest[fewest > count] = NEVER
            break
        reached = following
    return CoverBound(parts, fewest.reshape(-1))


def _down_closure(table: np.ndarray, bits: int) -> np.ndarray:
    """The 0/1 table of every subset of a set marked in ``table`` (each row of a 2-D table alone)."""
    out = table.copy()
    for bit in range(bits):
        view = out.reshape(-1, 2, 1 << bit)
        np.maximum(view[:, 0, :], view[:, 1, :], out=view[:, 0, :])
    return out


def _zeta(table: np.ndarray, bits: int, dtype: type = np.int64) -> np.ndarray:
    """``out[x]`` = the sum of ``table[s]`` over the subsets s of x (each row of a 2-D table alone)."""
    out = table.astype(dtype, copy=True)
    for bit in range(bits):
        view = out.reshape(-1, 2, 1 << bit)
        view[:, 1, :] += view[:, 0, :]
    return out


def _moebius(table: np.ndarray, bits: int) -> np.ndarray:
    """The inverse of :func:`_zeta`."""
    out = table.copy()
    for bit in range(bits):
        view = out.reshape(-1, 2, 1 << bit)
        view[:, 1, :] -= view[:, 0, :]
    return out


def popcount(masks: np.ndarray) -> np.ndarray:
    """The number of set bits of each mask (non-negative, below 2**32)."""
    count = getattr(np, "bitwise_count", None)  # numpy >= 2.0
    if count is not None:
        return count(masks).astype(np.int64)
    return _POP16[masks & 0xFFFF] + _POP16[masks >> 16]


_POP16 = np.array([bin(i).count("1") for i in range(1 << 16)], dtype=np.int64)


