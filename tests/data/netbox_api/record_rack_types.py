"""Record NetBox's answers about rack types (a catalogue rack type as a push writes it: a shared
object, like a device type), beside what ``record.py`` recorded (README.md here).

    cd tests/data/netbox_api && python record_rack_types.py http://127.0.0.1:8000 /tmp/nb/token.txt

Makes its own manufacturer ``fake-rec rack maker`` and rack type ``fake-rec rack 800x1200``, a
site ``fake-rec rack types`` with one rack of that type (given a U height of its own, which NetBox
replaces with the type's: Rack.copy_racktype_attrs), records the type's POST, its GET in full, in
brief and with the client's ``fields``, the rack's POST and GET, and the OPTIONS choices, then
deletes every object it made.
"""

from __future__ import annotations

from record import Server, delete_site_and_shared, get, record_options, record_then_clean_up, write

MAKER, MAKER_SLUG = "fake-rec rack maker", "fake-rec-rack-maker"
SITE, SLUG = "fake-rec rack types", "fake-rec-rack-types"
TYPE_SLUG = "fake-rec-rack-800x1200"


def record(server: Server) -> None:
    maker = server.ok("POST", "/api/dcim/manufacturers/", [{"name": MAKER, "slug": MAKER_SLUG}])[0]["id"]
    _status, made = write(server, "rack-types.post", "POST", "/api/dcim/rack-types/", [{
        "manufacturer": maker, "model": "fake-rec rack 800x1200", "slug": TYPE_SLUG,
        "form_factor": "4-post-cabinet", "width": 19, "u_height": 52, "outer_width": 800, "outer_depth": 1200,
        "outer_unit": "mm", "weight": 160, "max_weight": 1500, "weight_unit": "kg",
        "description": "Rack 800 × 1200 mm, 52U"}])
    kind = made[0]["id"]
    get(server, "rack-types", f"/api/dcim/rack-types/?id={kind}")
    get(server, "rack-types.brief", f"/api/dcim/rack-types/?id={kind}&brief=1")
    get(server, "rack-types.fields", "/api/dcim/rack-types/?fields=id%2Cslug&limit=1000")
    site = server.ok("POST", "/api/dcim/sites/", [{"name": SITE, "slug": SLUG, "status": "planned"}])[0]["id"]
    _status, racks = write(server, "racks.typed.post", "POST", "/api/dcim/racks/", [{
        "name": "fake-rec R1", "site": site, "status": "planned", "rack_type": kind, "u_height": 42,
        "airflow": "front-to-rear"}])
    get(server, "racks.typed", f"/api/dcim/racks/?id={racks[0]['id']}")
    record_options(server, ("dcim/rack-types",))


def clean_up(server: Server) -> None:
    """Delete what this script made (and only that), the rack before its type."""
    delete_site_and_shared(server, SLUG, ("dcim/racks",),
                           (("dcim/rack-types", TYPE_SLUG), ("dcim/manufacturers", MAKER_SLUG)))


if __name__ == "__main__":
    record_then_clean_up(record, clean_up)
