"""Old home of the CLI's progress line, stop convention and clock: now
:mod:`exactgrid.cli.progress`. Every name is re-exported here so old imports keep working."""

from .cli.progress import (
    PLAIN_EVERY,
    PROGRESS_HELP,
    START_UP_SECONDS,
    STARTED_KEY,
    STOP_NOTE,
    STOPPED_EXIT,
    TICK,
    Progress,
    command_started,
    notice,
    process_age,
    progress_option,
    stderr_is_terminal,
    time_left,
)

__all__ = [
    "PLAIN_EVERY",
    "PROGRESS_HELP",
    "START_UP_SECONDS",
    "STARTED_KEY",
    "STOPPED_EXIT",
    "STOP_NOTE",
    "TICK",
    "Progress",
    "command_started",
    "notice",
    "process_age",
    "progress_option",
    "stderr_is_terminal",
    "time_left",
]
