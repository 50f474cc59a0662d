"""Time the Cables dock through the real widget (offscreen) on a big template hall (issue 9).

Usage: QT_QPA_PLATFORM=offscreen python benchmarks/bench_cable_dock.py [--hall PATH] [--runs 5]

Without ``--hall`` it uses /tmp/halls/h4096.hall (32,768 GPUs, 98,304 cables), generating it
with ``planner new --template hall --nodes 4096`` if missing. Every figure is the median of
``--runs`` runs and includes letting the event loop settle (the table repaints), since that is
what a user waits for:

- open: building the dock beside a shown window (what opening a plan pays for the dock), and
  the same plus showing and painting it;
- idle: how long after the dock shows its idle-time work (search texts, label keys) is done;
- filter: one keystroke turning "R10" into "R100" (``QTest.keyClick``); the first keystroke
  into a fresh dock once the idle build is done, and typed at once (the index built then),
  with the slowest of the next three ("R" → "R100"); pasting "r100 sr4"; clearing the box;
- sort: a click on a column header ("End A", natural order), warm and the first on a fresh
  dock (its sort keys built then);
- edits pushed through the session: renaming a node rack and a network rack (their cables' end
  texts change), moving a rack, deleting one cable and a whole node rack, and the undos.

Not a test: it prints a table of medians beside the targets.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from importlib import import_module
from pathlib import Path
from typing import Any

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QEvent, QPoint, Qt, qInstallMessageHandler
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QMainWindow

from planner.commands import SetFields
from planner.commands.edits import delete_objects, move_objects
from planner.io import load
from planner.model.document import Document
from planner.ui.session import DocumentSession

DEFAULT_HALL = Path("/tmp/halls/h4096.hall")


def settle(app: QApplication) -> None:
    """Let queued events and repaints run, as the user would see them."""
    app.processEvents()
    app.processEvents()


def median_ms(samples: list[float]) -> float:
    return statistics.median(samples) * 1000.0


class Bench:
    """A shown main window with a Cables dock at the bottom, over one session."""

    def __init__(self, app: QApplication, doc: Document, dock_class: type) -> None:
        self.app = app
        self.dock_class = dock_class
        self.session = DocumentSession(doc)
        self.window = QMainWindow()
        self.window.resize(1400, 900)
        self.window.show()
        self.dock: Any = None
        settle(app)

    def new_dock(self, show: bool = True) -> float:
        """Replace the dock by a fresh one; seconds to build it (and to show and paint it)."""
        if self.dock is not None:
            self.window.removeDockWidget(self.dock)
            self.dock.deleteLater()
            self.dock = None
            # processEvents() leaves deferred deletes queued: an old dock would keep answering edits
            self.app.sendPostedEvents(None, QEvent.Type.DeferredDelete)
            settle(self.app)
        start = time.perf_counter()
        self.dock = self.dock_class(self.session, None, self.window)
        self.window.addDockWidget(Qt.DockWidgetArea.BottomDockWidgetArea, self.dock)
        if show:
            self.dock.show()
            settle(self.app)
        return time.perf_counter() - start

    def timed(self, action: Callable[[], object]) -> float:
        start = time.perf_counter()
        action()
        settle(self.app)
        return time.perf_counter() - start

    def type_key(self, key: str) -> None:
        assert self.dock is not None
        QTest.keyClick(self.dock.filter, key)

    def click_header(self, column: int) -> None:
        assert self.dock is not None
        header = self.dock.table.horizontalHeader()
        x = header.sectionViewportPosition(column) + header.sectionSize(column) // 2
        QTest.mouseClick(header.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                         QPoint(x, header.height() // 2))

    def idle_build(self) -> float:
        """Seconds until the dock's idle-time preparation is done (0 if it has none)."""
        assert self.dock is not None
        cables = getattr(self.dock.model, "cables", None)
        start = time.perf_counter()
        while cables is not None and not cables.ready:
            self.app.processEvents()
        return time.perf_counter() - start

    def set_filter(self, text: str) -> None:
        assert self.dock is not None
        self.dock.filter.setText(text)
        settle(self.app)


def _quiet(_mode: object, _context: object, message: str) -> None:
    """The offscreen platform warns on every dock shown; keep the table readable."""
    if "propagateSizeHints" not in message:
        print(message, file=sys.stderr)


def run(doc: Document, runs: int, dock_class: type) -> list[tuple[str, float, str]]:
    qInstallMessageHandler(_quiet)
    app = QApplication.instance() or QApplication([])
    bench = Bench(app, doc, dock_class)
    rows: list[tuple[str, float, str]] = []

    build = [bench.new_dock(show=False) for _ in range(runs)]
    rows.append(("open: build dock", median_ms(build), "small"))
    shown = [bench.new_dock() for _ in range(runs)]
    rows.append(("open: build + show + paint", median_ms(shown), "small"))

    at_once, typing, idle, idle_key, cold_sort = [], [], [], [], []
    for _ in range(runs):
        bench.new_dock()
        at_once.append(bench.timed(lambda: bench.type_key("R")))
        typing.append(max(bench.timed(lambda c=c: bench.type_key(c)) for c in "100"))
    for _ in range(runs):
        bench.new_dock()
        idle.append(bench.idle_build())
        idle_key.append(bench.timed(lambda: bench.type_key("R")))
    for _ in range(runs):
        bench.new_dock()
        bench.idle_build()
        cold_sort.append(bench.timed(lambda: bench.click_header(1)))
    assert bench.dock is not None
    bench.set_filter("")
    key, paste, clear = [], [], []
    for _ in range(runs):
        bench.set_filter("R10")
        key.append(bench.timed(lambda: bench.type_key("0")))
        shown_count = bench.dock.count.text()
        bench.set_filter("")
        paste.append(bench.timed(lambda: bench.dock.filter.setText("r100 sr4")))
        clear.append(bench.timed(lambda: bench.dock.filter.setText("")))
    rows.append(("idle: index ready after show (wall)", median_ms(idle), "-"))
    rows.append(("filter: keystroke R10→R100", median_ms(key), "< 100 ms"))
    rows.append(("filter: first keystroke 'R' after idle build", median_ms(idle_key), "< 100 ms"))
    rows.append(("filter: first keystroke 'R' at once (cold)", median_ms(at_once), "< 100 ms"))
    rows.append(("filter: then '1','0','0', slowest", median_ms(typing), "< 100 ms"))
    rows.append(("filter: paste 'r100 sr4'", median_ms(paste), "< 100 ms"))
    rows.append(("filter: clear", median_ms(clear), "< 100 ms"))
    sort = [bench.timed(lambda: bench.click_header(1)) for _ in range(runs)]
    rows.append(("sort: header click, End A", median_ms(sort), "< 300 ms"))
    rows.append(("sort: same, first click (fresh dock)", median_ms(cold_sort), "< 300 ms"))

    for name, values in _edits(bench.session.doc):
        samples, undos = [], []
        for _ in range(runs):
            samples.append(bench.timed(lambda v=values: bench.session.push(v())))
            undos.append(bench.timed(bench.session.undo_stack.undo))
        rows.append((f"edit: {name}", median_ms(samples), "< 100 ms"))
        rows.append((f"edit: undo {name}", median_ms(undos), "< 100 ms"))
    print(f"(R100 filter shows {shown_count}; {bench.dock.count.text()} in all)")
    return rows


def _edits(doc: Document) -> list[tuple[str, Callable[[], object]]]:
    """Edits on a node rack, on the busiest network rack, and on one cable."""
    node_rack = next(r for r in doc.racks.values() if r.name == "R100")
    busiest = max(doc.racks, key=lambda r: sum(len(doc.link_ids_of(d.id)) for d in doc.devices_in(r)))
    net_links = sum(len(doc.link_ids_of(d.id)) for d in doc.devices_in(busiest))
    node_links = sum(len(doc.link_ids_of(d.id)) for d in doc.devices_in(node_rack.id))
    link = next(iter(doc.links))
    return [
        (f"rename node rack ({node_links} cables)",
         lambda: SetFields({node_rack.id: {"name": "RX100"}}, "Rename")),
        (f"rename network rack ({net_links} cables)",
         lambda: SetFields({busiest: {"name": "NETX"}}, "Rename")),
        ("move node rack", lambda: move_objects(doc, [node_rack.id], 0.6, 0.0)),
        ("delete 1 cable", lambda: delete_objects(doc, [link])),
        (f"delete node rack ({node_links} cables)", lambda: delete_objects(doc, [node_rack.id])),
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hall", type=Path, default=None)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--dock-module", default="planner.ui.cables.dock",
                        help="module whose CableDock is timed (to compare with an earlier version)")
    args = parser.parse_args()
    path = args.hall or DEFAULT_HALL
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        subprocess.run([sys.executable, "-m", "planner", "new", "--template", "hall", "--nodes", "4096",
                        "-o", str(path)], check=True)
    doc = load(path)
    print(f"{path}: {len(doc.links):,} cables, {len(doc.racks):,} racks; median of {args.runs} runs")
    rows = run(doc, args.runs, import_module(args.dock_module).CableDock)
    width = max(len(name) for name, _ms, _target in rows)
    print(f"{'':{width}} {'median ms':>10}  target")
    for name, ms, target in rows:
        print(f"{name:{width}} {ms:>10.1f}  {target}")


if __name__ == "__main__":
    main()
