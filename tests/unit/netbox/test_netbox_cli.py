"""`planner netbox push|pull` as a user runs them against the fake NetBox: a dry run writes nothing
anywhere, the token comes from a file or the environment and never from the command line, and a
refusal or an answer not shaped as NetBox's is one line and exit 2."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from planner.cli import main
from planner.io import load


def run(capsys, *args) -> tuple[int, str, str]:
    code = main([str(arg) for arg in args])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def plan(pod_file, tmp_path):
    """A copy of the pod's file that a push may write its NetBox ids into."""
    path = tmp_path / "pod.hall"
    path.write_bytes(pod_file.read_bytes())
    return path


@pytest.fixture
def token_file(fake, tmp_path):
    path = tmp_path / "netbox.token"
    path.write_text(fake.token.removeprefix("Token ") + "\n", encoding="utf-8")
    return path


def test_a_dry_run_prints_what_a_push_would_make_and_writes_nothing(capsys, fake, plan, token_file):
    before = plan.read_bytes()
    code, out, err = run(capsys, "netbox", "push", plan, "--url", fake.url, "--token-file", token_file,
                         "--dry-run", "--json")
    assert code == 0, err
    report = json.loads(out)
    doc = load(plan)
    assert report["dry_run"] is True and report["created"]["dcim/devices"] == len(doc.devices) + len(doc.floor_units)
    assert report["created"]["dcim/racks"] == len(doc.racks)
    assert fake.writes() == [] and all(not rows for rows in fake.store.data.values())
    assert plan.read_bytes() == before  # no NetBox ids recorded
    code, out, _err = run(capsys, "netbox", "push", plan, "--url", fake.url, "--token-file", token_file,
                          "--dry-run")
    assert code == 0 and out.startswith(f"Would push site {doc.meta.project!r} to NetBox 4.6")
    assert "  create: " in out


def test_the_token_is_read_from_the_environment_and_the_push_saves_the_ids(capsys, fake, plan, monkeypatch):
    monkeypatch.setenv("NETBOX_TOKEN", fake.token)
    code, out, err = run(capsys, "netbox", "push", plan, "--url", fake.url, "--json")
    assert code == 0, err
    doc = load(plan)
    assert doc.netbox.url == fake.url and len(doc.netbox.ids) >= len(doc.devices) + len(doc.racks)
    assert json.loads(out)["created"]["dcim/devices"] == len(doc.devices) + len(doc.floor_units)
    writes = len(fake.writes())
    code, out, err = run(capsys, "netbox", "push", plan, "--url", fake.url, "--json")
    assert code == 0, err
    assert not any(json.loads(out)["created"].values()) and len(fake.writes()) == writes  # the second push only reads


def test_a_token_on_the_command_line_is_refused_before_any_request(capsys, fake, plan, monkeypatch):
    monkeypatch.delenv("NETBOX_TOKEN", raising=False)
    secret = fake.token.removeprefix("Token ")
    with pytest.raises(SystemExit) as stopped:  # argparse: not an abbreviation of --token-file
        main(["netbox", "push", str(plan), "--url", fake.url, "--token", secret])
    assert stopped.value.code == 2
    _out, err = capsys.readouterr()
    assert "unrecognized arguments: --token" in err
    assert fake.requests == []


def test_no_token_or_a_wrong_one_is_one_line_and_exit_2(capsys, fake, plan, tmp_path, monkeypatch):
    monkeypatch.delenv("NETBOX_TOKEN", raising=False)
    code, _out, err = run(capsys, "netbox", "push", plan, "--url", fake.url)
    assert code == 2 and err.count("\n") == 1 and "no token: give --token-file FILE or set NETBOX_TOKEN" in err
    wrong = tmp_path / "wrong.token"
    wrong.write_text("f" * 40, encoding="utf-8")
    code, _out, err = run(capsys, "netbox", "pull", "--url", fake.url, "--token-file", wrong, "--site", "x",
                          "-o", tmp_path / "out.hall")
    assert code == 2 and err.count("\n") == 1 and "NetBox answered 403" in err and "f" * 40 not in err
    assert not (tmp_path / "out.hall").exists()


def test_a_refused_cable_names_the_cable_and_netbox_s_reason(capsys, fake, plan, token_file):
    reason = {"status": ["Cable of this kind is held for review."]}
    fake.store.refusals.append(("dcim/cables", lambda values: True, reason))
    before = plan.read_bytes()
    code, _out, err = run(capsys, "netbox", "push", plan, "--url", fake.url, "--token-file", token_file)
    assert code == 2 and err.count("\n") == 1, err
    assert "POST /api/dcim/cables/: NetBox answered 400" in err and "held for review" in err
    assert "R01-U01-N1-P1 ↔ R05-U01-L1-1/1: status: Cable of this kind is held for review." in err
    assert "(and 47 more)" in err and "[" not in err.split("NetBox answered 400")[1]  # words, not NetBox's JSON
    assert plan.read_bytes() == before
    assert fake.store.data["dcim/devices"] and not fake.store.data["dcim/cables"]


class _NotNetBox(BaseHTTPRequestHandler):
    """Says it is NetBox 4.6, then answers every list with objects of the wrong shapes."""

    def do_GET(self) -> None:
        if self.path.startswith("/api/status/"):
            body: object = {"netbox-version": "4.6.8"}
        else:
            body = {"count": 1, "next": None, "previous": None,
                    "results": [{"id": "seven", "name": 7, "slug": ["x"], "site": "nowhere", "rack": 3}]}
        data = json.dumps(body).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *_args: object) -> None:
        pass


def test_a_pull_from_a_server_not_shaped_as_netbox_is_one_line_and_exit_2(capsys, tmp_path, token_file):
    server = ThreadingHTTPServer(("127.0.0.1", 0), _NotNetBox)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        url = f"http://127.0.0.1:{server.server_address[1]}"
        code, _out, err = run(capsys, "netbox", "pull", "--url", url, "--token-file", token_file, "--site", "x",
                              "-o", tmp_path / "out.hall")
    finally:
        server.shutdown()
        server.server_close()
    assert code == 2 and err.count("\n") == 1, err
    assert f"{url}: an answer is not shaped as NetBox 4.x answers" in err
    assert not (tmp_path / "out.hall").exists()


def test_a_push_to_a_server_not_shaped_as_netbox_is_one_line_and_exit_2(capsys, plan, token_file):
    server = ThreadingHTTPServer(("127.0.0.1", 0), _NotNetBox)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    before = plan.read_bytes()
    try:
        url = f"http://127.0.0.1:{server.server_address[1]}"
        code, _out, err = run(capsys, "netbox", "push", plan, "--url", url, "--token-file", token_file, "--dry-run")
    finally:
        server.shutdown()
        server.server_close()
    assert code == 2 and err.count("\n") == 1, err
    assert f"{url}: an answer is not shaped as NetBox 4.x answers" in err
    assert plan.read_bytes() == before


def test_ids_the_plan_format_would_refuse_leave_the_plan_as_it_was(capsys, fake, plan, token_file):
    before = plan.read_bytes()
    fake.store._next = 10**13  # a server answering 14-digit ids (the .hall format holds up to 12)
    code, _out, err = run(capsys, "netbox", "push", plan, "--url", fake.url, "--token-file", token_file)
    assert code == 2 and "NetBox answered ids the plan cannot hold" in err and err.count("\n") == 1
    assert plan.read_bytes() == before


def test_a_refused_device_names_the_device_and_each_field_s_error(capsys, fake, plan, token_file):
    reason = {"name": ["Device name must be unique per site."], "__all__": ["Check the rack."]}
    fake.store.refusals.append(("dcim/devices", lambda values: values.get("name") == "R01-N1", reason))
    code, _out, err = run(capsys, "netbox", "push", plan, "--url", fake.url, "--token-file", token_file)
    assert code == 2 and err.count("\n") == 1, err
    # NetBox answers a bulk device write with the first failing device's errors alone
    assert ": name: Device name must be unique per site.; Check the rack." in err
    assert "NetBox answered 400 Bad Request: one of the " in err and " sent (R01-" in err


def test_no_modules_pushes_the_hall_without_its_transceivers(capsys, fake, plan, token_file):
    code, out, err = run(capsys, "netbox", "push", plan, "--url", fake.url, "--token-file", token_file,
                         "--no-modules", "--json")
    assert code == 0, err
    report = json.loads(out)
    assert not fake.store.data["dcim/modules"] and not fake.store.data["dcim/module-types"]
    assert fake.store.data["dcim/module-bays"]  # the types' bays are there for a later push
    assert "transceiver modules left out (--no-modules)" in report["notes"]
    code, out, err = run(capsys, "netbox", "push", plan, "--url", fake.url, "--token-file", token_file, "--json")
    assert code == 0, err
    assert json.loads(out)["created"]["dcim/modules"] == len(fake.store.data["dcim/modules"]) > 0
