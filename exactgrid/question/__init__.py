"""Fit questions: which words must (or must not) appear, and how; validated on construction.

A :class:`Question` is the puzzle (board, path rule, budget, word list), the words that must
appear (each a :class:`Requirement`, its alteration pinned down or not), words that must not
appear at all, fixed cells and letter domains, and optional weighted words with a minimum
total weight and/or count. Every constructor checks what it is given and raises an
:class:`~exactgrid.inputs.InputError` with the same one-line message the CLI prints; a
Question is frozen and hashable.

User-level text (``ILLINOIS``, ``ILLINOIS:exact``, ``ILLINOIS:2``, ``ILLINOIS:2=N``,
``ILLINOIS=INLINOIS``, rows of cells with ``[ABC]`` for a choice of letters) is read by
:func:`parse_requirement`, :func:`parse_cell_letters` and :func:`build_question`; TOML
instance files (and JSON lines with the same keys) by :func:`load_instance` /
:func:`question_from_table`, which also merge overrides the way the CLI does (lists add,
other options win).

The subpackage, by job: :mod:`.requirement` (a Requirement and the requirement and cell
syntax), :mod:`.core` (the Question), :mod:`.arguments` (a Question from the CLI's words),
:mod:`.instances` (instance files) and :mod:`.checklists` (awards as constraints). Every
name is importable from ``exactgrid.question`` as before.
"""

from .arguments import build_question
from .checklists import checklist_question, choose_checklist
from .core import ASKS_NOTHING, Chain, Question, Verdict
from .instances import (
    EXPECTS,
    LIST_ARGUMENTS,
    TABLE_KEYS,
    Instance,
    load_instance,
    merge_arguments,
    question_from_table,
    table_arguments,
)
from .requirement import (
    MODES,
    Mode,
    Requirement,
    SpecError,
    merge_cell_letters,
    merge_fixed,
    parse_cell_letters,
    parse_cells,
    parse_requirement,
)

__all__ = [
    "ASKS_NOTHING", "EXPECTS", "LIST_ARGUMENTS", "MODES", "TABLE_KEYS", "Chain", "Instance", "Mode", "Question",
    "Requirement", "SpecError", "Verdict", "build_question", "checklist_question", "choose_checklist",
    "load_instance", "merge_arguments", "merge_cell_letters", "merge_fixed", "parse_cell_letters", "parse_cells",
    "parse_requirement", "question_from_table",
    "table_arguments",
]
