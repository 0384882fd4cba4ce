"""Find backends through the entry-point group ``exactgrid.backends``.

The built-in backends register in exactgrid's own ``pyproject.toml`` through the same group a
plugin uses, so there is one path for both. An entry point names a :class:`Backend` subclass
(called with no arguments). A name ``base:option`` (e.g. ``pysat:maplechrono``) loads ``base``
and calls it with ``option``.

Two distributions registering the same name with different targets (a plugin that also calls
itself ``kissat``) is allowed but announced: the last one registered wins, with a warning
naming both (:func:`shadowing_message`).
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from importlib.metadata import EntryPoint, entry_points

from .base import Backend, BackendError, not_available_message

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
    """Two installed distributions register the same backend name with different targets."""


def _origin(point: EntryPoint) -> str:
    dist = getattr(point, "dist", None)
    return f"{point.value!r} (from {dist.name})" if dist is not None else repr(point.value)


def shadowing_message(first: EntryPoint, last: EntryPoint) -> str:
    """One line saying that two entry points share a backend name and that the last one wins."""
    return (f"backend {last.name!r} is registered twice in {GROUP!r}: {_origin(first)} and {_origin(last)}; "
            f"using {last.value!r}, the last registered")


_WARNED: set[str] = set()
"""The shadowing messages already given in this process: each is given once, however often the
registry is read (a command reads it several times)."""


def _entry_points() -> dict[str, EntryPoint]:
    found: dict[str, EntryPoint] = {}
    for point in entry_points(group=GROUP):
        earlier = found.get(point.name)
        if earlier is not None and earlier.value != point.value:
            message = shadowing_message(earlier, point)
            if message not in _WARNED:
                _WARNED.add(message)
                warnings.warn(message, BackendShadowingWarning, stacklevel=2)
        found[point.name] = point
    for name, value in BUILTIN_ENTRY_POINTS.items():
        found.setdefault(name, EntryPoint(name=name, value=value, group=GROUP))
    return found


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
    try:
        cls = points[base].load()
        backend = cls(option) if option else cls()
    except BackendError:
        raise
    except TypeError as exc:
        raise BackendError(f"backend {base!r} takes no option ({name!r}): {exc}") from exc
    except Exception as exc:  # noqa: BLE001 - a broken plugin must not break the core
        raise BackendError(f"backend {name!r} failed to load: {type(exc).__name__}: {exc}") from exc
    if not backend.available():
        raise BackendError(not_available_message(backend))
    return backend


def list_backends(only_available: bool = False) -> list[BackendInfo]:
    """Every registered backend with availability, version, capabilities and description.

    Backends that fail to load are listed as unavailable with the error as description.
    """
    rows = []
    for name, point in sorted(_entry_points().items()):
        try:
            backend = point.load()()
            row = BackendInfo(name, backend.available(), None, frozenset(backend.capabilities),
                              backend.description)
            if row.available:
                row = BackendInfo(name, True, backend.version(), row.capabilities, row.description)
        except Exception as exc:  # noqa: BLE001
            row = BackendInfo(name, False, None, frozenset(), f"failed to load: {type(exc).__name__}: {exc}")
        if row.available or not only_available:
            rows.append(row)
    return rows
