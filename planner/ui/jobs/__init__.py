"""Long work from the window: the worker-process job runner (``planner.jobs`` does the work), the export and template dialogs and the NetBox import."""
