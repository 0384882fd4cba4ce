"""Module-level generators for the child-process race tests (a child imports them by name)."""

import time

from exactgrid.backends import Backend, Result, Status


def answer_after(seconds: float, answer: str):
    yield ("progress", answer)
    time.sleep(seconds)
    yield ("done", answer)


def give_up_at_once():
    yield ("done", "gave up")


def counting_that_fails(question, time_limit):
    """fit's counting child, with the core loop broken inside the child (a monkeypatch in the
    test process does not reach a child)."""
    import exactgrid.fitting.decide as fit_answer

    def broken(*args, **kwargs):
        raise RuntimeError("boom")

    fit_answer.refute_by_cores = broken
    yield from fit_answer.counting_child(question, time_limit)


def counting_that_never_decides(question, time_limit):
    """fit's counting child, standing in for one that has not decided yet (it sleeps through
    the time limit), so that the backend beside it answers whatever the machine's speed."""
    time.sleep(3600.0 if time_limit is None else time_limit)
    yield ("done", "unknown")


def never_decides(seconds: float):
    time.sleep(seconds)
    yield ("done", "unknown")


class Undecided(Backend):
    """A backend that runs in a child and never decides (it gives up at its time limit): beside
    it, whatever fit answers was decided by the counting loop, on any machine."""

    name = "undecided"
    description = "test backend: never decides"
    capabilities = frozenset({"decide", "child-process"})

    def available(self) -> bool:
        return True

    def child_call(self, model, time_limit, seed):
        return never_decides, (3600.0 if time_limit is None else time_limit,)

    def read_child(self, model, messages, finished) -> Result:
        return Result(Status.UNKNOWN, detail="never decides")


class InProcessUndecided(Backend):
    """An in-process backend (no child_call) that gives up at once (as CBC at its time limit)."""

    name = "in-process-undecided"
    capabilities = frozenset({"decide", "optimise", "in-process"})

    def available(self) -> bool:
        return True

    def _solve(self, model, time_limit, seed) -> Result:
        return Result(Status.UNKNOWN, detail="gives up")


class Incumbent(Backend):
    """A child backend that reports a solution it cannot prove optimal, then finishes (as a
    solver out of its own time does): it leaves a race without deciding it."""

    name = "incumbent"
    capabilities = frozenset({"optimise", "child-process"})

    def available(self) -> bool:
        return True

    def child_call(self, model, time_limit, seed):
        return answer_after, (0.0, "incumbent")

    def read_child(self, model, messages, finished) -> Result:
        if not messages:
            return Result(Status.UNKNOWN)
        return Result(Status.SAT, true_vars=frozenset({1}), objective=1)


def refute_after(seconds: float):
    time.sleep(seconds)
    yield ("done", "unsat")


class SlowRefuter(Backend):
    """A child-process backend that says UNSAT after ``seconds`` (for questions that do not fit)."""

    name = "slow-refuter"
    description = "test backend: UNSAT after a while"
    capabilities = frozenset({"decide", "prove", "child-process"})

    def __init__(self, seconds: float = 0.5) -> None:
        self.seconds = seconds

    def available(self) -> bool:
        return True

    def child_call(self, model, time_limit, seed):
        return refute_after, (self.seconds,)

    def read_child(self, model, messages, finished) -> Result:
        done = finished and messages and messages[-1][1] == "unsat"
        return Result(Status.UNSAT if done else Status.UNKNOWN, detail="slow refuter")


def fail_at_once():
    """A child whose solver cannot even be imported."""
    raise ImportError("simulated broken solver")
    yield  # a generator, as every child call is


class Broken(Backend):
    """A child-process backend whose solver fails to import (a broken install)."""

    name = "broken"
    description = "test backend: its child raises ImportError"
    capabilities = frozenset({"decide", "child-process"})

    def available(self) -> bool:
        return True

    def child_call(self, model, time_limit, seed):
        return fail_at_once, ()

    def read_child(self, model, messages, finished) -> Result:
        raise AssertionError("a failed child has nothing to read")


def refuse_in_the_child():
    """A child whose solver refuses the model (an InputError, as HiGHS's floating-point check
    in the child)."""
    from exactgrid.backends import BackendError

    raise BackendError("this solver cannot take a model like this one")
    yield  # a generator, as every child call is


class RefusesInTheChild(Broken):
    """A child-process backend whose child refuses the model."""

    name = "refuses-in-the-child"

    def child_call(self, model, time_limit, seed):
        return refuse_in_the_child, ()


class RefusesUpFront(Broken):
    """A child-process backend that refuses the model before any child starts."""

    name = "refuses-up-front"

    def child_call(self, model, time_limit, seed):
        from exactgrid.backends import BackendError

        raise BackendError("this solver cannot take a model like this one")


def killed_at_once():
    """A child killed by a signal (as the kernel's OOM killer does) before it answers."""
    import os
    import signal

    os.kill(os.getpid(), signal.SIGKILL)
    yield ("done", "never sent")


class Killed(Backend):
    """A child-process backend whose process is killed before it answers."""

    name = "killed"
    capabilities = frozenset({"decide", "child-process"})

    def available(self) -> bool:
        return True

    def child_call(self, model, time_limit, seed):
        return killed_at_once, ()

    def read_child(self, model, messages, finished) -> Result:
        return Result(Status.UNKNOWN, detail="time limit reached")  # what a killed child looks like to it


class ReadsNothing(SlowRefuter):
    """A child-process backend whose ``read_child`` returns None instead of a Result (a plugin's bug)."""

    name = "readsnothing"

    def read_child(self, model, messages, finished):
        return None
