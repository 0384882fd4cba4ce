"""Shared test settings: which solver backends can run here; the search kernel compiled first."""

import pytest

from exactgrid.backends import list_backends

#: Every backend available on this machine (built-ins and installed plugins).
AVAILABLE_BACKENDS = [row.name for row in list_backends(only_available=True)]
#: What each of them can do (``"in-process"``, ``"child-process"``, ``"assumptions"``, ...).
BACKEND_CAPABILITIES = {row.name: row.capabilities for row in list_backends(only_available=True)}


@pytest.fixture(scope="session", autouse=True)
def compiled_search_kernel() -> None:
    """The solve kernel compiled (or loaded from numba's cache) before any test runs: a search's
    time limit counts the compile, so without this a short search in the first test to run on a
    fresh clone would spend its time compiling, and its verdict would hang on the machine's speed.
    Children started by the tests load the kernel from the same cache."""
    from exactgrid.solving import warm_up

    warm_up()


@pytest.fixture
def unhurried_core_checks(monkeypatch) -> None:
    """The core search's second a shrinking trial lifted to ten minutes: on these small
    questions a trial takes milliseconds, and a loaded machine must not make a core come out
    unshrunk (no verdict may hang on the machine's speed). Reaches this process only, not the
    workers it starts."""
    import exactgrid.prove.placement

    monkeypatch.setattr(exactgrid.prove.placement, "SHRINK_CHECK_SECONDS", 600.0)


@pytest.fixture
def two_cores(monkeypatch) -> None:
    """This process may use two cores, whatever the machine (or ``taskset``) gives it: a test
    that asks for two workers gets them instead of a clamped one and a notice."""
    import exactgrid.inputs

    monkeypatch.setattr(exactgrid.inputs, "usable_cores", lambda: 2)
