"""Qt-free domain model: hall, equipment, links, design basis and the catalogue."""

from planner.model.basis import DesignBasis
from planner.model.catalog import Catalog, CatalogItem, MediaType, builtin_catalog
from planner.model.document import Document, natural_key
from planner.model.objects import (
    BusbarRun,
    Device,
    Door,
    FloorUnit,
    HandOff,
    Link,
    Meta,
    Obstacle,
    Rack,
    Zone,
)

__all__ = [
    "BusbarRun",
    "Catalog",
    "CatalogItem",
    "DesignBasis",
    "Device",
    "Document",
    "Door",
    "FloorUnit",
    "HandOff",
    "Link",
    "MediaType",
    "Meta",
    "Obstacle",
    "Rack",
    "Zone",
    "builtin_catalog",
    "natural_key",
]
