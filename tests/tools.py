"""The scripts under ``tools/`` as modules, for the tests that hold them to known answers."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from types import ModuleType

TOOLS = Path(__file__).resolve().parents[1] / "tools"


def load_tool(name: str) -> ModuleType:
    """Import ``tools/<name>.py`` (the folder joins ``sys.path``: tools import their siblings)."""
    if str(TOOLS) not in sys.path:
        sys.path.insert(0, str(TOOLS))
    return importlib.import_module(name)
