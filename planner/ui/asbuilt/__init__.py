"""The as-built work in the window: the verify dock (a discovery compared with the plan) and installation progress on the plan."""
