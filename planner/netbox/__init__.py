"""The plan and a NetBox server, over NetBox's REST API: ``planner netbox push|pull``."""
