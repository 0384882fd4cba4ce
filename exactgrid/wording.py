"""Counted nouns in messages: ``1 core``, ``2 cores``, ``1,234 words``."""


def plural(count: int, what: str) -> str:
    """``count`` and ``what``, with an ``s`` unless the count is 1: ``plural(1, "core")`` is
    ``1 core``, ``plural(1234, "word")`` is ``1,234 words``."""
    return f"{count:,} {what}{'' if count == 1 else 's'}"
