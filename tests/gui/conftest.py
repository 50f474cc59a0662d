"""GUI tests: offscreen Qt, settings and app data isolated per test."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest
from PySide6.QtCore import QSettings, QStandardPaths


@pytest.fixture(autouse=True)
def isolated_settings(tmp_path, tmp_path_factory, monkeypatch):
    """Each GUI test gets empty QSettings and its own app-data folder (recovery copies, recent files)."""
    QStandardPaths.setTestModeEnabled(True)
    # test mode puts app data under $HOME/.qttest whatever XDG_DATA_HOME says: give each test a
    # HOME of its own (outside tmp_path, which tests may expect to stay empty)
    monkeypatch.setenv("HOME", str(tmp_path_factory.mktemp("home")))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    QSettings.setDefaultFormat(QSettings.Format.IniFormat)
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, str(tmp_path / "settings"))
    yield


@pytest.fixture(autouse=True)
def no_blocking_prompts(monkeypatch):
    """Modal prompts would hang an offscreen run: answer them without blocking.

    A message box takes its most cautious way out (Discard, No, Cancel, Ok in that order) and a
    file dialog is cancelled, so e.g. closing a window with unsaved edits at teardown neither
    hangs nor writes a file. Tests that need an answer patch these themselves; the questions
    asked are recorded in ``no_blocking_prompts`` (a list of (title, text)).
    """
    from PySide6.QtWidgets import QFileDialog, QMessageBox

    asked: list[tuple[str, str]] = []
    order = [QMessageBox.StandardButton.Discard, QMessageBox.StandardButton.No,
             QMessageBox.StandardButton.Cancel, QMessageBox.StandardButton.Ok]

    def answer(_parent, title, text, buttons=QMessageBox.StandardButton.Ok, *_args, **_kwargs):
        asked.append((title, text))
        return next((b for b in order if buttons & b), QMessageBox.StandardButton.Ok)

    for name in ("warning", "question", "critical", "information"):
        monkeypatch.setattr(QMessageBox, name, staticmethod(answer))
    monkeypatch.setattr(QMessageBox, "about", staticmethod(lambda *_a, **_k: None))
    for name in ("getSaveFileName", "getOpenFileName"):
        monkeypatch.setattr(QFileDialog, name, staticmethod(lambda *_a, **_k: ("", "")))
    monkeypatch.setattr(QFileDialog, "getExistingDirectory", staticmethod(lambda *_a, **_k: ""))
    return asked


@pytest.fixture
def make_view(qtbot):
    """Factory: a shown, hall-fitted PlanView over a session (or a document) at a given size."""
    from planner.ui.plan.view import PlanView
    from planner.ui.session import DocumentSession

    def make(session_or_doc, size=(1000, 700)):
        session = session_or_doc if isinstance(session_or_doc, DocumentSession) else DocumentSession(session_or_doc)
        plan = PlanView(session)
        qtbot.addWidget(plan)
        plan.resize(*size)
        plan.show()
        qtbot.waitExposed(plan)
        plan.fit_to_hall()
        return plan

    return make


@pytest.fixture
def make_window(qtbot):
    """Factory: a shown MainWindow over a document, hall fitted; closing it never asks to save."""
    from planner.ui.main_window import MainWindow
    from planner.ui.session import DocumentSession

    def make(doc, size=(1400, 900)):
        window = MainWindow(DocumentSession(doc))
        qtbot.addWidget(window, before_close_func=lambda w: w.session.undo_stack.setClean())
        window.resize(*size)
        window.show()
        qtbot.waitExposed(window)
        window.plan_view.fit_to_hall()
        return window

    return make


@pytest.fixture
def count_colour():
    """Pixels of ``image`` within ``rect`` close to ``colour`` (sum of channel differences under
    ``tolerance``): how tests see what the plan drew."""
    def count(image, rect, colour, tolerance: int = 40) -> int:
        hits = 0
        for x in range(max(0, rect.left()), min(image.width(), rect.right() + 1)):
            for y in range(max(0, rect.top()), min(image.height(), rect.bottom() + 1)):
                pixel = image.pixelColor(x, y)
                if (abs(pixel.red() - colour.red()) + abs(pixel.green() - colour.green())
                        + abs(pixel.blue() - colour.blue())) < tolerance:
                    hits += 1
        return hits

    return count


@pytest.fixture
def shell_session(qapp):
    """A session on the small test hall: R01–R03, each N1–N4 at U1, U5, U9, U13 and a 0U PDU;
    BB-A01, BB-B01, CDU-01 (tests/data/shell_hall.hall)."""
    from pathlib import Path

    from planner.io import load
    from planner.ui.session import DocumentSession

    return DocumentSession(load(Path(__file__).resolve().parents[1] / "data" / "shell_hall.hall"))


@pytest.fixture
def shell_elevation(shell_session, qtbot):
    """The rack elevation dock over ``shell_session``, shown."""
    from planner.ui.elevation.dock import ElevationDock

    dock = ElevationDock(shell_session)
    qtbot.addWidget(dock)
    dock.resize(360, 900)
    dock.show()
    qtbot.waitExposed(dock)
    return dock
