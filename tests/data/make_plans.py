"""Write the rule test plans in tests/data: one realistic clean plan and, derived from it, one
plan per rule that breaks exactly that rule (file name prefix = the rule id).

Run from the repository root: ``python tests/data/make_plans.py``. The clean plan is a row of
six 120 kW direct-liquid-cooled racks (ten 12 kW nodes and eight 63 A PDUs each) on 2N A/B
busbars of 1,600 A with 250 A tap-offs, and an 800 kW row CDU, on a 20 kPa slab.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from pathlib import Path

from planner.io import save
from planner.model.catalog import CatalogItem
from planner.model.document import Document
from planner.model.objects import BusbarRun, Device, FloorUnit, Obstacle, Rack, Zone

HERE = Path(__file__).resolve().parent
NODE = "node-8gpu-liquid-4u"
PDU = "pdu-rack-3ph-63a"
RACK = "rack-800x1200-52u"
ROW_Y = 5.0
RACKS = 6


def _custom(doc: Document, base: str, key: str, name: str, **values: float) -> str:
    item = copy.copy(doc.catalog[base])
    item.key, item.name, item.custom = key, name, True
    item.source = "Test plan: a variant of " + doc.catalog[base].name
    for field, value in values.items():
        setattr(item, field, value)
    doc.catalog.add(item)
    return key


def clean() -> Document:
    doc = Document()
    doc.meta.project = "Rule test plans"
    doc.meta.hall = "Row of 120 kW racks"
    doc.outline = [(0.0, 0.0), (16.0, 0.0), (16.0, 12.0), (0.0, 12.0)]
    # 150 kW of room air cooling for 6 × 18 kW residual air heat (c6 lowers it to 50 kW)
    doc.add(Zone(id="zone-1", name="Slab", polygon=list(doc.outline), rating_kpa=20.0, air_capacity_kw=150.0))
    doc.catalog.add(CatalogItem(key="busbar-1600a", kind="busbar", name="Overhead busbar 1,600 A, 250 A tap-offs",
                                source="Test plan: overhead busway class 1,600 A, 415 V 3-phase, 250 A tap-offs; "
                                       "1.8 m tap-off whip (NEC 368.56(B)(2))",
                                rating_a=1600, voltage_v=415, phases=3, tapoff_rating_a=250, tapoff_whip_m=1.8,
                                custom=True))
    doc.add(FloorUnit(id="fu-1", type="cdu-row-800kw", name="CDU-01", x=2.4, y=ROW_Y, row="1"))
    x0 = 3.5
    x1 = x0 + RACKS * 0.8
    doc.add(BusbarRun(id="bus-1", type="busbar-1600a", name="BB-A01", x1=x0 - 0.4, y1=ROW_Y - 0.3,
                      x2=x1, y2=ROW_Y - 0.3, side="A", row="1"))
    doc.add(BusbarRun(id="bus-2", type="busbar-1600a", name="BB-B01", x1=x0 - 0.4, y1=ROW_Y + 0.3,
                      x2=x1, y2=ROW_Y + 0.3, side="B", row="1"))
    for index in range(RACKS):
        rack = Rack(id=doc.new_id("rack"), type=RACK, name=f"R{index + 1:02d}", x=round(x0 + 0.8 * index, 3),
                    y=ROW_Y, row="1", feed_a="bus-1", feed_b="bus-2", cdu="fu-1")
        doc.add(rack)
        for slot in range(10):
            doc.add(Device(id=doc.new_id("dev"), type=NODE, name=f"N{slot + 1}", rack=rack.id, u=1 + 4 * slot))
        for pdu in range(8):
            doc.add(Device(id=doc.new_id("dev"), type=PDU, name=f"PDU{pdu + 1}", rack=rack.id, u=0))
    return doc


def f1(doc: Document) -> None:
    doc.zones["zone-1"].rating_kpa = 10.0  # racks 1,012 kg / 0.96 m² = 10.3 kPa


def f2(doc: Document) -> None:
    doc.zones["zone-1"].tile_rating_kn = 2.4  # 1,012 kg → 9.92 kN / 4 feet = 2.48 kN per foot
    doc.zones["zone-1"].rolling_rating_kn = 6.0


def f3(doc: Document) -> None:
    light = _custom(doc, RACK, "rack-light", "Rack rated 1,000 kg", max_load_kg=1000.0)
    for rack in doc.racks.values():
        rack.type = light  # 1,012 kg in it


def p1(doc: Document) -> None:
    doc.basis.redundancy = "N+1"  # no failover check; normal 527 A > 630 A × 0.8 = 504 A
    doc.catalog["busbar-1600a"].rating_a = 630


def p2(doc: Document) -> None:
    doc.catalog["busbar-1600a"].rating_a = 1250  # failover 1,054 A > 1,000 A; normal 527 A


def p3(doc: Document) -> None:
    rack = Rack(id="rack-7", type=RACK, name="R07", x=3.5 + 0.8 * RACKS, y=ROW_Y, row="1", feed_a="bus-1",
                feed_b="bus-2", phases="L1")
    doc.add(rack)
    for slot in range(4):  # 4 × 10.2 kW air-cooled on L1 alone
        doc.add(Device(id=doc.new_id("dev"), type="node-8gpu-air-8u", name=f"N{slot + 1}", rack=rack.id,
                       u=1 + 8 * slot))
    for pdu in range(4):  # two a side (2N) carry its 40.8 kW (P4)
        doc.add(Device(id=doc.new_id("dev"), type=PDU, name=f"PDU{pdu + 1}", rack=rack.id, u=0))


def p4(doc: Document) -> None:
    small = _custom(doc, RACK, "rack-100kw", "Rack rated 100 kW", max_power_kw=100.0)
    for rack in doc.racks.values():
        rack.type = small


def p5(doc: Document) -> None:
    doc.busbars["bus-1"].x2 = 5.0  # R06 (x 7.1–7.9 m) lies 2.1 m beyond BB-A01's end, whip 1.8 m; R05 1.3 m


def c1(doc: Document) -> None:
    doc.floor_units["fu-1"].type = _custom(doc, "cdu-row-800kw", "cdu-600kw", "Row CDU 600 kW", capacity_kw=600.0)


def c2(doc: Document) -> None:
    doc.floor_units["fu-1"].type = _custom(doc, "cdu-row-800kw", "cdu-slow", "Row CDU 800 L/min", rated_flow_lpm=800.0)


def c3(doc: Document) -> None:
    doc.basis.facility_supply_c = 43.0  # + 3 K approach = 46 °C > 45 °C
    doc.basis.ashrae_class = "W45"  # 43 °C water is W45 water (C9 holds; C3 is what breaks)


def c4(doc: Document) -> None:
    doc.racks["rack-6"].cdu = None


def c5(doc: Document) -> None:
    doc.floor_units["fu-1"].type = _custom(doc, "cdu-row-800kw", "cdu-short", "Row CDU, 3 m hoses", reach_m=3.0)


def c6(doc: Document) -> None:
    doc.zones["zone-1"].air_capacity_kw = 50.0  # 6 × 18 kW residual air heat


def s1(doc: Document) -> None:
    doc.racks["rack-6"].x = doc.racks["rack-5"].x + 0.4  # half over R05


def s2(doc: Document) -> None:
    doc.add(Obstacle(id="obs-1", name="C1", kind="column", polygon=[(4.9, 6.1), (5.5, 6.1), (5.5, 6.7), (4.9, 6.7)]))


def s3(doc: Document) -> None:
    doc.add(FloorUnit(id="fu-2", type="cabinet-630a", name="PDC-01", x=12.0, y=1.1))  # front 0.8 m from the wall


def s4(doc: Document) -> None:
    doc.add(Device(id=doc.new_id("dev"), type="sw-64x400g-1u", name="SW1", rack="rack-1", u=4))
    doc.basis.ppue_target = 1.07  # the air-cooled switch's heat puts R01 at pPUE 1.0604 (E1 is not what breaks)


BREAKS: dict[str, Callable[[Document], None]] = {
    "f1_zone_overload": f1, "f2_tile_point_load": f2, "f3_rack_overweight": f3,
    "p1_busbar_continuous": p1, "p2_busbar_failover": p2, "p3_phase_imbalance": p3, "p4_rack_power": p4,
    "p5_tapoff_reach": p5,
    "c1_cdu_capacity": c1, "c2_cdu_flow": c2, "c3_supply_temperature": c3, "c4_rack_off_loop": c4,
    "c5_pipe_reach": c5, "c6_zone_air_heat": c6,
    "s1_overlap": s1, "s2_aisle": s2, "s3_working_space": s3, "s4_device_overlap": s4,
}


def main() -> None:
    save(clean(), HERE / "clean_row_120kw.hall")
    for name, breaks in BREAKS.items():
        doc = clean()
        breaks(doc)
        save(doc, HERE / f"{name}.hall")


if __name__ == "__main__":
    main()
