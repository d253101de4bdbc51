import pytest

from tests.e2e.server import LiveServer


@pytest.fixture(scope="session")
def live_server(valkey):
    """`turnpost serve` (gunicorn, 2 workers) against the session's Valkey."""
    server = LiveServer("--no-worker", redis_url=valkey.url).wait_ready()
    yield server
    server.stop()
