"""Errors outside the API (/v1) are pages for a person's browser, chosen by the Accept header:
the site's layout and navigation and plain words, for 404, 405, 429 and 500 alike; programs,
and every address under /v1, keep the API's problem details (code and message)."""

import logging

import pytest
import redis
from redis.backoff import NoBackoff
from redis.retry import Retry

from api.app import create_app
from turnpost.logs import JsonLines

BROWSER = {"Accept": "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"}


@pytest.fixture
def app(redis_client):
    app = create_app(redis_client)

    @app.get("/boom")
    def boom():
        raise RuntimeError("a bug")

    return app


def test_a_browser_gets_a_page_with_the_navigation(app):
    client = app.test_client()
    for method, path, status, words in (
        ("GET", "/no/such/page", 404, "There is no page at this address"),
        ("DELETE", "/lobby", 405, "This page cannot be used that way"),
        ("GET", "/boom", 500, "The server failed, and nothing was changed"),
    ):
        answer = client.open(path, method=method, headers=BROWSER)
        html = answer.get_data(as_text=True)
        assert answer.status_code == status, path
        assert answer.mimetype == "text/html" and words in html, path
        assert 'aria-label="Main"' in html and 'href="/sign-in"' in html, path
        assert "Accept" in answer.headers["Vary"]
    assert "GET" in client.delete("/lobby", headers=BROWSER).headers["Allow"]


def test_programs_and_the_api_keep_json(app):
    client = app.test_client()
    for path, headers in (
        ("/no/such/page", {"Accept": "application/json"}),
        ("/no/such/page", {}),  # no Accept: a program (curl, requests send */*)
        ("/no/such/page", {"Accept": "*/*"}),
        ("/v1/no/such/thing", BROWSER),
    ):
        answer = client.get(path, headers=headers)
        assert answer.status_code == 404 and answer.mimetype == "application/problem+json"
        assert answer.json["code"] == "not_found" and answer.json["message"]
    boom = client.get("/boom", headers={"Accept": "application/json"})
    assert boom.status_code == 500 and boom.json["code"] == "server/error"


def test_a_database_away_is_503_with_retry_after_in_a_line_of_the_log(redis_client, caplog):
    """A store that cannot be reached (a restart, a failover) is "try again", for a program
    and a browser alike: 503 server/unavailable with Retry-After, and one log line without a
    traceback (turnpost.logs formats it)."""
    # nothing listens on port 1; no retries, so each call fails at once
    away = redis.Redis(port=1, socket_connect_timeout=0.2, retry=Retry(NoBackoff(), 0))
    app = create_app(redis_client)

    @app.get("/away")
    def read_while_away():
        return str(away.get("x"))

    client = app.test_client()
    answer = client.get("/away", headers={"Accept": "application/json"})
    assert answer.status_code == 503 and answer.json["code"] == "server/unavailable"
    assert int(answer.headers["Retry-After"]) >= 1 and "again" in answer.json["message"]
    page = client.get("/away", headers=BROWSER)
    assert page.status_code == 503 and page.mimetype == "text/html"
    assert page.headers["Retry-After"] == answer.headers["Retry-After"]
    told = [r for r in caplog.records if "database is away" in r.getMessage()]
    assert told and all("\n" not in JsonLines().format(r) for r in told)
    with pytest.raises(redis.ConnectionError) as lost:  # any logger's line about it too
        away.get("x")
    error = (lost.type, lost.value, lost.tb)
    record = logging.LogRecord("flask-limiter", logging.ERROR, "f", 1, "lost", (), error)
    assert "Traceback" not in JsonLines().format(record)
