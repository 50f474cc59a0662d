"""Record the responses of a real NetBox that tests/netbox_fake answers like (README.md here).

    python tests/data/netbox_api/record.py http://127.0.0.1:8000 /tmp/nb/token.txt

Reads what the server holds (one or two objects per list) and, for what a push writes, makes
its own site ``fake-rec recording`` (a location with a row inside, two racks, four devices of
device types already there, a power panel, two feeds, cables), records the answers to the
writes and the refusals, and deletes every object it made. Nothing else is written. Each file
is ``{"method", "path", "status", "request_body"?, "response"}`` with the body as NetBox sent it
(lists of ``results`` cut to two objects; the OPTIONS answers cut to their choices).
"""

from __future__ import annotations

import json
import sys
import urllib.error
import urllib.request
from pathlib import Path

HERE = Path(__file__).parent
SITE = "fake-rec recording"
SLUG = "fake-rec-recording"
BAD_TOKEN = "Token 0123456789abcdef0123456789abcdef01234567"


class Server:
    def __init__(self, url: str, token: str) -> None:
        self.url, self.token = url.rstrip("/"), token

    def call(self, method: str, path: str, body=None, token: str | None = None):
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.url + path, data=data, method=method, headers={
            "Authorization": token or self.token, "Accept": "application/json", "Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=120) as answer:
                status, payload = answer.status, answer.read()
        except urllib.error.HTTPError as exc:
            status, payload = exc.code, exc.read()
        return status, (json.loads(payload) if payload else None)

    def ok(self, method: str, path: str, body=None):
        status, answer = self.call(method, path, body)
        if status >= 300:
            raise SystemExit(f"{method} {path}: {status} {answer}")
        return answer


def save(name: str, method: str, path: str, status: int, answer, body=None) -> None:
    if isinstance(answer, dict) and isinstance(answer.get("results"), list):
        answer = {**answer, "results": answer["results"][:2]}
    record = {"method": method, "path": path, "status": status}
    if body is not None:
        record["request_body"] = body
    record["response"] = answer
    (HERE / f"{name}.json").write_text(json.dumps(record, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


def get(server: Server, name: str, path: str) -> dict:
    status, answer = server.call("GET", path)
    save(name, "GET", path, status, answer)
    return answer


def write(server: Server, name: str, method: str, path: str, body):
    status, answer = server.call(method, path, body)
    save(name, method, path, status, answer, body)
    return status, answer


def record_then_clean_up(record, clean_up) -> None:
    """Run a recorder script's ``record`` against the server of ``sys.argv`` (URL, token file),
    then its ``clean_up`` whatever happened."""
    url, token_file = sys.argv[1:3]
    server = Server(url, Path(token_file).read_text().strip())
    try:
        record(server)
    finally:
        clean_up(server)


def delete_site_and_shared(server: Server, site_slug: str, in_site: tuple[str, ...],
                           shared: tuple[tuple[str, str], ...]) -> None:
    """A recorder's clean-up: its own site, after what it made there (``in_site`` endpoints in
    that order: cables before devices), then its shared objects (``(endpoint, slug)`` in that
    order: a type before its manufacturer). Nothing else is touched."""
    for site in server.ok("GET", f"/api/dcim/sites/?slug={site_slug}")["results"]:
        for endpoint in in_site:
            found = server.ok("GET", f"/api/{endpoint}/?site_id={site['id']}&fields=id")["results"]
            if found:
                server.ok("DELETE", f"/api/{endpoint}/", [{"id": o["id"]} for o in found])
        server.ok("DELETE", "/api/dcim/sites/", [{"id": site["id"]}])
    for endpoint, slug in shared:
        for found in server.ok("GET", f"/api/{endpoint}/?slug={slug}")["results"]:
            server.ok("DELETE", f"/api/{endpoint}/", [{"id": found["id"]}])


def main(url: str, token_file: str) -> None:
    server = Server(url, Path(token_file).read_text().strip())
    get(server, "status", "/api/status/")
    for name, endpoint in (("tags", "extras/tags"), ("manufacturers", "dcim/manufacturers"),
                           ("device-roles", "dcim/device-roles"), ("device-types", "dcim/device-types")):
        get(server, name, f"/api/{endpoint}/?limit=2")
        get(server, f"{name}.brief", f"/api/{endpoint}/?limit=2&brief=1")
        get(server, f"{name}.fields", f"/api/{endpoint}/?fields=id%2Cslug&limit=2&offset=0")
    types = {t["slug"]: t for t in server.ok("GET", "/api/dcim/device-types/?limit=1000")["results"]}
    node, leaf, pdu = (types[s]["id"] for s in ("generic-node-8gpu-liquid-4u", "nvidia-sw-64x400g-1u",
                                                 "generic-pdu-rack-3ph-63a"))
    for name in ("interface-templates", "power-port-templates", "power-outlet-templates"):
        get(server, name, f"/api/dcim/{name}/?device_type_id={pdu}&limit=2")
    roles = {r["slug"]: r["id"] for r in server.ok("GET", "/api/dcim/device-roles/?limit=1000")["results"]}
    tags = {t["slug"]: t["id"] for t in server.ok("GET", "/api/extras/tags/?limit=1000")["results"]}
    made: dict[str, list[int]] = {}
    try:
        record_site(server, made, node, leaf, pdu, roles, tags)
    finally:
        clean_up(server)


def record_site(server, made, node, leaf, pdu, roles, tags) -> None:
    _status, sites = write(server, "sites.post", "POST", "/api/dcim/sites/",
                           [{"name": SITE, "slug": SLUG, "status": "planned"}])
    site = sites[0]["id"]
    hall = server.ok("POST", "/api/dcim/locations/", [{"name": "fake-rec hall", "slug": "fake-rec-hall",
                                                       "site": site, "status": "planned"}])[0]["id"]
    _status, rows = write(server, "locations.post", "POST", "/api/dcim/locations/", [
        {"name": "fake-rec hall row 1", "slug": "fake-rec-hall-row-1", "site": site, "parent": hall,
         "status": "planned", "description": "Row 1 of racks"}])
    row = rows[0]["id"]
    rack_fields = {"site": site, "location": row, "status": "planned", "width": 19, "u_height": 52,
                   "outer_width": 800, "outer_depth": 1200, "outer_unit": "mm", "weight": 190.0,
                   "max_weight": 1800, "weight_unit": "kg", "form_factor": "4-post-cabinet",
                   "airflow": "front-to-rear", "description": "Rack 800 x 1200 mm, 52U"}
    _status, racks = write(server, "racks.post", "POST", "/api/dcim/racks/",
                           [{"name": "R01", **rack_fields}, {"name": "R02", **rack_fields}])
    r1, r2 = (r["id"] for r in racks)
    device = {"site": site, "location": row, "status": "planned"}
    _status, devices = write(server, "devices.post", "POST", "/api/dcim/devices/", [
        {"name": "R01-N1", "device_type": node, "role": roles["gpu-node"], "rack": r1, "position": 1,
         "face": "front", **device},
        {"name": "R01-PDU-A1", "device_type": pdu, "role": roles["pdu"], "rack": r1, "position": None,
         "face": "", **device},
        {"name": "R02-L1", "device_type": leaf, "role": roles["leaf-switch"], "rack": r2, "position": 1,
         "face": "front", **device},
        {"name": "R02-L2", "device_type": leaf, "role": roles["leaf-switch"], "rack": r2, "position": 2,
         "face": "front", **device}])
    n1, pdu_a1, l1, l2 = (d["id"] for d in devices)
    _status, panels = write(server, "power-panels.post", "POST", "/api/dcim/power-panels/", [
        {"name": "BB-A01", "site": site, "location": hall, "description": "Busbar run, side A"}])
    feed = {"power_panel": panels[0]["id"], "status": "planned", "supply": "ac", "phase": "three-phase",
            "voltage": 415, "amperage": 125, "max_utilization": 80}
    _status, feeds = write(server, "power-feeds.post", "POST", "/api/dcim/power-feeds/", [
        {"name": "R01-A", "rack": r1, "type": "primary", **feed},
        {"name": "R02-A", "rack": r2, "type": "primary", **feed}])

    def component(endpoint, device_id, name):
        return server.ok("GET", f"/api/dcim/{endpoint}/?device_id={device_id}&name={name}")["results"][0]["id"]

    p1, l1_1, l1_2, l2_1 = (component("interfaces", d, n) for d, n in ((n1, "P1"), (l1, "1/1"), (l1, "1/2"),
                                                                      (l2, "1/1")))
    psu1, inlet = component("power-ports", n1, "PSU1"), component("power-ports", pdu_a1, "Input")
    o1 = component("power-outlets", pdu_a1, "O1")
    cable = {"status": "planned", "length": 10.0, "length_unit": "m", "tags": [tags["net-compute"]]}

    def ends(a_type, a_id, b_type, b_id):
        return {"a_terminations": [{"object_type": a_type, "object_id": a_id}],
                "b_terminations": [{"object_type": b_type, "object_id": b_id}]}

    _status, cables = write(server, "cables.post", "POST", "/api/dcim/cables/", [
        {"type": "mmf-om4", "label": "R01-N1-P1 to R02-L1-1/1", **cable,
         **ends("dcim.interface", p1, "dcim.interface", l1_1)},
        {"type": "power", "label": "R01-N1-PSU1 to R01-PDU-A1-O1", **cable, "tags": [tags["net-power"]],
         **ends("dcim.powerport", psu1, "dcim.poweroutlet", o1)},
        {"type": "power", "label": "R01-PDU-A1-Input to R01-A", **cable, "length": None, "length_unit": "",
         "tags": [tags["net-power"]], **ends("dcim.powerport", inlet, "dcim.powerfeed", feeds[0]["id"])}])
    data_cable = cables[0]["id"]
    base = f"?site_id={site}&limit=2"
    get(server, "sites", f"/api/dcim/sites/?id={site}")
    get(server, "sites.fields", f"/api/dcim/sites/?slug={SLUG}&fields=id%2Cname%2Cslug%2Cstatus&limit=1000&offset=0")
    get(server, "locations", f"/api/dcim/locations/{base}")
    get(server, "locations.fields", f"/api/dcim/locations/?site_id={site}&fields=description%2Cid%2Cname%2Cparent"
                                    "%2Csite%2Cslug%2Cstatus&limit=1000&offset=0")
    get(server, "racks", f"/api/dcim/racks/{base}")
    get(server, "racks.fields", f"/api/dcim/racks/?site_id={site}&fields=airflow%2Cdescription%2Cform_factor%2Cid"
                                "%2Clocation%2Cmax_weight%2Cname%2Couter_depth%2Couter_unit%2Couter_width%2Csite"
                                "%2Cstatus%2Cu_height%2Cweight%2Cweight_unit%2Cwidth&limit=1000&offset=0")
    get(server, "devices", f"/api/dcim/devices/?site_id={site}&name=R01-N1&name=R01-PDU-A1")
    get(server, "devices.brief", f"/api/dcim/devices/{base}&brief=1")
    get(server, "devices.fields", f"/api/dcim/devices/?site_id={site}&fields=device_type%2Cface%2Cid%2Clocation"
                                  "%2Cname%2Cposition%2Crack%2Crole%2Csite%2Cstatus&limit=1000&offset=0")
    get(server, "devices.one", f"/api/dcim/devices/{n1}/")
    get(server, "interfaces", f"/api/dcim/interfaces/?id={p1}&id={l1_2}")
    get(server, "power-ports", f"/api/dcim/power-ports/?id={psu1}&id={inlet}")
    get(server, "power-outlets", f"/api/dcim/power-outlets/?id={o1}&device_id={pdu_a1}&limit=2")
    for name in ("interfaces", "power-ports", "power-outlets"):
        get(server, f"{name}.fields", f"/api/dcim/{name}/?site_id={site}&fields=id%2Cname%2Cdevice&limit=2&offset=0")
    get(server, "power-panels", f"/api/dcim/power-panels/{base}")
    get(server, "power-panels.fields", f"/api/dcim/power-panels/?site_id={site}&fields=description%2Cid%2Clocation"
                                       "%2Cname%2Csite&limit=1000&offset=0")
    get(server, "power-feeds", f"/api/dcim/power-feeds/{base}")
    get(server, "power-feeds.fields", f"/api/dcim/power-feeds/?site_id={site}&fields=amperage%2Cdescription%2Cid"
                                      "%2Cmax_utilization%2Cname%2Cphase%2Cpower_panel%2Crack%2Cstatus%2Csupply"
                                      "%2Ctype%2Cvoltage%2Cpower_panel&limit=1000&offset=0")
    get(server, "cables", f"/api/dcim/cables/?id={data_cable}&id={cables[2]['id']}")
    get(server, "cables.fields", f"/api/dcim/cables/?site_id={site}&fields=id%2Clabel%2Ctype%2Cstatus%2Ccolor"
                                 "%2Clength%2Clength_unit%2Cdescription%2Ctags%2Ca_terminations%2Cb_terminations"
                                 "&limit=2&offset=0")
    # Writes: bulk PATCH of a field and of a cable's terminations.
    write(server, "racks.patch", "PATCH", "/api/dcim/racks/", [{"id": r2, "location": hall}])
    write(server, "cables.patch", "PATCH", "/api/dcim/cables/",
          [{"id": data_cable, **ends("dcim.interface", p1, "dcim.interface", l1_2)}])
    # Refusals.
    write(server, "error.cable-occupied", "POST", "/api/dcim/cables/",
          [{"type": "mmf-om4", "status": "planned", "label": "second on P1",
            **ends("dcim.interface", p1, "dcim.interface", l2_1)}])
    write(server, "error.device-duplicate", "POST", "/api/dcim/devices/",
          [{"name": "R02-L2", "device_type": leaf, "role": roles["leaf-switch"], "rack": r2, "position": 10,
            "face": "front", **device}])
    write(server, "error.unknown-id", "POST", "/api/dcim/devices/",
          [{"name": "R02-L3", "device_type": 999999, "role": roles["leaf-switch"], "site": site, "status": "planned"}])
    write(server, "error.rack-duplicate", "POST", "/api/dcim/racks/",
          [{"name": "R03", **rack_fields}, {"name": "R01", **rack_fields}])
    write(server, "error.bad-choice", "POST", "/api/dcim/racks/", [{"name": "R04", **rack_fields, "status": "bogus"}])
    write(server, "error.patch-unknown-id", "PATCH", "/api/dcim/racks/", [{"id": 99999999, "description": "x"}])
    save("error.bad-token", "GET", "/api/status/", *server.call("GET", "/api/status/", token=BAD_TOKEN))
    save("error.not-found", "GET", "/api/dcim/devices/99999999/", *server.call("GET", "/api/dcim/devices/99999999/"))
    assert server.ok("GET", f"/api/dcim/racks/?site_id={site}&name=R03")["count"] == 0  # the bulk is atomic
    # Two cables swapping their B ends cannot be PATCHed in place (the first holds what the second
    # wants), and an empty side is not a way round: NetBox leaves a side given as [] as it is.
    other = server.ok("POST", "/api/dcim/cables/", [{"type": "mmf-om4", "status": "planned", "label": "other",
                                                     **ends("dcim.interface", l2_1, "dcim.interface", l1_1)}])
    write(server, "error.cable-swap", "PATCH", "/api/dcim/cables/",
          [{"id": data_cable, **ends("dcim.interface", p1, "dcim.interface", l1_1)},
           {"id": other[0]["id"], **ends("dcim.interface", l2_1, "dcim.interface", l1_2)}])
    write(server, "cables.patch-empty-side", "PATCH", "/api/dcim/cables/",
          [{"id": data_cable, "b_terminations": []}])
    server.ok("DELETE", "/api/dcim/cables/", [{"id": other[0]["id"]}])
    # What NetBox does to a cable whose end goes with its device: the cable stays, one end empty.
    write(server, "devices.delete", "DELETE", "/api/dcim/devices/", [{"id": l1}])
    get(server, "cables.after-device-delete", f"/api/dcim/cables/{data_cable}/")
    record_options(server, ("dcim/sites", "dcim/locations", "dcim/racks", "dcim/device-types", "dcim/devices",
                            "dcim/interface-templates", "dcim/power-port-templates", "dcim/power-outlet-templates",
                            "dcim/interfaces", "dcim/power-ports", "dcim/power-outlets", "dcim/power-feeds",
                            "dcim/cables"))


def record_options(server: Server, endpoints) -> None:
    """Each endpoint's OPTIONS answer, cut to the choices of its POST fields."""
    for endpoint in endpoints:
        status, answer = server.call("OPTIONS", f"/api/{endpoint}/")
        post = answer["actions"]["POST"]
        choices = {field: [{"value": c["value"], "display_name": c["display_name"]} for c in spec["choices"]]
                   for field, spec in post.items() if spec.get("choices")}
        save(f"options.{endpoint.split('/')[1]}", "OPTIONS", f"/api/{endpoint}/", status,
             {"name": answer["name"], "actions": {"POST": {f: {"choices": c} for f, c in choices.items()}}})


def clean_up(server: Server) -> None:
    """Delete everything under the site this script made (and only that)."""
    found = server.ok("GET", f"/api/dcim/sites/?slug={SLUG}")["results"]
    if not found:
        return
    site = found[0]["id"]
    for endpoint in ("dcim/cables", "dcim/power-feeds", "dcim/devices", "dcim/power-panels", "dcim/racks"):
        ids = [o["id"] for o in server.ok("GET", f"/api/{endpoint}/?site_id={site}&limit=1000&fields=id")["results"]]
        if ids:
            server.ok("DELETE", f"/api/{endpoint}/", [{"id": n} for n in ids])
    locations = server.ok("GET", f"/api/dcim/locations/?site_id={site}&limit=1000&fields=id,parent")["results"]
    for location in sorted(locations, key=lambda o: o["parent"] is None):
        server.ok("DELETE", "/api/dcim/locations/", [{"id": location["id"]}])
    server.ok("DELETE", "/api/dcim/sites/", [{"id": site}])


if __name__ == "__main__":
    main(*sys.argv[1:3])
