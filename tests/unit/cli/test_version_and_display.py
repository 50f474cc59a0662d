"""`planner --version`, and `planner` with no display says so in one line instead of Qt aborting."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from planner import __version__
from planner.cli import main, no_display

NO_DISPLAY = "no display: set DISPLAY, or QT_QPA_PLATFORM=offscreen for headless use"


def test_version(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["--version"])
    assert exit_.value.code == 0 and capsys.readouterr().out == f"planner {__version__}\n"


@pytest.mark.parametrize(("env", "platform", "problem"), [
    ({}, "linux", NO_DISPLAY),
    ({"DISPLAY": ":0"}, "linux", ""),
    ({"WAYLAND_DISPLAY": "wayland-0"}, "linux", ""),
    ({"QT_QPA_PLATFORM": "offscreen"}, "linux", ""),
    ({}, "darwin", ""),
    ({}, "win32", ""),
])
def test_no_display_is_told_on_linux_only(env, platform, problem):
    assert no_display(env, platform) == problem


@pytest.mark.skipif(sys.platform != "linux", reason="the check is for Linux desktops")
def test_the_gui_without_a_display_exits_2_with_one_line(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}
    done = subprocess.run([sys.executable, "-I", "-B", "-m", "planner"], capture_output=True, text=True, env=env,
                          cwd=tmp_path, timeout=60, check=False)
    assert (done.returncode, done.stdout, done.stderr) == (2, "", f"planner: {NO_DISPLAY}\n")
