"""The front door of Letter Boxed (:func:`solve_letter_boxed`): one call that checks the
question, runs the chosen method (or both, cross-checked) within one time limit, and answers."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Literal

from ...answer import DEFAULT_TIME_LIMIT, OnProgress
from ...inputs import check_whole
from ...stopping import interruption
from ..clock import Clock
from .answer import LetterBoxedAnswer
from .ilp import DEFAULT_BACKEND, ilp_answer
from .rules import LetterBox, LetterBoxError, Words, load_words
from .search import search_answer

if TYPE_CHECKING:
    from ...backends import Backend

Method = Literal["search", "ilp", "both"]
METHODS: tuple[str, ...] = ("search", "ilp", "both")
"""The methods of :func:`solve_letter_boxed`."""


def solve_letter_boxed(box_or_text: LetterBox | str | Sequence[str], words: Words = None,
                       max_words: int | None = None, method: Method = "search", backend: str | None = None,
                       time_limit: float | None = DEFAULT_TIME_LIMIT, on_progress: OnProgress | None = None,
                       seed: int = 0) -> LetterBoxedAnswer:
    """The fewest-word solution of a Letter Boxed box, proven fewest.

    ``method``: ``"search"`` (:func:`solve_by_search`, fast), ``"ilp"`` (:func:`solve_by_ilp`
    with ``backend``, default CBC) or ``"both"``: the search, then the ILP up to the search's
    count (or ``max_words``), raising AssertionError if they disagree on the fewest number of
    words; it returns the search's solution with both proofs in ``how``. ``words`` defaults
    to ENABLE (a WordList, a list's name or file, or any words). Every solution returned has
    been re-checked by :func:`check_solution` (the finder referees each word).

    ``time_limit``: wall-clock seconds from the call for everything (loading the words, the
    search, the ILP); None for no limit. ``on_progress(event)`` hears of each round (a number
    of words tried; ``bound`` is the fewest words still possible). Ctrl-C (or a stop signal)
    ends the work with the answer so far (``stopped_by``). Bad input raises LetterBoxError (or
    another InputError, or BackendError for the backend) with a one-line message.

    >>> solve_letter_boxed("xoy tws apv kri").fewest
    3
    """
    clock = Clock.start("letterboxed", time_limit, on_progress)
    box = LetterBox.parse(box_or_text)
    solver = _checked(method, max_words, backend)
    plan = {"search": "breadth-first search", "ilp": f"ILP on {solver and solver.name}",
            "both": f"search, then ILP on {solver and solver.name}"}
    try:
        clock.tell(plan[method])
        dictionary = load_words(words)
    except KeyboardInterrupt as exc:
        return LetterBoxedAnswer(box, (), None, False, f"interrupted ({interruption(exc)}) while loading the words",
                                 method, clock.elapsed(), 0, max_words, interruption(exc))
    if solver is None:
        return search_answer(box, dictionary, max_words, clock)
    if method == "ilp":
        return ilp_answer(box, dictionary, box.size if max_words is None else max_words, solver, seed, clock)
    search = search_answer(box, dictionary, max_words, clock)
    if not search.proven:  # interrupted, or out of time: no proof to cross-check
        return search
    ilp = ilp_answer(box, dictionary, max_words or search.fewest or box.size, solver, seed, clock)
    if ilp.proven and ilp.fewest != search.fewest:
        raise AssertionError(f"the solvers disagree on {box}: search says {search.fewest} word(s) "
                             f"({search.how}); ILP says {ilp.fewest} ({ilp.how})")
    how = f"{search.how}; and {ilp.how}" + ("" if ilp.proven else " (the ILP did not finish: no cross-check)")
    return LetterBoxedAnswer(box, search.words, search.fewest, search.proven, how, f"both (search, {ilp.method})",
                             clock.elapsed(), search.playable, max_words, ilp.stopped_by)


def _checked(method: str, max_words: int | None, backend: str | None) -> Backend | None:
    """The backend the method uses (None for the search), after checking the method and
    ``max_words``; LetterBoxError (or BackendError) with a one-line message."""
    if method not in METHODS:
        raise LetterBoxError(f"unknown method {method!r}; choose from {', '.join(METHODS)}")
    if max_words is not None:
        check_whole(max_words, "max_words", 1)
    if method == "search":
        if backend is not None:
            raise LetterBoxError("a backend only applies to the ILP: use method 'ilp' or 'both'")
        return None
    from ...backends import backend_name, get_backend

    return get_backend(backend_name(backend, DEFAULT_BACKEND))
