"""The hall as built against the plan: installation state per cable, discovery checks, tick sheets.

Qt-free, beside ``planner.commands``: readers of discovery files are in ``planner.io.discovery``;
this package matches what they found to the planned cables and turns results into commands.
"""
