"""Recovery copies: nothing is lost if the laptop dies (DESIGN §6).

While a plan has unsaved changes, ``Autosaver`` writes a copy every few seconds into the
application-data folder (``QStandardPaths.AppDataLocation``/recovery). Each window's copy is
guarded by a ``QLockFile`` held for the window's life; a copy whose lock is free (its process
ended without removing it — a crash) is an orphan that the next start offers to reopen.
A clean exit, a save, or opening another plan removes the copy.
"""

from __future__ import annotations

import json
import threading
import time
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from PySide6.QtCore import QLockFile, QObject, QStandardPaths, QTimer

from planner.io import load
from planner.io.atomic import write_atomic
from planner.io.hallwrite import PlanSnapshot, encoded, pieces
from planner.model.document import Document
from planner.ui.session import DocumentSession
from planner.ui.writer import BackgroundWriter, take_snapshot

#: Seconds between recovery writes while the plan has unsaved changes.
AUTOSAVE_INTERVAL_S = 30
#: A write waits until the plan has been left alone this long (its snapshot is taken on the GUI
#: thread in slices, restarted by an edit; the text and the disk are a background thread's).
AUTOSAVE_IDLE_S = 2.0


def recovery_dir() -> Path:
    """Where recovery copies live (created on demand)."""
    base = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.AppDataLocation)
    return Path(base) / "recovery"


def _write_beside(path: Path, snap: PlanSnapshot) -> Path:
    """The snapshot's text in a temporary beside ``path`` (background thread); returns it."""
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "wb") as handle:
        handle.writelines(encoded(pieces(snap)))
    return tmp


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
                 parent: QObject | None = None, writer: BackgroundWriter | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.writer = writer if writer is not None else BackgroundWriter(self)
        # A copy written in the background is renamed into place only if no discard came since
        # its snapshot (the generation is unchanged): a discarded copy never comes back.
        self._generation = 0
        self._guard = threading.Lock()
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
        self.write_now(wait=False)
        return True

    def write_now(self, wait: bool = True) -> None:
        """Write the copy: a snapshot now, the file in the background; with ``wait``, return once
        it is in place (the event loop runs meanwhile)."""
        snap = take_snapshot(self.session.doc, self.session)
        self._pending = False  # an edit from now on sets it again
        stamp = datetime.now(UTC).astimezone().strftime("%Y-%m-%d %H:%M:%S")
        info = json.dumps({"source": self.source, "saved_at": stamp})
        generation = self._generation

        def work(snapshot: PlanSnapshot) -> None:
            tmp = _write_beside(self.plan_path, snapshot)
            with self._guard:
                if generation != self._generation:
                    tmp.unlink(missing_ok=True)
                    return
                tmp.replace(self.plan_path)
                write_atomic(self._info_path, info.encode("utf-8"), backup=False)

        def failed(future: object) -> None:
            if future.exception() is not None:  # type: ignore[attr-defined]
                self._pending = True  # try again at the next tick
        if wait:
            try:
                self.writer.run(snap, work)
            except OSError:
                self._pending = True
        else:
            self.writer.submit(snap, work, failed)

    def discard(self) -> None:
        """Remove the copy (the plan was saved, replaced, or the window closed cleanly)."""
        self._pending = False
        with self._guard:
            self._generation += 1
            self.plan_path.unlink(missing_ok=True)
            self._info_path.unlink(missing_ok=True)

    def close(self) -> None:
        """Clean exit: remove the copy and release the lock."""
        self._timer.stop()
        self.writer.wait_all()
        self.discard()
        self._lock.unlock()

