"""exactgrid: exact answers to letter-grid puzzle questions (Altered States 2 and kin).

``import exactgrid as eg`` is all a user needs::

    import exactgrid as eg
    print(eg.score("thoainesl").total)                      # 32913047
    q = eg.Question(eg.Board(3, 3), required=["OHIO", "UTAH=ATAH"], forbidden=["TEXAS"])
    answer = eg.fit(q, time_limit=30)                       # a grid the finder has checked
    print(answer.verdict, answer.grid)

Solvers are imported only when a question is answered.
"""

from . import words
from .api import as_grid, check, score
from .awards import Checklist, ChecklistResult, default_checklist, evaluate, load_checklist
from .backends import Backend, BackendError, Status, get_backend, list_backends
from .data import word_list
from .data.us import us_states
from .encode import Encoding, encode
from .fastscore import Scorer
from .finder import Match, Score, find, is_found
from .fit import FitAnswer, ModelSize, VerificationError, fit
from .geometry import Board
from .grid import Grid, parse_grid
from .inputs import InputError
from .question import (
    Instance,
    Question,
    Requirement,
    SpecError,
    Verdict,
    build_question,
    load_instance,
    question_from_table,
)
from .words import WordList, read_word_list

__all__ = [
    "Backend", "BackendError", "Board", "Checklist", "ChecklistResult", "Encoding", "FitAnswer", "Grid",
    "InputError", "Instance", "Match", "ModelSize", "Question", "Requirement", "Score", "Scorer", "SpecError",
    "Status", "Verdict", "VerificationError", "WordList", "as_grid", "build_question", "check",
    "default_checklist", "encode", "evaluate", "find", "fit", "get_backend", "is_found", "list_backends",
    "load_checklist", "load_instance", "parse_grid", "question_from_table", "read_word_list", "score",
    "us_states", "word_list", "words",
]
__version__ = "0.1.0"
