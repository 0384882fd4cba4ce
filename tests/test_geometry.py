import random
from itertools import permutations

import pytest

from exactgrid.geometry import (
    MAX_CELLS,
    MOVE_RULES,
    PATH_RULES,
    Board,
    ShapeError,
    cells_of,
    parse_shape,
    shape_for_length,
)
from exactgrid.grid import Grid, parse_grid
from exactgrid.inputs import InputError

from .bruteforce import adjacent, letter_boxed_adjacent, line_adjacent, ring_adjacent


@pytest.mark.parametrize("rows,cols", [(1, 1), (1, 4), (2, 3), (3, 3), (5, 5), (8, 8), (4, 7)])
@pytest.mark.parametrize("moves", ["king", "rook"])
def test_neighbours_match_the_move_rule(rows, cols, moves):
    board = Board(rows, cols, moves)
    for a in range(board.size):
        expected = [b for b in range(board.size) if adjacent(rows, cols, moves, a, b)]
        assert list(board.neighbours[a]) == expected
        assert cells_of(board.neighbour_masks[a]) == expected


def test_king_on_5x5_corner_edge_centre():
    board = Board(5, 5)
    assert len(board.neighbours[0]) == 3
    assert len(board.neighbours[2]) == 5
    assert len(board.neighbours[12]) == 8
    assert len(Board(5, 5, "rook").neighbours[12]) == 4


def test_spread_is_union_of_neighbours():
    board = Board(8, 8)
    mask = (1 << 0) | (1 << 27) | (1 << 63)
    expected = board.neighbour_masks[0] | board.neighbour_masks[27] | board.neighbour_masks[63]
    assert board.spread(mask) == expected
    assert board.spread(0) == 0


@pytest.mark.parametrize("rows,cols,count", [(5, 5, 8), (3, 3, 8), (2, 3, 4), (1, 4, 2), (1, 1, 1)])
def test_symmetries(rows, cols, count):
    board = Board(rows, cols)
    syms = board.symmetries
    assert len(syms) == count
    assert syms[0] == tuple(range(board.size))
    for perm in syms:
        assert sorted(perm) == list(range(board.size))
        for a in range(board.size):  # adjacency is preserved
            for b in board.neighbours[a]:
                assert board.is_adjacent(perm[a], perm[b])


@pytest.mark.parametrize("rows,cols", [(5, 5), (2, 3)])
def test_symmetric_images_share_one_canonical_grid(rows, cols):
    board = Board(rows, cols)
    letters = "PENNSNAVLYIAQRSTUVWXYZBCD"[:board.size]
    images = {board.image(letters, perm) for perm in board.symmetries}
    assert len(images) == len(board.symmetries)
    assert {board.canonical(image) for image in images} == {min(images)}


def test_bad_shapes():
    with pytest.raises(ShapeError):
        Board(0, 5)
    with pytest.raises(ShapeError):
        Board(5, 5, "bishop")
    with pytest.raises(ShapeError):
        shape_for_length(24)
    with pytest.raises(ShapeError):
        parse_shape("5by5")
    with pytest.raises(ShapeError, match=r"the number of rows 99 is too large \(at most 32\)"):
        parse_shape("99x5")
    assert parse_shape("2x3") == (2, 3)


# -- custom boards ---------------------------------------------------------------------------


def ring(n: int) -> Board:
    return Board.from_edges(n, [(i, (i + 1) % n) for i in range(n)], name=f"ring of {n}")


def line(n: int) -> Board:
    return Board.from_edges(n, [(i, i + 1) for i in range(n - 1)], name=f"line of {n}")


def check_table(board: Board, is_adjacent) -> None:
    """Every table of ``board`` agrees with the reference predicate, cell pair by cell pair."""
    for a in range(board.size):
        expected = [b for b in range(board.size) if b != a and is_adjacent(a, b)]
        assert list(board.neighbours[a]) == expected
        assert cells_of(board.neighbour_masks[a]) == expected
        assert all(board.is_adjacent(a, b) == (b in expected) for b in range(board.size))
    assert board.edges == tuple((a, b) for a in range(board.size) for b in range(a + 1, board.size)
                                if is_adjacent(a, b))


@pytest.mark.parametrize("sides,per_side", [(4, 3), (3, 2), (2, 1), (5, 4), (4, 1)])
def test_letter_boxed_adjacency_labels_and_layout(sides, per_side):
    board = Board.letter_boxed(sides, per_side)
    check_table(board, lambda a, b: letter_boxed_adjacent(per_side, a, b))
    assert board.size == sides * per_side and board.is_custom and board.moves == "custom"
    assert (board.rows, board.cols) == (sides, per_side)  # one side per row
    assert board.label(0) == "s1p1" and board.label(board.size - 1) == f"s{sides}p{per_side}"
    assert len(set(board.labels)) == board.size
    assert board.shape_name == f"letter boxed {sides}x{per_side}"


def test_letter_boxed_4x3_by_hand():
    board = Board.letter_boxed()
    assert board.label(4) == "s2p2" and board.coords(4) == (1, 1) and board.cell(1, 1) == 4
    assert board.neighbours[4] == (0, 1, 2, 6, 7, 8, 9, 10, 11)
    assert len(board.edges) == 12 * 9 // 2
    grid = Grid(board, "ABCDEFGHIJKL")
    assert grid.rows() == ["ABC", "DEF", "GHI", "JKL"]


def automorphisms(board: Board) -> set[tuple[int, ...]]:
    """Every adjacency-preserving permutation, by trying all of them (small boards only)."""
    edges = {frozenset(e) for e in board.edges}
    return {perm for perm in permutations(range(board.size))
            if {frozenset((perm[a], perm[b])) for a, b in board.edges} == edges}


@pytest.mark.parametrize("sides,per_side,count", [(4, 3, 8), (3, 2, 6), (4, 1, 8), (5, 1, 10), (2, 1, 2), (2, 3, 4)])
def test_letter_boxed_symmetries_are_the_polygon_s(sides, per_side, count):
    board = Board.letter_boxed(sides, per_side)
    syms = board.symmetries
    assert syms[0] == tuple(range(board.size)) and len(set(syms)) == len(syms) == count
    edges = {frozenset(e) for e in board.edges}
    for perm in syms:
        assert sorted(perm) == list(range(board.size))
        assert {frozenset((perm[a], perm[b])) for a, b in board.edges} == edges
        for a in range(board.size):  # a side goes to a side, keeping the clockwise order or reversing it
            assert perm[a] // per_side == perm[a - a % per_side] // per_side
    if board.size <= 8:  # the polygon's symmetries are a subset of all automorphisms
        assert set(syms) <= automorphisms(board)


@pytest.mark.parametrize("n", [3, 4, 5, 8])
def test_ring_and_line(n):
    check_table(ring(n), lambda a, b: ring_adjacent(n, a, b))
    check_table(line(n), line_adjacent)
    assert ring(n).neighbours[0] == (1, n - 1)
    assert line(n).neighbours[0] == (1,)


def test_custom_board_defaults():
    board = ring(5)
    assert (board.rows, board.cols) == (1, 5)  # default layout: one row
    assert [board.label(c) for c in range(5)] == ["c1", "c2", "c3", "c4", "c5"]
    assert board.coords(3) == (0, 3) and board.cell(0, 3) == 3
    assert board.symmetries == ((0, 1, 2, 3, 4),)  # identity only unless declared
    assert board.all_cells == 0b11111
    assert board.shape_name == "ring of 5"
    assert "ring of 5" in repr(board)
    assert Grid(board, "ABCDE").block() == "A B C D E"


def test_custom_board_is_frozen_hashable_and_equal_by_value():
    a = Board.from_adjacency([[1, 3], [0, 2], [1, 3], [2, 0]], name="ring of 4")
    b = Board.from_edges(4, [(0, 1), (1, 2), (2, 3), (3, 0), (1, 0)], name="ring of 4")
    assert a == b and hash(a) == hash(b) and len({a, b}) == 1
    assert a.adjacency == ((1, 3), (0, 2), (1, 3), (0, 2))  # tuple of sorted tuples
    assert a == ring(4)
    assert a != Board.from_edges(4, a.edges, name="square")  # the name is part of the board
    assert a != Board(2, 2, "rook")  # same graph, but a rectangle is another board
    with pytest.raises(AttributeError):
        a.rows = 2  # type: ignore[misc]


def test_declared_labels_layout_and_symmetries():
    board = Board.from_adjacency([[1], [0, 2], [1]], labels=["L", "M", "R"], name="line of 3",
                                 layout=(3, 1), symmetries=[(2, 1, 0)])
    assert [board.label(c) for c in range(3)] == ["L", "M", "R"]
    assert (board.rows, board.cols, board.coords(2)) == (3, 1, (2, 0))
    assert board.symmetries == ((0, 1, 2), (2, 1, 0))
    assert Grid(board, "ABC").rows() == ["A", "B", "C"]
    assert Board(2, 2, labels=("nw", "ne", "sw", "se")).label(3) == "se"


def test_spread_on_custom_boards_is_union_of_neighbours():
    rng = random.Random(7)
    for board in (Board.letter_boxed(), ring(9), line(10), Board.letter_boxed(6, 5)):
        for _ in range(50):
            mask = rng.getrandbits(board.size)
            expected = 0
            for a in cells_of(mask):
                for b in range(board.size):
                    if board.is_adjacent(a, b):
                        expected |= 1 << b
            assert board.spread(mask) == expected


def test_rectangles_unchanged():
    assert Board() == Board(5, 5, "king") and Board(3, 3, "rook").moves == "rook"
    assert repr(Board(3, 3, "rook")) == "Board(3, 3, 'rook')"
    assert not Board().is_custom and Board().shape_name == "5x5" and Board().label(7) == "r2c3"
    assert MOVE_RULES == ("king", "rook") and PATH_RULES == ("walk", "simple")


def test_path_rule_still_importable_from_finder():
    from exactgrid import finder, geometry

    assert finder.PathRule is geometry.PathRule and finder.PATH_RULES is geometry.PATH_RULES


def test_parse_grid_onto_a_custom_board():
    board = Board.letter_boxed()
    grid = parse_grid("abc/def/ghi/jkl", board=board)
    assert grid.board is board and grid.letters == "ABCDEFGHIJKL"
    with pytest.raises(InputError, match="board or a shape"):
        parse_grid("abcd", shape="2x2", board=ring(4))
    with pytest.raises(InputError, match="letter boxed 4x3 grid needs 12 letters"):
        parse_grid("abc", board=board)


BAD_BOARDS = [
    (lambda: Board.from_adjacency([]), "at least one cell"),
    (lambda: Board.from_adjacency([[]] * (MAX_CELLS + 1)), f"at most {MAX_CELLS} cells"),
    (lambda: Board.from_adjacency([[1], [0, 2], [1, 3]]), "neighbours of cell 2: cell 3 is out of range 0..2"),
    (lambda: Board.from_adjacency([[-1], []]), "cell -1 is out of range"),
    (lambda: Board.from_adjacency([[0, 1], [0]]), "cell 0 is listed as its own neighbour"),
    (lambda: Board.from_adjacency([[1], []]), "cell 0 lists 1 as a neighbour but cell 1 does not list 0"),
    (lambda: Board.from_adjacency([[1.5], [0]]), "1.5 is not a cell number"),
    (lambda: Board.from_adjacency([[True], [0]]), "True is not a cell number"),
    (lambda: Board.from_adjacency(["1", [0]]), "neighbours of cell 0 must be a list"),
    (lambda: Board.from_adjacency("ab"), "one list of neighbours per cell"),
    (lambda: Board.from_adjacency([[1], [0]], labels=["a"]), "needs 2 labels, got 1"),
    (lambda: Board.from_adjacency([[1], [0]], labels="ab"), "labels must be a list of strings"),
    (lambda: Board.from_adjacency([[1], [0]], labels=["a", "a"]), "'a' is used twice"),
    (lambda: Board.from_adjacency([[1], [0]], labels=["a", "b c"]), "without spaces"),
    (lambda: Board.from_adjacency([[1], [0]], layout=(2, 2)), "2x2 layout has 4 cells but the board has 2"),
    (lambda: Board.from_adjacency([[1], [0]], layout="2x1"), "(rows, cols) pair"),
    (lambda: Board.from_adjacency([[1], [0]], name=""), "one-line name"),
    (lambda: Board.from_adjacency([[1], [0, 2], [1]], symmetries=[(1, 0, 2)]), "does not preserve adjacency"),
    (lambda: Board.from_adjacency([[1], [0]], symmetries=[(0, 0)]), "2 different cells"),
    (lambda: Board.from_edges(3, [(0, 3)]), "edge (0, 3): cell 3 is out of range 0..2"),
    (lambda: Board.from_edges(3, [(1, 1)]), "joins cell 1 to itself"),
    (lambda: Board.from_edges(3, [(0, 1, 2)]), "pair of cell numbers"),
    (lambda: Board.from_edges(0, []), "1 to 1024 cells"),
    (lambda: Board.from_edges("3", []), "size must be a whole number"),
    (lambda: Board.letter_boxed(1, 3), "2 to 32 sides"),
    (lambda: Board.letter_boxed(4, 0), "2 to 32 sides of 1 to 32 cells"),
    (lambda: Board(1, 3, "custom"), "needs its adjacency"),
    (lambda: Board(1, 2, adjacency=((1,), (0,))), "for a given one use Board.from_adjacency"),
    (lambda: Board(5, 5, name="big"), "only a custom board takes a name"),
    (lambda: Board(2, 2, labels=("a", "b")), "needs 4 labels"),
    (lambda: Board(True, 5), "rows must be a whole number"),
]


@pytest.mark.parametrize("make,message", BAD_BOARDS)
def test_bad_custom_boards_say_why_in_one_line(make, message):
    with pytest.raises(ShapeError) as err:
        make()
    assert message in str(err.value)
    assert "\n" not in str(err.value)
    assert isinstance(err.value, InputError)


def test_largest_custom_board():
    board = Board.from_edges(MAX_CELLS, [(i, i + 1) for i in range(MAX_CELLS - 1)])
    assert board.size == MAX_CELLS and board.spread(1) == 2
    assert board.spread(1 << (MAX_CELLS - 1)) == 1 << (MAX_CELLS - 2)


def test_adjacency_from_any_iterable_of_whole_numbers():
    import numpy as np

    expected = ((1,), (0, 2), (1,))
    assert Board.from_adjacency(iter([[1], {0, 2}, (1,)])).neighbours == expected
    board = Board.from_adjacency(np.array([[1, 1], [0, 2], [1, 1]]))  # repeated neighbours count once
    assert board.neighbours == expected and all(type(b) is int for near in board.neighbours for b in near)
    assert Board.from_edges(np.int64(3), np.array([[0, 1], [2, 1]])).neighbours == expected


# Every engine takes "cells one move away" from the board (the finder's Board.spread, the
# kernel's dilation_table and column shifts, the batch scorer's offsets): each form is checked
# here against the brute-force adjacency definitions, which share no code with geometry.

DILATION_BOARDS = [
    (Board(5, 5), lambda a, b: adjacent(5, 5, "king", a, b)),
    (Board(3, 4, "rook"), lambda a, b: adjacent(3, 4, "rook", a, b)),
    (Board(8, 8), lambda a, b: adjacent(8, 8, "king", a, b)),
    (Board(1, 7), lambda a, b: adjacent(1, 7, "king", a, b)),
    (Board(9, 1, "rook"), lambda a, b: adjacent(9, 1, "rook", a, b)),
    (Board(11, 11), lambda a, b: adjacent(11, 11, "king", a, b)),
    (Board.letter_boxed(), lambda a, b: letter_boxed_adjacent(3, a, b)),
    (Board.letter_boxed(5, 3), lambda a, b: letter_boxed_adjacent(3, a, b)),
    (ring(9), lambda a, b: ring_adjacent(9, a, b)),
    (line(10), line_adjacent),
]


def _defined_spread(size: int, is_adjacent, mask: int) -> int:
    return sum(1 << b for b in range(size) if any(mask >> a & 1 and is_adjacent(a, b) for a in range(size)))


def _masks(board: Board, count: int, seed: int) -> list[int]:
    rng = random.Random(seed)
    singles = [1 << c for c in range(board.size)]
    return [0, board.all_cells, *singles, *(rng.getrandbits(board.size) for _ in range(count))]


@pytest.mark.parametrize("board,is_adjacent", DILATION_BOARDS, ids=lambda x: getattr(x, "shape_name", ""))
def test_every_dilation_form_is_the_definition(board, is_adjacent):
    tables = board.spread_tables
    assert len(tables) == -(-board.size // 8) and all(len(t) == 256 for t in tables)
    for mask in _masks(board, 40, board.size):
        expected = _defined_spread(board.size, is_adjacent, mask)
        assert board.spread(mask) == expected
        by_table = 0
        for k, table in enumerate(tables):
            by_table |= table[mask >> (8 * k) & 255]
        assert by_table == expected
        by_offset = 0
        for d, cells in board.offset_masks:
            by_offset |= (mask & cells) << d if d > 0 else (mask & cells) >> -d
        assert by_offset == expected


@pytest.mark.parametrize("rows,cols,moves",
                         [(5, 5, "king"), (3, 4, "rook"), (1, 6, "king"), (7, 1, "king"), (4, 4, "rook")])
def test_column_masks_make_the_shift_dilation(rows, cols, moves):
    board = Board(rows, cols, moves)
    not_first, not_last = board.column_masks
    assert cells_of(not_first) == [c for c in range(board.size) if c % cols]
    assert cells_of(not_last) == [c for c in range(board.size) if c % cols != cols - 1]
    for mask in _masks(board, 30, rows * cols):
        h = (mask & not_last) << 1 | (mask & not_first) >> 1
        f = h | mask if moves == "king" else mask
        shifted = (h | f << cols | f >> cols) & board.all_cells
        assert shifted == _defined_spread(board.size, lambda a, b: adjacent(rows, cols, moves, a, b), mask)


def test_bits_past_the_last_cell_read_as_no_cell():
    board = Board(3, 3)  # 9 cells: the second table covers cell 8 and seven cells that do not exist
    assert board.spread_tables[1][0b10] == 0
    assert board.spread_tables[1][0b11] == board.neighbour_masks[8]
