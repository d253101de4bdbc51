"""turnpost's gunicorn worker sends an answer's headers and its body in one write (gunicorn
sends them apart: two system calls and two TCP segments for every answer), and still sends a
well-formed answer when there is no body, a body it must not send, or a chunked one. Its
redis-py checks a connection with the system's poll when the check does not wait."""

from __future__ import annotations

import http.client
import select
import socket
import time

import pytest
import redis
from gunicorn.config import Config
from gunicorn.http.parser import RequestParser
from redis._parsers import hiredis

from turnpost.http_worker import OneWriteResponse, SelectForRedis, SettledConfig


class CountingSocket(socket.socket):
    """A real socket that counts the writes made on it."""

    writes = 0

    def sendall(self, data, *args):
        self.writes += 1
        return super().sendall(data, *args)


def answer(request: bytes, status: str, headers: list, chunks: list[bytes]):
    """Serve `request` with OneWriteResponse on one end of a socket pair: (the writes made,
    the answer as http.client reads it at the other end, its body)."""
    ours, theirs = socket.socketpair()
    server = CountingSocket(fileno=ours.detach())
    try:
        theirs.sendall(request)
        cfg = Config()
        parsed = next(iter(RequestParser(cfg, server, ("127.0.0.1", 1))))
        response = OneWriteResponse(parsed, server, cfg)
        response.start_response(status, headers)
        for chunk in chunks:
            response.write(chunk)
        response.close()
        read = http.client.HTTPResponse(theirs, method=parsed.method)
        read.begin()
        body = read.read()
        return server.writes, read, body
    finally:
        server.close()
        theirs.close()


GET = b"GET /v1/catalog HTTP/1.1\r\nHost: x\r\n\r\n"
JSON = [("Content-Type", "application/json"), ("Content-Length", "11")]


def test_a_body_goes_with_its_headers_in_one_write():
    writes, read, body = answer(GET, "200 OK", JSON, [b'{"a": true}'])
    assert writes == 1
    assert read.status == 200 and read.getheader("Content-Type") == "application/json"
    assert body == b'{"a": true}'


def test_an_answer_without_a_body_is_one_write_of_its_headers():
    writes, read, body = answer(GET, "304 Not Modified", [("ETag", '"7"')], [])
    assert (writes, read.status, read.getheader("ETag"), body) == (1, 304, '"7"', b"")


def test_a_head_request_gets_the_headers_alone():
    head = b"HEAD /v1/catalog HTTP/1.1\r\nHost: x\r\n\r\n"
    writes, read, body = answer(head, "200 OK", JSON, [b'{"a": true}'])
    assert (writes, read.status, read.getheader("Content-Length"), body) == (1, 200, "11", b"")


def test_a_body_in_several_parts_arrives_whole():
    headers = [("Content-Type", "text/plain"), ("Content-Length", "7")]
    writes, _, body = answer(GET, "200 OK", headers, [b"one ", b"two"])
    assert writes == 2 and body == b"one two"


def test_an_empty_first_part_sends_the_headers_at_once():
    """An event stream's headers go out before its first event, which may be long in coming."""
    ours, theirs = socket.socketpair()
    try:
        theirs.sendall(GET)
        cfg = Config()
        response = OneWriteResponse(next(iter(RequestParser(cfg, ours, ("", 1)))), ours, cfg)
        response.start_response("200 OK", [("Content-Type", "text/event-stream")])
        response.write(b"")
        theirs.settimeout(5)
        assert theirs.recv(4096).startswith(b"HTTP/1.1 200 OK\r\n")
    finally:
        ours.close()
        theirs.close()


def test_a_chunked_body_arrives_whole():
    _, read, body = answer(GET, "200 OK", [("Content-Type", "text/plain")], [b"a", b"b"])
    assert read.getheader("Transfer-Encoding") == "chunked" and body == b"ab"


def test_a_body_longer_than_it_said_is_cut_where_it_said():
    headers = [("Content-Type", "text/plain"), ("Content-Length", "3")]
    _, _, body = answer(GET, "200 OK", headers, [b"abcdef"])
    assert body == b"abc"


# redis-py's readiness checks in a gevent worker: the system's poll when it does not wait


def test_a_poll_that_does_not_wait_answers_as_the_systems_does():
    """Nothing to read, something to read, and a peer that hung up: the answers redis-py reads
    to hand out a connection or to drop it."""
    ours, theirs = socket.socketpair()
    try:

        def both():
            quick = SelectForRedis().poll()
            quick.register(ours, select.POLLIN)
            system = select.poll()
            system.register(ours, select.POLLIN)
            return quick.poll(0), system.poll(0)

        assert both() == ([], [])
        theirs.sendall(b"+OK\r\n")
        found, expected = both()
        assert found == expected and found[0][1] & select.POLLIN
        ours.recv(16)
        theirs.close()
        found, expected = both()
        assert found == expected and found
    finally:
        ours.close()


def test_a_poll_that_may_wait_is_left_to_the_patched_module(monkeypatch):
    """Only a poll of timeout 0 may bypass gevent: one that waits would stop every greenlet."""
    made = []

    class Recording:
        def __init__(self):
            made.append(self)

        def register(self, fd, eventmask):
            pass

        def poll(self, timeout=None):
            return []

    monkeypatch.setattr(select, "poll", Recording)
    ours, theirs = socket.socketpair()
    try:
        for timeout, gevents in ((0, 0), (50, 1), (None, 2)):
            poller = SelectForRedis().poll()
            poller.register(ours, select.POLLIN)
            poller.poll(timeout)
            assert len(made) == gevents
        assert SelectForRedis().POLLIN == select.POLLIN
    finally:
        ours.close()
        theirs.close()


def test_redis_py_still_tells_a_connection_it_may_not_use(redis_client, monkeypatch):
    """What redis-py's check sees through the system's poll: an idle connection is fine, one
    with an answer waiting is not idle, and one the server closed is refused (the pool then
    connects again before the command)."""
    monkeypatch.setattr(hiredis, "select", SelectForRedis())
    pool = redis_client.connection_pool
    connection = pool.get_connection()
    try:
        assert connection.can_read() is False
        connection.send_command("CLIENT", "ID")
        deadline = time.monotonic() + 5
        while not connection.can_read() and time.monotonic() < deadline:
            time.sleep(0.01)
        client_id = connection.read_response()
        assert connection.can_read() is False
        redis_client.client_kill_filter(_id=client_id)
        deadline = time.monotonic() + 5
        with pytest.raises(redis.ConnectionError):
            while time.monotonic() < deadline:
                connection.can_read()
                time.sleep(0.01)
    finally:
        pool.release(connection)
    assert redis_client.ping()


# gunicorn's settings, read once by a worker


def test_a_worker_reads_each_setting_once_and_as_gunicorn_has_it():
    asked = []

    class Counting(Config):
        def __getattr__(self, name):
            if name != "settings":
                asked.append(name)
            return super().__getattr__(name)

    config = Counting()
    config.set("keepalive", 7)
    config.set("forwarded_allow_ips", "10.0.0.1,10.0.0.2")
    settled = SettledConfig(config)
    for _ in range(3):
        for name in config.settings:
            assert getattr(settled, name) == getattr(config, name), name
    assert settled.keepalive == 7
    assert not settled.is_ssl
    assert [str(n) for n in settled.forwarded_allow_networks()] == ["10.0.0.1/32", "10.0.0.2/32"]
    assert asked.count("keepalive") == 1 + 3  # settled's one read, and the three reads above


def test_redis_py_checks_its_connections_through_the_module_the_worker_replaces(
    redis_client, monkeypatch
):
    """The worker replaces `select` in redis-py's hiredis parser (a private module of redis-py
    8.1): should an upgrade check connections otherwise, this fails rather than the worker
    quietly paying gevent's poll again."""
    polls = []

    class Counting(SelectForRedis):
        class poll(SelectForRedis.poll):  # the name it stands for
            def poll(self, timeout=None):
                polls.append(timeout)
                return super().poll(timeout)

    monkeypatch.setattr(hiredis, "select", Counting())
    redis_client.get("tp:test:polled")
    assert polls and all(timeout == 0 for timeout in polls)
