"""Cables in the window: the Cables dock with its index and keys, cables drawn as tray bundles, the dock's actions, cabling by hand and the cable list import."""
