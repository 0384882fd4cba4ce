"""Find backends through the entry-point group ``exactgrid.backends``.

The built-in backends register in exactgrid's own ``pyproject.toml`` through the same group a
plugin uses, so there is one path for both. An entry point names a :class:`Backend` subclass
(called with no arguments). A name ``base:option`` (e.g. ``pysat:maplechrono``) loads ``base``
and calls it with ``option``.

A built-in's name is the built-in's: a plugin registering ``kissat`` too is left out, with a
warning naming it (:func:`shadowing_message`), so that no installed package can quietly answer
in the default backend's name. Two plugins registering one name with different targets make it
ambiguous: asking for it is refused, naming both, until one is uninstalled.

A registered class is checked when it is loaded (:func:`load_backend`): it must be a
:class:`Backend` subclass named as it is registered, implement ``_solve`` or ``child_call``
(with ``read_child``), declare only known capabilities (``assumptions`` only with ``prove``),
and say whether it is available without raising; each failure is one :class:`BackendError`
line naming the backend. What it prints as it loads goes to stderr.
"""

from __future__ import annotations

import contextlib
import inspect
import sys
import warnings
from dataclasses import dataclass
from importlib.metadata import EntryPoint, entry_points

from .base import CAPABILITIES, Backend, BackendError, not_available_message

GROUP = "exactgrid.backends"

DEFAULT_BACKEND = "kissat"
"""The backend used when none is named: the fastest measured over instances/benchmarks/fit/
(docs/benchmarks.md, Fit)."""

# Mirror of exactgrid's own [project.entry-points."exactgrid.backends"], used only when the
# package runs from a source tree without installed metadata. A test keeps them equal.
BUILTIN_ENTRY_POINTS = {
    "cadical": "exactgrid.backends.sat:Cadical",
    "kissat": "exactgrid.backends.sat:Kissat",
    "glucose": "exactgrid.backends.sat:Glucose",
    "minisat": "exactgrid.backends.sat:Minisat",
    "pysat": "exactgrid.backends.sat:PySATBackend",
    "cbc": "exactgrid.backends.ilp:Cbc",
    "highs": "exactgrid.backends.ilp:Highs",
    "portfolio": "exactgrid.backends.portfolio:Portfolio",
}

KNOWN_PLUGINS = {
    "cpsat": "pip install ./plugins/exactgrid-cpsat (from the exactgrid source tree; it brings OR-Tools)",
}
"""Backends that live in separately installed plugin packages, and how to install each."""


@dataclass(frozen=True)
class BackendInfo:
    """One row of :func:`list_backends`."""

    name: str
    available: bool
    version: str | None
    capabilities: frozenset[str]
    description: str

    def to_dict(self) -> dict:
        """JSON-ready: name, available, version, capabilities (sorted), description."""
        return {"name": self.name, "available": self.available, "version": self.version,
                "capabilities": sorted(self.capabilities), "description": self.description}


class BackendShadowingWarning(UserWarning):
    """An installed plugin registers a built-in backend's name, and is left out."""


def _origin(point: EntryPoint) -> str:
    dist = getattr(point, "dist", None)
    return f"{point.value!r} (from {dist.name})" if dist is not None else repr(point.value)


def shadowing_message(builtin: EntryPoint, plugin: EntryPoint) -> str:
    """One line saying that a plugin registers a built-in's name and is left out."""
    return (f"backend {plugin.name!r} is registered twice in {GROUP!r}: {_origin(builtin)} and {_origin(plugin)}; "
            f"using the built-in {builtin.value!r} (give the plugin's backend a name of its own)")


def ambiguity_message(points: list[EntryPoint]) -> str:
    """One line saying that plugins register one name with different targets, so it is refused."""
    return (f"backend {points[0].name!r} is registered by {len(points)} plugins with different targets: "
            f"{' and '.join(_origin(p) for p in points)}; uninstall all but one to use it")


_WARNED: set[str] = set()
"""The shadowing messages already given in this process: each is given once, however often the
registry is read (a command reads it several times)."""


def _is_builtin(point: EntryPoint) -> bool:
    return BUILTIN_ENTRY_POINTS.get(point.name) == point.value


def _registered() -> dict[str, list[EntryPoint]]:
    """Every backend name with its distinct targets, the built-in first where there is one
    (from installed metadata, or :data:`BUILTIN_ENTRY_POINTS` in a source tree without it)."""
    found: dict[str, list[EntryPoint]] = {}
    for point in entry_points(group=GROUP):
        targets = found.setdefault(point.name, [])
        if any(p.value == point.value for p in targets):
            continue
        targets.insert(0 if _is_builtin(point) else len(targets), point)
    for name, value in BUILTIN_ENTRY_POINTS.items():
        targets = found.setdefault(name, [])
        if not targets or not _is_builtin(targets[0]):
            targets.insert(0, EntryPoint(name=name, value=value, group=GROUP))
    return found


def _entry_points() -> dict[str, EntryPoint | list[EntryPoint]]:
    """Each backend name with its entry point, or with the plugins' entry points when more
    than one registers it (ambiguous). A plugin under a built-in's name is left out, with a
    :class:`BackendShadowingWarning`."""
    chosen: dict[str, EntryPoint | list[EntryPoint]] = {}
    for name, targets in _registered().items():
        if _is_builtin(targets[0]):
            for plugin in targets[1:]:
                message = shadowing_message(targets[0], plugin)
                if message not in _WARNED:
                    _WARNED.add(message)
                    warnings.warn(message, BackendShadowingWarning, stacklevel=2)
            chosen[name] = targets[0]
        else:
            chosen[name] = targets[0] if len(targets) == 1 else targets
    return chosen


def default_backend_name() -> str:
    """The name of the backend used when none is named."""
    return DEFAULT_BACKEND


def backend_names() -> list[str]:
    """Names of every registered backend (available here or not), sorted."""
    return sorted(_entry_points())


def backend_name(name: object, default: str | None = None) -> str:
    """``name`` of a backend as given, or ``default`` (:data:`DEFAULT_BACKEND` unless given)
    when it is None. An empty or blank name is refused (BackendError): it names no backend,
    and taking it for the default would hide a mistake such as ``--backend "$UNSET"``."""
    if name is None:
        return default or DEFAULT_BACKEND
    if not isinstance(name, str):
        raise BackendError(f"a backend is named by a string, got {name!r}")
    if not name.strip():
        raise BackendError(f"the backend name {name!r} is empty; 'exactgrid backends' lists them "
                           "(leave the option out for the default)")
    return name


def get_backend(name: str | None = None) -> Backend:
    """A ready-to-use backend by name (``None``: :data:`DEFAULT_BACKEND`).

    Raises :class:`BackendError` (one line) for an unknown name, listing the known ones, and
    for a backend that is registered but not available here.

    >>> get_backend("cadical").name
    'cadical'
    """
    name = backend_name(name)
    base, colon, option = name.partition(":")
    if colon and not option:
        raise BackendError(f"backend {name!r} names no option after its ':' (say {base!r}, or {base}:OPTION)")
    points = _entry_points()
    if base not in points:
        if base in KNOWN_PLUGINS:
            raise BackendError(f"backend {base!r} is a plugin that is not installed here; install it with: "
                               f"{KNOWN_PLUGINS[base]}")
        raise BackendError(f"unknown backend {name!r}; known: {', '.join(sorted(points))}")
    backend = load_backend(points[base], option)
    if not _says_available(backend):
        raise BackendError(not_available_message(backend))
    return backend


def load_backend(point: EntryPoint | list[EntryPoint], option: str = "") -> Backend:
    """The backend an entry point registers, made with ``option`` if one is given, and checked
    as the contract asks (:mod:`exactgrid.backends.registry`); :class:`BackendError`, one line
    naming it, when it cannot be had. (A list of entry points: an ambiguous name, refused.)"""
    if isinstance(point, list):
        raise BackendError(ambiguity_message(point))
    label = f"{point.name}:{option}" if option else point.name
    try:
        with contextlib.redirect_stdout(sys.stderr):  # what a plugin prints as it imports is no answer's
            cls = point.load()
    except Exception as exc:  # noqa: BLE001 - a broken plugin must not break the core
        raise BackendError(f"backend {label!r} failed to load: {type(exc).__name__}: {exc}") from exc
    if not (isinstance(cls, type) and issubclass(cls, Backend)):
        raise BackendError(f"backend {point.name!r} is registered as {point.value!r}, which is not a subclass of "
                           "exactgrid.backends.Backend")
    if option and not _takes_an_option(cls):
        raise BackendError(f"backend {point.name!r} takes no option ({label!r})")
    try:
        with contextlib.redirect_stdout(sys.stderr):
            backend = cls(option) if option else cls()
    except BackendError:
        raise
    except Exception as exc:  # noqa: BLE001
        raise BackendError(f"backend {label!r} failed to load: {type(exc).__name__}: {exc}") from exc
    if str(backend.name).partition(":")[0] != point.name:  # answers name the backend: the name asked for
        raise BackendError(f"backend {point.name!r} is registered as {point.value!r}, whose name is "
                           f"{backend.name!r}; a backend's name must be the one it is registered under")
    if cls._solve is Backend._solve and cls.child_call is Backend.child_call:
        raise BackendError(f"backend {point.name!r} ({point.value}) implements neither _solve nor child_call")
    if cls.child_call is not Backend.child_call and cls.read_child is Backend.read_child:
        raise BackendError(f"backend {point.name!r} ({point.value}) implements child_call but not read_child")
    capabilities = set(backend.capabilities)
    unknown = sorted(capabilities - set(CAPABILITIES))
    if unknown:
        raise BackendError(f"backend {point.name!r} declares unknown capabilities {', '.join(map(repr, unknown))}; "
                           f"known: {', '.join(CAPABILITIES)}")
    if "assumptions" in capabilities and "prove" not in capabilities:  # a session's UNSAT and core are proofs
        raise BackendError(f"backend {point.name!r} declares 'assumptions' without 'prove': a session's UNSAT and "
                           "its core are read as proofs, so a backend keeping sessions must prove")
    return backend


def _takes_an_option(cls: type) -> bool:
    try:
        parameters = list(inspect.signature(cls).parameters.values())
    except (TypeError, ValueError):  # no signature to read: let the call say
        return True
    return any(p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD, p.VAR_POSITIONAL) for p in parameters)


def _says_available(backend: Backend) -> bool:
    """``backend.available()``; one that raises is a :class:`BackendError` naming it."""
    try:
        return bool(backend.available())
    except Exception as exc:  # noqa: BLE001
        raise BackendError(f"backend {backend.name!r} failed to say whether it is available: "
                           f"{type(exc).__name__}: {exc}") from exc


def list_backends(only_available: bool = False) -> list[BackendInfo]:
    """Every registered backend with availability, version, capabilities and description.

    Backends that fail to load, or that break the contract, are listed as unavailable with the
    reason as description.
    """
    rows = []
    for name, point in sorted(_entry_points().items()):
        try:
            backend = load_backend(point)
            row = BackendInfo(name, _says_available(backend), None, frozenset(backend.capabilities),
                              backend.description)
            if row.available:
                row = BackendInfo(name, True, backend.version(), row.capabilities, row.description)
        except BackendError as exc:
            row = BackendInfo(name, False, None, frozenset(), str(exc))
        except Exception as exc:  # noqa: BLE001 - version() of a broken plugin
            row = BackendInfo(name, False, None, frozenset(), f"failed: {type(exc).__name__}: {exc}")
        if row.available or not only_available:
            rows.append(row)
    return rows
