"""Email bombing (issue 37): forty registrations with someone else's address and a hundred
sign-in requests for it, from anyone (the limits per client address are off, as for an
attacker with many addresses), bring that address at most SIGN_IN_PER_ADDRESS_PER_HOUR
letters, each naming the accounts that gave it. The API over WSGI, a real `turnpost worker`
sending through a real SMTP server (aiosmtpd) that counts what arrives."""

import time

import pytest

from api.app import create_app
from api.front_door import FrontDoor
from service.settings import Settings
from store import keys
from tests.peers import text_of

VICTIM = "victim@example.org"
LIMIT = 5  # SIGN_IN_PER_ADDRESS_PER_HOUR's default


def drained(redis_client) -> bool:
    """Nothing left in the clock's schedule, due or leased: every letter asked for is sent."""
    pipe = redis_client.pipeline(transaction=False)
    for bucket in range(keys.BUCKETS):
        pipe.zcard(keys.schedule(bucket))
        pipe.zcard(keys.schedule_leased(bucket))
    return not any(pipe.execute())


def wait_drained(redis_client) -> None:
    deadline = time.monotonic() + 60
    while not drained(redis_client):
        assert time.monotonic() < deadline, "the worker did not send the letters"
        time.sleep(0.02)


@pytest.mark.slow
def test_registrations_and_sign_in_requests_bring_an_address_at_most_its_hourly_letters(
    redis_client, smtp, start_workers
):
    """The worst case: each request waits until the worker has sent what it asked for, so
    that no two letters go as one."""
    settings = Settings(public_url="http://turnpost.test")
    assert settings.sign_in_per_address_per_hour == LIMIT
    client = create_app(
        redis_client, settings=settings, front_door=FrontDoor(rate_limits=False)
    ).test_client()
    start_workers(SMTP_URL=smtp.url, PUBLIC_URL="http://turnpost.test")
    for n in range(40):
        r = client.post("/v1/players", json={"name": f"Squatter {n}", "email": VICTIM})
        assert r.status_code == 201
        wait_drained(redis_client)
    asked = []
    for _ in range(100):
        asked.append(client.post("/v1/sign-in", json={"email": VICTIM.upper()}))
        wait_drained(redis_client)
    assert {r.status_code for r in asked} == {429}, "the registrations used the hour's letters"
    assert all(int(r.headers["Retry-After"]) > 0 for r in asked)
    received = smtp.to(VICTIM)
    print(f"\n{VICTIM} received {len(received)} emails (limit {LIMIT} an hour)")
    assert len(received) == LIMIT
    for n, message in enumerate(received):
        assert message["X-Turnpost-Event"] == "sign_in.link"
        assert message["Subject"] == "[turnpost] Confirm your email address"
        assert text_of(message).count("Sign in as Squatter") == n + 1, "it names the accounts"
