"""Recovery copies: nothing is lost if the laptop dies (DESIGN §6).

While a plan has unsaved changes, ``Autosaver`` writes a copy every few seconds into the
application-data folder (``QStandardPaths.AppDataLocation``/recovery). Each window's copy is
guarded by a ``QLockFile`` held for the window's life; a copy whose lock is free (its process
ended without removing it — a crash) is an orphan that the next start offers to reopen.
A clean exit, a save, or opening another plan removes the copy.
"""

from __future__ import annotations

import json
import time
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from PySide6.QtCore import QLockFile, QObject, QStandardPaths, QTimer

from planner.io import dumps, load
from planner.model.document import Document
from planner.ui.session import DocumentSession

#: Seconds between recovery writes while the plan has unsaved changes.
AUTOSAVE_INTERVAL_S = 30
#: A write waits until the plan has been left alone this long, so that serialising a large plan
#: (about 1 s at 32,768 GPUs) does not stall a drag in progress.
AUTOSAVE_IDLE_S = 2.0


def recovery_dir() -> Path:
    """Where recovery copies live (created on demand)."""
    base = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.AppDataLocation)
    return Path(base) / "recovery"


def _write_atomic(path: Path, text: str) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(path)


@dataclass
class RecoveryCopy:
    """A recovery copy left behind by a session that did not exit cleanly."""

    plan_path: Path
    source: str | None
    saved_at: str
    _lock: QLockFile

    def load(self) -> Document:
        return load(self.plan_path)

    def discard(self) -> None:
        """Delete the copy and its lock."""
        for path in (self.plan_path, self.plan_path.with_suffix(".json")):
            path.unlink(missing_ok=True)
        self._lock.unlock()
        self.plan_path.with_suffix(".lock").unlink(missing_ok=True)

    def describe(self) -> str:
        where = Path(self.source).name if self.source else "an untitled plan"
        return f"{where}, autosaved {self.saved_at}"


def orphaned_copies(directory: Path | None = None) -> list[RecoveryCopy]:
    """Copies whose writer is gone (crashed), newest first. Unreadable copies are skipped."""
    folder = directory or recovery_dir()
    for lock_path in folder.glob("*.lock"):
        if not lock_path.with_suffix(".hall").exists():
            stale = QLockFile(str(lock_path))
            stale.setStaleLockTime(0)
            if stale.tryLock(0):  # its window is gone and left nothing to recover
                stale.unlock()
    found = []
    for plan_path in sorted(folder.glob("*.hall")):
        lock = QLockFile(str(plan_path.with_suffix(".lock")))
        lock.setStaleLockTime(0)
        if not lock.tryLock(0):
            continue
        try:
            info = json.loads(plan_path.with_suffix(".json").read_text(encoding="utf-8"))
        except (OSError, ValueError):
            info = {}
        found.append(RecoveryCopy(plan_path, info.get("source"), str(info.get("saved_at", "")), lock))
    return sorted(found, key=lambda c: c.saved_at, reverse=True)


class Autosaver(QObject):
    """Writes the session's plan to its recovery copy on a timer while there are unsaved changes."""

    def __init__(self, session: DocumentSession, directory: Path | None = None,
                 interval_s: float = AUTOSAVE_INTERVAL_S, idle_s: float = AUTOSAVE_IDLE_S,
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.source: str | None = None
        folder = directory or recovery_dir()
        folder.mkdir(parents=True, exist_ok=True)
        stem = folder / uuid.uuid4().hex
        self.plan_path = stem.with_suffix(".hall")
        self._info_path = stem.with_suffix(".json")
        self._lock = QLockFile(str(stem.with_suffix(".lock")))
        self._lock.tryLock(0)
        self._pending = False
        self.idle_s = idle_s
        self._last_change = 0.0
        session.changed.connect(self._mark)
        session.reset.connect(self.discard)
        session.undo_stack.cleanChanged.connect(self._on_clean_changed)
        self._timer = QTimer(self)
        self._timer.setInterval(int(interval_s * 1000))
        self._timer.timeout.connect(self.write_if_needed)
        self._timer.start()

    def _mark(self, _change: object = None) -> None:
        self._pending = True
        self._last_change = time.monotonic()

    def _on_clean_changed(self, clean: bool) -> None:
        if clean:
            self.discard()

    def write_if_needed(self) -> bool:
        """Write the copy if the plan changed since the last write and is not saved."""
        if not self._pending or self.session.undo_stack.isClean():
            return False
        busy_for = self.idle_s - (time.monotonic() - self._last_change)
        if busy_for > 0:
            QTimer.singleShot(int(busy_for * 1000) + 1, self, self.write_if_needed)
            return False
        self.write_now()
        return True

    def write_now(self) -> None:
        try:
            _write_atomic(self.plan_path, dumps(self.session.doc))
            stamp = datetime.now(UTC).astimezone().strftime("%Y-%m-%d %H:%M:%S")
            _write_atomic(self._info_path, json.dumps({"source": self.source, "saved_at": stamp}))
        except OSError:
            return
        self._pending = False

    def discard(self) -> None:
        """Remove the copy (the plan was saved, replaced, or the window closed cleanly)."""
        self._pending = False
        self.plan_path.unlink(missing_ok=True)
        self._info_path.unlink(missing_ok=True)

    def close(self) -> None:
        """Clean exit: remove the copy and release the lock."""
        self._timer.stop()
        self.discard()
        self._lock.unlock()

