"""Every example in README.md and docs/*.md is run, and every link between them is followed.

* **Commands.** In a fenced block, a line ``$ exactgrid ...`` is run (in-process, from the
  repository's root) and its output compared with the lines after it, up to the next
  ``$ exactgrid`` line or the end of the block. In an expected line, ``...`` matches any text
  (timings, sizes); a line that is only ``...`` matches any number of lines. The exit status
  is checked too: the expected lines may end with ``[exit N]``; otherwise 0 is expected.
* **Python.** Every ```` ```python ```` block is executed in a fresh namespace, from the
  repository's root; it passes when it raises nothing.
* **Not run.** A block whose previous non-blank line is ``<!-- no-run -->`` is neither run nor
  executed: for the few examples that need a cluster or minutes. Slow commands can also be
  shown in a plain block without the ``$ exactgrid`` prompt. Keep every runnable example to a
  second or two: this whole file runs on every CI run.
* **Links.** Every relative link of these pages names a file of the repository and, with a
  ``#fragment``, a heading of that page (GitHub's anchors).
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass
from pathlib import Path

import pytest
from click.testing import CliRunner

from exactgrid.cli import cli

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
NO_RUN = "<!-- no-run -->"
PENDING_PAGES: set[str] = set()
"""Pages linked from these docs but written on another branch: a link to one is not followed
until the page exists here. Remove a name once its page has landed."""


@dataclass(frozen=True)
class Block:
    """One fenced code block of a page."""

    page: str
    line: int
    language: str
    lines: tuple[str, ...]
    run: bool

    @property
    def where(self) -> str:
        return f"{self.page}:{self.line}"


def blocks(path: Path) -> list[Block]:
    """The fenced blocks of a Markdown page, with the 1-based line of their opening fence."""
    found: list[Block] = []
    lines = path.read_text(encoding="utf-8").split("\n")
    previous = ""
    i = 0
    while i < len(lines):
        fence = re.fullmatch(r"(```+)\s*([\w+-]*).*", lines[i])
        if fence is None:
            if lines[i].strip():
                previous = lines[i].strip()
            i += 1
            continue
        end = next((j for j in range(i + 1, len(lines)) if lines[j].startswith(fence.group(1))), None)
        assert end is not None, f"{path.name}:{i + 1}: a code block is never closed"
        found.append(Block(str(path.relative_to(ROOT)), i + 1, fence.group(2), tuple(lines[i + 1 : end]),
                           previous != NO_RUN))
        previous = ""
        i = end + 1
    return found


@dataclass(frozen=True)
class Command:
    """One ``$ exactgrid ...`` example: the command, the lines it must print, its exit status."""

    where: str
    command: str
    expected: tuple[str, ...]
    status: int


def commands(block: Block) -> list[Command]:
    """The command examples of one block."""
    lines = list(block.lines)
    starts = [i for i, line in enumerate(lines) if line.startswith("$ exactgrid ")]
    found = []
    for n, start in enumerate(starts):
        end = starts[n + 1] if n + 1 < len(starts) else len(lines)
        expected = lines[start + 1 : end]
        while expected and not expected[-1].strip():
            expected.pop()
        status = 0
        if expected and re.fullmatch(r"\[exit \d+\]", expected[-1]):
            status = int(expected.pop()[6:-1])
            while expected and not expected[-1].strip():
                expected.pop()
        found.append(Command(f"{block.page}:{block.line + 1 + start}", lines[start][2:], tuple(expected), status))
    return found


def matches(expected: list[str], actual: list[str]) -> bool:
    """Whether the actual lines fit the expected ones (``...`` wildcards, see the module doc)."""
    if not expected:
        return not actual
    head, rest = expected[0], expected[1:]
    if head == "...":
        return any(matches(rest, actual[i:]) for i in range(len(actual) + 1))
    if not actual:
        return False
    pattern = ".*".join(re.escape(part) for part in head.rstrip().split("..."))
    return re.fullmatch(pattern, actual[0].rstrip()) is not None and matches(rest, actual[1:])


BLOCKS = [block for page in PAGES for block in blocks(page)]
COMMANDS = [command for block in BLOCKS if block.run for command in commands(block)]
PYTHON = [block for block in BLOCKS if block.run and block.language == "python"]


def test_the_pages_have_examples():
    assert len(COMMANDS) >= 10 and len(PYTHON) >= 5
    assert {block.page for block in PYTHON} >= {"README.md", "docs/guide.md"}
    skipped = [block.where for block in BLOCKS if not block.run]
    assert len(skipped) <= 3, f"no-run is for the exception, not the rule: {skipped}"


@pytest.mark.parametrize("example", COMMANDS, ids=[f"{c.where} {c.command[:60]}" for c in COMMANDS])
def test_command_example(example: Command, monkeypatch):
    monkeypatch.chdir(ROOT)
    result = CliRunner().invoke(cli, shlex.split(example.command)[1:])
    actual = result.output.rstrip("\n").split("\n")
    assert result.exit_code == example.status, result.output
    assert matches(list(example.expected), actual), "\n".join(actual)


@pytest.mark.parametrize("block", PYTHON, ids=[block.where for block in PYTHON])
def test_python_example(block: Block, monkeypatch):
    monkeypatch.chdir(ROOT)
    code = compile("\n".join(block.lines) + "\n", block.where, "exec")
    exec(code, {"__name__": "__docs__"})


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"[`*_]|\[([^\]]*)\]\([^)]*\)", r"\1", heading.strip().lower())
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors(path: Path) -> set[str]:
    """The anchors of a page's headings (outside code blocks)."""
    text = re.sub(r"^```.*?^```", "", path.read_text(encoding="utf-8"), flags=re.S | re.M)
    return {slug(m.group(1)) for m in re.finditer(r"^#+\s+(.*)$", text, flags=re.M)}


LINKS = [(page, target) for page in PAGES
         for target in re.findall(r"\]\(([^)\s]+)\)", re.sub(r"^```.*?^```", "", page.read_text(encoding="utf-8"),
                                                             flags=re.S | re.M))
         if not re.match(r"[a-z]+:", target)]


@pytest.mark.parametrize("page,target", LINKS, ids=[f"{p.relative_to(ROOT)}->{t}" for p, t in LINKS])
def test_links_lead_somewhere(page: Path, target: str):
    name, _, fragment = target.partition("#")
    path = (page.parent / name).resolve() if name else page
    if str(path.relative_to(ROOT)) in PENDING_PAGES and not path.exists():
        pytest.skip(f"{name} is written on another branch")
    assert path.exists(), f"{page.name}: {target} names no file"
    if fragment:
        assert fragment in anchors(path), f"{page.name}: {target}: no such heading in {path.name}"
