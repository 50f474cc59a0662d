"""A small client of NetBox's REST API (``/api/…``, NetBox 4.x) for ``planner netbox push|pull``.

Only the server the user names is contacted: every request goes to the scheme, host and port of
``url``, on one kept-alive connection, and pagination is counted here (``limit``/``offset``)
rather than by following the ``next`` links the server writes. Lists are written with NetBox's
bulk endpoints: a POST, PATCH or DELETE of a list of objects in one request
(``netbox/netbox/api/viewsets/__init__.py`` NetBoxModelViewSet, ``mixins.py``
BulkUpdateModelMixin, BulkDestroyModelMixin), in chunks small enough for the stock timeouts of
NetBox's production set-up (gunicorn 120 s, nginx 60 s).

The API token is read from a file or the ``NETBOX_TOKEN`` environment variable, never from the
command line (where every user of the machine could read it in the process list). A v1 token is
sent as ``Token <key>``, a v2 token (``nbt_<key>.<secret>``, NetBox 4.5+) as ``Bearer …``
(``users/models/tokens.py`` Token.get_auth_header_prefix); a file may also hold the whole header
value.
"""

from __future__ import annotations

import http.client
import json
import os
import re
import ssl
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any
from urllib.parse import urlencode, urlsplit

#: NetBox's default ceiling of one page (``MAX_PAGE_SIZE``, netbox/netbox/config/parameters.py).
PAGE_SIZE = 1000
#: A bulk write's first chunk, and the server time each chunk aims at: NetBox spends 0.1 s (a
#: cable) to 0.5 s (a switch with its 70 components) on one object, so the chunk is sized from
#: what the last one took, to stay well inside the 60 s nginx timeout of a production NetBox.
FIRST_CHUNK = 50
CHUNK_SECONDS = 15.0
MAX_CHUNK = 1000
TOKEN_ENV = "NETBOX_TOKEN"
#: The longest token file read (a token is 40–80 characters).
MAX_TOKEN_BYTES = 4096
_HEADER_VALUE = re.compile(r"\A(?:(Token|Bearer) )?([\x21-\x7e]{8,1000})\Z")
#: How much of an error body a message quotes.
QUOTED_CHARS = 300


class NetBoxError(Exception):
    """A request failed: the message names the method, the path, NetBox's status and reason."""

    def __init__(self, message: str, status: int = 0) -> None:
        super().__init__(message)
        self.status = status


def read_token(token_file: str | os.PathLike[str] | None, environ: dict[str, str] | None = None) -> str:
    """The ``Authorization`` header value from ``token_file``, else ``$NETBOX_TOKEN``."""
    environ = os.environ if environ is None else environ  # type: ignore[assignment]
    if token_file is not None:
        path = Path(token_file)
        try:
            if path.stat().st_size > MAX_TOKEN_BYTES:
                raise NetBoxError(f"{path}: {path.stat().st_size:,} bytes is not a token file")
            text = path.read_text(encoding="utf-8").strip()
        except (OSError, UnicodeDecodeError) as exc:
            raise NetBoxError(f"cannot read the token file {path}: {getattr(exc, 'strerror', None) or exc}") from None
        where = str(path)
    else:
        text = (environ or {}).get(TOKEN_ENV, "").strip()
        where = f"${TOKEN_ENV}"
        if not text:
            raise NetBoxError(f"no token: give --token-file FILE or set {TOKEN_ENV}")
    found = _HEADER_VALUE.match(text)
    if found is None:
        raise NetBoxError(f"{where}: not a NetBox API token (one line: the key, or 'Token …' / 'Bearer …')")
    prefix, secret = found.groups()
    if prefix:
        return text
    return f"Bearer {secret}" if secret.startswith("nbt_") else f"Token {secret}"


class NetBoxClient:
    """Requests to one NetBox server (module docstring). ``progress`` hears (done, total) of each
    bulk write and each list read."""

    def __init__(self, url: str, token: str, timeout: float = 300.0,
                 progress: Callable[[str, int, int], None] | None = None, parallel: int = 1) -> None:
        parts = urlsplit(url.strip())
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise NetBoxError(f"{url!r} is not a NetBox address (http://host:port or https://host)")
        self.url = f"{parts.scheme}://{parts.netloc}{parts.path.rstrip('/')}"
        self._scheme, self._host, self._port = parts.scheme, parts.hostname, parts.port
        self._root = parts.path.rstrip("/") + "/api/"
        self._token = token
        self._timeout = timeout
        self._local = threading.local()  # one kept-alive connection per thread
        self._lock = threading.Lock()
        #: Bulk-write chunks in flight at once. The command line keeps 1: devices created in two
        #: chunks at once deadlocked in PostgreSQL on NetBox 4.6.8 (gunicorn, 3 workers).
        self.parallel = max(1, parallel)
        self.progress = progress or (lambda _what, _done, _total: None)
        #: Requests made, by method, and the seconds spent waiting on each endpoint.
        self.requests: dict[str, int] = {}
        self.seconds: dict[str, float] = {}

    # ------------------------------------------------------------- requests
    def _connect(self) -> http.client.HTTPConnection:
        connection: http.client.HTTPConnection | None = getattr(self._local, "connection", None)
        if connection is None:
            if self._scheme == "https":
                connection = http.client.HTTPSConnection(self._host, self._port, timeout=self._timeout,
                                                         context=ssl.create_default_context())
            else:
                connection = http.client.HTTPConnection(self._host, self._port, timeout=self._timeout)
            self._local.connection = connection
        return connection

    def request(self, method: str, endpoint: str, params: dict[str, Any] | None = None, body: Any = None) -> Any:
        """One request to ``/api/<endpoint>/``; the decoded JSON answer (None for 204)."""
        path = self._root + endpoint.strip("/") + "/" + (f"?{urlencode(params, doseq=True)}" if params else "")
        data = None if body is None else json.dumps(body).encode("utf-8")
        headers = {"Authorization": self._token, "Accept": "application/json"}
        if data is not None:
            headers["Content-Type"] = "application/json"
        with self._lock:
            self.requests[method] = self.requests.get(method, 0) + 1
        started = time.perf_counter()
        # A kept-alive connection the server closed is opened once more, for a read only: a write
        # the server may have done before it closed is never sent twice.
        for attempt in ((1, 2) if method == "GET" else (2,)):
            connection = self._connect()
            try:
                connection.request(method, path, body=data, headers=headers)
                response = connection.getresponse()
                payload = response.read()
                break
            except (http.client.RemoteDisconnected, BrokenPipeError, ConnectionResetError):
                self.close()
                if attempt == 2:
                    raise NetBoxError(f"{method} {path}: the server closed the connection") from None
            except (OSError, http.client.HTTPException) as exc:
                self.close()
                raise NetBoxError(f"{method} {path}: cannot reach {self.url} ({exc})") from None
        with self._lock:
            self.seconds[endpoint] = self.seconds.get(endpoint, 0.0) + time.perf_counter() - started
        if response.status >= 400:
            raise NetBoxError(f"{method} {path}: NetBox answered {response.status} {response.reason}: "
                              f"{_reason(payload, body)}", response.status)
        if not payload:
            return None
        try:
            return json.loads(payload)
        except ValueError:
            raise NetBoxError(f"{method} {path}: the answer is not JSON (is {self.url} a NetBox?)") from None

    def close(self) -> None:
        connection = getattr(self._local, "connection", None)
        if connection is not None:
            connection.close()
            self._local.connection = None

    # ------------------------------------------------------------- reading
    def version(self) -> str:
        """NetBox's version (``/api/status/``), e.g. ``4.6.8``."""
        status = self.request("GET", "status")
        version = status.get("netbox-version") if isinstance(status, dict) else None
        if not isinstance(version, str):
            raise NetBoxError(f"{self.url}/api/status/ does not say a NetBox version: is it a NetBox?")
        return version

    def get_all(self, endpoint: str, fields: Sequence[str] = (), **filters: Any) -> list[dict[str, Any]]:
        """Every object of ``endpoint`` the filters select, page by page."""
        found: list[dict[str, Any]] = []
        params: dict[str, Any] = {key: value for key, value in filters.items() if value is not None}
        if fields:
            params["fields"] = ",".join(fields)
        while True:
            page = self.request("GET", endpoint, {**params, "limit": PAGE_SIZE, "offset": len(found)})
            if not isinstance(page, dict) or not isinstance(page.get("results"), list):
                raise NetBoxError(f"GET {endpoint}: not a NetBox list (no results)")
            found += page["results"]
            count = page.get("count")
            total = count if isinstance(count, int) else len(found)
            self.progress(endpoint, len(found), total)
            if not page["results"] or len(found) >= total or not page.get("next"):
                return found

    # ------------------------------------------------------------- writing
    def create(self, endpoint: str, objects: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
        """POST ``objects`` in chunks; the created objects, in order, with their ids."""
        return self._bulk("POST", endpoint, objects)

    def update(self, endpoint: str, objects: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
        """PATCH ``objects`` (each with its ``id``) in chunks."""
        return self._bulk("PATCH", endpoint, objects)

    def delete(self, endpoint: str, ids: Iterable[int]) -> None:
        """DELETE the objects of ``ids`` in chunks."""
        self._bulk("DELETE", endpoint, [{"id": number} for number in ids])

    def _bulk(self, method: str, endpoint: str, objects: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
        """Chunks in order, ``parallel`` at a time, each sized from what the last took; the answers
        in the order of ``objects``. The first error stops the rest (the chunks in flight finish)."""
        done: list[dict[str, Any]] = []
        start, size = 0, FIRST_CHUNK
        with ThreadPoolExecutor(max_workers=self.parallel) as pool:
            while start < len(objects):
                chunks = []
                for _ in range(self.parallel if start else 1):  # the first chunk alone, to size the rest
                    if start < len(objects):
                        chunks.append(list(objects[start:start + size]))
                        start += len(chunks[-1])
                began = time.perf_counter()
                answers = list(pool.map(lambda chunk: self.request(method, endpoint, body=chunk), chunks))
                for answer in answers:
                    if isinstance(answer, list):
                        done += answer
                self.progress(endpoint, start, len(objects))
                per_object = (time.perf_counter() - began) * len(chunks) / sum(map(len, chunks))
                size = max(1, min(MAX_CHUNK, int(CHUNK_SECONDS / per_object) if per_object > 0 else MAX_CHUNK))
        return done


def _reason(payload: bytes, body: Any) -> str:
    """NetBox's reason for a refusal: its ``detail``, or the first object errors of a bulk write
    with the name of the object each belongs to (NetBox answers a refused bulk device write with
    the first failing object's errors alone, ``error.device-duplicate.json``: then the names of
    the first and last sent)."""
    try:
        answer = json.loads(payload)
    except ValueError:
        return payload[:QUOTED_CHARS].decode("utf-8", "replace") or "no reason given"
    if isinstance(answer, dict) and "detail" in answer:
        return str(answer["detail"])[:QUOTED_CHARS]
    if isinstance(answer, list) and isinstance(body, list):
        said = []
        for sent, errors in zip(body, answer, strict=False):
            if errors:
                name = sent.get("name") or sent.get("label") or sent.get("id") or "?"
                said.append(f"{name}: {_field_errors(errors)[:QUOTED_CHARS]}")
        return "; ".join(said[:3]) + (f" (and {len(said) - 3} more)" if len(said) > 3 else "") or "no reason given"
    if isinstance(answer, dict) and isinstance(body, list) and body:  # a bulk write NetBox stopped at
        names = [str(s.get("name") or s.get("label") or s.get("id") or "?") for s in body if isinstance(s, dict)]
        who = names[0] if len(names) == 1 else f"one of the {len(names)} sent ({names[0]} … {names[-1]})"
        return f"{who}: {_field_errors(answer)}"[:QUOTED_CHARS]
    return _field_errors(answer)[:QUOTED_CHARS]


def _field_errors(errors: Any) -> str:
    """NetBox's validation errors in words: ``{"name": ["… already exists."]}`` as
    "name: … already exists." (a form-wide error without its ``__all__`` key)."""
    if isinstance(errors, dict):
        return "; ".join(text if field in ("__all__", "non_field_errors") else f"{field}: {text}"
                         for field, value in errors.items() if (text := _field_errors(value)))
    if isinstance(errors, list):
        return " ".join(text for value in errors if (text := _field_errors(value)))
    return " ".join(str(errors).split())
