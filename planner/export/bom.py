"""The bill of materials: what to order, counted from the plan and never typed in.

Equipment by catalogue item (racks, nodes, switches, storage, CDUs, PDUs, cabinets, busbar
runs), busbar tap-offs (one per rack feed), data cables by network, media and stock length
(compute, storage, in-band, out-of-band: ``network_of``), power cords by type (the outlet and
the inlet it mates, "C19–C20") and stock length, coolant hoses by QD size and length, and
transceivers by media and plug form for the data networks only: one per optical plug, so a
twin-port switch cage's two cables share one (``planner.model.cages``).

A copper cable (DAC, ACC) has its plugs on, so the two port-cables of a twin-port cage on copper
are one cable to order (``planner.model.copper``): a twin-port cable cage to cage, or a splitter
from the cage to two ports. Each cable row says its ``form`` ("" for a cable of one port at each
end) and the ``port_cables`` it serves, which add up to the cable schedule's rows.
"""

from __future__ import annotations

import csv
from collections import Counter
from typing import TextIO

from planner.export.connections import Fittings, cord_type, network_rank, network_words
from planner.export.sheet_text import sheet_text
from planner.model.cages import transceiver_counts, transceiver_name
from planner.model.catalog import ALL_KINDS
from planner.model.copper import SPLITTER, STRAIGHT, copper_assemblies
from planner.model.cords import cord_types
from planner.model.document import Document
from planner.model.networks import network_of
from planner.model.ports import COOLANT, POWER

CSV_COLUMNS = ("section", "key", "description", "length_m", "quantity")


def build_bom(doc: Document) -> dict:
    """The BOM as plain data (the `planner bom --json` object).

    ``{"equipment": [{key, name, kind, quantity}], "tap_offs": [{busbar_type, rating_a, quantity}],
    "cables": [{network, media, form, name, stock_length_m, quantity, port_cables}], "cords": [{type, key, name, stock_length_m,
    quantity}], "hoses": [{size, name, length_m, quantity}], "transceivers": [{media, form, connector,
    speed_gbps, name, quantity}]}``
    """
    catalog = doc.catalog
    counts: Counter[str] = Counter()
    for collection in (doc.racks, doc.devices, doc.floor_units, doc.busbars):
        counts.update(obj.type for obj in collection.values())
    kind_order = {kind: i for i, kind in enumerate(ALL_KINDS)}

    def item_of(key: str) -> tuple[str, str]:
        item = catalog.items.get(key)
        return (item.name, item.kind) if item else (key, "unknown")

    # Sorted by kind, then key (keys are unique: the order is total) before the records are built.
    equipment = [
        {"key": key, "name": item_of(key)[0], "kind": item_of(key)[1], "quantity": counts[key]}
        for key in sorted(counts, key=lambda k: (kind_order.get(item_of(k)[1], len(ALL_KINDS)), k))
    ]
    taps: Counter[str] = Counter()
    for rack in doc.racks.values():
        for feed in (rack.feed_a, rack.feed_b):
            if feed and feed in doc.busbars:
                taps[doc.busbars[feed].type] += 1
    tap_offs = [
        {"busbar_type": key, "rating_a": catalog.items[key].tapoff_rating_a if key in catalog.items else None,
         "quantity": n}
        for key, n in sorted(taps.items())
    ]
    media_order = {key: i for i, key in enumerate(catalog.media)}

    def media_name(key: str) -> str:
        media = catalog.media.get(key)
        return media.name if media else (key or "unassigned")

    fittings = Fittings(doc)
    # a copper assembly is counted at its first cable, in its form
    shared = {a.links[0].id: a for a in copper_assemblies(doc) if a.shape in _FORMS}
    later = {link.id for a in shared.values() for link in a.links[1:]}
    data: Counter[tuple[str, str, str, float]] = Counter()
    served: Counter[tuple[str, str, str, float]] = Counter()
    cords: Counter[tuple[str, float]] = Counter()
    hoses: Counter[tuple[str, float]] = Counter()
    for link in doc.links.values():
        network = network_of(link)
        if network == POWER:
            outlet = fittings.fitting(POWER, link.a_device, link.a_port, link.b_device, link.b_port)
            cords[(outlet, link.stock_m)] += 1
        elif network == COOLANT:
            size = fittings.fitting(COOLANT, link.a_device, link.a_port, link.b_device, link.b_port)
            hoses[(size, link.stock_m or link.length_m)] += 1
        elif link.id not in later:
            assembly = shared.get(link.id)
            key = ((network, link.media, _FORMS[assembly.shape], assembly.stock_m) if assembly
                   else (network, link.media, "", link.stock_m))
            data[key] += 1
            served[key] += len(assembly.links) if assembly else 1
    cables = [
        {"network": network, "media": media, "form": form, "name": media_name(media) + _FORM_WORDS.get(form, ""),
         "stock_length_m": stock, "quantity": n, "port_cables": served[network, media, form, stock]}
        for (network, media, form, stock), n in sorted(
            data.items(), key=lambda kv: (network_rank(kv[0][0]), media_order.get(kv[0][1], 99), kv[0]))
    ]
    types = cord_types()
    cord_list = [
        {"type": cord_type(outlet) or "unknown", "key": types[outlet].key if outlet in types else "",
         "name": types[outlet].name if outlet in types else "Power cord, outlet type not given",
         "stock_length_m": stock, "quantity": n}
        for (outlet, stock), n in sorted(cords.items())
    ]
    hose_list = [{"size": size, "name": f"Coolant hose {size}".strip(), "length_m": length, "quantity": n}
                 for (size, length), n in sorted(hoses.items())]
    optics = transceiver_counts(doc)
    transceivers = [{"media": kind[0], "form": kind[1], "connector": kind[2], "speed_gbps": kind[3],
                     "name": transceiver_name(kind), "quantity": n}
                    for kind, n in sorted(optics.items(), key=lambda kv: (media_order.get(kv[0][0], 99), kv[0]))]
    return {"equipment": equipment, "tap_offs": tap_offs, "cables": cables, "cords": cord_list, "hoses": hose_list,
            "transceivers": transceivers}


#: A copper assembly's form in the BOM, and the words its name takes.
_FORMS = {STRAIGHT: "twin-port", SPLITTER: "splitter"}
_FORM_WORDS = {"twin-port": ", twin-port (a cage's 2 ports to one cage)",
               "splitter": ", splitter (a twin-port cage to 2 ports)"}


def _tapoff_name(rating_a: float | None) -> str:
    return "Busbar tap-off, not rated" if rating_a is None else f"Busbar tap-off {rating_a:g} A"


def _transceiver_key(t: dict) -> str:
    """The CSV key of a transceiver row: "sr4 OSFP twin-port 400G" (distinct per kind)."""
    speed = f"{t['speed_gbps']:g}G" if t["speed_gbps"] else ""
    return " ".join(part for part in (t["media"], t["connector"], t["form"], speed) if part)


def bom_rows(bom: dict) -> list[tuple]:
    """Flat rows (CSV_COLUMNS order) of a BOM built by build_bom."""
    rows: list[tuple] = []
    rows += [("equipment", e["key"], e["name"], "", e["quantity"]) for e in bom["equipment"]]
    rows += [("tap-off", t["busbar_type"], _tapoff_name(t["rating_a"]), "", t["quantity"]) for t in bom["tap_offs"]]
    rows += [("cable", " ".join(filter(None, (c["media"], c["form"]))), f"{c['name']} ({network_words(c['network'])})",
              f"{c['stock_length_m']:g}", c["quantity"]) for c in bom["cables"]]
    rows += [("cord", c["key"] or c["type"], f"{c['name']} ({c['type']})", f"{c['stock_length_m']:g}", c["quantity"])
             for c in bom["cords"]]
    rows += [("hose", h["size"], h["name"], f"{h['length_m']:g}", h["quantity"]) for h in bom["hoses"]]
    rows += [("transceiver", _transceiver_key(t), t["name"], "", t["quantity"]) for t in bom["transceivers"]]
    return rows


def write_bom_csv(doc: Document, out: TextIO) -> None:
    """Write the BOM as CSV text with a header row. Keys and names of custom equipment are the
    user's text: each text cell goes through ``sheet_text`` (no formula reaches a spreadsheet)."""
    writer = csv.writer(out)
    writer.writerow(CSV_COLUMNS)
    writer.writerows([sheet_text(value) for value in row] for row in bom_rows(build_bom(doc)))
