"""Shared pieces of the subcommands: the exit codes (DESIGN §7), one-line errors, reading a plan.

0 success; 1 findings, differences or a refusal; 2 an input that cannot be read or an output
that cannot be written; 3 an internal error. Errors go to stderr, one line, naming the path.
"""

from __future__ import annotations

import errno
import sys

from planner.io import HallFileError, HallSaveError, load
from planner.model.document import Document

EXIT_OK = 0
EXIT_FINDINGS = 1
EXIT_UNREADABLE = 2
EXIT_INTERNAL = 3
#: Standard output closed by its reader (``| head``): no message, the status of a program that
#: SIGPIPE ended (128 + 13), as the shell's own tools leave it.
EXIT_CLOSED_PIPE = 141
#: How errors name standard output (it has no path).
STDOUT_NAME = "standard output"


class CliExit(SystemExit):
    """Leave with a code after one line on stderr."""


def say(message: str) -> None:
    """One line on stderr, prefixed ``planner:`` (line breaks in the message become spaces)."""
    print(f"planner: {' '.join(message.split())}", file=sys.stderr)


def describe_os_error(exc: OSError) -> str:
    """An OSError as one line naming the path and the reason: ``cannot write OUT: No space left on device``."""
    reason = exc.strerror or (errno.errorcode.get(exc.errno or 0) if exc.errno else "") or str(exc) or \
        type(exc).__name__
    path = exc.filename if exc.filename is not None else "a file"
    verb = "cannot write" if isinstance(exc, HallSaveError) or path == STDOUT_NAME else "cannot use"
    return f"{verb} {path}: {reason}"


def load_or_exit(path: str, name: str | None = None) -> Document:
    """Load a plan; on failure print one line to stderr and exit with code 2. The line names
    ``name`` where given (the plan's own path when ``path`` is a temporary: git's merge driver)."""
    try:
        return load(path)
    except HallFileError as exc:
        where = "" if exc.path == "$" else f" at {exc.path}"
        first_line = str(exc).splitlines()[0] if str(exc) else "unreadable"
        if name is not None:
            first_line = first_line.replace(str(path), name)
        shown = str(path) if name is None else name
        named = first_line if shown in first_line else f"{shown}: {first_line}"
        say(f"{named}{where if exc.path not in first_line else ''}")
        raise CliExit(EXIT_UNREADABLE) from None
