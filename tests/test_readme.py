"""Every ``$ exactgrid ...`` example in the README is run and its output compared.

In an expected block, ``...`` inside a line matches any text (timings, sizes) and a line that
is only ``...`` matches any number of lines. The exit status is checked too: a block may end
with ``[exit N]``; otherwise 0 is expected.
"""

import re
import shlex
from pathlib import Path

import pytest
from click.testing import CliRunner

from exactgrid.cli import cli

README = Path(__file__).resolve().parents[1] / "README.md"


def readme_examples() -> list[tuple[str, list[str], int]]:
    examples = []
    for block in re.findall(r"```[a-z]*\n(.*?)```", README.read_text(encoding="utf-8"), flags=re.S):
        lines = block.rstrip("\n").split("\n")
        starts = [i for i, line in enumerate(lines) if line.startswith("$ exactgrid ")]
        for n, start in enumerate(starts):
            end = starts[n + 1] if n + 1 < len(starts) else len(lines)
            expected = lines[start + 1 : end]
            status = 0
            if expected and re.fullmatch(r"\[exit \d+\]", expected[-1]):
                status = int(expected.pop()[6:-1])
            examples.append((lines[start][2:], expected, status))
    return examples


def matches(expected: list[str], actual: list[str]) -> bool:
    if not expected:
        return not actual
    head, rest = expected[0], expected[1:]
    if head == "...":
        return any(matches(rest, actual[i:]) for i in range(len(actual) + 1))
    if not actual:
        return False
    pattern = ".*".join(re.escape(part) for part in head.split("..."))
    return re.fullmatch(pattern, actual[0].rstrip()) is not None and matches(rest, actual[1:])


EXAMPLES = readme_examples()


def test_readme_has_examples():
    assert len(EXAMPLES) >= 3


@pytest.mark.parametrize("command,expected,status", EXAMPLES, ids=[e[0][:60] for e in EXAMPLES])
def test_readme_example(command, expected, status):
    args = shlex.split(command)[1:]
    result = CliRunner().invoke(cli, args)
    actual = result.output.rstrip("\n").split("\n")
    assert result.exit_code == status, result.output
    assert matches(expected, actual), "\n".join(actual)
