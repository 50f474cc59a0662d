"""The fake NetBox answers in the shapes recorded from NetBox 4.6.8 (tests/data/netbox_api): the
same keys in the same order for every object it returns, full, brief and with ``fields=``, the
same nested objects, choice fields as ``{"value", "label"}`` with NetBox's labels, addresses on
its own host."""

from __future__ import annotations

import http.client
import json
from urllib.parse import urlsplit

import pytest
from netbox_fake import FakeNetBox, shapes
from shape_check import differences, unlike_every_recorded

from planner.layout.templates import build_template
from planner.netbox.client import NetBoxClient
from planner.netbox.push import push


def call(fake: FakeNetBox, method: str, path: str, body=None, token: str | None = None):
    connection = http.client.HTTPConnection("127.0.0.1", urlsplit(fake.url).port, timeout=30)
    headers = {"Content-Type": "application/json"}
    if token != "":
        headers["Authorization"] = token or fake.token
    connection.request(method, path, body=None if body is None else json.dumps(body), headers=headers)
    answer = connection.getresponse()
    payload = answer.read()
    connection.close()
    return answer.status, (json.loads(payload) if payload else None)


@pytest.fixture(scope="module")
def hall():
    """A fake NetBox holding the pod (every endpoint has objects)."""
    with FakeNetBox() as server:
        client = NetBoxClient(server.url, server.token)
        push(build_template("pod", nodes=32), client)
        client.close()
        yield server


@pytest.mark.parametrize("endpoint", sorted(shapes.ENDPOINTS))
def test_every_object_has_exactly_the_recorded_keys_and_nested_shapes(hall, endpoint):
    status, page = call(hall, "GET", f"/api/{endpoint}/?limit=1000")
    assert status == 200 and list(page) == ["count", "next", "previous", "results"]
    assert page["results"] and page["count"] == len(hall.store.data[endpoint])
    recorded = [list(o) for name in shapes.ENDPOINTS[endpoint]
                for o in shapes.objects_of(shapes.recorded(name)["response"])]
    for obj in page["results"]:
        assert list(obj) in recorded, f"{endpoint} {obj['id']}"
        assert unlike_every_recorded(endpoint, obj) == [], f"{endpoint} {obj['id']}"


@pytest.mark.parametrize("endpoint", sorted(shapes.BRIEF))
def test_brief_objects_are_the_recorded_brief_shape(hall, endpoint):
    _status, page = call(hall, "GET", f"/api/{endpoint}/?brief=1&limit=3")
    want = shapes.objects_of(shapes.recorded(shapes.BRIEF[endpoint])["response"])[0]
    assert all(differences(want, obj) == [] for obj in page["results"])


FIELD_RECORDINGS = sorted(name for name in (p.stem for p in shapes.DATA.glob("*.fields.json")))


@pytest.mark.parametrize("name", FIELD_RECORDINGS)
def test_the_client_s_fields_queries_answer_only_those_keys_in_netbox_s_order(hall, name):
    recording = shapes.recorded(name)
    site = next(iter(hall.store.data["dcim/sites"].values()))
    parts = urlsplit(recording["path"])
    query = "&".join(p for p in parts.query.split("&") if not p.startswith(("site_id=", "slug=")))
    scope = ("&slug=" + site["slug"] if "slug=" in parts.query
             else f"&site_id={site['id']}" if "site_id=" in parts.query else "")
    status, page = call(hall, "GET", f"{parts.path}?{query}{scope}")
    want = shapes.objects_of(recording["response"])
    assert status == 200 and page["results"]
    for obj in page["results"]:
        assert any(differences(recorded, obj) == [] for recorded in want), (name, obj)


def test_addresses_are_the_fake_s_own_and_choices_carry_netbox_s_labels(hall):
    _status, page = call(hall, "GET", "/api/dcim/racks/?limit=1")
    rack = page["results"][0]
    assert rack["url"] == f"{hall.url}/api/dcim/racks/{rack['id']}/"
    assert rack["display_url"] == f"{hall.url}/dcim/racks/{rack['id']}/"
    assert rack["site"]["url"].startswith(hall.url + "/api/dcim/sites/")
    assert rack["status"] == {"value": "planned", "label": "Planned"}
    assert rack["width"] == {"value": 19, "label": "19 inches"}
    assert rack["form_factor"] == {"value": "4-post-cabinet", "label": "4-post cabinet"}
    assert rack["airflow"] == {"value": "front-to-rear", "label": "Front to rear"}
    _status, page = call(hall, "GET", "/api/dcim/cables/?limit=1")
    assert page["results"][0]["length_unit"] == {"value": "m", "label": "Meters"}
    assert isinstance(page["results"][0]["type"], str)  # a cable's type is a plain string, as recorded


def test_pages_count_and_link_as_netbox_s(hall):
    total = len(hall.store.data["dcim/devices"])
    _status, first = call(hall, "GET", "/api/dcim/devices/?limit=50&fields=id")
    assert first["count"] == total and len(first["results"]) == 50 and first["previous"] is None
    assert first["next"] == f"{hall.url}/api/dcim/devices/?fields=id&limit=50&offset=50"
    _status, last = call(hall, "GET", "/api/dcim/devices/?limit=50&offset=100&fields=id")
    assert last["next"] is None and len(last["results"]) == total - 100
    assert last["previous"] == f"{hall.url}/api/dcim/devices/?fields=id&limit=50&offset=50"
    seen = [o["id"] for page in (first, call(hall, "GET", "/api/dcim/devices/?limit=50&offset=50&fields=id")[1],
                                 last) for o in page["results"]]
    assert sorted(seen) == sorted(hall.store.data["dcim/devices"])
    _status, default = call(hall, "GET", "/api/dcim/devices/?fields=id")
    assert len(default["results"]) == 50  # NetBox's PAGINATE_COUNT


def test_filters_select_as_netbox_s(hall):
    site = next(iter(hall.store.data["dcim/sites"].values()))
    device = next(d for d in hall.store.data["dcim/devices"].values() if d["name"] == "R01-N1")
    _status, page = call(hall, "GET", f"/api/dcim/interfaces/?device_id={device['id']}&name=P1&name=P2&limit=10")
    assert sorted(o["name"] for o in page["results"]) == ["P1", "P2"]
    _status, page = call(hall, "GET", f"/api/dcim/cables/?device_id={device['id']}&limit=1000&fields=id")
    ends = {n for c in hall.store.data["dcim/cables"].values()
            for k, n in (*c["a_terminations"], *c["b_terminations"])
            if hall.store.data[shapes.OBJECT_TYPES[k]][n].get("device") == device["id"]}
    assert 0 < page["count"] <= len(ends)
    _status, page = call(hall, "GET", f"/api/dcim/racks/?site={site['slug']}&fields=id&limit=1000")
    assert page["count"] == len(hall.store.data["dcim/racks"])
    status, answer = call(hall, "GET", "/api/dcim/racks/?site_id=99999&fields=id")
    assert status == 400 and answer == {"site_id": [("Select a valid choice. 99999 is not one of the available "
                                                    "choices.")]}
    _status, page = call(hall, "GET", "/api/dcim/racks/?bogus=1&fields=id&limit=1")
    assert page["count"] == len(hall.store.data["dcim/racks"])  # an unknown filter is left out, as NetBox does


def test_one_object_by_id_and_netbox_s_404(hall):
    number = next(iter(hall.store.data["dcim/devices"]))
    status, device = call(hall, "GET", f"/api/dcim/devices/{number}/")
    assert status == 200 and list(device) == list(shapes.recorded("devices.one")["response"])
    assert call(hall, "GET", "/api/dcim/devices/99999999/") == (404, shapes.error("not-found"))


def test_a_bad_or_missing_token_is_netbox_s_403(hall):
    assert call(hall, "GET", "/api/status/", token="Token 0000000000000000000000000000000000000000") == (
        403, shapes.error("bad-token"))
    assert call(hall, "GET", "/api/dcim/sites/", token="Bearer nbt_abc.def") == (403, {"detail": "Invalid v2 token"})
    assert call(hall, "GET", "/api/status/", token="") == (
        403, {"detail": "Authentication credentials were not provided."})
    status, answer = call(hall, "GET", "/api/status/")
    assert status == 200 and answer == shapes.recorded("status")["response"]
