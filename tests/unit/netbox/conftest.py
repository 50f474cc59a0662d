"""Fixtures of the ``planner netbox`` tests: a fake NetBox 4.6 on the loopback (tests/netbox_fake)
and the 32-node pod, as ``planner new --template pod --nodes 32`` makes it."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

# tests/ (the fake) and this folder (shape_check) are importable by name (--import-mode=importlib
# puts neither on sys.path).
for folder in (Path(__file__).resolve().parents[2], Path(__file__).resolve().parent):
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))

from netbox_fake import FakeNetBox

from planner.io import load, save
from planner.layout.templates import build_template
from planner.netbox.client import NetBoxClient


@pytest.fixture
def fake():
    with FakeNetBox() as server:
        yield server


@pytest.fixture(scope="session")
def pod_file(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("netbox") / "pod.hall"
    save(build_template("pod", nodes=32), path)
    return path


@pytest.fixture
def pod(pod_file):
    """A fresh copy of the 32-node pod."""
    return load(pod_file)


@pytest.fixture
def client(fake):
    connection = NetBoxClient(fake.url, fake.token)
    yield connection
    connection.close()
