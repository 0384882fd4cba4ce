"""Module-level generators for the child-process race tests (a child imports them by name)."""

import time


def answer_after(seconds: float, answer: str):
    yield ("progress", answer)
    time.sleep(seconds)
    yield ("done", answer)


def give_up_at_once():
    yield ("done", "gave up")
