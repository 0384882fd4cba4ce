"""The highest-scoring grids, with constraints and awards as hard constraints: ``eg.solve``.

* :mod:`exactgrid.solving.kernel`: compiled incremental scoring and the annealer (numba);
* :mod:`exactgrid.solving.problem`: a Question as the kernel's arrays;
* :mod:`exactgrid.solving.search`: worker threads, the time limit, Ctrl-C, improvements checked
  by the finder;
* :mod:`exactgrid.solving.answer`: :func:`solve` and the :class:`SolveAnswer`.

>>> import exactgrid as eg
>>> answer = eg.solve(eg.Question(eg.Board(3, 3)), time_limit=None, max_proposals=200_000, workers=1, seed=1)
>>> answer.verdict, answer.score >= 32_913_047, answer.score == eg.score(answer.grid).total
(<Outcome.FITS: 'fits'>, True, True)
"""

from .answer import SolveAnswer, solve, solve_question
from .problem import SolveError
from .search import Improvement, Schedule, SearchStats, warm_up

__all__ = ["Improvement", "Schedule", "SearchStats", "SolveAnswer", "SolveError", "solve", "solve_question", "warm_up"]

