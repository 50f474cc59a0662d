"""Entry script for the frozen build: the same as the `planner` command.

Exports and long jobs run in worker processes started with multiprocessing's "spawn"; in a
frozen build a worker is this executable started again, and ``freeze_support`` makes it run
the job instead of opening another window.
"""

import multiprocessing

from planner.cli import main

if __name__ == "__main__":
    multiprocessing.freeze_support()
    raise SystemExit(main())
