"""The template hall a benchmark measures: built with the CLI the first time, then loaded."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

from planner.io import load
from planner.model.document import Document


def plan_file(path: Path, nodes: int = 4096) -> Path:
    """The hall template of ``nodes`` nodes at ``path``, built with the CLI if it is not there."""
    if not path.exists():
        subprocess.run([sys.executable, "-m", "planner", "new", "--template", "hall", "--nodes", str(nodes),
                        "-o", str(path)], check=True)
    return path


def load_plan(path: Path) -> Document:
    """The plan at ``path`` (built first if missing), with a line saying what it holds."""
    start = time.perf_counter()
    doc = load(plan_file(path))
    print(f"plan: {path} ({len(doc.racks):,} racks, {len(doc.devices):,} devices, {len(doc.links):,} cables; "
          f"loaded in {time.perf_counter() - start:.2f} s)")
    return doc
