"""Long jobs (exports, template builds, verify) in a worker process, watched from the GUI thread.

Why a process: an exporter running in a QThread while the cyclic GC ran in the GUI thread crashed
the app about one run in six, and pausing the GC only hid it. A worker process shares no Python
object with the GUI: its input goes over as data (the plan as a ``.hall`` file, ``plan_input``;
parameters as frozen dataclasses) and its result comes back as data over a pipe
(``planner.jobs.worker``).

Why ``multiprocessing`` with the "spawn" context rather than QProcess running ``planner``: the
child imports the job function by name, so a job is any module-level function, tests can run fake
ones, and the frozen build works through ``multiprocessing.freeze_support``. "spawn" (never
"fork") because a forked copy of a process running Qt threads may inherit held locks. The app
started as ``python -m planner`` or as the installed ``planner`` script is safe to spawn from:
multiprocessing skips a ``__main__`` module and runs a script only as ``__mp_main__``.

The GUI thread never blocks: a QTimer polls the pipe. Cancel terminates the worker's process
group (it may run a pool of its own); a worker that dies (killed, a crash) is reported with its
exit status rather than waited on; files and folders the job was given to clean are removed
whatever the outcome, after the worker is gone.
"""

from __future__ import annotations

import multiprocessing
import os
import shutil
import signal
import tempfile
import threading
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from PySide6.QtCore import QCoreApplication, QEventLoop, QObject, QTimer, Signal, SignalInstance
from PySide6.QtWidgets import QDialog, QLabel, QProgressBar

from planner.io.hallwrite import PlanSnapshot, encoded, pieces
from planner.jobs.worker import PART_SUFFIX, Report, child_main
from planner.model.document import Document
from planner.ui.session import DocumentSession
from planner.ui.writer import take_snapshot

POLL_MS = 40
#: How long a worker gets to stop after SIGTERM before it is killed (seconds).
STOP_GRACE = 2.0
READY, RUNNING, ENDED = "ready", "running", "ended"


#: Plan inputs still being written (path → True once given up: the job ended first), and the
#: thread that writes them, one after another.
_WRITING: dict[str, bool] = {}
_WRITING_GUARD = threading.Lock()
_INPUT_WRITER = ThreadPoolExecutor(max_workers=1, thread_name_prefix="hall-job-input")


def plan_input(source: Document | DocumentSession) -> str:
    """The path of the plan as a ``.hall`` file in the temporary folder: what a worker reads
    (remove it after, with ``remove_input``; a job's ``cleanup`` does).

    The window is not held up while it is written (0.6 s at 32,768 GPUs): the snapshot is taken
    now (in slices when given the session, ``planner.ui.writer``), the text is written in a
    background thread to ``<path>.part`` and renamed to the path when whole; the worker waits
    for it (``planner.jobs.worker.read_plan``), so a job can start at once."""
    doc = source.doc if isinstance(source, DocumentSession) else source
    snap = take_snapshot(doc, source if isinstance(source, DocumentSession) else None)
    fd, part = tempfile.mkstemp(prefix="hall-planner-job-", suffix=".hall" + PART_SUFFIX)
    os.close(fd)
    path = part.removesuffix(PART_SUFFIX)
    with _WRITING_GUARD:
        _WRITING[path] = False
    _INPUT_WRITER.submit(_write_input, snap, part, path)
    return path


def _write_input(snap: PlanSnapshot, part: str, path: str) -> None:
    """Background thread: the snapshot's text into ``part``, then renamed to ``path`` unless the
    job has ended meanwhile (then removed). A failure removes ``part``: the worker reports it."""
    try:
        with open(part, "wb") as handle:
            handle.writelines(encoded(pieces(snap)))
        with _WRITING_GUARD:
            if not _WRITING.pop(path, True):
                os.replace(part, path)
                return
    except OSError:
        with _WRITING_GUARD:
            _WRITING.pop(path, None)
    if os.path.lexists(part):
        os.unlink(part)


def remove_input(path: str) -> None:
    """Remove a plan input, or stop it from appearing if it is still being written."""
    with _WRITING_GUARD:
        if path in _WRITING:
            _WRITING[path] = True
        for name in (path, path + PART_SUFFIX):
            if os.path.lexists(name):
                os.unlink(name)


def exit_text(exitcode: int | None) -> str:
    """Why a worker ended without an answer, in one line."""
    if exitcode is not None and exitcode < 0:
        try:
            name = signal.Signals(-exitcode).name
        except ValueError:
            name = f"signal {-exitcode}"
        return f"the worker process was killed ({name})"
    return f"the worker process stopped unexpectedly (exit code {exitcode})"


def show_progress(bar: QProgressBar, label: QLabel, fraction: float, text: str) -> None:
    """A job's progress on a bar (busy when the fraction is unknown, below 0) and its label."""
    if fraction < 0:
        bar.setRange(0, 0)
    else:
        bar.setRange(0, 100)
        bar.setValue(round(fraction * 100))
    if text:
        label.setText(text)


class Job(QObject):
    """One run of ``function(payload, report)`` in a worker process; outcomes come as signals.

    Exactly one of ``succeeded`` (the result), ``failed`` (one line) or ``cancelled`` ends a job.
    ``function`` must be a module-level function (the worker imports it by name) and ``payload``
    plain data; ``cleanup`` paths (files or folders) are removed when the job ends, however it ends.
    """

    progressed = Signal(float, str)
    succeeded = Signal(object)
    failed = Signal(str)
    cancelled = Signal()

    def __init__(self, function: Callable[[Any, Report], object], payload: object,
                 cleanup: Iterable[str] = (), parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.function, self.payload = function, payload
        self.cleanup = list(cleanup)
        self.state = READY
        self._process: multiprocessing.process.BaseProcess | None = None
        self._conn: multiprocessing.connection.Connection | None = None
        self._timer = QTimer(self)
        self._timer.setInterval(POLL_MS)
        self._timer.timeout.connect(self._poll)

    @property
    def running(self) -> bool:
        return self.state == RUNNING

    @property
    def pid(self) -> int | None:
        return self._process.pid if self._process is not None else None

    def start(self) -> None:
        context = multiprocessing.get_context("spawn")
        receiver, sender = context.Pipe(duplex=False)
        # Not a daemon: a job may start a pool of its own (labels), which daemons may not.
        self._process = context.Process(target=child_main, args=(sender, self.function, self.payload),
                                        name="hall-planner-job")
        try:
            self._process.start()
        except BaseException:
            receiver.close()
            self._remove_files()
            raise
        finally:
            sender.close()  # the worker holds the only writing end: its death reads as end of file
        self._conn = receiver
        self.state = RUNNING
        app = QCoreApplication.instance()
        if app is not None:
            app.aboutToQuit.connect(self.cancel)
        self._timer.start()

    def wait(self) -> None:
        """Return when the job has ended, processing events meanwhile (the window repaints, Cancel
        works): for modal dialogs whose caller needs the result."""
        if not self.running:
            return
        loop = QEventLoop()
        for done in (self.succeeded, self.failed, self.cancelled):
            done.connect(loop.quit)
        loop.exec()

    def cancel(self) -> None:
        """Stop the worker now; ``cancelled`` follows at once."""
        if not self.running:
            return
        self._stop_worker()
        self._end(self.cancelled)

    def _poll(self) -> None:
        assert self._process is not None and self._conn is not None
        alive = self._process.is_alive()  # before reading: whatever it sent before dying is in the pipe
        try:
            while self._conn.poll():
                kind, *rest = self._conn.recv()
                if kind == "progress":
                    self.progressed.emit(*rest)
                    if self.state != RUNNING:  # a progress handler cancelled the job: its pipe is closed
                        return
                    continue
                self._end(self.succeeded if kind == "done" else self.failed, *rest)
                return
        except (EOFError, OSError):
            alive = False
        if not alive:
            self._process.join(STOP_GRACE)
            self._stop_worker()
            self._end(self.failed, exit_text(self._process.exitcode))

    def _signal_group(self, signum: int) -> None:
        """Send ``signum`` to the worker's process group; to the worker alone before it has one."""
        assert self._process is not None and self._process.pid is not None
        try:
            os.killpg(self._process.pid, signum)
        except (AttributeError, ProcessLookupError, PermissionError):
            if not self._process.is_alive():
                return
            if signum == getattr(signal, "SIGKILL", None):
                self._process.kill()
            else:
                self._process.terminate()

    def _stop_worker(self) -> None:
        """Terminate the worker and whatever it started, and reap it."""
        assert self._process is not None
        if self._process.is_alive():
            self._signal_group(signal.SIGTERM)
            self._process.join(STOP_GRACE)
        if hasattr(signal, "SIGKILL"):
            self._signal_group(signal.SIGKILL)  # a worker stuck past SIGTERM, and any pool it left
        self._process.join()

    def _end(self, outcome: SignalInstance, *args: object) -> None:
        self._timer.stop()
        self.state = ENDED
        if self._conn is not None:
            self._conn.close()
        app = QCoreApplication.instance()
        if app is not None:
            app.aboutToQuit.disconnect(self.cancel)
        try:
            outcome.emit(*args)
        finally:
            self._remove_files()

    def _remove_files(self) -> None:
        for path in self.cleanup:
            if os.path.isdir(path):
                shutil.rmtree(path, ignore_errors=True)
            else:
                remove_input(path)  # a plain file, or a plan input maybe still being written


class JobDialog(QDialog):
    """A dialog that runs a ``Job``: Cancel (or Close) stops a running job first and the dialog
    stays; the next one closes it. ``cancel_job`` is what stopping means (an export also resets
    its progress)."""

    job: Job | None = None

    def cancel_job(self) -> None:
        if self.job is not None:
            self.job.cancel()

    def reject(self) -> None:
        if self.job is not None and self.job.running:
            self.cancel_job()
            return
        super().reject()
