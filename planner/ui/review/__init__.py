"""Reviewing a plan in the window: comparing with another revision (the Changes dock, the other revision drawn under the plan) and review comments (their dock and pins)."""
