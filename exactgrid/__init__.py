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
import importlib.abc
import importlib.util
import sys
import types
import warnings
from typing import Any

__version__ = "0.1.0"

_EXPORTS = {
    "answer": ("Answer", "Outcome", "ProgressEvent"),
    "api": ("CheckAnswer", "ScoreAnswer", "as_grid", "check", "fit", "score"),
    "awards": ("Checklist", "ChecklistResult", "default_checklist", "evaluate", "load_checklist"),
    "backends": ("Backend", "BackendError", "Status", "get_backend", "list_backends"),
    "backends.conformance": ("BackendCheck", "check_backend"),
    "data": ("word_list",),
    "data.us": ("us_states",),
    "encoding": ("Encoding", "encode"),
    "fastscore": ("Scorer",),
    "finder": ("Match", "Score", "find", "is_found"),
    "fitting": ("Explanation", "FitAnswer", "ModelSize", "VerificationError"),
    "fitting.conflicts": ("AwardConflict", "award_conflict"),
    "fitting.many": ("fit_many", "read_questions"),
    "fitting.session": ("FitSession", "explain"),
    "geometry": ("Board",),
    "grid": ("Grid", "parse_grid"),
    "inputs": ("InputError",),
    "prove.bound": ("BoundAnswer", "bound"),
    "prove.certify": ("Certificate", "certify_counting", "certify_refutation"),
    "prove.cores": ("CoreRefutation", "refute_by_cores"),
    "prove.exact": ("WordCore",),
    "prove.placement": ("Core",),
    "render.figure": ("PlotUnavailable", "show", "svg"),
    "render.picture": ("Picture", "picture_of"),
    "question": ("Chain", "Instance", "Question", "Requirement", "SpecError", "Verdict", "build_question",
                 "checklist_question", "load_instance", "question_from_table"),
    "solving": ("SolveAnswer", "solve"),
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


RENAMED = {"fit": "fitting", "solve": "solving", "encode": "encoding"}
"""Modules renamed so that ``eg.fit``, ``eg.solve`` and ``eg.encode`` are only ever the
functions (``eg.encode`` was the module once ``exactgrid.encode`` had been imported, as
``eg.fit`` did): the old module paths (``exactgrid.fit.session``, ``from exactgrid.solve
import SolveAnswer``, ``from exactgrid.encode import encode``) still import, as the new
modules, with a DeprecationWarning."""


class _RenamedPaths(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Imports ``exactgrid.fit[.x]``, ``exactgrid.solve[.x]`` and ``exactgrid.encode`` as the
    renamed modules (first on ``sys.meta_path``, so that a submodule is never loaded a second
    time under its old name)."""

    def __init__(self) -> None:
        self.real_specs: dict[str, Any] = {}

    def find_spec(self, fullname: str, path: Any, target: Any = None) -> Any:
        parts = fullname.split(".")
        if len(parts) < 2 or parts[0] != __name__ or parts[1] not in RENAMED:
            return None
        return importlib.util.spec_from_loader(fullname, self)

    def create_module(self, spec: Any) -> types.ModuleType:
        parts = spec.name.split(".")
        new = ".".join([__name__, RENAMED[parts[1]], *parts[2:]])
        warnings.warn(f"{spec.name} is now {new}", DeprecationWarning, stacklevel=2)
        module = importlib.import_module(new)
        self.real_specs[spec.name] = module.__spec__  # importlib stamps the alias's spec on it
        return module

    def exec_module(self, module: types.ModuleType) -> None:
        for alias in [name for name, spec in self.real_specs.items() if spec.name == module.__name__]:
            module.__spec__ = self.real_specs.pop(alias)  # the real one back


class _Package(types.ModuleType):
    """This package: an old module path, once imported, never hides ``fit``, ``solve`` or
    ``encode``."""

    def __setattr__(self, name: str, value: Any) -> None:
        if name in RENAMED and isinstance(value, types.ModuleType):
            return
        super().__setattr__(name, value)


sys.meta_path.insert(0, _RenamedPaths())
sys.modules[__name__].__class__ = _Package
