"""Shared test settings: which solver backends can run here."""

from exactgrid.backends import list_backends

#: Every backend available on this machine (built-ins and installed plugins).
AVAILABLE_BACKENDS = [row.name for row in list_backends(only_available=True)]
