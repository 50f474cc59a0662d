"""What the plan's keys, menu actions and drops do: each gesture becomes one command.

The view turns mouse and drag events into calls here; the QActions (with shortcuts) are
exposed so the main window can list them in its Edit and View menus. Refusals from the
command builders go to the view's status message.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, Qt
from PySide6.QtGui import QAction, QCursor, QKeySequence
from PySide6.QtWidgets import QInputDialog

from planner.commands import edits
from planner.commands.base import AddObjects, Command
from planner.model.catalog import BUSBAR, FLOOR_KINDS, IN_RACK_KINDS, RACK, ROW_CDU
from planner.model.document import Document, natural_key, prefix_of
from planner.model.geometry import extents
from planner.model.objects import BusbarRun, Device, FloorUnit, HandOff, Rack
from planner.model.references import follow_copies
from planner.rules.figures import tapoff_reach
from planner.ui.plan.units import TILE_M, to_model

if TYPE_CHECKING:
    from planner.ui.plan.canvas import PlanCanvas

#: Length of a busbar run dropped from the palette: twelve tiles (7.2 m); edit it afterwards.
DROPPED_BUSBAR_TILES = 12
MOVABLE_PREFIXES = ("rack", "fu", "bus", "ho")


def selection_bounds(doc: Document, ids: list[str]) -> tuple[float, float, float, float] | None:
    """(min x, min y, max x, max y) in metres of the movable objects among ``ids``."""
    boxes = []
    for obj_id in ids:
        obj = doc.find(obj_id)
        if isinstance(obj, (Rack, FloorUnit)):
            boxes.append(doc.rack_bounds(obj))
        elif isinstance(obj, BusbarRun):
            boxes.append((min(obj.x1, obj.x2), min(obj.y1, obj.y2), max(obj.x1, obj.x2), max(obj.y1, obj.y2)))
        elif isinstance(obj, HandOff):
            boxes.append((obj.x, obj.y, obj.x, obj.y))
    if not boxes:
        return None
    return (min(b[0] for b in boxes), min(b[1] for b in boxes),
            max(b[2] for b in boxes), max(b[3] for b in boxes))


class Clipboard:
    """Copies of racks (with their devices), floor units, busbars and hand-offs.

    Holding copies rather than ids lets a paste work after the originals were deleted.
    """

    def __init__(self) -> None:
        self.objects: list[Any] = []
        self.bounds: tuple[float, float, float, float] | None = None

    def copy_from(self, doc: Document, ids: list[str]) -> int:
        objects: list[Any] = []
        for obj_id in sorted(ids, key=natural_key):
            obj = doc.find(obj_id)
            if prefix_of(obj_id) not in MOVABLE_PREFIXES or obj is None:
                continue
            objects.append(copy.deepcopy(obj))
            if prefix_of(obj_id) == "rack":
                objects.extend(copy.deepcopy(d) for d in doc.devices_in(obj_id))
        self.objects = objects
        self.bounds = selection_bounds(doc, [o.id for o in objects])
        return len([o for o in objects if not isinstance(o, Device)])

    @staticmethod
    def _fresh_name(doc: Document, obj: Any, taken: set[str]) -> str:
        """The next free name in the object's series: R10, CDU-02, PDC-01, BB-A03 …"""
        if isinstance(obj, Rack):
            return edits.next_rack_name(doc, taken)
        if isinstance(obj, FloorUnit):
            stem = "CDU-" if doc.catalog[obj.type].kind == ROW_CDU else "PDC-"
            return doc.unique_name({u.name for u in doc.floor_units.values()} | taken, stem)
        if isinstance(obj, BusbarRun):
            return doc.unique_name({b.name for b in doc.busbars.values()} | taken, f"BB-{obj.side}")
        return doc.unique_name({h.name for h in doc.handoffs.values()} | taken, f"{obj.name} ", width=1)

    def paste_command(self, doc: Document, dx: float, dy: float) -> AddObjects:
        """New objects with fresh ids and names, offset by (dx, dy); assignments kept if valid."""
        if not self.objects:
            raise edits.Refusal("the clipboard is empty")
        new_ids: dict[str, str] = {}
        taken: set[str] = set()
        result: list[Any] = []
        for original in self.objects:
            clone = copy.deepcopy(original)
            clone.id = doc.new_id(prefix_of(original.id))
            new_ids[original.id] = clone.id
            if isinstance(clone, BusbarRun):
                clone.x1, clone.y1 = round(clone.x1 + dx, 6), round(clone.y1 + dy, 6)
                clone.x2, clone.y2 = round(clone.x2 + dx, 6), round(clone.y2 + dy, 6)
            elif not isinstance(clone, Device):  # a device goes with its rack (references below)
                clone.x, clone.y = round(clone.x + dx, 6), round(clone.y + dy, 6)
            if not isinstance(clone, Device):
                clone.name = self._fresh_name(doc, clone, taken)
                taken.add(clone.name)
            result.append(clone)
        for clone in result:
            follow_copies(clone, new_ids, doc)
        pasted = [o for o in result if not isinstance(o, Device)]
        return AddObjects(result, text=f"Paste {edits.subject(doc, pasted)}")


class PlanEditor(QObject):
    """The editing gestures of one plan view (a PlanCanvas), and the QActions that trigger them."""

    def __init__(self, view: PlanCanvas) -> None:
        super().__init__(view)
        self.view = view
        self.session = view.session
        self.clipboard = Clipboard()
        self._paste_count = 0
        self._edit_actions = [
            self._action("Select &All", QKeySequence.StandardKey.SelectAll, self.select_all),
            self._action("&Copy", QKeySequence.StandardKey.Copy, self.copy),
            self._action("&Paste", QKeySequence.StandardKey.Paste, self.paste_at_cursor),
            self._action("D&uplicate", QKeySequence("Ctrl+D"), self.duplicate),
            self._action("&Delete", QKeySequence.StandardKey.Delete, self.delete),
            self._action("&Rotate 90°", QKeySequence("R"), self.rotate),
            self._action("&Array…", QKeySequence("Ctrl+Shift+A"), self.array_selected),
        ]
        self._nudge_actions = [
            self._action(f"Move {name}", QKeySequence(key), self._nudger(dx, dy))
            for name, key, dx, dy in (("left", Qt.Key.Key_Left, -1, 0), ("right", Qt.Key.Key_Right, 1, 0),
                                      ("up", Qt.Key.Key_Up, 0, -1), ("down", Qt.Key.Key_Down, 0, 1))
        ]

    def _action(self, text: str, shortcut: QKeySequence | QKeySequence.StandardKey,
                slot: Callable[[], Any]) -> QAction:
        action = QAction(text, self.view)
        action.setShortcut(QKeySequence(shortcut))
        action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        action.triggered.connect(lambda _checked=False: slot())
        self.view.addAction(action)
        return action

    def edit_actions(self) -> list[QAction]:
        return list(self._edit_actions)

    @property
    def doc(self) -> Document:
        return self.session.doc

    def push(self, build: Callable[[], Command], select_new: bool = False) -> Command | None:
        """Build a command and push it; a Refusal becomes a status message. Returns the command."""
        try:
            command = build()
        except edits.Refusal as refusal:
            self.view.status_message.emit(str(refusal))
            return None
        self.session.push(command)
        if select_new and isinstance(command, AddObjects):
            self.session.select({o.id for o in command.objects if prefix_of(o.id) != "dev"})
        return command

    def _movable_selection(self) -> list[str]:
        return sorted((i for i in self.session.selection if prefix_of(i) in MOVABLE_PREFIXES),
                      key=natural_key)

    # ------------------------------------------------------------- gestures
    def select_all(self) -> None:
        doc = self.doc
        self.session.select(set(doc.racks) | set(doc.floor_units) | set(doc.busbars))

    def delete(self) -> None:
        ids = self.session.selection
        if ids:
            self.push(lambda: edits.delete_objects(self.doc, ids))

    def rotate(self) -> None:
        ids = self.session.selection
        if ids:
            self.push(lambda: edits.rotate_objects(self.doc, ids, 90))

    def _nudger(self, tiles_x: int, tiles_y: int) -> Callable[[], None]:
        return lambda: self.nudge(tiles_x, tiles_y)

    def nudge(self, tiles_x: int, tiles_y: int) -> None:
        ids = self._movable_selection()
        if ids:
            self.push(lambda: edits.move_objects(self.doc, ids, tiles_x * TILE_M, tiles_y * TILE_M))

    def move(self, ids: list[str], dx: float, dy: float) -> None:
        ids = [i for i in ids if prefix_of(i) in MOVABLE_PREFIXES]
        if ids and (dx or dy):
            self.push(lambda: edits.move_objects(self.doc, ids, dx, dy))

    def duplicate(self) -> None:
        ids = self._movable_selection()
        bounds = selection_bounds(self.doc, ids)
        if bounds is None:
            self.view.status_message.emit("Select racks, floor units or busbars to duplicate")
            return
        width = max(TILE_M, bounds[2] - bounds[0])
        dx = round(-(-width // TILE_M) * TILE_M, 6)
        self.push(lambda: edits.duplicate_objects(self.doc, ids, dx, 0.0), select_new=True)

    def copy(self) -> None:
        count = self.clipboard.copy_from(self.doc, self._movable_selection())
        self._paste_count = 0
        self.view.status_message.emit(f"Copied {count} item{'s' if count != 1 else ''}")

    def paste_at_cursor(self) -> None:
        """Ctrl+V: at the mouse pointer when it is over the plan, else where there is room."""
        viewport = self.view.viewport()
        local = viewport.mapFromGlobal(QCursor.pos())
        if viewport.rect().contains(local):
            self.paste(to_model(self.view.mapToScene(local)))
        else:
            self.paste()

    def paste(self, at: tuple[float, float] | None = None) -> None:
        """Paste with the copy's top-left corner at ``at`` (snapped); without ``at``, in the first
        clear area of the hall (or two tiles further on per paste when there is none)."""
        bounds = self.clipboard.bounds
        if bounds is None:
            self.view.status_message.emit("The clipboard is empty")
            return
        width, depth = bounds[2] - bounds[0], bounds[3] - bounds[1]
        if at is None:
            spot = self.view.plan_scene.free_spot(width, depth)
            if spot is not None:
                at = (spot[0] - width / 2, spot[1] - depth / 2)
        if at is not None:
            dx, dy = self.view.snap_point(at[0], at[1])
            dx, dy = dx - bounds[0], dy - bounds[1]
        else:
            self._paste_count += 1
            dx = dy = 2 * TILE_M * self._paste_count
        self.push(lambda: self.clipboard.paste_command(self.doc, dx, dy), select_new=True)

    def array_selected(self, count: int | None = None) -> None:
        racks = [i for i in self.session.selection if prefix_of(i) == "rack"]
        if len(racks) != 1:
            self.view.status_message.emit("Select one rack to array")
            return
        rack = self.doc.racks[racks[0]]
        if count is None:
            count, ok = QInputDialog.getInt(self.view, "Array racks",
                                            f"Racks to add beside {rack.name}:", 7, 1, 500)
            if not ok:
                return
        along_x = rack.rotation % 180 == 0
        self.push(lambda: edits.array_racks(self.doc, rack.id, count, along_x=along_x),
                  select_new=True)

    # ---------------------------------------------------------------- drops
    def drop(self, key: str, x: float, y: float) -> None:
        """A palette entry dropped at (x, y) metres."""
        doc = self.doc
        if key not in doc.catalog:
            self.view.status_message.emit(f"Unknown equipment type {key}")
            return
        item = doc.catalog[key]
        if item.kind == RACK:
            cx, cy = self.view.snap_centre(x, y, item.width_m, item.depth_m, 0)
            self.push(lambda: edits.place_rack(doc, key, cx, cy), select_new=True)
        elif item.kind in FLOOR_KINDS:
            cx, cy = self.view.snap_centre(x, y, item.width_m, item.depth_m, 0)
            self.push(lambda: edits.place_floor_unit(doc, key, cx, cy), select_new=True)
        elif item.kind == BUSBAR:
            sx, sy = self.view.snap_point(x, y)
            sides = [b.side for b in doc.busbars.values()]
            side = "B" if sides.count("A") > sides.count("B") else "A"
            length = DROPPED_BUSBAR_TILES * TILE_M
            self.push(lambda: edits.place_busbar(doc, key, sx, sy, round(sx + length, 6), sy, side=side),
                      select_new=True)
        elif item.kind in IN_RACK_KINDS:
            rack_id = self.view.plan_scene.rack_at(x, y)
            if rack_id is not None:
                command = self.push(lambda: edits.place_device(doc, key, rack_id))
                if command is not None:
                    self.view.status_message.emit(command.text)
                    self.session.select({rack_id})
            else:
                rack_type = doc.catalog.default_rack()
                cx, cy = self.view.snap_centre(x, y, rack_type.width_m, rack_type.depth_m, 0)
                self.push(lambda: edits.place_device_on_floor(doc, key, cx, cy), select_new=True)

    def drop_outline(self, key: str, x: float, y: float) -> tuple[list[tuple[float, float, float, float]], str]:
        """What a drop of ``key`` at (x, y) would occupy, for the drag preview: rectangles
        (min x, min y, max x, max y in metres; a busbar is a zero-height one) and a hint."""
        doc = self.doc
        if key not in doc.catalog:
            return [], ""
        item = doc.catalog[key]
        if item.kind in (RACK, *FLOOR_KINDS):
            cx, cy = self.view.snap_centre(x, y, item.width_m, item.depth_m, 0)
            ex, ey = item.width_m / 2, item.depth_m / 2
            return [(cx - ex, cy - ey, cx + ex, cy + ey)], item.name
        if item.kind == BUSBAR:
            sx, sy = self.view.snap_point(x, y)
            return [(sx, sy, sx + DROPPED_BUSBAR_TILES * TILE_M, sy)], item.name
        rack_id = self.view.plan_scene.rack_at(x, y)
        if rack_id is not None:
            rack = doc.racks[rack_id]
            free = doc.lowest_free_u(rack_id, item.height_u)
            hint = (f"{item.name} → {rack.name} U{free}" if free is not None
                    else f"{item.name} does not fit in {rack.name}")
            return [doc.rack_bounds(rack)], hint
        rack_type = doc.catalog.default_rack()
        cx, cy = self.view.snap_centre(x, y, rack_type.width_m, rack_type.depth_m, 0)
        ex, ey = rack_type.width_m / 2, rack_type.depth_m / 2
        return [(cx - ex, cy - ey, cx + ex, cy + ey)], f"{item.name} in a new {rack_type.name}"

    # ------------------------------------------------------------- row tool
    def row_racks(self, type_key: str, x0: float, y0: float, x1: float, y1: float) -> list[Rack]:
        """Racks (not yet added) of a row dragged from (x0, y0) to (x1, y1): along the longer axis."""
        doc = self.doc
        item = doc.catalog[type_key]
        horizontal = abs(x1 - x0) >= abs(y1 - y0)
        rotation = 0 if horizontal else 90
        ex, ey = extents(item.width_m, item.depth_m, rotation)
        pitch = ex if horizontal else ey
        span = abs(x1 - x0) if horizontal else abs(y1 - y0)
        count = max(1, int(span / pitch + 1e-6) + 1)
        sx = min(x0, x1) if horizontal else x0
        sy = y0 if horizontal else min(y0, y1)
        cx, cy = self.view.snap_centre(sx, sy, item.width_m, item.depth_m, rotation)
        rows = [r.row for r in doc.racks.values() if r.row.isdigit()]
        row = str(max((int(r) for r in rows), default=0) + 1)
        names: set[str] = set()
        racks = []
        for k in range(count):
            name = edits.next_rack_name(doc, names)
            names.add(name)
            racks.append(Rack(id=f"rack-new-{k}", type=type_key, name=name,
                              x=round(cx + (k * pitch if horizontal else 0), 6),
                              y=round(cy + (0 if horizontal else k * pitch), 6),
                              rotation=rotation, row=row))
        return racks

    def add_row(self, racks: list[Rack]) -> None:
        def build() -> Command:
            for rack in racks:
                rack.id = self.doc.new_id("rack")
            return edits.add_row(racks)
        self.push(build, select_new=True)

    # ---------------------------------------------------------- assignments
    def assignment_field(self, source_id: str) -> str | None:
        """The rack field an assign drag from ``source_id`` sets (feed_a/feed_b/cdu), or None."""
        doc = self.doc
        if source_id in doc.busbars:
            return "feed_a" if doc.busbars[source_id].side == "A" else "feed_b"
        if source_id in doc.floor_units and doc.catalog[doc.floor_units[source_id].type].kind == "row_cdu":
            return "cdu"
        return None

    def assign(self, source_id: str, rack_ids: list[str]) -> None:
        """Put the swept racks on the busbar's feed or the CDU's loop, in one undo step.

        From a busbar only the racks its tap-off whip reaches are assigned (the same reach P5
        checks, ``planner.rules.figures.tapoff_reach``); the status bar names the ones skipped.
        """
        field = self.assignment_field(source_id)
        if field is None or not rack_ids:
            return
        doc = self.doc
        reached = [r for r in rack_ids if field == "cdu" or tapoff_reach(doc, source_id, r).reaches]
        skipped = sorted(set(rack_ids) - set(reached), key=lambda r: natural_key(doc.racks[r].name))
        target = doc.get(source_id).name
        if field != "cdu":
            target = f"feed {doc.busbars[source_id].side} {target}"
        why = ""
        if skipped:
            names = ", ".join(doc.racks[r].name for r in skipped)
            whip = doc.catalog[doc.busbars[source_id].type].tapoff_whip_m
            why = f"; skipped {names}: beyond the {whip:g} m tap-off whip"
        if not reached:
            self.view.status_message.emit(f"No rack assigned to {target}{why}")
            return
        command = self.push(lambda: edits.assign(doc, reached, field, source_id))
        if command is not None:
            count = len(reached)
            self.view.status_message.emit(f"Assigned {count} rack{'s' if count != 1 else ''} to {target}{why}")
