"""Drawings under the plan: their scene items and File ▸ Import drawing… with the Drawings panel."""
