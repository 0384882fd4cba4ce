"""Text rendering: a grid as a block, a table of found words, a checklist verdict table.

A checklist item's *evidence* (``score 188,652,076 < 200,000,000 (short by 11,347,924)``) is
written here, by :func:`item_evidence`, from the data :mod:`exactgrid.awards` returns.

How an altered letter is shown: in the *spelled* column the substituted letter is written in
lower case, the rest in upper case (``CALIlORNIA`` is CALIFORNIA with its 5th letter read as
L). Lower case keeps the column as wide as the word, survives copy-paste and needs no colour;
the *altered* column says the same thing explicitly: ``5 F->L`` (1-based position, the word's
letter, then the grid's letter). A word spelled exactly shows ``-`` there.

Paths are cell labels from :meth:`Board.label` (``r1c2`` = row 1, column 2, both 1-based).
Each function also has a ``*_dict`` twin giving the same facts as JSON-ready data.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from ..awards import ChecklistResult, ItemResult
from ..finder import Match, Score
from ..grid import Grid
from ..wording import letters_off, plural

if TYPE_CHECKING:
    from ..fitting import FitAnswer
    from ..solving import SearchStats, SolveAnswer


def grid_block(grid: Grid) -> str:
    """The grid as rows of letters separated by spaces, one row per line."""
    return grid.block(spaced=True)


def marked_spelling(match: Match) -> str:
    """The spelled form with altered letters in lower case: ``CALIlORNIA`` (:attr:`Match.marked`)."""
    return match.marked


def alterations(match: Match) -> list[tuple[int, str, str]]:
    """Each alteration as (1-based position, the word's letter, the grid's letter)."""
    return [(i + 1, match.word[i], match.spelled[i]) for i in match.altered]


def alteration_text(match: Match) -> str:
    """Alterations as text, ``5 F->L`` (comma-separated if several), or ``-`` when exact."""
    return ", ".join(f"{pos} {old}->{new}" for pos, old, new in alterations(match)) or "-"


def path_labels(grid: Grid, match: Match) -> list[str]:
    """The path of a match as cell labels (``r1c2``)."""
    return [grid.board.label(c) for c in match.path]


def text_table(header: Sequence[str], rows: Sequence[Sequence[str]], right: Sequence[int] = ()) -> str:
    """Rows under a header and a rule of dashes, columns padded (those in ``right`` right-aligned)."""
    widths = [max(len(str(r[i])) for r in [header, *rows]) for i in range(len(header))]

    def line(cells: Sequence[str]) -> str:
        parts = [
            str(c).rjust(w) if i in right else str(c).ljust(w)
            for i, (c, w) in enumerate(zip(cells, widths, strict=True))
        ]
        return "  ".join(parts).rstrip()

    return "\n".join([line(header), line(["-" * w for w in widths]), *(line(r) for r in rows)])


def words_table(result: Score) -> str:
    """A table of the found words: word, weight, spelled form, alteration, path.

    Weights are shown as populations with thousands separators. An empty result gives a
    one-line note instead of an empty table.
    """
    if not result.found:
        return "(no words found)"
    rows = [
        [
            s.match.word,
            f"{s.weight:,}",
            marked_spelling(s.match),
            alteration_text(s.match),
            " ".join(path_labels(result.grid, s.match)),
        ]
        for s in result.found
    ]
    header = [*_labels(result), "spelled", "altered", "path"]
    return text_table(header, rows, right=(1,))


def _labels(result: Score) -> tuple[str, str]:
    """What the scored list calls a word and a weight ("state", "population"; "word", "weight")."""
    words = result.word_list
    return (words.word_label, words.weight_label) if words is not None else ("word", "weight")


def score_text(result: Score) -> str:
    """The grid block, the total and count, and the words table, as printed by ``exactgrid score``."""
    rule = result.rules
    return "\n".join(
        [
            grid_block(result.grid),
            "",
            f"grid   {result.grid.letters}  ({rule})",
            f"total  {result.total:,}",
            f"count  {len(result.found)}",
            "",
            words_table(result),
        ]
    )


def _state_names(states: Sequence[str]) -> str:
    return ", ".join(states) or "none"


def _min_states_evidence(result: ItemResult) -> str:
    count, threshold = result.details["count"], result.details["threshold"]
    if count >= threshold:
        return f"{count} states found, at least {threshold}"
    return f"{count} states found, short of {threshold} (need {threshold - count} more)"


def _min_score_evidence(result: ItemResult) -> str:
    score, threshold = result.details["score"], result.details["threshold"]
    if score >= threshold:
        return f"score {score:,} >= {threshold:,} (margin {score - threshold:,})"
    return f"score {score:,} < {threshold:,} (short by {threshold - score:,})"


def _required_evidence(result: ItemResult) -> str:
    missing = result.details["missing"]
    if not missing:
        return f"all found: {_state_names(result.details['present'])}"
    off = result.details.get("letters_off")
    if off is None:
        return f"missing {_state_names(missing)}"
    within = result.details.get("letters_off_within")
    return "missing " + ", ".join(f"{state} ({letters_off(off[state], within)})" for state in missing)


def _forbidden_evidence(result: ItemResult) -> str:
    present = result.details["present"]
    return f"found {_state_names(present)}" if present else f"none found of {_state_names(result.item.states)}"


def _chain_evidence(result: ItemResult) -> str:
    test, details = result.item.chain, result.details
    assert test is not None
    borders = "land and water borders" if details["water"] else "land borders"
    if details["chain"] is not None:
        return f"chain of {len(details['chain'])} on {borders}: {'-'.join(details['chain'])}"
    start, end = test.sources_label, test.targets_label
    sources, targets = details["sources_found"], details["targets_found"]
    if not sources:
        return f"no chain: no {start} state found (any of {_state_names(test.sources)})"
    if not targets:
        return (f"no chain: {start} states {_state_names(sources)} found, "
                f"but no {end} state (any of {_state_names(test.targets)})")
    wet = details.get("over_water")
    over_water = (f"; over water (--water-borders) a chain of {len(wet)}: {'-'.join(wet)}"
                  if wet is not None else "")
    return (f"no chain on {borders}: found {start} states {_state_names(sources)} reach only "
            f"{_state_names(details['reached'])}; found {end} states {_state_names(targets)} are cut off"
            + over_water)


_EVIDENCE: dict[str, Callable[[ItemResult], str]] = {
    "min_states": _min_states_evidence,
    "min_score": _min_score_evidence,
    "required": _required_evidence,
    "forbidden": _forbidden_evidence,
    "chain": _chain_evidence,
}


def item_evidence(result: ItemResult) -> str:
    """One line of evidence for an item's verdict, from its details.

    For example ``20 states found, at least 20``; ``score 188,652,076 < 200,000,000 (short by
    11,347,924)``; ``missing COLORADO, UTAH``; ``found CALIFORNIA``; ``chain of 7 on land
    borders: GEORGIA-...-CALIFORNIA``; or, when there is no chain, which found states the
    start states reach.
    """
    return _EVIDENCE[result.kind](result)


def checklist_table(result: ChecklistResult) -> str:
    """One line per item: PASS/FAIL, key, title, evidence; then a summary line."""
    rows = [["PASS" if r.passed else "FAIL", r.key, r.title, item_evidence(r)] for r in result.items]
    table = text_table(["", "item", "title", "evidence"], rows)
    passed = sum(r.passed for r in result.items)
    summary = f"{passed} of {len(result.items)} passed"
    if result.failed:
        summary += f"; failed: {', '.join(result.failed)}"
    return f"{table}\n\n{summary}"


def grid_dict(grid: Grid) -> dict[str, Any]:
    """JSON-ready grid facts: letters, rows, shape [rows, cols], moves."""
    return {
        "grid": grid.letters,
        "rows": grid.rows(),
        "shape": [grid.board.rows, grid.board.cols],
        "moves": grid.board.moves,
    }


def score_dict(result: Score) -> dict[str, Any]:
    """JSON-ready score: grid facts, path_rule, budget, total, count and ``found`` (one dict per word).

    Each found entry has: word, name (the list's display name, e.g. "New York", or the word),
    weight, and the same two under the list's own labels when they differ (``state`` and
    ``population`` for the US states), then spelled (as in the grid, upper case), marked
    (altered letters lower case), altered (list of
    {position (1-based), from, to}), path (cell labels) and cells (0-based row-major indices).
    """
    word_label, weight_label = _labels(result)
    display = result.word_list.display if result.word_list is not None else str
    found = [
        {
            "word": s.match.word,
            word_label: s.match.word,
            "name": display(s.match.word),
            "weight": s.weight,
            weight_label: s.weight,
            "spelled": s.match.spelled,
            "marked": marked_spelling(s.match),
            "altered": [{"position": p, "from": a, "to": b} for p, a, b in alterations(s.match)],
            "path": path_labels(result.grid, s.match),
            "cells": list(s.match.path),
        }
        for s in result.found
    ]
    return {
        **grid_dict(result.grid),
        "path_rule": result.path_rule,
        "budget": result.budget,
        "total": result.total,
        "count": len(result.found),
        "found": found,
    }


def item_dict(result: ItemResult) -> dict[str, Any]:
    """JSON-ready item verdict: key, title, kind, passed, evidence (:func:`item_evidence`), details."""
    return {
        "key": result.key,
        "title": result.title,
        "kind": result.kind,
        "passed": result.passed,
        "evidence": item_evidence(result),
        "details": result.details,
    }


def checklist_dict(result: ChecklistResult) -> dict[str, Any]:
    """JSON-ready checklist verdict: checklist name and source, water_borders, passed, failed, items."""
    return {
        "checklist": result.checklist.name,
        "checklist_source": result.checklist.source,
        "water_borders": result.water_borders,
        "passed": result.passed,
        "failed": list(result.failed),
        "items": [item_dict(r) for r in result.items],
    }


def fit_text(answer: FitAnswer) -> str:
    """The answer to a fit question as ``exactgrid fit`` prints it (:meth:`FitAnswer.text`)."""
    return answer.text()


def fit_dict(answer: FitAnswer) -> dict[str, Any]:
    """The answer to a fit question as ``fit --json`` prints it (:meth:`FitAnswer.to_dict`)."""
    return answer.to_dict()


# --------------------------------------------------------------------------- solve


def search_progress_line(stats: SearchStats, awards: Sequence[str] = ()) -> str:
    """The news of a running search for its progress line: best score, words, awards met,
    improvements, proposals scored per second (the progress line adds the time)."""
    best = ("no grid yet" if stats.best_score is None
            else f"best {stats.best_score:,} ({plural(len(stats.best_found), 'word')})")
    met = f" · awards {' '.join(awards)}" if awards else ""
    rate = f"{stats.rate / 1000:,.0f}k" if stats.rate >= 1000 else f"{stats.rate:,.0f}"  # the finder's: hundreds
    return f"{best}{met} · {plural(stats.improvements, 'improvement')} · {rate} grids/s"


def solve_text(answer: SolveAnswer) -> str:
    """A solve answer as ``exactgrid solve`` prints it (:meth:`SolveAnswer.text`)."""
    return answer.text()


def solve_dict(answer: SolveAnswer) -> dict[str, Any]:
    """A solve answer as ``solve --json`` prints it (:meth:`SolveAnswer.to_dict`)."""
    return answer.to_dict()
