"""The core must not import Qt: every module outside planner/ui imports with PySide6 blocked."""

from __future__ import annotations

import pkgutil
import subprocess
import sys

import planner

CHECK = r"""
import importlib, sys
class Block:
    def find_spec(self, name, path=None, target=None):
        if name == "PySide6" or name.startswith("PySide6.") or name.startswith("shiboken"):
            raise ImportError(f"Qt imported: {name}")
        return None
sys.meta_path.insert(0, Block())
for name in sys.argv[1:]:
    importlib.import_module(name)
print("ok", len(sys.argv) - 1)
"""


# "-I": the check must import the installed package, not the source tree in the working folder
# (resources/ becomes planner.resources only in an install).


def core_modules() -> list[str]:
    names = []
    for info in pkgutil.walk_packages(planner.__path__, "planner."):
        if info.name.startswith("planner.ui") or info.name == "planner.__main__":
            continue
        names.append(info.name)
    return names


def test_core_modules_import_without_qt():
    modules = core_modules()
    assert "planner.model.document" in modules and "planner.io.hallfile" in modules
    result = subprocess.run([sys.executable, "-I", "-c", CHECK, *modules], capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == f"ok {len(modules)}"


def test_blocker_catches_a_qt_import():
    result = subprocess.run([sys.executable, "-I", "-c", CHECK, "planner.ui.main_window"], capture_output=True, text=True, check=False)
    assert result.returncode != 0 and "Qt imported" in result.stderr
