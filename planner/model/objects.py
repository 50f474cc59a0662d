"""The things a plan is made of (DESIGN §3). Plain dataclasses, SI units, no behaviour.

Every object has an ``id`` whose prefix names its collection in the document; scene items and
commands refer to objects by id only.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from planner.model.catalog import RACK_CDU, ROW_CDU

Point = tuple[float, float]

#: How an object holds the object a reference names (``Ref.hold``):
#: it lives in it and goes with it (a device in its rack, a cable on its devices) …
OWNED = "owned"
#: … it was assigned to it, and the assignment is cleared when it goes (a rack's feeds, CDU loop) …
ASSIGNED = "assigned"
#: … or it points at it and may outlive it (a comment on an object, a reply to a comment).
NOTE = "note"
#: The key of a reference field's ``Ref`` in the dataclass field's metadata.
REF = "ref"


@dataclass(frozen=True)
class Ref:
    """What a field holding another object's id may name: declared once, on the field, and read
    by everything that follows, checks, copies or names references (``planner.model.references``).
    """

    #: The collections (Document attributes) the id may be in; () = any object.
    to: tuple[str, ...]
    hold: str
    #: What it names, in words ("busbar"), and the field in words ("feed A").
    noun: str
    word: str
    #: Catalogue kinds the target must be, and the busbar side it must be on, when that matters.
    kinds: tuple[str, ...] = ()
    side: str = ""
    #: The relation in a sentence, ``{obj}`` and ``{target}`` by name; "" = "{obj}'s <field> is …".
    says: str = ""
    #: Fields that are one choice with it (a device's rack, U and type); () = the field alone.
    moves_with: tuple[str, ...] = ()
    #: What a conflict on it is listed under; "" = the field's name.
    label: str = ""


def refers(**declared: Any) -> dict[str, Ref]:
    """The metadata of a dataclass field that holds another object's id: ``field(metadata=refers(…))``."""
    return {REF: Ref(**declared)}


#: A cable's two ends: one choice, whichever of the four fields changes.
CABLE_ENDS = ("a_device", "a_port", "b_device", "b_port")


@dataclass
class Zone:
    """A floor area with a distributed load rating and, on raised floor, a tile rating.

    ``None`` is "not given", never 0: a zone with no ``tile_rating_kn`` is slab floor (no tiles to
    check), one with no ``rolling_rating_kn`` or ``air_capacity_kw`` is not rated for that, and the
    rule that would check it says so with an info finding.
    """

    id: str
    name: str
    polygon: list[Point]
    rating_kpa: float = 12.0
    tile_rating_kn: float | None = None
    rolling_rating_kn: float | None = None
    tile_size_m: float = 0.6
    air_capacity_kw: float | None = None

    @property
    def raised(self) -> bool:
        return self.tile_rating_kn is not None


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
    feed_a: str | None = field(default=None, metadata=refers(
        to=("busbars",), hold=ASSIGNED, noun="busbar", word="feed A", side="A"))
    feed_b: str | None = field(default=None, metadata=refers(
        to=("busbars",), hold=ASSIGNED, noun="busbar", word="feed B", side="B"))
    cdu: str | None = field(default=None, metadata=refers(
        to=("floor_units", "devices"), hold=ASSIGNED, noun="CDU", word="CDU loop", kinds=(ROW_CDU, RACK_CDU)))
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
    rack: str = field(metadata=refers(
        to=("racks",), hold=OWNED, noun="rack", word="rack", says="{obj} is in rack {target}",
        moves_with=("rack", "u", "type")))
    u: int
    role: str = ""
    su: int = 0
    pod: int = 0
    rail: int = 0
    notes: str = ""
    #: The name the world outside the plan knows it by (discovery tools, NetBox, Slurm); "" =
    #: the default ``<rack name>-<device name>`` (``Document.hostname``).
    hostname: str = ""


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
    a_device: str = field(metadata=refers(
        to=("devices",), hold=OWNED, noun="device", word="end A", says="{obj} ends on {target}",
        moves_with=CABLE_ENDS, label="end A"))
    a_port: str
    b_device: str = field(metadata=refers(
        to=("devices",), hold=OWNED, noun="device", word="end B", says="{obj} ends on {target}",
        moves_with=CABLE_ENDS, label="end B"))
    b_port: str
    tier: str = ""
    rail: int = 0
    media: str = ""
    length_m: float = 0.0
    stock_m: float = 0.0
    label: str = ""
    #: Installation state (``CABLE_STATES``) and the installer's note (why it is faulty).
    state: str = "planned"
    state_note: str = ""


@dataclass
class Comment:
    """A review note pinned to a point of the plan or to an object (``target``), or a reply to
    another comment (``reply_to``; a reply has no pin of its own). ``date`` is ISO 8601."""

    id: str
    text: str
    author: str = ""
    date: str = ""
    x: float = 0.0
    y: float = 0.0
    target: str = field(default="", metadata=refers(
        to=(), hold=NOTE, noun="object", word="target", says="{obj} is on {target}"))
    status: str = "open"
    reply_to: str = field(default="", metadata=refers(
        to=("comments",), hold=NOTE, noun="comment", word="reply to", says="{obj} answers {target}"))

@dataclass
class Underlay:
    """A drawing shown under the plan: an architect's DXF, a PDF page or an image, by reference.

    ``path`` is relative to the .hall file's folder when it lies beside or below it. The drawing's
    own coordinates (DXF drawing units, PDF points, image pixels, y down for PDF and images) map to
    the plan by ``scale`` metres per unit, then ``rotation`` degrees about the drawing's origin,
    which lands at (``x``, ``y``).
    """

    id: str
    name: str
    path: str
    kind: str = "image"
    page: int = 0
    x: float = 0.0
    y: float = 0.0
    scale: float = 1.0
    rotation: float = 0.0
    opacity: float = 0.5
    visible: bool = True
    locked: bool = False


@dataclass
class NetBoxRecord:
    """Where the plan meets NetBox: the server it was last pushed to or pulled from, the site it
    is there, and the NetBox id of each object the plan put there (``planner netbox push|pull``).

    ``ids`` is keyed by the plan's id (``rack-3``, ``dev-12``, ``link-40``, ``bus-2``) or, for what
    the plan holds as a field rather than an object, by the owner's id and a suffix (``rack-3/A``:
    the rack's feed A power feed). It is identity, not design: ``diff`` does not compare it, a
    removed object's entry stays so the next push knows to take the object out of NetBox too.
    """

    url: str = ""
    site: str = ""
    ids: dict[str, int] = field(default_factory=dict)

    def __bool__(self) -> bool:
        return bool(self.url or self.site or self.ids)


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
#: Installation states of a cable, in the order work reaches them; ``faulty`` can follow any.
CABLE_STATES = ("planned", "run", "labelled", "tested", "verified", "faulty")
#: Cable fields the installers record: no rule, route or bundle depends on them.
RECORD_FIELDS = frozenset({"state", "state_note"})
COMMENT_STATUSES = ("open", "resolved")
#: What an underlay's file is: a CAD drawing, a PDF page or a raster image.
UNDERLAY_KINDS = ("dxf", "pdf", "image")

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
    "cmt": ("comments", Comment),
    "ul": ("underlays", Underlay),
}
PREFIX_OF_CLASS = {cls: prefix for prefix, (_, cls) in COLLECTIONS.items()}
