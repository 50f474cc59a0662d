"""Every reader holds like the .hall loader (issue 19): one clean refusal, exit 2 and one line
naming the file and the place, never a traceback, exit 3 or a hang."""

from __future__ import annotations

import csv
import io
import json
import subprocess
import sys

import ezdxf
import pytest

from planner.export.sheet_text import sheet_text, terminal_text
from planner.io import save
from planner.io.discovery import DiscoveryError, parse_lldp, read_lldp, records
from planner.io.discovery.links_csv import read_links_csv
from planner.io.dxf import DxfError, read_dxf
from planner.layout.templates import build_template


def _planner(*args: str, cwd) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-I", "-B", "-m", "planner", *map(str, args)], capture_output=True,
                          text=True, cwd=cwd, timeout=120, check=False)


def _one_line(text: str) -> str:
    lines = text.strip().splitlines()
    assert len(lines) == 1, text
    return lines[0]


# ------------------------------------------------------------------- LLDP
def test_deeply_nested_lldp_json_is_refused_not_a_recursion_error(tmp_path):
    path = tmp_path / "deep.json"
    path.write_text("[" * 50_000 + "]" * 50_000, encoding="utf-8")
    with pytest.raises(DiscoveryError) as caught:
        read_lldp(path)
    assert "nested deeper than 64 levels" in str(caught.value) and str(path) in str(caught.value)


def test_lldp_nested_past_its_real_depth_is_refused():
    text = json.dumps({"lldp": {"interface": [[[[{"x": 1}]]]] * 1}})
    for _ in range(70):
        text = f'{{"lldp": {text}}}'
    with pytest.raises(DiscoveryError, match="nested deeper than 64 levels"):
        parse_lldp(text, "R01-L1", "x.json")


# ------------------------------------------------------------ size limits
def test_a_file_larger_than_its_kind_is_refused_before_it_is_read(tmp_path, monkeypatch):
    path = tmp_path / "links.csv"
    with open(path, "wb") as handle:
        handle.truncate(2 << 30)  # a sparse 2 GiB file: reading it whole would need 2 GiB
    with pytest.raises(DiscoveryError) as caught:
        read_links_csv(path)
    message = str(caught.value)
    assert "2,048 MB is too large for a links CSV file (at most 128 MB" in message and str(path) in message


def test_a_device_or_fifo_is_not_read_as_a_file():
    with pytest.raises(DiscoveryError, match="not a regular file"):
        records.check_size("/dev/zero", "LLDP")  # would never end


def test_the_limits_are_stated_per_kind():
    assert records.MAX_BYTES["ibnetdiscover"] > 90 << 20  # a 131k-GPU hall's file is about 90 MB
    assert set(records.MAX_BYTES) >= {"ibnetdiscover", "links CSV", "LLDP"}


# ------------------------------------------------------------ verify's terminal
def test_verify_prints_no_control_characters_from_its_input(tmp_path):
    doc = build_template("pod", 12)
    save(doc, tmp_path / "p.hall")
    bad = "R01-N1\x1b[31m\u202e\x00"
    (tmp_path / "links.csv").write_text(f"a_device,a_port,b_device,b_port\n{bad},P1,R02-L1,1/1\n", encoding="utf-8")
    done = _planner("verify", "p.hall", "--links", "links.csv", cwd=tmp_path)
    assert done.returncode in (1, 2), done.stderr
    shown = done.stdout + done.stderr
    assert "\x1b" not in shown and "\u202e" not in shown and "\x00" not in shown
    assert "\ufffd" in shown  # replaced visibly, not dropped


def test_terminal_text_replaces_escapes_and_bidi_controls():
    assert terminal_text("a\x1b[31mb\u202ec\td\ne") == "a\ufffd[31mb\ufffdc\ufffdd\ne"


# ------------------------------------------------------------ CSV injection
@pytest.mark.parametrize("cell", ["=1+1", " =1+1", "\u00a0=7", "\ufeff=1+1", "\u200b+cmd", "\t-2", "@SUM(A1)", "-"])
def test_cells_that_start_like_a_formula_behind_blanks_are_neutralised(cell):
    assert sheet_text(cell) == "'" + cell  # OWASP: looked through white space and invisible characters


@pytest.mark.parametrize("cell", ["R01", "1/1", "a=b", " spaced", "R01 =x"])
def test_plain_cells_are_left_alone(cell):
    assert sheet_text(cell) == cell


def test_a_cables_csv_cell_behind_an_nbsp_is_text_in_the_file(tmp_path):
    from planner.export.options import ExportOptions
    from planner.export.schedule import write_csv

    doc = build_template("pod", 12)
    rack = next(iter(doc.racks))
    doc.set_fields(rack, {"name": "\u00a0=HYPERLINK(1)"})
    out = io.BytesIO()
    write_csv(doc, out, ExportOptions())
    rows = list(csv.reader(io.StringIO(out.getvalue().decode("utf-8"))))
    assert any(cell == "'\u00a0=HYPERLINK(1)" for row in rows for cell in row)
    assert not any(cell.lstrip("\u00a0 ").startswith("=") for row in rows for cell in row)


# ------------------------------------------------------------------- DXF
def _outline(msp, points, layer="WALLS"):
    msp.add_lwpolyline(points, close=True, dxfattribs={"layer": layer})


def test_a_block_inserted_at_scale_1e300_is_refused_with_its_handle(tmp_path):
    drawing = ezdxf.new()
    drawing.header["$INSUNITS"] = 6
    block = drawing.blocks.new("COL")
    block.add_lwpolyline([(0, 0), (1, 0), (1, 1), (0, 1)], close=True, dxfattribs={"layer": "COLUMNS"})
    msp = drawing.modelspace()
    _outline(msp, [(0, 0), (30, 0), (30, 20), (0, 20)])
    msp.add_blockref("COL", (5, 5), dxfattribs={"xscale": 1e300, "yscale": 1e300})
    path = tmp_path / "huge.dxf"
    drawing.saveas(path)
    with pytest.raises(DxfError) as caught:
        read_dxf(path)
    assert "not a finite number up to" in str(caught.value) and "INSERT" in str(caught.value)


def test_a_one_micrometre_hall_is_refused(tmp_path):
    drawing = ezdxf.new()
    drawing.header["$INSUNITS"] = 6  # metres
    _outline(drawing.modelspace(), [(0, 0), (1e-6, 0), (1e-6, 1e-6), (0, 1e-6)])
    drawing.saveas(tmp_path / "tiny.dxf")
    done = _planner("new", "--from-dxf", "tiny.dxf", "-o", "t.hall", cwd=tmp_path)
    assert done.returncode == 2 and not (tmp_path / "t.hall").exists()
    assert "a hall is at least 2 m across" in _one_line(done.stderr)


def test_a_negative_radius_column_is_counted_not_dropped_silently(tmp_path):
    drawing = ezdxf.new()
    drawing.header["$INSUNITS"] = 6
    msp = drawing.modelspace()
    _outline(msp, [(0, 0), (30, 0), (30, 20), (0, 20)])
    msp.add_circle((5, 5), 0.3, dxfattribs={"layer": "COLUMNS"})
    circle = msp.add_circle((9, 5), 0.3, dxfattribs={"layer": "COLUMNS"})
    circle.dxf.radius = -0.3
    drawing.saveas(tmp_path / "neg.dxf")
    done = _planner("new", "--from-dxf", "neg.dxf", "-o", "n.hall", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "radius of zero or less" in done.stdout + done.stderr


# ------------------------------------------------------------------ NetBox
@pytest.fixture(scope="module")
def netbox_set(tmp_path_factory):
    from planner.export.options import ExportOptions
    from planner.export.registry import export_to

    folder = tmp_path_factory.mktemp("nb") / "set"
    export_to(build_template("pod", 12), "netbox", folder, ExportOptions())
    return folder


def _broken_set(netbox_set, tmp_path, text: str):
    import shutil

    folder = shutil.copytree(netbox_set, tmp_path / "set")
    device_type = min((folder / "shared" / "device-types").glob("*sw-64x400g*.yaml"))
    device_type.write_text(text(device_type.read_text(encoding="utf-8")), encoding="utf-8")
    return device_type


def test_a_netbox_device_type_nested_50000_deep_is_refused(netbox_set, tmp_path):
    device_type = _broken_set(netbox_set, tmp_path, lambda _t: "[" * 50_000 + "]" * 50_000)
    done = _planner("import", "--from", "netbox", "set", "-o", "x.hall", cwd=tmp_path)
    assert done.returncode == 2 and not (tmp_path / "x.hall").exists()
    line = _one_line(done.stderr)
    # the event-stream depth count refuses it, or libyaml's own flow-level limit first (wheels differ)
    assert device_type.name in line and ("nested deeper than" in line or "not YAML" in line)


def test_a_netbox_device_type_with_interfaces_7_is_refused(netbox_set, tmp_path):
    import yaml

    def interfaces_7(text: str) -> str:
        data = yaml.safe_load(text)
        data["interfaces"] = 7
        return yaml.safe_dump(data)

    device_type = _broken_set(netbox_set, tmp_path, interfaces_7)
    done = _planner("import", "--from", "netbox", "set", "-o", "x.hall", cwd=tmp_path)
    assert done.returncode == 2
    line = _one_line(done.stderr)
    assert device_type.name in line and "interfaces: int '7', expected a list of mappings" in line


def test_one_nan_vertex_refuses_the_outline_instead_of_making_a_triangle(tmp_path):
    drawing = ezdxf.new()
    drawing.header["$INSUNITS"] = 6
    _outline(drawing.modelspace(), [(0, 0), (30, 0), (30, float("nan")), (0, 20)])
    drawing.saveas(tmp_path / "nan.dxf")
    done = _planner("new", "--from-dxf", "nan.dxf", "-o", "n.hall", cwd=tmp_path)
    assert done.returncode == 2 and not (tmp_path / "n.hall").exists()
    line = _one_line(done.stderr)
    assert "LWPOLYLINE #" in line and "layer 'WALLS'" in line and "coordinate nan" in line


def test_a_device_type_yaml_larger_than_its_kind_is_refused_before_it_is_parsed(tmp_path, monkeypatch):
    from planner.io import netbox_catalog

    path = tmp_path / "big.yaml"
    path.write_text("model: x\n" + "# padding\n" * 2_000, encoding="utf-8")
    monkeypatch.setattr(netbox_catalog, "MAX_YAML_BYTES", 1 << 12)  # 4 KB stands for the real 4 MB limit

    def no_parse(*_args, **_kwargs):
        raise AssertionError("parsed a file larger than its kind allows")

    monkeypatch.setattr(netbox_catalog.Path, "read_text", no_parse)
    with pytest.raises(netbox_catalog.DeviceTypeError, match="MB is too large for a device-type YAML"):
        netbox_catalog.load_device_types(path)


def test_verify_json_escapes_what_its_input_holds(tmp_path):
    doc = build_template("pod", 12)
    save(doc, tmp_path / "p.hall")
    bad = "R01-N1\x1b[31m\u202e\x00"
    (tmp_path / "links.csv").write_text(f"a_device,a_port,b_device,b_port\n{bad},P1,R02-L1,1/1\n", encoding="utf-8")
    done = _planner("verify", "p.hall", "--links", "links.csv", "--json", cwd=tmp_path)
    assert done.returncode in (1, 2), done.stderr
    assert "\x1b" not in done.stdout and "\x00" not in done.stdout and "\u202e" not in done.stdout
    if done.returncode == 1:  # the report: JSON that reads back, the device named as the input gave it
        text = json.dumps(json.loads(done.stdout), ensure_ascii=False)
        assert "R01-N1" in text


def test_a_layer_name_of_undecodable_bytes_is_shown_and_saved_as_replacement_characters(tmp_path):
    drawing = ezdxf.new()  # R2013: UTF-8 text, where bytes FF FE decode to no character
    drawing.header["$INSUNITS"] = 6
    drawing.layers.add("BADLAYER")
    drawing.modelspace().add_lwpolyline([(0, 0), (30, 0), (30, 20), (0, 20)], close=True,
                                        dxfattribs={"layer": "BADLAYER"})
    drawing.saveas(tmp_path / "clean.dxf")
    raw = (tmp_path / "clean.dxf").read_bytes().replace(b"BADLAYER", b"\xff\xfeLAYER")
    (tmp_path / "bytes.dxf").write_bytes(raw)
    done = _planner("new", "--from-dxf", "bytes.dxf", "-o", "b.hall", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr and "\ufffd" in done.stdout + done.stderr
    loaded = _planner("validate", "b.hall", cwd=tmp_path)
    assert loaded.returncode in (0, 1), loaded.stderr  # the plan it wrote opens again


def test_a_hall_wider_than_2_km_is_refused_at_import_not_written_for_the_loader_to_refuse(tmp_path):
    drawing = ezdxf.new()
    drawing.header["$INSUNITS"] = 6  # metres: a plan drawn in mm but marked as m is 1,000 times too big
    _outline(drawing.modelspace(), [(0, 0), (5_000, 0), (5_000, 3_000), (0, 3_000)])
    drawing.saveas(tmp_path / "campus.dxf")
    done = _planner("new", "--from-dxf", "campus.dxf", "-o", "c.hall", cwd=tmp_path)
    assert done.returncode == 2 and not (tmp_path / "c.hall").exists()
    assert "a hall is at most 2,000 m across (are the units right?)" in _one_line(done.stderr)
