"""Counted nouns in messages: ``1 core``, ``2 cores``, ``1,234 words``; how far a word is from spelled."""


def plural(count: int, what: str) -> str:
    """``count`` and ``what``, with an ``s`` unless the count is 1: ``plural(1, "core")`` is
    ``1 core``, ``plural(1234, "word")`` is ``1,234 words``."""
    return f"{count:,} {what}{'' if count == 1 else 's'}"


def first_few(items: list[str], shown: int = 3) -> str:
    """The first ``shown`` items, then how many more: ``AA, AAH, AAHED and 172,817 more``."""
    named = ", ".join(items[:shown])
    return named + (f" and {len(items) - shown:,} more" if len(items) > shown else "")


def letters_off(count: int | None, within: int | None) -> str:
    """How far a word is from spelled, in words: ``count`` letters a path must alter (``2
    letters off``); None when more than ``within`` were looked for (``more than 3 letters
    off``) or, with ``within`` None, when the board has no path that long."""
    if count is not None:
        return f"{plural(count, 'letter')} off"
    return "no path that long" if within is None else f"more than {plural(within, 'letter')} off"
