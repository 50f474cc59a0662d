"""Smoke test on a real X server: the xcb platform plugin a user's desktop loads, real mouse events.

Every other GUI test runs offscreen, which never loads Qt's xcb plugin (and so never finds the
libxcb-* libraries it needs missing) and never runs a real drag-and-drop. This one starts Xvfb
on a free display and runs a child Python process with QT_QPA_PLATFORM=xcb (this pytest process
stays offscreen). The child opens the main window on a small plan and drives it with X input
events injected by xdotool (XTEST): it presses the mouse on a rack type in the palette, moves
the pointer in steps onto bare floor and releases it there, so Qt's own QDrag carries the drop;
then it presses Ctrl+Z with the plan focused (falling back to the undo action when the key does
not arrive) and reports what happened as one JSON line.

Needs Xvfb and xdotool (Debian: apt-get install xvfb xdotool, and the libxcb-* libraries that
.ci/run lists). Where either is missing it skips on a developer's machine, but fails when the
environment variable CI is set (CI=true): .ci/run installs them, so a missing tool there means
the install broke, and the only real-X11 test must not silently stop running.
"""

from __future__ import annotations

import json
import os
import select
import shutil
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path

import pytest

PLAN = Path(__file__).resolve().parents[1] / "data" / "shell_hall.hall"
RACK_TYPE = "rack-600x1200-48u"
#: Bare floor of shell_hall.hall (a 30 × 18 m hall whose racks stand near x 2–5 m, y 4–5.4 m).
DROP_AT_M = (15.0, 12.0)
SCREEN = "1600x1000x24"
XVFB_START_S = 10
CHILD_TIMEOUT_S = 40


@contextmanager
def xvfb_display(log_path: Path, screen: str = SCREEN):
    """Start Xvfb on the first free display (it reports the number on a pipe); stop it after."""
    read_fd, write_fd = os.pipe()
    with open(log_path, "wb") as log:
        server = subprocess.Popen(["Xvfb", "-displayfd", str(write_fd), "-screen", "0", screen,
                                   "-nolisten", "tcp"],
                                  pass_fds=(write_fd,), stdin=subprocess.DEVNULL, stdout=log, stderr=log)
    os.close(write_fd)
    try:
        number = b""
        deadline = time.monotonic() + XVFB_START_S
        while not number.endswith(b"\n") and time.monotonic() < deadline:
            ready, _, _ = select.select([read_fd], [], [], 0.2)
            if ready:
                chunk = os.read(read_fd, 16)
                if not chunk:
                    break
                number += chunk
        if not number.strip().isdigit():
            server.kill()
            server.wait(5)
            pytest.fail(f"Xvfb did not report a display within {XVFB_START_S} s:\n"
                        f"{log_path.read_text(errors='replace')}")
        yield f":{number.strip().decode()}"
    finally:
        os.close(read_fd)
        if server.poll() is None:
            server.terminate()  # lets Xvfb remove its lock file and socket
            try:
                server.wait(5)
            except subprocess.TimeoutExpired:
                server.kill()
        server.wait(5)


def in_ci(environ=os.environ) -> bool:
    """Whether this runs in CI: CI set to anything but empty, 0, false or no (CI=true in CI)."""
    return environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


def missing_prerequisites(which=shutil.which) -> list[str]:
    return [tool for tool in ("Xvfb", "xdotool") if which(tool) is None]


def require_prerequisites(environ=os.environ, which=shutil.which) -> None:
    """Skip where Xvfb or xdotool is missing, except in CI, where that fails the test."""
    missing = missing_prerequisites(which)
    if not missing:
        return
    why = (f"{' and '.join(missing)} not installed: the real-desktop (xcb) smoke test needs them "
           "(Debian: apt-get install xvfb xdotool, see .ci/run)")
    if in_ci(environ):
        pytest.fail(f"CI is set but {why}; .ci/run should have installed them", pytrace=False)
    pytest.skip(why)


@pytest.mark.parametrize(("ci", "expected"), [("true", pytest.fail.Exception), ("1", pytest.fail.Exception),
                                              ("", pytest.skip.Exception), ("false", pytest.skip.Exception),
                                              (None, pytest.skip.Exception)])
def test_a_missing_tool_fails_in_ci_and_skips_elsewhere(ci, expected):
    environ = {} if ci is None else {"CI": ci}
    with pytest.raises(expected, match="xdotool not installed"):
        require_prerequisites(environ, which=lambda tool: None if tool == "xdotool" else f"/usr/bin/{tool}")
    require_prerequisites(environ, which=lambda tool: f"/usr/bin/{tool}")  # all there: neither


def xcb_environment(display: str, tmp_path: Path) -> dict[str, str]:
    """The child's environment: Qt on xcb at ``display``, no scaling, settings and app data of its
    own under ``tmp_path`` (so a first start is a first start)."""
    env = dict(os.environ)
    for name in ("WAYLAND_DISPLAY", "QT_SCALE_FACTOR", "QT_SCREEN_SCALE_FACTORS",
                 "QT_AUTO_SCREEN_SCALE_FACTOR", "QT_ENABLE_HIGHDPI_SCALING"):
        env.pop(name, None)
    env.update(QT_QPA_PLATFORM="xcb", DISPLAY=display, PYTHONFAULTHANDLER="1",
               XDG_RUNTIME_DIR=str(tmp_path / "runtime"),
               XDG_CONFIG_HOME=str(tmp_path / "config"), XDG_DATA_HOME=str(tmp_path / "data"))
    (tmp_path / "runtime").mkdir(mode=0o700, exist_ok=True)
    return env


def _run_child(argv: list[str], env: dict[str, str], cwd: Path) -> dict:
    try:
        child = subprocess.run([sys.executable, __file__, *argv], check=False, env=env, cwd=cwd,
                               stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=CHILD_TIMEOUT_S)
    except subprocess.TimeoutExpired as exc:
        stderr = exc.stderr.decode(errors="replace") if isinstance(exc.stderr, bytes) else exc.stderr
        pytest.fail(f"the xcb child did not finish within {CHILD_TIMEOUT_S} s; its stderr:\n{stderr}")
    detail = f"exit code {child.returncode}\nstdout:\n{child.stdout}\nstderr:\n{child.stderr}"
    lines = [line for line in child.stdout.splitlines() if line.startswith("{")]
    assert child.returncode == 0 and lines, f"the xcb child failed: {detail}"
    result = json.loads(lines[-1])
    result["detail"] = detail
    return result


#: Where the second start's window is put before it closes (x, y, width, height).
NORMAL_GEOMETRY = (60, 40, 1280, 800)


@pytest.mark.xcb
def test_first_start_fills_a_1920_screen_and_the_next_opens_as_closed(tmp_path):
    """Issue 20: with no saved settings the window opens maximised, its frame the screen's
    available geometry (even with no window manager to maximise it); closed at another geometry,
    it reopens there on the next start."""
    require_prerequisites()
    with xvfb_display(tmp_path / "xvfb.log", "1920x1080x24") as display:
        env = xcb_environment(display, tmp_path)
        first = _run_child(["--geometry", "first"], env, tmp_path)
        second = _run_child(["--geometry", "again"], env, tmp_path)
    for result in (first, second):
        assert result["platform"] == "xcb" and result["error"] is None, result["detail"]
    assert first["available"] == [0, 0, 1920, 1080], first["detail"]
    assert first["maximized"], first["detail"]
    assert first["frame"] == first["available"], first["detail"]
    assert first["closed_at"] == list(NORMAL_GEOMETRY), first["detail"]
    assert not second["maximized"], second["detail"]
    assert second["geometry"] == list(NORMAL_GEOMETRY), second["detail"]


@pytest.mark.xcb
def test_palette_drop_and_undo_with_real_x_events(tmp_path):
    require_prerequisites()
    started = time.monotonic()
    with xvfb_display(tmp_path / "xvfb.log") as display:
        env = xcb_environment(display, tmp_path)
        try:
            child = subprocess.run([sys.executable, __file__, str(PLAN), str(DROP_AT_M[0]), str(DROP_AT_M[1])],
                                   check=False, env=env, cwd=tmp_path, stdin=subprocess.DEVNULL,
                                   capture_output=True, text=True, timeout=CHILD_TIMEOUT_S)
        except subprocess.TimeoutExpired as exc:
            stderr = exc.stderr.decode(errors="replace") if isinstance(exc.stderr, bytes) else exc.stderr
            pytest.fail(f"the xcb child did not finish within {CHILD_TIMEOUT_S} s; its stderr:\n{stderr}")
    detail = f"exit code {child.returncode}\nstdout:\n{child.stdout}\nstderr:\n{child.stderr}"
    lines = [line for line in child.stdout.splitlines() if line.startswith("{")]
    assert child.returncode == 0 and lines, f"the xcb child failed: {detail}"
    result = json.loads(lines[-1])
    assert result["platform"] == "xcb", detail
    assert result["error"] is None, detail
    assert result["racks_after_drop"] == result["racks_before"] + 1, detail
    assert result["added_rack_type"] == RACK_TYPE, detail
    # Ctrl+Z is a real key press through X; the undo action stands in only where the window
    # could not be made active (no window manager hands it the focus)
    assert result["undo_via"] == "key" or not result["window_active"], detail
    assert result["racks_after_undo"] == result["racks_before"], detail
    assert time.monotonic() - started < 60, detail


# ------------------------------------------------------------------ the child (runs on xcb)
def _child(plan_path: str, x_m: float, y_m: float) -> dict:
    from PySide6.QtCore import QCoreApplication, QEventLoop, QTimer
    from PySide6.QtWidgets import QApplication

    from planner.io import load
    from planner.ui.app import application
    from planner.ui.main_window import MainWindow
    from planner.ui.plan.palette import KEY_ROLE
    from planner.ui.plan.units import to_scene
    from planner.ui.session import DocumentSession

    result: dict = {"platform": None, "error": None, "racks_before": None, "racks_after_drop": None,
                    "added_rack_type": None, "undo_via": None, "racks_after_undo": None, "notes": []}

    def wait(predicate, timeout_s: float) -> bool:
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            QCoreApplication.processEvents(QEventLoop.ProcessEventsFlag.AllEvents, 50)
            if predicate():
                return True
            time.sleep(0.01)
        return predicate()

    def drive(steps: list[tuple[list[str], int]], timeout_s: float) -> None:
        """Run ``xdotool`` steps from timers, each followed by its pause (ms), so they go on while
        Qt sits in the nested event loop of a drag (QDrag.exec) that the steps themselves start."""
        state = {"next": 0, "done": False}

        def step() -> None:
            if state["next"] == len(steps):
                state["done"] = True
                return
            argv, pause_ms = steps[state["next"]]
            state["next"] += 1
            done = subprocess.run(["xdotool", *argv], check=False, capture_output=True, text=True,
                                  timeout=5)
            if done.returncode != 0:
                result["error"] = f"xdotool {' '.join(argv)}: exit {done.returncode}: {done.stderr.strip()}"
                state["done"] = True
                return
            QTimer.singleShot(pause_ms, step)

        QTimer.singleShot(0, step)
        if not wait(lambda: state["done"], timeout_s):
            result["error"] = f"xdotool steps stuck at {state['next']} of {len(steps)}"

    def screen_xy(widget, point) -> tuple[int, int]:
        """Device pixels on the X screen of ``point`` in ``widget``'s coordinates."""
        global_point = widget.mapToGlobal(point)
        ratio = widget.devicePixelRatioF()
        return round(global_point.x() * ratio), round(global_point.y() * ratio)

    app = application()
    result["platform"] = QApplication.platformName()
    window = MainWindow(DocumentSession(load(plan_path)))
    session = window.session
    window.resize(1400, 900)
    window.move(0, 0)
    window.show()
    window.raise_()
    window.activateWindow()
    if not wait(lambda: window.windowHandle() is not None and window.windowHandle().isExposed(), 10):
        result["error"] = "the main window was never exposed"
        return result
    window.plan_view.fit_to_hall()
    wait(lambda: False, 0.3)  # let the layout and the fit settle

    # ---------------------------------------------------------------- drag from the palette
    tree = window.palette_widget.tree
    entry = next((tree.topLevelItem(g).child(c) for g in range(tree.topLevelItemCount())
                  for c in range(tree.topLevelItem(g).childCount())
                  if tree.topLevelItem(g).child(c).data(0, KEY_ROLE) == RACK_TYPE), None)
    if entry is None:
        result["error"] = f"{RACK_TYPE} is not in the palette"
        return result
    tree.scrollToItem(entry)
    wait(lambda: False, 0.1)
    start = screen_xy(tree.viewport(), tree.visualItemRect(entry).center())
    plan = window.plan_view
    end = screen_xy(plan.viewport(), plan.mapFromScene(to_scene(x_m, y_m)))
    result["from_xy"], result["to_xy"] = start, end
    racks = session.doc.racks
    before = set(racks)
    result["racks_before"] = len(before)

    steps: list[tuple[list[str], int]] = [(["mousemove", str(start[0]), str(start[1])], 150),
                                          (["mousedown", "1"], 150)]
    for i in range(1, 4):  # past the start-drag distance, slowly, so the view starts its drag
        steps.append((["mousemove", str(start[0] + 6 * i), str(start[1] + 2 * i)], 60))
    count = 24
    for i in range(1, count + 1):
        x = round(start[0] + (end[0] - start[0]) * i / count)
        y = round(start[1] + (end[1] - start[1]) * i / count)
        steps.append((["mousemove", str(x), str(y)], 40))
    for dx in (2, -2, 0):  # a few moves over the target: drag-enter, then drag-move there
        steps.append((["mousemove", str(end[0] + dx), str(end[1])], 80))
    steps.append((["mouseup", "1"], 200))
    drive(steps, 20)
    if result["error"]:
        return result
    wait(lambda: len(racks) == len(before) + 1, 5)
    result["racks_after_drop"] = len(racks)
    added = set(racks) - before
    if len(added) == 1:
        result["added_rack_type"] = racks[next(iter(added))].type
    if len(racks) != len(before) + 1:
        result["notes"].append(f"status bar: {window.statusBar().currentMessage()!r}")
        return result

    # ------------------------------------------------------------------------------- undo
    if not plan.hasFocus():
        window.activateWindow()
        plan.setFocus()
        wait(plan.hasFocus, 2)
    result["plan_focused"] = plan.hasFocus()
    result["window_active"] = window.isActiveWindow()
    drive([(["key", "ctrl+z"], 100)], 5)
    if wait(lambda: len(racks) == len(before), 3):
        result["undo_via"] = "key"
    else:
        focus = QApplication.focusWidget()
        result["notes"].append(f"ctrl+z did not undo (focus: {type(focus).__name__ if focus else None}); "
                               "used the undo action")
        window.undo_action.trigger()
        wait(lambda: len(racks) == len(before), 2)
        result["undo_via"] = "action"
    result["racks_after_undo"] = len(racks)
    session.undo_stack.setClean()
    window.close()
    wait(lambda: False, 0.1)
    del app
    return result


def _geometry_child(phase: str) -> dict:
    """Open the window as ``planner`` does (show_as_last_time) on the example hall and report its
    geometry; the first start then closes it at NORMAL_GEOMETRY (saving it), the next as it is."""
    from PySide6.QtCore import QCoreApplication, QEventLoop, QRect
    from PySide6.QtWidgets import QApplication

    from planner.ui.app import application, load_example
    from planner.ui.main_window import MainWindow
    from planner.ui.session import DocumentSession

    def rect(r) -> list[int]:
        return [r.x(), r.y(), r.width(), r.height()]

    def wait(predicate, timeout_s: float) -> bool:
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            QCoreApplication.processEvents(QEventLoop.ProcessEventsFlag.AllEvents, 50)
            if predicate():
                return True
            time.sleep(0.01)
        return predicate()

    result: dict = {"platform": None, "error": None}
    app = application()
    result["platform"] = QApplication.platformName()
    window = MainWindow(DocumentSession(load_example()))
    window.show_as_last_time()
    if not wait(lambda: window.windowHandle() is not None and window.windowHandle().isExposed(), 10):
        result["error"] = "the main window was never exposed"
        return result
    wait(lambda: False, 0.5)  # let a window manager (if any) and the layout settle
    result.update(available=rect(window.screen().availableGeometry()), frame=rect(window.frameGeometry()),
                  geometry=rect(window.geometry()), maximized=window.isMaximized())
    if phase == "first":
        window.showNormal()
        window.setGeometry(QRect(*NORMAL_GEOMETRY))
        wait(lambda: rect(window.geometry()) == list(NORMAL_GEOMETRY), 3)
        result["closed_at"] = rect(window.geometry())
    window.session.undo_stack.setClean()
    window.close()  # saves the geometry
    wait(lambda: False, 0.1)
    del app
    return result


if __name__ == "__main__":
    if sys.argv[1] == "--geometry":
        print(json.dumps(_geometry_child(sys.argv[2])), flush=True)
        sys.exit(0)
    outcome = _child(sys.argv[1], float(sys.argv[2]), float(sys.argv[3]))
    print(json.dumps(outcome), flush=True)
    sys.exit(0)
