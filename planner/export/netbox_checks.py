"""Every name the NetBox set writes, checked once against NetBox's limits (``netbox_names``: the
lengths from ``dcim/models``) and written as a spreadsheet cell; the problems are collected so the
export can refuse the plan with all of them at once (``planner.export.netbox``)."""

from __future__ import annotations

from collections.abc import Iterable

from planner.export.sheet_text import sheet_text, starts_like_formula


class Names:
    """The checks of one export: the problems found and the names written with a leading ``'``."""

    def __init__(self) -> None:
        self.problems: list[str] = []
        self.neutralised: set[str] = set()

    def cell(self, text: str) -> str:
        value = str(sheet_text(text))
        if value != text and starts_like_formula(text):
            self.neutralised.add(text)
        return value

    def check(self, what: str, text: str, limit: int) -> str:
        if len(text) > limit:
            self.problems.append(f"{what} {text[:40]}… has {len(text)} characters, NetBox allows {limit}")
        return self.cell(text)

    def unique(self, what: str, names: Iterable[str]) -> None:
        seen: dict[str, str] = {}
        for name in names:
            key = name.strip().casefold()
            if key in seen:
                case = f" (NetBox ignores case: {seen[key]!r})" if seen[key] != name else ""
                self.problems.append(f"two {what}s are both called {name!r}{case}")
            seen[key] = name
