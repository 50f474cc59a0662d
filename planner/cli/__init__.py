"""The `planner` command: the GUI (`planner [FILE]`) and the headless subcommands (DESIGN §7).

Each subcommand lives in its own module with ``register(subparsers)``; ``SUBCOMMANDS`` lists
them in the order ``planner --help`` shows them.

Exit codes, the same for every subcommand (``planner.cli.common``): 0 success, 1 findings,
differences or a refusal (the plan would have errors), 2 an input that cannot be read or an
output that cannot be written (one line naming the path and why; files that were there stay
as they were), 141 quietly when the reader of standard output closed it (``| head``), 3 an
internal error (one line; ``--debug`` anywhere on the command line prints
the traceback). ``main`` maps what a subcommand raises onto them, so a traceback is never the
answer to bad input, a full disk or a read-only folder.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import os
import sys
import traceback
from typing import TextIO

from planner import __version__
from planner.cli.common import (
    EXIT_CLOSED_PIPE,
    EXIT_INTERNAL,
    EXIT_UNREADABLE,
    STDOUT_NAME,
    describe_os_error,
    say,
)
from planner.io import HallFileError

#: Modules that each add one headless subcommand.
SUBCOMMANDS: list[str] = [
    "planner.cli.validate",
    "planner.cli.report",
    "planner.cli.new",
    "planner.cli.fabric",
    "planner.cli.bom",
    "planner.cli.export",
    "planner.cli.import_netbox",
    "planner.cli.netbox",
    "planner.cli.verify",
    "planner.cli.diff",
    "planner.cli.merge",
    "planner.cli.comments",
    "planner.cli.cables",
]
DEBUG_FLAG = "--debug"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="planner",
        description="Hall Planner. planner [FILE] opens the GUI (on the bundled example hall "
        "when no FILE is given); the subcommands below work headless.",
        epilog="Exit status: 0 success; 1 findings, differences or a refusal; 2 an input that cannot "
        "be read or an output that cannot be written; 3 an internal error.",
    )
    parser.add_argument("--version", action="version", version=f"planner {__version__}")
    parser.add_argument(DEBUG_FLAG, action="store_true",
                        help="on an internal error, print the traceback (allowed anywhere on the line)")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND",
                                       help="a headless subcommand (planner COMMAND --help for its options)")
    for module_name in SUBCOMMANDS:
        importlib.import_module(module_name).register(subparsers)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    debug = DEBUG_FLAG in args
    args = [arg for arg in args if arg != DEBUG_FLAG]
    parser = build_parser()
    choices = parser._subparsers._group_actions[0].choices if parser._subparsers else None
    subcommand_names = set(choices or ())
    if not args or (args[0] not in subcommand_names and not args[0].startswith("-")):
        if len(args) > 1:
            parser.error(f"unknown command {args[0]!r}")
        problem = no_display()
        if problem:
            say(problem)
            return EXIT_UNREADABLE
        # imported here, so the subcommands never load Qt (one way: the window never imports the CLI)
        from planner.ui.app import run_gui

        return run_gui(args[0] if args else None)
    namespace = parser.parse_args(args)
    if namespace.command is None:
        parser.print_help()
        return 0
    return run_subcommand(namespace, debug)


def no_display(environ: dict[str, str] | None = None, platform: str | None = None) -> str:
    """Why the window cannot open here ("" when it can): on Linux without an X or Wayland display
    and no Qt platform chosen, Qt would abort the process (SIGABRT, a message about xcb plugins)
    instead of saying so."""
    env = os.environ if environ is None else environ
    if (platform or sys.platform) != "linux" or env.get("QT_QPA_PLATFORM"):
        return ""
    if env.get("DISPLAY") or env.get("WAYLAND_DISPLAY"):
        return ""
    return "no display: set DISPLAY, or QT_QPA_PLATFORM=offscreen for headless use"


class _Output:
    """Standard output that names itself when it cannot be written (a full disk behind ``>``, a
    file-size limit), so the one-line error says which output failed."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream

    def write(self, text: str) -> int:
        try:
            return self.stream.write(text)
        except BrokenPipeError:
            raise
        except OSError as exc:
            raise OSError(exc.errno, exc.strerror or str(exc), STDOUT_NAME) from exc

    def flush(self) -> None:
        try:
            self.stream.flush()
        except BrokenPipeError:
            raise
        except OSError as exc:
            raise OSError(exc.errno, exc.strerror or str(exc), STDOUT_NAME) from exc

    def __getattr__(self, name: str) -> object:
        return getattr(self.stream, name)


def run_subcommand(namespace: argparse.Namespace, debug: bool = False) -> int:
    """Run a parsed subcommand and map what it raises onto the exit codes (module docstring).

    For the subcommand's run, standard output is ``_Output`` (``contextlib.redirect_stdout``,
    undone however the run ends), so a write that fails names standard output."""
    stdout = sys.stdout
    try:
        with contextlib.redirect_stdout(_Output(stdout)):
            code = int(namespace.func(namespace) or 0)
            sys.stdout.flush()  # a full disk or a closed pipe shows here, not after we have returned
        return code
    except SystemExit:
        raise
    except HallFileError as exc:  # a plan read without load_or_exit
        say(f"{exc}")
        return EXIT_UNREADABLE
    except BrokenPipeError:  # `planner validate … | head`: the reader has what it wanted
        _silence(stdout)
        return EXIT_CLOSED_PIPE
    except OSError as exc:
        if exc.filename == STDOUT_NAME:
            _silence(stdout)
        say(describe_os_error(exc))
        return EXIT_UNREADABLE
    except KeyboardInterrupt:
        say("interrupted")
        return 130
    except Exception as exc:  # noqa: BLE001 (the contract: one line, exit 3, never a traceback)
        if debug:
            traceback.print_exc()
        text = str(exc).splitlines()[0] if str(exc) else ""
        hint = "" if debug else f" (run again with {DEBUG_FLAG} for the traceback)"
        say(f"internal error: {type(exc).__name__}{': ' + text[:300] if text else ''}{hint}")
        return EXIT_INTERNAL


def _silence(stream: TextIO) -> None:
    """Point a failed standard output at the null device, so that the interpreter's last flush
    of what is still buffered cannot print a second error after our one line."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, stream.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):  # not a real file (a test's capture): nothing to do
        pass
