"""Solver backends behind one contract, found through the entry-point group ``exactgrid.backends``.

>>> from exactgrid.backends import get_backend, list_backends
>>> [row.name for row in list_backends(only_available=True)]  # doctest: +SKIP
['cadical', 'cbc', 'glucose', 'highs', 'kissat', 'minisat', 'pysat']

Importing this package imports no solver: each backend imports its solver in ``available()``
and ``solve()``.
"""

from ._child import run_in_child
from .base import Backend, BackendError, BackendFailed, Result, SolverDisagreement, Status, check_result
from .registry import (
    DEFAULT_BACKEND,
    GROUP,
    BackendInfo,
    backend_name,
    backend_names,
    default_backend_name,
    get_backend,
    list_backends,
)

__all__ = [
    "DEFAULT_BACKEND", "GROUP", "Backend", "BackendError", "BackendFailed", "BackendInfo", "Result",
    "SolverDisagreement", "Status", "backend_name", "backend_names", "check_result", "default_backend_name",
    "get_backend", "list_backends", "run_in_child",
]
