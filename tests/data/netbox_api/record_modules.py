"""Record NetBox's answers about module types, module bays and modules (the transceivers a push
writes), beside what ``record.py`` recorded (README.md here).

    python tests/data/netbox_api/record_modules.py http://127.0.0.1:8000 /tmp/nb/token.txt

Makes its own manufacturer-free objects under the ``Generic`` manufacturer (which the pod's set
has): a device type ``fake-rec module host`` with two module-bay templates, a module type, a site
``fake-rec modules`` with one device, a module in one bay; records the reads and writes and a
second module in a full bay; then deletes every object it made.
"""

from __future__ import annotations

from urllib.parse import quote

from record import Server, get, record_options, record_then_clean_up, write

SITE, SLUG = "fake-rec modules", "fake-rec-modules"
TYPE_SLUG = "fake-rec-module-host"
MODEL = "fake-rec SR4 transceiver"


def record(server: Server) -> None:
    maker = server.ok("GET", "/api/dcim/manufacturers/?slug=generic")["results"][0]["id"]
    role = server.ok("GET", "/api/dcim/device-roles/?limit=1")["results"][0]["id"]
    host = server.ok("POST", "/api/dcim/device-types/", [{"manufacturer": maker, "model": "fake-rec module host",
                                                          "slug": TYPE_SLUG, "u_height": 1}])[0]["id"]
    write(server, "module-bay-templates.post", "POST", "/api/dcim/module-bay-templates/", [
        {"device_type": host, "name": "1", "position": "1", "description": "OSFP twin-port cage: 1/1, 1/2"},
        {"device_type": host, "name": "P1", "position": "P1", "description": "OSFP cage: P1"}])
    get(server, "module-bay-templates", f"/api/dcim/module-bay-templates/?device_type_id={host}&limit=2")
    _status, types = write(server, "module-types.post", "POST", "/api/dcim/module-types/", [
        {"manufacturer": maker, "model": MODEL, "description": "SR4 optic", "comments": "Hall Planner: recording"}])
    kind = types[0]["id"]
    get(server, "module-types", f"/api/dcim/module-types/?id={kind}")
    get(server, "module-types.fields", "/api/dcim/module-types/?fields=id%2Cmodel&limit=2&offset=0")
    get(server, "module-types.comments", "/api/dcim/module-types/?fields=id%2Ccomments&limit=2&offset=0")
    site = server.ok("POST", "/api/dcim/sites/", [{"name": SITE, "slug": SLUG, "status": "planned"}])[0]["id"]
    device = server.ok("POST", "/api/dcim/devices/", [{"name": "fake-rec-M1", "device_type": host, "role": role,
                                                       "site": site, "status": "planned"}])[0]["id"]
    get(server, "module-bays", f"/api/dcim/module-bays/?device_id={device}&limit=2")
    bays = get(server, "module-bays.fields", f"/api/dcim/module-bays/?site_id={site}&fields=id%2Cname%2Cdevice"
                                             "&limit=1000&offset=0")["results"]
    bay = {b["name"]: b["id"] for b in bays}
    _status, modules = write(server, "modules.post", "POST", "/api/dcim/modules/", [
        {"device": device, "module_bay": bay["1"], "module_type": kind, "status": "planned"}])
    get(server, "modules", f"/api/dcim/modules/?site_id={site}&limit=2")
    get(server, "modules.fields", f"/api/dcim/modules/?site_id={site}&fields=id%2Cdevice%2Cmodule_bay%2Cmodule_type"
                                  "&limit=1000&offset=0")
    write(server, "modules.patch", "PATCH", "/api/dcim/modules/", [{"id": modules[0]["id"], "status": "active"}])
    write(server, "error.module-bay-occupied", "POST", "/api/dcim/modules/", [
        {"device": device, "module_bay": bay["1"], "module_type": kind, "status": "planned"}])
    write(server, "modules.delete", "DELETE", "/api/dcim/modules/", [{"id": modules[0]["id"]}])
    record_options(server, ("dcim/module-types", "dcim/module-bay-templates", "dcim/module-bays", "dcim/modules"))


def clean_up(server: Server) -> None:
    """Delete what this script made (and only that)."""
    for path, key in (("dcim/sites", f"slug={SLUG}"),):
        for site in server.ok("GET", f"/api/{path}/?{key}")["results"]:
            devices = server.ok("GET", f"/api/dcim/devices/?site_id={site['id']}&fields=id")["results"]
            if devices:
                server.ok("DELETE", "/api/dcim/devices/", [{"id": d["id"]} for d in devices])
            server.ok("DELETE", "/api/dcim/sites/", [{"id": site["id"]}])
    for kind in server.ok("GET", f"/api/dcim/module-types/?model={quote(MODEL)}")["results"]:
        server.ok("DELETE", "/api/dcim/module-types/", [{"id": kind["id"]}])
    for host in server.ok("GET", f"/api/dcim/device-types/?slug={TYPE_SLUG}")["results"]:
        server.ok("DELETE", "/api/dcim/device-types/", [{"id": host["id"]}])


if __name__ == "__main__":
    record_then_clean_up(record, clean_up)
