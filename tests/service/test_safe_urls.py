"""Webhook URLs cannot reach the server's own network: refused when set (through the API) and
checked again at delivery, which follows no redirect and tells a closed port, a silent one and
a slow one apart by nothing. Real HTTP receivers on loopback."""

import base64
import socket
import time

import pytest

from api.app import create_app
from service.notify import webhooks
from service.settings import Settings
from store.embedded import free_port
from tests.peers import WebhookReceiver
from transports.safe_urls import UnsafeUrl, UrlPolicy

INTERNAL = [
    "https://127.0.0.1/hook",
    "https://localhost:8000/hook",
    "https://[::1]/hook",
    "https://10.1.2.3/hook",
    "https://172.16.0.1/hook",
    "https://192.168.1.1/hook",
    "https://169.254.169.254/latest/meta-data/",
    "https://100.64.0.1/hook",
    "https://0.0.0.0/hook",
    "https://224.0.0.1/hook",
    "https://240.0.0.1/hook",
    "https://[::ffff:127.0.0.1]/hook",
    "https://[fe80::1]/hook",
    "https://[fc00::1]/hook",
    "https://127.1/hook",
    "https://2130706433/hook",
    "https://0x7f000001/hook",
    "http://93.184.215.14/hook",
    "ftp://93.184.215.14/hook",
    "https://no.such.host.invalid/x",
    "https://user:pw@93.184.215.14/hook",
    "https:///nohost",
]
LOOPBACK_FOR_TESTS = UrlPolicy(allow_http=True, allow_loopback=True)


def test_internal_and_non_https_webhooks_are_refused_when_set(redis_client):
    client = create_app(redis_client).test_client()
    for url in INTERNAL:
        r = client.post("/v1/players", json={"name": "Mallory", "webhook_url": url})
        assert r.status_code == 422, url
        assert r.json["code"] in ("player/unsafe_webhook", "request/invalid"), url
    r = client.post("/v1/players", json={"name": "Mallory"})
    headers = {"Authorization": f"Bearer {r.json['token']}"}
    for url in INTERNAL:
        r = client.patch("/v1/players/me", json={"webhook_url": url}, headers=headers)
        assert r.status_code == 422, url
    assert client.get("/v1/players/me", headers=headers).json["webhook_url"] is None


def test_public_https_passes_and_the_development_settings_allow_only_loopback():
    assert UrlPolicy().check("https://93.184.215.14:8443/hook?a=1").address == "93.184.215.14"
    LOOPBACK_FOR_TESTS.check("http://127.0.0.1:9/hook")
    for url in ("http://10.1.2.3/hook", "http://169.254.169.254/", "http://[fe80::1]/"):
        with pytest.raises(UnsafeUrl):
            LOOPBACK_FOR_TESTS.check(url)


SECRET = "whsec_" + base64.b64encode(bytes(range(32))).decode()  # the standard's encoding


def deliver(url, policy=LOOPBACK_FOR_TESTS, timeout=2.0):
    return webhooks.post(
        url,
        SECRET,
        "turn.started",
        "d1",
        {"event": "turn.started"},
        int(time.time()),
        timeout,
        policy,
    )


@pytest.mark.slow
def test_delivery_checks_the_address_again():
    with WebhookReceiver() as receiver:
        result = deliver(receiver.url, UrlPolicy(allow_http=True))  # loopback now refused
        assert (result.status, result.detail) == (None, "could not connect")
        time.sleep(0.2)
        assert receiver.requests == []
        assert deliver(receiver.url).detail == "delivered"


@pytest.mark.slow  # over a second: not in make test-fast
def test_redirects_are_not_followed():
    with (
        WebhookReceiver() as inside,
        WebhookReceiver(statuses=[302], location=inside.url) as outside,
    ):
        result = deliver(outside.url)
        assert (result.status, result.detail) == (302, "refused by the receiver (HTTP 302)")
        time.sleep(0.2)
        assert len(outside.requests) == 1 and inside.requests == []


@pytest.mark.slow
def test_closed_silent_and_slow_receivers_look_the_same():
    closed = f"http://127.0.0.1:{free_port()}/hook"
    silent = socket.socket()
    silent.bind(("127.0.0.1", 0))
    silent.listen(1)  # accepts, never answers
    with silent, WebhookReceiver(delay=5) as slow:
        started = time.monotonic()
        results = [
            deliver(closed, timeout=1),
            deliver(f"http://127.0.0.1:{silent.getsockname()[1]}/hook", timeout=1),
            deliver(slow.url, timeout=1),
        ]
        assert time.monotonic() - started < 5, "the delivery timeout bounds each attempt"
    assert {(r.status, r.detail) for r in results} == {(None, "could not connect")}


def test_settings_read_the_development_switches():
    policy = Settings.from_env(
        {"WEBHOOK_ALLOW_HTTP": "1", "WEBHOOK_ALLOW_LOOPBACK": "yes"}
    ).webhook_urls
    assert policy == LOOPBACK_FOR_TESTS and Settings.from_env({}).webhook_urls == UrlPolicy()


# Addresses that wrap another: the tunnels and translations of IPv6 (6to4 2002::/16, Teredo
# 2001::/32, NAT64 64:ff9b::/96 and its local-use 64:ff9b:1::/48) and the IPv4-mapped,
# -compatible and -translated forms. Each is written around a refused IPv4 address: loopback,
# private, link-local (the cloud's metadata), shared, unspecified.
WRAPPED_INTERNAL = [
    "2002:7f00:1::",  # 6to4 of 127.0.0.1
    "2002:a00:1::1",  # 6to4 of 10.0.0.1
    "2002:a9fe:a9fe::",  # 6to4 of 169.254.169.254
    "2002:c0a8:101:1::1",  # 6to4 of 192.168.1.1
    "2002:6440:1::",  # 6to4 of 100.64.0.1
    "2001:0:4136:e378:8000:63bf:80ff:fffe",  # Teredo whose client is 127.0.0.1
    "2001:0:a00:1::",  # Teredo whose server is 10.0.0.1
    "64:ff9b::7f00:1",  # NAT64 of 127.0.0.1
    "64:ff9b::a00:1",  # NAT64 of 10.0.0.1
    "64:ff9b::a9fe:a9fe",  # NAT64 of 169.254.169.254
    "64:ff9b:1::a00:1",  # local-use NAT64 of 10.0.0.1
    "::ffff:a9fe:a9fe",  # mapped 169.254.169.254
    "::ffff:a00:1",  # mapped 10.0.0.1
    "::ffff:0:0",  # mapped 0.0.0.0
    "::7f00:1",  # compatible 127.0.0.1
    "::a9fe:a9fe",  # compatible 169.254.169.254
    "::a00:1",  # compatible 10.0.0.1
    "::ffff:0:7f00:1",  # translated 127.0.0.1
    "::ffff:0:a9fe:a9fe",  # translated 169.254.169.254
]
# and the same tunnels around a public address: a tunnel's far end is no one's to check
WRAPPED_PUBLIC = [
    "2002:5db8:d70e::1",  # 6to4 of 93.184.215.14
    "2001:0:4136:e378:8000:63bf:a247:28f1",  # Teredo whose client is 93.184.215.14
    "64:ff9b::5db8:d70e",  # NAT64 of 93.184.215.14
    "::5db8:d70e",  # compatible 93.184.215.14
    "::ffff:0:5db8:d70e",  # translated 93.184.215.14
]


@pytest.mark.parametrize("address", WRAPPED_INTERNAL + WRAPPED_PUBLIC)
def test_tunnelled_and_translated_addresses_are_refused_even_where_loopback_is_allowed(address):
    for policy in (UrlPolicy(), LOOPBACK_FOR_TESTS):
        with pytest.raises(UnsafeUrl, match="not public"):
            policy.check(f"https://[{address}]/hook")


def test_a_mapped_public_address_passes_as_its_ipv4_address_and_mapped_loopback_as_loopback():
    assert UrlPolicy().check("https://[::ffff:5db8:d70e]/hook").address == "::ffff:93.184.215.14"
    assert LOOPBACK_FOR_TESTS.check("http://[::ffff:7f00:1]:8080/hook").port == 8080
    with pytest.raises(UnsafeUrl):
        UrlPolicy().check("https://[::ffff:7f00:1]/hook")
    assert UrlPolicy().check("https://[2606:4700:4700::1111]/hook").host == "2606:4700:4700::1111"
