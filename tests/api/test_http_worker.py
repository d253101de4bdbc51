"""turnpost's gunicorn worker sends an answer's headers and its body in one write (gunicorn
sends them apart: two system calls and two TCP segments for every answer), and still sends a
well-formed answer when there is no body, a body it must not send, or a chunked one."""

from __future__ import annotations

import http.client
import socket

from gunicorn.config import Config
from gunicorn.http.parser import RequestParser

from turnpost.http_worker import OneWriteResponse


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
