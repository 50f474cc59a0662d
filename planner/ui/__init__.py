"""Qt user interface: thin; turns gestures into commands on the DocumentSession.

Grouped by feature as the core is: the window and what every feature shares at the top
(``main_window``, ``session``, ``files``, ``writer``, ``recovery``, ``busy``, ``parts``,
``display_units``, ``properties_dock``); the plan canvas in ``plan/``; dialogs in ``dialogs/``;
then one folder per feature (``review/``, ``asbuilt/``, ``cables/``, ``validation/``,
``underlay/``, ``fabric/``, ``elevation/``, ``jobs/``), each plugged in by its ``attach`` module
(``main_window.EXTENSIONS``). The window never imports ``planner.cli``: long work runs through
``planner.jobs``.
"""
