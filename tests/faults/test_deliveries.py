"""Deliveries that survive an outage: emails being sent when Valkey is killed (SIGKILL) and
started again on its data are all delivered afterwards, exactly once."""

from __future__ import annotations

import asyncio
import time
from collections import Counter

import pytest

from store.connection import connect
from store.players import PlayerStore
from tests.addresses import ConfirmedPlayers
from tests.faults.test_faults import World
from tests.peers import SmtpInbox

pytestmark = pytest.mark.slow


class SlowInbox(SmtpInbox):
    """An SMTP server that takes 50 ms over each message, so that a batch is under way for
    a while."""

    async def handle_DATA(self, server, session, envelope):
        await asyncio.sleep(0.05)
        return await super().handle_DATA(server, session, envelope)


@pytest.fixture
def world(tmp_path):
    built = World(tmp_path)
    built.smtp.__exit__(None, None, None)
    built.smtp = SlowInbox().__enter__()
    yield built
    built.close()


def test_emails_under_way_when_valkey_is_killed_are_all_sent_once(world):
    service = world.service()
    players = ConfirmedPlayers(PlayerStore(connect(world.url)))  # their addresses proven
    people = {}
    for i in range(40):
        person = players.register(f"P{i}", email=f"p{i}@example.org")["id"]
        game_id = service.create(person, "nautilus", [person, "bot:heuristic"])["id"]
        people[game_id] = f"p{i}@example.org"
    world.start_worker()
    deadline = time.monotonic() + 30
    while len(world.smtp.messages) < 3:
        assert time.monotonic() < deadline, "no email went"
        time.sleep(0.01)
    world.kill_valkey_and_restart(down_seconds=2.0)
    deadline = time.monotonic() + 90
    while True:
        sent = Counter(
            (message["X-Turnpost-Game"], to)
            for recipients, message, _ in list(world.smtp.messages)
            for to in recipients
            if message["X-Turnpost-Event"] == "turn.started"
        )
        missing = [g for g, address in people.items() if (g, address) not in sent]
        if not missing or time.monotonic() > deadline:
            break
        time.sleep(0.5)
    assert not missing, f"{len(missing)} of {len(people)} turn emails never sent"
    assert max(sent.values()) == 1, [k for k, n in sent.items() if n > 1]
