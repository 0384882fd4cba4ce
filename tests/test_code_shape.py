"""Readable code: no function of exactgrid longer than :data:`MAX_LINES` lines of code (its
docstring not counted: documentation is not what makes a function hard to read), and none that
ruff's complexity rule (C901, at most 15: ``pyproject.toml``) would flag, unless its docstring
says why it is one function (a paragraph starting :data:`REASON`).

ruff checks the complexity itself in ``.ci/run``; this test checks the length (which ruff does
not) and that every ``noqa: C901`` comes with the reason.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "exactgrid"
MAX_LINES = 60
REASON = "Why one function:"


def _functions() -> list[tuple[str, ast.FunctionDef | ast.AsyncFunctionDef, list[str]]]:
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        lines = text.splitlines()
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                found.append((f"{path.relative_to(PACKAGE.parent)}:{node.lineno} {node.name}", node, lines))
    return found


def _code_lines(node: ast.FunctionDef | ast.AsyncFunctionDef) -> int:
    """Lines from ``def`` to the end, less the docstring's."""
    lines = node.end_lineno - node.lineno + 1
    first = node.body[0]
    if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str):
        lines -= first.end_lineno - first.lineno + 1
    return lines


def _has_reason(node: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    return REASON in (ast.get_docstring(node) or "")


def test_no_function_is_long_without_a_reason() -> None:
    long = [f"{where} ({_code_lines(node)} lines)" for where, node, _ in _functions()
            if _code_lines(node) > MAX_LINES and not _has_reason(node)]
    assert not long, f"functions over {MAX_LINES} lines without '{REASON}' in their docstring: {long}"


def test_every_complexity_exemption_says_why() -> None:
    silent = [where for where, node, lines in _functions()
              if "noqa: C901" in lines[node.lineno - 1] and not _has_reason(node)]
    assert not silent, f"'noqa: C901' without '{REASON}' in the docstring: {silent}"


def test_the_shape_rules_can_fail(tmp_path: Path) -> None:
    body = "\n".join(f"    x{i} = {i}" for i in range(MAX_LINES))
    tree = ast.parse(f"def long():\n    '''No reason.'''\n{body}\n")
    (node,) = tree.body
    assert isinstance(node, ast.FunctionDef) and _code_lines(node) == MAX_LINES + 1
    assert not _has_reason(node)
