"""Emails that survive the mail server's outage: turn emails due while the SMTP server is down
(connection refused) or refusing for now (451) are tried again with backoff and arrive once
each when it is back; kept down past the last attempt, each is given up with a delivery record
saying why, and `turnpost status` counts the deliveries retrying and given up per channel."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
import time
from collections import Counter

import pytest

from store.connection import connect
from store.notifications import NotificationStore
from store.players import PlayerStore
from tests.addresses import ConfirmedPlayers
from tests.e2e.server import Client
from tests.faults.test_faults import World
from tests.peers import SmtpInbox, WebhookReceiver
from transports.safe_urls import UrlPolicy

pytestmark = pytest.mark.slow

RETRIES = {"EMAIL_RETRY_SECONDS": "0.5", "EMAIL_ATTEMPTS": "4"}
"""Attempts after 0.5, 1 and 2 s: given up 3.5 s after the first."""


class RefusingInbox(SmtpInbox):
    """An SMTP server that answers 451 (try again later) to every message while `refusing`."""

    refusing = False

    async def handle_DATA(self, server, session, envelope):
        if self.refusing:
            return "451 4.3.0 mailbox busy, try again later"
        return await super().handle_DATA(server, session, envelope)


@pytest.fixture
def world(tmp_path):
    built = World(tmp_path)
    built.smtp.__exit__(None, None, None)
    built.smtp = RefusingInbox().__enter__()
    yield built
    built.close()


def _games_with_people(world: World, count: int) -> dict[str, tuple[str, str]]:
    """`count` games of a person (their address confirmed) against a bot, the person to move:
    game id -> (player id, address)."""
    service = world.service()
    players = ConfirmedPlayers(PlayerStore(connect(world.url)))
    people = {}
    for i in range(count):
        address = f"p{i}@example.org"
        person = players.register(f"P{i}", email=address)["id"]
        game_id = service.create(person, "nautilus", [person, "bot:heuristic"])["id"]
        people[game_id] = (person, address)
    return people


def _turn_emails(world: World) -> Counter:
    return Counter(
        (message["X-Turnpost-Game"], to)
        for recipients, message, _ in list(world.smtp.messages)
        for to in recipients
        if message["X-Turnpost-Event"] == "turn.started"
    )


def _status(world: World) -> dict:
    printed = subprocess.run(
        [sys.executable, "-m", "turnpost.cli", "status"],
        text=True,
        capture_output=True,
        env={**os.environ, "REDIS_URL": world.url},
        check=True,
        timeout=30,
    ).stdout
    return json.loads(printed)["deliveries"]


def _records(world: World, player_id: str) -> list[dict]:
    return NotificationStore(connect(world.url)).deliveries(player_id, 50)


def _wait(what: str, check, seconds: float):
    deadline = time.monotonic() + seconds
    while True:
        found = check()
        if found:
            return found
        assert time.monotonic() < deadline, what
        time.sleep(0.1)


@pytest.mark.parametrize("outage", ["down", "refusing"])
def test_turn_emails_due_while_smtp_is_away_arrive_once_when_it_is_back(world, outage):
    """The server is stopped (connection refused), or answers 451, while 12 turn emails are
    due; 2.5 s later it is back: every email arrives exactly once (not held back by the
    five-minute throttle window its failed attempt took), the records said `retrying`
    meanwhile, and status counted them."""
    if outage == "down":
        world.smtp.down()
    else:
        world.smtp.refusing = True
    people = _games_with_people(world, 12)
    # attempts up to 63.5 s; the throttle as by default: a failed email leaves its window free
    world.start_worker(EMAIL_RETRY_SECONDS="0.5", EMAIL_ATTEMPTS="8", EMAIL_THROTTLE_SECONDS="300")
    player_id, _ = next(iter(people.values()))
    retrying = _wait(
        "no email was recorded as retrying",
        lambda: [r for r in _records(world, player_id) if r["status"] == "retrying"],
        20,
    )
    assert retrying[0]["channel"] == "email" and "next attempt in" in retrying[0]["detail"]
    counted = _wait(
        "status never counted the retrying emails",
        lambda: _status(world)["retrying"].get("email"),
        20,
    )
    assert 0 < counted <= len(people)
    time.sleep(2.5)
    if outage == "down":
        world.smtp.up()
    else:
        world.smtp.refusing = False
    wanted = {(game_id, address) for game_id, (_, address) in people.items()}
    _wait(
        f"emails missing: {sorted(wanted - set(_turn_emails(world)))}",
        lambda: wanted <= set(_turn_emails(world)),
        30,
    )
    time.sleep(1.0)  # a duplicate would come now
    sent = _turn_emails(world)
    assert max(sent.values()) == 1, [k for k, n in sent.items() if n > 1]
    assert _records(world, player_id)[0]["status"] == "sent"
    assert _wait(
        "the delivered emails are still counted as retrying",
        lambda: _status(world)["retrying"].get("email", 0) == 0,
        10,
    )
    assert _status(world)["given_up"].get("email", 0) == 0


def test_turn_emails_are_given_up_with_the_reason_when_smtp_stays_down(world):
    world.smtp.down()
    people = _games_with_people(world, 5)
    world.start_worker(**RETRIES)
    _wait(
        "status never counted 5 emails given up",
        lambda: _status(world)["given_up"].get("email") == 5,
        30,
    )
    for player_id, _ in people.values():
        records = [r for r in _records(world, player_id) if r["channel"] == "email"]
        assert [r["status"] for r in records] == ["failed", "retrying", "retrying", "retrying"]
        assert [r["attempt"] for r in records] == [4, 3, 2, 1]
        assert "ConnectionRefusedError" in records[0]["detail"]
        assert "given up after 4 attempts" in records[0]["detail"]
    assert _status(world)["retrying"].get("email", 0) == 0
    world.smtp.up()
    time.sleep(2.0)  # nothing given up is sent after all
    assert not _turn_emails(world)


def test_a_failed_webhooks_email_due_while_smtp_is_down_arrives_when_it_is_back(world):
    """A player who takes turns by webhook only (email off): the webhook fails for good, so
    the email stands in for it, while the mail server is down; it is retried like any email
    and arrives once when the server is back."""
    world.smtp.down()
    client = connect(world.url)
    with WebhookReceiver(statuses=[500] * 100) as receiver:
        players = ConfirmedPlayers(
            PlayerStore(client), webhook_urls=UrlPolicy(allow_http=True, allow_loopback=True)
        )
        ada = players.register("Ada", email="ada@example.org", webhook_url=receiver.url)["id"]
        players.update(ada, {"notifications": {"email": False}})
        game_id = world.service().create(ada, "nautilus", [ada, "bot:heuristic"])["id"]
        world.start_worker(
            WEBHOOK_ATTEMPTS="1",
            WEBHOOK_ALLOW_HTTP="1",
            WEBHOOK_ALLOW_LOOPBACK="1",
            EMAIL_RETRY_SECONDS="0.5",
            EMAIL_ATTEMPTS="8",
        )
        _wait(
            "the stand-in email was not recorded as retrying",
            lambda: [
                r
                for r in _records(world, ada)
                if r["channel"] == "email" and r["status"] == "retrying"
            ],
            20,
        )
        assert receiver.requests, "the webhook was tried"
        time.sleep(2.5)
        world.smtp.up()
        world.smtp.wait_for(
            lambda m, rcpt: "ada@example.org" in rcpt and m["X-Turnpost-Game"] == game_id,
            timeout=30,
        )
        time.sleep(1.0)  # a duplicate would come now
    assert len(world.smtp.to("ada@example.org")) == 1
    assert _records(world, ada)[0]["status"] == "fallback"


def test_a_confirmation_letter_due_while_smtp_is_down_is_retried_then_given_up(world):
    """The letter that confirms a new address is the clock's, not a job's: while the mail
    server is down it is tried again with backoff (the clock's other items go on), arrives
    once when the server is back, and is given up, counted, when it stays down."""
    world.smtp.down()
    server = world.start_server()
    world.start_worker(**RETRIES)
    Client(server.url, "Ada", email="ada@example.org")
    _wait(
        "status never counted the letter given up",
        lambda: _status(world)["given_up"].get("sign_in") == 1,
        30,
    )
    Client(server.url, "Bo", email="bo@example.org")
    time.sleep(1.2)  # the first two attempts of Bo's letter fail; the third is due at 1.5 s
    world.smtp.up()
    world.smtp.wait_for(lambda m, rcpt: "bo@example.org" in rcpt, timeout=20)
    time.sleep(2.0)  # a duplicate, or Ada's letter given up, would come now
    assert [len(world.smtp.to(a)) for a in ("ada@example.org", "bo@example.org")] == [0, 1]
    assert _status(world)["given_up"].get("sign_in") == 1


class SilentServer:
    """A TCP server that accepts connections and never answers: a mail server that hangs."""

    def __init__(self, port: int):
        self.sock = socket.create_server(("127.0.0.1", port))
        self.held: list[socket.socket] = []
        self.stopping = threading.Event()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while not self.stopping.is_set():
            try:
                self.held.append(self.sock.accept()[0])
            except OSError:
                return

    def close(self) -> None:
        self.stopping.set()
        self.sock.shutdown(socket.SHUT_RDWR)  # wakes the accept() under way, freeing the port
        self.sock.close()
        for held in self.held:
            held.close()


def test_turn_emails_due_while_smtp_hangs_are_retried_after_its_timeout(world):
    """The mail server accepts connections and says nothing: each attempt ends after
    SMTP_TIMEOUT_SECONDS and is tried again; when a real server is back, every email arrives
    once."""
    world.smtp.down()
    silent = SilentServer(world.smtp.port)
    people = _games_with_people(world, 3)
    world.start_worker(SMTP_TIMEOUT_SECONDS="0.5", EMAIL_RETRY_SECONDS="0.5", EMAIL_ATTEMPTS="8")
    player_id, _ = next(iter(people.values()))
    retrying = _wait(
        "no email was recorded as retrying",
        lambda: [r for r in _records(world, player_id) if r["status"] == "retrying"],
        20,
    )
    assert "timed out" in retrying[0]["detail"]
    silent.close()
    world.smtp.up()
    wanted = {(game_id, address) for game_id, (_, address) in people.items()}
    _wait(
        f"emails missing: {sorted(wanted - set(_turn_emails(world)))}",
        lambda: wanted <= set(_turn_emails(world)),
        30,
    )
    time.sleep(1.0)  # a duplicate would come now
    assert max(_turn_emails(world).values()) == 1
