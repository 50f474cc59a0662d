"""Fat-tree sizing, port-level cabling, cable routing, media and length choice (DESIGN §4, §5)."""

from planner.fabric.generate import generate_fabric
from planner.fabric.sizing import FabricDesign, FabricError, design_fabric, fabric_counts

__all__ = ["FabricDesign", "FabricError", "design_fabric", "fabric_counts", "generate_fabric"]
