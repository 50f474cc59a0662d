"""Parts of the main window that its extensions provide, declared on the window with their types.

Each module in ``main_window.EXTENSIONS`` adds docks, layers and actions in ``attach(window)``.
What it adds that others use (the live validator, the Cables dock, …) is a ``Part`` declared on
``MainWindow``, so the window's whole surface, with types, is read from its class; setting one
is an ordinary assignment in the extension. Reading a part no extension has set (an extension
left out of ``EXTENSIONS``, or one that reads another listed after it) raises ``MissingPart``
naming it, instead of handing back None to fail later; an extension that may run without
another asks first: ``type(window).cable_dock.provided(window)``.
"""

from __future__ import annotations

from typing import Generic, TypeVar, overload

T = TypeVar("T")


class MissingPart(AttributeError):
    """A window part was read before any extension provided it."""


class Part(Generic[T]):
    """A typed attribute of the window that one extension sets (see the module docstring)."""

    def __set_name__(self, owner: type, name: str) -> None:
        self.owner = owner.__name__
        self.name = name

    @overload
    def __get__(self, window: None, owner: type | None = None) -> Part[T]: ...
    @overload
    def __get__(self, window: object, owner: type | None = None) -> T: ...

    def __get__(self, window: object | None, owner: type | None = None) -> Part[T] | T:
        if window is None:
            return self
        try:
            value: T = window.__dict__[self.name]
        except KeyError:
            raise MissingPart(f"{self.owner}.{self.name}: no extension has provided it (is the one "
                              "that does in EXTENSIONS, and listed before its readers?)") from None
        return value

    def __set__(self, window: object, value: T) -> None:
        window.__dict__[self.name] = value

    def provided(self, window: object) -> bool:
        return self.name in window.__dict__
