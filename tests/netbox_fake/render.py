"""The fake's objects as NetBox 4.6 writes them: every key of the recorded object, in its order,
each nested object with the keys NetBox gives it in that place (``shapes``), choice fields as
``{"value", "label"}``, ``url`` and ``display_url`` on the fake's own address."""

from __future__ import annotations

from typing import Any

from . import shapes
from .schema import (
    CABLES,
    CONSOLE_PORT_TEMPLATES,
    CONSOLE_PORTS,
    DEVICE_TYPES,
    DEVICES,
    FEEDS,
    INTERFACE_TEMPLATES,
    INTERFACES,
    LOCATIONS,
    MANUFACTURERS,
    MODULE_BAY_TEMPLATES,
    MODULE_BAYS,
    MODULE_TYPES,
    MODULES,
    PANELS,
    POWER_OUTLET_TEMPLATES,
    POWER_OUTLETS,
    POWER_PORT_TEMPLATES,
    POWER_PORTS,
    RACK_TYPES,
    RACKS,
    REFS,
    ROLES,
    SITES,
    TAGS,
)
from .store import Store

#: Count key → (endpoint counted, its field that refers to the object).
COUNTS = {
    "device_count": {DEVICE_TYPES: (DEVICES, "device_type"), ROLES: (DEVICES, "role"), SITES: (DEVICES, "site"),
                     LOCATIONS: (DEVICES, "location"), RACKS: (DEVICES, "rack")},
    "rack_count": {SITES: (RACKS, "site"), LOCATIONS: (RACKS, "location"), RACK_TYPES: (RACKS, "rack_type")},
    "powerfeed_count": {PANELS: (FEEDS, "power_panel"), RACKS: (FEEDS, "rack")},
    "devicetype_count": {MANUFACTURERS: (DEVICE_TYPES, "manufacturer")},
    "interface_template_count": {DEVICE_TYPES: (INTERFACE_TEMPLATES, "device_type")},
    "power_port_template_count": {DEVICE_TYPES: (POWER_PORT_TEMPLATES, "device_type")},
    "power_outlet_template_count": {DEVICE_TYPES: (POWER_OUTLET_TEMPLATES, "device_type")},
    "interface_count": {DEVICES: (INTERFACES, "device")},
    "power_port_count": {DEVICES: (POWER_PORTS, "device")},
    "power_outlet_count": {DEVICES: (POWER_OUTLETS, "device")},
    "module_count": {MODULE_TYPES: (MODULES, "module_type")},
    "module_bay_template_count": {DEVICE_TYPES: (MODULE_BAY_TEMPLATES, "device_type")},
    "module_bay_count": {DEVICES: (MODULE_BAYS, "device")},
    "console_port_template_count": {DEVICE_TYPES: (CONSOLE_PORT_TEMPLATES, "device_type")},
    "console_port_count": {DEVICES: (CONSOLE_PORTS, "device")},
}


class Renderer:
    def __init__(self, store: Store, base: str) -> None:
        self.store, self.base = store, base
        self._tag = shapes.template(CABLES)["tags"][0]

    def full(self, endpoint: str, obj: dict[str, Any], fields: set[str] | None = None) -> dict[str, Any]:
        shape = shapes.template(endpoint)
        if fields:
            shape = {key: value for key, value in shape.items() if key in fields}
        return self.render(endpoint, obj, shape)

    def brief(self, endpoint: str, obj: dict[str, Any]) -> dict[str, Any]:
        return self.render(endpoint, obj, shapes.brief_template(endpoint))

    def render(self, endpoint: str, obj: dict[str, Any], shape: dict[str, Any]) -> dict[str, Any]:
        return {key: self.value(endpoint, obj, key, value) for key, value in shape.items()}

    def display(self, endpoint: str, obj: dict[str, Any]) -> str:
        if endpoint in (DEVICE_TYPES, MODULE_TYPES, RACK_TYPES):
            return str(obj.get("model"))
        if endpoint == MODULES:  # Module.__str__: "<bay>: <type> (<id>)"
            bay = self.store.get(MODULE_BAYS, obj.get("module_bay")) or {}
            kind = self.store.get(MODULE_TYPES, obj.get("module_type")) or {}
            return f"{bay.get('name')}: {kind.get('model')} ({obj['id']})"
        if endpoint == CABLES:
            return obj.get("label") or f"#{obj['id']}"
        if endpoint == DEVICES and not obj.get("name"):
            kind = self.store.get(DEVICE_TYPES, obj.get("device_type")) or {}
            maker = self.store.get(MANUFACTURERS, kind.get("manufacturer")) or {}
            return f"{maker.get('name')} {kind.get('model')} ({obj['id']})"
        return str(obj.get("name"))

    def value(self, endpoint: str, obj: dict[str, Any], key: str, shape: Any) -> Any:
        store = self.store
        if key == "id":
            return obj["id"]
        if key == "url":
            return f"{self.base}/api/{endpoint}/{obj['id']}/"
        if key == "display_url":
            return f"{self.base}/{endpoint}/{obj['id']}/"
        if key == "display":
            return self.display(endpoint, obj)
        if key in ("created", "last_updated"):
            return obj[key]
        if key == "_occupied" and endpoint == MODULE_BAYS:
            return bool(store.referring(MODULES, "module_bay", obj["id"]))
        if key == "_occupied":
            return bool(obj.get("cable") or obj.get("mark_connected"))
        if key == "installed_module":
            held = sorted(store.referring(MODULES, "module_bay", obj["id"]))
            return self.render(MODULES, store.data[MODULES][held[0]], shape if shapes.is_nested(shape)
                               else shapes.brief_template(MODULES)) if held else None
        if key == "_depth":
            depth, parent = 0, obj.get("parent") if endpoint == LOCATIONS else None
            while parent:
                depth, parent = depth + 1, (store.get(LOCATIONS, parent) or {}).get("parent")
            return depth
        if key in COUNTS or key.endswith("_count") or key == "tagged_items":
            if key == "tagged_items":
                return sum(len(ids.get(obj["id"], ())) for (_e, f), ids in store.children.items() if f == "tags")
            counted = COUNTS.get(key, {}).get(endpoint)
            return len(store.referring(*counted, obj["id"])) if counted else 0
        if key == "cable":
            cable = store.get(CABLES, obj.get("cable"))
            return None if cable is None else self.render(CABLES, cable, shape or shapes.brief_template(CABLES))
        if key == "cable_end":
            return obj.get("cable_end") if obj.get("cable") else None
        if key in ("link_peers", "connected_endpoints", "link_peers_type", "connected_endpoints_type"):
            return self._peers(endpoint, obj, key, shape)
        if key == "connected_endpoints_reachable":
            cable = store.get(CABLES, obj.get("cable"))
            return bool(cable and cable.get("status") == "connected" and self._peer_ends(endpoint, obj))
        if key in ("a_terminations", "b_terminations"):
            return [{"object_type": kind, "object_id": number, "object": self._end(kind, number)}
                    for kind, number in obj.get(key, [])]
        if key == "tags":
            return [self.render(TAGS, store.data[TAGS][n], self._tag) for n in obj.get("tags") or ()]
        target = REFS.get(endpoint, {}).get(key)
        if target is not None:
            referred = store.get(target, obj.get(key))
            if referred is None:
                return None
            return self.render(target, referred, shape if shapes.is_nested(shape) else shapes.brief_template(target))
        value = obj.get(key)
        if shapes.is_choice(shape) or key in shapes.choice_fields(endpoint):
            if value in (None, ""):
                return None
            return {"value": value, "label": shapes.choices(endpoint).get(key, {}).get(value, str(value))}
        if value is None:
            if key not in obj:
                return _blank(shape)
            return None
        if isinstance(shape, float) and isinstance(value, int | float | str) and not isinstance(value, bool):
            return float(value)
        if isinstance(shape, int) and not isinstance(shape, bool) and isinstance(value, float) and value.is_integer():
            return int(value)
        return value

    def _peer_ends(self, endpoint: str, obj: dict[str, Any]) -> list[tuple[str, int]]:
        cable = self.store.get(CABLES, obj.get("cable"))
        if cable is None:
            return []
        me = (shapes.ENDPOINT_TYPES[endpoint], obj["id"])
        mine, far = ((cable["a_terminations"], cable["b_terminations"]) if me in cable["a_terminations"]
                     else (cable["b_terminations"], cable["a_terminations"]))
        if cable.get("profile"):  # connector i to connector i (interfaces.twin, interfaces.splitter)
            place = mine.index(me)
            return far[place:place + 1]
        return far

    def _peers(self, endpoint: str, obj: dict[str, Any], key: str, shape: Any) -> Any:
        ends = self._peer_ends(endpoint, obj)
        if key.endswith("_type"):
            return ends[0][0] if ends else None
        if not ends:
            return [] if key == "link_peers" else None
        return [self._end(kind, number) for kind, number in ends]

    def _end(self, kind: str, number: int) -> dict[str, Any]:
        endpoint = shapes.OBJECT_TYPES[kind]
        return self.render(endpoint, self.store.data[endpoint][number], shapes.end_shapes()[kind])


def _blank(shape: Any) -> Any:
    """The value of a key a write never set: what NetBox gives an empty field of that type."""
    if isinstance(shape, bool):
        return False
    if isinstance(shape, str):
        return ""
    if isinstance(shape, list):
        return []
    if isinstance(shape, dict) and not shapes.is_nested(shape) and not shapes.is_choice(shape):
        return {}
    return None
