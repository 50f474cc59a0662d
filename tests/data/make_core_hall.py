"""Write tests/data/core_hall.hall: the fixed hall the core tests (commands, file format) are written against.

One row of nine 800 mm racks (four liquid 4U nodes each; R05 holds eight 1U switches), a row
CDU, A and B busbars, two floor zones, six columns. Run from the repository root.
"""

from planner.commands.edits import new_device
from planner.io import save
from planner.model import BusbarRun, Document, Door, FloorUnit, HandOff, Obstacle, Rack, Zone

doc = Document()
doc.meta.project = "Example GPU pod"
doc.meta.hall = "Data hall 1"
doc.meta.author = "Hall Planner"
doc.outline = [(0, 0), (30, 0), (30, 18), (0, 18)]
doc.add(Zone(id="zone-1", name="Slab", polygon=[(0, 0), (18, 0), (18, 18), (0, 18)], rating_kpa=12.0))
doc.add(Zone(id="zone-2", name="Raised floor", polygon=[(18, 0), (30, 0), (30, 18), (18, 18)], rating_kpa=7.2,
             tile_rating_kn=4.5, rolling_rating_kn=3.6))
n = 1
for cx in (9.0, 18.0, 27.0):
    for cy in (6.0, 12.0):
        doc.add(Obstacle(id=f"obs-{n}", name=f"C{n}", kind="column",
                         polygon=[(cx - .3, cy - .3), (cx + .3, cy - .3), (cx + .3, cy + .3), (cx - .3, cy + .3)]))
        n += 1
doc.add(Door(id="door-1", name="Loading door", x1=0, y1=14, x2=0, y2=16.4))
doc.add(HandOff(id="ho-1", name="Facility water", kind="coolant", x=0.6, y=1.2))
doc.add(HandOff(id="ho-2", name="Switchboard A/B", kind="power", x=0.6, y=3.0))
doc.add(BusbarRun(id="bus-1", type="busbar-800a", name="BB-A01", x1=2.4, y1=4.2, x2=9.6, y2=4.2, side="A", row="1"))
doc.add(BusbarRun(id="bus-2", type="busbar-800a", name="BB-B01", x1=2.4, y1=5.4, x2=9.6, y2=5.4, side="B", row="1"))
doc.add(FloorUnit(id="fu-1", type="cdu-row-800kw", name="CDU-01", x=1.8, y=4.8, row="1"))
for i in range(9):
    rack = Rack(id=doc.new_id("rack"), type="rack-800x1200-52u", name=f"R{i+1:02d}", x=2.8 + i * 0.8, y=4.8,
                row="1", feed_a="bus-1", feed_b="bus-2", cdu="fu-1")
    doc.add(rack)
    kinds = ["node-8gpu-liquid-4u"] * 4 if i != 4 else ["sw-64x400g-1u"] * 8
    for t in kinds:
        doc.add(new_device(doc, t, rack.id))
    doc.add(new_device(doc, "pdu-rack-3ph-63a", rack.id))
save(doc, "tests/data/core_hall.hall")
