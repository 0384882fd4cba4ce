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
