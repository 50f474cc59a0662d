"""What an installer asks about a cable besides its two ends: the trays it runs in, the face of
the rack each port is on, and the part to take from the store.

- **Route** in words, from the cable router's tray path (``Router.tray_path``, the same path the
  lengths and tray fill use) cut into tray legs (``tray_legs``): "in rack", "row 3 tray", or
  "row 3 tray → cross-aisle at x 17.60 m → row 5 tray".
- **Face**: the catalogue entry's ``port_face`` ("front" or "rear") where it gives one; otherwise
  (``""``) ``DEFAULT_PORT_FACE``. The bundled entries say nothing, and their data-sheet figures point to
  the rear for every kind: GPU nodes of the DGX/HGX class carry their rail NICs (OSFP cages)
  on the rear panel, and leaf and spine switches are mounted connector side to the rear
  (power-to-connector airflow, hot aisle at the connectors) so that node-leaf cables never
  cross the rack; storage nodes and rack PDUs likewise cable at the rear. A rack's front is the
  devices' front, so the device face is the rack face.
- **Part**: the catalogue media entry's ``part`` (order code) where it gives one, else its name,
  with the stock length: "Multimode SR4 fibre, MPO-12 (OM4), 10 m". A power cord is the
  bundled cord of its outlet type (``resources/catalog/cords.json``: "Power cord C19 to C20,
  1.8 m"), a coolant hose its QD size ("Coolant hose 1/2 in, 1.2 m"; no stock list: the length).
"""

from __future__ import annotations

from dataclasses import dataclass

from planner.fabric.routing import Router
from planner.fabric.trays import CROSS, Tray, tray_legs
from planner.model.cords import cord_types
from planner.model.document import Document
from planner.model.ports import COOLANT, POWER

DEFAULT_PORT_FACE = "rear"
IN_RACK = "in rack"


@dataclass(frozen=True)
class InstallFacts:
    """The installer's columns of one cable (appended to the schedule, printed in the cabling plan)."""

    route: str
    a_face: str
    b_face: str
    part: str


def _tray_words(tray: Tray, row: str) -> str:
    other = "y" if tray.axis == "x" else "x"
    where = f"{other} {tray.across_mm / 1000:.2f} m"
    if tray.kind == CROSS:
        return f"cross-aisle at {where}"
    return f"row {row} tray" if row else f"row tray at {where}"


class InstallInfo:
    """Installer facts per cable; one router for the whole export, so rack pairs route once."""

    def __init__(self, doc: Document) -> None:
        self.doc = doc
        self._router: Router | None = None
        self._unroutable = False  # a rack of a type the catalogue lacks: no route for any cable
        self._routes: dict[tuple[str, str], str] = {}

    @property
    def router(self) -> Router:
        if self._router is None:
            self._router = Router(self.doc)
        return self._router

    def route(self, a_rack: str, b_rack: str) -> str:
        """The trays between two racks (ids), in words; "" when a rack is not in the plan."""
        if a_rack == b_rack:
            return IN_RACK if a_rack in self.doc.racks else ""
        key = (a_rack, b_rack)
        words = self._routes.get(key)
        if words is None:
            words = self._routes[key] = self._route(a_rack, b_rack)
        return words

    def _route(self, a_rack: str, b_rack: str) -> str:
        racks = self.doc.racks
        if a_rack not in racks or b_rack not in racks or self._unroutable:
            return ""
        try:
            _length, points = self.router.tray_path(a_rack, b_rack)
        except KeyError:
            self._unroutable = True
            return ""
        legs = tray_legs(list(points))
        if not legs:
            return IN_RACK
        rows = (racks[a_rack].row, racks[b_rack].row)
        words = []
        crossed = False  # row legs before the cross-aisle leg are rack a's row, after it rack b's
        for tray, _lo, _hi in legs:
            crossed = crossed or tray.kind == CROSS
            words.append(_tray_words(tray, rows[1] if crossed else rows[0]))
        return " → ".join(words)

    def face(self, device_id: str) -> str:
        """"front" or "rear": the face of the rack the device's ports are on."""
        device = self.doc.devices.get(device_id)
        item = self.doc.catalog.items.get(device.type) if device else None
        face = item.port_face if item else ""
        return face if face in ("front", "rear") else DEFAULT_PORT_FACE

    def part(self, media_key: str, stock_m: float, network: str = "", fitting: str = "") -> str:
        """The cable, optic, cord or hose to take from the store; "" for a cable with no media chosen."""
        if network == POWER:
            cord = cord_types().get(fitting)
            return f"{cord.name if cord else 'Power cord'}, {stock_m:g} m" if stock_m else (cord.name if cord else "")
        if network == COOLANT:
            return f"Coolant hose {fitting}".strip() + (f", {stock_m:g} m" if stock_m else "")
        media = self.doc.catalog.media.get(media_key)
        if media is None:
            return media_key
        name = media.part or media.name
        return f"{name}, {stock_m:g} m" if stock_m else name
