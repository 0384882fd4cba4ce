"""exactgrid: exact answers to letter-grid puzzle questions (Altered States 2 and kin)."""

from .data.us import us_states
from .finder import Match, Score, find, is_found, score
from .geometry import Board
from .grid import Grid, parse_grid
from .words import WordList

__all__ = [
    "Board",
    "Grid",
    "Match",
    "Score",
    "WordList",
    "find",
    "is_found",
    "parse_grid",
    "score",
    "us_states",
]
__version__ = "0.1.0"
