"""The properties dock: inspect and edit the selection, one undoable command per edit.

Fields appear when every selected object has them; a field whose value differs across the
selection shows "(several)" and, when edited, sets all of them (align several racks on one
y, put several racks on one feed). The dock never edits the model itself: it pushes
SetFields or the ``planner.commands.edits`` gesture (move_device, assign) on the session, and
refreshes from ``changed`` like every other view. Other parts add read-only "Figures" (power,
floor load …) through ``set_figures_provider``.

It refreshes only for edits that can change what it shows: the selected objects, the rack of a
selected device, the devices of a selected rack (its figures), any rack or device while a
busbar or CDU's totals are shown, and the busbars and CDUs listed as feed and loop choices.
The choices are kept between refreshes (listing the rack CDUs means looking at every device of
the hall), so nudging a selected rack does not rebuild them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from PySide6.QtCore import Signal
from PySide6.QtGui import QDoubleValidator, QIntValidator
from PySide6.QtWidgets import (
    QComboBox,
    QDockWidget,
    QFormLayout,
    QGroupBox,
    QLabel,
    QLineEdit,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from planner.commands import Command, Refusal, SetFields
from planner.commands.edits import assign, move_device, object_name
from planner.model.bounds import Range, Text, limit_of
from planner.model.catalog import RACK_CDU, SWITCH
from planner.model.change import Change
from planner.model.document import Document, natural_key, prefix_of
from planner.model.objects import COLLECTIONS, ROLES, ROTATIONS, BusbarRun, Device, FloorUnit, Rack
from planner.model.references import Reference, assignable, why_not_target
from planner.ui.display_units import from_display, length_unit, to_display
from planner.ui.session import DocumentSession

_LABEL_ROLE, _FIELD_ROLE = QFormLayout.ItemRole.LabelRole, QFormLayout.ItemRole.FieldRole

FiguresProvider = Callable[[Document, str], list[tuple[str, str]]]
SEVERAL = "(several)"
NONE_TEXT = "(none)"
#: A rack's assignments (feeds, CDU loop), as their references declare them.
_ASSIGNED = {r.field: r for r in assignable(Rack)}
_ASSIGN_FIELDS = tuple(_ASSIGNED)
_LABELS = {"name": "Name", "hostname": "Hostname", "type": "Type", "x": "Position x", "y": "Position y",
           "rotation": "Rotation (°)", "u": "U position", "role": "Switch role", "row": "Row",
           **{name: r.ref.word[0].upper() + r.ref.word[1:] for name, r in _ASSIGNED.items()}, "notes": "Notes"}


def _number(value: Any) -> str:
    return f"{round(float(value), 3):g}"


def _kind_label(obj: Any) -> str:
    return {Rack: "rack", Device: "device", FloorUnit: "floor unit", BusbarRun: "busbar"}.get(type(obj), "item")


class PropertiesDock(QDockWidget):
    """Shows and edits the fields of the selected objects."""

    #: A refused edit's reason, for the status bar.
    status_message = Signal(str)

    def __init__(self, session: DocumentSession, parent: QWidget | None = None) -> None:
        super().__init__("Properties", parent)
        self.setObjectName("properties_dock")
        self.session = session
        self._figures_provider: FiguresProvider | None = None
        self._ids: list[str] = []
        self._filling = False
        #: What the dock shows depends on: these ids, and any object of these id prefixes.
        self._watched: set[str] = set()
        self._watched_kinds: set[str] = set()
        #: Feed and loop choices (kept until a busbar, a CDU or a rack CDU's rack changes), and
        #: what each combo box was last filled with (it is refilled only when that differs).
        self._choice_cache: dict[str, list[tuple[str, Any]]] = {}
        self._filled: dict[str, tuple[bool, list[tuple[str, Any]]]] = {}

        self.heading = QLabel("Nothing selected")
        self.heading.setWordWrap(True)
        font = self.heading.font()
        font.setBold(True)
        self.heading.setFont(font)
        self.form = QFormLayout()
        self.editors: dict[str, QWidget] = {}
        for name in ("name", "row", "notes", "hostname"):
            line = self._add_line(name)
            text = limit_of("Device" if name == "hostname" else "Rack", name, Text)
            if isinstance(text, Text):  # the file format's limit (planner/model/bounds.py)
                line.setMaxLength(text.max_chars)
        self.editors["hostname"].setToolTip("The name discovery tools, NetBox and Slurm know the device by; "
                                            "empty: <rack name>-<device name>")
        self._add_line("x", QDoubleValidator())
        self._add_line("y", QDoubleValidator())
        u_range = limit_of("Device", "u", Range)
        assert isinstance(u_range, Range)  # tests/unit/model/test_bounds_table.py: every field has its limits
        self._add_line("u", QIntValidator(int(u_range.low), int(u_range.high)))
        for name in ("type", "rotation", "role", *_ASSIGN_FIELDS):
            combo = QComboBox()
            combo.activated.connect(lambda _index, n=name: self._combo_chosen(n))
            self.editors[name] = combo
        for name, label in _LABELS.items():
            self.form.addRow(label, self.editors[name])

        self.figures_box = QGroupBox("Figures")
        self.figures_form = QFormLayout(self.figures_box)
        body = QWidget()
        layout = QVBoxLayout(body)
        layout.addWidget(self.heading)
        layout.addLayout(self.form)
        layout.addWidget(self.figures_box)
        layout.addStretch(1)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setWidget(body)
        self.setWidget(scroll)
        self.setMinimumWidth(280)

        session.selection_changed.connect(lambda _ids: self.refresh())
        session.changed.connect(self._on_changed)
        session.reset.connect(self._on_reset)
        self.refresh()

    # ------------------------------------------------------------ contract API
    def set_figures_provider(self, fn: FiguresProvider | None) -> None:
        """fn(doc, obj_id) → [(label, value with units)], shown read-only for a single selection."""
        self._figures_provider = fn
        self.refresh()

    # --------------------------------------------------------------- building
    def _add_line(self, name: str, validator: Any = None) -> QLineEdit:
        edit = QLineEdit()
        if validator is not None:
            edit.setValidator(validator)
        edit.editingFinished.connect(lambda n=name: self._line_edited(n))
        self.editors[name] = edit
        return edit

    @property
    def doc(self) -> Document:
        return self.session.doc

    def objects(self) -> list[Any]:
        return [self.doc.get(i) for i in self._ids if i in self.doc]

    # ---------------------------------------------------------------- refresh
    def _on_reset(self) -> None:
        self._choice_cache.clear()  # another plan: other busbars and CDUs
        self.refresh()

    def _on_changed(self, change: Change) -> None:
        if self._forget_choices(change) or self._concerns(change):
            self.refresh()

    def _concerns(self, change: Change) -> bool:
        """Whether an edit can change the fields, figures or choices shown."""
        if change.catalog or change.basis:
            return True
        touched = change.touched
        if touched & self._watched:
            return True
        devices = self.doc.devices
        for obj_id in touched:
            prefix = prefix_of(obj_id)
            if prefix in self._watched_kinds:
                return True
            if prefix == "dev" and obj_id in devices and devices[obj_id].rack in self._watched:
                return True  # a device put into a selected rack
        return False

    def _forget_choices(self, change: Change) -> bool:
        """Drop the cached feed / loop choices an edit can change; whether any were dropped."""
        if not self._choice_cache:
            return False
        if change.catalog:
            self._choice_cache.clear()
            return True
        touched = {COLLECTIONS[p][0] for p in {prefix_of(i) for i in change.touched} if p in COLLECTIONS}
        dropped = False
        for name, choices in list(self._choice_cache.items()):
            reference = _ASSIGNED[name]
            if touched & set(reference.ref.to) - {"devices"} or \
                    ("devices" in reference.ref.to and self._changes_devices(change, reference, choices)):
                del self._choice_cache[name]
                dropped = True
        return dropped

    def _changes_devices(self, change: Change, reference: Reference, choices: list[tuple[str, Any]]) -> bool:
        """Whether an edit touches a listed device choice, adds one (a rack CDU), or renames a rack
        (choices read "CDU1 in R01"): other device edits leave device choices as they are."""
        devices, listed = self.doc.devices, {v for _t, v in choices}
        for obj_id in change.touched:
            prefix = prefix_of(obj_id)
            if obj_id in listed or (prefix == "rack" and "name" in change.modified.get(obj_id, ())):
                return True
            if prefix == "dev" and obj_id in devices and why_not_target(self.doc, reference, obj_id) is None:
                return True
        return False

    def refresh(self) -> None:
        """Show the current selection's fields and values."""
        self._ids = sorted(self.session.selection, key=natural_key)
        objs = self.objects()
        self._filling = True
        try:
            self._fill(objs)
        finally:
            self._filling = False
        self._fill_figures(objs)
        self._watch(objs)

    def _watch(self, objs: list[Any]) -> None:
        """Note which edits can change what is now shown (see ``_concerns``)."""
        doc = self.doc
        watched = {o.id for o in objs}
        kinds: set[str] = set()
        watched.update(o.rack for o in objs if isinstance(o, Device))  # "… in R01"
        if len(objs) == 1 and self._figures_provider is not None:
            obj = objs[0]
            if isinstance(obj, Rack):
                watched.update(d.id for d in doc.devices_in(obj.id))
            elif isinstance(obj, (BusbarRun, FloorUnit)) or (isinstance(obj, Device)
                                                            and doc.catalog[obj.type].kind == RACK_CDU):
                kinds.update(("rack", "dev"))  # totals over the racks it serves
        self._watched, self._watched_kinds = watched, kinds

    def _applies(self, name: str, objs: list[Any]) -> bool:
        if not objs:
            return False
        if name in _ASSIGN_FIELDS:
            return all(isinstance(o, Rack) for o in objs)
        if name == "u":
            return len(objs) == 1 and isinstance(objs[0], Device)
        if name == "role":
            return all(isinstance(o, Device) and self.doc.catalog[o.type].kind == SWITCH for o in objs)
        if name == "name":
            return len(objs) == 1 and hasattr(objs[0], "name")
        if name == "hostname":  # unique per device: never set on several at once
            return len(objs) == 1 and isinstance(objs[0], Device)
        if name == "type":
            kinds = {self.doc.catalog[o.type].kind for o in objs if hasattr(o, "type")}
            return len(kinds) == 1 and all(hasattr(o, "type") for o in objs)
        return all(hasattr(o, name) for o in objs)

    def _fill(self, objs: list[Any]) -> None:
        if not objs:
            self.heading.setText("Nothing selected")
        elif len(objs) == 1:
            obj = objs[0]
            where = f" in {self.doc.racks[obj.rack].name}" if isinstance(obj, Device) and obj.rack in self.doc.racks else ""
            self.heading.setText(f"{getattr(obj, 'name', obj.id)} — {_kind_label(obj)}{where}")
        else:
            kinds = {_kind_label(o) for o in objs}
            noun = f"{kinds.pop()}s" if len(kinds) == 1 else "items"
            self.heading.setText(f"{len(objs)} {noun} selected")
        unit = length_unit(self.doc)
        for name in ("x", "y"):
            label = self.form.labelForField(self.editors[name])
            if isinstance(label, QLabel):
                label.setText(f"{_LABELS[name]} ({unit})")
        for name, editor in self.editors.items():
            visible = self._applies(name, objs)
            self.form.setRowVisible(editor, visible)
            if not visible:
                continue
            values = {getattr(o, name) for o in objs}
            shared = next(iter(values)) if len(values) == 1 else None
            if isinstance(editor, QLineEdit):
                text = "" if shared is None else (_number(to_display(self.doc, shared)) if name in ("x", "y")
                                                  else str(shared))
                editor.setText(text)
                editor.setPlaceholderText(SEVERAL if len(values) > 1 else "")
                if name == "hostname":  # an own hostname, else the default in grey
                    editor.setPlaceholderText(self.doc.hostname(replace(objs[0], hostname="")))
            elif isinstance(editor, QComboBox):
                self._fill_combo(name, editor, objs, shared, len(values) > 1)

    def _choices(self, name: str, objs: list[Any]) -> list[tuple[str, Any]]:
        if name in _ASSIGN_FIELDS:
            if name not in self._choice_cache:
                self._choice_cache[name] = self._assign_choices(name)
            return self._choice_cache[name]
        doc = self.doc
        if name == "type":
            kind = doc.catalog[objs[0].type].kind
            return [(item.name, item.key) for item in doc.catalog.of_kind(kind)]
        if name == "role":
            return [(NONE_TEXT, "")] + [(role, role) for role in ROLES]
        return [(f"{r}°", r) for r in ROTATIONS]

    def _assign_choices(self, name: str) -> list[tuple[str, Any]]:
        """What the field may be assigned to, by name (the busbars of one side; every CDU, row
        CDUs and rack CDUs "CDU1 in R01"), as its reference declares."""
        doc, reference = self.doc, _ASSIGNED[name]
        found = [(object_name(doc, obj), obj.id) for attr in reference.ref.to for obj in getattr(doc, attr).values()
                 if why_not_target(doc, reference, obj.id) is None
                 and (not isinstance(obj, Device) or obj.rack in doc.racks)]
        return [(NONE_TEXT, None)] + sorted(found, key=lambda c: natural_key(c[0]))

    def _fill_combo(self, name: str, combo: QComboBox, objs: list[Any], shared: Any, mixed: bool) -> None:
        choices = self._choices(name, objs)
        if self._filled.get(name) != (mixed, choices):
            combo.clear()
            if mixed:
                combo.addItem(SEVERAL, SEVERAL)
            for text, value in choices:
                combo.addItem(text, value)
            self._filled[name] = (mixed, choices)
        combo.setCurrentIndex(0 if mixed else max(combo.findData(shared), 0))

    def _fill_figures(self, objs: list[Any]) -> None:
        rows = self._figures_provider(self.doc, objs[0].id) if self._figures_provider and len(objs) == 1 else []
        if not self._refill_figures(rows):  # most edits change a figure or two, not the rows there are
            form = self.figures_form
            while form.rowCount():
                form.removeRow(0)
            for label, value in rows:
                text = QLabel(value)
                text.setWordWrap(True)
                form.addRow(label, text)
        self.figures_box.setVisible(bool(rows))

    def _refill_figures(self, rows: list[tuple[str, str]]) -> bool:
        """Put new texts in the figure rows shown (a label keeps the text it has already), when
        they are the rows ``addRow`` makes of ``rows`` (a row without a label has no label item);
        whether they were."""
        form = self.figures_form
        if form.rowCount() != len(rows):
            return False
        shown = []
        for row, (label, value) in enumerate(rows):
            name, field = (form.itemAt(row, role) for role in (_LABEL_ROLE, _FIELD_ROLE))
            name_label = name.widget() if name is not None else None
            field_label = field.widget() if field is not None else None
            if not isinstance(field_label, QLabel) or isinstance(name_label, QLabel) != bool(label):
                return False
            shown.append((name_label, label, field_label, value))
        for name_label, label, field_label, value in shown:
            if isinstance(name_label, QLabel):
                name_label.setText(label)
            field_label.setText(value)
        return True

    # ---------------------------------------------------------------- editing
    def _line_edited(self, name: str) -> None:
        editor = self.editors[name]
        assert isinstance(editor, QLineEdit)
        if self._filling or not editor.isModified():
            return
        editor.setModified(False)
        text = editor.text().strip()
        if name in ("x", "y", "u"):
            if not text:
                return
            try:
                value: Any = int(text) if name == "u" else from_display(self.doc, float(text.replace(",", ".")))
            except (ValueError, OverflowError):
                self.status_message.emit(f"{_LABELS[name]}: {text[:40]!r} is not a number")
                self.refresh()
                return
        else:
            value = text
            if name == "name" and not value:
                self.refresh()
                return
        self.commit(name, value)

    def _combo_chosen(self, name: str) -> None:
        combo = self.editors[name]
        assert isinstance(combo, QComboBox)
        if self._filling or combo.currentData() == SEVERAL:
            return
        self.commit(name, combo.currentData())

    def commit(self, name: str, value: Any) -> None:
        """Apply ``value`` to field ``name`` of every selected object as one undo step."""
        objs = self.objects()
        try:
            command = self._command(name, value, objs)
        except Refusal as exc:
            self.status_message.emit(str(exc))
            self.refresh()
            return
        if command is not None:
            self.session.push(command)

    def _command(self, name: str, value: Any, objs: list[Any]) -> Command | None:
        doc = self.doc
        if name == "u":
            device = objs[0]
            return None if value == device.u else move_device(doc, device.id, device.rack, value)
        if name == "hostname":
            return self._hostname_command(objs[0], value)
        if name in _ASSIGN_FIELDS:
            command = assign(doc, [o.id for o in objs], name, value)
            return command if command.values else None
        if name == "type":
            for obj in objs:
                if isinstance(obj, Device) and obj.type != value:
                    height = doc.catalog[value].height_u
                    if not doc.fits_at(obj.rack, height, obj.u if height else 0, ignore=obj.id):
                        raise Refusal(f"{doc.catalog[value].name} ({height}U) does not fit in "
                                      f"{doc.racks[obj.rack].name} at U{obj.u}")
        values = {o.id: {name: value} for o in objs if getattr(o, name) != value}
        if not values:
            return None
        label = _LABELS[name].split(" (")[0].lower()
        subject = objs[0].name if len(objs) == 1 and hasattr(objs[0], "name") else f"{len(values)} items"
        return SetFields(values, text=f"Set {label} of {subject}")

    def _hostname_command(self, device: Device, text: str) -> Command | None:
        """Set a device's own hostname; empty (or the default typed out) goes back to the default,
        which follows renames of the rack and the device. Discovery files separate a hostname from
        what follows by a space, so a hostname has none."""
        if any(char.isspace() for char in text):
            raise Refusal(f"Hostname {text[:40]!r}: no spaces (discovery tools would read it as two words)")
        default = self.doc.hostname(replace(device, hostname=""))
        value = "" if text == default else text
        if value == device.hostname:
            return None
        where = f"{self.doc.racks[device.rack].name} {device.name}" if device.rack in self.doc.racks else device.name
        text = f"Set hostname of {where} to {value}" if value else f"Reset hostname of {where} to {default}"
        return SetFields({device.id: {"hostname": value}}, text=text)
