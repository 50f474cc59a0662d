"""README.txt of the NetBox set: the two steps (what every hall shares, then the hall), the order
of the files within each, which files update objects NetBox has (``-update.csv``, by id) and what
to delete in NetBox by hand (a CSV import never deletes)."""

from __future__ import annotations

import io
import textwrap
from collections import Counter
from dataclasses import dataclass

from planner.export.sheet_text import clean_text
from planner.io.netbox_names import SHARED_FOLDER, UPDATE_SUFFIX
from planner.model.document import Document
from planner.model.networks import NETWORK_WORDS, network_of
from planner.model.ports import COOLANT, NETWORKS
from planner.text import plural

#: The object list a plan key's NetBox object is in (REST path; the web page is the same).
_PATHS = {"site": "dcim/sites", "location": "dcim/locations", "rack": "dcim/racks", "dev": "dcim/devices", "link": "dcim/cables", "bus": "dcim/power-panels",
          "feed": "dcim/power-feeds", "tap-off": "dcim/devices", "cable": "dcim/cables"}
_WORDS = {"site": "site", "location": "location", "rack": "rack", "dev": "device", "link": "cable", "bus": "power panel", "feed": "power feed",
          "tap-off": "tap-off device", "cable": "power-feed cable"}


@dataclass(frozen=True)
class Deleted:
    """An object the plan put into NetBox (its key and NetBox id) that the plan no longer has."""

    key: str
    netbox_id: int

    @property
    def kind(self) -> str:
        parts = self.key.split("/")
        if parts[0] in ("site", "location"):
            return parts[0]
        if len(parts) == 1:
            return parts[0].rpartition("-")[0] or parts[0]
        if parts[-1] in ("A", "B"):
            return "feed"
        return "tap-off" if parts[-1] == "tap-off" else "cable"


def readme(doc: Document, site: str, location: str, types: int, neutralised: set[str], files: list[str],
           deleted: list[Deleted], unfed: list[str], module_types: int = 0, twins: int = 0) -> str:
    out = io.StringIO()
    meta = doc.meta
    project, hall, revision = clean_text(meta.project), clean_text(meta.hall), clean_text(meta.revision)
    counts = Counter(network_of(link) for link in doc.links.values())
    cables = sum(n for network, n in counts.items() if network != COOLANT)
    by_network = ", ".join(f"{counts[n]} {NETWORK_WORDS[n]}" for n in NETWORKS if n != COOLANT and counts[n])
    shared = SHARED_FOLDER
    out.write(f"""NetBox import set for {project} / {hall}, revision {revision}
Written by Hall Planner (planner export --to netbox) for NetBox 4.4 to 4.6 (power-feed-cables.csv:
4.6). Site {site!r}, location {location!r}.

Each CSV: <object list> > Import, upload the file, format CSV; each YAML: Devices > Device Types >
Import, format YAML. NetBox imports a file whole or not at all.

Step 1, {shared}/: what every hall shares. This step is for a NetBox that does not hold them yet;
a NetBox that has them from an earlier hall skips it. Every row of it is the same for every hall
the planner writes: the roles and tags are all of the planner's, whatever this hall uses; the
manufacturers are the catalogue's and those of the types used; a device type is the same file for
the same built-in type on the same fabric kind (InfiniBand or Ethernet interfaces; a type of the
plan's own is as the plan defines it). NetBox's import refuses a row that exists, and the file
with it: if this hall uses a type NetBox does not have yet, import that type's YAML alone (and
its manufacturer's row, if that is new too). `planner netbox push` skips what exists by itself.

 1. {shared}/manufacturers.csv  manufacturers of the device types ("Generic" for catalogue classes)
 2. {shared}/rack-types.csv     Racks > Rack Types > Import: every catalogue rack type (four-post
                          cabinet, U height, outer size, weight and rating); racks.csv names
                          each rack's, and NetBox gives the rack the type's size
 3. {shared}/device-roles.csv   every device role the planner writes: GPU node, compute, storage and
                          management switches, storage, PDU, CDU, coolant manifold, tap-off
 4. {shared}/device-types/      {types} device type(s), devicetype-library schema: interfaces of every
                          network (BMC, mgmt0 and eth0 mgmt-only), PSU power ports with their
                          draw, rack PDU inlets and outlets (C13/C19, feed leg by phase)
 5. {shared}/module-types/      {module_types} module type(s), Devices > Module Types > Import, YAML: a
                          transceiver kind each (media, cage, speed), the modules of step 2
 6. {shared}/tags.csv           Customization > Tags > Import: a tag per network, cable tier and rail
""")
    if deleted:
        out.write("\nBefore step 2, delete these in NetBox: the plan put them there and no longer has them (a CSV\n"
                  "import never deletes; deleting first frees their names and ports for the rows below):\n")
        url = doc.netbox.url.rstrip("/")
        for gone in deleted:
            where = f"  {url}/{_PATHS[gone.kind]}/{gone.netbox_id}/" if url else ""
            out.write(f"  {_WORDS[gone.kind]} id {gone.netbox_id} (plan {gone.key}){where}\n")
    out.write("\nStep 2, this hall:\n\n")
    steps = [
        ("sites.csv", "the site (skip it if the site exists already: every file names it)"),
        ("locations.csv", ("the location (the hall) inside the site, and one location in it\n"
         "per row of racks (\"<hall> row <row>\"): NetBox has no rows")),
        ("racks.csv", f"{plural(len(doc.racks), 'rack')}: four-post cabinets, front-to-rear airflow"),
        ("devices.csv", ("devices by hostname with rack, position (lowest U) and face;\n"
         "0U rack PDUs have no position (NetBox keeps them beside the rails)")),
        ("modules.csv", ("Devices > Modules > Import: a transceiver in each module bay (cage)\n"
         "that holds an optic: one per twin-port switch cage, one per single-port\n"
         "NIC; copper DACs are cables. On a revision import only the rows of new\n"
         "modules: NetBox refuses a second module in a bay. The form finds a\n"
         "device by name in all of NetBox: where another hall has the same\n"
         "hostnames, export with --site-in-hostnames")),
        ("cables.csv", ("\n".join(textwrap.wrap(f"{cables} cables, each end with its site: {by_network or 'none'};",
                                                68)) + "\n"
         "data cables between interfaces (type by media, label, stock length\n"
         "in m, the media's name as description, the rail's colour), power cords\n"
         "from a PSU's power port to a PDU outlet; each tagged with its network,\n"
         "tier and rail")),
        ("power-panels.csv", "one power panel per busbar run"),
        ("power-feeds.csv", ("one power feed per rack and side: <rack>-A (primary) on the rack's\n"
         "feed A busbar, <rack>-B (redundant) on feed B; amperage = tap-off rating,\n"
         "max_utilization = the plan's continuous-load derating")),
        ("tap-offs.csv", ("Devices > Import: a busbar tap-off box on each rack side with several\n"
         "rack PDUs (NetBox connects a power feed to one cable end)")),
        ("power-feed-cables.csv", ("Cables > Import, NetBox 4.6 and later: each rack PDU's inlet to the\n"
         "power feed of its side (through the side's tap-off where it has one),\n"
         "so NetBox sums the PSUs' draw into the rack's power utilisation.\n"
         "In a file of their own after the feeds: a cable can end only on a\n"
         "feed that exists, and cables.csv stays importable into NetBox 4.4\n"
         "and 4.5 (a feed end's power-panel column is 4.6's)")),
    ]
    number = 7
    for name, text in steps:
        stem = name.removesuffix(".csv")
        present = [f for f in (f"{stem}{UPDATE_SUFFIX}.csv", name) if f in files]
        if not present:
            continue
        lines = text.split("\n")
        first = " then ".join(present)
        out.write(f"{number:2}. {first}\n" if len(first) > 22 else f"{number:2}. {first:<22} {lines[0]}\n")
        for line in (lines if len(first) > 22 else lines[1:]):
            out.write(f"{'':26}{line}\n")
        number += 1
    if any(UPDATE_SUFFIX in name for name in files):
        out.write(f"\n<file>{UPDATE_SUFFIX}.csv holds the rows NetBox has already (the plan knows their ids): its `id`\n"
                  "column makes NetBox update those objects, which needs the change permission. Import it\n"
                  "on the same page just before <file>.csv (the new rows), so that a name or port an update\n"
                  "frees is free for a new row.\n")
    out.write("\nRacks have no place on the floor in NetBox: the plan file keeps the layout.\n")
    if unfed:
        out.write(f"\n{len(unfed)} rack PDU(s) on a side with no power feed have no feed cable: "
                  + ", ".join(unfed[:5]) + (" …" if len(unfed) > 5 else "") + "\n")
    if twins:
        out.write(f"\n{twins} cable(s) are left out of cables.csv: `planner netbox push` put them in NetBox as twin-port\n"
                  "copper cables (one NetBox cable of two port-cables each), which a CSV row cannot update.\n"
                  "Push the plan again to change them.\n")
    if counts[COOLANT]:
        out.write(f"\n{counts[COOLANT]} coolant hose(s) are not in the set: NetBox has no model for a hose or a\n"
                  "manifold's quick-disconnects (the plan's cabling plan and commissioning list have them).\n")
    if neutralised:
        out.write("\nThese names begin with a character a spreadsheet reads as a formula; they are written\n"
                  "with a leading apostrophe, and NetBox will store them so. Rename them in the plan to\n"
                  "avoid that:\n")
        for name in sorted(neutralised):
            out.write(f"  {name}\n")
    return out.getvalue()
