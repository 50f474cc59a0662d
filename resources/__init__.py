"""Bundled data: equipment catalogue, example halls, icons. Located with importlib.resources."""
