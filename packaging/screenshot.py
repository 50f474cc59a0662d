"""Render the main window offscreen at 1920 × 1080 on the bundled example hall, its fabric
generated, the Cables dock showing and rack R03 selected: docs/main-window.png.

Run from the repository root: ``python packaging/screenshot.py [OUT.png]``. The README's
screenshot comes from here, never drawn by hand. Settings and app data go to a temporary
folder, so the window opens as on a first start (the default dock sizes for its size) and the
picture does not depend on (or change) the user's own.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QSettings, QStandardPaths

from planner.fabric.hall import cable_hall
from planner.fabric.sizing import default_switch
from planner.ui.app import EXAMPLE_NAME, application, load_example
from planner.ui.main_window import MainWindow
from planner.ui.session import DocumentSession

DEFAULT_OUT = Path(__file__).resolve().parents[1] / "docs" / "main-window.png"
SIZE = (1920, 1080)
SELECTED = "rack-3"


def render(out: Path) -> Path:
    with tempfile.TemporaryDirectory() as scratch:
        QStandardPaths.setTestModeEnabled(True)
        os.environ["XDG_DATA_HOME"] = scratch
        QSettings.setDefaultFormat(QSettings.Format.IniFormat)
        QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, scratch)
        app = application()
        doc = load_example()
        window = MainWindow(DocumentSession(doc))
        window.files.untitled_name = EXAMPLE_NAME
        window.update_title()
        window.resize(*SIZE)
        window.show()
        window.session.push(cable_hall(doc, default_switch(doc), doc.basis.oversubscription, "middle"))
        for _ in range(5):
            app.processEvents()
        window.session.select({SELECTED})
        app.processEvents()
        window.plan_view.fit_to_hall()
        window.plan_view.cursor_moved.emit(4.4, 4.8)
        for _ in range(5):
            app.processEvents()
        out.parent.mkdir(parents=True, exist_ok=True)
        if not window.grab().save(str(out)):
            raise OSError(f"could not write {out}")
        window.session.undo_stack.setClean()
        window.close()
    return out


if __name__ == "__main__":
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT_OUT
    print(render(target))
