"""What a NetBox read refuses and how it says so: the error naming the file and row, the check
that a value read would load again from the .hall file, and a number cell's range. The set reader
(``planner.io.netbox``) uses them and gives ``NetBoxReadError`` to its callers."""

from __future__ import annotations

from planner.model.bounds import field_problem


class NetBoxReadError(ValueError):
    """The set cannot be read: ``where`` names the file (and row), the message says why."""

    def __init__(self, where: str, reason: str) -> None:
        super().__init__(f"{where}: {reason}")
        self.where = where


def check_fields(obj: object, where: str, names: tuple[str, ...]) -> None:
    """Refuse a value read from the set that the .hall format would refuse on loading (too long,
    out of range): the plan would save but not open again."""
    for name in names:
        problem = field_problem(type(obj).__name__, name, getattr(obj, name))
        if problem:
            raise NetBoxReadError(where, f"{name}: {problem}")


def read_number(text: str, where: str, column: str) -> float:
    """A number cell: empty is 0; anything but a number from 0 up to 1e9 is refused."""
    try:
        value = float(text) if text else 0.0
    except ValueError:
        raise NetBoxReadError(where, f"{column}: {text[:40]!r} is not a number") from None
    if not 0 <= value < 1e9:
        raise NetBoxReadError(where, f"{column}: {text[:40]!r} is out of range")
    return value
