"""Entry script for the frozen build: the same as the `planner` command."""

from planner.cli import main

raise SystemExit(main())
