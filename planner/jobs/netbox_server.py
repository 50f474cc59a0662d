"""``planner netbox push`` and ``pull`` as worker jobs, for File ▸ NetBox ▸ Push to NetBox… and
Pull from NetBox… (``planner.ui.jobs.netbox_server``): a push of a hall takes minutes to hours
of NetBox's own work, so it runs in a worker process with its progress shown and Cancel at hand.

What crosses back is data: the push's summary text and the NetBox ids it recorded (the window
puts them into its plan with an undoable command), the pulled plan as ``.hall`` text and the
notes on what the reader assumed. The token is read in the worker from the file given or from
``$NETBOX_TOKEN``, as the command line reads it; it never crosses the pipe.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from planner.io import dumps
from planner.io.netbox_checks import NetBoxReadError
from planner.jobs.worker import Report, read_plan
from planner.netbox.client import NetBoxClient, NetBoxError, read_token
from planner.netbox.onto import onto
from planner.netbox.pull import pull
from planner.netbox.push import PushError, push

#: The errors a push or pull reports as its one line (a refusal, an unreadable answer, no token).
SERVER_ERRORS = (NetBoxError, NetBoxReadError, PushError)


@dataclass(frozen=True)
class PushJob:
    """The plan input to push, the server, the token file ("" for ``$NETBOX_TOKEN``), the site
    ("" for the project's name), whether to write nothing and whether to push the transceivers."""

    plan: str
    url: str
    token_file: str = ""
    site: str = ""
    dry_run: bool = False
    modules: bool = True


@dataclass(frozen=True)
class PushOutcome:
    """What a push did: its summary as the command line prints it, and (unless a dry run) the
    server, site and NetBox id of every object, for the plan to record."""

    text: str
    dry_run: bool
    url: str = ""
    site: str = ""
    ids: dict[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class PullJob:
    """The server, token file and site to read, and the plan input to lay it onto ("" for none)."""

    url: str
    site: str
    token_file: str = ""
    onto: str = ""


@dataclass(frozen=True)
class PullOutcome:
    """The pulled plan as ``.hall`` text and what the reader assumed or what NetBox changed."""

    hall: str
    notes: list[str]
    summary: str


def _client(url: str, token_file: str, report: Report) -> NetBoxClient:
    def progress(endpoint: str, done: int, total: int) -> None:
        report(done / total if total else -1.0, f"{endpoint}: {done:,} of {total:,}")
    return NetBoxClient(url, read_token(token_file or None), progress=progress)


def run_push(job: PushJob, report: Report) -> PushOutcome:
    report(-1.0, "Reading the plan…")
    doc = read_plan(job.plan)
    report(-1.0, f"Comparing the plan with {job.url}…")
    client = _client(job.url, job.token_file, report)
    try:
        result = push(doc, client, job.site, dry_run=job.dry_run, modules=job.modules)
    except (KeyError, TypeError, AttributeError, ValueError) as exc:  # an answer not shaped as NetBox 4.x's
        raise NetBoxError(f"{job.url}: an answer is not shaped as NetBox 4.x answers "
                          f"({type(exc).__name__}: {str(exc)[:80]})") from None
    finally:
        client.close()
    if job.dry_run:
        return PushOutcome(result.text(), True)
    return PushOutcome(result.text(), False, doc.netbox.url, doc.netbox.site, dict(doc.netbox.ids))


def run_pull(job: PullJob, report: Report) -> PullOutcome:
    base = read_plan(job.onto) if job.onto else None
    report(-1.0, f"Reading site {job.site!r} from {job.url}…")
    client = _client(job.url, job.token_file, report)
    try:
        doc, notes = pull(client, job.site)
    except (KeyError, TypeError, AttributeError, ValueError) as exc:  # an answer not shaped as NetBox 4.x's
        raise NetBoxError(f"{job.url}: an answer is not shaped as NetBox 4.x answers "
                          f"({type(exc).__name__}: {str(exc)[:80]})") from None
    finally:
        client.close()
    if base is not None:
        doc, notes = onto(doc, base)
    summary = (f"{len(doc.racks)} racks, {len(doc.devices)} devices, {len(doc.floor_units)} floor units, "
               f"{len(doc.links)} cables and {len(doc.busbars)} busbar runs from NetBox site "
               f"{doc.netbox.site!r} at {job.url}" + (", laid onto the open plan" if base is not None else ""))
    report(-1.0, "Handing the plan over…")
    return PullOutcome(dumps(doc), notes, summary)
