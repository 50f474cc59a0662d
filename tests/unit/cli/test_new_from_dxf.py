"""`planner new --from-dxf`: a plan from an architect's drawing in each unit system, the layers
listed with what was taken, refusals as one line with exit 2, and a plan that validates and
opens (DESIGN §7, issue 14)."""

from __future__ import annotations

import math
import subprocess
import sys
from pathlib import Path

import ezdxf
import pytest

from planner.cli import main
from planner.io import load
from planner.model.geometry import bounds_of

#: $INSUNITS code, --units name, metres per unit.
UNIT_SYSTEMS = [(4, "mm", 0.001), (6, "m", 1.0), (1, "in", 0.0254), (2, "ft", 0.3048)]
WIDTH, DEPTH = 36.0, 24.0


def architect_dxf(path: Path, insunits: int, unit_m: float) -> Path:
    """A 36 × 24 m hall (south-west corner at 250 m, 100 m) on A-WALL, three round columns and one
    square one on S-COLS, one column outside the hall, texts on A-ANNO."""
    doc = ezdxf.new("R2010")
    doc.header["$INSUNITS"] = insunits
    msp = doc.modelspace()
    for name in ("A-WALL", "S-COLS", "A-ANNO"):
        doc.layers.add(name)

    def u(x_m: float, y_m: float) -> tuple[float, float]:
        return (250.0 + x_m) / unit_m, (100.0 + y_m) / unit_m

    msp.add_lwpolyline([u(0, 0), u(WIDTH, 0), u(WIDTH, DEPTH), u(0, DEPTH)], close=True,
                       dxfattribs={"layer": "A-WALL"})
    for x in (6.0, 18.0, 30.0):
        msp.add_circle(u(x, 12.0), 0.3 / unit_m, dxfattribs={"layer": "S-COLS"})
    msp.add_lwpolyline([u(5.7, 17.7), u(6.3, 17.7), u(6.3, 18.3), u(5.7, 18.3)], close=True,
                       dxfattribs={"layer": "S-COLS"})
    msp.add_circle(u(-12.0, 12.0), 0.3 / unit_m, dxfattribs={"layer": "S-COLS"})
    msp.add_text("DATA HALL 1", dxfattribs={"layer": "A-ANNO", "height": 0.4 / unit_m, "insert": u(1, 1)})
    doc.saveas(path)
    return path


def run(argv: list[str], capsys) -> tuple[int, str, str]:
    try:
        code = main(argv)
    except SystemExit as exit_:
        code = exit_.code if isinstance(exit_.code, int) else 2
    out, err = capsys.readouterr()
    return code, out, err


def centre(points) -> tuple[float, float]:
    return sum(p[0] for p in points) / len(points), sum(p[1] for p in points) / len(points)


@pytest.mark.parametrize("code,name,unit_m", UNIT_SYSTEMS)
def test_each_unit_system_gives_the_hall_in_metres(tmp_path, capsys, code, name, unit_m):
    source = architect_dxf(tmp_path / f"hall-{name}.dxf", code, unit_m)
    out_path = tmp_path / "plan.hall"
    status, out, err = run(["new", "--from-dxf", str(source), "-o", str(out_path)], capsys)
    assert status == 0, err
    doc = load(out_path)
    assert bounds_of(doc.outline) == pytest.approx((0.0, 0.0, WIDTH, DEPTH), abs=1e-3)
    assert len(doc.outline) == 4
    centres = [c for o in sorted(doc.obstacles.values(), key=lambda o: centre(o.polygon)) for c in centre(o.polygon)]
    # drawing y 112 m (12 m north of the south wall) is 12 m south of the north wall
    assert centres == pytest.approx([6.0, 6.0, 6.0, 12.0, 18.0, 12.0, 30.0, 12.0], abs=1e-3)
    assert {o.kind for o in doc.obstacles.values()} == {"column"}
    assert f"units {name} (from the drawing's $INSUNITS {code})" in out
    under = next(iter(doc.underlays.values()))
    assert (under.kind, under.path, under.scale, under.locked) == ("dxf", source.name, unit_m, True)
    assert under.x == pytest.approx(-250.0, abs=1e-6) and under.y == pytest.approx(124.0, abs=1e-6)


def test_layers_listed_with_what_was_taken(tmp_path, capsys):
    source = architect_dxf(tmp_path / "hall.dxf", 4, 0.001)
    status, out, _err = run(["new", "--from-dxf", str(source), "-o", str(tmp_path / "p.hall")], capsys)
    assert status == 0
    rows = {line.split()[0]: line.split()[1:] for line in out.splitlines() if line[:1] not in ("", " ")}
    assert rows["A-WALL"] == ["1", "1", "0", "outline"]
    assert rows["S-COLS"] == ["5", "1", "4", "4", "columns"]
    assert rows["A-ANNO"] == ["1", "0", "0"]
    assert "36.000 × 24.000 m" in out
    assert "Columns: 4 from layer S-COLS (guessed from the layer name); 1 outside the outline left out" in out


def test_unitless_drawing_refused_without_units(tmp_path, capsys):
    source = architect_dxf(tmp_path / "plain.dxf", 0, 1.0)
    target = tmp_path / "p.hall"
    status, out, err = run(["new", "--from-dxf", str(source), "-o", str(target)], capsys)
    lines = err.strip().splitlines()
    assert status == 2 and len(lines) == 1 and "--units" in lines[0] and str(source) in lines[0]
    assert not target.exists() and out == ""
    status, out, err = run(["new", "--from-dxf", str(source), "--units", "m", "-o", str(target)], capsys)
    assert status == 0, err
    assert bounds_of(load(target).outline) == pytest.approx((0.0, 0.0, WIDTH, DEPTH), abs=1e-3)
    assert "units m (from --units)" in out


def test_layers_given_by_name(tmp_path, capsys):
    source = architect_dxf(tmp_path / "hall.dxf", 6, 1.0)
    target = tmp_path / "p.hall"
    status, out, err = run(["new", "--from-dxf", str(source), "--outline-layer", "a-wall",
                            "--column-layer", "A-ANNO", "-o", str(target)], capsys)
    assert status == 0, err
    assert load(target).obstacles == {} and "Columns: 0 from layer A-ANNO (as asked)" in out


@pytest.mark.parametrize("argv,words", [
    (["--outline-layer", "NOPE"], "no layer 'NOPE' for the outline (layers: 0, A-ANNO, A-WALL"),
    (["--outline-layer", "A-ANNO"], "no closed polyline"),
    (["--units", "ft"], "are the units right?"),
    (["--nodes", "4"], "--nodes is for --template"),
])
def test_refusals_are_one_line_and_exit_2(tmp_path, capsys, argv, words):
    source = architect_dxf(tmp_path / "hall.dxf", 4, 0.001)
    target = tmp_path / "p.hall"
    status, _out, err = run(["new", "--from-dxf", str(source), *argv, "-o", str(target)], capsys)
    lines = err.strip().splitlines()
    assert status == 2 and len(lines) == 1 and lines[0].startswith("planner: ") and words in lines[0], err
    assert not target.exists()


def test_unreadable_drawings_are_exit_2(tmp_path, capsys):
    junk = tmp_path / "junk.dxf"
    junk.write_text("0\nSECTION\nnonsense", encoding="utf-8")
    for source in (junk, tmp_path / "missing.dxf"):
        status, _out, err = run(["new", "--from-dxf", str(source), "-o", str(tmp_path / "p.hall")], capsys)
        assert status == 2 and len(err.strip().splitlines()) == 1 and source.name in err


def test_template_options_stay_apart(tmp_path, capsys):
    status, _out, err = run(["new", "--template", "starter", "--units", "mm", "-o", str(tmp_path / "p.hall")], capsys)
    assert status == 2 and "--units is for --from-dxf" in err
    status, _out, _err = run(["new", "-o", str(tmp_path / "p.hall")], capsys)
    assert status == 2  # one of --template or --from-dxf is required


def test_underlay_path_absolute_when_the_plan_is_elsewhere(tmp_path, capsys):
    (tmp_path / "drawings").mkdir()
    source = architect_dxf(tmp_path / "drawings" / "hall.dxf", 4, 0.001)
    target = tmp_path / "plans" / "p.hall"
    target.parent.mkdir()
    assert run(["new", "--from-dxf", str(source), "-o", str(target)], capsys)[0] == 0
    path = next(iter(load(target).underlays.values())).path
    assert Path(path).is_absolute() and Path(path) == source.resolve()


def test_georeferenced_drawing_gives_the_plan_without_an_underlay(tmp_path, capsys):
    doc = ezdxf.new("R2010")
    doc.header["$INSUNITS"] = 6
    easting, northing = 500_000.0, 5_400_000.0  # UTM metres: far beyond the ±10 km a plan holds
    doc.modelspace().add_lwpolyline([(easting, northing), (easting + 30, northing), (easting + 30, northing + 20),
                                     (easting, northing + 20)], close=True, dxfattribs={"layer": "WALL"})
    doc.saveas(tmp_path / "utm.dxf")
    target = tmp_path / "p.hall"
    status, out, err = run(["new", "--from-dxf", str(tmp_path / "utm.dxf"), "-o", str(target)], capsys)
    assert status == 0, err
    plan = load(target)
    assert bounds_of(plan.outline) == pytest.approx((0.0, 0.0, 30.0, 20.0)) and not plan.underlays
    assert "not kept under the plan" in out


def test_written_plan_validates_with_the_installed_cli(tmp_path):
    source = architect_dxf(tmp_path / "hall.dxf", 1, 0.0254)
    target = tmp_path / "p.hall"
    made = subprocess.run([sys.executable, "-I", "-m", "planner", "new", "--from-dxf", str(source),
                           "-o", str(target)], capture_output=True, text=True, check=False)
    assert made.returncode == 0, made.stderr
    checked = subprocess.run([sys.executable, "-I", "-m", "planner", "validate", str(target)],
                             capture_output=True, text=True, check=False)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    doc = load(target)
    area = sum((a[0] * b[1] - b[0] * a[1]) for a, b in zip(doc.outline, doc.outline[1:] + doc.outline[:1]))
    assert math.isclose(abs(area) / 2, WIDTH * DEPTH, rel_tol=1e-6)
