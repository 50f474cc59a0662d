"""The NetBox import set (``planner export --to netbox``), read back with csv and PyYAML: NetBox's
column names and slugs, the devicetype-library schema, and referential integrity — every cable end
an interface its device type defines, every device's rack, type, role and location present, counts
equal to the fabric counts and the bill of materials."""

from __future__ import annotations

import csv
import io
import json
import re
from collections import Counter
from pathlib import Path

import pytest
import yaml

from planner.export import sheet_text
from planner.export.bom import build_bom
from planner.export.options import ExportOptions
from planner.export.registry import EXPORT_KINDS, export_to
from planner.fabric import fabric_counts
from planner.io import netbox_names
from planner.io.atomic_folder import EXPORT_MARKER
from planner.io.netbox_names import CONSOLE_TYPES
from planner.layout.templates import build_template
from planner.model.catalog import FLOOR_KINDS, IN_RACK_KINDS
from planner.model.document import Document
from planner.model.labels import cable_label

DATA = Path(__file__).resolve().parents[2] / "data"

#: NetBox bulk-import fields accepted by every release v4.4.0 … v4.6.8 (the ``Meta.fields`` of each
#: form in netbox/dcim/forms/bulk_import.py, intersected over the tags), and each form's required
#: ones; power-feed-cables.csv: v4.6.0 … v4.6.8 (``side_b_power_panel`` is 4.6's).
_CABLE_FIELDS = {"side_a_site", "side_a_device", "side_a_type", "side_a_name", "side_b_site", "side_b_device",
                 "side_b_type", "side_b_name", "type", "status", "tenant", "label", "color", "length", "length_unit",
                 "description", "comments", "tags"}
_DEVICE_FIELDS = ({"name", "role", "tenant", "manufacturer", "device_type", "platform", "serial", "asset_tag",
                   "status", "site", "location", "rack", "position", "face", "latitude", "longitude", "parent",
                   "device_bay", "airflow", "virtual_chassis", "vc_position", "vc_priority", "cluster",
                   "description", "config_template", "comments", "tags"},
                  {"role", "manufacturer", "device_type", "status", "site"})
NETBOX_FIELDS = {
    "sites.csv": ({"name", "slug", "status", "region", "group", "tenant", "facility", "time_zone", "description",
                   "physical_address", "shipping_address", "latitude", "longitude", "comments", "tags"},
                  {"name", "slug", "status"}),
    "locations.csv": ({"site", "parent", "name", "slug", "status", "tenant", "facility", "description", "comments",
                       "tags"}, {"site", "name", "slug", "status"}),
    "shared/manufacturers.csv": ({"name", "slug", "description", "tags"}, {"name", "slug"}),
    # RackTypeImportForm (NetBox 4.6.8 dcim/forms/bulk_import.py)
    "shared/rack-types.csv": ({"manufacturer", "model", "slug", "form_factor", "width", "u_height", "starting_unit",
                               "desc_units", "outer_width", "outer_height", "outer_depth", "outer_unit", "mounting_depth",
                               "weight", "max_weight", "weight_unit", "description", "owner", "comments", "tags"},
                              {"manufacturer", "model", "slug", "form_factor"}),
    "shared/device-roles.csv": ({"name", "slug", "color", "vm_role", "config_template", "description", "comments",
                                 "parent", "tags"}, {"name", "slug"}),
    "racks.csv": ({"site", "location", "name", "facility_id", "tenant", "status", "role", "rack_type", "form_factor",
                   "serial", "asset_tag", "width", "u_height", "desc_units", "outer_width", "outer_height",
                   "outer_depth", "outer_unit", "mounting_depth", "airflow", "weight", "max_weight", "weight_unit",
                   "description", "comments", "tags"},
                  {"site", "name", "status", "width", "u_height"}),
    "devices.csv": _DEVICE_FIELDS,
    "tap-offs.csv": _DEVICE_FIELDS,
    "cables.csv": (_CABLE_FIELDS, {"side_a_type", "side_a_name", "side_b_type", "side_b_name"}),
    "power-feed-cables.csv": (_CABLE_FIELDS | {"side_a_power_panel", "side_b_power_panel", "profile", "bundle",
                                               "owner"}, {"side_a_type", "side_a_name", "side_b_type", "side_b_name"}),
    "power-panels.csv": ({"site", "location", "name", "description", "comments", "tags"}, {"site", "name"}),
    # dcim/forms/bulk_import.py ModuleImportForm (v4.6.8)
    "modules.csv": ({"device", "module_bay", "module_type", "serial", "asset_tag", "status", "description", "owner",
                     "comments", "replicate_components", "adopt_components", "tags"},
                    {"device", "module_bay", "module_type", "status"}),
    # extras/forms/bulk_import.py TagImportForm: v4.0.0 name, slug, color, description; v4.6.8 adds
    # weight, object_types, owner
    "shared/tags.csv": ({"name", "slug", "color", "description"}, {"name", "slug"}),
    "power-feeds.csv": ({"site", "power_panel", "location", "rack", "name", "status", "type", "mark_connected",
                         "supply", "phase", "voltage", "amperage", "max_utilization", "tenant", "description",
                         "comments", "tags"},
                        {"site", "power_panel", "name", "status", "type", "supply", "phase"}),
}
#: devicetype-library schema/devicetype.json: properties (additionalProperties false) and required.
DEVICE_TYPE_KEYS = {"manufacturer", "model", "slug", "part_number", "u_height", "is_full_depth", "airflow", "weight",
                    "weight_unit", "front_image", "rear_image", "subdevice_role", "is_powered", "console-ports",
                    "console-server-ports", "power-ports", "power-outlets", "interfaces", "front-ports", "rear-ports",
                    "module-bays", "device-bays", "inventory-items", "description", "comments"}
DEVICE_TYPE_REQUIRED = {"manufacturer", "model", "slug", "u_height", "is_full_depth"}
INTERFACE_KEYS = {"name", "label", "type", "enabled", "mgmt_only", "description", "bridge", "poe_mode", "poe_type",
                  "rf_role"}
POWER_PORT_KEYS = {"name", "label", "type", "maximum_draw", "allocated_draw", "description"}
POWER_OUTLET_KEYS = {"name", "label", "type", "power_port", "feed_leg", "description"}
#: Slugs from netbox/dcim/choices.py (v4.0.0 and v4.6.8) the set may use.
CABLE_TYPE_SLUGS = {"dac-passive", "dac-active", "mmf-om4", "smf-os2", "aoc", "cat6a", "power", ""}
INTERFACE_SLUGS = {"infiniband-ndr", "400gbase-x-osfp", "400gbase-x-qsfp112", "100gbase-x-qsfp28", "1000base-t"}
POWER_PORT_SLUGS = {"iec-60320-c14", "iec-60320-c20", "iec-60309-3p-n-e-6h", "hardwired"}
POWER_OUTLET_SLUGS = {"iec-60320-c13", "iec-60320-c19", "iec-60309-3p-n-e-6h"}
#: CableImportForm side_a_type/side_b_type of the set's cables (app_label.model).
END_TYPES = {"dcim.interface", "dcim.powerport", "dcim.poweroutlet"}
#: The tap-off boxes' type (a side of several rack PDUs): not a catalogue type.
TAP_OFF = "Busbar tap-off"


def read(folder: Path, name: str) -> list[dict[str, str]]:
    with open(folder / name, encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle))


def header(folder: Path, name: str) -> list[str]:
    with open(folder / name, encoding="utf-8", newline="") as handle:
        return next(csv.reader(handle))


def device_types(folder: Path) -> dict[str, dict]:
    """Model → parsed YAML of every device type in the set."""
    types = {}
    for path in sorted((folder / "shared" / "device-types").glob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        assert path.stem == data["slug"]
        types[data["model"]] = data
    return types


@pytest.fixture(scope="module")
def pod() -> Document:
    return build_template("pod", nodes=16)


@pytest.fixture(scope="module")
def pod_set(pod, tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("netbox") / "set"
    export_to(pod, "netbox", folder, ExportOptions(site="DC West", location="Hall 2"))
    return folder


def test_the_kind_is_a_folder_export():
    kind = EXPORT_KINDS["netbox"]
    assert kind.folder and not kind.paper and kind.suffix == ""


def test_every_file_is_there_with_a_readme_giving_the_import_order(pod_set):
    files = sorted(str(p.relative_to(pod_set)) for p in pod_set.rglob("*") if p.suffix != ".yaml")
    assert files == sorted(["README.txt", "shared", "shared/device-types", "shared/module-types", EXPORT_MARKER,
                            *NETBOX_FIELDS])
    readme = (pod_set / "README.txt").read_text(encoding="utf-8")
    steps = re.findall(r"^ ?\d+\. (\S+)", readme, re.MULTILINE)
    assert steps == ["shared/manufacturers.csv", "shared/rack-types.csv", "shared/device-roles.csv", "shared/device-types/",
                     "shared/module-types/", "shared/tags.csv", "sites.csv", "locations.csv", "racks.csv", "devices.csv",
                     "modules.csv", "cables.csv", "power-panels.csv",
                     "power-feeds.csv", "tap-offs.csv", "power-feed-cables.csv"]


@pytest.mark.parametrize("name", sorted(NETBOX_FIELDS))
def test_columns_are_netbox_import_fields_with_the_required_ones(pod_set, name):
    accepted, required = NETBOX_FIELDS[name]
    columns = header(pod_set, name)
    assert set(columns) <= accepted, set(columns) - accepted
    assert required <= set(columns)
    assert len(columns) == len(set(columns))


@pytest.mark.parametrize("name", sorted(NETBOX_FIELDS))
def test_netbox_s_own_csv_reading_finds_commas_and_whole_rows(pod_set, name):
    """As NetBox reads an upload (utilities/forms/bulk_import.py ``_clean_csv``, utils.py ``parse_csv``):
    the delimiter sniffed among , ; | and tab, cells stripped, every row as long as the header."""
    data = (pod_set / name).read_bytes().decode("utf-8-sig")
    dialect = csv.Sniffer().sniff(data.strip(), delimiters=",;|\t")
    assert dialect.delimiter == ","
    rows = list(csv.reader(io.StringIO(data.strip()), dialect=dialect))
    assert all(len(row) == len(rows[0]) for row in rows)
    assert [[cell.strip() for cell in row] for row in rows] == rows  # nothing NetBox would strip away


def test_every_rack_names_a_rack_type_of_shared_with_the_catalogue_s_size(pod_set, pod):
    from planner.model.catalog import builtin_catalog
    kinds = {row["model"]: row for row in read(pod_set, "shared/rack-types.csv")}
    builtin = [item for item in builtin_catalog().items.values() if item.kind == "rack"]
    assert sorted(kinds) == sorted(item.name for item in builtin)  # the same file for every hall
    for item in builtin:
        row = kinds[item.name]
        assert (row["manufacturer"], row["slug"], row["form_factor"], row["width"], row["outer_unit"]) == (
            "Generic", f"generic-{item.key}", "4-post-cabinet", "19", "mm")
        assert (int(row["u_height"]), int(row["outer_width"]), int(row["outer_depth"]), float(row["weight"]),
                int(row["max_weight"])) == (item.rack_units, round(item.width_m * 1000), round(item.depth_m * 1000),
                                            item.weight_kg, item.max_load_kg)
    racks = read(pod_set, "racks.csv")
    assert len(racks) == len(pod.racks)
    for row in racks:
        [rack] = [r for r in pod.racks.values() if r.name == row["name"]]
        assert row["rack_type"] == pod.catalog[rack.type].name and int(row["u_height"]) == int(
            kinds[row["rack_type"]]["u_height"])


def test_device_types_follow_the_devicetype_library_schema(pod_set, pod):
    types = device_types(pod_set)
    assert len([m for m in types if not m.startswith(TAP_OFF)]) == len({d.type for d in pod.devices.values()}
                                                                       | {u.type for u in pod.floor_units.values()})
    for data in types.values():
        assert DEVICE_TYPE_REQUIRED <= set(data) <= DEVICE_TYPE_KEYS
        assert re.fullmatch(r"[-a-z0-9_]+", data["slug"]) and len(data["slug"]) <= 100
        assert ("weight" in data) == ("weight_unit" in data)
        assert data.get("weight_unit", "kg") == "kg"
        assert data["u_height"] >= 0 and data["u_height"] * 2 == int(data["u_height"] * 2)
        for interface in data.get("interfaces", []):
            assert set(interface) <= INTERFACE_KEYS and {"name", "type"} <= set(interface)
            assert interface["type"] in INTERFACE_SLUGS
        for port in data.get("power-ports", []):
            assert set(port) <= POWER_PORT_KEYS and {"name", "type"} <= set(port)
            assert port["type"] in POWER_PORT_SLUGS
            assert all(isinstance(port[k], int) and port[k] >= 1 for k in ("maximum_draw", "allocated_draw") if k in port)
        power_ports = {port["name"] for port in data.get("power-ports", [])}
        for outlet in data.get("power-outlets", []):
            assert set(outlet) <= POWER_OUTLET_KEYS and {"name", "type"} <= set(outlet)
            assert outlet["type"] in POWER_OUTLET_SLUGS and outlet["power_port"] in power_ports
            assert outlet.get("feed_leg", "A") in ("A", "B", "C")


def test_interfaces_are_the_catalogue_ports_typed_by_the_fabric_kind(pod_set, pod):
    switch = pod.catalog["sw-64x400g-1u"]
    data = device_types(pod_set)[switch.name]
    assert [i["name"] for i in data["interfaces"]] == switch.port_names() + ["mgmt0"]
    assert {i["type"] for i in data["interfaces"][:-1]} == {"infiniband-ndr"}
    assert data["interfaces"][-1] == {"name": "mgmt0", "type": "1000base-t", "mgmt_only": True}
    assert data["manufacturer"] == "NVIDIA" and data["slug"] == "nvidia-sw-64x400g-1u"


def test_a_switch_s_serial_console_is_a_console_port_of_its_type_and_a_node_has_none(pod_set, pod):
    types = device_types(pod_set)
    # the QM97XX manual's "RS232 Console port (RJ45)": ConsolePortTypeChoices TYPE_RJ45 (NetBox 4.6.8)
    for key in ("sw-64x400g-1u", "sw-48x1g-oob-1u", "sw-64x100g-2u-mgmt"):
        assert types[pod.catalog[key].name]["console-ports"] == [{"name": "console", "type": "rj-45"}], key
    assert "console-ports" not in types[pod.catalog["node-8gpu-liquid-4u"].name]
    choices = json.loads((DATA / "netbox_api" / "options.console-port-templates.json").read_text())
    recorded = {c["value"] for c in choices["response"]["actions"]["POST"]["type"]["choices"]}
    assert set(CONSOLE_TYPES.values()) <= recorded  # every type the set writes is one NetBox 4.6.8 offers


def test_every_network_s_ports_are_interfaces_typed_by_connector_and_speed(pod_set, pod):
    types = device_types(pod_set)
    node = {i["name"]: i for i in types[pod.catalog["node-8gpu-liquid-4u"].name]["interfaces"]}
    # DGX-class node: 8 OSFP rails, 2 x 400G QSFP112 storage, 2 x 100G in-band (NetBox has no 100G
    # QSFP112 type: the QSFP28 one), the BMC on RJ45, the only management-only interface
    assert [node[f"P{i}"]["type"] for i in range(1, 9)] == ["infiniband-ndr"] * 8
    assert (node["S1"]["type"], node["S2"]["type"]) == ("400gbase-x-qsfp112",) * 2
    assert (node["E1"]["type"], node["E2"]["type"]) == ("100gbase-x-qsfp28",) * 2
    assert node["BMC"] == {"name": "BMC", "type": "1000base-t", "mgmt_only": True}
    assert [name for name, i in node.items() if i.get("mgmt_only")] == ["BMC"]
    oob = {i["name"]: i for i in types[pod.catalog["sw-48x1g-oob-1u"].name]["interfaces"]}
    assert [oob[str(n)]["type"] for n in range(1, 49)] == ["1000base-t"] * 48
    assert [oob[f"swp{n}"]["type"] for n in range(49, 53)] == ["100gbase-x-qsfp28"] * 4
    assert [name for name, i in oob.items() if i.get("mgmt_only")] == ["eth0"]
    inband = {i["name"]: i for i in types[pod.catalog["sw-64x100g-2u-mgmt"].name]["interfaces"]}
    assert {inband[str(n)]["type"] for n in range(1, 65)} == {"100gbase-x-qsfp28"}
    assert inband["eth0"]["mgmt_only"] is True
    for item_key in {d.type for d in pod.devices.values()}:
        item = pod.catalog[item_key]
        written = [i["name"] for i in types[item.name].get("interfaces", [])]
        data_ports = [p.name for p in item.ports() if p.network in ("compute", "storage", "inband", "oob")]
        assert written == data_ports, item_key


def test_an_ethernet_fabric_gets_ethernet_interfaces(tmp_path):
    doc = build_template("starter")
    doc.basis.fabric_kind = "ethernet"
    export_to(doc, "netbox", tmp_path / "set", ExportOptions())
    types = device_types(tmp_path / "set")
    rails = {i["type"] for key in {d.type for d in doc.devices.values()}
             for i in types[doc.catalog[key].name].get("interfaces", [])
             if i["name"] in doc.catalog[key].port_names("compute")}
    assert rails == {"400gbase-x-osfp"}


def test_psus_are_power_ports_with_their_inlet_and_share_of_the_draw(pod_set, pod):
    node = pod.catalog["node-8gpu-liquid-4u"]  # 12 kW peak, 10.5 kW steady, ten C20 PSUs
    ports = device_types(pod_set)[node.name]["power-ports"]
    assert [p["name"] for p in ports] == [f"PSU{i}" for i in range(1, node.psu_count + 1)]
    assert {p["type"] for p in ports} == {"iec-60320-c20"}
    assert sum(p["maximum_draw"] for p in ports) == 12_000 and sum(p["allocated_draw"] for p in ports) == 10_500
    switch = device_types(pod_set)[pod.catalog["sw-64x400g-1u"].name]["power-ports"]
    # no inlet in the catalogue: a C14, the inlet whose C13 the cord planner gives such a PSU
    assert [(p["name"], p["type"]) for p in switch] == [("PSU1", "iec-60320-c14"), ("PSU2", "iec-60320-c14")]


def test_a_rack_pdu_has_its_inlet_and_its_outlets_on_their_phase_s_feed_leg(pod_set, pod):
    item = pod.catalog["pdu-rack-3ph-63a"]  # "IEC 60309 3P+N+E 63 A 6h", 6 x C13 + 1 x C19 per group
    pdu = device_types(pod_set)[item.name]
    assert pdu["u_height"] == 0 and pdu["is_full_depth"] is False
    assert pdu["power-ports"] == [{"name": "Input", "type": "iec-60309-3p-n-e-6h"}]
    outlets = pdu["power-outlets"]
    assert [o["name"] for o in outlets] == [f"O{i}" for i in range(1, 43)]
    assert [o["type"] for o in outlets[:7]] == ["iec-60320-c13"] * 6 + ["iec-60320-c19"]
    assert [o["feed_leg"] for o in outlets[::7]] == ["A", "B", "C", "A", "B", "C"]  # L1, L2, L3 twice
    assert {o["power_port"] for o in outlets} == {"Input"}


def _components(data: dict) -> dict[str, set[str]]:
    return {"dcim.interface": {i["name"] for i in data.get("interfaces", [])},
            "dcim.powerport": {p["name"] for p in data.get("power-ports", [])},
            "dcim.poweroutlet": {o["name"] for o in data.get("power-outlets", [])}}


def test_every_reference_resolves(pod_set, pod):
    types = device_types(pod_set)
    sites = {r["name"] for r in read(pod_set, "sites.csv")}
    locations = {r["name"]: r for r in read(pod_set, "locations.csv")}
    manufacturers = {r["name"] for r in read(pod_set, "shared/manufacturers.csv")}
    roles = {r["name"] for r in read(pod_set, "shared/device-roles.csv")}
    racks = {r["name"]: r for r in read(pod_set, "racks.csv")}
    devices = {r["name"]: r for r in [*read(pod_set, "devices.csv"), *read(pod_set, "tap-offs.csv")]}
    tags = {r["slug"] for r in read(pod_set, "shared/tags.csv")}
    assert sites == {"DC West"}
    assert all(loc["site"] in sites and loc["parent"] in ("", "Hall 2") for loc in locations.values())
    assert all(r["site"] in sites and r["location"] in locations for r in racks.values())
    units = {u.name: u for u in pod.floor_units.values()}
    for device in devices.values():
        if device["name"] in units:  # a row CDU: in no rack, in its row's location
            assert (device["rack"], device["location"]) == ("", f"Hall 2 row {units[device['name']].row}")
        else:
            assert device["rack"] in racks and device["location"] == racks[device["rack"]]["location"]
        assert device["role"] in roles and device["manufacturer"] in manufacturers
        assert types[device["device_type"]]["manufacturer"] == device["manufacturer"]
    components = {model: _components(data) for model, data in types.items()}
    ends = []
    for cable in read(pod_set, "cables.csv"):
        assert (cable["side_a_site"], cable["side_b_site"]) == ("DC West", "DC West")
        for side in ("a", "b"):
            device = devices[cable[f"side_{side}_device"]]
            kind = cable[f"side_{side}_type"]
            assert cable[f"side_{side}_name"] in components[device["device_type"]][kind]
            ends.append((device["name"], kind, cable[f"side_{side}_name"]))
        assert cable["tags"].split(",") and set(cable["tags"].split(",")) <= tags
        power = {cable["side_a_type"], cable["side_b_type"]} == {"dcim.powerport", "dcim.poweroutlet"}
        assert power == (cable["type"] == "power") == ("net-power" in cable["tags"])
    assert len(ends) == len(set(ends)), "a port with two cables"
    panels = {r["name"] for r in read(pod_set, "power-panels.csv")}
    feeds = {(r["power_panel"], r["name"]) for r in read(pod_set, "power-feeds.csv")}
    for feed in read(pod_set, "power-feeds.csv"):
        assert feed["power_panel"] in panels and feed["rack"] in racks
        assert feed["location"] == racks[feed["rack"]]["location"]
    for cable in read(pod_set, "power-feed-cables.csv"):
        assert (cable["side_a_site"], cable["side_b_site"]) == ("DC West", "DC West")
        assert cable["side_a_name"] in components[devices[cable["side_a_device"]]["device_type"]][cable["side_a_type"]]
        if cable["side_b_type"] == "dcim.powerfeed":
            assert cable["side_b_device"] == "" and (cable["side_b_power_panel"], cable["side_b_name"]) in feeds
        else:
            assert cable["side_b_power_panel"] == ""
            assert cable["side_b_name"] in components[devices[cable["side_b_device"]]["device_type"]][cable["side_b_type"]]
            ends.append((cable["side_b_device"], cable["side_b_type"], cable["side_b_name"]))
        ends.append((cable["side_a_device"], cable["side_a_type"], cable["side_a_name"]))
    assert len(ends) == len(set(ends)), "a port with two cables"


def test_counts_match_the_fabric_and_the_bill_of_materials(pod_set, pod):
    counts = fabric_counts(pod)
    devices = read(pod_set, "devices.csv")
    roles = Counter(d["role"] for d in devices)
    assert roles["GPU node"] == counts["nodes"] == 16
    assert (roles["Leaf switch"], roles["Spine switch"], roles.get("Core switch", 0)) == \
        (counts["switches"]["leaf"], counts["switches"]["spine"], counts["switches"]["core"])
    networks = counts["networks"]
    assert (roles["OOB access switch"], roles["OOB aggregation switch"]) == \
        (networks["oob"]["switches"]["oob-access"], networks["oob"]["switches"]["oob-agg"])
    assert roles["Storage leaf switch"] == networks["storage"]["switches"]["storage-leaf"]
    cables = read(pod_set, "cables.csv")
    tagged = Counter(tag for c in cables for tag in c["tags"].split(",") if tag.startswith("tier-"))
    for network in ("compute", "storage", "inband", "oob", "power"):
        for tier, number in networks[network]["links"].items():
            assert tagged[f"tier-{tier}"] == number, tier
    hoses = networks["coolant"]["links"]["coolant-hose"]
    assert hoses > 0 and len(cables) == len(pod.links) - hoses  # hoses are not NetBox cables
    bom = build_bom(pod)
    by_model = Counter(d["device_type"] for d in devices)
    equipment = {e["name"]: e["quantity"] for e in bom["equipment"]
                 if pod.catalog[e["key"]].kind in (*IN_RACK_KINDS, *FLOOR_KINDS)}
    assert by_model == equipment
    assert len(read(pod_set, "racks.csv")) == sum(e["quantity"] for e in bom["equipment"] if e["kind"] == "rack")
    data = Counter((c["description"], float(c["length"])) for c in cables if c["type"] != "power")
    bought: Counter = Counter()
    for c in bom["cables"]:  # a NetBox cable per port-cable: a twin-port DAC is two of them
        bought[(pod.catalog.media[c["media"]].name, c["stock_length_m"])] += c["port_cables"]
    assert data == bought
    cords = Counter(float(c["length"]) for c in cables if c["type"] == "power")
    bought_cords: Counter = Counter()
    for c in bom["cords"]:
        bought_cords[c["stock_length_m"]] += c["quantity"]
    assert cords == bought_cords


def test_devices_stand_at_their_lowest_u_and_0u_pdus_have_no_position(pod_set, pod):
    rows = {r["name"]: r for r in read(pod_set, "devices.csv")}
    for device in pod.devices.values():
        row = rows[pod.hostname(device)]
        if pod.catalog[device.type].height_u:
            assert (row["position"], row["face"]) == (str(device.u), "front")
        else:
            assert (row["position"], row["face"]) == ("", "")


def test_cables_carry_label_type_by_media_stock_length_and_status(pod_set, pod):
    rows = read(pod_set, "cables.csv")
    assert {r["type"] for r in rows} <= CABLE_TYPE_SLUGS
    links = sorted((link for link in pod.links.values() if link.tier != "coolant-hose"),
                   key=lambda link: int(link.id.split("-")[1]))
    for row, link in zip(rows, links, strict=True):
        assert row["label"] == cable_label(pod, link)
        assert row["type"] == ("power" if link.tier == "power-cord" else netbox_names.CABLE_TYPES[link.media])
        assert (float(row["length"]), row["length_unit"]) == (link.stock_m, "m")
        assert row["status"] == "planned"


def test_power_feeds_are_tap_offs_with_the_design_basis(pod_set, pod):
    feeds = read(pod_set, "power-feeds.csv")
    assert len(feeds) == 2 * len(pod.racks)
    busbar = pod.catalog["busbar-800a"]
    for feed in feeds:
        assert (feed["voltage"], feed["amperage"], feed["max_utilization"]) == ("415", f"{busbar.tapoff_rating_a:g}", "80")
        assert (feed["supply"], feed["phase"], feed["status"]) == ("ac", "three-phase", "planned")
        assert feed["type"] == ("primary" if feed["name"].endswith("-A") else "redundant")
    assert len(read(pod_set, "power-panels.csv")) == len(pod.busbars)


def test_site_and_location_default_to_the_title_block(tmp_path):
    doc = build_template("starter")
    doc.meta.project, doc.meta.hall = "Campus Nord", "Saal 3"
    export_to(doc, "netbox", tmp_path / "set", ExportOptions())
    assert {r["site"] for r in read(tmp_path / "set", "racks.csv")} == {"Campus Nord"}
    assert read(tmp_path / "set", "locations.csv")[0]["name"] == "Saal 3"


def test_formula_names_are_neutralised_everywhere_alike_and_listed(tmp_path):
    doc = build_template("starter")
    rack = next(iter(doc.racks.values()))
    doc.set_fields(rack.id, {"name": "-R1"})
    node = next(d for d in doc.devices.values() if d.name == "N1")
    doc.set_fields(node.id, {"hostname": "=HYPERLINK(1)"})
    export_to(doc, "netbox", tmp_path / "set", ExportOptions())
    folder = tmp_path / "set"
    assert {r["name"] for r in read(folder, "racks.csv")} == {"'-R1"}
    devices = {r["name"] for r in read(folder, "devices.csv")}
    assert "'=HYPERLINK(1)" in devices and "'-R1-N2" in devices
    cable_devices = {r["side_a_device"] for r in read(folder, "cables.csv")}
    assert cable_devices <= devices and "'=HYPERLINK(1)" in cable_devices
    readme = (folder / "README.txt").read_text(encoding="utf-8")
    assert "=HYPERLINK(1)" in readme and "\n  -R1\n" in readme


def test_the_reader_knows_the_formula_characters_the_writer_neutralises():
    assert netbox_names.FORMULA_STARTS == sheet_text.FORMULA_STARTS


@pytest.mark.parametrize(("field", "value", "reason"), [
    ("hostname", "x" * 65, "has 65 characters, NetBox allows 64"),
    ("hostname", "R01-n2", "both called"),
])
def test_names_netbox_would_refuse_stop_the_export_and_write_nothing(tmp_path, field, value, reason):
    doc = build_template("starter")
    node = next(d for d in doc.devices.values() if d.name == "N1")
    doc.set_fields(node.id, {field: value})  # "R01-n2": R01-N2 in another case
    with pytest.raises(ValueError, match=reason):
        export_to(doc, "netbox", tmp_path / "set", ExportOptions())
    assert list(tmp_path.iterdir()) == []
