"""Award items as hard constraints (exactgrid.question.checklist_question): a target item
(20S, 200M) counts every state at its population, so it is merged into a question only when
that question scores the same set, or nothing of its own yet."""

import json

import pytest
from click.testing import CliRunner

from exactgrid.cli import cli
from exactgrid.data.us import us_states
from exactgrid.question import Question, SpecError, checklist_question, choose_checklist

TARGETS = choose_checklist(None, ["20S", "200M"])


def test_targets_count_every_state_at_its_population():
    asked = checklist_question(Question(required=["OHIO"], forbidden=["TEXAS"]), TARGETS)
    assert (asked.min_count, asked.min_score) == (20, 200_000_000)
    every = {w: p for w, p in us_states().weights.items() if w not in ("OHIO", "TEXAS")}
    assert dict(asked.optional) == every
    assert asked.scoring_weights()["OHIO"] == us_states().weight("OHIO")


def test_a_question_scoring_every_state_keeps_the_stronger_of_two_minimums():
    asked = checklist_question(Question(optional="all", min_score=250_000_000, min_count=3), TARGETS)
    assert (asked.min_count, asked.min_score) == (20, 250_000_000)


@pytest.mark.parametrize("question", [
    {"optional": ["OHIO"]},                 # 20 states among {OHIO}: no grid, yet a grid of 20 exists
    {"optional": {"OHIO": 10**9}},          # Ohio alone would pass 200M
])
def test_a_target_over_another_scored_set_is_refused(question):
    with pytest.raises(SpecError, match="every word"):
        checklist_question(Question(**question), TARGETS)


def test_a_minimum_of_its_own_counts_every_state_so_it_merges_with_the_awards_targets():
    asked = checklist_question(Question(required=["OHIO"], min_score=5), TARGETS)
    assert (asked.min_count, asked.min_score) == (20, 200_000_000)
    assert set(asked.scoring_weights()) == set(us_states().weights)


def test_items_without_a_target_go_with_any_optional_words():
    asked = checklist_question(Question(optional=["OHIO"], min_score=5), choose_checklist(None, ["PA", "NOCAL"]))
    assert dict(asked.optional) == {"OHIO": us_states().weight("OHIO")} and asked.min_score == 5
    assert asked.required_words == ("PENNSYLVANIA",) and asked.forbidden == ("CALIFORNIA",)


def test_the_command_line_says_so_in_one_line():
    result = CliRunner().invoke(cli, ["fit", "--optional", "OHIO", "--award", "20S"])
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert result.output.count("\n") == 1 and "20S counts every word" in result.output
    result = CliRunner().invoke(cli, ["fit", "--optional", "OHIO", "--award", "20S", "--json"])
    assert result.exit_code == 2 and "20S counts every word" in json.loads(result.stdout)["error"]
