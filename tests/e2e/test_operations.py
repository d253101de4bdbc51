"""What an operator reads: Prometheus metrics that count a move, JSON logs in which one move's
request id reaches the worker's lines and its email job, access logs without secrets, a quiet
console by default that says where Redis is, and no gunicorn control socket shared between
two servers on a host. Real `turnpost serve` processes (gunicorn, a worker) on a real Valkey."""

import json
import time
from pathlib import Path

import pytest
import requests
from prometheus_client.parser import text_string_to_metric_families

from store.embedded import EmbeddedValkey
from tests.e2e.server import Client, LiveServer
from tests.peers import SmtpInbox


def sample(server: LiveServer, name: str, **labels) -> float:
    body = requests.get(server.url + "/metrics", timeout=10)
    assert body.status_code == 200 and body.headers["Content-Type"].startswith("text/plain")
    total = 0.0
    for family in text_string_to_metric_families(body.text):
        for s in family.samples:
            if s.name == name and all(s.labels.get(k) == v for k, v in labels.items()):
                total += s.value
    return total


def play_a_round(server: LiveServer, request_id: str | None = None, outgoing=None, **emails):
    """A round of The Nine Domains: Ada lays her cards, then Bo (with `request_id`), which
    fights the round and starts the next: turn emails follow Bo's move (to the addresses
    given, confirmed first through the letters sent to `outgoing`)."""
    # names and addresses of this module alone: the session's Valkey holds other modules' Ada
    # and Bo, and a letter to an address names every account on it
    ada = Client(server.url, "Ada Ops", emails.get("ada"))
    bo = Client(server.url, "Bo Ops", emails.get("bo"))
    if outgoing is not None:
        for person in (ada, bo):
            person.confirm(outgoing)
    bo.befriend(ada)
    game = ada.post("/v1/games", {"game": "ninedomains", "seats": [ada.id, bo.id]}).json()
    for player, rid in ((ada, None), (bo, request_id)):
        legal = player.get(f"/v1/games/{game['id']}/legal-moves").json()
        headers = {**player.headers, **({"X-Request-Id": rid} if rid else {})}
        r = requests.post(
            f"{server.url}/v1/games/{game['id']}/moves",
            headers=headers,
            timeout=30,
            json={"notation": legal["moves"][0]["notation"], "expected_version": legal["version"]},
        )
        assert r.status_code == 201, r.text
    return ada, bo, r


def json_lines(server: LiveServer) -> list[dict]:
    lines = []
    for line in server.printed().splitlines():
        if line.startswith("{"):
            lines.append(json.loads(line))
    return lines


def test_metrics_count_a_move_summed_over_the_gunicorn_processes(live_server):
    before = sample(live_server, "turnpost_moves_total", game="ninedomains")
    requests_before = sample(
        live_server,
        "turnpost_http_requests_total",
        route="/v1/games/<game_id>/moves",
        method="POST",
        status="201",
    )
    for _ in range(3):  # several connections: both gunicorn processes answer some
        play_a_round(live_server)
    assert sample(live_server, "turnpost_moves_total", game="ninedomains") == before + 6
    assert (
        sample(
            live_server,
            "turnpost_http_requests_total",
            route="/v1/games/<game_id>/moves",
            method="POST",
            status="201",
        )
        == requests_before + 6
    )
    assert sample(live_server, "turnpost_redis_up") == 1


@pytest.fixture
def traced(tmp_path):
    """A server on a Valkey of its own: the workers it counts alive are its own."""
    (tmp_path / "valkey").mkdir()
    own = EmbeddedValkey(tmp_path / "valkey", appendonly=False).start()
    with SmtpInbox() as smtp:
        server = LiveServer(
            "--log-level",
            "info",
            redis_url=own.url,
            env={
                "SMTP_URL": f"smtp://127.0.0.1:{smtp.port}",
                "EMAIL_DELAY_SECONDS": "0",
                "EMAIL_THROTTLE_SECONDS": "0",
                "HOME": str(tmp_path),
            },
        ).wait_ready()
        try:
            yield server, smtp
        finally:
            server.stop()
            own.stop()


def test_a_moves_request_id_reaches_the_worker_and_its_email_job(traced):
    server, smtp = traced
    ada, bo, answer = play_a_round(
        server, "trace-the-move-0001", smtp, ada="ada.ops@example.org", bo="bo.ops@example.org"
    )
    assert answer.headers["X-Request-Id"] == "trace-the-move-0001"
    # the worker's log line comes before its email is sent and counted: wait for all three
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        traced_lines = [
            line for line in json_lines(server) if line.get("request_id") == "trace-the-move-0001"
        ]
        loggers = {line["logger"] for line in traced_lines}
        if (
            {"turnpost.access", "turnpost.worker", "turnpost.jobs"} <= loggers
            and smtp.messages
            and sample(server, "turnpost_deliveries_total", channel="email") >= 1
        ):
            break
        time.sleep(0.2)
    else:
        pytest.fail(
            f"the request id did not reach the worker, its job and its email: {traced_lines}"
        )
    access = next(line for line in traced_lines if line["logger"] == "turnpost.access")
    assert access["route"] == "/v1/games/<game_id>/moves" and access["status"] == 201
    assert access["player"] == bo.id
    # what the worker counted reached any API process's /metrics, through Redis (waited above)
    assert sample(server, "turnpost_workers_alive") == 1
    printed = server.printed()
    for client in (ada, bo):
        token = client.headers["Authorization"].split()[1]
        assert token not in printed
    assert "Bearer" not in printed


def test_a_hostile_request_id_is_replaced(live_server):
    r = requests.get(
        live_server.url + "/v1/catalog",
        timeout=10,
        headers={"X-Request-Id": '<script>"quoted" {x}' + "a" * 100},
    )
    assert r.headers["X-Request-Id"].isalnum() and len(r.headers["X-Request-Id"]) == 32


def test_the_console_is_quiet_by_default_and_says_where_redis_is(valkey, tmp_path):
    server = LiveServer(redis_url=valkey.url, env={"HOME": str(tmp_path)}).wait_ready()
    try:
        play_a_round(server)
        time.sleep(2)  # the worker has carried the move out by now
    finally:
        server.stop()
    printed = server.printed()
    host_port = valkey.url.split("//", 1)[1].rstrip("/")
    assert f"using Redis at redis://{host_port}" in printed
    assert not [line for line in json_lines(server) if line["level"] in ("debug", "info")]
    assert "rq.worker" not in printed and "Job OK" not in printed


def test_two_servers_on_a_host_open_no_shared_control_socket(valkey, tmp_path):
    servers = [
        LiveServer("--no-worker", redis_url=valkey.url, env={"HOME": str(tmp_path)})
        for _ in range(2)
    ]
    try:
        for server in servers:
            server.wait_ready()
        assert not (Path(tmp_path) / ".gunicorn").exists()
        assert not list(Path(tmp_path).rglob("*.ctl"))
    finally:
        for server in servers:
            server.stop()
