"""Compiled local search: incremental (delta) scoring of letter changes, and an annealer.

The batch scorer (:mod:`exactgrid.fastscore`) rescores whole grids; a search move changes one
or two cells, and almost every word's verdict survives it. This kernel keeps, per search
chain, which words are found and, for each found word, the *support* of one witness walk: the
cells it reads with their own letter (an altered cell reads any letter, so its letter does
not matter). Changing cell ``c`` from letter ``a`` to ``b`` then rechecks only

* found words whose support holds ``c`` (only they can be lost: their witness read ``a`` there);
* unfound words containing ``b`` (only they can be gained: a new walk must read ``b`` at ``c``).

Before a recheck, a letter-pair test (:func:`_pairs_allow`: every pair of consecutive letters
held by adjacent cells, but for pairs next to an altered position) settles most of these words
at the cost of a few mask operations: most candidate gains fail it, and so do most real losses.
A candidate gain first passes an O(1) letter test (:func:`_letters_allow`: letters absent from
the grid must fit in the budget). A proposal sets its cells first, then settles the losses the
pair test can, draws the Metropolis threshold, collects the gain candidates heaviest first, and
stops as soon as even the best case (pending losses kept, every candidate and every untested
word gained) cannot reach it (:func:`_propose`); the full programme runs only after that. The
order of the tests never changes the chain: only how soon a rejection is known.

Speed notes, measured (docs/benchmarks.md): array indices in the hot loops are unsigned
(:func:`_u`), which spares numba's test for a negative index; the per-proposal functions are
inlined into the annealing loop, each at one call site, since a call passes every array of its
tuples on the stack.

A recheck runs the finder's dynamic programme (``reach[j]``: cells where a walk spelling the
prefix can end with at most ``j`` alterations) on 64-bit cell masks, and backtracks one
witness to get the new support. Dilation ("cells one move away") is a table lookup per 8
cells, so any adjacency with up to 64 cells works. Compiled with numba (``nogil``: worker
threads anneal in parallel); ``tests/test_solve_kernel.py`` checks every score against the
finder.

Constraints (required and forbidden words, a minimum count or score, chains of words linked
by an adjacency, such as coast-to-coast) are kept incrementally as counts; the annealer
maximises ``score - penalty * violations - shortfall`` and remembers the best grid with no
violation separately. Nothing here is trusted: :mod:`exactgrid.solving.search` re-scores every
grid it reports with the finder and the checklist.

The graded search (:func:`anneal_graded` with a cap K > 0) makes a missing required word cost
as many violations as the alterations it needs beyond the budget, at most K
(:func:`walk_distance`: the same programme with budget ``budget + K - 1``), rather than one.
A proposal grades the missing required words holding the letter it takes away or sets before
any bound is tested (so ``counters[EXTRA]`` is exact for them and counts 0 for the words the
proposal may lose: the bound stays an upper bound), and the required words it lost once it is
scored in full. With K = 0 nothing is graded and the chain is the default one.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..inputs import InputError
from ..stopping import uncut_import

try:
    njit = uncut_import("numba").njit
except ImportError as exc:  # the `solve` extra is not installed: the module still imports
    NUMBA_MISSING: str | None = str(exc)

    def njit(*_args: Any, **_kwargs: Any) -> Any:
        """numba is missing: leave the function as Python (never run: :func:`require_numba` refuses)."""
        return lambda function: function
else:
    NUMBA_MISSING = None

SOLVE_EXTRA_HINT = "pip install 'exactgrid[solve]'"


class KernelUnavailable(InputError):
    """numba is not installed: the search kernel (``solve``, ``fit --local-search``) needs the
    ``solve`` extra."""


def require_numba() -> None:
    """Raise one clear :class:`KernelUnavailable` (with the install command) when numba is missing."""
    if NUMBA_MISSING is not None:
        raise KernelUnavailable(f"solve and local search need numba, which compiles their kernel: {SOLVE_EXTRA_HINT} "
                                f"(importing it failed: {NUMBA_MISSING})")

# Indices into the per-chain counters array (int64, shape (chains, N_COUNTERS)). EXTRA (graded
# search only, else 0): the violations missing required words count beyond one each.
SCORE, FOUND, MISSING, PRESENT, CHAIN_GAP, STEP, EXTRA = range(7)
N_COUNTERS = 7

# Word flags.
REQUIRED, FORBIDDEN = 1, 2

# A found word's state: which of its two witnesses could alter one more cell (-1: not found).
SPARE1, SPARE2 = 1, 2


KING, ROOK = -1, -2
"""``chunks`` values for rectangles with king or rook moves: the dilation shifts rows and
columns, with ``table[0, :3]`` = (columns, cells not in the first column, not in the last)."""


@njit(cache=True, nogil=True, inline="always")
def _u(index):
    """``index`` (never negative) as an unsigned integer: numba then indexes an array without
    its wraparound code for a negative index (counting from the end) in the hot loops."""
    return np.uint64(index)


@njit(cache=True, nogil=True, inline="always")
def _dilate(mask, table, chunks, full):
    """Cells one move from the cells of ``mask``: by shifts on a rectangle (``chunks`` KING or
    ROOK), else by ``table[k, byte]``, the neighbours of the cells of byte ``k`` of the mask."""
    if chunks < 0:
        cols = table[0, 0]
        h = ((mask & table[0, 2]) << 1) | ((mask & table[0, 1]) >> 1)
        f = h | mask if chunks == KING else mask
        return (h | (f << cols) | (f >> cols)) & full
    out = np.int64(0)
    for k in range(chunks):
        out |= table[_u(k), _u((mask >> (8 * k)) & 255)]
    return out


@njit(cache=True, nogil=True, inline="always")
def _spell(s, n, letters, lmask, table, chunks, full, budget, reach):
    """The finder's programme for the word at ``letters[s:s + n]``: ``reach[i, j]``, the cells
    where a walk spelling its first i + 1 letters with at most j alterations can end; False as
    soon as no walk spells a prefix within ``budget`` (the layers past it are then unset)."""
    reach[0, 0] = lmask[_u(letters[_u(s)])]
    for j in range(1, budget + 1):
        reach[0, _u(j)] = full
    for i in range(1, n):
        m = lmask[_u(letters[_u(s + i)])]
        alive = np.int64(0)
        before = np.int64(0)
        for j in range(budget + 1):
            spread = _dilate(reach[_u(i - 1), _u(j)], table, chunks, full)
            v = spread & m
            if j > 0:
                v |= before
            reach[_u(i), _u(j)] = v
            before = spread
            alive |= v
        if alive == 0:
            return False
    return True


# ``_nrt=False`` (no reference counting) on the hot functions: they allocate nothing, and numba's
# increfs and decrefs took a quarter of the time. The option is numba's own (numba.core.options),
# in every numba the `solve` extra allows; tests/test_pins.py checks that it is still there.
@njit(cache=True, nogil=True, _nrt=False)
def check_word(w, starts, lengths, letters, lmask, table, chunks, full, budget, reach):
    """Whether word ``w`` is spelled in the grid whose letter masks are ``lmask``; the support
    (cells read with their own letter) of one witness walk with the fewest alterations; and
    how many alterations it uses (the budget when it reads a cell twice: then changing that
    cell costs two). ``reach`` is scratch, shape (longest word, budget + 1)."""
    s = starts[_u(w)]
    n = lengths[_u(w)]
    if not _spell(s, n, letters, lmask, table, chunks, full, budget, reach):
        return False, np.int64(0), np.int64(0), 0
    first, used = _witness(s, n, budget, letters, lmask, table, chunks, full, reach, np.int64(0))
    if used < 0:
        return False, np.int64(0), np.int64(0), 0
    # a second witness, avoiding the first one's cells where it can: a cell read exactly by
    # both is the only kind whose change can lose the word
    second, used2 = _witness(s, n, budget, letters, lmask, table, chunks, full, reach, first)
    spare = (SPARE1 if used < budget else 0) | (SPARE2 if used2 < budget else 0)
    return True, first, second, spare


@njit(cache=True, nogil=True, _nrt=False)
def _witness(s, n, budget, letters, lmask, table, chunks, full, reach, avoid):
    """Backtrack one witness walk from the reach layers (fewest alterations; cells outside
    ``avoid`` preferred): its support, and the alterations it cannot spare (-1: no walk)."""
    j = 0
    while j <= budget and reach[_u(n - 1), _u(j)] == 0:
        j += 1
    if j > budget:
        return np.int64(0), -1
    used = 0
    e = _pick(reach[_u(n - 1), _u(j)], avoid)
    support = np.int64(0)
    for i in range(n - 1, 0, -1):
        near = _dilate(e, table, chunks, full)
        if (e & lmask[_u(letters[_u(s + i)])]) != 0:
            p = near & reach[_u(i - 1), _u(j)]
            if p != 0:
                if support & e:
                    used = budget  # a cell read twice: changing it costs two alterations
                support |= e
                e = _pick(p, avoid)
                continue
        j -= 1  # an alteration here (the programme guarantees a predecessor)
        used += 1
        e = _pick(near & reach[_u(i - 1), _u(j)], avoid)
    if (e & lmask[_u(letters[_u(s)])]) != 0:
        if support & e:
            used = budget
        support |= e
    else:
        used += 1
    return support, min(used, budget)


@njit(cache=True, nogil=True, inline="always")
def _pick(cells, avoid):
    """One cell of ``cells`` (as a one-bit mask), outside ``avoid`` if possible."""
    better = cells & ~avoid
    if better != 0:
        return better & -better
    return cells & -cells


@njit(cache=True, nogil=True, _nrt=False)
def walk_distance(w, starts, lengths, letters, lmask, table, chunks, full, limit, reach):
    """The fewest alterations with which a walk spells word ``w`` (the minimum Hamming distance
    between the word and the letters of any walk), or ``limit + 1`` when it needs more than
    ``limit``: the programme of :func:`check_word` with budget ``limit``. ``reach`` is scratch,
    shape (longest word, ``limit + 1`` or more)."""
    s = starts[_u(w)]
    n = lengths[_u(w)]
    if not _spell(s, n, letters, lmask, table, chunks, full, limit, reach):
        return limit + 1
    for j in range(limit + 1):
        if reach[_u(n - 1), _u(j)] != 0:
            return j
    return limit + 1


@njit(cache=True, nogil=True, inline="always")
def _grade(w, lmask, prob, cap, reach):
    """The violations a required word ``w`` counts under the graded search (``cap`` > 0): 0 when
    spelled, else the alterations it needs beyond the budget, at most ``cap``."""
    budget = prob[10]
    d = walk_distance(w, prob[0], prob[1], prob[2], lmask, prob[7], prob[8], prob[9], budget + cap - 1, reach)
    return d - budget if d > budget else 0


@njit(cache=True, nogil=True, inline="always")
def _beyond_one(grade):
    """What a grade adds to the counter EXTRA: the violations beyond the one MISSING counts."""
    return grade - 1 if grade > 1 else 0


@njit(cache=True, nogil=True, _nrt=False)
def _regrade(w, lmask, ctr, grading, prob, reach, n_log):
    """Grade required word ``w`` afresh, logging its old grade; the new log length."""
    grades, cap, log_w, log_grade = grading[0], grading[1], grading[3], grading[4]
    g = _grade(w, lmask, prob, cap, reach)
    if g != grades[w]:
        log_w[n_log] = w
        log_grade[n_log] = grades[w]
        n_log += 1
        ctr[EXTRA] += _beyond_one(g) - _beyond_one(grades[w])
        grades[w] = g
    return n_log


@njit(cache=True, nogil=True, _nrt=False)
def _regrade_missing(letter_bits, state, grading, prob, reach):
    """Graded search: grade afresh every required word missing before a proposal that holds a
    letter of ``letter_bits`` (the letters the proposal took away or set; no other missing word's
    distance can change). Run before the losses, so that ``counters[EXTRA]`` is exact for the
    words missing before and counts 0 for the words the proposal loses: a lower bound, which
    keeps :func:`_value_bound` an upper bound. Returns the grade log's length."""
    lmask, found, ctr = state[1], state[2], state[4]
    required, word_letters = grading[2], prob[11]
    n_log = 0
    for k in range(required.shape[0]):
        w = required[k]
        if found[w] < 0 and (word_letters[w] & letter_bits) != 0:
            n_log = _regrade(w, lmask, ctr, grading, prob, reach, n_log)
    return n_log


@njit(cache=True, nogil=True, _nrt=False)
def _regrade_lost(state, grading, prob, reach, n_log):
    """Graded search, once a proposal is scored in full: grade the required words it lost (missing
    now, graded 0 as found); ``counters[EXTRA]`` is then exact. Returns the grade log's length."""
    lmask, found, ctr = state[1], state[2], state[4]
    grades, required = grading[0], grading[2]
    for k in range(required.shape[0]):
        w = required[k]
        if found[w] < 0 and grades[w] == 0:
            n_log = _regrade(w, lmask, ctr, grading, prob, reach, n_log)
    return n_log


@njit(cache=True, nogil=True, inline="always")
def _uniform(rng):
    """A float in [0, 1) from the chain's xorshift64* stream ``rng[0]`` (advanced): cheaper
    than numpy's generator, whose thread-local state costs a lookup per draw."""
    x = rng[0]
    x ^= x >> np.uint64(12)
    x ^= x << np.uint64(25)
    x ^= x >> np.uint64(27)
    rng[0] = x
    return np.float64((x * np.uint64(0x2545F4914F6CDD1D)) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@njit(cache=True, nogil=True, inline="always")
def _below(n, rng):
    """An integer in [0, n) from the chain's stream (:func:`_uniform`)."""
    return min(int(_uniform(rng) * n), n - 1)


@njit(cache=True, nogil=True, inline="always")
def _copy(source, target):
    """``target[:] = source`` without a slice (a slice needs numba's runtime, off in the hot loop)."""
    for i in range(source.shape[0]):
        target[i] = source[i]


@njit(cache=True, nogil=True, inline="always")
def _neighbours(cells, adjacency, n_words):
    out = np.int64(0)
    for w in range(n_words):
        if (cells >> w) & 1:
            out |= adjacency[w]
    return out


@njit(cache=True, nogil=True, _nrt=False)
def _chain_gap(found_bits, sources, targets, adjacency, n_words):
    """How many more words a chain needs: the fewest unfound words on a path from a source to
    a target, each word adjacent to the next (0: the chain is there). Masks over word indices
    (word lists of <= 64 words); ``n_words + 1`` when no path exists at all."""
    reached = np.int64(0)
    frontier = found_bits & sources
    for gap in range(n_words + 1):
        # close over found words: cost nothing
        while frontier != 0:
            reached |= frontier
            frontier = _neighbours(frontier, adjacency, n_words) & found_bits & ~reached
        if (reached & targets) != 0:
            return gap
        # one more unfound word: a neighbour of the reached set, or an unfound source
        frontier = (_neighbours(reached, adjacency, n_words) | sources) & ~reached
        if frontier == 0:
            break
    return n_words + 1


@njit(cache=True, nogil=True, _nrt=False)
def _chain_gaps(found_bits, chain_sources, chain_targets, chain_adjacency, n_words):
    """The summed gaps of every chain constraint (:func:`_chain_gap`)."""
    total = 0
    for k in range(chain_sources.shape[0]):
        total += _chain_gap(found_bits, chain_sources[k], chain_targets[k], chain_adjacency[k], n_words)
    return total


@njit(cache=True, nogil=True)
def rescore(grid, lmask, found, support, counters, starts, lengths, letters, weights, flags,
            table, chunks, full, budget, reach, chain_sources, chain_targets, chain_adjacency, grades, cap):
    """Score one chain's grid from scratch: letter masks, found words, supports, counters; with
    ``cap`` > 0 (the graded search) also each missing required word's grade (:func:`_grade`) in
    ``grades`` and their sum beyond one each in ``counters[EXTRA]``. ``reach`` is scratch, shape
    (longest word, ``budget + max(cap, 1)``)."""
    for a in range(26):
        lmask[a] = 0
    for c in range(grid.shape[0]):
        lmask[grid[c]] |= np.int64(1) << c
    score = np.int64(0)
    count = 0
    missing = 0
    present = 0
    bits = np.int64(0)
    for w in range(weights.shape[0]):
        ok, s1, s2, spare = check_word(w, starts, lengths, letters, lmask, table, chunks, full, budget, reach)
        found[w] = spare if ok else -1
        support[w, 0] = s1
        support[w, 1] = s2
        if ok:
            score += weights[w]
            count += 1
            if w < 64:
                bits |= np.int64(1) << w
            if flags[w] & FORBIDDEN:
                present += 1
        elif flags[w] & REQUIRED:
            missing += 1
    extra = 0
    for w in range(weights.shape[0]):
        grades[w] = 0
        if cap > 0 and found[w] < 0 and flags[w] & REQUIRED:
            d = walk_distance(w, starts, lengths, letters, lmask, table, chunks, full, budget + cap - 1, reach)
            grades[w] = d - budget if d > budget else 0
            extra += _beyond_one(grades[w])
    counters[EXTRA] = extra
    counters[SCORE] = score
    counters[FOUND] = count
    counters[MISSING] = missing
    counters[PRESENT] = present
    counters[CHAIN_GAP] = _chain_gaps(bits, chain_sources, chain_targets, chain_adjacency, weights.shape[0])


@njit(cache=True, nogil=True, inline="always")
def _set(cell, letter, state, prob):
    """Set ``cell`` to ``letter`` in a chain's grid, its letter masks, their spreads and the
    mask of letters present."""
    grid, lmask, spread, present = state[0], state[1], state[6], state[7]
    table, chunks, full = prob[7], prob[8], prob[9]
    bit = np.int64(1) << cell
    old = grid[cell]
    lmask[old] &= ~bit
    lmask[letter] |= bit
    grid[cell] = letter
    spread[old] = _dilate(lmask[old], table, chunks, full)
    spread[letter] = _dilate(lmask[letter], table, chunks, full)
    if lmask[old] == 0:
        present[0] &= ~(np.int64(1) << old)
    present[0] |= np.int64(1) << letter


@njit(cache=True, nogil=True, _nrt=False)
def _fill_spread(lmask, spread, present, table, chunks, full):
    """``spread[x]``: the cells one move from a cell holding letter ``x``; ``present[0]``: the
    letters on the grid, as a mask."""
    letters_present = np.int64(0)
    for x in range(26):
        spread[x] = _dilate(lmask[x], table, chunks, full)
        if lmask[x] != 0:
            letters_present |= np.int64(1) << x
    present[0] = letters_present


@njit(cache=True, nogil=True)
def _letter_masks(starts, lengths, letters):
    """Per word, the mask of its letters and the mask of the letters it holds twice or more."""
    n_words = lengths.shape[0]
    once = np.zeros(n_words, dtype=np.int64)
    repeated = np.zeros(n_words, dtype=np.int64)
    for w in range(n_words):
        for i in range(starts[w], starts[w] + lengths[w]):
            bit = np.int64(1) << letters[i]
            repeated[w] |= once[w] & bit
            once[w] |= bit
    return once, repeated


@njit(cache=True, nogil=True, inline="always")
def _popcount(x):
    """The number of set bits of ``x`` (a non-negative mask)."""
    count = 0
    while x != 0:
        x &= x - 1
        count += 1
    return count


@njit(cache=True, nogil=True, inline="always")
def _letters_allow(w, present, word_letters, word_repeated, budget):
    """A necessary condition for word ``w`` to be spelled, cheaper still than
    :func:`_pairs_allow`: every position holding a letter absent from the grid is altered, and a
    letter the word holds twice costs two alterations."""
    absent = word_letters[_u(w)] & ~present
    if absent == 0:
        return True
    return _popcount(absent) + _popcount(absent & word_repeated[_u(w)]) <= budget


@njit(cache=True, nogil=True, inline="always")
def _pairs_allow(w, starts, lengths, letters, lmask, spread, budget):
    """A necessary condition for word ``w`` to be spelled, far cheaper than :func:`check_word`:
    each pair of consecutive letters ``xy`` is read by an x cell next to a y cell, but for pairs
    touching an altered position. The fewest positions touching every failing pair (a greedy
    cover, exact on a line) must fit in the budget."""
    s = starts[_u(w)]
    used = 0
    altered = -1
    for i in range(lengths[_u(w)] - 1):
        if (spread[_u(letters[_u(s + i)])] & lmask[_u(letters[_u(s + i + 1)])]) == 0 and altered != i:
            altered = i + 1
            used += 1
            if used > budget:
                return False
    return True


@njit(cache=True, nogil=True, _nrt=False)
def _may_gain(w, b, near, starts, lengths, letters, lmask, budget):
    """Whether setting the cell ``bit`` to letter ``b`` may complete word ``w``: a new walk reads
    the cell as ``b`` at some position, and its neighbours in the walk (other cells among
    ``near``, the cell's neighbours) read their own letters but for at most ``budget``."""
    s = starts[_u(w)]
    n = lengths[_u(w)]
    for i in range(n):
        if letters[_u(s + i)] != b:
            continue
        misses = 0
        if i > 0 and (near & lmask[_u(letters[_u(s + i - 1)])]) == 0:
            misses += 1
        if i < n - 1 and (near & lmask[_u(letters[_u(s + i + 1)])]) == 0:
            misses += 1
        if misses <= budget:
            return True
    return False


@njit(cache=True, nogil=True, inline="always")
def _log(w, found, support, undo, n_undo):
    """Log word ``w``'s state in the undo log (``undo_w, undo_found, undo_support``); the new length."""
    undo_w, undo_found, undo_support = undo
    undo_w[n_undo] = w
    undo_found[n_undo] = found[w]
    undo_support[n_undo, 0] = support[w, 0]
    undo_support[n_undo, 1] = support[w, 1]
    return n_undo + 1


@njit(cache=True, nogil=True, inline="always")
def _spare_survives(w, bit, found, support):
    """Whether found word ``w`` stays found without a recheck after a change at cell ``bit``,
    which a witness read exactly: it does if that witness can alter the cell instead (a spare
    alteration); if only one witness survives, the other becomes a copy of it. ``found`` and
    ``support`` are updated when it survives."""
    spare = found[w]
    alive1 = True
    if support[w, 0] & bit:
        alive1 = (spare & SPARE1) != 0
        support[w, 0] &= ~bit
        spare &= ~SPARE1
    alive2 = True
    if support[w, 1] & bit:
        alive2 = (spare & SPARE2) != 0
        support[w, 1] &= ~bit
        spare &= ~SPARE2
    if not (alive1 or alive2):
        return False
    if not alive1:
        support[w, 0] = support[w, 1]
        spare = spare | SPARE1 if spare & SPARE2 else spare & ~SPARE1
    elif not alive2:
        support[w, 1] = support[w, 0]
        spare = spare | SPARE2 if spare & SPARE1 else spare & ~SPARE2
    found[w] = spare
    return True


@njit(cache=True, nogil=True, inline="always")
def _count_flip(ok, w, counters, weights, flags):
    """Update the counters for word ``w`` gained (``ok``) or lost."""
    sign = 1 if ok else -1
    counters[SCORE] += sign * weights[w]
    counters[FOUND] += sign
    if flags[w] & REQUIRED:
        counters[MISSING] -= sign
    if flags[w] & FORBIDDEN:
        counters[PRESENT] += sign


@njit(cache=True, nogil=True, inline="always")
def _losses(letter, bit, state, epoch, undo, n_undo, pending, n_pending, prob):
    """The found words that a change of cell ``bit`` from ``letter`` can lose (their support
    holds the cell): each is kept by a spare alteration, lost by the pair test
    (:func:`_pairs_allow`), or left in ``pending`` for a full recheck (:func:`_recheck_pending`).

    ``state`` is a chain's ``(grid, lmask, found, support, counters, stamp, spread, present)``,
    ``prob`` the problem's ``(starts, lengths, letters, weights, flags, word_index, word_ptr,
    table, chunks, full, budget, word_letters, word_repeated)``. Returns the undo-log length,
    whether a word was lost, and the number of pending words."""
    lmask, found, support, counters, stamp, spread = state[1], state[2], state[3], state[4], state[5], state[6]
    starts, lengths, letters, weights, flags, word_index, word_ptr = prob[:7]
    budget = prob[10]
    changed = False
    for q in range(word_ptr[letter], word_ptr[letter + 1]):
        w = word_index[_u(q)]
        if ((support[_u(w), 0] | support[_u(w), 1]) & bit) == 0 or found[_u(w)] < 0 or stamp[_u(w)] == epoch:
            continue
        stamp[w] = epoch
        n_undo = _log(w, found, support, undo, n_undo)
        if _spare_survives(w, bit, found, support):
            stamp[w] = epoch - 1  # not rechecked: a swap's other cell must still be looked at
            continue
        if _pairs_allow(w, starts, lengths, letters, lmask, spread, budget):
            pending[n_pending] = w
            n_pending += 1
            continue
        changed = True
        _count_flip(False, w, counters, weights, flags)
        found[w] = -1
        support[w, 0] = 0
        support[w, 1] = 0
    return n_undo, changed, n_pending


@njit(cache=True, nogil=True, _nrt=False)
def _recheck_pending(pending, n_pending, state, prob, reach):
    """Recheck the words :func:`_losses` left pending (found before the change, already
    logged); whether one was lost."""
    lmask, found, support, counters = state[1], state[2], state[3], state[4]
    starts, lengths, letters, weights, flags, _, _, table, chunks, full, budget = prob[:11]
    changed = False
    for k in range(n_pending):
        w = pending[k]
        ok, s1, s2, spare = check_word(w, starts, lengths, letters, lmask, table, chunks, full, budget, reach)
        if not ok:
            changed = True
            _count_flip(False, w, counters, weights, flags)
        found[w] = spare if ok else -1
        support[w, 0] = s1
        support[w, 1] = s2
    return changed


@njit(cache=True, nogil=True)
def _by_weight(word_index, word_ptr, weights, flags):
    """Each letter's words (``word_index[word_ptr[x]:word_ptr[x + 1]]``) heaviest first, and per
    entry ``rest[q]``: the weight, count and required count of the words that are not forbidden
    from entry ``q`` to its letter's last (the most those words can add to the score)."""
    order = np.empty_like(word_index)
    rest = np.zeros((word_index.shape[0], 3), dtype=np.int64)
    for x in range(26):
        lo, hi = word_ptr[x], word_ptr[x + 1]
        words = word_index[lo:hi]
        ranked = words[np.argsort(-weights[words], kind="mergesort")]
        score = count = required = 0
        for q in range(hi - 1, lo - 1, -1):
            w = ranked[q - lo]
            order[q] = w
            if not flags[w] & FORBIDDEN:
                score += weights[w]
                count += 1
                required += 1 if flags[w] & REQUIRED else 0
            rest[q, 0] = score
            rest[q, 1] = count
            rest[q, 2] = required
    return order, rest


@njit(cache=True, nogil=True, inline="always")
def _value_bound(counters, freed, gain_score, gain_count, gain_required, goal):
    """The penalised value once words worth ``gain_score`` (``gain_count`` words,
    ``gain_required`` of them required) are gained and ``freed`` forbidden words lost, from the
    counters as they stand, every chain holding: an upper bound when those words hold every word
    that can be gained (in the graded search ``counters[EXTRA]`` never exceeds its value once the
    proposal is scored: :func:`_regrade_missing`)."""
    score = counters[SCORE] + gain_score
    count = counters[FOUND] + gain_count
    violations = counters[MISSING] - gain_required + counters[PRESENT] - freed + counters[EXTRA]
    if count < goal[1]:
        violations += goal[1] - count
    short = goal[2] - score if score < goal[2] else 0
    return _penalised(score, violations, short, goal[3])


@njit(cache=True, nogil=True, inline="always")
def _gain_candidates(letter, bit, state, epoch, prob, lists, n_candidates, other, threshold, freed, goal):
    """Append to ``lists[0]`` the unfound words holding ``letter`` that setting the cell ``bit``
    to it may complete (:func:`_letters_allow`, then :func:`_pairs_allow`, the more selective,
    then :func:`_may_gain`), each stamped so that a swap's other cell does not add it again, and
    add their worth to ``lists[3]`` (:func:`_value_bound`'s ``gain``).

    The words are taken heaviest first (``lists[1]``), so that what the rest can still add
    (``lists[2]``, and the whole of the swap's ``other`` letter if ``other >= 0``) soon cannot
    reach the ``threshold``: the proposal is then rejected without testing the lighter words.
    Returns the new number of candidates and whether the proposal is rejected."""
    lmask, found, stamp, spread, present, ctr = state[1], state[2], state[5], state[6], state[7][0], state[4]
    starts, lengths, letters, word_ptr = prob[0], prob[1], prob[2], prob[6]
    table, chunks, full, budget, word_letters, word_repeated = prob[7], prob[8], prob[9], prob[10], prob[11], prob[12]
    candidates, order, rest, gain = lists
    weights, flags = prob[3], prob[4]
    near = _dilate(bit, table, chunks, full)
    other_score, other_count, other_required = 0, 0, 0
    if other >= 0:
        other_score, other_count, other_required = rest[other, 0], rest[other, 1], rest[other, 2]
    for q in range(word_ptr[letter], word_ptr[letter + 1]):
        w = order[_u(q)]
        if (stamp[_u(w)] == epoch or found[_u(w)] >= 0
                or not _letters_allow(w, present, word_letters, word_repeated, budget)):
            continue
        if _value_bound(ctr, freed, gain[0] + rest[_u(q), 0] + other_score, gain[1] + rest[_u(q), 1] + other_count,
                        gain[2] + rest[_u(q), 2] + other_required, goal) < threshold:
            return n_candidates, True
        if (not _pairs_allow(w, starts, lengths, letters, lmask, spread, budget)
                or not _may_gain(w, letter, near, starts, lengths, letters, lmask, budget)):
            continue
        stamp[w] = epoch
        candidates[n_candidates] = w
        n_candidates += 1
        if not flags[w] & FORBIDDEN:
            gain[0] += weights[w]
            gain[1] += 1
            gain[2] += 1 if flags[w] & REQUIRED else 0
    return n_candidates, False


@njit(cache=True, nogil=True, _nrt=False)
def _gains(candidates, n_candidates, state, undo, n_undo, prob, reach):
    """Recheck the gain candidates (:func:`_gain_candidates`) with the full programme. Returns the
    undo-log length and whether a word was gained."""
    lmask, found, support, counters = state[1], state[2], state[3], state[4]
    starts, lengths, letters, weights, flags, _, _, table, chunks, full, budget = prob[:11]
    changed = False
    for k in range(n_candidates):
        w = candidates[k]
        ok, s1, s2, spare = check_word(w, starts, lengths, letters, lmask, table, chunks, full, budget, reach)
        if not ok:
            continue  # stays unfound: nothing changes
        n_undo = _log(w, found, support, undo, n_undo)
        changed = True
        _count_flip(True, w, counters, weights, flags)
        found[w] = spare
        support[w, 0] = s1
        support[w, 1] = s2
    return n_undo, changed


@njit(cache=True, nogil=True, inline="always")
def _undo(n_undo, undo, found, support):
    """Restore the words logged since the proposal began, newest first."""
    undo_w, undo_found, undo_support = undo
    for u in range(n_undo - 1, -1, -1):
        w = undo_w[u]
        found[w] = undo_found[u]
        support[w, 0] = undo_support[u, 0]
        support[w, 1] = undo_support[u, 1]


@njit(cache=True, nogil=True, inline="always")
def _undo_grades(n_graded, grading):
    """Restore the grades logged since the proposal began, newest first."""
    grades, log_w, log_grade = grading[0], grading[3], grading[4]
    for u in range(n_graded - 1, -1, -1):
        grades[log_w[u]] = log_grade[u]


@njit(cache=True, nogil=True, _nrt=False)
def _found_bits(found):
    bits = np.int64(0)
    for w in range(min(64, found.shape[0])):
        if found[w] >= 0:
            bits |= np.int64(1) << w
    return bits


@njit(cache=True, nogil=True)
def objective(counters, n_chains, min_count, min_score, penalty):
    """The penalised value of a chain's grid, and whether it meets every constraint."""
    violations = counters[MISSING] + counters[EXTRA] + counters[PRESENT] + counters[CHAIN_GAP]
    if counters[FOUND] < min_count:
        violations += min_count - counters[FOUND]
    short = min_score - counters[SCORE] if counters[SCORE] < min_score else 0
    return _penalised(counters[SCORE], violations, short, penalty), violations == 0 and short == 0


PENALTY_CAP = 2**62
"""The most the violations of a grid may cost (:func:`_penalised`): with the score and the
shortfall each at most 2**62 (the weights' limit), the penalised value fits in an int64."""


@njit(cache=True, nogil=True, inline="always")
def _penalised(score, violations, short, penalty):
    """``score - penalty * violations - short``, the product saturated at :data:`PENALTY_CAP`:
    with weights near their limit it would overflow int64 and rank the grids with the most
    violations first. Below the cap the value is exact; above it, such grids tie but for score."""
    if violations > 0 and penalty > PENALTY_CAP // violations:
        return score - PENALTY_CAP - short
    return score - penalty * violations - short


@njit(cache=True, nogil=True)
def seed_threads(seed):
    """Seed the calling thread's random stream (numba keeps one per thread)."""
    np.random.seed(seed)


def anneal(grids, lmasks, founds, supports, counters, stamps, best_grid, best_value, feasible_grid,
           feasible_value, steps, sweep, t_hot, t_cold, swap_share, kick, letter_cdf, fixed_cell,
           starts, lengths, letters, weights, flags, word_index, word_ptr, table, chunks, full,
           budget, chain_sources, chain_targets, chain_adjacency, min_count, min_score, penalty):
    """Run ``steps`` Metropolis proposals on every chain; returns proposals scored.

    Each chain cools geometrically from ``t_hot`` to ``t_cold`` over ``sweep`` proposals, then
    restarts from the best grid seen (``best_grid``, by penalised value) with ``kick`` random
    letters. Proposals: a new letter for one free cell (drawn from its row of ``letter_cdf``,
    cells x letters: a letter outside the cell's domain has no weight), or, with probability
    ``swap_share``, the swap of two free cells whose domains allow it. ``best_*`` and
    ``feasible_*`` (``*_value[0]``) are updated in place; ``feasible_value[0] < 0`` means none
    yet.
    A missing required word costs one violation (:func:`anneal_graded` grades it).

    A plain function, not a compiled one: it hands :func:`anneal_graded` its numbers as the
    types the search uses (whole numbers as int64, temperatures and shares as float64), so
    that every caller runs the one compiled specialisation :func:`~exactgrid.solving.warm_up`
    made, instead of compiling another for an ``int`` temperature (seconds of compile, spent
    inside the caller's time limit).
    """
    grades = np.zeros((grids.shape[0], weights.shape[0]), dtype=np.int64)
    return anneal_graded(grids, lmasks, founds, supports, counters, stamps, best_grid, best_value, feasible_grid,
                         feasible_value, int(steps), int(sweep), float(t_hot), float(t_cold), float(swap_share),
                         int(kick), letter_cdf, fixed_cell, starts, lengths, letters, weights, flags, word_index,
                         word_ptr, table, chunks, full, int(budget), chain_sources, chain_targets, chain_adjacency,
                         int(min_count), int(min_score), int(penalty), grades, 0)


@njit(cache=True, nogil=True)
def anneal_graded(grids, lmasks, founds, supports, counters, stamps, best_grid, best_value, feasible_grid,
                  feasible_value, steps, sweep, t_hot, t_cold, swap_share, kick, letter_cdf, fixed_cell,
                  starts, lengths, letters, weights, flags, word_index, word_ptr, table, chunks, full,
                  budget, chain_sources, chain_targets, chain_adjacency, min_count, min_score, penalty,
                  grades, graded_cap):
    """:func:`anneal`, with a graded cost for missing required words when ``graded_cap`` > 0:
    such a word counts as many violations as the alterations it needs beyond the budget, at
    most ``graded_cap`` (:func:`_grade`), so that the search feels a required word coming
    closer before it is spelled. ``grades`` (chains x words) holds each chain's grades, as
    :func:`rescore` left them; ``counters[:, EXTRA]`` their sum beyond one per missing word.
    With ``graded_cap`` 0 the chain is :func:`anneal`'s, proposal for proposal.
    """
    free = np.flatnonzero(fixed_cell < 0)
    if free.shape[0] == 0:
        return 0
    word_letters, word_repeated = _letter_masks(starts, lengths, letters)
    prob = (starts, lengths, letters, weights, flags, word_index, word_ptr, table, chunks, full, budget, word_letters,
            word_repeated)
    chains = (chain_sources, chain_targets, chain_adjacency)
    goal = (chain_sources.shape[0], min_count, min_score, penalty)
    elite = (best_grid, best_value, feasible_grid, feasible_value)
    moves = (free, swap_share, kick, letter_cdf)
    schedule = (sweep, t_hot, t_cold / t_hot)
    reach, undo, saved, pending, candidates = _scratch(lengths, budget + max(graded_cap, 1))
    required = np.flatnonzero(flags & REQUIRED)
    grade_log = (np.zeros(2 * required.shape[0] + 2, dtype=np.int64), np.zeros(2 * required.shape[0] + 2,
                                                                                 dtype=np.int64))
    order, rest = _by_weight(word_index, word_ptr, weights, flags)
    lists = (candidates, order, rest, np.zeros(3, dtype=np.int64))
    rng = np.zeros(1, dtype=np.uint64)
    spread = np.zeros(26, dtype=np.int64)
    present = np.zeros(1, dtype=np.int64)
    scored = 0
    for k in range(grids.shape[0]):
        state = (grids[k], lmasks[k], founds[k], supports[k], counters[k], stamps[k], spread, present)
        grading = (grades[k], graded_cap, required, grade_log[0], grade_log[1])
        scored += _anneal_chain(state, steps, schedule, moves, prob, chains, goal, elite, reach, undo,
                                saved, pending, lists, rng, grading)
    return scored


@njit(cache=True, nogil=True)
def _scratch(lengths, layers):
    """Scratch arrays: the reach layers of a recheck (``layers`` of them: the budget + 1, or
    more for the graded search), the undo log (four entries a word), the counters saved before
    a proposal, the words left for a full recheck, and the gain candidates."""
    n_words = lengths.shape[0]
    longest = 1
    for w in range(n_words):
        longest = max(longest, lengths[w])
    size = 4 * n_words + 4
    undo = (np.zeros(size, dtype=np.int64), np.zeros(size, dtype=np.int64), np.zeros((size, 2), dtype=np.int64))
    saved = np.zeros(N_COUNTERS, dtype=np.int64)
    reach = np.zeros((longest, layers), dtype=np.int64)
    return reach, undo, saved, np.zeros(n_words + 1, dtype=np.int64), np.zeros(n_words + 1, dtype=np.int64)


@njit(cache=True, nogil=True, _nrt=False)
def _anneal_chain(state, steps, schedule, moves, prob, chains, goal, elite, reach, undo, saved, pending, lists, rng,
                  grading):
    """``steps`` proposals on one chain (``state``: its grid, letter masks, found words,
    supports, counters and stamps; ``grading``: its grades, the cap, the required words and
    the grade log; the rest as :func:`anneal_graded` packs it); proposals scored."""
    grid, lmask, found, support, ctr, stamp, spread, present = state
    sweep, t_hot, ratio = schedule
    _fill_spread(lmask, spread, present, prob[7], prob[8], prob[9])
    rng[0] = np.uint64(np.random.randint(1, 2**62))  # this call's stream, drawn from the thread's seed
    n_words = prob[3].shape[0]
    epoch = stamp[n_words]  # the last slot keeps the chain's epoch counter
    value = objective(ctr, goal[0], goal[1], goal[2], goal[3])[0]
    cooling = ratio ** (1.0 / sweep)  # per proposal: no power in the loop
    next_temperature = t_hot * ratio ** (ctr[STEP] / sweep)
    scored = 0
    for _ in range(steps):
        if ctr[STEP] >= sweep:  # restart from the elite with a kick
            value = _restart(state, moves, prob, chains, goal, elite[0], reach, rng, grading)
            next_temperature = t_hot
            scored += 1
        temperature = next_temperature
        next_temperature *= cooling
        ctr[STEP] += 1
        _copy(ctr, saved)
        c1, c2 = _draw_cells(grid, moves[0], moves[1], rng)
        old1, old2 = grid[c1], grid[c2] if c2 >= 0 else 0
        if c2 >= 0:
            b = old2
            if not (_allows(moves[3], c1, old2) and _allows(moves[3], c2, old1)):
                continue  # the swap would take a letter out of its cell's domain
        else:
            b = np.searchsorted(moves[3][c1], _uniform(rng), side="right")
            if b == old1:
                continue
        epoch += 1
        n_undo, n_graded, changed, threshold, rejected = _propose(c1, b, c2, value, temperature, state, epoch, undo,
                                                                  pending, lists, prob, goal, reach, rng, grading)
        scored += 1
        if not rejected:
            if grading[1] > 0:
                n_graded = _regrade_lost(state, grading, prob, reach, n_graded)
            new_value, new_ok = _settle(changed, found, ctr, chains, goal)
            if new_value >= threshold:
                value = new_value
                _remember(new_value, new_ok, grid, ctr, elite)
                continue
        _undo(n_undo, undo, found, support)
        _undo_grades(n_graded, grading)
        if c2 >= 0:
            _set(c2, old2, state, prob)
        _set(c1, old1, state, prob)
        _copy(saved, ctr)
    stamp[n_words] = epoch
    return scored


@njit(cache=True, nogil=True, _nrt=False)
def _restart(state, moves, prob, chains, goal, best_grid, reach, rng, grading):
    """Restart a chain from ``best_grid`` with ``kick`` random letters on free cells, rescored;
    its penalised value."""
    grid, lmask, found, support, ctr = state[0], state[1], state[2], state[3], state[4]
    free, kick, letter_cdf = moves[0], moves[2], moves[3]
    starts, lengths, letters, weights, flags, _, _, table, chunks, full, budget = prob[:11]
    _copy(best_grid, grid)
    for _k in range(kick):
        cell = free[_below(free.shape[0], rng)]
        grid[cell] = np.searchsorted(letter_cdf[cell], _uniform(rng), side="right")
    rescore(grid, lmask, found, support, ctr, starts, lengths, letters, weights, flags, table, chunks, full,
            budget, reach, chains[0], chains[1], chains[2], grading[0], grading[1])
    _fill_spread(lmask, state[6], state[7], table, chunks, full)
    ctr[STEP] = 0
    return objective(ctr, goal[0], goal[1], goal[2], goal[3])[0]


@njit(cache=True, nogil=True, inline="always")
def _allows(letter_cdf, cell, letter):
    """Whether ``cell`` may hold ``letter``: the letter has weight in the cell's row of
    ``letter_cdf`` (a letter outside the cell's domain has none)."""
    below = letter_cdf[cell, letter - 1] if letter > 0 else 0.0
    return letter_cdf[cell, letter] > below


@njit(cache=True, nogil=True, inline="always")
def _draw_cells(grid, free, swap_share, rng):
    """A free cell to change, and with probability ``swap_share`` a second one holding another
    letter to swap it with (-1: none)."""
    n_free = free.shape[0]
    c1 = free[_below(n_free, rng)]
    c2 = -1
    if n_free > 1 and _uniform(rng) < swap_share:
        c2 = free[_below(n_free, rng)]
        if grid[c2] == grid[c1]:
            c2 = -1
    return c1, c2


@njit(cache=True, nogil=True, inline="always")
def _propose(c1, b, c2, value, temperature, state, epoch, undo, pending, lists, prob, goal, reach, rng, grading):
    """Set cell ``c1`` to letter ``b`` or, when ``c2 >= 0``, swap the letters of ``c1`` and
    ``c2`` (``b`` is then ``c2``'s letter), and score the result as far as the Metropolis
    test needs. Every cell is set first, so each recheck reads the final grid; then:

    0. in the graded search, the required words missing before are graded afresh
       (:func:`_regrade_missing`);
    1. the losses (:func:`_losses`): words kept by a spare alteration or lost by the pair test
       cost nothing more; the rest are pending;
    2. the threshold is drawn;
    3. the gain candidates (:func:`_gain_candidates`): the unfound words the cheap tests allow,
       heaviest first; the proposal is rejected as soon as even keeping every pending word and
       gaining every candidate and every word still untested cannot reach the threshold;
    4. the pending words are rechecked, and the bound tested again with the losses exact;
    5. the candidates are rechecked (:func:`_gains`).

    Returns the undo-log length, the grade-log length, whether the found set changed, the
    threshold, and whether the proposal is already rejected."""
    grid, ctr = state[0], state[4]
    flags, word_ptr = prob[4], prob[6]
    candidates, gain = lists[0], lists[3]
    a = grid[c1]
    _set(c1, b, state, prob)
    if c2 >= 0:
        _set(c2, a, state, prob)
    n_graded = 0
    if grading[1] > 0:
        n_graded = _regrade_missing((np.int64(1) << a) | (np.int64(1) << b), state, grading, prob, reach)
    # one call site per inlined function, for both cells of a swap: half the compiled code
    sides = 2 if c2 >= 0 else 1
    n_undo, n_pending, changed = 0, 0, False
    for side in range(sides):
        n_undo, lost, n_pending = _losses(a if side == 0 else b, np.int64(1) << (c1 if side == 0 else c2), state,
                                          epoch, undo, n_undo, pending, n_pending, prob)
        changed |= lost
    threshold = value + temperature * np.log(1.0 - _uniform(rng))
    freed = 0  # pending forbidden words: the bound assumes them lost
    for k in range(n_pending):
        if flags[pending[k]] & FORBIDDEN:
            freed += 1
    # candidates after every loss: a word the losses stamped is settled and never a candidate
    gain[0] = gain[1] = gain[2] = 0
    other = word_ptr[a] if c2 >= 0 and word_ptr[a] < word_ptr[a + 1] else -1  # a swap: what ``a`` can add
    n_candidates = 0
    for side in range(sides):
        n_candidates, rejected = _gain_candidates(b if side == 0 else a, np.int64(1) << (c1 if side == 0 else c2),
                                                  state, epoch, prob, lists, n_candidates, other if side == 0 else -1,
                                                  threshold, freed, goal)
        if rejected:
            return n_undo, n_graded, changed, threshold, True
    if _value_bound(ctr, freed, gain[0], gain[1], gain[2], goal) < threshold:
        return n_undo, n_graded, changed, threshold, True
    if n_pending > 0:
        changed |= _recheck_pending(pending, n_pending, state, prob, reach)
        if _value_bound(ctr, 0, gain[0], gain[1], gain[2], goal) < threshold:
            return n_undo, n_graded, changed, threshold, True
    n_undo, won = _gains(candidates, n_candidates, state, undo, n_undo, prob, reach)
    return n_undo, n_graded, changed | won, threshold, False


@njit(cache=True, nogil=True, inline="always")
def _settle(changed, found, ctr, chains, goal):
    """The chain gaps brought up to date (when the found set changed), then the penalised value
    and whether every constraint holds."""
    if changed and goal[0] > 0:
        ctr[CHAIN_GAP] = _chain_gaps(_found_bits(found), chains[0], chains[1], chains[2], found.shape[0])
    return objective(ctr, goal[0], goal[1], goal[2], goal[3])


@njit(cache=True, nogil=True, inline="always")
def _remember(value, ok, grid, ctr, elite):
    """Keep ``grid`` as the best by penalised value, and as the best feasible one by score."""
    best_grid, best_value, feasible_grid, feasible_value = elite
    if value > best_value[0]:
        best_value[0] = value
        _copy(grid, best_grid)
    if ok and ctr[SCORE] > feasible_value[0]:
        feasible_value[0] = ctr[SCORE]
        _copy(grid, feasible_grid)
