"""`planner export PLAN --to netbox -o DIR` and `planner import --from netbox DIR -o FILE` as a user
runs them (the installed CLI, ``python -I -m planner``): exit codes, one-line errors, the notes the
import prints, and a round trip whose fabric counts agree."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from planner.io import load, save
from planner.layout.templates import build_template


def planner(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-I", "-m", "planner", *map(str, args)], capture_output=True,
                          text=True, timeout=120, check=False)


@pytest.fixture(scope="module")
def starter(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("plans") / "starter.hall"
    assert planner("new", "--template", "starter", "-o", path).returncode == 0
    return path


def test_export_and_import_round_trip_with_equal_fabric_counts(starter, tmp_path):
    folder = tmp_path / "netbox"
    done = planner("export", starter, "--to", "netbox", "-o", folder, "--site", "DC1", "--location", "Hall A")
    assert done.returncode == 0, done.stderr
    assert (folder / "README.txt").is_file() and (folder / "cables.csv").is_file()
    back = tmp_path / "back.hall"
    done = planner("import", "--from", "netbox", folder, "-o", back)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"{back}: 1 racks, 16 devices, 0 floor units, 78 cables")
    assert "cables by network: 32 compute, 46 power" in done.stdout  # the starter's 10 hoses stay behind
    assert "laid out in 1 row(s)" in done.stdout and "no coolant loops" in done.stdout
    counts = [json.loads(planner("fabric", plan, "--json").stdout) for plan in (starter, back)]
    hoses = [count["networks"].pop("coolant") for count in counts]  # NetBox has no model for a hose
    assert counts[0] == counts[1] and hoses == [{"switches": {}, "links": {"coolant-hose": n}} for n in (10, 0)]
    doc = load(back)
    assert (doc.meta.project, doc.meta.hall) == ("DC1", "Hall A")
    done = planner("validate", back)
    assert done.returncode == 1 and "C4" in done.stdout  # no coolant loop: NetBox does not hold one
    assert "C10" in done.stdout  # nor the hoses
    assert " N8 " not in done.stdout  # cables routed on the new floor: no stale lengths


def test_a_plan_netbox_would_refuse_is_one_line_and_exit_1_with_nothing_written(tmp_path):
    doc = build_template("starter")
    for device in doc.devices.values():
        if device.name in ("N1", "N2"):
            doc.set_fields(device.id, {"hostname": "gpu"})
    plan = tmp_path / "twins.hall"
    save(doc, plan)
    done = planner("export", plan, "--to", "netbox", "-o", tmp_path / "netbox")
    assert done.returncode == 1
    assert done.stderr.count("\n") == 1 and "two devices are both called 'gpu'" in done.stderr
    assert not (tmp_path / "netbox").exists()


def test_a_file_in_the_way_of_the_folder_is_exit_2(starter, tmp_path):
    (tmp_path / "netbox").write_text("mine", encoding="utf-8")
    done = planner("export", starter, "--to", "netbox", "-o", tmp_path / "netbox")
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "netbox" in done.stderr
    assert (tmp_path / "netbox").read_text(encoding="utf-8") == "mine"


def test_an_unreadable_set_is_one_line_naming_the_file_and_exit_2(starter, tmp_path):
    folder = tmp_path / "netbox"
    assert planner("export", starter, "--to", "netbox", "-o", folder).returncode == 0
    (folder / "devices.csv").write_text("name,device_type,rack\nx,Nope,R01\n", encoding="utf-8")
    out = tmp_path / "out.hall"
    done = planner("import", "--from", "netbox", folder, "-o", out)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.count("\n") == 1 and "devices.csv: row 1: device type 'Nope' has no YAML" in done.stderr
    assert not out.exists()
    done = planner("import", "--from", "netbox", tmp_path / "absent", "-o", out)
    assert done.returncode == 2 and "not a folder" in done.stderr


def test_import_refuses_a_folder_as_the_plan_file_and_knows_only_netbox(starter, tmp_path):
    folder = tmp_path / "netbox"
    assert planner("export", starter, "--to", "netbox", "-o", folder).returncode == 0
    done = planner("import", "--from", "netbox", folder, "-o", tmp_path)
    assert done.returncode == 2 and done.stderr.count("\n") == 1
    done = planner("import", "--from", "racktables", folder, "-o", tmp_path / "x.hall")
    assert done.returncode == 2 and "invalid choice" in done.stderr
