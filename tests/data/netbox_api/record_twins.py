"""Record NetBox's answers about a cable of two port-cables, as a push writes a twin-port copper
cable (a DAC or ACC with a twin-port plug at one end or both), beside what ``record.py`` recorded
(README.md here).

    cd tests/data/netbox_api && python record_twins.py http://127.0.0.1:8000 /tmp/nb/token.txt

Makes its own manufacturer, device role and device type ``fake-rec twin host`` (one twin-port
cage: interfaces ``1/1`` and ``1/2``), a site ``fake-rec twins`` with six devices, and records:
a straight twin cable (profile ``trunk-2c1p``, A's ``1/1``, ``1/2`` to B's ``1/2``, ``1/1``: the
order pairs them), its GET, A's interfaces with their link peers, its cable terminations (the
connector of each), a PATCH giving B's ends in the other order (NetBox keeps the pairing: the
GET after it), a splitter (legs from C's and D's ``1/1`` to E's twin cage, its ports given
in the other order) with C's interfaces and their one link peer, and NetBox's refusals of three terminations a
side, of a blank profile, and of a PATCH that puts a new end at the place (connector) of an end it
keeps (F's ``1/1`` first, B's ``1/2`` kept: the database's unique connector, a 500). Then deletes every object it made.
"""

from __future__ import annotations

from record import Server, delete_site_and_shared, get, record_then_clean_up, write

MAKER, MAKER_SLUG = "fake-rec twin maker", "fake-rec-twin-maker"
ROLE, ROLE_SLUG = "fake-rec twin role", "fake-rec-twin-role"
SITE, SLUG = "fake-rec twins", "fake-rec-twins"
TYPE_SLUG = "fake-rec-twin-host"
PROFILE = "trunk-2c1p"


def _end(number: int) -> dict:
    return {"object_type": "dcim.interface", "object_id": number}


def record(server: Server) -> None:
    maker = server.ok("POST", "/api/dcim/manufacturers/", [{"name": MAKER, "slug": MAKER_SLUG}])[0]["id"]
    role = server.ok("POST", "/api/dcim/device-roles/", [{"name": ROLE, "slug": ROLE_SLUG}])[0]["id"]
    host = server.ok("POST", "/api/dcim/device-types/", [{"manufacturer": maker, "model": "fake-rec twin host",
                                                          "slug": TYPE_SLUG, "u_height": 1}])[0]["id"]
    server.ok("POST", "/api/dcim/interface-templates/", [
        {"device_type": host, "name": name, "type": "400gbase-x-osfp"} for name in ("1/1", "1/2")])
    site = server.ok("POST", "/api/dcim/sites/", [{"name": SITE, "slug": SLUG, "status": "planned"}])[0]["id"]
    devices = server.ok("POST", "/api/dcim/devices/", [
        {"name": f"fake-rec-T{n}", "device_type": host, "role": role, "site": site, "status": "planned"}
        for n in "ABCDEF"])
    port = {}
    for device in devices:
        for found in server.ok("GET", f"/api/dcim/interfaces/?device_id={device['id']}")["results"]:
            port[(device["name"][-1], found["name"])] = found["id"]
    _status, made = write(server, "cables.twin.post", "POST", "/api/dcim/cables/", [{
        "profile": PROFILE, "type": "dac-passive", "status": "planned", "label": "fake-rec twin",
        "a_terminations": [_end(port[("A", "1/1")]), _end(port[("A", "1/2")])],
        "b_terminations": [_end(port[("B", "1/2")]), _end(port[("B", "1/1")])]}])
    cable = made[0]["id"]
    get(server, "cables.twin", f"/api/dcim/cables/?id={cable}")
    get(server, "interfaces.twin", f"/api/dcim/interfaces/?device_id={devices[0]['id']}")
    get(server, "cable-terminations.twin", f"/api/dcim/cable-terminations/?cable_id={cable}&limit=4")
    write(server, "cables.twin.patch", "PATCH", "/api/dcim/cables/", [{
        "id": cable, "a_terminations": [_end(port[("A", "1/1")]), _end(port[("A", "1/2")])],
        "b_terminations": [_end(port[("B", "1/1")]), _end(port[("B", "1/2")])]}])
    get(server, "cables.twin.after-patch", f"/api/dcim/cables/?id={cable}")
    write(server, "cables.splitter.post", "POST", "/api/dcim/cables/", [{
        "profile": PROFILE, "type": "dac-passive", "status": "planned", "label": "fake-rec splitter",
        "a_terminations": [_end(port[("C", "1/1")]), _end(port[("D", "1/1")])],
        "b_terminations": [_end(port[("E", "1/2")]), _end(port[("E", "1/1")])]}])
    get(server, "interfaces.splitter", f"/api/dcim/interfaces/?device_id={devices[2]['id']}")
    write(server, "error.twin-three", "POST", "/api/dcim/cables/", [{
        "profile": PROFILE, "type": "dac-passive", "status": "planned",
        "a_terminations": [_end(port[("A", "1/1")])], "b_terminations": [_end(port[("B", "1/1")])] * 3}])
    write(server, "error.twin-kept-place", "PATCH", "/api/dcim/cables/", [{
        "id": cable, "b_terminations": [_end(port[("F", "1/1")]), _end(port[("B", "1/2")])]}])
    write(server, "error.profile-blank", "PATCH", "/api/dcim/cables/", [{"id": cable, "profile": ""}])


def clean_up(server: Server) -> None:
    """Delete what this script made (and only that), the cables and devices before their type."""
    delete_site_and_shared(server, SLUG, ("dcim/cables", "dcim/devices"),
                           (("dcim/device-types", TYPE_SLUG), ("dcim/device-roles", ROLE_SLUG),
                            ("dcim/manufacturers", MAKER_SLUG)))


if __name__ == "__main__":
    record_then_clean_up(record, clean_up)
