"""The shapes of NetBox 4.6's answers, taken from the responses recorded from a real NetBox
(tests/data/netbox_api, README.md there): for each endpoint the keys of a full object in their
order, the keys of each nested object it holds (a nested site, a cable's termination, a tag),
which keys are choice fields (``{"value", "label"}``) and the label of each value (from the
recorded OPTIONS answers). The fake renders every object through these, so its answers have
exactly the recorded keys."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

DATA = Path(__file__).resolve().parent.parent / "data" / "netbox_api"

#: Endpoint → the recorded files that hold full objects of it.
ENDPOINTS = {
    "extras/tags": ("tags",),
    "dcim/manufacturers": ("manufacturers",),
    "dcim/device-roles": ("device-roles",),
    "dcim/device-types": ("device-types",),
    "dcim/rack-types": ("rack-types", "rack-types.post"),
    "dcim/interface-templates": ("interface-templates",),
    "dcim/power-port-templates": ("power-port-templates",),
    "dcim/power-outlet-templates": ("power-outlet-templates",),
    "dcim/sites": ("sites", "sites.post"),
    "dcim/locations": ("locations", "locations.post"),
    "dcim/racks": ("racks", "racks.post", "racks.patch", "racks.typed"),
    "dcim/devices": ("devices", "devices.post", "devices.one"),
    "dcim/interfaces": ("interfaces",),
    "dcim/power-ports": ("power-ports",),
    "dcim/power-outlets": ("power-outlets",),
    "dcim/power-panels": ("power-panels", "power-panels.post"),
    "dcim/power-feeds": ("power-feeds", "power-feeds.post"),
    "dcim/cables": ("cables", "cables.post", "cables.patch", "cables.after-device-delete", "cables.twin",
                    "cables.splitter.post"),
    "dcim/module-types": ("module-types", "module-types.post"),
    "dcim/module-bay-templates": ("module-bay-templates", "module-bay-templates.post"),
    "dcim/module-bays": ("module-bays",),
    "dcim/modules": ("modules", "modules.post", "modules.patch"),
    "dcim/console-port-templates": ("console-port-templates", "console-port-templates.post"),
    "dcim/console-ports": ("console-ports",),
}
#: Endpoint → the recorded ``?brief=1`` answer.
BRIEF = {"extras/tags": "tags.brief", "dcim/manufacturers": "manufacturers.brief",
         "dcim/device-roles": "device-roles.brief", "dcim/device-types": "device-types.brief",
         "dcim/devices": "devices.brief", "dcim/rack-types": "rack-types.brief"}
#: The brief form of the endpoints NetBox was not asked for one (their serializers' brief_fields).
BRIEF_FIELDS = {
    "dcim/sites": ("id", "url", "display", "name", "description", "slug"),
    "dcim/locations": ("id", "url", "display", "name", "slug", "description", "rack_count", "_depth"),
    "dcim/racks": ("id", "url", "display", "name", "description", "device_count"),
    "dcim/power-panels": ("id", "url", "display", "name", "description", "powerfeed_count"),
    "dcim/power-feeds": ("id", "url", "display", "name", "description", "cable", "_occupied"),
    "dcim/cables": ("id", "url", "display", "label", "description"),
    "dcim/interfaces": ("id", "url", "display", "device", "name", "description", "cable", "_occupied"),
    "dcim/power-ports": ("id", "url", "display", "device", "name", "description", "cable", "_occupied"),
    "dcim/power-outlets": ("id", "url", "display", "device", "name", "description", "cable", "_occupied"),
    "dcim/interface-templates": ("id", "url", "display", "name", "description"),
    "dcim/power-port-templates": ("id", "url", "display", "name", "description"),
    "dcim/power-outlet-templates": ("id", "url", "display", "name", "description"),
    "dcim/module-types": ("id", "url", "display", "profile", "manufacturer", "model", "description", "module_count"),
    "dcim/module-bay-templates": ("id", "url", "display", "name", "enabled", "description"),
    "dcim/module-bays": ("id", "url", "display", "installed_module", "name", "enabled", "description", "_occupied"),
    "dcim/modules": ("id", "url", "display", "device", "module_bay", "module_type", "description"),
    "dcim/console-port-templates": ("id", "url", "display", "name", "description"),
    "dcim/console-ports": ("id", "url", "display", "device", "name", "description", "cable", "_occupied"),
}
#: Endpoint → the recorded OPTIONS answer with its choices; the template endpoints share their
#: component's choices.
OPTIONS = {"dcim/sites": "sites", "dcim/locations": "locations", "dcim/racks": "racks",
           "dcim/device-types": "device-types", "dcim/rack-types": "rack-types", "dcim/devices": "devices",
           "dcim/interface-templates": "interface-templates", "dcim/power-port-templates": "power-port-templates",
           "dcim/power-outlet-templates": "power-outlet-templates", "dcim/interfaces": "interfaces",
           "dcim/power-ports": "power-ports", "dcim/power-outlets": "power-outlets",
           "dcim/power-feeds": "power-feeds", "dcim/cables": "cables", "dcim/module-types": "module-types",
           "dcim/module-bay-templates": "module-bay-templates", "dcim/module-bays": "module-bays",
           "dcim/modules": "modules", "dcim/console-port-templates": "console-port-templates",
           "dcim/console-ports": "console-port-templates"}
#: The object type of a cable end (``object_type``) → its endpoint.
OBJECT_TYPES = {"dcim.interface": "dcim/interfaces", "dcim.powerport": "dcim/power-ports",
                "dcim.poweroutlet": "dcim/power-outlets", "dcim.powerfeed": "dcim/power-feeds"}
ENDPOINT_TYPES = {endpoint: kind for kind, endpoint in OBJECT_TYPES.items()}
#: The address the recordings were made at (replaced by the fake's own).
RECORDED_AT = "http://127.0.0.1:8000"


@cache
def recorded(name: str) -> dict[str, Any]:
    """One recorded file: ``{"method", "path", "status", "request_body"?, "response"}``."""
    return json.loads((DATA / f"{name}.json").read_text(encoding="utf-8"))


def objects_of(answer: Any) -> list[dict[str, Any]]:
    """The objects of a recorded answer: a list page's results, a bulk answer, or one object."""
    if isinstance(answer, dict) and isinstance(answer.get("results"), list):
        return answer["results"]
    if isinstance(answer, list):
        return answer
    return [answer] if isinstance(answer, dict) else []


def _merge(template: Any, value: Any) -> Any:
    """The richer of two recorded values of one key: a nested object over a null, the union of
    a nested object's keys (in the first one's order)."""
    if template is None or template == []:
        return value
    if isinstance(template, dict) and isinstance(value, dict):
        merged = dict(template)
        for key, inner in value.items():
            merged[key] = _merge(merged.get(key), inner)
        return merged
    if isinstance(template, list) and isinstance(value, list) and value:
        return [_merge(template[0], value[0])]
    return template


@cache
def template(endpoint: str) -> dict[str, Any]:
    """A full object of ``endpoint`` as NetBox wrote it, merged over every recorded one (so a
    nested field that was null in one has its shape from another)."""
    merged: dict[str, Any] = {}
    for name in ENDPOINTS[endpoint]:
        for obj in objects_of(recorded(name)["response"]):
            if not merged:
                merged = dict(obj)
            else:
                for key, value in obj.items():
                    merged[key] = _merge(merged.get(key), value)
    return merged


def keys(endpoint: str) -> list[str]:
    return list(template(endpoint))


@cache
def brief_template(endpoint: str) -> dict[str, Any]:
    if endpoint in BRIEF:
        return objects_of(recorded(BRIEF[endpoint])["response"])[0]
    full = template(endpoint)
    return {key: full.get(key) for key in BRIEF_FIELDS[endpoint]}


def is_choice(value: Any) -> bool:
    return isinstance(value, dict) and set(value) == {"value", "label"}


def is_nested(value: Any) -> bool:
    return isinstance(value, dict) and "id" in value and "url" in value


@cache
def choices(endpoint: str) -> dict[str, dict[Any, str]]:
    """Field → {value: label} of ``endpoint`` (the recorded OPTIONS answer)."""
    if endpoint not in OPTIONS:
        return {}
    post = recorded(f"options.{OPTIONS[endpoint]}")["response"]["actions"]["POST"]
    return {name: {c["value"]: c["display_name"] for c in spec["choices"]} for name, spec in post.items()}


def choice_fields(endpoint: str) -> set[str]:
    """The keys a full object of ``endpoint`` holds as ``{"value", "label"}``."""
    return {key for key, value in template(endpoint).items() if is_choice(value)}


def error(name: str) -> Any:
    """A recorded error answer's body."""
    return recorded(f"error.{name}")["response"]


def message(name: str, field: str = "__all__") -> str:
    """The text of a recorded refusal (the first message of ``field``)."""
    body = error(name)
    body = body[-1] if isinstance(body, list) else body
    return body[field][0]


@cache
def end_shapes() -> dict[str, dict[str, Any]]:
    """Object type → a cable end as NetBox nests it (in a cable's terminations, in a component's
    ``link_peers``), from every recorded one; the shapes of the types the recordings lack are
    their brief form."""
    found: dict[str, dict[str, Any]] = {}
    for endpoint, names in ENDPOINTS.items():
        for name in names:
            for obj in objects_of(recorded(name)["response"]):
                for key in ("a_terminations", "b_terminations"):
                    for end in obj.get(key) or ():
                        found.setdefault(end["object_type"], end["object"])
                if endpoint != "dcim/cables" and obj.get("link_peers"):
                    found.setdefault(obj["link_peers_type"], obj["link_peers"][0])
    for kind, endpoint in OBJECT_TYPES.items():
        found.setdefault(kind, brief_template(endpoint))
    return found
