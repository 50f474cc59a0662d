"""The .hall file: load, save (atomic, with backup), schema versions and migration."""

from planner.io.atomic import HallSaveError
from planner.io.hallfile import FORMAT_VERSION, HallFileError, dumps, load, loads, save

__all__ = ["FORMAT_VERSION", "HallFileError", "HallSaveError", "dumps", "load", "loads", "save"]
