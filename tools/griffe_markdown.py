"""A griffe extension for the documentation site (mkdocs.yml): the docstrings' reST to Markdown.

The docstrings are written for readers of the source and for ``help()``, in reST's few habits:
Sphinx roles naming other objects (``:class:`~exactgrid.geometry.Board```, ``:func:`fit```,
``:mod:`.session```), doctest blocks (``>>> ...``) and literal blocks after ``::``. The API
reference renders docstrings as Markdown, where those would show the role literally, read a
doctest's ``[...]`` output as a link, and keep the ``::``. This extension rewrites them when
the package is loaded:

* a role becomes an *optional* autorefs cross-reference: a link when the object has a page in
  the API reference, plain code text otherwise (docstrings also name private helpers and
  modules the reference leaves out, so an unresolved role is not an error; the pages' own
  ``[name][identifier]`` references are). Names resolve as Sphinx and Python would: ``~``
  shows the last component only; ``.x`` is relative to the module's package; a bare or dotted
  name is looked up in the docstring owner's scope (its class, its module, their imports);
* a doctest block (from a ``>>>`` line to the next blank line) is fenced as ``pycon``;
* a paragraph ending in ``::`` ends in ``:`` (the indented block after it is already a
  Markdown code block).
"""

from __future__ import annotations

import re
from typing import Any

import griffe

ROLE = re.compile(r":(?:py:)?(?:mod|class|func|meth|data|attr|exc|obj|const):`(~?)([^`<>]+?)(?:\(\))?`")
DOCTEST = re.compile(r"^([ \t]*)>>> .*?(?=\n[ \t]*\n|\Z)", re.M | re.S)


def resolve(obj: griffe.Object, name: str) -> str:
    """The full path ``name`` means in ``obj``'s docstring, or ``name`` when it means nothing known."""
    if name.startswith("."):
        module = obj.module
        package = module.path if module.is_init_module or module.parent is None else module.parent.path
        rest = name.lstrip(".")
        for _ in range(len(name) - len(rest) - 1):
            package = package.rpartition(".")[0]
        return f"{package}.{rest}"
    if name == "exactgrid" or name.startswith("exactgrid."):
        return name
    first, _, rest = name.partition(".")
    try:
        found = obj.resolve(first)
    except (griffe.NameResolutionError, ValueError, KeyError):
        return name
    return f"{found}.{rest}" if rest else found


def crossref(obj: griffe.Object, match: re.Match[str]) -> str:
    """The optional autorefs reference that replaces one role."""
    short, name = match.group(1), match.group(2).strip()
    title = name.rpartition(".")[2] if short else name.lstrip(".")
    return f'<autoref identifier="{resolve(obj, name)}" optional><code>{title}</code></autoref>'


def fence(match: re.Match[str]) -> str:
    """One doctest block, fenced."""
    indent = match.group(1)
    return f"{indent}```pycon\n{match.group(0)}\n{indent}```"


def markdown(obj: griffe.Object, text: str) -> str:
    """A docstring's text, its reST habits rewritten (see the module doc)."""
    text = DOCTEST.sub(fence, text)
    parts = re.split(r"(^[ \t]*```.*?^[ \t]*```)", text, flags=re.M | re.S)  # leave code alone
    for i in range(0, len(parts), 2):
        parts[i] = ROLE.sub(lambda m: crossref(obj, m), parts[i])
        parts[i] = re.sub(r"(\S)::$", r"\1:", parts[i], flags=re.M)
    return "".join(parts)


class SphinxToMarkdown(griffe.Extension):
    """Rewrite every docstring of the loaded package (see the module doc)."""

    def on_package(self, *, pkg: griffe.Module, **kwargs: Any) -> None:
        """Rewrite the docstrings of ``pkg`` and of everything it defines, once it is loaded."""
        todo: list[griffe.Object] = [pkg]
        while todo:
            obj = todo.pop()
            if obj.docstring is not None:
                obj.docstring.value = markdown(obj, obj.docstring.value)
            todo.extend(member for member in obj.members.values() if not member.is_alias)
