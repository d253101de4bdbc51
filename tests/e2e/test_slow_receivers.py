"""A slow webhook receiver delays only its owner: 8 accounts whose webhooks accept the
connection and never answer keep making games (each one a turn notice for them), while an
honest player with an email and one with a fast webhook play their own games against a bot.
Everything is real: `turnpost serve` (API and one worker), an aiosmtpd server, a loopback
receiver that stalls and one that answers at once."""

import socket
import statistics
import threading
import time

import pytest
import requests

from store.connection import connect
from store.embedded import free_port
from tests.e2e.server import LiveServer, confirm_address
from tests.peers import SmtpInbox, WebhookReceiver
from workers.queue import queue

SLOW_ACCOUNTS = 8
TIMEOUT = 1.0
ATTACK_SECONDS = 24.0
HONEST_BOUND = 15.0
"""Seconds an honest notice may take under the attack, generous for a loaded machine. Each
slow receiver holds the worker once, for the timeout (8 s in all, at the start); without the
cap the honest notices wait behind every slow delivery, and the wait keeps growing."""
SETTLED_AFTER = 14.0
GROWTH_BOUND = 3.0
"""Jobs a second by which the queue may grow once the slow receivers were each found out
(SETTLED_AFTER seconds into the attack; the slope of a line fitted through the queue's
length). Without the cap each slow delivery holds the worker for the timeout, and the queue
grows by nearly the attack's 8 games a second however fast the machine; with it the queue
stays flat, or grows a little while a loaded machine's worker falls behind, and drains. An
absolute bound on its length would measure the machine instead."""


class StallingReceiver:
    """Accepts every connection, reads nothing and never answers."""

    def __init__(self):
        self.sock = socket.create_server(("127.0.0.1", free_port()), backlog=512)
        self.url = f"http://127.0.0.1:{self.sock.getsockname()[1]}/hook"
        self.held: list[socket.socket] = []
        self.stopping = threading.Event()

    def _accept(self):
        self.sock.settimeout(0.2)
        while not self.stopping.is_set():
            try:
                self.held.append(self.sock.accept()[0])
            except OSError:
                continue

    def __enter__(self):
        threading.Thread(target=self._accept, daemon=True).start()
        return self

    def __exit__(self, *exc):
        self.stopping.set()
        for held in self.held:
            held.close()
        self.sock.close()


@pytest.fixture(scope="module")
def stage(valkey):
    with SmtpInbox() as outgoing, StallingReceiver() as stalling, WebhookReceiver() as fast:
        env = {
            "SMTP_URL": outgoing.url,
            "EMAIL_DELAY_SECONDS": "0",
            "EMAIL_THROTTLE_SECONDS": "0",
            "BOT_DELAY_SECONDS": "0",
            "WEBHOOK_ALLOW_HTTP": "1",
            "WEBHOOK_ALLOW_LOOPBACK": "1",
            "WEBHOOK_TIMEOUT_SECONDS": str(TIMEOUT),
            "WEBHOOK_RETRY_SECONDS": "2",
            "RATE_LIMITS": "off",
        }
        server = LiveServer(redis_url=valkey.url, env=env).wait_ready()
        try:
            yield server, outgoing, stalling, fast
        finally:
            server.stop()


def register(server, name, **contact):
    r = requests.post(server.url + "/v1/players", json={"name": name, **contact}, timeout=10)
    assert r.status_code == 201, r.text
    return r.json()["id"], {"Authorization": f"Bearer {r.json()['token']}"}


def test_slow_receivers_delay_only_their_owners(stage, valkey):
    server, outgoing, stalling, fast = stage
    slow = [register(server, f"Slow {n}", webhook_url=stalling.url) for n in range(SLOW_ACCOUNTS)]
    stop = threading.Event()

    def attack(player_id, headers):
        while not stop.is_set():  # each game starts with the slow player's turn
            requests.post(
                server.url + "/v1/games",
                headers=headers,
                timeout=30,
                json={"game": "ninedomains", "seats": [player_id, "bot:random"]},
            )
            stop.wait(1.0)

    attackers = [threading.Thread(target=attack, args=account, daemon=True) for account in slow]
    for thread in attackers:
        thread.start()
    queued = []
    rq = queue(connect(valkey.url))
    began = time.monotonic()

    def watch_queue():
        while not stop.is_set():
            queued.append((time.monotonic() - began, rq.count))
            stop.wait(0.5)

    watcher = threading.Thread(target=watch_queue, daemon=True)
    watcher.start()
    try:
        time.sleep(3)  # the slow accounts' first deliveries are under way
        email_id, email_headers = register(server, "Eve", email="eve.honest@example.org")
        confirm_address(outgoing, server.url, "Eve", "eve.honest@example.org")
        hook_id, hook_headers = register(server, "Hal", webhook_url=fast.url)
        delays = []
        # the attack lasts ATTACK_SECONDS, and longer on a loaded machine until the honest
        # players have six deliveries to judge by (at most three times as long)
        while time.monotonic() - began < ATTACK_SECONDS or (
            len(delays) < 6 and time.monotonic() - began < 3 * ATTACK_SECONDS
        ):
            for player_id, headers in ((email_id, email_headers), (hook_id, hook_headers)):
                started = time.time()
                r = requests.post(
                    server.url + "/v1/games",
                    headers=headers,
                    timeout=30,
                    json={"game": "ninedomains", "seats": [player_id, "bot:random"]},
                )
                assert r.status_code == 201, r.text
                game_id = r.json()["id"]
                if player_id == email_id:
                    outgoing.wait_for(
                        lambda m, rcpt, g=game_id: m["X-Turnpost-Game"] == g, timeout=60
                    )
                else:
                    fast.wait_until(
                        lambda calls, g=game_id: any(c["json"]["game_id"] == g for c in calls),
                        timeout=60,
                    )
                delays.append(time.time() - started)
                time.sleep(0.3)
    finally:
        stop.set()
        for thread in attackers:
            thread.join(30)
        watcher.join(5)
    assert len(stalling.held) >= SLOW_ACCOUNTS, "every slow receiver was tried"
    assert len(delays) >= 6 and max(delays) < HONEST_BOUND, delays
    settled = [(at, count) for at, count in queued if at >= SETTLED_AFTER]
    assert len(settled) >= 8, queued
    growth = statistics.linear_regression(*zip(*settled)).slope
    assert growth < GROWTH_BOUND, (growth, queued)
