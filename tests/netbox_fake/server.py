"""The fake NetBox's HTTP side: a ThreadingHTTPServer on 127.0.0.1 at a free port that answers
the REST API as NetBox 4.6 does (``/api/status/``, the list, bulk and single-object endpoints of
``shapes.ENDPOINTS``), checks the ``Authorization`` header, and records every request."""

from __future__ import annotations

import json
import threading
import traceback
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Self
from urllib.parse import parse_qsl, urlencode, urlsplit

from . import shapes
from .render import Renderer
from .schema import CABLED, CABLES, DEVICES, PLAIN_FILTERS, REFS, SITES
from .store import Refusal, Store

#: NetBox's PAGINATE_COUNT and MAX_PAGE_SIZE defaults.
PAGE_DEFAULT, PAGE_MAX = 50, 1000
NOT_FILTERS = {"limit", "offset", "fields", "brief", "ordering", "format", "exclude", "omit"}


@dataclass
class Request:
    method: str
    path: str
    query: str
    status: int
    sent: int
    answered: int
    host: str
    #: How many objects the body held when it was a JSON list (a bulk write), else None.
    objects: int | None = None


class FakeNetBox:
    """A stateful NetBox on the loopback (module docstring). ``token`` is the ``Authorization``
    header value it accepts (``Token <key>`` or ``Bearer nbt_…``)."""

    def __init__(self, token: str = "Token 0123456789abcdef0123456789abcdef01234567") -> None:
        self.token = token
        self.store = Store()
        self.requests: list[Request] = []
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(self))
        self._server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}"
        self.render = Renderer(self.store, self.url)
        self._thread = threading.Thread(target=self._server.serve_forever, name="fake-netbox", daemon=True)

    def start(self) -> FakeNetBox:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(5)

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, *_exc: object) -> None:
        self.stop()

    # --------------------------------------------------------------- for tests
    def writes(self) -> list[Request]:
        return [r for r in self.requests if r.method != "GET"]

    def objects(self, endpoint: str) -> list[dict[str, Any]]:
        """Every object of ``endpoint`` as a GET of it answers (full shape)."""
        with self.store.lock:
            return [self.render.full(endpoint, obj) for obj in self.store.data[endpoint].values()]

    def count(self, endpoint: str, **where: Any) -> int:
        with self.store.lock:
            return sum(all(o.get(k) == v for k, v in where.items()) for o in self.store.data[endpoint].values())

    # --------------------------------------------------------------- answers
    def answer(self, method: str, target: str, headers: Any, body: bytes) -> tuple[int, Any]:
        parts = urlsplit(target)
        refused = self._authorize(headers.get("Authorization"))
        if refused is not None:
            return 403, {"detail": refused}
        path = parts.path
        if not path.startswith("/api/") or not path.endswith("/"):
            return 404, {"detail": "Not found."}
        if path == "/api/status/" and method == "GET":
            return 200, shapes.recorded("status")["response"]
        steps = path[len("/api/"):-1].split("/")
        endpoint = "/".join(steps[:2])
        if endpoint not in shapes.ENDPOINTS or len(steps) > 3:
            return 404, {"detail": "Not found."}
        number = steps[2] if len(steps) == 3 else None
        if number is not None and not number.isdigit():
            return 404, {"detail": "Not found."}
        try:
            data = json.loads(body) if body else None
        except ValueError as exc:
            return 400, {"detail": f"JSON parse error - {exc}"}
        query = parse_qsl(parts.query, keep_blank_values=True)
        try:
            with self.store.lock:
                return self._answer(method, endpoint, None if number is None else int(number), query, data)
        except Refusal as refusal:
            return refusal.status, refusal.body

    def _authorize(self, header: str | None) -> str | None:
        if header == self.token:
            return None
        if not header:
            return "Authentication credentials were not provided."
        if header.startswith("Bearer "):
            return "Invalid v2 token"
        if header.startswith("Token "):
            return shapes.error("bad-token")["detail"]
        return 'Invalid authorization header: Must be in the form "Bearer <key>.<token>" or "Token <token>"'

    def _answer(self, method: str, endpoint: str, number: int | None, query: list[tuple[str, str]],
                data: Any) -> tuple[int, Any]:
        store, render = self.store, self.render
        if number is not None:
            obj = store.get(endpoint, number)
            if obj is None:
                return 404, {"detail": f"No {_model(endpoint)} matches the given query."}
            if method == "GET":
                return 200, self._shaped(endpoint, obj, query)
            if method in ("PATCH", "PUT"):
                done = store.update(endpoint, [{**(data or {}), "id": number}])
                return 200, render.full(endpoint, done[0])
            if method == "DELETE":
                store.delete(endpoint, [{"id": number}])
                return 204, None
            return 405, {"detail": f'Method "{method}" not allowed.'}
        if method == "GET":
            return self._list(endpoint, query)
        if method == "POST":
            made = store.create(endpoint, data if isinstance(data, list) else [data])
            shaped = [render.full(endpoint, obj) for obj in made]
            return 201, shaped if isinstance(data, list) else shaped[0]
        if method in ("PATCH", "PUT") and isinstance(data, list):
            return 200, [render.full(endpoint, obj) for obj in store.update(endpoint, data)]
        if method == "DELETE" and isinstance(data, list):
            store.delete(endpoint, data)
            return 204, None
        return 405, {"detail": f'Method "{method}" not allowed.'}

    def _shaped(self, endpoint: str, obj: dict[str, Any], query: list[tuple[str, str]]) -> dict[str, Any]:
        params = dict(query)
        if params.get("brief", "").lower() in ("1", "true", "yes"):
            return self.render.brief(endpoint, obj)
        fields = {name.strip() for name in params.get("fields", "").split(",") if name.strip()}
        return self.render.full(endpoint, obj, fields or None)

    def _list(self, endpoint: str, query: list[tuple[str, str]]) -> tuple[int, Any]:
        found = list(self.store.data[endpoint].values())
        filters: dict[str, list[str]] = {}
        for key, value in query:
            if key not in NOT_FILTERS:
                filters.setdefault(key, []).append(value)
        for key, values in filters.items():
            found = self._filter(endpoint, found, key, values)
        params = dict(query)
        try:
            limit = int(params.get("limit", PAGE_DEFAULT))
            offset = max(0, int(params.get("offset", 0)))
        except ValueError:
            limit, offset = PAGE_DEFAULT, 0
        limit = PAGE_MAX if limit <= 0 else min(limit, PAGE_MAX)
        page = found[offset:offset + limit]

        def link(at: int | None) -> str | None:
            if at is None:
                return None
            kept = [(k, v) for k, v in query if k != "offset"] + ([("offset", str(at))] if at > 0 else [])
            return f"{self.url}/api/{endpoint}/?{urlencode(sorted(kept))}"
        following = offset + limit if offset + limit < len(found) else None
        before = max(0, offset - limit) if offset > 0 else None
        return 200, {"count": len(found), "next": link(following), "previous": link(before),
                     "results": [self._shaped(endpoint, obj, query) for obj in page]}

    def _filter(self, endpoint: str, found: list[dict[str, Any]], key: str,
                values: list[str]) -> list[dict[str, Any]]:
        store = self.store
        refs = REFS.get(endpoint, {})
        field, by_id = (key[:-3], True) if key.endswith("_id") else (key, False)
        if key == "id":
            wanted = {int(v) for v in values if v.isdigit()}
            return [o for o in found if o["id"] in wanted]
        if key in PLAIN_FILTERS:
            return [o for o in found if str(o.get(key)) in values]
        derived = {"site": SITES, "device": DEVICES} if endpoint in (*CABLED, CABLES) else {}
        target = refs.get(field) or derived.get(field)
        if target is None:
            return found  # NetBox leaves out a filter it does not know
        ids = set()
        for value in values:
            if by_id:
                match = [int(value)] if value.isdigit() and store.get(target, int(value)) else []
            else:
                match = [o["id"] for o in store.data[target].values() if value in (o.get("slug"), o.get("name"))]
            if not match:
                raise Refusal(400, {key: [f"Select a valid choice. {value} is not one of the available choices."]})
            ids.update(match)
        if field in refs:
            return [o for o in found if o.get(field) in ids]
        if field == "site":
            return [o for o in found if store.site_of(endpoint, o) & ids]
        if endpoint == CABLES:  # device: a cable with an end on one of the devices
            return [o for o in found if any(store.data[shapes.OBJECT_TYPES[k]][n].get("device") in ids
                                            for k, n in (*o["a_terminations"], *o["b_terminations"]))]
        return found


def _model(endpoint: str) -> str:
    """A model's name as NetBox's 404 says it (``No Device matches the given query.``)."""
    name = endpoint.split("/")[1]
    return "".join(part.capitalize() for part in name.split("-"))[:-1]


def _handler(fake: FakeNetBox) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *_args: Any) -> None:
            return

        def _any(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length) if length else b""
            try:
                status, answer = fake.answer(self.command, self.path, self.headers, body)
                payload = b"" if answer is None else json.dumps(answer).encode("utf-8")
                kind = "application/json"
            except Exception:  # noqa: BLE001 -- a bug of the fake: a 500 with the traceback, as Django's debug page
                status, payload, kind = 500, traceback.format_exc().encode("utf-8"), "text/plain"
            parts = urlsplit(self.path)
            try:
                listed = json.loads(body) if body else None
            except ValueError:
                listed = None
            fake.requests.append(Request(self.command, parts.path, parts.query, status, len(body), len(payload),
                                         self.headers.get("Host", ""),
                                         len(listed) if isinstance(listed, list) else None))
            self.send_response(status)
            if payload:
                self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)

        do_GET = do_POST = do_PATCH = do_PUT = do_DELETE = do_OPTIONS = _any

    return Handler
