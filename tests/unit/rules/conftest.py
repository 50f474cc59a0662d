"""A small plan builder for rule tests: custom equipment types with round numbers, so each test
can work its threshold arithmetic by hand."""

from __future__ import annotations

import copy

import pytest

from planner.layout.templates import build_template
from planner.model.catalog import CatalogItem
from planner.model.document import Document
from planner.model.objects import BusbarRun, Device, FloorUnit, Obstacle, Rack, Zone


class PlanBuilder:
    """Builds a Document directly through the model (tests only)."""

    def __init__(self) -> None:
        self.doc = Document()
        self.doc.basis.voltage_v = 400.0
        self.doc.basis.power_factor = 1.0
        self.doc.outline = [(0.0, 0.0), (40.0, 0.0), (40.0, 20.0), (0.0, 20.0)]
        self.type("rack-1x1", "rack", width_m=1.0, depth_m=1.0, rack_units=48, weight_kg=0.0)  # not rated

    def type(self, key: str, kind: str, **values) -> str:
        self.doc.catalog.add(CatalogItem(key=key, kind=kind, name=key, custom=True, **values))
        return key

    def zone(self, rating_kpa: float = 100.0, polygon=None, **values) -> str:
        zone = Zone(id=self.doc.new_id("zone"), name=f"Z{len(self.doc.zones) + 1}",
                    polygon=polygon or [(0.0, 0.0), (40.0, 0.0), (40.0, 20.0), (0.0, 20.0)],
                    rating_kpa=rating_kpa, **values)
        self.doc.add(zone)
        return zone.id

    def rack(self, x: float = 5.0, y: float = 5.0, type_key: str = "rack-1x1", **values) -> str:
        rack = Rack(id=self.doc.new_id("rack"), type=type_key, name=f"R{len(self.doc.racks) + 1:02d}",
                    x=x, y=y, **values)
        self.doc.add(rack)
        return rack.id

    def load(self, rack_id: str, power_w: float = 0.0, weight_kg: float = 0.0, liquid_fraction: float = 0.0,
             u: int = 1, height_u: int = 1, kind: str = "node") -> str:
        """A device of its own custom type: ``power_w`` steady and peak, ``weight_kg``."""
        key = self.type(f"load-{len(self.doc.catalog.items)}", kind, height_u=height_u, weight_kg=weight_kg,
                        power_w=power_w, power_peak_w=power_w, liquid_fraction=liquid_fraction)
        device = Device(id=self.doc.new_id("dev"), type=key, name=f"D{len(self.doc.devices) + 1}",
                        rack=rack_id, u=u)
        self.doc.add(device)
        return device.id

    def busbar(self, rating_a: float = 100.0, side: str = "A", tapoff_a: float | None = None) -> str:
        key = self.type(f"bus-{rating_a:g}-{tapoff_a}", "busbar", rating_a=rating_a, voltage_v=400.0, phases=3,
                        tapoff_rating_a=tapoff_a)
        bus = BusbarRun(id=self.doc.new_id("bus"), type=key, name=f"BB-{side}{len(self.doc.busbars) + 1}",
                        x1=0.0, y1=1.0, x2=30.0, y2=1.0, side=side)
        self.doc.add(bus)
        return bus.id

    def unit(self, kind: str = "row_cdu", x: float = 20.0, y: float = 5.0, **values) -> str:
        values.setdefault("width_m", 1.0)
        values.setdefault("depth_m", 1.0)
        key = self.type(f"unit-{len(self.doc.catalog.items)}", kind, **values)
        unit = FloorUnit(id=self.doc.new_id("fu"), type=key, name=f"U{len(self.doc.floor_units) + 1}", x=x, y=y)
        self.doc.add(unit)
        return unit.id

    def obstacle(self, x0: float, y0: float, x1: float, y1: float) -> str:
        obs = Obstacle(id=self.doc.new_id("obs"), name=f"C{len(self.doc.obstacles) + 1}", kind="column",
                       polygon=[(x0, y0), (x1, y0), (x1, y1), (x0, y1)])
        self.doc.add(obs)
        return obs.id


@pytest.fixture
def plan() -> PlanBuilder:
    return PlanBuilder()


def findings_of(doc: Document, rule: str, info: bool = False) -> list:
    """The findings of one rule; info findings (a rating not given, so a check did not run) only
    when asked: the threshold tests here are about errors and warnings."""
    from planner.rules.engine import validate

    return [f for f in validate(doc) if f.rule == rule and (info or f.severity != "info")]


@pytest.fixture
def rule_findings():
    return findings_of


@pytest.fixture(scope="module")
def pod16_doc():
    """The 16-node pod template, built once per test module."""
    return build_template("pod", 16)


@pytest.fixture
def pod16(pod16_doc):
    """A copy of the 16-node pod that a test may change."""
    return copy.deepcopy(pod16_doc)
