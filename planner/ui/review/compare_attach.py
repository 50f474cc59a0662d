"""File ▸ Compare with: another .hall, or the last saved version of this one, drawn under the plan
(``ui.review.compare_layer``) with every difference listed in the Changes dock (``ui.review.changes_dock``); listed
in ``main_window.EXTENSIONS`` after ``ui.validation.attach``, whose live validator it reads.

Comparing never edits: the other revision is a document of its own, loaded and validated once
when the comparison starts. While comparing, each edit of the plan re-diffs it (after a short
pause, so a burst of edits costs one diff) with the consequences included: the plan's findings
and figures come from the live validator, which is already current, so a refresh costs the
object comparison and the listing, not a validation. Stop comparing (the menu toggle, closing
the Changes dock, Esc in the dock or on the plan) hides the other revision; the plan and its
undo history are as they were.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QEvent, QObject, Qt, QTimer
from PySide6.QtGui import QAction, QKeyEvent, QKeySequence
from PySide6.QtWidgets import QApplication, QFileDialog, QMessageBox

from planner.io import HallFileError, load
from planner.model.document import Document
from planner.review.consequences import PlanState, design_figures, plan_state
from planner.review.diff import KIND_OF_PREFIX, PlanDiff, diff_plans
from planner.review.text import Line
from planner.rules.figures import cdu_name
from planner.ui.busy import busy
from planner.ui.review.changes_dock import ChangesDock
from planner.ui.review.compare_layer import CompareLayer, place_of

if TYPE_CHECKING:
    from planner.ui.main_window import MainWindow

#: Pause after an edit before the comparison is brought up to date (ms).
REFRESH_MS = 250
_OBJECT_KINDS = frozenset(KIND_OF_PREFIX.values())


class CompareController(QObject):
    """One window's comparison: the other revision, its findings and figures, the latest diff."""

    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self.window = window
        self.session = window.session
        self.other: Document | None = None
        self.other_state: PlanState | None = None
        self.label = ""
        self.last_source: Path | None = None
        self.diff: PlanDiff | None = None
        self._placed = False
        self.layer = CompareLayer()
        for item in self.layer.items():
            window.plan_view.plan_scene.add_layer(item)
            item.setVisible(False)
        self.dock = ChangesDock(window)
        window.add_dock(self.dock, Qt.DockWidgetArea.RightDockWidgetArea)
        self.dock.hide()
        self.dock.line_activated.connect(self.go_to)
        self.dock.stop_requested.connect(self.stop)
        self.dock.toggleViewAction().triggered.connect(self._dock_toggled)
        self.dock.visibilityChanged.connect(self._dock_visibility)
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(REFRESH_MS)
        self._timer.timeout.connect(self.refresh)
        self.session.changed.connect(self._on_changed)
        self.session.reset.connect(self.stop)
        window.plan_view.installEventFilter(self)
        self.another_action = QAction("&Another plan…", window)
        self.another_action.setShortcut(QKeySequence("Ctrl+Alt+D"))
        self.another_action.setStatusTip("Draw another .hall under this plan and list every difference")
        self.another_action.triggered.connect(lambda: self.compare_with_file())
        self.saved_action = QAction("&Last saved version", window)
        self.saved_action.setStatusTip("Draw the file as last saved under this plan and list what changed since")
        self.saved_action.triggered.connect(self.compare_with_saved)
        self.toggle_action = QAction("&Show comparison", window)
        self.toggle_action.setCheckable(True)
        self.toggle_action.setEnabled(False)
        self.toggle_action.setStatusTip("Show or hide the last comparison (Esc hides it)")
        self.toggle_action.toggled.connect(self.set_shown)

    @property
    def active(self) -> bool:
        return self.other is not None

    # ---------------------------------------------------------------- starting
    def compare_with_file(self, path: str | Path | None = None) -> bool:
        """Compare the plan with another .hall (asked for when ``path`` is None)."""
        if path is None:
            start = str(self.window.files.path.parent) if self.window.files.path else ""
            name, _filter = QFileDialog.getOpenFileName(self.window, "Compare with", start,
                                                        "Hall plans (*.hall);;All files (*)")
            if not name:
                return False
            path = name
        path = Path(path)
        return self._start_from(path, f"{path.name}")

    def compare_with_saved(self) -> bool:
        """Compare the plan with its file on disk (what the last save wrote)."""
        path = self.window.files.path
        if path is None:
            self.window.show_status("This plan has not been saved yet: there is no saved version to compare with")
            return False
        return self._start_from(path, f"the last saved version of {path.name}")

    def _start_from(self, path: Path, label: str) -> bool:
        try:
            with busy(self.window, f"Reading {path.name} to compare…"):
                other = load(path)
        except HallFileError as exc:
            QMessageBox.warning(self.window, "Compare with", f"{path.name} cannot be compared:\n\n{exc}")
            return False
        self.last_source = path
        self.start(other, label)
        return True

    def start(self, other: Document, label: str) -> None:
        """Compare the plan with ``other`` (``label`` names it in the dock and the status bar)."""
        with busy(self.window, f"Checking {label}…"):
            self.other_state = plan_state(other)
        self.other, self.label = other, label
        for item in self.layer.items():
            item.setVisible(True)
        self.refresh()
        self._show_dock()
        self.toggle_action.setEnabled(True)
        self.toggle_action.setChecked(True)
        count = self.dock.count()
        self.window.show_status(f"Comparing with {label}: {count:,} change{'s' if count != 1 else ''}"
                                if count else f"Comparing with {label}: no differences")

    def _show_dock(self) -> None:
        """Show the Changes dock as a tab over the properties (a tall column: room for a long
        list), unless the user has put it elsewhere."""
        properties = self.window.properties_dock
        if not self._placed and not properties.isFloating():
            self.window.tabifyDockWidget(properties, self.dock)
        self._placed = True
        self.dock.show()
        self.dock.raise_()

    # --------------------------------------------------------------- updating
    def _on_changed(self, _change: Any) -> None:
        if self.active:
            self._timer.start()

    def refresh(self) -> None:
        """Diff the plan as it is now against the other revision, and show it."""
        if self.other is None or self.other_state is None:
            return
        live = self.window.live_validator
        live.finish()  # a hall's first checks may still be running: the comparison needs them all
        doc = self.session.doc
        now = PlanState(list(live.findings), design_figures(live.context))
        self.diff = diff_plans(self.other, doc, old_state=self.other_state, new_state=now)
        self.layer.show_diff(self.other, doc, self.diff)
        self.dock.show_diff(self.diff, f"Comparing {self.label} (before) with this plan (now)")

    # ----------------------------------------------------------------- stopping
    def stop(self) -> None:
        """Hide the other revision and the Changes dock; the plan is not touched."""
        if not self.active:
            return
        self._timer.stop()
        self.other = self.other_state = self.diff = None
        self.layer.clear()
        for item in self.layer.items():
            item.setVisible(False)
        self.dock.clear()
        self.dock.hide()
        self.toggle_action.setChecked(False)
        self.window.show_status("Stopped comparing")

    def set_shown(self, on: bool) -> None:
        """The menu toggle: off stops comparing, on compares again with the last file chosen."""
        if on and not self.active:
            if self.last_source is None or not self._start_from(self.last_source, self._label_for(self.last_source)):
                self.toggle_action.setChecked(False)
        elif not on:
            self.stop()

    def _label_for(self, path: Path) -> str:
        same = self.window.files.path is not None and path == self.window.files.path
        return f"the last saved version of {path.name}" if same else path.name

    def _dock_toggled(self, visible: bool) -> None:
        """View ▸ Docks ▸ Changes unticked by the user: stop comparing."""
        if not visible:
            self.stop()

    def _dock_visibility(self, visible: bool) -> None:
        """A saved window layout may show the dock at start-up: it has nothing to list then."""
        if visible and not self.active:
            QTimer.singleShot(0, self.dock, self.dock.hide)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """Esc on the plan stops comparing when no gesture or tool is under way (then Esc is theirs)."""
        if (self.active and event.type() == QEvent.Type.KeyPress and isinstance(event, QKeyEvent)
                and event.key() == Qt.Key.Key_Escape
                and QApplication.mouseButtons() == Qt.MouseButton.NoButton
                and not self.window.plan_view.row_tool_action.isChecked()):
            self.stop()
        return False

    # ------------------------------------------------------------------ going to
    def go_to(self, line: Line) -> None:
        """Centre the plan on what a Changes line is about and select it where it still exists."""
        entry, doc = line.entry, self.session.doc
        if line.status in ("new", "resolved"):
            ids = [i for i in entry["objects"] if i in doc]
            self._show(ids, [] if ids else entry["objects"])
        elif line.status == "figure":
            self._show(_figure_subjects(doc, entry), [])
        elif "kind" not in entry:  # a cable
            cables = type(self.window).cable_dock.provided(self.window)
            if entry["id"] in doc.links and cables:
                self.window.cable_dock.select_link(entry["id"])
            elif entry["id"] in doc.links:
                self._show([entry["id"]], [])
            elif self.other is not None and entry["id"] in self.other.links:
                link = self.other.links[entry["id"]]
                self._show([], [link.a_device, link.b_device])
        elif entry["kind"] not in _OBJECT_KINDS:
            self.window.show_status(line.text)
        elif entry["id"] in doc:
            self._show([entry["id"]], [])
        else:
            self._show([], [entry["id"]])

    def _show(self, ids: list[str], gone: list[str]) -> None:
        """Select and centre on ``ids`` (in the plan); or centre on where ``gone`` stood in the
        other revision."""
        view = self.window.plan_view
        if ids:
            self.session.select(set(ids))
            view.centre_on_ids(ids)
            return
        places = [p for p in (place_of(self.other, i) for i in gone) if p is not None] if self.other else []
        if places:
            self.session.select(set())
            view.centre_on_rect(min(p[0] for p in places), min(p[1] for p in places),
                                max(p[2] for p in places), max(p[3] for p in places))


def _figure_subjects(doc: Document, entry: dict[str, Any]) -> list[str]:
    """The feed, CDU or zone a figure line is about, found by name in the plan."""
    name = entry["name"]
    if entry["kind"] == "feed":
        return [b.id for b in doc.busbars.values() if b.name == name]
    if entry["kind"] == "zone":
        return [z.id for z in doc.zones.values() if z.name == name]
    units = [u.id for u in doc.floor_units.values() if u.name == name]
    return units or [d.id for d in doc.devices.values() if "/" in name and cdu_name(doc, d.id) == name]


def attach(window: MainWindow) -> None:
    """Add File ▸ Compare with (beside Open, before Save) and the Changes dock to a main window."""
    controller = CompareController(window)
    window.compare = controller
    file_menu = window.menu("&File")
    menu = file_menu.addMenu("Compare &with")
    menu.addAction(controller.another_action)
    menu.addAction(controller.saved_action)
    menu.addSeparator()
    menu.addAction(controller.toggle_action)
    file_menu.removeAction(menu.menuAction())
    file_menu.insertMenu(window.save_action, menu)
    file_menu.insertSeparator(window.save_action)
