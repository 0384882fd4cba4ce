"""A plugin that prints as it is imported and made (as some solver bindings do): the printing
must not land in an answer on standard output (``tests/test_backends.py``)."""

from exactgrid.backends import Backend, Result, Status

print("noisy plugin: imported")


class Noisy(Backend):
    """Says UNKNOWN to everything; prints when made."""

    name = "noisy"
    capabilities = frozenset({"decide", "in-process"})

    def __init__(self) -> None:
        print("noisy plugin: made")

    def available(self) -> bool:
        """Always."""
        return True

    def _solve(self, model, time_limit, seed) -> Result:
        return Result(Status.UNKNOWN)
