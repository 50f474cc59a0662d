"""The floor plan: scene, items, view and palette."""
