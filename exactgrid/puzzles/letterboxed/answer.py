"""The answer to a Letter Boxed question (:class:`LetterBoxedAnswer`), and the referee's check
of every solution before it is returned (:func:`refereed`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...answer import Answer, Outcome
from ...wording import plural
from ...words import WordList
from .rules import LetterBox, solution_problems


@dataclass(frozen=True)
class LetterBoxedAnswer(Answer):
    """What a solver found.

    ``words`` is a solution with the fewest words (empty when none was found within
    ``max_words``); ``fewest`` its length (None when none was found); ``proven`` says whether
    what the answer claims is proven: the fewest count when ``words`` is given, else that no
    solution exists (at all, or within ``max_words`` -- ``how`` says which); False when a time
    limit or an interruption cut the proof short. ``how`` is one line saying what was shown
    and how; ``playable`` counts the playable words of the list; ``seconds`` is the wall time
    of the call. ``stopped_by`` names what interrupted the work (``Ctrl-C``, ``SIGTERM``,
    ``SIGHUP``; the answer is then what was shown by then), or is None.

    ``outcome`` (:class:`~exactgrid.answer.Outcome`): OPTIMAL for a solution proven fewest,
    FEASIBLE for a solution not proven fewest, DOES_NOT_FIT when it is proven that no solution
    exists (within ``max_words``), UNKNOWN when nothing was found or proven.
    """

    box: LetterBox
    words: tuple[str, ...]
    fewest: int | None
    proven: bool
    how: str
    method: str
    seconds: float
    playable: int
    max_words: int | None = None
    stopped_by: str | None = None

    @property
    def outcome(self) -> Outcome:  # type: ignore[override]
        """OPTIMAL, FEASIBLE, DOES_NOT_FIT or UNKNOWN (see the class notes)."""
        if self.words:
            return Outcome.OPTIMAL if self.proven else Outcome.FEASIBLE
        return Outcome.DOES_NOT_FIT if self.proven else Outcome.UNKNOWN

    @property
    def solved(self) -> bool:
        """Whether a solution was found."""
        return bool(self.words)

    @property
    def letters(self) -> int:
        """How many letters the solution's words hold together."""
        return sum(map(len, self.words))

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict with stable keys: the contract's (``outcome``, ``seconds``,
        ``stopped_by``, ``exit_code``), then ``box`` (text), ``sides``, ``words``, ``fewest``,
        ``letters``, ``proven``, ``how``, ``method``, ``max_words``, ``playable``."""
        return {
            **self.contract_dict(),
            "seconds": round(self.seconds, 4),
            "box": str(self.box),
            "sides": list(self.box.sides),
            "words": list(self.words),
            "fewest": self.fewest,
            "letters": self.letters,
            "proven": self.proven,
            "how": self.how,
            "method": self.method,
            "max_words": self.max_words,
            "playable": self.playable,
        }

    def text(self) -> str:
        """The answer as ``exactgrid letterboxed`` prints it: the box, the fewest count, the
        solution, how it was shown."""
        if self.words:
            proof = "proven fewest" if self.proven else "not proven fewest"
            head = f"fewest words: {self.fewest} ({proof})"
            body = f"solution: {' - '.join(self.words)} ({self.letters} letters)"
        elif self.proven:
            within = f" within {plural(self.max_words, 'word')}" if self.max_words else ""
            head, body = f"fewest words: no solution{within} (proven)", "solution: none"
        else:
            why = f"interrupted ({self.stopped_by})" if self.stopped_by else "the time limit came first"
            head, body = f"fewest words: unknown ({why})", "solution: none found"
        return "\n".join([
            f"Letter Boxed {self.box.describe()}",
            head,
            body,
            f"how: {self.how}",
            f"playable words: {self.playable:,}; {self.method} in {self.seconds:.3f} s",
        ])


def refereed(answer: LetterBoxedAnswer, dictionary: WordList | frozenset[str]) -> LetterBoxedAnswer:
    """``answer`` after the independent check; AssertionError (a solver bug) when it fails."""
    if answer.words:
        problems = solution_problems(answer.box, answer.words, dictionary)
        if problems:
            raise AssertionError(f"{answer.method} returned a wrong solution {answer.words}: {'; '.join(problems)}")
    if (answer.fewest is None) != (not answer.words) or (answer.words and answer.fewest != len(answer.words)):
        raise AssertionError(f"{answer.method}: fewest {answer.fewest} does not match the words {answer.words}")
    return answer
