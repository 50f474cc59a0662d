"""This folder's helper modules (``netbox_views``) importable by name: --import-mode=importlib puts
no test folder on sys.path."""

from __future__ import annotations

import sys
from pathlib import Path

if str(Path(__file__).resolve().parent) not in sys.path:
    sys.path.insert(0, str(Path(__file__).resolve().parent))
