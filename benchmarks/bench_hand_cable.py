"""A cable made by hand in the real window, end to end (issue 18): the figures behind run_all's
"hand cable" rows, or on their own over one plan.

Usage: QT_QPA_PLATFORM=offscreen python benchmarks/bench_hand_cable.py [--hall PATH] [--cables 16]
       (without --hall: `planner new --template hall --nodes 4096` into a temporary folder)

A template hall is cabled to its last port, so each sample first frees a node's port and its leaf's
port by deleting their cable (not timed), then, as a user does: the node's port is picked in the
rack elevation and Enter opens the port picker (timed: "picker opens"), the picker is pre-filled
with the leaf and its port (as a Ctrl+click in the elevation fills it) and OK is pressed — timed
from OK until the window is idle again (command built and routed with the live validation's
router, pushed, N1–N9 re-checked, findings, plan, elevation, Cables dock and status bar repainted)
— then Undo is timed the same way, and the deletion is undone. The cables are spread over the
hall: every ``len(node-leaf cables) / --cables``-th one.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

#: Cables connected by hand per run (each: picker, connect, undo).
DEFAULT_CABLES = 16


def sample_cables(doc: Any, count: int) -> list[str]:
    """Node-leaf cables spread over the hall (every n-th in plan order)."""
    ids = [lk.id for lk in doc.links.values() if lk.tier == "node-leaf"]
    step = max(1, len(ids) // max(count, 1))
    return ids[::step][:count]


def hand_cable_figures(window: Any, settle: Callable[[], float], dist: Callable[[list[float]], Any],
                       count: int = DEFAULT_CABLES) -> dict[str, Any]:
    """Connect ``count`` cables by hand through the elevation and the port picker, and undo each:
    {"hand_connect_ms": …, "hand_picker_ms": …}, each summarised by ``dist`` (run_all's)."""
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest

    from planner.fabric.hand_commands import delete_cables_command

    session = window.session
    doc, stack = session.doc, session.undo_stack
    elevation = window.elevation_dock.elevation
    edits: list[float] = []
    pickers: list[float] = []
    for link_id in sample_cables(doc, count):
        link = doc.links[link_id]
        node, port, leaf, leaf_port = link.a_device, link.a_port, link.b_device, link.b_port
        session.push(delete_cables_command(doc, [link_id]))  # free both ports (not timed)
        session.select({node})
        settle()
        elevation.pick((node, port))
        start = time.perf_counter()
        QTest.keyClick(elevation, Qt.Key.Key_Return)  # Enter: the picker opens for the far end
        picker = elevation.cabling.picker
        if picker is None:
            raise RuntimeError("Enter on a picked free port opened no port picker")
        picker.select_device(leaf, leaf_port)  # as Ctrl+click on the leaf's port pre-fills it
        pickers.append((settle() - start) * 1000)
        if picker.chosen() != (leaf, leaf_port):
            raise RuntimeError(f"the picker chose {picker.chosen()}, not {(leaf, leaf_port)}")
        for action in (picker.accept, window.undo_action.trigger):  # OK, then Undo
            index = stack.index()
            start = time.perf_counter()
            action()
            edits.append((settle() - start) * 1000)
            if stack.index() == index:
                raise RuntimeError(f"{action} did not change the undo stack")
        window.undo_action.trigger()  # the deleted cable back
        settle()
        if doc.links.get(link_id) != link:
            raise RuntimeError(f"{link_id} did not come back as it was")
    return {"hand_connect_ms": dist(edits), "hand_picker_ms": dist(pickers)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hall", type=Path, default=None)
    parser.add_argument("--cables", type=int, default=DEFAULT_CABLES)
    args = parser.parse_args()
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from run_all import Settler, dist, open_hall, quiet_prompts

    with tempfile.TemporaryDirectory() as folder:
        path = args.hall
        if path is None:
            path = Path(folder) / "hall-4096.hall"
            subprocess.run([sys.executable, "-m", "planner", "new", "--template", "hall", "--nodes", "4096",
                            "-o", str(path)], check=True, capture_output=True)
        settler = Settler()
        from planner.ui.app import application

        quiet_prompts()
        application()
        window, _seconds = open_hall(path)
        settler.settle()
        settler.pause_periodic()
        print(f"{path}: {len(window.session.doc.links):,} cables", file=sys.stderr)
        figures = hand_cable_figures(window, settler.settle, dist, args.cables)
        window.session.undo_stack.setClean()
    print(json.dumps(figures, indent=1))
    os._exit(0)


if __name__ == "__main__":
    main()
