"""Transceivers in the NetBox import set: module bays on the device types, module types in
shared/module-types/, modules.csv with one module per optical plug, read back with csv and PyYAML
as NetBox's import forms read them (ModuleImportForm: device and bay by name, type by model)."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest
import yaml

from planner.export.bom import build_bom
from planner.export.options import ExportOptions
from planner.export.registry import export_to
from planner.layout.templates import build_template
from planner.model.document import Document

#: devicetype-library schema/components.json module-bays items, and schema/moduletype.json's keys
#: the set may write (NetBox's ModuleTypeImportForm takes description and comments too).
MODULE_BAY_KEYS = {"name", "label", "position", "description"}
MODULE_TYPE_KEYS = {"manufacturer", "model", "part_number", "description", "comments", "airflow", "weight",
                    "weight_unit"}


@pytest.fixture(scope="module")
def pod() -> Document:
    return build_template("pod", 16)


@pytest.fixture(scope="module")
def pod_set(pod, tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("netbox") / "set"
    export_to(pod, "netbox", folder, ExportOptions(site="DC West", location="Hall 2"))
    return folder


def _yamls(folder: Path) -> list[dict]:
    return [yaml.safe_load(p.read_text(encoding="utf-8")) for p in sorted(folder.glob("*.yaml"))]


def test_every_cage_that_takes_an_optic_is_a_module_bay(pod_set, pod):
    types = {t["model"]: t for t in _yamls(pod_set / "shared" / "device-types")}
    leaf, node = (types[pod.catalog[key].name] for key in ("sw-64x400g-1u", "node-8gpu-liquid-4u"))
    assert [b["name"] for b in leaf["module-bays"]] == [str(n) for n in range(1, 33)]
    assert leaf["module-bays"][0] == {"name": "1", "position": "1", "description": "OSFP twin-port cage: 1/1, 1/2"}
    # a GPU node: the 8 rail OSFPs, the 2 storage and 2 in-band QSFP112s; the BMC's RJ45 has no bay
    assert [b["name"] for b in node["module-bays"]] == [f"P{n}" for n in range(1, 9)] + ["S1", "S2", "E1", "E2"]
    for data in types.values():
        for bay in data.get("module-bays", []):
            assert set(bay) <= MODULE_BAY_KEYS and bay["name"] == bay["position"]


def test_one_module_per_optical_plug_as_the_bom_counts_them(pod_set, pod):
    with open(pod_set / "modules.csv", encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    kinds = {t["model"]: t for t in _yamls(pod_set / "shared" / "module-types")}
    assert {r["module_type"] for r in rows} == set(kinds)
    assert all(set(k) <= MODULE_TYPE_KEYS and k["manufacturer"] == "Generic" for k in kinds.values())
    bom = build_bom(pod)["transceivers"]
    assert len(rows) == sum(t["quantity"] for t in bom)
    assert {t["name"]: t["quantity"] for t in bom} == {m: sum(1 for r in rows if r["module_type"] == m) for m in kinds}
    assert len({(r["device"], r["module_bay"]) for r in rows}) == len(rows)  # a bay holds one
    # by hand: a leaf's twin-port cage with two SR4 fibres is one twin-port module in bay "1"
    leaf = next(d for d in pod.devices.values() if d.name == "L1")
    row = next(r for r in rows if r["device"] == pod.hostname(leaf) and r["module_bay"] == "1")
    assert row == {"device": pod.hostname(leaf), "module_bay": "1",
                   "module_type": "SR4 transceiver, OSFP twin-port, 2 × 400G", "status": "planned"}


def test_two_optics_in_one_cage_stop_the_export(pod, tmp_path):
    doc = build_template("pod", 16)
    leaf = next(d for d in doc.devices.values() if d.name == "L1")
    link = next(l for l in doc.links_of(leaf.id) if "1/2" in (l.a_port, l.b_port))
    doc.set_fields(link.id, {"media": "dr4"})
    with pytest.raises(ValueError, match="L1 cage 1: its cables are on two media"):
        export_to(doc, "netbox", tmp_path / "set", ExportOptions())
    assert not (tmp_path / "set").exists()
