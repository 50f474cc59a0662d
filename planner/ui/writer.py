"""Writing the plan without freezing the window: a snapshot on the GUI thread, in slices, and the
text and the disk in a thread of its own (issue 19: Save and autosave blocked the window 2.3 s
at 131,072 GPUs).

The snapshot (``planner.io.hallfile.snapshot``) copies about 40,000 objects per slice, one
slice per event-loop iteration (about 10 ms each); when the plan changes between slices (every
edit is a command and emits the session's ``changed``) it starts again, and after
``MAX_RESTARTS`` it is taken in one go, so it always holds one moment of the plan. The thread
gets only the snapshot's plain records and runs ``work(snapshot)`` (formatting and writing with
the atomic writer, no Qt object): writes run one after another in the order they were asked for,
never interleaved. The outcome comes back on the GUI thread through a poll timer.

Why a thread here when long jobs run in processes (``planner.ui.jobs.runner``): the crash that moved
exporters out of QThreads came from Python code and the GUI's cyclic collector racing over shared
objects; this thread touches no Qt object and no object of the plan, only records made for it.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

from PySide6.QtCore import QEventLoop, QObject, QTimer

from planner.io.hallfile import snapshot
from planner.io.hallwrite import PlanSnapshot
from planner.model.document import Document
from planner.ui.session import DocumentSession

#: How often the GUI thread looks for finished writes.
POLL_MS = 10
#: Restarts of a snapshot (the plan changed while it was taken) before it is taken in one go.
MAX_RESTARTS = 3

Work = Callable[[PlanSnapshot], Any]
Done = Callable[["Future[Any]"], None]


def take_snapshot(doc: Document, session: DocumentSession | None = None) -> PlanSnapshot:
    """A snapshot of ``doc``, taken in slices with the event loop running between them when the
    session whose plan it is can say whether it changed meanwhile; in one go otherwise."""
    snap = snapshot(doc)
    if session is None:
        return snap.take()
    changed = [False]

    def mark(_change: object = None) -> None:
        changed[0] = True

    session.changed.connect(mark)
    session.reset.connect(mark)
    loop = QEventLoop()
    try:
        while True:
            if changed[0]:
                changed[0] = False
                snap.restart()
                if snap.restarts > MAX_RESTARTS:
                    return snap.take()
            if snap.step():
                if not changed[0]:
                    return snap
                continue
            QTimer.singleShot(0, loop.quit)
            loop.exec()  # one pass of the event loop: paints, input, and maybe an edit
    finally:
        session.changed.disconnect(mark)
        session.reset.disconnect(mark)


class BackgroundWriter(QObject):
    """Runs writes of plan snapshots one after another in a thread; outcomes on the GUI thread."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._executor: ThreadPoolExecutor | None = None
        self._waiting: list[tuple[Future[Any], Done | None]] = []
        self._timer = QTimer(self)
        self._timer.setInterval(POLL_MS)
        self._timer.timeout.connect(self._poll)

    @property
    def busy(self) -> bool:
        return bool(self._waiting)

    def submit(self, snap: PlanSnapshot, work: Work, done: Done | None = None) -> Future[Any]:
        """Queue ``work(snap)`` behind the writes already asked for; ``done(future)`` follows on
        the GUI thread."""
        if self._executor is None:
            self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="hall-writer")
        future = self._executor.submit(work, snap)
        self._waiting.append((future, done))
        self._timer.start()
        return future

    def run(self, snap: PlanSnapshot, work: Work) -> Any:
        """``submit`` and wait for its outcome with the event loop running (the window repaints
        and takes input); returns the result or raises what the work raised."""
        future = self.submit(snap, work)
        if not future.done():
            loop = QEventLoop()
            poll = QTimer()
            poll.setInterval(POLL_MS)
            def check() -> None:
                if future.done():
                    loop.quit()

            poll.timeout.connect(check)
            poll.start()
            loop.exec()
            poll.stop()
        self._poll()
        return future.result()

    def _poll(self) -> None:
        while self._waiting and self._waiting[0][0].done():
            future, done = self._waiting.pop(0)
            if done is not None:
                done(future)
        if not self._waiting:
            self._timer.stop()

    def wait_all(self) -> None:
        """Block until every write asked for has ended (closing the window: nothing is dropped)."""
        for future, _done in list(self._waiting):
            try:
                future.result()
            except Exception:  # noqa: BLE001,S110 - reported by its own done callback below
                pass
        self._poll()

    def close(self) -> None:
        self.wait_all()
        if self._executor is not None:
            self._executor.shutdown(wait=True)
            self._executor = None
