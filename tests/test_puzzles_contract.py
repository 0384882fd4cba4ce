"""The puzzles' answers meet the one answer contract (exactgrid.answer): outcome, exit code,
to_dict starting with the contract's keys, one time limit from the call, on_progress, and
Ctrl-C (here: a KeyboardInterrupt raised by the progress callback) answering with what was
found so far, never raising.

Known answers: Letter Boxed with ENABLE, ``vro wal eth bdi`` 2 words and ``xoy tws apv kri`` 3
(the reference folder's README, as in test_letterboxed); Sum of Squares n = 5, 205 (seed 004);
Trackword ``set/err/vei`` 59 ENABLE words (seed 22.3) and the best 2x3 grid for STARES, worked
out here by brute force over every arrangement of its letters.
"""

from __future__ import annotations

import itertools
import json

import pytest
from click.testing import CliRunner

import exactgrid as eg
from exactgrid import finder
from exactgrid.answer import DEFAULT_TIME_LIMIT, Outcome, ProgressEvent
from exactgrid.cli import cli
from exactgrid.data.enable import enable
from exactgrid.geometry import Board
from exactgrid.grid import Grid
from exactgrid.puzzles import letterboxed as lb
from exactgrid.puzzles import sumsquares as ss
from exactgrid.puzzles import trackword as tw
from exactgrid.words import WordList

CONTRACT = ["outcome", "seconds", "stopped_by", "exit_code"]
BEST_5 = "98999/99998/79899/99896/89890"
STARES_WORDS = WordList(dict.fromkeys(["STARES", "TEAS", "SEAT", "EATS", "RATES", "STAR", "ARTS", "TSAR", "ERA",
                                       "SEA", "TEA", "ATE", "EAR", "ARE", "RAT", "TAR", "ART", "ASS", "SET", "REST"],
                                      1))


@pytest.fixture(scope="module")
def words():
    """ENABLE, loaded once."""
    return enable()


def interrupt_at(number: int, events: list[ProgressEvent]):
    """An on_progress that records events and raises KeyboardInterrupt (as Ctrl-C would) at event ``number``."""

    def on_progress(event: ProgressEvent) -> None:
        events.append(event)
        if len(events) == number:
            raise KeyboardInterrupt

    return on_progress


def json_round_trip(answer) -> dict:
    data = json.loads(json.dumps(answer.to_dict()))
    assert list(data)[:4] == CONTRACT
    assert data["outcome"] == answer.outcome.value and data["exit_code"] == answer.exit_code
    return data


# --------------------------------------------------------------------------- eg.puzzles


def test_the_puzzles_are_reachable_from_eg():
    assert eg.puzzles.letterboxed.solve_letter_boxed is lb.solve_letter_boxed
    assert eg.puzzles.trackword.build_grid is tw.build_grid
    assert eg.puzzles.sumsquares.solve_sum_of_squares is ss.solve_sum_of_squares
    assert {"letterboxed", "trackword", "sumsquares"} <= set(dir(eg.puzzles))
    with pytest.raises(AttributeError, match="no attribute 'crossword'"):
        _ = eg.puzzles.crossword


def test_every_entry_point_has_the_default_time_limit():
    import inspect

    for function in (lb.solve_letter_boxed, lb.solve_by_search, lb.solve_by_ilp, tw.build_grid,
                     ss.solve_sum_of_squares, ss.solve_ilp):
        parameters = inspect.signature(function).parameters
        assert parameters["time_limit"].default == DEFAULT_TIME_LIMIT, function.__name__
        assert "on_progress" in parameters, function.__name__


# --------------------------------------------------------------------------- Letter Boxed


def test_letterboxed_proven_fewest_is_optimal(words):
    events: list[ProgressEvent] = []
    answer = lb.solve_letter_boxed("xoy tws apv kri", words, on_progress=events.append)
    assert answer.outcome == Outcome.OPTIMAL and answer.exit_code == 0 and answer.fewest == 3
    assert [e.bound for e in events if e.kind == "round"] == [1, 2, 3]  # no solution of 1 or 2 words
    data = json_round_trip(answer)
    assert data["fewest"] == 3 and data["proven"] is True and data["stopped_by"] is None


def test_letterboxed_none_within_the_limit_does_not_fit(words):
    answer = lb.solve_letter_boxed("vro wal eth bdi", words, max_words=1)
    assert answer.outcome == Outcome.DOES_NOT_FIT and answer.exit_code == 1 and not answer.solved
    assert "fewest words: no solution within 1 word (proven)" in answer.text()


def test_letterboxed_out_of_time_is_unknown(words):
    answer = lb.solve_letter_boxed("xoy tws apv kri", words, time_limit=0)
    assert answer.outcome == Outcome.UNKNOWN and answer.exit_code == 3 and answer.stopped_by is None
    assert "fewest words: unknown (the time limit came first)" in answer.text()
    assert lb.solve_letter_boxed("vro wal eth bdi", words, time_limit=None).fewest == 2


def test_letterboxed_ctrl_c_in_the_search_answers_unknown(words):
    events: list[ProgressEvent] = []
    answer = lb.solve_letter_boxed("xoy tws apv kri", words, on_progress=interrupt_at(3, events))
    # event 1: the plan; 2: the round of 1 word; 3: the round of 2 words (interrupted)
    assert answer.stopped_by == "Ctrl-C" and answer.outcome == Outcome.UNKNOWN and answer.exit_code == 3
    assert "interrupted (Ctrl-C) in the round of 2 words" in answer.how
    assert json_round_trip(answer)["stopped_by"] == "Ctrl-C"


def test_letterboxed_ctrl_c_in_the_ilp_of_both_keeps_the_search_proof(words):
    events: list[ProgressEvent] = []
    answer = lb.solve_letter_boxed("vro wal eth bdi", words, method="both", on_progress=interrupt_at(5, events))
    # 1 plan, 2-3 search rounds of 1 and 2 words, 4-5 ILP k = 1 and 2 (interrupted)
    assert events[-1].message.startswith("ILP on cbc")
    assert answer.fewest == 2 and answer.proven and answer.outcome == Outcome.OPTIMAL
    assert answer.stopped_by == "Ctrl-C" and answer.exit_code == 3
    assert "the ILP did not finish" in answer.how


def test_letterboxed_solution_not_proven_is_feasible():
    box = lb.LetterBox.parse("vro wal eth bdi")
    answer = lb.LetterBoxedAnswer(box, ("BLOWHARD", "DATIVE"), 2, False, "made up", "search", 0.0, 919)
    assert answer.outcome == Outcome.FEASIBLE and answer.exit_code == 0
    assert "fewest words: 2 (not proven fewest)" in answer.text()


# --------------------------------------------------------------------------- Trackword


def test_trackword_list_is_a_complete_answer():
    answer = tw.list_words("set/err/vei")
    assert answer.count == 59 and answer.outcome == Outcome.OPTIMAL and answer.exit_code == 0
    assert json_round_trip(answer)["count"] == 59


def brute_force_best_stares() -> int:
    """The most words of STARES_WORDS in a 2x3 grid holding STARES, over every arrangement."""
    board, best = Board(2, 3), 0
    listed = [w for w in STARES_WORDS if len(w) <= 6]
    for letters in set(itertools.permutations("STARES")):
        grid = Grid(board, "".join(letters))
        if finder.is_found(grid, "STARES", 0, "simple"):
            best = max(best, len(finder.found_words(grid, listed, 0, "simple")))
    return best


def test_trackword_build_is_optimal_and_takes_a_shape():
    built = tw.build_grid("stares", STARES_WORDS, 3, 6, "2x3")
    assert built.count == brute_force_best_stares()
    assert built.outcome == Outcome.OPTIMAL and built.proven and built.exit_code == 0
    data = json_round_trip(built)
    assert data["count"] == built.count and data["answer"]["outcome"] == "optimal"


def test_trackword_build_ctrl_c_gives_the_best_scored_or_unknown():
    events: list[ProgressEvent] = []
    built = tw.build_grid("stares", STARES_WORDS, 3, 6, "2x3", on_progress=interrupt_at(2, events))
    # event 1: how many grids; 2: the first grid scored, a better one (interrupted there, and kept)
    assert [e.kind for e in events] == ["progress", "improvement"] and built.tried == 1
    assert built.stopped_by == "Ctrl-C" and built.outcome == Outcome.FEASIBLE and built.exit_code == 3
    assert built.count == events[-1].best <= brute_force_best_stares() and "not proven best" in built.how
    assert finder.is_found(built.grid, "STARES", 0, "simple")
    nothing = tw.build_grid("stares", STARES_WORDS, 3, 6, "2x3", on_progress=interrupt_at(1, []))
    assert nothing.outcome == Outcome.UNKNOWN and nothing.grid is None and nothing.exit_code == 3
    assert json_round_trip(nothing)["grid"] is None and "no grid" in nothing.text()


def test_trackword_build_out_of_time_is_unknown():
    built = tw.build_grid("stares", STARES_WORDS, 3, 6, "2x3", time_limit=0)
    assert built.outcome == Outcome.UNKNOWN and built.exit_code == 3 and built.stopped_by is None
    assert "time limit ran out before any grid" in built.how


# --------------------------------------------------------------------------- Sum of Squares


def test_sumsquares_optimum_and_progress():
    events: list[ProgressEvent] = []
    answer = ss.solve_sum_of_squares(5, method="dp", on_progress=events.append)
    assert answer.outcome == Outcome.OPTIMAL and answer.exit_code == 0 and answer.total == 205
    assert answer.grid == tuple(BEST_5.split("/"))
    bounds = [e.bound for e in events if e.kind == "round"]
    assert len(bounds) == 5 and all(b >= 205 for b in bounds) and bounds == sorted(bounds, reverse=True)
    assert json_round_trip(answer)["status"] == "optimal"


def test_sumsquares_out_of_time_is_unknown_and_best_found_is_feasible():
    answer = ss.solve_sum_of_squares(5, method="dp", time_limit=0)
    assert answer.outcome == Outcome.UNKNOWN and answer.exit_code == 3 and answer.bound >= 205
    found = ss.SumSquaresAnswer(2, ("00", "00"), 0, "best found", "made up", 34, 0.0)
    assert found.outcome == Outcome.FEASIBLE and found.exit_code == 0 and not found.proven


def test_sumsquares_ctrl_c_in_the_dp_answers_with_a_bound():
    answer = ss.solve_sum_of_squares(5, method="dp", on_progress=interrupt_at(3, []))
    # event 1: the plan; 2, 3: DP columns 1 and 2 (interrupted)
    assert answer.stopped_by == "Ctrl-C" and answer.outcome == Outcome.UNKNOWN and answer.exit_code == 3
    assert answer.bound >= 205 and answer.grid == () and "interrupted (Ctrl-C) at cell 1,2" in answer.how


def test_sumsquares_ctrl_c_in_the_ilp_of_both_keeps_the_dp_optimum():
    events: list[ProgressEvent] = []
    answer = ss.solve_sum_of_squares(5, on_progress=interrupt_at(7, events))
    # 1 plan, 2-6 DP columns, 7 the ILP's start (interrupted)
    assert events[-1].message.startswith("ILP on cbc")
    assert answer.total == 205 and answer.outcome == Outcome.OPTIMAL
    assert answer.stopped_by == "Ctrl-C" and answer.exit_code == 3


# --------------------------------------------------------------------------- through the CLI


def test_cli_json_starts_with_the_contract():
    for args in (["letterboxed", "vro wal eth bdi"], ["sumsquares", "--n", "3", "--method", "dp"],
                 ["words", "set/err/vei"]):
        result = CliRunner().invoke(cli, [*args, "--json"])
        data = json.loads(result.stdout)
        assert list(data)[:4] == CONTRACT and data["exit_code"] == result.exit_code == 0, args


def test_sumsquares_ilp_out_of_time_says_the_time_ran_out(monkeypatch):
    """A backend that gives up (CBC's "Not Solved" at its time limit) is no grid *before the
    time limit ran out*, UNKNOWN: never read as "no grid" (the all-zero grid keeps every rule)."""
    from tests import racers

    monkeypatch.setattr(ss, "get_backend", lambda name: racers.InProcessUndecided())
    answer = ss.solve_sum_of_squares(3, method="ilp", time_limit=30)
    assert answer.outcome == Outcome.UNKNOWN and answer.exit_code == 3 and answer.grid == ()
    assert "no grid found before the time limit ran out (gives up)" in answer.how, answer.how


def test_letterboxed_ilp_out_of_time_names_the_time_limit_not_a_number(words, monkeypatch):
    """The ILP's round that ran out of time says so (it used to print what was left of the
    clock as the limit: "the 0 s time limit")."""
    import exactgrid.backends
    from tests import racers

    monkeypatch.setattr(exactgrid.backends, "get_backend", lambda name: racers.InProcessUndecided())
    answer = lb.solve_letter_boxed("vro wal eth bdi", words, method="ilp", time_limit=30)
    assert answer.outcome == Outcome.UNKNOWN and answer.exit_code == 3
    assert "k=1 unknown (the time limit ran out)" in answer.how, answer.how


def test_sumsquares_ilp_whose_solver_died_does_not_blame_the_time_limit(monkeypatch):
    from exactgrid.backends import Result, Status
    from tests import racers

    class Died(racers.InProcessUndecided):
        def _solve(self, model, time_limit, seed):
            return Result(Status.UNKNOWN, detail="its process was killed by SIGKILL")

    monkeypatch.setattr(ss, "get_backend", lambda name: Died())
    answer = ss.solve_sum_of_squares(3, method="ilp", time_limit=30)
    assert answer.outcome == Outcome.UNKNOWN
    assert "no grid found (its process was killed by SIGKILL)" in answer.how, answer.how
