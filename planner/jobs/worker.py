"""The long jobs the GUI runs in a worker process, and the worker's side of the pipe.

Why a process and not a thread: with an exporter running Python code in a QThread, the cyclic
GC running in the GUI thread crashed the app about one run in six. A worker process shares no
Python object with the GUI, so there is nothing for the two to race on. The GUI side
(``planner.ui.jobs.runner``) starts ``child_main`` in a fresh ("spawn") interpreter; everything crosses
as data: the plan as a ``.hall`` file the GUI wrote, the parameters as plain frozen dataclasses,
the result as a string, a path or a pickled plain dataclass (a ``Verification``).

The jobs are headless entries like the subcommands, so they sit in ``planner.jobs``, below both the
command line and the window: they may use every core layer (export, asbuilt, layout, rules) and no
Qt. An export writes into a staging folder
the GUI chose; the GUI renames the result into place (``publish``) only when the job reports
success, so a cancelled or killed job leaves nothing but that folder, which the GUI removes.
"""

from __future__ import annotations

import os
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

from planner.asbuilt.verify import Verification, read_discovery, verify
from planner.export.options import ExportOptions
from planner.export.registry import export_to
from planner.io import HallFileError, dumps, load
from planner.io.atomic import new_file_mode
from planner.io.atomic_folder import write_folder_atomic
from planner.jobs.gate import would_have_errors
from planner.layout.templates import TemplateError, build_template
from planner.model.document import Document

#: Progress callback of a job: a fraction 0..1 (below 0: unknown, a busy indicator) and a short text.
Report = Callable[[float, str], None]
#: Progress is sent at most this often (seconds) unless its text changes, so the pipe never floods.
REPORT_INTERVAL = 0.05
#: The end of a plan input's name while the GUI is still writing it (``planner.ui.jobs.runner.plan_input``).
PART_SUFFIX = ".part"
#: How long a worker waits for its plan input to be written (seconds; 131,072 GPUs take ~5 s).
PLAN_WAIT_S = 600.0
#: Errors a user can act on (bad input, a refusal, a disk problem): their message alone is the line.
USER_ERRORS = (ValueError, OSError, HallFileError)


class Reporter:
    """The ``Report`` a job gets in the worker: sends ("progress", fraction, text), throttled."""

    def __init__(self, conn: Connection) -> None:
        self.conn = conn
        self._sent = 0.0
        self._text = ""

    def __call__(self, fraction: float, text: str = "") -> None:
        now = time.monotonic()
        if text == self._text and now - self._sent < REPORT_INTERVAL and fraction < 1.0:
            return
        self._sent, self._text = now, text
        self.conn.send(("progress", fraction, text))


def error_line(exc: BaseException) -> str:
    """One line for the dialog: the message of a user error, else the exception's type and message."""
    text = str(exc) if isinstance(exc, USER_ERRORS) else f"{type(exc).__name__}: {exc}"
    return " ".join(text.split()) or type(exc).__name__


def child_main(conn: Connection, function: Callable[[Any, Report], object], payload: object) -> None:
    """The worker's entry: run ``function(payload, report)`` and send ("done", result) or ("error", line).

    The worker leads a process group of its own, so Cancel can stop it together with any pool of
    processes a job starts (the labels pages), and Ctrl+C in the GUI's terminal does not reach it.
    """
    if hasattr(os, "setpgrp"):
        os.setpgrp()
    try:
        result = function(payload, Reporter(conn))
        conn.send(("done", result))  # pickled whole before anything is sent: never half a message
    except Exception as exc:  # noqa: BLE001 - every failure goes back to the GUI as one line
        conn.send(("error", error_line(exc)))
    finally:
        conn.close()


# ----------------------------------------------------------------------------------- export

@dataclass(frozen=True)
class ExportJob:
    """One export: the plan file to read, the kind, where to write (in the staging folder), options."""

    plan: str
    kind: str
    staged: str
    options: ExportOptions


def read_plan(path: str) -> Document:
    """The plan input at ``path``, once the GUI has written it whole: it writes ``<path>.part``
    in the background and renames it to ``path``, so at every instant one of the two exists
    until the write ends; neither means the write failed or was given up."""
    deadline = time.monotonic() + PLAN_WAIT_S
    while not os.path.exists(path):
        if not os.path.exists(path + PART_SUFFIX) and not os.path.exists(path):
            raise OSError(f"the plan could not be handed to the worker ({os.path.basename(path)})")
        if time.monotonic() > deadline:
            raise OSError("the plan was not handed to the worker in time")
        time.sleep(0.02)
    return load(path)


def run_export(job: ExportJob, report: Report) -> str:
    report(-1.0, "Reading the plan…")
    doc = read_plan(job.plan)
    options = replace(job.options, progress=lambda fraction: report(fraction, "Writing…"))
    report(0.0, "Writing…")
    export_to(doc, job.kind, job.staged, options)
    return job.staged


def staging_folder(target: str) -> str:
    """A new folder beside ``target`` for a worker to write into (``.export-*.part``, the name
    every export temporary has, so stale ones are recognised)."""
    return tempfile.mkdtemp(prefix=".export-", suffix=".part", dir=os.path.dirname(os.path.abspath(target)))


def publish(staged: str, target: str, folder: bool) -> None:
    """Move a finished export from the staging folder into place, atomically.

    A file gets the mode of the file it replaces (or the umask's) and one ``os.replace``; a folder
    set goes through ``write_folder_atomic``, which refuses a folder of other files and replaces an
    earlier export whole.
    """
    if folder:
        def move(into: Path) -> None:
            for name in os.listdir(staged):
                os.replace(os.path.join(staged, name), into / name)

        write_folder_atomic(target, move)
        return
    os.chmod(staged, new_file_mode(target))
    os.replace(staged, target)


# --------------------------------------------------------------------------------- template

@dataclass(frozen=True)
class TemplateJob:
    """The parameters of ``planner new --template``."""

    template: str
    nodes: int
    node_type: str
    switch_type: str
    rack_kw: float


def run_template(job: TemplateJob, report: Report) -> str:
    """The plan as ``.hall`` text; TemplateError when it would have errors (as ``planner new``)."""
    report(-1.0, f"Laying out {job.nodes:,} nodes, the fabric and every cable…")
    doc = build_template(job.template, nodes=job.nodes, node_type=job.node_type,
                         switch_type=job.switch_type, rack_kw=job.rack_kw)
    report(-1.0, "Checking the plan against every rule…")
    refusal = would_have_errors(doc)
    if refusal:
        raise TemplateError(refusal)
    report(-1.0, "Handing the plan over…")
    return dumps(doc)


# ----------------------------------------------------------------------------------- verify

@dataclass(frozen=True)
class VerifyJob:
    """A plan file and the discovery inputs to check it against (paths, as ``planner verify``)."""

    plan: str
    links: tuple[str, ...] = ()
    ibnetdiscover: tuple[str, ...] = ()
    lldp: tuple[str, ...] = ()


def run_verify(job: VerifyJob, report: Report) -> Verification:
    report(-1.0, "Reading the plan…")
    doc = read_plan(job.plan)
    report(-1.0, "Reading the discovery files…")
    discovery = read_discovery(doc, links=job.links, ibnetdiscover=job.ibnetdiscover, lldp=job.lldp)
    report(-1.0, "Checking every cable…")
    return verify(doc, discovery)
