"""The `planner` command: the GUI (`planner [FILE]`) and the headless subcommands (DESIGN §7).

Each subcommand lives in its own module with ``register(subparsers)``; ``SUBCOMMANDS`` lists
them in the order ``planner --help`` shows them.
"""

from __future__ import annotations

import argparse
import importlib
import sys

#: Modules that each add one headless subcommand.
SUBCOMMANDS: list[str] = [
    "planner.cli.validate",
    "planner.cli.report",
    "planner.cli.new",
    "planner.cli.fabric",
    "planner.cli.bom",
    "planner.cli.export",
]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="planner",
        description="Hall Planner. `planner [FILE]` opens the GUI (on the bundled example hall "
        "when no FILE is given); the subcommands below work headless.",
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for module_name in SUBCOMMANDS:
        importlib.import_module(module_name).register(subparsers)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser()
    subcommand_names = set(parser._subparsers._group_actions[0].choices) if parser._subparsers else set()
    if not args or (args[0] not in subcommand_names and not args[0].startswith("-")):
        if len(args) > 1:
            parser.error(f"unknown command {args[0]!r}")
        from planner.ui.app import run_gui

        return run_gui(args[0] if args else None)
    namespace = parser.parse_args(args)
    if namespace.command is None:
        parser.print_help()
        return 0
    return int(namespace.func(namespace) or 0)
