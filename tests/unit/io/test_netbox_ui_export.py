"""NetBox's own web-UI exports read back (``planner.io.netbox_ui_export``): the 32-node pod pushed
to a real NetBox 4.6.8 and downloaded with Export ▸ All Data (tests/data/netbox_export/README.md)
reads into the plan that was pushed: racks, devices, the row CDU, every cable with its ends,
label, media, length, network and tier, the feeds and busbars, each object with its NetBox id.
A Current View export names the heading it lacks; a damaged cell is refused by file and row."""

from __future__ import annotations

import csv
import shutil
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from netbox_views import cables_of, devices_of, racks_of

from planner.io.netbox import NetBoxReadError, read_netbox
from planner.io.netbox_catalog import parse_device_type
from planner.layout.templates import build_template

EXPORT = Path(__file__).resolve().parents[2] / "data" / "netbox_export"
POD = EXPORT / "pod-32"


@pytest.fixture(scope="module")
def pushed():
    """The plan that was pushed before the export was downloaded (README.md)."""
    doc = build_template("pod", nodes=32)
    doc.meta.project = "CDU pod session"
    return doc


@pytest.fixture(scope="module")
def back():
    return read_netbox(POD)


def rows(path: Path) -> list[dict[str, str]]:
    with open(path, encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle))


def test_the_files_are_netbox_s_own_headings_and_shown_values():
    racks = rows(POD / "netbox_racks.csv")
    assert {"Name", "Height", "Outer Width", "Weight"} <= set(racks[0]) and "name" not in racks[0]
    assert (racks[0]["Height"], racks[0]["Outer Width"], racks[0]["Weight"]) == ("52U", "800 mm", "190.00 kg")
    cable = rows(POD / "netbox_cables.csv")[0]
    assert (cable["Termination A"], cable["Type"], cable["Length"], cable["Status"]) == (
        "P1", "Multimode Fiber (OM4)", "10 m", "Planned")
    nulls = [p for d in yaml.safe_load_all((POD / "netbox_device types.yaml").read_text()) for p in d.get(
        "power-ports", []) if p.get("allocated_draw") is None]
    assert nulls  # NetBox writes an unset draw as null


def test_an_all_data_export_reads_into_the_plan_that_was_pushed(pushed, back):
    doc = back.doc
    assert racks_of(doc) == racks_of(pushed)
    assert devices_of(doc) == devices_of(pushed)
    assert cables_of(doc) == cables_of(pushed)
    assert sorted((u.name, u.type, u.row) for u in doc.floor_units.values()) == sorted(
        (u.name, u.type, u.row) for u in pushed.floor_units.values())

    def feeds(plan) -> list[tuple]:
        return sorted((r.name, plan.busbars[r.feed_a].name, plan.busbars[r.feed_b].name) for r in plan.racks.values())

    assert feeds(doc) == feeds(pushed)
    assert sorted((b.name, b.type, b.side) for b in doc.busbars.values()) == sorted(
        (b.name, b.type, b.side) for b in pushed.busbars.values())


def test_every_object_keeps_its_netbox_id(back):
    ids, doc = back.netbox_ids, back.doc
    by_name = {r["Name"]: int(r["ID"]) for r in rows(POD / "netbox_devices.csv")}
    assert {doc.hostname(d): ids[d.id] for d in doc.devices.values()} | {
        u.name: ids[u.id] for u in doc.floor_units.values()} == by_name
    cable_ids = {int(r["ID"]) for r in rows(POD / "netbox_cables.csv") if r["Device A"] and r["Device B"]}
    assert {ids[link.id] for link in doc.links.values()} == cable_ids
    assert {ids[r.id] for r in doc.racks.values()} == {int(r["ID"]) for r in rows(POD / "netbox_racks.csv")}


def test_feed_cables_are_the_rack_feeds_and_not_counted_as_left_out(back):
    feed_cables = [r for r in rows(POD / "netbox_cables.csv") if not r["Device A"] or not r["Device B"]]
    assert len(feed_cables) == 18 and all(r["Type"] == "Power" for r in feed_cables)
    assert not any("left out" in note for note in back.notes)


def test_a_current_view_export_names_the_heading_it_lacks(tmp_path):
    folder = Path(shutil.copytree(POD, tmp_path / "set"))
    shutil.copy(EXPORT / "current-view-cables.csv", folder / "netbox_cables.csv")
    with pytest.raises(NetBoxReadError, match=r"netbox_cables.csv: no column Device A, .*Export ▸ All Data"):
        read_netbox(folder)


def test_a_current_view_device_list_has_no_positions_so_devices_go_to_the_lowest_free_u(tmp_path):
    folder = Path(shutil.copytree(POD, tmp_path / "set"))
    shutil.copy(EXPORT / "current-view-devices.csv", folder / "netbox_devices.csv")
    result = read_netbox(folder)
    assert any("without a position put at the lowest free U" in note for note in result.notes)
    assert len(result.doc.devices) == 144 and not result.netbox_ids.keys() & set(result.doc.devices)


def test_a_null_draw_is_absent_not_a_number_refused():
    found = parse_device_type({"manufacturer": "Acme", "model": "X", "u_height": 1, "weight": None,
                               "power-ports": [{"name": "PSU1", "type": "iec-60320-c14", "maximum_draw": None,
                                                "allocated_draw": 300}]})
    assert (found.steady_w, found.peak_w, found.weight_kg) == (300.0, 300.0, 0.0)


@pytest.mark.parametrize(("file", "heading", "value", "message"), [
    ("netbox_racks.csv", "Height", "tallU", "u_height: 'tallU' is not a number"),
    ("netbox_racks.csv", "Outer Width", "-800 mm", "outer_width: '-800 mm' is not a number"),
    ("netbox_cables.csv", "Length", "1e400 m", "length: '1e400 m' is not a number"),
    ("netbox_cables.csv", "Device B", "nowhere", "device 'nowhere' is not in devices.csv"),
    ("netbox_devices.csv", "Rack", "R99", "rack 'R99' is not in racks.csv"),
])
def test_a_damaged_cell_is_refused_by_file_and_row(tmp_path, file, heading, value, message):
    folder = Path(shutil.copytree(POD, tmp_path / "set"))
    table = rows(folder / file)
    table[0][heading] = value
    with open(folder / file, "w", encoding="utf-8", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(table[0]))
        writer.writeheader()
        writer.writerows(table)
    with pytest.raises(NetBoxReadError, match=f"{file}: row 1: {message}"):
        read_netbox(folder)


_HOSTILE = st.text(st.sampled_from(list("0123456789.-eE, UmkgNan\"'=→\u00a0\x00")), max_size=12)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(file=st.sampled_from(["netbox_racks.csv", "netbox_devices.csv", "netbox_cables.csv",
                             "netbox_power feeds.csv", "netbox_power panels.csv"]),
       row=st.integers(0, 8), column=st.integers(0, 30), value=_HOSTILE)
def test_any_damaged_cell_reads_or_is_refused_never_another_error(tmp_path_factory, file, row, column, value):
    folder = Path(shutil.copytree(POD, tmp_path_factory.mktemp("fuzz") / "set"))
    with open(folder / file, encoding="utf-8", newline="") as handle:
        table = list(csv.reader(handle))
    cells = table[1 + row % (len(table) - 1)]
    cells[column % len(cells)] = value
    with open(folder / file, "w", encoding="utf-8", newline="") as handle:
        csv.writer(handle).writerows(table)
    try:
        read_netbox(folder)
    except NetBoxReadError:
        pass


def test_a_cut_off_cable_list_is_refused_at_its_last_row(tmp_path):
    folder = Path(shutil.copytree(POD, tmp_path / "set"))
    text = (folder / "netbox_cables.csv").read_text(encoding="utf-8")
    cut = text.index("\n", len(text) // 2) + 40  # 40 characters into a row: its label, no devices yet
    (folder / "netbox_cables.csv").write_text(text[:cut], encoding="utf-8")
    last = text[:cut].count("\n")
    with pytest.raises(NetBoxReadError, match=rf"netbox_cables.csv: row {last}: side A names no device"):
        read_netbox(folder)
