"""Comparing two revisions of a plan: what changed (diff) and combining two people's edits (merge).

Qt-free, beside ``planner.commands`` (DESIGN §2): it reads documents and builds commands, and
the CLI, the exports and the GUI's compare view all use the same result.
"""
