"""Long work (opening, saving, re-routing every cable) shows a wait cursor and says what it is doing."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication

from planner.io import save
from planner.ui import files
from planner.ui.fabric import attach as fabric_attach


def _spy(monkeypatch, module, name, window, seen):
    real = getattr(module, name)

    def spy(*args, **kwargs):
        cursor = QGuiApplication.overrideCursor()
        seen.append((cursor.shape() if cursor else None, window.statusBar().currentMessage()))
        return real(*args, **kwargs)

    monkeypatch.setattr(module, name, spy)


def test_open_save_and_recompute_show_that_they_are_working(make_window, example_doc, monkeypatch, tmp_path):
    window = make_window(example_doc)
    path = tmp_path / "pod.hall"
    save(example_doc, path)
    seen: list = []
    _spy(monkeypatch, files, "load", window, seen)
    _spy(monkeypatch, files, "take_snapshot", window, seen)  # the GUI thread's part of a save
    _spy(monkeypatch, fabric_attach, "recompute_lengths", window, seen)
    assert window.files.open_path(path, ask=False)
    assert window.files.save()
    fabric_attach.recompute(window)
    wait = Qt.CursorShape.WaitCursor
    # every cable of the example is routed: 512 compute, 384 power cords, 143 out-of-band, 72 storage,
    # 68 in-band and 64 coolant hoses = 1,243
    assert seen == [(wait, "Opening pod.hall…"), (wait, "Saving pod.hall…"), (wait, "Routing 1,243 cables…")]
    assert QGuiApplication.overrideCursor() is None
    assert window.statusBar().currentMessage() == "0 cable lengths changed"
