"""exactgrid: exact answers to letter-grid puzzle questions (Altered States 2 and kin).

``import exactgrid as eg`` is all a user needs::

    import exactgrid as eg
    print(eg.score("thoainesl").total)                      # 32913047
    q = eg.Question(eg.Board(3, 3), required=["OHIO", "UTAH=ATAH"], forbidden=["TEXAS"])
    answer = eg.fit(q, time_limit=30)                       # a grid the finder has checked
    print(answer.verdict, answer.grid)

The names below are imported when first used (as networkx and SciPy do): importing a module
of the package, as every solver child process does, costs no more than that module needs.
"""

from __future__ import annotations

import importlib
from typing import Any

__version__ = "0.1.0"

_EXPORTS = {
    "answer": ("Answer", "Outcome", "ProgressEvent"),
    "api": ("CheckAnswer", "as_grid", "check", "fit", "score"),
    "awards": ("Checklist", "ChecklistResult", "default_checklist", "evaluate", "load_checklist"),
    "backends": ("Backend", "BackendError", "Status", "get_backend", "list_backends"),
    "data": ("word_list",),
    "data.us": ("us_states",),
    "encode": ("Encoding", "encode"),
    "fastscore": ("Scorer",),
    "finder": ("Match", "Score", "find", "is_found"),
    "fit": ("Explanation", "FitAnswer", "ModelSize", "VerificationError"),
    "fit.many": ("fit_many",),
    "fit.session": ("FitSession", "explain"),
    "geometry": ("Board",),
    "grid": ("Grid", "parse_grid"),
    "inputs": ("InputError",),
    "prove.bound": ("BoundAnswer", "bound"),
    "prove.certify": ("Certificate", "certify_counting", "certify_refutation"),
    "prove.cores": ("CoreRefutation", "refute_by_cores"),
    "prove.exact": ("WordCore",),
    "prove.placement": ("Core",),
    "render.figure": ("PlotUnavailable", "show"),
    "render.picture": ("Picture", "picture_of"),
    "question": ("Chain", "Instance", "Question", "Requirement", "SpecError", "Verdict", "build_question",
                 "checklist_question", "load_instance", "question_from_table"),
    "solve": ("SolveAnswer", "solve"),
    "words": ("WordList", "read_word_list"),
}
_WHERE = {name: module for module, names in _EXPORTS.items() for name in names}
_MODULES = ("words", "verify", "backends", "puzzles")

__all__ = sorted([*_WHERE, *_MODULES])


def __getattr__(name: str) -> Any:
    if name in _WHERE:
        value = getattr(importlib.import_module(f".{_WHERE[name]}", __name__), name)
    elif name in _MODULES:
        value = importlib.import_module(f".{name}", __name__)
    else:
        raise AttributeError(f"module 'exactgrid' has no attribute {name!r}")
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *__all__])
