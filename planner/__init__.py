"""Hall Planner: plan liquid-cooled GPU training clusters in a data hall, offline."""

__version__ = "0.1.0"
