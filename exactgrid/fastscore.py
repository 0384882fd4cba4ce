"""Fast scoring of many grids against one word list (walks, Hamming budget), for searches.

``exactgrid.finder`` is the reference: it decides one word in one grid at a time and also
builds witnesses. This module only answers *which* words a grid holds and what it scores,
as fast as pure Python and numpy allow. Both paths run the same dynamic programme as
``finder.walk_found`` -- ``reach[j]`` = cells where a walk spelling the prefix so far can
end with at most ``j`` substitutions -- but lay the bits out differently:

* **One grid at a time** (``Scorer.score_one`` / ``found_mask``): every word is a *lane*.
  One Python ``int`` holds, for every cell, one bit per word (bit ``cell * lane + word``),
  so one integer operation advances all words by one letter at once. The dilation
  ("cells one move away") is a handful of shifts by whole cells; the per-position letter
  masks come from one numpy gather over a precomputed (position, cell, letter) table.
  Words shorter than the longest are padded with "any cell" positions, which keeps a
  found word found, so the found set is read off at the end.
* **Batches** (``Scorer.score_batch``): bit-sliced over grids. For every cell there is a
  bit-vector over grids (64 grids per ``uint64``), array shape ``(rows, cols, G)``. The
  words are merged into a trie (:class:`exactgrid.wordsearch.Trie`, the one trie of the
  package, shared with the dictionary search); a node's reach arrays are dilated once and
  shared by all its children (prefixes such as NEW, NORTH, MISS are computed once). A subtree is pruned
  as soon as no grid of the chunk can still spell its prefix, and the arrays are
  compacted to the still-alive 64-grid columns when few remain.

The dilation is specialised by board, and every form is taken from the board
(:mod:`exactgrid.geometry`). King and rook rectangles shift whole rows and columns, masked by
``Board.column_masks`` (the fast path above). A custom board (any adjacency,
``Board.is_custom``) dilates generally: one grid at a time, ``reach`` is shifted by each cell
offset ``b - a`` of an adjacent pair, masked to the cells that have a neighbour at that offset
(``Board.offset_masks``, widened to lanes); in batches, each cell's bit-vectors are gathered
from its neighbours (``Board.neighbours``), one neighbour "slot" at a time.

Only walks are supported (a cell may be revisited); simple paths stay on the finder.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from .geometry import Board, cells_of
from .inputs import InputError
from .words import WordList
from .wordsearch import END, Trie, TrieNode

_A = ord("A")
_ALPHABET = 26


class FastScoreError(InputError):
    """A request the fast scorer cannot serve (bad grid text, unsupported rule)."""


def _lanes(cells: int, lane: int) -> int:
    """A cell bitmask widened to lanes: every bit of lane ``c`` set for each cell ``c`` of ``cells``."""
    lane_mask = (1 << lane) - 1
    return sum(lane_mask << (c * lane) for c in cells_of(cells))


def _offset_spread(board: Board, lane: int) -> Callable[[int], int]:
    """Dilation of a lane-packed big integer (bit ``cell * lane + word``) on any adjacency.

    The board's :attr:`~exactgrid.geometry.Board.offset_masks` group its adjacent pairs by
    offset ``d = b - a``: the lanes of the cells having a neighbour ``d`` further on are masked
    out and shifted by ``d`` lanes at once.
    """
    up = tuple((d * lane, _lanes(cells, lane)) for d, cells in board.offset_masks if d > 0)
    down = tuple((-d * lane, _lanes(cells, lane)) for d, cells in board.offset_masks if d < 0)

    def spread(x: int) -> int:
        out = 0
        for shift, mask in up:
            out |= (x & mask) << shift
        for shift, mask in down:
            out |= (x & mask) >> shift
        return out

    return spread


def _neighbour_slots(neighbours: Sequence[Sequence[int]]) -> list[tuple[np.ndarray | slice, np.ndarray]]:
    """Gathers for a dilation: slot ``k`` pairs the cells with a ``k``-th neighbour (``dst``; a
    slice when that is every cell) with that neighbour (``src``)."""
    slots: list[tuple[np.ndarray | slice, np.ndarray]] = []
    for k in range(max((len(near) for near in neighbours), default=0)):
        dst = [a for a, near in enumerate(neighbours) if len(near) > k]
        src = np.array([neighbours[a][k] for a in dst], dtype=np.intp)
        slots.append((slice(None) if len(dst) == len(neighbours) else np.array(dst, dtype=np.intp), src))
    return slots


class Scorer:
    """Scores grids of one board shape against one weighted word list (walks only).

    >>> from exactgrid.geometry import Board
    >>> from exactgrid.data.us import us_states
    >>> s = Scorer(Board(3, 3), us_states(), budget=1)
    >>> s.score_one("THOAINESL")
    32913047
    """

    def __init__(self, board: Board, words: WordList, budget: int = 1, path_rule: str = "walk",
                 chunk: int = 32768, small_batch: int = 4096, small_chunk: int = 1024) -> None:
        if not isinstance(board, Board):
            raise FastScoreError(f"a Scorer's board must be a Board (such as Board(5, 5)), got {type(board).__name__}")
        if not isinstance(words, WordList):
            raise FastScoreError(f"a Scorer's words must be a WordList (such as eg.us_states()), "
                                 f"got {type(words).__name__}")
        if path_rule != "walk":
            raise FastScoreError(
                f"the fast scorer handles walks only, not {path_rule!r} paths; use exactgrid.finder.score"
            )
        if isinstance(budget, bool) or not isinstance(budget, int) or budget < 0:
            raise FastScoreError(f"alteration budget must be a whole number 0 or more, got {budget!r}")
        if len(words) == 0:
            raise FastScoreError("the word list is empty")
        self.board = board
        self.words = words
        self.budget = min(budget, words.longest)  # a larger budget alters nothing more
        self.chunk = chunk
        self.small_batch = small_batch
        self.small_chunk = small_chunk
        self.word_list: tuple[str, ...] = words.words
        self.weights = np.array([words.weight(w) for w in self.word_list], dtype=np.int64)
        self._index = {word: i for i, word in enumerate(self.word_list)}
        self._init_lanes()
        self._init_table()
        self._init_weights()
        # the prefix tree of the batch mode: wordsearch's (one trie type for the package)
        self._trie = Trie.from_words(words, name=words.name)
        self._init_levels()

    # ------------------------------------------------------------------ one grid at a time

    def _init_lanes(self) -> None:
        """Lane sizes and the dilation of a lane-packed integer (bit ``cell * lane + word``)."""
        board = self.board
        cells = board.size
        n_words = len(self.word_list)
        lane_words = -(-n_words // 64)  # uint64 per cell
        self._lane_words = lane_words
        lane = 64 * lane_words  # bits per cell
        self._lane = lane
        self._cells = cells
        self._n_words = n_words
        self._positions = max(len(w) for w in self.word_list)
        self._full = (1 << (cells * lane)) - 1
        not_first, not_last = board.column_masks
        self._not_last, self._not_first = _lanes(not_last, lane), _lanes(not_first, lane)
        self._row_shift = board.cols * lane
        self._king = board.moves == "king"
        self._custom = board.is_custom
        self._spread_bits = _offset_spread(board, lane) if board.is_custom else None
        self._slots = _neighbour_slots(board.neighbours) if board.is_custom else []
        self._cell_index = np.arange(cells)
        self._chunk_bytes = cells * lane // 8
        self._fold_steps = []
        span = cells
        while span > 1:
            half = (span + 1) // 2
            self._fold_steps.append(half * lane)
            span = half

    def _init_table(self) -> None:
        """The (position, cell, letter) table of word-lane masks, and the lanes ending where.

        A walk can always take one more step when every cell has a neighbour; then words are
        padded to the longest length with "any cell" positions and stay found (``_pad``)."""
        words, positions, cells = self.word_list, self._positions, self._cells
        self._pad = all(self.board.neighbour_masks)
        # table[p, c, byte, k]: uint64 k of the word-lane mask of (position p, letter byte at cell c)
        table = np.zeros((positions, cells, 128, self._lane_words), dtype=np.uint64)
        for w, word in enumerate(words):
            k, bit = divmod(w, 64)
            for p in range(positions):
                if p < len(word):
                    table[p, :, ord(word[p]), k] |= np.uint64(1 << bit)
                elif self._pad:
                    table[p, :, _A:_A + _ALPHABET, k] |= np.uint64(1 << bit)
        self._table = table
        # without padding: per position, the lanes of the words ending there (all cells)
        every = sum(1 << (c * self._lane) for c in range(cells))  # bit 0 of every cell
        self._ends: list[int] = [0] * positions
        if not self._pad:
            for w, word in enumerate(words):
                self._ends[len(word) - 1] |= (every << w)

    def _init_weights(self) -> None:
        """Byte tables summing the weights of the words set in one byte of a found mask."""
        n_words = self._n_words
        self._word_bits = (1 << n_words) - 1
        byte_count = -(-n_words // 8)
        weights = [self.words.weight(w) for w in self.word_list]
        self._byte_tables = []
        for b in range(byte_count):
            table_b = [0] * 256
            for value in range(1, 256):
                low = value & -value
                idx = b * 8 + low.bit_length() - 1
                table_b[value] = table_b[value ^ low] + (weights[idx] if idx < n_words else 0)
            self._byte_tables.append(table_b)
        self._byte_count = byte_count
        self._byte_tables_np = [np.array(t, dtype=np.int64) for t in self._byte_tables]

    def _codes_bytes(self, letters: str) -> bytes:
        if len(letters) != self._cells:
            raise FastScoreError(
                f"a {self.board.shape_name} grid needs {self._cells} letters, got {len(letters)}"
            )
        raw = letters.encode("ascii", "replace")
        if not (raw.isalpha() and raw.isupper()):
            raise FastScoreError(f"grid letters must be A-Z, got {letters!r}")
        return raw

    def found_mask(self, letters: str) -> int:
        """Bitmask of the words found in the grid ``letters`` (row-major, A-Z): bit i = ``words[i]``."""
        raw = self._codes_bytes(letters)
        codes = np.frombuffer(raw, dtype=np.uint8)
        buf = self._table[:, self._cell_index, codes].tobytes()
        step = self._chunk_bytes
        from_bytes = int.from_bytes
        full, nl, nf, lane, row = self._full, self._not_last, self._not_first, self._lane, self._row_shift
        budget = self.budget
        ends = None if self._pad else self._ends
        found = 0
        reach = [from_bytes(buf[:step], "little")] + [full] * budget
        if ends is not None and ends[0]:
            found |= reach[budget] & ends[0]
        king, custom, spread_bits = self._king, self._custom, self._spread_bits
        for p in range(1, self._positions):
            mask = from_bytes(buf[p * step:(p + 1) * step], "little")
            if budget == 1 and king:
                x0, x1 = reach
                h = ((x0 & nl) << lane) | ((x0 & nf) >> lane)
                f = h | x0
                s0 = (h | (f << row) | (f >> row)) & full
                h = ((x1 & nl) << lane) | ((x1 & nf) >> lane)
                f = h | x1
                s1 = h | (f << row) | (f >> row)
                reach = [s0 & mask, (s1 & mask) | s0]
            else:
                if custom:
                    spreads = [spread_bits(x) for x in reach]  # type: ignore[misc]
                else:
                    spreads = []
                    for x in reach:
                        h = ((x & nl) << lane) | ((x & nf) >> lane)
                        if king:
                            f = h | x
                            spreads.append((h | (f << row) | (f >> row)) & full)
                        else:
                            spreads.append((h | (x << row) | (x >> row)) & full)
                reach = [spreads[0] & mask] + [
                    (spreads[j] & mask) | spreads[j - 1] for j in range(1, budget + 1)
                ]
            last = reach[budget]
            if ends is not None and ends[p]:
                found |= last & ends[p]
            if not last:
                break
        if ends is None:
            found = reach[budget]
        for shift in self._fold_steps:
            found |= found >> shift
        return found & self._word_bits

    def total_of_mask(self, mask: int) -> int:
        """Summed weight of the words whose bits are set in ``mask``."""
        return sum(map(list.__getitem__, self._byte_tables, mask.to_bytes(self._byte_count, "little")))

    def score_one(self, letters: str) -> int:
        """Total weight of the words found in the grid ``letters`` (row-major, A-Z)."""
        mask = self.found_mask(letters)
        return sum(map(list.__getitem__, self._byte_tables, mask.to_bytes(self._byte_count, "little")))

    def found_words(self, letters: str) -> list[str]:
        """The words found in the grid ``letters``, in word-list order."""
        mask = self.found_mask(letters)
        return [w for i, w in enumerate(self.word_list) if mask >> i & 1]

    # ------------------------------------------------------------------ batches

    def _init_levels(self) -> None:
        """Flatten the trie into levels: per depth, node letters, parents and ended words."""
        levels = []
        current: list[TrieNode] = [self._trie.root]
        while True:
            nodes, letters, parents = [], [], []
            for pos, node in enumerate(current):
                for key, child in node.items():
                    if key != END:
                        nodes.append(child)
                        letters.append(ord(key) - _A)
                        parents.append(pos)
            if not nodes:
                break
            word = np.array([self._index.get(node.get(END), -1) for node in nodes], dtype=np.int64)
            levels.append((np.array(letters, dtype=np.int64), np.array(parents, dtype=np.int64), word))
            current = nodes
        self._levels = levels

    def as_codes(self, grids: np.ndarray | Sequence[str]) -> np.ndarray:
        """Grids as an ``(N, cells)`` uint8 array of letter codes 0..25 (A=0), validated."""
        cells = self._cells
        if isinstance(grids, np.ndarray):
            codes = np.ascontiguousarray(grids, dtype=np.uint8)
            if codes.ndim != 2 or codes.shape[1] != cells:
                raise FastScoreError(f"grids array must have shape (N, {cells}), got {grids.shape}")
        else:
            grids = list(grids)
            if any(len(g) != cells for g in grids):
                raise FastScoreError(f"every grid needs {cells} letters")
            raw = "".join(grids).encode("ascii", "replace")
            if grids and not (raw.isalpha() and raw.isupper()):
                raise FastScoreError("grid letters must be A-Z")
            codes = (np.frombuffer(raw, dtype=np.uint8) - _A).reshape(len(grids), cells)
        if codes.size and codes.max() >= _ALPHABET:
            raise FastScoreError("letter codes must be 0..25")
        return codes

    def score_batch(self, grids: np.ndarray | Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
        """Score many grids at once: (totals int64 array (N,), found bool array (N, W)).

        ``grids`` is an ``(N, cells)`` array of letter codes 0..25 (A=0) or a list of
        strings. The found array is a transposed view of a word-major array (column-major).
        """
        codes = self.as_codes(grids)
        n = len(codes)
        found = np.zeros((self._n_words, n), dtype=bool)
        # small batches: breadth-first in cache-sized chunks; big ones: depth-first with
        # column compaction in big chunks (fewer numpy calls per grid), evenly split
        by_level = n <= self.small_batch
        limit = self.small_chunk if by_level else self.chunk
        pieces = max(1, -(-n // max(64, limit)))
        per_piece = -(-n // pieces)
        size = max(64, -(-per_piece // 64) * 64)
        for start in range(0, n, size):
            part = codes[start:start + size]
            bits = self._found_bits_chunk(part, by_level)  # (W, G) uint64, bit g of the chunk = grid g
            unpacked = np.unpackbits(bits.view(np.uint8), axis=1, count=len(part), bitorder="little")
            found[:, start:start + len(part)] = unpacked
        per_grid = np.packbits(found, axis=0, bitorder="little")  # (bytes, N): grid's words, 8 a byte
        totals = np.zeros(n, dtype=np.int64)
        for b, table in enumerate(self._byte_tables_np):
            totals += table[per_grid[b]]
        return totals, found.T

    @staticmethod
    def _letter_slices(codes_t: np.ndarray) -> np.ndarray:
        """Bit-slices of letters: ``(26, cells, G)`` uint64 from ``(cells, 64 G)`` codes (31 = none).

        The five bit-planes of the letter codes are packed (64 grids a word) and each
        letter is the AND of the planes or their complements, shared down a binary tree.
        """
        planes = [np.packbits(codes_t & np.uint8(1 << k), axis=-1, bitorder="little").view(np.uint64)
                  for k in range(5)]
        level = {0: None}
        for k in range(4, -1, -1):
            plane = planes[k]
            inverse = ~plane
            nxt = {}
            for prefix, acc in level.items():
                for bit, src in ((0, inverse), (1, plane)):
                    code = prefix | (bit << k)
                    if code >> k << k > _ALPHABET - 1:  # no letter starts with these bits
                        continue
                    nxt[code] = src if acc is None else acc & src
            level = nxt
        return np.stack([level[c] for c in range(_ALPHABET)])

    def _found_bits_chunk(self, codes: np.ndarray, by_level: bool) -> np.ndarray:
        board = self.board
        rows, cols = board.rows, board.cols
        n = len(codes)
        groups = -(-n // 64)
        padded_t = np.full((self._cells, groups * 64), 31, dtype=np.uint8)
        padded_t[:, :n] = codes.T
        slices = self._letter_slices(padded_t).reshape(_ALPHABET, rows, cols, groups)
        if by_level:
            return self._bits_by_level(slices)
        return self._bits_by_node(slices)

    def _gather_spread(self, x: np.ndarray) -> np.ndarray:
        """Dilation on any board of ``x`` shaped ``(..., rows, cols, G)``: OR of neighbour gathers."""
        shape = x.shape
        flat = x.reshape(*shape[:-3], self._cells, shape[-1])
        slots = self._slots
        if slots and isinstance(slots[0][0], slice):  # every cell has a first neighbour
            out = flat[..., slots[0][1], :]
            slots = slots[1:]
        else:
            out = np.zeros_like(flat)
        for dst, src in slots:
            out[..., dst, :] |= flat[..., src, :]
        return out.reshape(shape)

    def _bits_by_node(self, slices: np.ndarray) -> np.ndarray:
        """Depth-first over the trie, compacting to the live 64-grid columns: big chunks."""
        _, rows, cols, groups = slices.shape
        found = np.zeros((self._n_words, groups), dtype=np.uint64)
        budget = self.budget
        cells = self._cells
        king, custom = self.board.moves == "king", self._custom
        ones = np.full((rows, cols, groups), np.uint64(0xFFFFFFFFFFFFFFFF))

        def spread_rectangle(x: np.ndarray) -> np.ndarray:
            h = np.empty_like(x)
            if cols > 1:
                h[:, 0] = 0
                h[:, 1:] = x[:, :-1]
                h[:, :-1] |= x[:, 1:]
            else:
                h[...] = 0
            if rows > 1:
                f = h | x if king else x
                h[1:] |= f[:-1]
                h[:-1] |= f[1:]
            return h

        spread = self._gather_spread if custom else spread_rectangle
        index = self._index

        def visit(node: TrieNode, reach: list[np.ndarray], idx: np.ndarray | None) -> None:
            alive = np.bitwise_or.reduce(reach[budget].reshape(cells, -1), axis=0)
            word = node.get(END)
            if word is not None:
                if idx is None:
                    found[index[word]] = alive
                else:
                    found[index[word], idx] = alive
            if len(node) == (word is not None):  # a leaf: no letter follows
                return
            live = np.flatnonzero(alive)
            if len(live) == 0:
                return
            if 2 * len(live) <= alive.shape[0]:
                reach = [r[:, :, live] for r in reach]
                idx = live if idx is None else idx[live]
            spreads = [spread(r) for r in reach]
            for key, child in node.items():
                if key == END:
                    continue
                letter = ord(key) - _A
                mask = slices[letter] if idx is None else slices[letter][:, :, idx]
                new = [spreads[0] & mask]
                for j in range(1, budget + 1):
                    new.append((spreads[j] & mask) | spreads[j - 1])
                visit(child, new, idx)

        for key, child in self._trie.root.items():
            visit(child, [slices[ord(key) - _A]] + [ones] * budget, None)
        return found

    def _bits_by_level(self, slices: np.ndarray) -> np.ndarray:
        """Breadth-first over the trie, all live nodes of a depth in one array: small chunks."""
        _, rows, cols, groups = slices.shape
        found = np.zeros((self._n_words, groups), dtype=np.uint64)
        budget = self.budget
        cells = self._cells
        king = self.board.moves == "king"
        x = None  # (alive nodes, budget + 1, rows, cols, groups): reach per node and budget
        alive_rows = None  # for the previous level: row in x of each node, -1 when dead
        for depth, (letters, parents, ends) in enumerate(self._levels):
            if depth == 0:
                ids = np.arange(len(letters))
                y = np.empty((len(ids), budget + 1, rows, cols, groups), dtype=np.uint64)
                y[:, 0] = slices[letters]
                y[:, 1:] = np.uint64(0xFFFFFFFFFFFFFFFF)
            else:
                ids = np.flatnonzero(alive_rows[parents] >= 0)
                if len(ids) == 0:
                    break
                if self._custom:
                    spread = self._gather_spread(x)
                else:  # dilation of every reach set by shifts, shared by the children
                    spread = np.empty_like(x)
                    if cols > 1:
                        spread[:, :, :, 0] = 0
                        spread[:, :, :, 1:] = x[:, :, :, :-1]
                        spread[:, :, :, :-1] |= x[:, :, :, 1:]
                    else:
                        spread[...] = 0
                    if rows > 1:
                        f = spread | x if king else x
                        spread[:, :, 1:] |= f[:, :, :-1]
                        spread[:, :, :-1] |= f[:, :, 1:]
                gathered = spread[alive_rows[parents[ids]]]
                y = gathered & slices[letters[ids]][:, None]
                if budget:
                    y[:, 1:] |= gathered[:, :-1]
            reduced = np.bitwise_or.reduce(y[:, budget].reshape(len(ids), cells, groups), axis=1)
            words_here = ends[ids]
            has_word = words_here >= 0
            if has_word.any():
                found[words_here[has_word]] = reduced[has_word]
            alive = reduced.any(axis=1)
            x = y[alive]
            alive_rows = np.full(len(letters), -1, dtype=np.int64)
            alive_rows[ids[alive]] = np.arange(len(x))
            if len(x) == 0:
                break
        return found
