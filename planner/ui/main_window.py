"""The main window: the floor plan in the middle, docks around it, menus, status bar.

Other parts plug in through ``EXTENSIONS``: each module named there has ``attach(window)`` and
adds its docks (``add_dock``), menu actions (``menu(title)``) and plan overlays; what one adds
that others use is declared on ``MainWindow`` as a typed ``Part`` (``planner.ui.parts``), so the
window's surface is read from its class and a part nobody provided is an error, not None. File handling (New/Open/Save, recent files, unsaved-changes prompts, autosave) lives
in ``planner.ui.files``; this module only wires it to menus and the title bar.
"""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QSettings, Qt
from PySide6.QtGui import QAction, QCloseEvent, QKeySequence, QShowEvent
from PySide6.QtWidgets import QDockWidget, QLabel, QMainWindow, QMenu, QMessageBox, QUndoView

from planner import __version__
from planner.io import FORMAT_VERSION
from planner.ui.dialogs.custom_type import CustomTypeDialog
from planner.ui.dialogs.hall_features import HallFeaturesDialog
from planner.ui.dialogs.title_block import TitleBlockDialog
from planner.ui.display_units import length_unit, to_display
from planner.ui.dock_strip import arrange_strip, separator
from planner.ui.elevation.dock import ElevationDock
from planner.ui.files import FileController
from planner.ui.parts import Part
from planner.ui.plan.palette import PaletteWidget
from planner.ui.plan.view import PlanView
from planner.ui.properties_dock import PropertiesDock
from planner.ui.session import DocumentSession
from planner.ui.trees import top_items

if TYPE_CHECKING:
    from planner.ui.asbuilt.attach import InstallProgress
    from planner.ui.asbuilt.verify_dock import VerifyDock
    from planner.ui.cables.dock import CableDock
    from planner.ui.cables.layer import CableLayer
    from planner.ui.plan.feature_tools import FeatureTools
    from planner.ui.review.comments_attach import CommentTool
    from planner.ui.review.comments_dock import CommentsDock
    from planner.ui.review.compare_attach import CompareController
    from planner.ui.review.merge_attach import MergeController
    from planner.ui.review.pins import CommentPins
    from planner.ui.underlay.attach import TwoPointTool, UnderlayPanel
    from planner.ui.underlay.layer import UnderlayLayer
    from planner.ui.validation.elevation_marks import ElevationMarks
    from planner.ui.validation.findings_dock import FindingsDock
    from planner.ui.validation.live import LiveValidator
    from planner.ui.validation.overlays import OverlayController

#: Modules with ``attach(window: MainWindow) -> None``, called in order when a window opens.
EXTENSIONS: list[str] = [
    "planner.ui.plan.feature_tools",  # first: event filters installed later (comment pins) see clicks first
    "planner.ui.validation.attach",
    "planner.ui.jobs.export_dialog",
    "planner.ui.fabric.attach",
    "planner.ui.cables.attach",
    "planner.ui.underlay.attach",
    "planner.ui.asbuilt.attach",
    "planner.ui.cables.list_attach",
    "planner.ui.review.comments_attach",
    "planner.ui.review.compare_attach",
    "planner.ui.review.merge_attach",
    "planner.ui.jobs.netbox_attach",
]

#: Top-level menus in the order they appear; ``menu()`` creates others after these.
MENU_ORDER = ("&File", "&Edit", "&View", "&Plan", "&Help")

APP_TITLE = "Hall Planner"
STATUS_TIMEOUT_MS = 6000

#: Default dock sizes (px) before a saved layout is restored. Side columns run the full height:
#: the palette with the rack elevation under it on the left (drops into a rack a short drag
#: away), the properties over the undo history on the right; the findings and the cables share
#: the strip under the plan. At 1400 × 900 the elevation shows a 52U rack whole at its smallest
#: scale (the palette scrolls by a row if it must), the properties show a rack's fields and
#: figures without scrolling, and the findings FINDINGS_ROWS rows.
LEFT_WIDTH = 300
RIGHT_WIDTH = 340
ELEVATION_HEIGHT = 532
PROPERTIES_HEIGHT = 610
FINDINGS_ROWS = 6.5
#: A window wider than 1400 px gives the palette up to this share of the extra width, for whole
#: names (the strip under the plan: ``planner.ui.dock_strip``).
PALETTE_SHARE = 0.5


def _plain(title: str) -> str:
    return title.replace("&", "").strip().lower()


class MainWindow(QMainWindow):
    """One open plan: the canvas, its docks and the menus that act on it."""

    # What the extensions add, by the extension that sets it (``planner.ui.parts``).
    feature_tools: Part[FeatureTools] = Part()  # plan.feature_tools
    live_validator: Part[LiveValidator] = Part()  # validation.attach
    findings_dock: Part[FindingsDock] = Part()
    design_basis_action: Part[QAction] = Part()
    overlays: Part[OverlayController] = Part()
    elevation_marks: Part[ElevationMarks] = Part()
    export_menu: Part[QMenu] = Part()  # jobs.export_dialog
    new_from_template_action: Part[QAction] = Part()  # fabric.attach
    cable_dock: Part[CableDock] = Part()
    cable_layer: Part[CableLayer] = Part()
    underlay_layer: Part[UnderlayLayer] = Part()  # underlay.attach
    scale_tool: Part[TwoPointTool] = Part()
    underlay_panel: Part[UnderlayPanel] = Part()
    import_drawing_action: Part[QAction] = Part()
    install_progress: Part[InstallProgress] = Part()  # asbuilt.attach
    verify_dock: Part[VerifyDock] = Part()
    verify_action: Part[QAction] = Part()
    import_ticks_action: Part[QAction] = Part()
    import_cable_list_action: Part[QAction] = Part()  # cables.list_attach
    comments_dock: Part[CommentsDock] = Part()  # review.comments_attach
    comment_pins: Part[CommentPins] = Part()
    comment_tool: Part[CommentTool] = Part()
    compare: Part[CompareController] = Part()  # review.compare_attach
    merge: Part[MergeController] = Part()  # review.merge_attach
    import_netbox_action: Part[QAction] = Part()  # jobs.netbox_attach
    netbox_push_action: Part[QAction] = Part()
    netbox_pull_action: Part[QAction] = Part()

    def __init__(self, session: DocumentSession, path: str | Path | None = None) -> None:
        super().__init__()
        self.session = session
        self.setObjectName("MainWindow")
        self._menus: dict[str, QMenu] = {}
        for title in MENU_ORDER:
            self.menu(title)

        self.plan_view = PlanView(session)
        self.setCentralWidget(self.plan_view)
        self.files = FileController(self, self.session, self.plan_view, Path(path) if path else None,
                                    self.show_status, self.edit_hall_features)

        self._docks_menu = QMenu("&Docks", self)
        self._build_docks()
        self._build_status_bar()
        self._build_file_menu()
        self._build_edit_menu()
        self._build_view_menu()
        self._build_plan_menu()

        session.undo_stack.cleanChanged.connect(self._on_clean_changed)
        # a message about the edit before (a refusal, "Assigned 4 racks…") is stale once the
        # stack moves: undo, redo or a new edit (one that reports itself does so after its push)
        session.undo_stack.indexChanged.connect(self.statusBar().clearMessage)
        self.files.path_changed.connect(self.update_title)
        self.update_title()
        self.resize(1400, 900)
        for module_name in EXTENSIONS:
            importlib.import_module(module_name).attach(self)
        self._build_help_menu()
        self._arrange_docks()
        self._restore_layout()

    # ------------------------------------------------------------ contract API
    def menu(self, title: str) -> QMenu:
        """The top-level menu called ``title`` ("&File", "&Edit" …), created on first use."""
        key = _plain(title)
        if key not in self._menus:
            self._menus[key] = self.menuBar().addMenu(title)
        return self._menus[key]

    def add_dock(self, dock: QDockWidget, area: Qt.DockWidgetArea = Qt.DockWidgetArea.RightDockWidgetArea) -> None:
        """Add a dock and list its show/hide toggle under View ▸ Docks."""
        if not dock.objectName():
            dock.setObjectName(dock.windowTitle().replace(" ", "_").lower() or "dock")
        self.addDockWidget(area, dock)
        self._docks_menu.addAction(dock.toggleViewAction())

    def show_status(self, message: str) -> None:
        self.statusBar().showMessage(message, STATUS_TIMEOUT_MS)

    # ---------------------------------------------------------------- building
    def _build_docks(self) -> None:
        # the side columns take the corners, so they run from the menu bar to the status bar and
        # the bottom docks (findings, cables) sit under the plan only
        for corner, area in ((Qt.Corner.TopLeftCorner, Qt.DockWidgetArea.LeftDockWidgetArea),
                             (Qt.Corner.BottomLeftCorner, Qt.DockWidgetArea.LeftDockWidgetArea),
                             (Qt.Corner.TopRightCorner, Qt.DockWidgetArea.RightDockWidgetArea),
                             (Qt.Corner.BottomRightCorner, Qt.DockWidgetArea.RightDockWidgetArea)):
            self.setCorner(corner, area)

        self.palette_widget = PaletteWidget(self.session)
        self.palette_dock = QDockWidget("Equipment", self)
        self.palette_dock.setObjectName("palette_dock")
        self.palette_dock.setWidget(self.palette_widget)
        self.add_dock(self.palette_dock, Qt.DockWidgetArea.LeftDockWidgetArea)

        # built (and so refreshed on a change) in this order: properties, then the elevation
        self.properties_dock = PropertiesDock(self.session, self)
        self.properties_dock.status_message.connect(self.show_status)
        self.add_dock(self.properties_dock)
        self.elevation_dock = ElevationDock(self.session, self)
        self.elevation_dock.status_message.connect(self.show_status)
        self.add_dock(self.elevation_dock, Qt.DockWidgetArea.LeftDockWidgetArea)  # under the palette
        self.undo_dock = QDockWidget("Undo history", self)
        self.undo_dock.setObjectName("undo_dock")
        undo_view = QUndoView(self.session.undo_stack)
        undo_view.setEmptyLabel("<opened plan>")
        undo_view.setWordWrap(True)  # "Generate fabric (…; 512 cables: kept …)" reads whole in the column
        undo_view.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.undo_dock.setWidget(undo_view)
        self.add_dock(self.undo_dock)

    def _arrange_docks(self) -> None:
        """Default dock sizes, once the extensions have added theirs and again at the size the
        window is first shown at (a saved layout overrides)."""
        left = LEFT_WIDTH + max(0, min(self.palette_widget.wanted_width() - LEFT_WIDTH,
                                       round((self.width() - 1400) * PALETTE_SHARE)))
        self.resizeDocks([self.palette_dock, self.properties_dock], [left, RIGHT_WIDTH],
                         Qt.Orientation.Horizontal)
        column = self.height() - self.menuBar().sizeHint().height() - self.statusBar().sizeHint().height()
        tree = self.palette_widget.tree
        rows = sum(1 + group.childCount() for group in top_items(tree))
        palette = (rows * max(tree.sizeHintForRow(0), 1) + 2 * tree.frameWidth()
                   + self.palette_widget.filter_edit.sizeHint().height() + 40)
        palette = max(min(palette, column - ELEVATION_HEIGHT), column // 4)
        self.resizeDocks([self.palette_dock, self.elevation_dock], [palette, column - palette],
                         Qt.Orientation.Vertical)
        self.resizeDocks([self.properties_dock, self.undo_dock],
                         [PROPERTIES_HEIGHT, max(column - PROPERTIES_HEIGHT, 80)], Qt.Orientation.Vertical)
        if type(self).findings_dock.provided(self):
            findings = self.findings_dock
            table = findings.table
            chrome = findings.sizeHint().height() - table.sizeHint().height()
            height = (chrome + table.horizontalHeader().sizeHint().height() + 2 * table.frameWidth()
                      + round(FINDINGS_ROWS * table.verticalHeader().defaultSectionSize()))
            self.resizeDocks([findings], [height], Qt.Orientation.Vertical)
            cables = self.cable_dock if type(self).cable_dock.provided(self) else None
            if cables is not None and self.dockWidgetArea(cables) == self.dockWidgetArea(findings):
                width = self.width() - left - RIGHT_WIDTH - 2 * separator(self)
                arrange_strip(self, findings, cables, width, cables.wanted_width(), height)

    def _build_status_bar(self) -> None:
        self._cursor_label = QLabel("")
        self._cursor_label.setMinimumWidth(170)
        self.statusBar().addPermanentWidget(self._cursor_label)
        self.plan_view.cursor_moved.connect(self._show_cursor)
        self.plan_view.status_message.connect(self.show_status)

    def _action(self, menu: QMenu, text: str, slot, shortcut: QKeySequence | QKeySequence.StandardKey | str | None = None,
                tip: str = "") -> QAction:
        action = QAction(text, self)
        if shortcut is not None:
            action.setShortcut(QKeySequence(shortcut))
        if tip:
            action.setStatusTip(tip)
        action.triggered.connect(slot)
        menu.addAction(action)
        return action

    def _build_file_menu(self) -> None:
        file_menu = self.menu("&File")
        self.new_action = self._action(file_menu, "&New hall…", self.files.new_hall, QKeySequence.StandardKey.New,
                                       "Start an empty hall from its size or a drawn outline")
        self.open_action = self._action(file_menu, "&Open…", self.files.open_dialog, QKeySequence.StandardKey.Open)
        self.recent_menu = file_menu.addMenu("Open &recent")
        self.recent_menu.aboutToShow.connect(self._fill_recent_menu)
        file_menu.addSeparator()
        self.save_action = self._action(file_menu, "&Save", self.files.save, QKeySequence.StandardKey.Save)
        self.save_as_action = self._action(file_menu, "Save &as…", self.files.save_as,
                                           QKeySequence.StandardKey.SaveAs)
        file_menu.addSeparator()
        self.quit_action = self._action(file_menu, "&Quit", self.close, QKeySequence.StandardKey.Quit)

    def _fill_recent_menu(self) -> None:
        self.recent_menu.clear()
        recent = self.files.recent_files()
        for path in recent:
            action = self.recent_menu.addAction(Path(path).name)
            action.setToolTip(path)
            action.setStatusTip(path)
            action.triggered.connect(lambda _checked=False, p=path: self.files.open_path(p, ask=True))
        if not recent:
            self.recent_menu.addAction("(none)").setEnabled(False)

    def _build_edit_menu(self) -> None:
        edit = self.menu("&Edit")
        stack = self.session.undo_stack
        self.undo_action = stack.createUndoAction(self, "&Undo")
        self.undo_action.setShortcut(QKeySequence("Ctrl+Z"))
        self.redo_action = stack.createRedoAction(self, "&Redo")
        self.redo_action.setShortcuts([QKeySequence("Ctrl+Shift+Z"), QKeySequence("Ctrl+Y")])
        edit.addAction(self.undo_action)
        edit.addAction(self.redo_action)
        edit.addSeparator()
        for action in self.plan_view.edit_actions():
            edit.addAction(action)

    def _build_view_menu(self) -> None:
        view = self.menu("&View")
        for action in self.plan_view.view_actions():
            if action is self.plan_view.row_tool_action:
                continue
            if action is self.plan_view.snap_action:
                view.addSeparator()
            view.addAction(action)
        view.addSeparator()
        view.addMenu(self._docks_menu)

    def _build_plan_menu(self) -> None:
        plan = self.menu("&Plan")
        plan.addAction(self.plan_view.row_tool_action)
        plan.addSeparator()
        self._action(plan, "&Title block…", self.edit_title_block,
                     tip="Project, hall, revision, author: printed on every export")
        self._action(plan, "&Hall features…", self.edit_hall_features,
                     tip="Outline, columns and walls, floor zones with their ratings, doors")
        self._action(plan, "&Define equipment type…", self.define_equipment_type,
                     tip="Add a custom catalogue entry; it is saved inside the plan")

    def _build_help_menu(self) -> None:
        self._action(self.menu("&Help"), f"&About {APP_TITLE}", self.about)

    # ------------------------------------------------------------------ slots
    def about(self) -> None:
        QMessageBox.about(self, f"About {APP_TITLE}",
                          f"<b>{APP_TITLE}</b> {__version__}<br>Plans liquid-cooled GPU clusters in a data hall: "
                          f"floor, power, cooling and a rail-optimised fabric, offline.<br><br>"
                          f"Plan files: .hall format version {FORMAT_VERSION} (JSON).")

    def edit_hall_features(self) -> None:
        dialog = HallFeaturesDialog(self.session.doc, self)
        if dialog.exec() == HallFeaturesDialog.DialogCode.Accepted:
            command = dialog.command()
            if command is not None:
                self.session.push(command)

    def edit_title_block(self) -> None:
        dialog = TitleBlockDialog(self.session.doc.meta, self)
        if dialog.exec() == TitleBlockDialog.DialogCode.Accepted:
            command = dialog.command()
            if command is not None:
                self.session.push(command)

    def define_equipment_type(self) -> None:
        dialog = CustomTypeDialog(self.session.doc, self)
        if dialog.exec() == CustomTypeDialog.DialogCode.Accepted:
            self.session.push(dialog.command())
            self.show_status(f"Defined {dialog.item().name}: it is in the palette and saved with the plan")

    def _show_cursor(self, x_m: float, y_m: float) -> None:
        doc, unit = self.session.doc, length_unit(self.session.doc)
        self._cursor_label.setText(f"x {to_display(doc, x_m):7.2f} {unit}   y {to_display(doc, y_m):7.2f} {unit}")

    def _on_clean_changed(self, clean: bool) -> None:
        self.setWindowModified(not clean)

    def update_title(self) -> None:
        self.setWindowTitle(f"{self.files.display_name()}[*] — {APP_TITLE}")
        self.setWindowModified(not self.session.undo_stack.isClean())

    # ------------------------------------------------------------- lifecycle
    def _restore_layout(self) -> None:
        settings = QSettings()
        geometry = settings.value("window/geometry")
        state = settings.value("window/state")
        self._geometry_restored = geometry is not None
        self._arrange_on_show = state is None
        if geometry is not None:
            self.restoreGeometry(geometry)
        if state is not None:
            self.restoreState(state)

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        if self._arrange_on_show:  # the default dock sizes for the size it opens at
            self._arrange_on_show = False
            self._arrange_docks()

    def show_as_last_time(self) -> None:
        """Show the window where it was when it last closed; the first time, fill the screen (the
        1400 × 900 default leaves a 1920 × 1080 screen's docks cramped and overflows a laptop's)."""
        if self._geometry_restored:
            self.show()
        else:
            # the screen's size before the window manager maximises it, and where none does
            available = self.screen().availableGeometry()
            if available.size().expandedTo(self.minimumSizeHint()) == available.size():
                self.setGeometry(available)
            self.showMaximized()

    def closeEvent(self, event: QCloseEvent) -> None:
        if not self.files.maybe_save():
            event.ignore()
            return
        settings = QSettings()
        settings.setValue("window/geometry", self.saveGeometry())
        settings.setValue("window/state", self.saveState())
        self.files.close_cleanly()
        event.accept()
