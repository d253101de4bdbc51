"""Web Push with real parts and no internet: real `turnpost worker` processes and a push
service on loopback (tests/peers.py) that checks each POST's VAPID JWT against the key the
browser subscribed with and decrypts its body with the browser's keys (RFC 8291, aes128gcm)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from openapi_schema_validator import OAS30Validator, validate
from rq import Queue

from service.assembly import assemble
from service.consequences import Delivery
from service.notify.notifications import TURN_STARTED, Notice
from service.settings import Settings
from store.connection import connect
from tests.peers import PushService
from transports import web_push
from transports.safe_urls import UrlPolicy
from workers.queue import QUEUE_NAME, RQDeliveries

DOCUMENT = Path(__file__).resolve().parents[2] / "openapi" / "openapi.json"
PUSH = {"PUSH_DELAY_SECONDS": "0", "PUSH_RETRY_SECONDS": "0.3"}
LOOPBACK = Settings(webhook_allow_http=True, webhook_allow_loopback=True)


def subscribe(redis_client, service, player_id, name, device="Test browser"):
    """What the settings page does: subscribe a browser with the server's key, and keep it."""
    devices = assemble(redis_client, LOOPBACK).push
    service.application_server_key = devices.public_key()
    browser = service.browser(name)
    sub = browser.subscription
    return devices.add(player_id, sub["endpoint"], **sub["keys"], device=device)


def deliveries(redis_client, player_id):
    return assemble(redis_client, LOOPBACK).players.deliveries(player_id, 50)["deliveries"]


def new_game(services, people, game="ninedomains"):
    players, games = services
    players.set_friends(people[1], [people[0]])  # seated without an invitation
    return games.create(people[0], game, people)["id"]


@pytest.mark.slow
def test_a_turn_is_pushed_signed_and_encrypted_for_the_browser_alone(
    services, start_workers, redis_client
):
    players, games = services
    with PushService() as service:
        ada = players.register("Ada")["id"]
        bo = players.register("Bo")["id"]
        kept = subscribe(redis_client, service, bo, "bo-laptop")
        start_workers(PUBLIC_URL="http://turnpost.test", **PUSH)
        game_id = new_game(services, [ada, bo])
        got = service.wait_count(1)  # both seats choose at once: Ada has no device
        time.sleep(0.5)
    assert len(service.requests) == 1, "one message: Bo's"
    message = got[0]
    assert message["problems"] == []
    assert message["vapid_key"] == service.application_server_key
    assert message["claims"]["aud"] == service.origin
    assert message["claims"]["sub"] == "mailto:turnpost@localhost"
    version = games.summary(game_id)["version"]
    assert message["json"] == {
        "title": "The Nine Domains with Ada: your move",
        "body": "It is your move (round 1).",
        "url": f"http://turnpost.test/play/{game_id}",
        "event": "turn.started",
        "game_id": game_id,
        "version": version,
        "tag": game_id,
        "delivery_id": f"push-{game_id}-1-{version}-turn_started",
    }
    assert message["headers"]["Topic"] == game_id
    components = json.loads(DOCUMENT.read_text())["components"]
    validate(
        message["json"],
        {"allOf": [{"$ref": "#/components/schemas/PushMessage"}], "components": components},
        cls=OAS30Validator,
    )
    (record,) = deliveries(redis_client, bo)
    assert (record["channel"], record["status"], record["detail"]) == (
        "push",
        "sent",
        f"to {kept['device']}",
    )


@pytest.mark.slow  # over a second: not in make test-fast
@pytest.mark.parametrize("status", [404, 410])
def test_a_push_service_answering_404_or_410_removes_the_subscription(
    services, start_workers, redis_client, status
):
    players, _ = services
    with PushService(statuses=[status]) as service:
        ada = players.register("Ada")["id"]
        bo = players.register("Bo")["id"]
        gone = subscribe(redis_client, service, bo, "bo-old-phone", "Old phone")
        start_workers(**PUSH)
        new_game(services, [ada, bo])
        service.wait_count(1)
        deadline = time.monotonic() + 10
        while (
            time.monotonic() < deadline
            and assemble(redis_client, LOOPBACK).push.listed(bo)["subscriptions"]
        ):
            time.sleep(0.05)
    assert assemble(redis_client, LOOPBACK).push.listed(bo)["subscriptions"] == []
    (record,) = deliveries(redis_client, bo)
    assert record["status"] == "failed" and "removed" in record["detail"], record
    assert gone["device"] in record["detail"]
    assert len(service.requests) == 1, "never tried again"


@pytest.mark.slow  # over a second: not in make test-fast
def test_a_push_is_checked_again_at_delivery_and_follows_no_redirect():
    """The SSRF guard of webhooks, for push services: an endpoint that is no longer allowed
    (here: loopback, in production) is not connected to, and a push service answering a
    redirect to the server's own network is not followed there."""
    keys = web_push.VapidKeys.make()

    def send(service, policy):
        sub = service.browser("bo").subscription
        return web_push.send(
            web_push.Subscription(sub["endpoint"], **sub["keys"]),
            {"title": "Your move"},
            keys,
            "mailto:turnpost@localhost",
            int(time.time()),
            60,
            2.0,
            policy,
        )

    with PushService() as inside:
        inside_endpoint = inside.browser("x").subscription["endpoint"]
        with PushService(statuses=[302], location=inside_endpoint) as outside:
            refused = send(outside, UrlPolicy(allow_http=True))
            time.sleep(0.2)
            assert (refused.status, refused.detail) == (None, "could not connect")
            assert outside.requests == []
            redirected = send(outside, UrlPolicy(allow_http=True, allow_loopback=True))
            time.sleep(0.2)
    assert redirected.status == 302 and not (redirected.ok or redirected.transient)
    assert len(outside.requests) == 1 and inside.requests == []


@pytest.mark.slow
def test_429_and_5xx_are_tried_again_with_backoff_and_the_retry_after(
    services, start_workers, redis_client
):
    players, _ = services
    with PushService(statuses=[503, 429, 201], retry_after="1") as service:
        ada = players.register("Ada")["id"]
        bo = players.register("Bo")["id"]
        subscribe(redis_client, service, bo, "bo-phone")
        start_workers(**PUSH)
        new_game(services, [ada, bo])
        calls = service.wait_count(3)
        time.sleep(0.3)
    assert [c["status"] for c in service.requests] == [503, 429, 201]
    assert all(c["problems"] == [] for c in calls)
    assert len({c["json"]["delivery_id"] for c in calls}) == 1, "one delivery, three attempts"
    # the service's Retry-After (1 s) beats the backoff (0.3 s, then 0.6 s)
    assert calls[1]["at"] - calls[0]["at"] >= 0.95 and calls[2]["at"] - calls[1]["at"] >= 0.95
    statuses = [(r["status"], r["attempt"]) for r in deliveries(redis_client, bo)]
    assert statuses == [("sent", 3), ("retrying", 2), ("retrying", 1)]


@pytest.mark.slow
def test_a_worker_killed_mid_push_sends_each_device_at_most_once(services, valkey, redis_client):
    """The worker is killed (SIGKILL) while a push service holds its POST to the second of
    three devices; the delivery's job then runs again (as RQ's maintenance queues a dead
    worker's job again). The first and second devices got the message once (the second's
    claim was taken before its POST), the third gets it from the job's second run."""
    players, _ = services
    with PushService() as service:
        ada = players.register("Ada")["id"]
        bo = players.register("Bo")["id"]
        for name in ("first", "second", "third"):
            subscribe(redis_client, service, bo, name, name)
        env = {
            **os.environ,
            "REDIS_URL": valkey.url,
            "WEBHOOK_ALLOW_HTTP": "1",
            "WEBHOOK_ALLOW_LOOPBACK": "1",
            **PUSH,
        }
        worker = subprocess.Popen(
            [sys.executable, "-m", "turnpost.cli", "worker"],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            service.hold_from = 1  # the first POST is answered; the second is held
            game_id = new_game(services, [ada, bo])
            service.wait_count(2)
            os.kill(worker.pid, signal.SIGKILL)
            worker.wait(10)
            service.release.set()
            snap_version = services[1].summary(game_id)["version"]
            notice = Notice(TURN_STARTED, game_id, 1, snap_version)
            # the job again, as RQ queues it again when it finds its worker dead
            RQDeliveries(connect(valkey.url)).queue([Delivery("push", notice)])
            again = subprocess.Popen(
                [sys.executable, "-m", "turnpost.cli", "worker"],
                env=env,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
            try:
                service.wait_count(3)
                deadline = time.monotonic() + 10
                while (
                    time.monotonic() < deadline and Queue(QUEUE_NAME, connection=redis_client).count
                ):
                    time.sleep(0.05)
                time.sleep(1.0)  # a fourth POST would have come by now
            finally:
                again.terminate()
                again.wait(10)
        finally:
            if worker.poll() is None:
                worker.kill()
                worker.wait()
    browsers = [r["browser"] for r in service.requests]
    assert sorted(browsers) == ["first", "second", "third"], browsers
    assert len({r["json"]["delivery_id"] for r in service.requests}) == 1
