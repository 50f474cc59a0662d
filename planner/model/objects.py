"""The things a plan is made of (DESIGN §3). Plain dataclasses, SI units, no behaviour.

Every object has an ``id`` whose prefix names its collection in the document; scene items and
commands refer to objects by id only.
"""

from __future__ import annotations

from dataclasses import dataclass

Point = tuple[float, float]


@dataclass
class Zone:
    """A floor area with a distributed load rating and, on raised floor, a tile rating."""

    id: str
    name: str
    polygon: list[Point]
    rating_kpa: float = 12.0
    tile_rating_kn: float = 0.0
    rolling_rating_kn: float = 0.0
    tile_size_m: float = 0.6
    air_capacity_kw: float = 0.0

    @property
    def raised(self) -> bool:
        return self.tile_rating_kn > 0


@dataclass
class Obstacle:
    """A column or wall segment nothing may stand on."""

    id: str
    name: str
    kind: str
    polygon: list[Point]


@dataclass
class Door:
    """A door in the hall wall, from (x1, y1) to (x2, y2)."""

    id: str
    name: str
    x1: float
    y1: float
    x2: float
    y2: float


@dataclass
class HandOff:
    """Where facility power, coolant or the network enters the hall."""

    id: str
    name: str
    kind: str
    x: float
    y: float


@dataclass
class Rack:
    """A rack on the floor. (x, y) is its centre; rotation 0 faces north (−y)."""

    id: str
    type: str
    name: str
    x: float
    y: float
    rotation: int = 0
    row: str = ""
    feed_a: str | None = None
    feed_b: str | None = None
    cdu: str | None = None
    phases: str = "L1L2L3"
    notes: str = ""


@dataclass
class Device:
    """Equipment inside a rack at U position ``u`` (its lowest U; 0 for 0U devices).

    ``role`` is leaf/spine/core for switches; ``su``, ``pod`` and ``rail`` record the fabric
    position the generator gave it (0 when unset).
    """

    id: str
    type: str
    name: str
    rack: str
    u: int
    role: str = ""
    su: int = 0
    pod: int = 0
    rail: int = 0
    notes: str = ""


@dataclass
class FloorUnit:
    """A unit standing on the floor that is not a rack: a row CDU or a power cabinet."""

    id: str
    type: str
    name: str
    x: float
    y: float
    rotation: int = 0
    row: str = ""
    notes: str = ""


@dataclass
class BusbarRun:
    """An overhead busbar from (x1, y1) to (x2, y2) over a row, on feed side A or B."""

    id: str
    type: str
    name: str
    x1: float
    y1: float
    x2: float
    y2: float
    side: str = "A"
    row: str = ""


@dataclass
class Link:
    """A cable between two device ports, with its routed and stock length."""

    id: str
    a_device: str
    a_port: str
    b_device: str
    b_port: str
    tier: str = ""
    rail: int = 0
    media: str = ""
    length_m: float = 0.0
    stock_m: float = 0.0
    label: str = ""


@dataclass
class Meta:
    """Title-block facts of the plan."""

    project: str = "Untitled project"
    hall: str = "Hall 1"
    revision: str = "A"
    author: str = ""
    notes: str = ""


#: Tier names of links (DESIGN §3).
TIER_NODE_LEAF = "node-leaf"
TIER_LEAF_SPINE = "leaf-spine"
TIER_SPINE_CORE = "spine-core"
TIERS = (TIER_NODE_LEAF, TIER_LEAF_SPINE, TIER_SPINE_CORE)
ROLES = ("leaf", "spine", "core")
SIDES = ("A", "B")
ROTATIONS = (0, 90, 180, 270)

#: Id prefix → (collection attribute on Document, class).
COLLECTIONS: dict[str, tuple[str, type]] = {
    "zone": ("zones", Zone),
    "obs": ("obstacles", Obstacle),
    "door": ("doors", Door),
    "ho": ("handoffs", HandOff),
    "rack": ("racks", Rack),
    "dev": ("devices", Device),
    "fu": ("floor_units", FloorUnit),
    "bus": ("busbars", BusbarRun),
    "link": ("links", Link),
}
PREFIX_OF_CLASS = {cls: prefix for prefix, (_, cls) in COLLECTIONS.items()}
