"""`python -m planner` behaves like the `planner` command."""

from planner.cli import main

raise SystemExit(main())
