"""``planner import --from netbox`` reads both layouts of the set: the shared step in ``shared/``
(and a revision's ``-update.csv`` files beside the new rows) and the older one with every file at
the top; the plan that comes back is the same."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from planner.export.options import ExportOptions
from planner.export.registry import export_to
from planner.io.netbox import NetBoxReadError, read_netbox
from planner.layout.templates import build_template
from planner.model.document import Document


def summary(doc: Document) -> tuple:
    host = {d.id: doc.hostname(d) for d in doc.devices.values()}
    return (sorted((r.name, r.type) for r in doc.racks.values()),
            sorted((doc.racks[d.rack].name, d.u, d.type, doc.hostname(d)) for d in doc.devices.values()),
            sorted((host[link.a_device], link.a_port, host[link.b_device], link.b_port, link.media, link.tier)
                   for link in doc.links.values()),
            sorted(b.name for b in doc.busbars.values()),
            sorted((r.name, bool(r.feed_a), bool(r.feed_b)) for r in doc.racks.values()))


@pytest.fixture(scope="module")
def plan() -> Document:
    return build_template("pod", nodes=8)


@pytest.fixture(scope="module")
def new_layout(plan, tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("netbox") / "set"
    export_to(plan, "netbox", folder, ExportOptions())
    return folder


def test_the_shared_step_s_folder_is_read(new_layout):
    assert (new_layout / "shared" / "device-types").is_dir() and not (new_layout / "device-types").exists()
    doc = read_netbox(new_layout).doc
    assert doc.devices and list(doc.catalog.custom_items()) == []  # every type matched its catalogue entry


def test_the_older_layout_with_every_file_at_the_top_reads_the_same(new_layout, tmp_path):
    old = Path(shutil.copytree(new_layout, tmp_path / "old"))
    for path in list((old / "shared").iterdir()):
        path.rename(old / path.name)
    (old / "shared").rmdir()
    for name in ("tap-offs.csv", "power-feed-cables.csv"):  # the older sets had neither
        (old / name).unlink()
    assert summary(read_netbox(old).doc) == summary(read_netbox(new_layout).doc)


def test_a_revision_s_update_files_are_read_with_the_new_rows(plan, new_layout, tmp_path):
    doc = build_template("pod", nodes=8)
    doc.netbox.ids.update({rack_id: n for n, rack_id in enumerate(sorted(doc.racks)[:2], start=1)})
    doc.netbox.ids.update({device_id: n for n, device_id in enumerate(sorted(doc.devices)[::3], start=10)})
    doc.netbox.ids.update({link_id: n for n, link_id in enumerate(sorted(doc.links)[::4], start=1000)})
    doc.netbox.ids.update({bus_id: n for n, bus_id in enumerate(sorted(doc.busbars), start=50)})  # all panels
    folder = tmp_path / "revision"
    export_to(doc, "netbox", folder, ExportOptions())
    assert (folder / "racks-update.csv").is_file() and (folder / "power-panels-update.csv").is_file()
    assert not (folder / "power-panels.csv").exists()
    assert summary(read_netbox(folder).doc) == summary(read_netbox(new_layout).doc)


def test_a_set_without_device_types_in_either_place_is_refused(new_layout, tmp_path):
    folder = Path(shutil.copytree(new_layout, tmp_path / "set"))
    shutil.rmtree(folder / "shared" / "device-types")
    with pytest.raises(NetBoxReadError, match="no device-type YAML files"):
        read_netbox(folder)
