"""Live validation for the GUI: keeps a Validator in step with the session.

Every Change the session emits goes to ``Validator.update`` (only the affected rules and
subjects re-run), a New/Open runs everything again, and ``updated`` tells the findings dock,
the plan's red/amber marks and the overlays to refresh.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Signal

from planner.commands import Change
from planner.model.document import prefix_of
from planner.rules.context import Context
from planner.rules.engine import Validator
from planner.rules.finding import ERROR, WARNING, Finding, counts
from planner.ui.session import DocumentSession

_RANK = {ERROR: 2, WARNING: 1}


class LiveValidator(QObject):
    """The session's findings, always current."""

    #: Emitted with the full, sorted list of findings after each update that changed it.
    updated = Signal(object)

    def __init__(self, session: DocumentSession, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.validator = Validator(session.doc)
        session.changed.connect(self._on_changed)
        session.reset.connect(self.revalidate)

    @property
    def findings(self) -> list[Finding]:
        return self.validator.findings

    @property
    def context(self) -> Context:
        """The validator's cached figures (rack power, feed and CDU indices) for overlays."""
        return self.validator.ctx

    def revalidate(self) -> None:
        """Validate the session's document from scratch (a new document was opened)."""
        self.validator = Validator(self.session.doc)
        self.updated.emit(self.findings)

    def _on_changed(self, change: Change) -> None:
        if self.validator.doc is not self.session.doc:
            self.revalidate()
            return
        if self.validator.update(change):
            self.updated.emit(self.findings)

    def counts(self) -> dict[str, int]:
        return counts(self.findings)

    def summary(self) -> str:
        """"3 errors, 7 warnings" for the status bar."""
        tally = self.counts()
        errors, warnings = tally[ERROR], tally[WARNING]
        return f"{errors} error{'s' if errors != 1 else ''}, {warnings} warning{'s' if warnings != 1 else ''}"

    def severity_by_id(self) -> dict[str, str]:
        """The worst severity per subject id, for the red/amber marks on the plan."""
        worst: dict[str, str] = {}
        for finding in self.findings:
            if finding.severity not in _RANK:
                continue
            for subject in finding.subjects:
                if prefix_of(subject) == "zone":
                    continue  # a zone finding is about the rack on it, not the whole area
                if _RANK[finding.severity] > _RANK.get(worst.get(subject, ""), 0):
                    worst[subject] = finding.severity
        return worst
