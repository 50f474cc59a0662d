"""The fabric in the window: Plan ▸ Generate fabric… and the templates' wiring."""
