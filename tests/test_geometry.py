import pytest

from exactgrid.geometry import Board, ShapeError, cells_of, parse_shape, shape_for_length

from .bruteforce import adjacent


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


def test_bad_shapes():
    with pytest.raises(ShapeError):
        Board(0, 5)
    with pytest.raises(ShapeError):
        Board(5, 5, "bishop")
    with pytest.raises(ShapeError):
        shape_for_length(24)
    with pytest.raises(ShapeError):
        parse_shape("5by5")
    assert parse_shape("2x3") == (2, 3)
