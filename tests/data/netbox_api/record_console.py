"""Record NetBox's answers about console-port templates (a switch type's serial console port, as
a push writes and a pull reads it), beside what ``record.py`` recorded (README.md here).

    cd tests/data/netbox_api && python record_console.py http://127.0.0.1:8000 /tmp/nb/token.txt

Makes its own manufacturer ``fake-rec console maker``, a device type ``fake-rec console host``
with one console-port template, a site ``fake-rec console`` with one device of it (whose console
port NetBox makes from the template), records the template's POST and GET, the device's console
ports and the OPTIONS choices, then deletes every object it made.
"""

from __future__ import annotations

from record import Server, delete_site_and_shared, get, record_options, record_then_clean_up, write

MAKER, MAKER_SLUG = "fake-rec console maker", "fake-rec-console-maker"
ROLE, ROLE_SLUG = "fake-rec console role", "fake-rec-console-role"
SITE, SLUG = "fake-rec console", "fake-rec-console"
TYPE_SLUG = "fake-rec-console-host"


def record(server: Server) -> None:
    maker = server.ok("POST", "/api/dcim/manufacturers/", [{"name": MAKER, "slug": MAKER_SLUG}])[0]["id"]
    role = server.ok("POST", "/api/dcim/device-roles/", [{"name": ROLE, "slug": ROLE_SLUG}])[0]["id"]
    host = server.ok("POST", "/api/dcim/device-types/", [{"manufacturer": maker, "model": "fake-rec console host",
                                                          "slug": TYPE_SLUG, "u_height": 1}])[0]["id"]
    write(server, "console-port-templates.post", "POST", "/api/dcim/console-port-templates/", [
        {"device_type": host, "name": "console", "type": "rj-45"}])
    get(server, "console-port-templates", f"/api/dcim/console-port-templates/?device_type_id={host}&limit=2")
    site = server.ok("POST", "/api/dcim/sites/", [{"name": SITE, "slug": SLUG, "status": "planned"}])[0]["id"]
    device = server.ok("POST", "/api/dcim/devices/", [{"name": "fake-rec-C1", "device_type": host, "role": role,
                                                       "site": site, "status": "planned"}])[0]["id"]
    get(server, "console-ports", f"/api/dcim/console-ports/?device_id={device}&limit=2")
    record_options(server, ("dcim/console-port-templates",))


def clean_up(server: Server) -> None:
    """Delete what this script made (and only that), the device before its type."""
    delete_site_and_shared(server, SLUG, ("dcim/devices",),
                           (("dcim/device-types", TYPE_SLUG), ("dcim/device-roles", ROLE_SLUG),
                            ("dcim/manufacturers", MAKER_SLUG)))


if __name__ == "__main__":
    record_then_clean_up(record, clean_up)
