"""The NetBox set in a NetBox that holds other halls, and again as a revision: the shared step is
the same for every hall, cable ends name their site, the site can go into the hostnames, rows
NetBox has carry their id (in ``-update.csv`` files), every rack PDU is cabled to its feed so
NetBox's rack power is the plan's, and cables carry their rail's colour and tag. Read back with
``csv`` and PyYAML, as NetBox reads them."""

from __future__ import annotations

import csv
import math
import re
from collections import defaultdict
from pathlib import Path

import pytest
import yaml

from planner.cli import main
from planner.export.cabling_pdf import RAIL_STYLES
from planner.export.netbox_cables import cable_color
from planner.export.options import ExportOptions
from planner.export.registry import export_to
from planner.io import save
from planner.io.netbox_names import (
    RACK_AIRFLOW,
    RACK_FORM_FACTOR,
    device_type_models,
    feed_key,
    inlet_cable_key,
    tap_off_key,
)
from planner.layout.templates import build_template
from planner.model.catalog import RACK_PDU
from planner.model.cords import rack_pdu_sides
from planner.model.document import Document
from planner.model.labels import cable_label
from planner.model.objects import Link

SHARED = ("shared/manufacturers.csv", "shared/device-roles.csv", "shared/tags.csv")


def read(folder: Path, name: str) -> list[dict[str, str]]:
    with open(folder / name, encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle))


def header(folder: Path, name: str) -> list[str]:
    with open(folder / name, encoding="utf-8", newline="") as handle:
        return next(csv.reader(handle))


@pytest.fixture(scope="module")
def pod() -> Document:
    return build_template("pod", nodes=16)


@pytest.fixture(scope="module")
def pod_set(pod, tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("netbox") / "set"
    export_to(pod, "netbox", folder, ExportOptions(site="DC West", location="Hall 2"))
    return folder


@pytest.fixture(scope="module")
def second_set(tmp_path_factory) -> Path:
    """Another hall: another template, site, hall and fabric size, the site in the hostnames."""
    doc = build_template("starter")
    doc.meta.project, doc.meta.hall, doc.meta.revision = "Campus Nord", "Saal 3", "C"
    folder = tmp_path_factory.mktemp("netbox") / "set"
    export_to(doc, "netbox", folder, ExportOptions(site_in_hostnames=True))
    return folder


# ------------------------------------------------------------------------------ the shared step
def test_the_shared_step_is_byte_identical_for_two_halls(pod_set, second_set):
    for name in SHARED:
        assert (pod_set / name).read_bytes() == (second_set / name).read_bytes(), name
    first = {p.name: p.read_bytes() for p in (pod_set / "shared" / "device-types").glob("*.yaml")}
    second = {p.name: p.read_bytes() for p in (second_set / "shared" / "device-types").glob("*.yaml")}
    both = set(first) & set(second)
    assert len(both) >= 5  # node, leaf, storage, PDU, manifold, tap-off
    assert all(first[name] == second[name] for name in both)


def test_the_shared_step_holds_every_role_and_tag_whatever_the_hall_uses(pod_set):
    roles = {r["slug"] for r in read(pod_set, "shared/device-roles.csv")}
    assert {"core-switch", "cdu", "busbar-tap-off", "gpu-node"} <= roles  # the pod has no core or CDU
    tags = {r["slug"] for r in read(pod_set, "shared/tags.csv")}
    assert {f"rail-{n}" for n in range(1, 9)} | {"net-compute", "tier-node-leaf"} <= tags


def test_a_model_name_does_not_depend_on_the_other_types_of_the_plan(pod):
    node = pod.catalog["node-8gpu-liquid-4u"]
    alone = device_type_models([node])
    assert device_type_models(pod.catalog.items.values())[node.key] == alone[node.key] == node.name
    twin = node.copy()
    twin.key = "my-node"
    models = device_type_models([node, twin])  # a custom type named like a built-in one gives way
    assert models == {node.key: node.name, "my-node": f"{node.name} [my-node]"}


def test_the_readme_says_when_to_skip_the_shared_step(pod_set):
    readme = " ".join((pod_set / "README.txt").read_text(encoding="utf-8").split())
    assert "for a NetBox that does not hold them yet" in readme
    assert "a NetBox that has them from an earlier hall skips it" in readme
    assert "Every row of it is the same for every hall the planner writes" in readme
    assert "`planner netbox push` skips what exists by itself" in readme


# ------------------------------------------------------------------------- sites and hostnames
def test_every_cable_end_names_the_site(pod_set, second_set):
    for folder, site in ((pod_set, "DC West"), (second_set, "Campus Nord")):
        for name in ("cables.csv", "power-feed-cables.csv"):
            rows = read(folder, name)
            assert rows and {(r["side_a_site"], r["side_b_site"]) for r in rows} == {(site, site)}, name


def test_the_site_goes_into_the_default_hostnames_only_when_asked(pod, pod_set, tmp_path):
    plain = {r["name"] for r in read(pod_set, "devices.csv")}
    assert "R01-N1" in plain and not any(n.startswith("dc-west-") for n in plain)
    doc = build_template("starter")
    node = next(d for d in doc.devices.values() if d.name == "N2")
    doc.set_fields(node.id, {"hostname": "gpu-0002"})
    path = tmp_path / "plan.hall"
    save(doc, path)
    assert main(["export", str(path), "--to", "netbox", "-o", str(tmp_path / "set"), "--site", "DC East",
                 "--site-in-hostnames"]) == 0
    names = {r["name"] for r in read(tmp_path / "set", "devices.csv")}
    assert "dc-east-R01-N1" in names and "gpu-0002" in names  # a hostname of the user's own is kept
    assert all(n.startswith("dc-east-") for n in names - {"gpu-0002"})
    ends = {r[f"side_{s}_device"] for r in read(tmp_path / "set", "cables.csv") for s in "ab"}
    assert ends <= names and "dc-east-R01-N1" in ends
    taps = {r["name"] for r in read(tmp_path / "set", "tap-offs.csv")}
    assert taps and all(n.startswith("dc-east-") for n in taps)


# --------------------------------------------------------------------------------- a revision
@pytest.fixture(scope="module")
def revision(tmp_path_factory) -> tuple[Document, Path, dict[str, int]]:
    doc = build_template("pod", nodes=16)
    racks = sorted(doc.racks.values(), key=lambda r: r.name)
    pdu = next(d for d in doc.devices_in(racks[0].id) if doc.catalog[d.type].kind == RACK_PDU)
    known = {racks[0].id: 11, racks[1].id: 12, next(iter(doc.devices)): 21, next(iter(doc.links)): 31,
             next(iter(doc.busbars)): 41, feed_key(racks[0].id, "A"): 51, inlet_cable_key(pdu.id): 61,
             tap_off_key(racks[0].id, "A"): 71, "rack-999": 99, "link-9999": 98, f"{racks[0].id}/C": 97,
             "site": 1, "location": 2}
    doc.netbox.url, doc.netbox.site = "https://netbox.example.net/", "DC West"
    doc.netbox.ids.update(known)
    folder = tmp_path_factory.mktemp("netbox") / "set"
    export_to(doc, "netbox", folder, ExportOptions(site="DC West"))
    return doc, folder, known


@pytest.mark.parametrize(("name", "ids"), [
    ("racks", [11, 12]), ("devices", [21]), ("cables", [31]), ("power-panels", [41]), ("power-feeds", [51]),
    ("power-feed-cables", [61]), ("tap-offs", [71]), ("locations", [2]),
])
def test_rows_netbox_has_go_to_an_update_file_with_their_id(revision, name, ids):
    _doc, folder, _known = revision
    update = read(folder, f"{name}-update.csv")
    assert header(folder, f"{name}-update.csv")[0] == "id"
    assert [int(r["id"]) for r in update] == ids
    new = read(folder, f"{name}.csv")
    assert new and "id" not in header(folder, f"{name}.csv")  # new rows: the add permission alone imports them
    assert header(folder, f"{name}.csv") == header(folder, f"{name}-update.csv")[1:]
    key = "label" if "cable" in name else "name"
    assert not {r[key] for r in update} & {r[key] for r in new}


def test_a_known_site_is_updated_not_made_again(revision):
    _doc, folder, _known = revision
    assert not (folder / "sites.csv").exists()
    assert [(r["id"], r["name"]) for r in read(folder, "sites-update.csv")] == [("1", "DC West")]


def test_a_file_of_known_rows_only_has_no_new_file(tmp_path):
    doc = build_template("starter")
    doc.netbox.ids.update({rack.id: 100 + n for n, rack in enumerate(doc.racks.values())})
    export_to(doc, "netbox", tmp_path / "set", ExportOptions())
    assert not (tmp_path / "set" / "racks.csv").exists()
    assert len(read(tmp_path / "set", "racks-update.csv")) == len(doc.racks)
    readme = (tmp_path / "set" / "README.txt").read_text(encoding="utf-8")
    assert re.search(r"^ 9\. racks-update\.csv ", readme, re.MULTILINE)


def test_the_readme_orders_updates_first_and_lists_what_to_delete(revision):
    _doc, folder, known = revision
    readme = (folder / "README.txt").read_text(encoding="utf-8")
    assert "racks-update.csv then racks.csv" in readme and "power-feeds-update.csv then power-feeds.csv" in readme
    assert "delete these in NetBox" in readme
    assert "rack id 99 (plan rack-999)  https://netbox.example.net/dcim/racks/99/" in readme
    assert "cable id 98 (plan link-9999)  https://netbox.example.net/dcim/cables/98/" in readme
    listed = {int(n) for n in re.findall(r" id (\d+) \(plan ", readme)}
    assert listed == {known["rack-999"], known["link-9999"], 97} == {99, 98, 97}  # nothing the plan still has
    assert readme.index("delete these") < readme.index("Step 2")


def test_a_plan_without_ids_writes_no_update_files(pod_set):
    assert not list(pod_set.glob("*-update.csv"))
    assert "delete these" not in (pod_set / "README.txt").read_text(encoding="utf-8")


# ------------------------------------------------------------------------- the power chain
def _inlet_cables(folder: Path) -> dict[tuple[str, str, str], tuple[str, str, str]]:
    ends = {}
    for row in read(folder, "power-feed-cables.csv"):
        a = (row["side_a_device"], row["side_a_type"], row["side_a_name"])
        b = (row["side_b_device"] or row["side_b_power_panel"], row["side_b_type"], row["side_b_name"])
        ends[a], ends[b] = b, a
    return ends


def test_every_rack_pdu_is_cabled_to_the_feed_of_its_side(pod, pod_set):
    ends = _inlet_cables(pod_set)
    feeds = {(r["power_panel"], r["name"]) for r in read(pod_set, "power-feeds.csv")}
    pdus = 0
    for rack in pod.racks.values():
        for pdu_id, side in rack_pdu_sides(pod, rack.id).items():
            pdus += 1
            far = ends[(pod.hostname(pod.devices[pdu_id]), "dcim.powerport", "Input")]
            if far[1] == "dcim.poweroutlet":  # through the side's tap-off box
                assert far[0] == f"{rack.name}-TAP-{side}"
                far = ends[(far[0], "dcim.powerport", "Input")]
            busbar = pod.busbars[rack.feed_a if side == "A" else rack.feed_b]
            assert far == (busbar.name, "dcim.powerfeed", f"{rack.name}-{side}")
            assert (busbar.name, far[2]) in feeds
    assert pdus == sum(1 for d in pod.devices.values() if pod.catalog[d.type].kind == RACK_PDU) > 0


def test_a_side_of_one_pdu_is_cabled_straight_to_its_feed(tmp_path):
    doc = build_template("starter")
    for device in [d for d in doc.devices.values() if d.name[-1] != "1" and doc.catalog[d.type].kind == RACK_PDU]:
        for link in doc.links_of(device.id):
            doc.remove(link.id)
        doc.remove(device.id)
    export_to(doc, "netbox", tmp_path / "set", ExportOptions())
    rows = read(tmp_path / "set", "power-feed-cables.csv")
    assert [(r["side_a_device"], r["side_a_name"], r["side_b_type"], r["side_b_name"]) for r in rows] == [
        ("R01-PDU-A1", "Input", "dcim.powerfeed", "R01-A"), ("R01-PDU-B1", "Input", "dcim.powerfeed", "R01-B")]
    assert not (tmp_path / "set" / "tap-offs.csv").exists()


def _netbox_rack_draw(folder: Path, rack: str) -> int:
    """Rack.get_power_utilization's numerator (dcim/models/racks.py): the allocated draw of the
    power ports at the far end of the rack's feeds, an unset port summing its outlets' far ports
    (PowerPort.get_power_draw, recursive in NetBox 4.6)."""
    types = {}
    for path in (folder / "shared" / "device-types").glob("*.yaml"):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        types[data["model"]] = data
    device_type = {r["name"]: types[r["device_type"]] for r in [*read(folder, "devices.csv"),
                                                                 *read(folder, "tap-offs.csv")]}
    peer = {}
    for name in ("cables.csv", "power-feed-cables.csv"):
        for row in read(folder, name):
            a = (row["side_a_device"], row["side_a_type"], row["side_a_name"])
            b = (row["side_b_device"] or row.get("side_b_power_panel", ""), row["side_b_type"], row["side_b_name"])
            peer[a], peer[b] = b, a

    def draw(device: str, port: str) -> int:
        data = device_type[device]
        own = next(p for p in data["power-ports"] if p["name"] == port)
        if "allocated_draw" in own or "maximum_draw" in own:
            return own.get("allocated_draw", 0)
        outlets = [o["name"] for o in data.get("power-outlets", []) if o["power_port"] == port]
        far = [peer[(device, "dcim.poweroutlet", o)] for o in outlets if (device, "dcim.poweroutlet", o) in peer]
        return sum(draw(d, p) for d, kind, p in far if kind == "dcim.powerport")

    total = 0
    for feed in read(folder, "power-feeds.csv"):
        if feed["rack"] == rack:
            device, kind, port = peer[(feed["power_panel"], "dcim.powerfeed", feed["name"])]
            assert kind == "dcim.powerport"
            total += draw(device, port)
    return total


def test_netbox_s_rack_power_is_the_plan_s(pod, pod_set):
    for rack in pod.racks.values():
        devices = [d for d in pod.devices_in(rack.id) if pod.catalog[d.type].psu_count]
        # each PSU's allocated draw is its share of the steady draw, rounded up (netbox_types)
        plan = sum(item.psu_count * math.ceil(item.power_w / item.psu_count)
                   for item in (pod.catalog[d.type] for d in devices) if item.power_w > 0)
        assert plan > 0 and _netbox_rack_draw(pod_set, rack.name) == plan, rack.name


# ------------------------------------------------------------------------ colours, tags, racks
def test_cables_carry_their_rail_s_colour_and_tag(pod, pod_set):
    colours: dict[int, set[str]] = defaultdict(set)
    by_label = {cable_label(pod, link): link for link in pod.links.values()}
    for row in read(pod_set, "cables.csv"):
        link = by_label[row["label"]]
        assert row["color"] == cable_color(link)
        assert (f"rail-{link.rail}" in row["tags"].split(",")) == (link.rail > 0)
        colours[link.rail].add(row["color"])
    rails = [rail for rail in colours if rail > 0]
    assert sorted(rails) == list(range(1, 9)) and colours[0] == {""}
    assert all(len(colours[rail]) == 1 for rail in rails)
    distinct = {next(iter(colours[rail])) for rail in rails}
    assert len(distinct) == 8 and all(re.fullmatch(r"[0-9a-f]{6}", c) for c in distinct)
    assert {RAIL_STYLES[rail][0].lower().lstrip("#") for rail in rails} == distinct  # the cabling PDF's palette
    assert cable_color(Link(id="x", a_device="a", a_port="1", b_device="b", b_port="1", rail=0)) == ""


def test_racks_are_four_post_cabinets_cooled_front_to_rear(pod_set):
    rows = read(pod_set, "racks.csv")
    assert {(r["form_factor"], r["airflow"]) for r in rows} == {(RACK_FORM_FACTOR, RACK_AIRFLOW)}
    assert (RACK_FORM_FACTOR, RACK_AIRFLOW) == ("4-post-cabinet", "front-to-rear")
