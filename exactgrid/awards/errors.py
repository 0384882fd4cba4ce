"""The one error type of :mod:`exactgrid.awards`."""

from __future__ import annotations

from ..inputs import InputError


class ChecklistError(InputError):
    """A checklist, state or state group that cannot be read or makes no sense (one line)."""
