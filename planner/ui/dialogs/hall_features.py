"""Hall features: outline, columns and walls, floor zones with their ratings, doors, hand-offs.

The dialog edits copies in tables; on OK it compares them with the plan and returns one
Compound command (SetOutline, AddObjects, SetFields, RemoveObjects) so the whole edit is one
undo step and the scene and validation see exactly what changed. Every cell is checked against
the format's bounds table (``Column.limit``) and OK refuses what does not fit with one message.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import (
    QDialog,
    QLabel,
    QMessageBox,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from planner.commands import (
    AddObjects,
    Command,
    Compound,
    Refusal,
    RemoveObjects,
    SetFields,
    SetOutline,
)
from planner.commands.features import HANDOFF_KINDS
from planner.model.document import Document, natural_key, prefix_of
from planner.model.geometry import bounds_of, polygon_area
from planner.model.objects import Door, HandOff, Obstacle, Point, Zone
from planner.ui.dialogs.feature_table import (
    ID_ROLE,
    Column,
    FeatureTable,
    InvalidCell,
    is_rectangle,
    rectangle,
)
from planner.ui.dialogs.parts import ok_cancel

_ZONE_FIELDS = ("rating_kpa", "tile_rating_kn", "rolling_rating_kn", "tile_size_m", "air_capacity_kw")


def _rect(cls_name: str) -> list[Column]:
    """The four bounds columns of a rectangle whose corners are ``cls_name``'s polygon."""
    limit = (cls_name, "polygon")
    return [Column("x min (m)", limit=limit), Column("y min (m)", limit=limit),
            Column("x max (m)", default=0.6, limit=limit), Column("y max (m)", default=0.6, limit=limit)]


def _name(cls_name: str, default: str) -> Column:
    return Column("Name", "text", default, limit=(cls_name, "name"))


_ZONE_DEFAULTS = Zone(id="", name="", polygon=[])


def _same(new: Any, old: Any) -> bool:
    """Equal values; a rectangle counts as unchanged whatever corner its polygon starts at."""
    if isinstance(new, list) and isinstance(old, list) and is_rectangle(new) and is_rectangle(old):
        return bounds_of(new) == bounds_of(old)
    return new == old


class HallFeaturesDialog(QDialog):
    """Edit the hall's fixed features as tables; ``command()`` gives the edit as one undo step."""

    def __init__(self, doc: Document, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.doc = doc
        self.setWindowTitle("Hall features")
        self._command: Command | None = None

        corner = ("HallFileContent", "outline")
        self.outline = FeatureTable([Column("x (m)", limit=corner), Column("y (m)", limit=corner)], "Add corner")
        for x, y in doc.outline:
            self.outline.add_row(None, [float(x), float(y)])
        self.obstacles = FeatureTable([_name("Obstacle", "C"), Column("Kind", "text", "column", ("Obstacle", "kind")),
                                       *_rect("Obstacle")], "Add column", rect_columns=(2, 6))
        for obs in sorted(doc.obstacles.values(), key=lambda o: natural_key(o.id)):
            self.obstacles.add_polygon_row(obs.id, [obs.name, obs.kind], obs.polygon, [])
        zone_cols = [Column(header, default=getattr(_ZONE_DEFAULTS, name), limit=("Zone", name),
                            optional=getattr(_ZONE_DEFAULTS, name) is None) for header, name in (
            ("Rating (kPa)", "rating_kpa"), ("Tile (kN)", "tile_rating_kn"), ("Rolling (kN)", "rolling_rating_kn"),
            ("Tile size (m)", "tile_size_m"), ("Air cooling (kW)", "air_capacity_kw"))]
        self.zones = FeatureTable([_name("Zone", "Zone"), *_rect("Zone"), *zone_cols], "Add zone", rect_columns=(1, 5))
        for zone in sorted(doc.zones.values(), key=lambda z: natural_key(z.id)):
            self.zones.add_polygon_row(zone.id, [zone.name], zone.polygon,
                                       [getattr(zone, f) for f in _ZONE_FIELDS])
        self.doors = FeatureTable([_name("Door", "Door"), Column("x1 (m)", limit=("Door", "x1")),
                                   Column("y1 (m)", limit=("Door", "y1")),
                                   Column("x2 (m)", default=1.2, limit=("Door", "x2")),
                                   Column("y2 (m)", limit=("Door", "y2"))], "Add door")
        for door in sorted(doc.doors.values(), key=lambda d: natural_key(d.id)):
            self.doors.add_row(door.id, [door.name, door.x1, door.y1, door.x2, door.y2])

        self.handoffs = FeatureTable([_name("HandOff", "Hand-off"), Column("Kind", "text", "power", ("HandOff", "kind")),
                                      Column("x (m)", limit=("HandOff", "x")), Column("y (m)", limit=("HandOff", "y"))],
                                     "Add hand-off point")
        for handoff in sorted(doc.handoffs.values(), key=lambda h: natural_key(h.id)):
            self.handoffs.add_row(handoff.id, [handoff.name, handoff.kind, handoff.x, handoff.y])

        tabs = QTabWidget()
        tabs.addTab(self.outline, "Outline")
        tabs.addTab(self.obstacles, "Columns and walls")
        tabs.addTab(self.zones, "Floor zones")
        tabs.addTab(self.doors, "Doors")
        tabs.addTab(self.handoffs, "Hand-off points")
        hint = QLabel("Plan coordinates in metres: origin at the north-west corner, x east, y south. "
                      "A blank Tile (kN) means slab floor; blank Rolling or Air cooling means not rated. "
                      "A zone's rating is its distributed load limit.")
        hint.setWordWrap(True)
        buttons = ok_cancel(self)
        layout = QVBoxLayout(self)
        layout.addWidget(tabs)
        layout.addWidget(hint)
        layout.addWidget(buttons)
        self.tabs = tabs
        # wide enough for the widest table's columns whole (the zones': ten of them)
        tables = (self.outline, self.obstacles, self.zones, self.doors, self.handoffs)
        inner = tables[0].layout()
        chrome = 2 * layout.contentsMargins().left() + 2 * (inner.contentsMargins().left() if inner else 0) + 8
        self.resize(max(880, max(t.wanted_width() for t in tables) + chrome), 480)

    def show_object(self, obj_id: str) -> None:
        """Open at the tab and row of a feature (a double-click on it on the plan)."""
        tables = {"obs": self.obstacles, "zone": self.zones, "door": self.doors, "ho": self.handoffs}
        feature = tables.get(prefix_of(obj_id))
        if feature is None:
            return
        self.tabs.setCurrentWidget(feature)
        for row in range(feature.table.rowCount()):
            if feature.first_cell(row).data(ID_ROLE) == obj_id:
                feature.table.selectRow(row)
                feature.table.scrollToItem(feature.first_cell(row))
                return

    # ------------------------------------------------------------------ result
    def accept(self) -> None:
        try:
            self._command = self._build()
        except (InvalidCell, Refusal) as exc:
            QMessageBox.warning(self, "Hall features", str(exc))
            return
        super().accept()

    def command(self) -> Command | None:
        """The edit as one Compound, or None when nothing changed."""
        return self._command

    def _build(self) -> Command | None:
        children: list[Command] = []
        outline = [(x, y) for _id, (x, y), _poly in self.outline.rows()]
        if outline and (len(outline) < 3 or polygon_area(outline) <= 0):
            raise InvalidCell("the outline needs at least three corners enclosing an area")
        if outline != [tuple(p) for p in self.doc.outline]:
            children.append(SetOutline(outline))

        wanted: dict[str, Any] = {}
        for obj_id, (name, kind, *rect), polygon in self.obstacles.rows():
            wanted_obj = Obstacle(id=obj_id or "", name=name, kind=kind or "column",
                                  polygon=polygon or self._rect(rect, name))
            wanted[obj_id or f"new-obs-{len(wanted)}"] = wanted_obj
        self._diff(children, self.doc.obstacles, wanted, "obs")

        wanted = {}
        for obj_id, (name, *values), polygon in self.zones.rows():
            rect, ratings = values[:4], values[4:]
            zone = Zone(id=obj_id or "", name=name, polygon=polygon or self._rect(rect, name),
                        **dict(zip(_ZONE_FIELDS, ratings)))
            wanted[obj_id or f"new-zone-{len(wanted)}"] = zone
        self._diff(children, self.doc.zones, wanted, "zone")

        wanted = {}
        for obj_id, (name, x1, y1, x2, y2), _poly in self.doors.rows():
            wanted[obj_id or f"new-door-{len(wanted)}"] = Door(id=obj_id or "", name=name, x1=x1, y1=y1, x2=x2, y2=y2)
        self._diff(children, self.doc.doors, wanted, "door")

        wanted = {}
        for obj_id, (name, kind, x, y), _poly in self.handoffs.rows():
            if kind not in HANDOFF_KINDS:
                raise InvalidCell(f"hand-off {name}: kind must be one of {', '.join(HANDOFF_KINDS)}")
            wanted[obj_id or f"new-ho-{len(wanted)}"] = HandOff(id=obj_id or "", name=name, kind=kind, x=x, y=y)
        self._diff(children, self.doc.handoffs, wanted, "ho")

        if not children:
            return None
        return Compound(children, text="Edit hall features")

    @staticmethod
    def _rect(values: list[float], name: str) -> list[Point]:
        polygon = rectangle(*values)
        if polygon_area(polygon) <= 0:
            raise InvalidCell(f"{name}: x max and y max must differ from x min and y min")
        return polygon

    def _diff(self, children: list[Command], existing: dict[str, Any], wanted: dict[str, Any], prefix: str) -> None:
        """Append the commands that turn ``existing`` into ``wanted`` (keys of new rows start "new-")."""
        removed = [obj_id for obj_id in existing if obj_id not in wanted]
        if removed:
            children.append(RemoveObjects(sorted(removed, key=natural_key)))
        changes: dict[str, dict[str, Any]] = {}
        added = []
        for key, obj in wanted.items():
            if key.startswith("new-"):
                obj.id = self.doc.new_id(prefix)
                added.append(obj)
                continue
            old = existing[key]
            diff = {name: value for name, value in vars(obj).items()
                    if name != "id" and not _same(value, getattr(old, name))}
            if diff:
                changes[key] = diff
        if changes:
            children.append(SetFields(changes))
        if added:
            children.append(AddObjects(added))
