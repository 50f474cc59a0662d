"""Validation engine and the facility rule catalogue (DESIGN §5); incremental."""
