"""Live validation in the window: the validator kept in step with the session, the findings dock, the design overlays and the design basis dialog."""
