"""The daily digest with real parts: real `turnpost worker` processes with a day of one second
(DIGEST_DAY_SECONDS), a real SMTP server (aiosmtpd)."""

from __future__ import annotations

import random
import re
import time

import pytest

from service.notify.digest import next_due
from service.players.accounts import PlayerService
from store import keys
from tests.peers import text_of


def turn_emails(smtp, address):
    return [m for m in smtp.to(address) if m["X-Turnpost-Event"] == "turn.started"]


@pytest.mark.slow
def test_twenty_waiting_games_come_in_one_digest_a_day_and_no_turn_email(
    services, start_workers, smtp
):
    players, games = services
    start_workers(SMTP_URL=smtp.url, DIGEST_DAY_SECONDS="1", PUBLIC_URL="http://turnpost.test")
    ada = players.register("Ada", email="ada@example.org")["id"]
    bo = players.register("Bo", email="bo@example.org")["id"]
    players.set_friends(bo, [ada])
    # as the API with DIGEST_DAY_SECONDS=1 would: the first digest a "day" from now
    PlayerService(players.players, digest_day_seconds=1).update(
        bo, {"notifications": {"digest_at": "07:30"}}
    )
    clocks = [3600 + 60 * i for i in range(20)]
    random.Random(36).shuffle(clocks)  # created in another order than their deadlines
    made = [
        games.create(
            ada,
            "ninedomains",  # both seats choose at once: every game waits for Bo from the start
            [ada, bo],
            time_control={"per_move_seconds": seconds, "on_timeout": "auto"},
        )["id"]
        for seconds in clocks
    ]
    by_deadline = [g for _, g in sorted(zip(clocks, made))]
    first = smtp.wait_for(lambda m, rcpt: "bo@example.org" in rcpt, timeout=30)
    assert first["X-Turnpost-Event"] == "digest" and first["X-Turnpost-Games"] == "20"
    assert first["Subject"] == "[turnpost] Your daily digest: 20 games wait for your move"
    body = text_of(first)
    assert re.findall(r"\((g_[0-9a-f]+)\), deadline", body) == by_deadline
    assert body.count("/t/") >= 20, "each game's turn page and one-click moves"
    assert "The game as you see it" not in body and "with Ada" in body
    since = time.monotonic()
    while len(smtp.to("bo@example.org")) < 3 and time.monotonic() - since < 30:
        time.sleep(0.1)  # two more days (each digest of 20 boards takes the worker a while)
    days = time.monotonic() - since
    digests = smtp.to("bo@example.org")
    assert turn_emails(smtp, "bo@example.org") == [], "no email per turn"
    assert all(m["X-Turnpost-Event"] == "digest" for m in digests)
    assert 3 <= len(digests) <= days + 2, (len(digests), days)  # one a day
    assert len({m["X-Turnpost-Delivery"] for m in digests}) == len(digests), "one a day"
    assert len(turn_emails(smtp, "ada@example.org")) == 20, "Ada chose an email per turn"


@pytest.mark.slow
def test_reminders_near_a_deadline_still_come_on_time_with_a_digest(
    services, start_workers, smtp, redis_client
):
    players, games = services
    start_workers(SMTP_URL=smtp.url, DIGEST_DAY_SECONDS="3600")
    while not redis_client.zcard(keys.WORKERS):  # the worker is up (its first heartbeat)
        time.sleep(0.05)
    ada = players.register("Ada", email="ada@example.org")["id"]
    bo = players.register("Bo", email="bo@example.org")["id"]
    players.set_friends(bo, [ada])
    players.update(bo, {"notifications": {"digest_at": "07:30"}})
    started = time.time()
    games.create(
        ada, "ninedomains", [ada, bo], time_control={"per_move_seconds": 4, "on_timeout": "auto"}
    )
    reminders = [
        smtp.wait_for(
            lambda m, rcpt, p=percent: (
                "bo@example.org" in rcpt
                and m["X-Turnpost-Event"] == "turn.reminder"
                and m["X-Turnpost-Delivery"].endswith(f"-{p}")
            ),
            timeout=15,
        )
        for percent in (50, 90)
    ]
    arrived = [t for _, m, t in smtp.messages if m in reminders]
    # due at 2 s and 3.6 s: each before the next is due, the last before the 4 s deadline
    assert arrived[0] - started < 3.6 and arrived[1] - started < 4.0, "on time"
    assert turn_emails(smtp, "bo@example.org") == []


def test_the_next_digest_is_at_the_time_of_day_in_the_players_zone():
    # 2026-11-27 06:00 UTC is 07:00 in Rome: 07:30 there is half an hour later
    now = 1795759200000
    assert next_due(now, "07:30", "Europe/Rome") == now + 30 * 60 * 1000
    assert next_due(now, "06:59", "Europe/Rome") == now + (24 * 60 - 1) * 60 * 1000
    assert next_due(now, "07:30", None) == now + 90 * 60 * 1000  # UTC
    assert next_due(now, "07:30", "Europe/Rome", day_seconds=1) == now + 1000


def test_a_digest_time_that_does_not_read_is_refused(redis_client):
    from api.app import create_app

    client = create_app(redis_client).test_client()
    me = {"Authorization": f"Bearer {client.post('/v1/players', json={'name': 'A'}).json['token']}"}
    for bad in ("7:30", "24:00", "07:60", "noon"):
        r = client.patch("/v1/players/me", json={"notifications": {"digest_at": bad}}, headers=me)
        assert r.status_code == 422 and r.json["code"] == "request/invalid", bad
    r = client.patch("/v1/players/me", json={"notifications": {"digest_at": "07:30"}}, headers=me)
    assert r.status_code == 200 and r.json["notifications"]["digest_at"] == "07:30"
    r = client.patch("/v1/players/me", json={"notifications": {"digest_at": None}}, headers=me)
    assert r.json["notifications"]["digest_at"] is None
