"""Checks at the door: the one error type for bad input, and validators every entry point shares.

Everything a user hands exactgrid -- a command-line option, a TOML value, a file, a grid --
is checked here or by a function built on these, before any work starts. A failure is an
:class:`InputError` with a one-line message; the CLI prints it as ``Error: ...`` (or a JSON
error object under ``--json``) and exits with status 2. This module imports nothing from
exactgrid, so every layer can use it.
"""

from __future__ import annotations

import errno
import math
import numbers
import operator
import os
import stat
import sys
import tomllib
import warnings
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from typing import Any, BinaryIO, TypeVar

from .wording import plural

K = TypeVar("K")
V = TypeVar("V")

MAX_INPUT_BYTES = 16 * 1024 * 1024
"""The largest text file (grid, cells, instance, checklist, word list) read, in bytes."""

MAX_WHOLE = 2**62
"""The largest score, count or weight accepted (the search kernels add them in 64-bit integers)."""


class InputError(ValueError):
    """Input that cannot be understood or cannot make sense (one line, exit status 2 at the CLI)."""


def check_path(value: Any, what: str) -> str | os.PathLike[str]:
    """``value`` as a file's path: a str or an ``os.PathLike`` (a Path); InputError for anything
    else. Why: ``open()`` takes an int as a file descriptor, so a number given for a path read
    (and closed) whatever file the process had open under it."""
    if isinstance(value, str) or (isinstance(value, os.PathLike) and isinstance(os.fspath(value), str)):
        return value
    raise InputError(f"{what} must be a file's path (a str or a Path), got {type(value).__name__}")


def read_text_file(path: str | os.PathLike[str], what: str) -> str:
    """The text of a regular file, decoded as UTF-8; InputError with the reason otherwise.

    ``what`` names the file in the message (``"instance file"``). Directories, unreadable
    files, files over :data:`MAX_INPUT_BYTES` and text that is not UTF-8 are refused; a
    leading byte order mark is dropped (see :func:`decode_text`).
    """
    name = str(check_path(path, what))
    try:
        if os.path.isdir(path):
            raise InputError(f"{what} {name!r} is a directory, not a file")
        if os.path.exists(path) and not os.path.isfile(path):
            raise InputError(f"{what} {name!r} is not a regular file")  # a FIFO would block
        with open(path, "rb") as handle:
            data = handle.read(MAX_INPUT_BYTES + 1)
    except FileNotFoundError:
        raise InputError(f"{what} {name!r}: no such file") from None
    except PermissionError:
        raise InputError(f"{what} {name!r}: permission denied") from None
    except OSError as exc:
        raise InputError(f"{what} {name!r}: cannot read it ({exc.strerror or exc})") from None
    return decode_text(data, what, name)


@contextmanager
def no_stuck_fifo(path: str | os.PathLike[str]) -> Iterator[None]:
    """Around the writing of ``path``: InputError at once when it is a FIFO that no process
    reads (opening it to write would wait forever, past any time limit). A FIFO with a reader
    (``>(gzip > m.cnf.gz)``) is held open for writing meanwhile, so that the reader, which
    this look must not leave with an end of file, waits for the writing proper. A ``path``
    that is no path (:func:`check_path`) is an InputError too."""
    check_path(path, "the file to write")
    descriptor = None
    try:
        if stat.S_ISFIFO(os.stat(path).st_mode):
            descriptor = os.open(path, os.O_WRONLY | os.O_NONBLOCK)
    except OSError as exc:
        if exc.errno == errno.ENXIO:  # a FIFO, and no reader at its other end
            raise InputError(f"cannot write {str(path)!r}: it is a FIFO that nothing reads, and writing to it "
                             "would wait forever") from None
        # anything else (no such file yet) is for the writing itself
    try:
        yield
    finally:
        if descriptor is not None:
            os.close(descriptor)


def read_text_stream(stream: BinaryIO | None, what: str, name: str = "standard input") -> str:
    """The text of a byte stream (standard input), checked as :func:`read_text_file` checks a file;
    None is a closed stream (``sys.stdin`` is None when the process starts without one)."""
    if stream is None:
        raise InputError(f"{what} on {name}: cannot read it (closed)")
    try:
        data = stream.read(MAX_INPUT_BYTES + 1)
    except OSError as exc:
        raise InputError(f"{what} on {name}: cannot read it ({exc.strerror or exc})") from None
    return decode_text(data, what, name)


def decode_text(data: bytes, what: str, name: str) -> str:
    """``data`` (at most :data:`MAX_INPUT_BYTES` + 1 bytes read) as UTF-8 text; a leading byte
    order mark (as Windows editors save) is dropped. InputError when too large or not UTF-8."""
    shown = f"{what} on {name}" if name == "standard input" else f"{what} {name!r}"
    if len(data) > MAX_INPUT_BYTES:
        raise InputError(f"{shown} is larger than {MAX_INPUT_BYTES // (1024 * 1024)} MiB")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InputError(f"{shown} is not UTF-8 text (byte {exc.start})") from None


def parse_toml(text: str) -> dict[str, Any]:
    """``tomllib.loads``, failing only with ValueError: a TOMLDecodeError, an integer of more
    than 4,300 digits, or arrays and tables nested too deeply for the parser."""
    try:
        return tomllib.loads(text)
    except RecursionError:
        raise ValueError("arrays or tables nested too deeply") from None
    except tomllib.TOMLDecodeError:
        raise
    except ValueError as exc:
        raise ValueError(value_error_text(exc)) from None


def value_error_text(exc: ValueError) -> str:
    """What a ValueError from reading a number says, for a user: Python's own limit on
    ``int()`` of long digit strings reads "an integer of more than 4,300 digits", not its advice
    for programmers (``sys.set_int_max_str_digits()``)."""
    if "integer string conversion" in str(exc):
        return f"an integer of more than {sys.get_int_max_str_digits():,} digits"
    return str(exc)


def digits_value(digits: str, what: str, high: int = MAX_WHOLE) -> int:
    """The whole number that a string of digits 0-9 writes, when it is at most ``high``
    (InputError otherwise), found before ``int()`` is asked: Python's refuses strings of more
    than 4,300 digits, with a message for programmers."""
    significant = digits.lstrip("0")
    if len(significant) > len(str(high)) or int(significant or "0") > high:
        shown = digits if len(digits) <= 24 else f"{digits[:12]}... ({len(digits):,} digits)"
        raise InputError(f"{what} {shown} is too large (at most {high:,})")
    return int(significant or "0")


def check_big(value: Any, what: str) -> int:
    """A whole number from 0 to :data:`MAX_WHOLE` (a score, count or weight)."""
    check_whole(value, what)
    if value > MAX_WHOLE:
        raise InputError(f"{what} {value} is too large (at most 2**62 = {MAX_WHOLE:,})")
    return value  # type: ignore[no-any-return]


def usable_cores() -> int:
    """How many cores this process may run on (its CPU affinity; else the machine's count)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def clamp_workers(workers: int | None, what: str = "workers") -> tuple[int, str | None]:
    """A worker count for work on this machine: ``workers`` (None: one per usable core),
    clamped to :func:`usable_cores` (more processes or threads than cores only compete for
    them), and the one-line notice saying so when it was clamped (else None). InputError
    when ``workers`` is not a whole number >= 1."""
    cores = usable_cores()
    if workers is None:
        return cores, None
    check_whole(workers, what, low=1)
    if workers <= cores:
        return workers, None
    return cores, f"{what} {workers} is more than the {plural(cores, 'core')} here; using {cores}"


def clamp_workers_warning(workers: int | None, what: str = "workers") -> int:
    """:func:`clamp_workers` for library functions: the count, with a :class:`WorkersClamped`
    warning carrying the notice when it was clamped."""
    count, notice = clamp_workers(workers, what)
    if notice is not None:
        warnings.warn(notice, WorkersClamped, stacklevel=3)
    return count


class WorkersClamped(UserWarning):
    """A worker count above the usable cores was lowered to them (the message says so)."""


MAX_SECONDS = 1e9
"""The longest duration used, in seconds (about 31 years): a longer one given means no
practical limit and is read as this (timers and ``select`` refuse far larger timeouts)."""


def check_seconds(value: Any, what: str = "time limit") -> float:
    """A duration in seconds: a finite number >= 0 (not a boolean, not NaN or infinity); one
    above :data:`MAX_SECONDS` is read as that (no practical limit)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise InputError(f"{what} must be a number of seconds, got {value!r}")
    try:
        seconds = float(value)
    except OverflowError:  # a whole number too large for a float: no practical limit, or below 0
        seconds = MAX_SECONDS if value > 0 else -math.inf
    if not math.isfinite(seconds) or seconds < 0:
        raise InputError(f"{what} must be a finite number of seconds >= 0, got {value!r}")
    return min(seconds, MAX_SECONDS)


def check_whole(value: Any, what: str, low: int = 0, high: int | None = None) -> int:
    """A whole number from ``low`` to ``high`` (inclusive; no upper end when None), not a boolean:
    an int, or an integer of another kind (numpy's), returned as an int."""
    try:
        if isinstance(value, bool):
            raise TypeError
        value = operator.index(value)
    except TypeError:
        raise InputError(f"{what} must be a whole number, got {value!r}") from None
    if value < low or (high is not None and value > high):
        limits = f"from {low} to {high}" if high is not None else f">= {low}"
        raise InputError(f"{what} must be a whole number {limits}, got {value!r}")
    return value


def as_items(value: Any, what: str) -> tuple[Any, ...]:
    """A list of names given as any iterable, or one name alone: a lone string is one item,
    never its letters (``only="C2C"`` was read as the items C, 2 and C). InputError for a
    value that is neither (a number, None)."""
    if isinstance(value, str):
        return (value,)
    if not isinstance(value, Iterable) or isinstance(value, Mapping):  # a dict would give its keys alone
        raise InputError(f"{what} must be a list of names, got {type(value).__name__}")
    return tuple(value)


MAX_SEED = 2**31 - 1
"""The largest random seed (the solvers' seeds are 32-bit signed integers)."""


def check_seed(value: Any) -> int:
    """A random seed: a whole number from 0 to :data:`MAX_SEED`."""
    return check_whole(value, "seed", 0, MAX_SEED)


def check_flag(value: Any, what: str) -> bool:
    """A boolean: ``true`` or ``false`` (no strings such as ``"false"``, no numbers)."""
    if not isinstance(value, bool):
        raise InputError(f"{what} must be true or false, got {value!r}")
    return value


def plain_int(value: Any) -> Any:
    """An integer of any kind (numpy's) as an int; anything else, a bool included, as it is,
    for the caller's own check and message."""
    return int(value) if isinstance(value, numbers.Integral) and not isinstance(value, bool) else value


def check_callbacks(**callbacks: Any) -> None:
    """Each keyword's value None or a function: InputError naming the first parameter that is
    neither, up front, rather than a TypeError from deep in the work once it is first called."""
    for name, value in callbacks.items():
        if value is not None and not callable(value):
            raise InputError(f"{name} must be a function (or None), got {type(value).__name__}")


def check_kind(value: Any, kind: type, what: str) -> Any:
    """``value`` when it is a ``kind``; else InputError saying what ``what`` expected and what came."""
    if not isinstance(value, kind):
        raise InputError(f"{what}: expected a {kind.__name__}, got {type(value).__name__}")
    return value


def check_text(value: Any, what: str) -> str:
    """A string (a TOML value or an argument that must be text)."""
    if not isinstance(value, str):
        raise InputError(f"{what} must be a string, got {value!r}")
    return value


def ascii_upper(text: str, what: str) -> str:
    """``text`` upper-cased, refusing letters outside A-Z first.

    Case folding before the check would read ``ß`` as ``SS`` and the dotless ``ı`` as ``I``.
    """
    odd = sorted({ch for ch in text if ch.isalpha() and not ("A" <= ch <= "Z" or "a" <= ch <= "z")})
    if odd:
        raise InputError(f"{what} may hold letters A-Z only; found {' '.join(map(repr, odd))}")
    return text.upper()


class FrozenDict(Mapping[K, V]):
    """A read-only, hashable mapping that keeps insertion order (questions and word lists use
    it so that they can be hashed, cached and sent to other processes unchanged).

    >>> FrozenDict({"A": 1}) == {"A": 1}, hash(FrozenDict({"A": 1})) == hash(FrozenDict({"A": 1}))
    (True, True)
    """

    __slots__ = ("_data", "_hash")

    def __init__(self, data: Mapping[K, V] | Iterable[tuple[K, V]] = ()) -> None:
        self._data: dict[K, V] = dict(data)
        self._hash: int | None = None

    def __getitem__(self, key: K) -> V:
        return self._data[key]

    def __iter__(self) -> Iterator[K]:
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)

    def __hash__(self) -> int:
        if self._hash is None:
            self._hash = hash(tuple(self._data.items()))
        return self._hash

    def __eq__(self, other: object) -> bool:
        if isinstance(other, FrozenDict):
            return self._data == other._data
        return self._data == other if isinstance(other, Mapping) else NotImplemented

    def __repr__(self) -> str:
        return f"FrozenDict({self._data!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (FrozenDict, (self._data,))
