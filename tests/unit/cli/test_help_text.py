"""Help text for every argument (issue 20): every subcommand's every positional argument and
option says what it is, and no `--help` shows markup meant for docstrings (backticks, reST roles).
The parser is walked as `planner.cli.build_parser` builds it, nested subcommands included."""

from __future__ import annotations

import argparse
import re

import pytest

from planner.cli import build_parser

MARKUP = re.compile(r"`|:(?:ref|class|func|meth|mod|attr):|\*\*")


def parsers() -> list[tuple[str, argparse.ArgumentParser]]:
    """Every parser under `planner`, by its command line ("planner", "planner cables import", …)."""
    found: list[tuple[str, argparse.ArgumentParser]] = []

    def walk(name: str, parser: argparse.ArgumentParser) -> None:
        found.append((name, parser))
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for sub, child in action.choices.items():
                    walk(f"{name} {sub}", child)

    walk("planner", build_parser())
    return found


def actions() -> list[tuple[str, argparse.Action]]:
    """Every argument of every parser but -h, and every subcommand's entry in its parent's list."""
    rows: list[tuple[str, argparse.Action]] = []
    for name, parser in parsers():
        for action in parser._actions:
            if isinstance(action, argparse._HelpAction):
                continue
            rows.append((f"{name} {'/'.join(action.option_strings) or action.dest}", action))
            if isinstance(action, argparse._SubParsersAction):
                rows += [(f"{name} {choice.dest}", choice) for choice in action._choices_actions]
    return rows


def test_the_walk_finds_every_subcommand_and_the_nested_ones():
    names = {name for name, _parser in parsers()}
    assert {"planner new", "planner fabric", "planner merge", "planner cables import"} <= names
    assert len(names) >= 13


@pytest.mark.parametrize("where, action", actions(), ids=lambda value: value if isinstance(value, str) else "")
def test_every_argument_has_help_without_markup(where, action):
    assert action.help and action.help != argparse.SUPPRESS and action.help.strip(), f"{where}: no help text"
    assert "`" not in action.help, f"{where}: {action.help!r}"


@pytest.mark.parametrize("name, parser", parsers(), ids=lambda value: value if isinstance(value, str) else "")
def test_help_shows_no_markup(name, parser):
    shown = parser.format_help()
    assert not MARKUP.search(shown), f"{name} --help: {MARKUP.search(shown)}"


def test_the_arguments_the_issue_named_have_help():
    named = dict(actions())
    assert "template" in named["planner new --template"].help
    assert named["planner fabric file"].help
    fabric = dict(parsers())["planner fabric"].format_help()
    assert "`" not in fabric
