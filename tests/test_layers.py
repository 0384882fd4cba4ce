"""Import layering: a module of exactgrid never imports one from a higher layer.

Every module is read with ``ast`` (nothing is imported), and every ``import`` in it counts,
including the ones inside functions (a lazy import is still a dependency). Imports under
``if TYPE_CHECKING:`` are type-only and allowed. Modules are matched by their top-level name
under ``exactgrid``: ``exactgrid/backends/ilp.py`` is in layer ``backends``, and a future
``exactgrid/fitting/`` subpackage stays in layer ``fit``.

To place a new module, or to move one, edit :data:`LAYERS`; to accept a known upward import
for now, add it to :data:`KNOWN_EXCEPTIONS` with the reason.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

#: Lowest first. A module may import modules of its own tier and of lower tiers only.
LAYERS: tuple[tuple[str, ...], ...] = (
    # Leaf utilities: they import nothing from exactgrid, and anything may import them.
    # (stopping was sketched just below cli, but it is a leaf: backends or fit may use it too.)
    ("wording", "inputs", "stopping", "pool", "notebook"),  # notebook: HTML tables for Jupyter
    ("answer",),  # the one answer contract (Outcome, Answer, ProgressEvent) every job returns
    ("geometry",),
    ("grid",),
    ("words",),
    ("data",),  # bundled datasets (data.us: the US states), built on words
    ("finder",),
    ("wordsearch",),
    ("fastscore",),
    ("awards",),
    # text, JSON and pictures of grids, scores and checklists: answers render themselves with it
    ("render",),
    ("question",),
    ("model",),
    ("encoding",),
    ("cnf",),
    ("ilp_model",),  # the PuLP translation, shared by export and backends.ilp
    ("export",),
    ("verify",),
    ("backends",),
    # refutations and bounds (DRUP checking, the counting relaxation and its cores): below fit,
    # whose pre-check refutes by counting
    ("prove",),
    ("fitting",),  # fit questions: decide one, sessions, many at once (eg.fit is exactgrid.api.fit)
    ("solving",),  # the optimiser: compiled local search, exact moves through fit sessions
    ("puzzles",),  # Trackword, Letter Boxed, Sum of Squares: each a thin layer over the engine
    ("api",),  # the front door (eg.score, eg.check), re-exported by exactgrid/__init__.py
    # the CLI package (its progress line, stop convention and clock in cli.progress); cli_progress
    # is the old home of those, a shim re-exporting cli.progress
    ("cli", "cli_progress"),
    ("__main__",),  # ``python -m exactgrid``: runs the CLI
)

#: Upward imports accepted for now: (importer, imported) -> why. Keep it empty if you can.
KNOWN_EXCEPTIONS: dict[tuple[str, str], str] = {}

PACKAGE_NAME = "exactgrid"
PACKAGE = Path(__file__).resolve().parents[1] / PACKAGE_NAME
ROOT = "__init__"  # the package root, exactgrid/__init__.py: a facade, checked only through what it re-exports
RANK = {name: rank for rank, tier in enumerate(LAYERS) for name in tier}


# --------------------------------------------------------------------------- reading imports


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _runtime_imports(tree: ast.AST) -> list[ast.Import | ast.ImportFrom]:
    """Every import statement outside ``if TYPE_CHECKING:`` bodies (their ``else`` counts)."""
    found: list[ast.Import | ast.ImportFrom] = []

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and _is_type_checking(node):
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.Import | ast.ImportFrom):
            found.append(node)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return found


def _is_module(dotted: str, package: Path = PACKAGE) -> bool:
    """Whether ``exactgrid.a.b`` names a module or subpackage under ``package``."""
    parts = dotted.split(".")[1:]
    base = package.joinpath(*parts)
    return bool(parts) and (base.with_suffix(".py").is_file() or (base / "__init__.py").is_file())


def imported_names(source: str, module: str, is_package: bool = False,
                   package: Path = PACKAGE) -> list[tuple[int, str, str | None]]:
    """The exactgrid imports of a module at run time: (line, absolute module, name or None).

    ``name`` is set only for ``from exactgrid import name`` where ``name`` is not a submodule
    (so that a re-export of the root can be traced to its own module).
    """
    here = module if is_package else module.rpartition(".")[0]
    out: list[tuple[int, str, str | None]] = []
    for node in _runtime_imports(ast.parse(source)):
        if isinstance(node, ast.Import):
            out += [(node.lineno, a.name, None) for a in node.names if a.name.split(".")[0] == PACKAGE_NAME]
            continue
        if node.level:
            parts = here.split(".")
            base = ".".join(parts[: len(parts) - node.level + 1] + ([node.module] if node.module else []))
        else:
            base = node.module or ""
        if base.split(".")[0] != PACKAGE_NAME:
            continue
        if base != PACKAGE_NAME:
            out.append((node.lineno, base, None))
            continue
        for alias in node.names:
            sub = f"{PACKAGE_NAME}.{alias.name}"
            out.append((node.lineno, sub, None) if _is_module(sub, package) else (node.lineno, base, alias.name))
    return out


def layer_of(dotted: str) -> str:
    """The layer name of an absolute module name: its top-level name under exactgrid."""
    parts = dotted.split(".")
    return parts[1] if len(parts) > 1 else ROOT


def root_reexports(package: Path = PACKAGE) -> dict[str, str]:
    """Names that ``exactgrid/__init__.py`` imports from its modules -> those modules' layers."""
    tree = ast.parse((package / "__init__.py").read_text(encoding="utf-8"))
    return {
        alias.asname or alias.name: layer_of(f"{PACKAGE_NAME}.{node.module}" if node.level else node.module)
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module
        and (node.level == 1 or node.module.startswith(PACKAGE_NAME + "."))
        for alias in node.names
    }


def modules(package: Path = PACKAGE) -> list[tuple[Path, str, bool]]:
    """Every module of the package: (path, absolute name, whether it is a package's __init__)."""
    out = []
    for path in sorted(package.rglob("*.py")):
        parts = path.relative_to(package.parent).with_suffix("").parts
        is_package = parts[-1] == "__init__"
        out.append((path, ".".join(parts[:-1] if is_package else parts), is_package))
    return out


def upward_imports(package: Path = PACKAGE) -> list[tuple[str, str, str]]:
    """Every run-time import of a higher layer: (importer layer, imported layer, where)."""
    reexports = root_reexports(package)
    found = []
    for path, name, is_package in modules(package):
        importer = layer_of(name)
        if importer == ROOT:
            continue  # the facade re-exports; what it re-exports is checked where it is used
        for line, target, attr in imported_names(path.read_text(encoding="utf-8"), name, is_package, package):
            imported = layer_of(target) if attr is None else reexports.get(attr, ROOT)
            if imported in (ROOT, importer) or importer not in RANK or imported not in RANK:
                continue  # (a module missing from LAYERS is reported by test_every_module_has_a_layer)
            if RANK[imported] <= RANK[importer]:
                continue
            where = f"{path.relative_to(package.parent)}:{line} imports {target}{'.' + attr if attr else ''}"
            found.append((importer, imported, where))
    return found


def imported_modules(source: str, module: str, is_package: bool = False, package: Path = PACKAGE) -> set[str]:
    """The exactgrid modules a module imports at run time, ``from .pkg import sub`` read as
    ``exactgrid.pkg.sub`` when ``sub`` is a module (as it is to Python: the package is being
    imported already), not as an import of ``pkg``."""
    here = module if is_package else module.rpartition(".")[0]
    found: set[str] = set()
    for node in _runtime_imports(ast.parse(source)):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name.split(".")[0] == PACKAGE_NAME}
            continue
        parts = here.split(".")
        base = (".".join(parts[: len(parts) - node.level + 1] + ([node.module] if node.module else []))
                if node.level else node.module or "")
        if base.split(".")[0] != PACKAGE_NAME:
            continue
        subs = {f"{base}.{a.name}" for a in node.names if _is_module(f"{base}.{a.name}", package)}
        found |= subs if len(subs) == len(node.names) else subs | {base}
    return found - {module}


def mutual_imports(package: Path = PACKAGE) -> list[tuple[str, str]]:
    """Every pair of modules that import each other at run time (lazy imports included)."""
    graph = {name: imported_modules(path.read_text(encoding="utf-8"), name, is_package, package)
             for path, name, is_package in modules(package)}
    return sorted((a, b) for a, targets in graph.items() for b in targets if a < b and a in graph.get(b, ()))


# --------------------------------------------------------------------------- the rules


def test_no_two_modules_import_each_other():
    assert mutual_imports() == [], "modules that import each other: move what both need to a third"


def test_modules_importing_each_other_are_caught(tmp_path):
    package = _write(tmp_path, {
        "__init__.py": "",
        "fitting/__init__.py": "from .answer import FitAnswer\n",
        "fitting/answer.py": "from . import session\nFitAnswer = 1\n",
        "fitting/session.py": "def f():\n    from .answer import FitAnswer\n",
        "fitting/kernel.py": "from . import answer\n",  # the package, being imported: no pair
    })
    assert mutual_imports(package) == [("exactgrid.fitting.answer", "exactgrid.fitting.session")]


def test_every_module_has_a_layer():
    names = [name for tier in LAYERS for name in tier]
    assert len(names) == len(set(names)), "a name is in two tiers"
    unplaced = sorted({layer_of(name) for _, name, _ in modules()} - set(RANK) - {ROOT})
    assert not unplaced, f"put these modules in LAYERS (tests/test_layers.py): {unplaced}"


def test_lower_layers_never_import_higher_ones():
    bad = [
        f"{where} ({importer} is below {imported})"
        for importer, imported, where in upward_imports()
        if (importer, imported) not in KNOWN_EXCEPTIONS
    ]
    assert not bad, "upward imports:\n" + "\n".join(bad)


def test_known_exceptions_still_happen():
    happening = {(importer, imported) for importer, imported, _ in upward_imports()}
    stale = sorted(set(KNOWN_EXCEPTIONS) - happening)
    assert not stale, f"remove from KNOWN_EXCEPTIONS, no longer imported: {stale}"


# --------------------------------------------------------------------------- the checker itself


def test_imports_are_resolved_including_lazy_and_relative_ones():
    source = (
        "from . import export, __version__\n"
        "from .awards import evaluate\n"
        "import exactgrid.words\n"
        "import networkx\n"
        "def f():\n"
        "    from .backends.ilp import to_pulp\n"
    )
    assert imported_names(source, "exactgrid.cli") == [
        (1, "exactgrid.export", None),
        (1, "exactgrid", "__version__"),
        (2, "exactgrid.awards", None),
        (3, "exactgrid.words", None),
        (6, "exactgrid.backends.ilp", None),
    ]
    assert imported_names("from ..model import BoolModel\nfrom . import base\n", "exactgrid.backends.ilp") == [
        (1, "exactgrid.model", None),
        (2, "exactgrid.backends", None),
    ]
    assert imported_names("from .chains import find_chain\n", "exactgrid.awards", is_package=True) == [
        (1, "exactgrid.awards.chains", None),
    ]


def test_type_checking_imports_are_ignored_but_their_else_is_not():
    source = (
        "import typing\n"
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n"
        "    from .fitting import FitAnswer\n"
        "else:\n"
        "    from .cli import main\n"
        "if typing.TYPE_CHECKING:\n"
        "    from .encoding import Encoding\n"
    )
    assert imported_names(source, "exactgrid.render") == [(6, "exactgrid.cli", None)]


def _write(root: Path, files: dict[str, str]) -> Path:
    package = root / PACKAGE_NAME
    for name, text in files.items():
        (package / name).parent.mkdir(parents=True, exist_ok=True)
        (package / name).write_text(text)
    return package


def test_an_upward_import_is_caught(tmp_path):
    package = _write(tmp_path, {
        "__init__.py": "from .finder import score\n__version__ = '0'\n",
        "geometry.py": "from . import __version__\n",
        "finder.py": "def score(): ...\n",
        "export.py": "def write_lp():\n    from .backends.ilp import to_pulp\n",
        "backends/__init__.py": "",
        "backends/ilp.py": "from ..export import write_lp\n",
        "grid.py": "from exactgrid import score\n",
    })
    assert root_reexports(package) == {"score": "finder"}
    assert sorted(upward_imports(package)) == [
        ("export", "backends", "exactgrid/export.py:2 imports exactgrid.backends.ilp"),
        ("grid", "finder", "exactgrid/grid.py:1 imports exactgrid.score"),
    ]


@pytest.mark.parametrize("name", sorted(RANK))
def test_layer_names_are_top_level_names(name):
    assert "." not in name and "/" not in name
