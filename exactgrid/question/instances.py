"""Instance files: TOML (and JSON lines with the same keys) naming a question, with a label
and the answer expected, merged with overrides the way the CLI merges its options."""

from __future__ import annotations

import inspect
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..data import BUILTIN_LISTS
from ..inputs import (
    InputError,
    check_big,
    check_flag,
    check_text,
    check_whole,
    parse_toml,
    read_text_file,
)
from .arguments import build_question
from .core import Question, Verdict
from .requirement import SpecError


@dataclass(frozen=True)
class Instance:
    """A question read from an instance file (or a table with the same keys), with its label."""

    question: Question
    name: str = ""
    description: str = ""
    expect: Verdict | None = None
    """What the file says the answer is (benchmarks check it); None when it says nothing."""
    source: str = ""


TABLE_KEYS = frozenset({
    "shape", "moves", "path", "budget", "require", "forbid", "cells", "optional", "words",
    "min_score", "min_count", "symmetry_breaking", "name", "description", "expect",
})
"""The keys of an instance table (a TOML file, or one JSON line of ``fit-many``)."""
EXPECTS = (Verdict.FITS.value, Verdict.DOES_NOT_FIT.value)
LIST_ARGUMENTS = ("requirements", "forbid", "optional", "cells")
"""Arguments of :func:`build_question` that overrides add to; other overrides replace."""


ARGUMENTS = frozenset(inspect.signature(build_question).parameters)
"""The arguments of :func:`build_question`, which an instance's overrides may give."""


def merge_arguments(base: Mapping[str, Any], overrides: Mapping[str, Any]) -> dict[str, Any]:
    """Arguments of :func:`build_question` from a base (an instance) and overrides (the command
    line): requirements, forbids, optional words and cells add up; any other override wins."""
    merged = dict(base)
    unknown = sorted(set(overrides) - ARGUMENTS)
    if unknown:
        raise SpecError(f"unknown question argument {', '.join(map(repr, unknown))}; the arguments are "
                        f"{', '.join(sorted(ARGUMENTS))}")
    for key, value in overrides.items():
        if key in LIST_ARGUMENTS:
            merged[key] = [*_as_list(merged.get(key)), *_as_list(value)]
        else:
            merged[key] = value
    return merged


def _as_list(value: Any) -> list[Any]:
    if value is None:
        return []
    return [value] if isinstance(value, str) else list(value)


def table_arguments(data: Mapping[str, Any], source: str = "<instance>",
                    directory: Path | None = None) -> dict[str, Any]:
    """An instance table, type-checked, as the keyword arguments of :func:`build_question`.

    Keys: ``shape = "5x5"``, ``moves``, ``path``, ``budget``, ``require = ["ILLINOIS:2", ...]``,
    ``forbid = [...]``, ``cells = ["P....", ...]`` (or one string), ``optional = ["all"]``,
    ``min_score``, ``min_count``, ``symmetry_breaking`` (true/false), ``words`` (``us-states``
    or a word-list file, relative to ``directory``), plus ``name``, ``description`` and
    ``expect`` ("fits" / "does not fit"), which are checked but not returned. SpecError
    names the source and key.
    """
    if not isinstance(data, Mapping):
        raise SpecError(f"{source}: an instance must be a table of keys, got {data!r}")
    unknown = set(data) - TABLE_KEYS
    if unknown:
        raise SpecError(f"{source}: unknown key(s) {', '.join(sorted(map(str, unknown)))}; "
                        f"known: {', '.join(sorted(TABLE_KEYS))}")
    try:
        _check_labels(data)
        return _arguments(data, directory)
    except InputError as err:
        raise SpecError(f"{source}: {err}") from None


def _check_labels(data: Mapping[str, Any]) -> None:
    """The keys that label an instance (name, description, expect) are well formed."""
    for key in ("name", "description"):
        if key in data:
            check_text(data[key], key)
    if "expect" in data and data["expect"] not in EXPECTS:
        raise SpecError(f"expect must be one of {', '.join(map(repr, EXPECTS))}, got {data['expect']!r}")


def _arguments(data: Mapping[str, Any], directory: Path | None) -> dict[str, Any]:
    """The question's keys of an instance table as :func:`build_question`'s arguments."""
    arguments: dict[str, Any] = {
        "requirements": _str_list(data, "require"),
        "forbid": _str_list(data, "forbid"),
        "optional": _str_list(data, "optional"),
    }
    if "cells" in data:
        arguments["cells"] = ["/".join(_str_list(data, "cells"))]
    for key, name in (("shape", "shape"), ("moves", "moves"), ("path", "path_rule")):
        if key in data:
            arguments[name] = check_text(data[key], key)
    if "words" in data:
        name = check_text(data["words"], "words")
        if not name.strip():
            raise SpecError(f"words names no list: give {' or '.join(map(repr, BUILTIN_LISTS))} or a file, "
                            f"got {name!r}")
        if name.lower() not in BUILTIN_LISTS and directory is not None:
            name = str(directory / name)
        arguments["words"] = name
    if "budget" in data:
        arguments["budget"] = check_whole(data["budget"], "budget")
    for key in ("min_score", "min_count"):
        if key in data:
            arguments[key] = check_big(data[key], key)
    if "symmetry_breaking" in data:
        arguments["symmetry_breaking"] = check_flag(data["symmetry_breaking"], "symmetry_breaking")
    return arguments


def question_from_table(data: Mapping[str, Any], source: str = "<instance>", directory: Path | None = None,
                        **overrides: Any) -> Instance:
    """An :class:`Instance` from a table of instance keys (see :func:`table_arguments`), with
    ``overrides`` (arguments of :func:`build_question`) merged in by :func:`merge_arguments`."""
    arguments = merge_arguments(table_arguments(data, source, directory), overrides)
    try:
        question = build_question(**arguments)
    except InputError as err:
        raise SpecError(f"{source}: {err}") from None
    expect = Verdict(data["expect"]) if "expect" in data else None
    return Instance(question, data.get("name", ""), data.get("description", ""), expect, source)


def load_instance(path: str | Path, **overrides: Any) -> Instance:
    """Read a TOML instance file (keys: :func:`table_arguments`) into an :class:`Instance`;
    ``overrides`` (arguments of :func:`build_question`) are merged as the CLI merges its options:
    requirements, forbids, optional words and cells add to the file's, anything else wins.
    """
    text = read_text_file(path, "instance file")
    try:
        data = parse_toml(text)
    except ValueError as err:  # see parse_toml
        raise SpecError(f"{path}: not valid TOML: {err}") from None
    return question_from_table(data, str(path), Path(path).parent, **overrides)


def _str_list(data: Mapping[str, Any], key: str) -> list[str]:
    value = data.get(key, [])
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise SpecError(f"{key} must be a string or a list of strings, got {value!r}")
    return value
