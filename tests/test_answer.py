"""The one answer contract: outcomes, exit codes, and the old Verdict spelling."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest

import exactgrid as eg
from exactgrid.answer import EXIT_CODES, STOPPED_EXIT, Answer, Outcome


@dataclass
class _Toy(Answer):
    outcome: Outcome
    seconds: float = 1.23456
    stopped_by: str | None = None

    def text(self) -> str:
        return self.outcome.value

    def to_dict(self) -> dict[str, Any]:
        return self.contract_dict()


def test_every_outcome_has_its_exit_code() -> None:
    assert set(EXIT_CODES) == set(Outcome)
    assert [o.exit_code for o in Outcome] == [0, 1, 0, 0, 0, 3]


@pytest.mark.parametrize("stopped_by", ["Ctrl-C", "SIGTERM", "SIGHUP"])
def test_an_interrupted_answer_exits_3_whatever_it_found(stopped_by: str) -> None:
    assert _Toy(Outcome.FEASIBLE, stopped_by=stopped_by).exit_code == STOPPED_EXIT
    assert _Toy(Outcome.FEASIBLE, stopped_by="time limit").exit_code == 0


def test_contract_keys_are_plain_json() -> None:
    assert _Toy(Outcome.DOES_NOT_FIT).to_dict() == {"outcome": "does not fit", "seconds": 1.235, "stopped_by": None,
                                                    "exit_code": 1}


def test_verdict_is_the_old_name_of_outcome() -> None:
    assert eg.Verdict is Outcome is eg.Outcome
    assert eg.Verdict.FITS == "fits" and Outcome("does not fit") is Outcome.DOES_NOT_FIT
    assert Outcome.OPTIMAL.proven and not Outcome.BOUNDED.proven and not Outcome.FEASIBLE.proven


def test_check_answers_with_the_contract_and_still_unpacks() -> None:
    answer = eg.check("thoainesl")
    result, verdict = answer
    assert result.total == 32_913_047 and answer[1] is verdict
    assert answer.outcome == Outcome.DOES_NOT_FIT and answer.exit_code == 1  # QUALIFY and the awards fail
    data = answer.to_dict()
    assert data["outcome"] == "does not fit" and data["total"] == 32_913_047 and data["passed"] is False
    assert "FAIL" in answer.text() or "fail" in answer.text()


def test_check_refuses_words_that_are_not_states(tmp_path) -> None:
    listed = tmp_path / "words.txt"
    listed.write_text("OHIO\nTHO\n", encoding="utf-8")
    with pytest.raises(eg.InputError, match="the grid holds THO, which is not one"):
        eg.check("thoainesl", words=listed, budget=0)


def test_eg_puzzles_is_reachable() -> None:
    assert eg.puzzles.__name__ == "exactgrid.puzzles"


def test_every_answer_but_solves_is_frozen_as_reference_md_says() -> None:
    import dataclasses
    import importlib
    import pkgutil

    import exactgrid

    for module in pkgutil.walk_packages(exactgrid.__path__, "exactgrid."):  # every answer class defined
        if not module.name.startswith(("exactgrid.fit.", "exactgrid.solve.")) and module.name not in (
                "exactgrid.fit", "exactgrid.solve", "exactgrid.encode", "exactgrid.__main__"):
            importlib.import_module(module.name)
    answers, todo = set(), [Answer]
    while todo:
        for sub in todo.pop().__subclasses__():
            todo.append(sub)
            if sub.__module__.startswith("exactgrid."):
                answers.add(sub)
    names = {cls.__name__ for cls in answers}
    assert {"ScoreAnswer", "FitAnswer", "AwardConflict", "BoundAnswer", "TrackwordAnswer", "SolveAnswer"} <= names
    assert all(dataclasses.is_dataclass(cls) for cls in answers)
    thawed = {cls.__name__ for cls in answers if not cls.__dataclass_params__.frozen}
    assert thawed == {"SolveAnswer"}
