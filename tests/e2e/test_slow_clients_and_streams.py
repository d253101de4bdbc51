"""Slow clients and long streams against a real `turnpost serve`, with real sockets: slow
connections are cut at their deadline and never stop other requests; an idle event stream
outlives every timeout on its path; a finished game's stream answers 204; a player may hold
only a few streams open."""

import contextlib
import socket
import threading
import time

import pytest
import requests

from tests.e2e.server import Client, LiveServer

HEADER_TIMEOUT, BODY_TIMEOUT, STREAMS_PER_PLAYER = 3, 4, 3


@pytest.fixture(scope="module")
def server(valkey):
    server = LiveServer(
        "--no-worker",
        redis_url=valkey.url,
        env={
            "HEADER_TIMEOUT_SECONDS": str(HEADER_TIMEOUT),
            "BODY_TIMEOUT_SECONDS": str(BODY_TIMEOUT),
            "STREAMS_PER_PLAYER": str(STREAMS_PER_PLAYER),
        },
    ).wait_ready()
    yield server
    server.stop()


def raw(server, request: bytes) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", server.port), timeout=30)
    sock.sendall(request)
    return sock


def answer_or_close(sock: socket.socket, within: float) -> bytes | None:
    """What the server sent before closing, b"" for a bare close, None if it is still open."""
    sock.settimeout(within)
    received = b""
    try:
        while chunk := sock.recv(4096):
            received += chunk
    except TimeoutError:
        return None
    except ConnectionResetError:
        pass
    return received


def test_64_slow_connections_are_cut_and_never_stop_other_requests(server):
    slow_headers = [raw(server, b"GET /v1/catalog HTTP/1.1\r\nHost: x\r\n") for _ in range(32)]
    slow_bodies = [
        raw(
            server,
            b"POST /v1/players HTTP/1.1\r\nHost: x\r\nContent-Type: "
            b"application/json\r\nContent-Length: 1000\r\n\r\n{",
        )
        for _ in range(32)
    ]
    opened = time.monotonic()
    stop = threading.Event()

    def trickle():  # one byte every 2 seconds on every slow connection
        while not stop.wait(2):
            for sock in slow_headers + slow_bodies:
                with contextlib.suppress(OSError):
                    sock.send(b"X" if sock in slow_headers else b" ")

    trickler = threading.Thread(target=trickle)
    trickler.start()
    try:
        for _ in range(20):
            started = time.monotonic()
            assert requests.get(server.url + "/v1/catalog", timeout=5).status_code == 200
            assert time.monotonic() - started < 1.0
            time.sleep(0.2)
        cut = [
            answer_or_close(sock, max(0.1, opened + BODY_TIMEOUT + 3 - time.monotonic()))
            for sock in slow_headers + slow_bodies
        ]
    finally:
        stop.set()
        trickler.join()
        for sock in slow_headers + slow_bodies:
            sock.close()
    assert all(answer is not None for answer in cut), "a slow connection outlived its deadline"
    assert all(
        answer.startswith(b"HTTP/1.1 408") and b'"request/timeout"' in answer for answer in cut[32:]
    )
    assert all(not answer.startswith(b"HTTP/1.1 2") for answer in cut[:32])


def nine_domains(base):
    a, b = Client(base, "Ada"), Client(base, "Bo")
    b.befriend(a)
    game_id = a.post("/v1/games", {"game": "ninedomains", "seats": [a.id, b.id]}).json()["id"]
    return game_id, a, b


def open_stream(server, client, game_id, last_event_id=None) -> socket.socket:
    extra = f"Last-Event-ID: {last_event_id}\r\n" if last_event_id is not None else ""
    return raw(
        server,
        (
            f"GET /v1/games/{game_id}/stream HTTP/1.1\r\nHost: x\r\n"
            f"Authorization: {client.headers['Authorization']}\r\n{extra}\r\n"
        ).encode(),
    )


def read_for(sock: socket.socket, seconds: float) -> bytes:
    """Everything the server sends in the next `seconds` (the socket stays open)."""
    deadline, received = time.monotonic() + seconds, b""
    while (left := deadline - time.monotonic()) > 0:
        sock.settimeout(left)
        try:
            chunk = sock.recv(65536)
        except TimeoutError:
            break
        if not chunk:
            raise AssertionError("the server closed the stream: " + received.decode())
        received += chunk
    return received


def test_idle_stream_outlives_every_timeout_and_gets_keepalives(server):
    game_id, a, _b = nine_domains(server.url)
    sock = open_stream(server, a, game_id, last_event_id=2)
    try:
        first = read_for(sock, 1.0)  # headers and the retry hint come at once
        assert first.startswith(b"HTTP/1.1 200")
        assert b"text/event-stream" in first and b"\r\nretry: 3000\n\n\r\n" in first
        # idle past redis-py's 5 s read timeout, the header and body deadlines, and one
        # keep-alive interval (15 s)
        idle = read_for(sock, 20.0)
        assert idle.count(b": keep-alive\n\n") == 1 and b"event:" not in idle
        move = a.get(f"/v1/games/{game_id}/legal-moves").json()["moves"][0]
        assert (
            a.post(
                f"/v1/games/{game_id}/moves", {"action": move["action"], "expected_version": 2}
            ).status_code
            == 201
        )
        assert b"id: 3\nevent: ActionTaken\n" in read_for(sock, 2.0)
    finally:
        sock.close()


def test_finished_game_stream_ends_then_answers_204(server):
    game_id, a, _ = nine_domains(server.url)
    assert a.post(f"/v1/games/{game_id}/resign").status_code == 200
    last = a.get(f"/v1/games/{game_id}").json()["version"]
    with a.get(f"/v1/games/{game_id}/stream", stream=True) as replay:
        assert replay.status_code == 200
        assert f"id: {last}\nevent: GameEnded\n" in replay.text  # ends by itself
    done = requests.get(
        f"{server.url}/v1/games/{game_id}/stream",
        timeout=10,
        headers={**a.headers, "Last-Event-ID": str(last)},
    )
    assert done.status_code == 204 and done.content == b""


def test_a_player_holds_only_a_few_streams(server):
    game_id, a, _ = nine_domains(server.url)
    other_game, _, _ = nine_domains(server.url)
    streams = [open_stream(server, a, game_id, last_event_id=2) for _ in range(STREAMS_PER_PLAYER)]
    try:
        for sock in streams:
            assert read_for(sock, 1.0).startswith(b"HTTP/1.1 200")
        refused = a.get(f"/v1/games/{other_game}/stream", stream=True)
        assert refused.status_code == 429 and refused.json()["code"] == "stream/too_many"
        assert int(refused.headers["Retry-After"]) >= 1
        assert a.post(f"/v1/games/{game_id}/resign").status_code == 200  # the streams end
        for sock in streams:
            assert answer_or_close(sock, 5.0) is not None
        with a.get(f"/v1/games/{other_game}/stream", stream=True) as again:
            assert again.status_code == 200
    finally:
        for sock in streams:
            sock.close()
