"""Headless jobs both faces run: the command line calls them in-process, the window in a worker
process (``planner.ui.jobs.runner``). Qt-free, and free of the command line too, so that ``planner.ui``
never imports ``planner.cli``: long jobs and their worker pipe (``worker``), the NetBox import
(``netbox``), and the refusal a plan with rule errors gets before it is written (``gate``).
"""
