"""NetBox rack types (NetBox 4.1+, ``dcim/rack-types``): each catalogue rack type as the shared
object its racks refer to, so NetBox lists the hall's racks by type and a rack's size, weight and
rating come from one place (``Rack.copy_racktype_attrs``: a rack of a type takes the type's form
factor, width, U height, outer size and weights, whatever the rack row says;
``tests/data/netbox_api/racks.typed.json``).

A rack type is keyed by its slug (``netbox_names.type_slug``, as a device type) and named as a
device type is (``device_type_models``), so it is the same object in every hall: the import set's
``shared/rack-types.csv`` lists every built-in rack type and the plan's own ones used, and a
NetBox that has them from an earlier hall skips the file; a push creates the ones missing. The
fields are RackTypeImportForm's (``netbox/dcim/forms/bulk_import.py``); airflow is a rack's own
field in NetBox 4.6 (the rack rows carry it).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from planner.io.netbox_names import (
    DESCRIPTION_MAX,
    RACK_FORM_FACTOR,
    RACK_WIDTH_IN,
    device_type_models,
    manufacturer_of,
    type_slug,
)
from planner.model.catalog import RACK, Catalog, CatalogItem, builtin_catalog

#: The columns of ``shared/rack-types.csv`` (RackTypeImportForm), in the order written.
RACK_TYPE_COLUMNS = ("manufacturer", "model", "slug", "form_factor", "width", "u_height", "outer_width",
                     "outer_depth", "outer_unit", "weight", "max_weight", "weight_unit", "description")


def rack_type(item: CatalogItem, model: str) -> dict[str, Any]:
    """A catalogue rack type as NetBox's rack type, in RACK_TYPE_COLUMNS order (the manufacturer
    by name; ``max_weight`` None where the catalogue gives no rating)."""
    return {"manufacturer": manufacturer_of(item), "model": model, "slug": type_slug(item),
            "form_factor": RACK_FORM_FACTOR, "width": RACK_WIDTH_IN, "u_height": item.rack_units,
            "outer_width": round(item.width_m * 1000), "outer_depth": round(item.depth_m * 1000), "outer_unit": "mm",
            "weight": round(item.weight_kg, 2),
            "max_weight": None if item.max_load_kg is None else round(item.max_load_kg), "weight_unit": "kg",
            "description": item.name[:DESCRIPTION_MAX]}


def shared_rack_types(catalog: Catalog, used: Iterable[str]) -> list[dict[str, Any]]:
    """The rack types of ``shared/rack-types.csv``: every built-in one, and the plan's own used."""
    builtin = [item for item in builtin_catalog().items.values() if item.kind == RACK]
    mine = [catalog[key] for key in sorted(set(used)) if catalog[key].custom]
    items = [*builtin, *mine]
    models = device_type_models(items)
    return [rack_type(item, models[item.key]) for item in items]
