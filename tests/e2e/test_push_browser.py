"""Notifications on a device, in a real browser (headless Chromium driven by Playwright)
against `turnpost serve` with its worker, and a push service on loopback.

Headless Chromium has no push service: its `pushManager.subscribe` answers "AbortError:
Registration failed - permission denied" even with the permission granted (checked below, so
that the day it works this test says so). What can be tested is tested for real: the service
worker registered from /sw.js with the whole site as its scope; nothing asked before the
button is pressed; the page's call of `pushManager.subscribe` with the server's key (the
browser's own method is wrapped to record its arguments and answer with a subscription whose
keys the test made, on the loopback push service); the subscription posted by the page, kept
and listed; and a turn then pushed to that subscription, its VAPID JWT checked against the key
the page subscribed with and its body decrypted with the subscription's keys."""

from __future__ import annotations

import re

import pytest
import requests
from playwright.sync_api import expect, sync_playwright

from tests.e2e.server import Client, LiveServer
from tests.peers import PushService, SmtpInbox, text_of

pytestmark = pytest.mark.browser

CHROMIUM = "/usr/bin/chromium-headless-shell"
PUBLIC_URL = "http://turnpost.test"

# In the page, before its scripts: PushManager.prototype.subscribe records what it is asked (in
# sessionStorage, which outlives the page's reload) and answers with the subscription the test
# made (window.__subscription), as a browser with a push service would; everything else is the
# browser's own.
STAND_IN = """
(() => {
  const own = PushManager.prototype.subscribe;
  const note = (name, value) => sessionStorage.setItem(name, JSON.stringify(value));
  PushManager.prototype.subscribe = async function (options) {
    const key = new Uint8Array(options.applicationServerKey);
    const asked = JSON.parse(sessionStorage.getItem("asked") || "[]");
    asked.push({
      userVisibleOnly: options.userVisibleOnly,
      key: btoa(String.fromCharCode(...key)).replace(/\\+/g, "-").replace(/\\//g, "_")
        .replace(/=+$/, ""),
    });
    note("asked", asked);
    try {
      await own.call(this, options);
      note("ownAnswer", "subscribed");
    } catch (err) {
      note("ownAnswer", err.name + ": " + err.message);
    }
    const made = window.__subscription;
    return {
      endpoint: made.endpoint,
      options: { applicationServerKey: options.applicationServerKey, userVisibleOnly: true },
      toJSON: () => made,
      unsubscribe: async () => true,
    };
  };
})();
"""


@pytest.fixture(scope="module")
def site(valkey):
    with SmtpInbox() as outgoing, PushService() as push:
        env = {
            "SMTP_URL": outgoing.url,
            "PUBLIC_URL": PUBLIC_URL,
            "EMAIL_DELAY_SECONDS": "0",
            "PUSH_DELAY_SECONDS": "0",
            "WEBHOOK_ALLOW_HTTP": "1",  # the push service of the test listens on loopback
            "WEBHOOK_ALLOW_LOOPBACK": "1",
            "LIMIT_SIGN_IN_PER_IP": "1000/minute",
        }
        server = LiveServer(redis_url=valkey.url, env=env).wait_ready()
        try:
            yield server, outgoing, push
        finally:
            server.stop()


def sign_in(page, server, outgoing, name, email):
    page.goto(server.url + "/sign-in")
    page.get_by_label("Your email address").fill(email)
    page.get_by_role("button", name="Email me a sign-in link").click()
    message = outgoing.wait_for(
        lambda m, rcpt: email in rcpt and m["X-Turnpost-Event"] == "sign_in.link", timeout=30
    )
    link = re.search(rf"{re.escape(PUBLIC_URL)}(/sign-in/[A-Za-z0-9_-]+)", text_of(message))
    page.goto(server.url + link.group(1))
    page.get_by_role("button", name=f"Sign in as {name}").click()
    expect(page.get_by_role("button", name=f"Sign out {name}")).to_be_visible()


def test_a_person_turns_notifications_on_and_gets_their_turn_pushed(site):
    server, outgoing, push = site
    ada = Client(server.url, "Ada Push", "ada.push@example.org")  # names of this module alone
    bo = Client(server.url, "Bo Push", "bo.push@example.org")
    bo.befriend(ada)
    key = bo.get("/v1/players/me/push-subscriptions").json()["application_server_key"]
    push.application_server_key = key
    browser_keys = push.browser("bo-chromium")
    sw = requests.get(server.url + "/sw.js", timeout=10)
    assert sw.status_code == 200 and sw.headers["Content-Type"].startswith("text/javascript")
    assert sw.headers["Service-Worker-Allowed"] == "/"
    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM)
        context = chromium.new_context(permissions=["notifications"])
        context.add_init_script(STAND_IN)
        page = context.new_page()
        page.set_default_timeout(20_000)
        sign_in(page, server, outgoing, "Bo Push", "bo.push@example.org")
        page.goto(server.url + "/settings")
        page.evaluate("made => { window.__subscription = made; }", browser_keys.subscription)
        section = page.locator("#push")
        expect(section).to_have_attribute("data-worker", "ready")
        registration = page.evaluate(
            """async () => {
                 const r = await navigator.serviceWorker.getRegistration();
                 return {scope: r.scope, script: r.active.scriptURL};
               }"""
        )
        assert registration == {"scope": server.url + "/", "script": server.url + "/sw.js"}
        assert page.evaluate("sessionStorage.getItem('asked')") is None, "nothing asked yet"
        expect(page.get_by_text("No device has notifications on.")).to_be_visible()
        page.get_by_role("button", name="Turn on notifications on this device").click()
        expect(page.get_by_role("button", name="Remove Chrome on Linux")).to_be_visible()
        expect(
            page.get_by_text("Notifications are on on this device (Chrome on Linux).")
        ).to_be_visible()
        asked = page.evaluate("JSON.parse(sessionStorage.getItem('asked'))")
        own_answer = page.evaluate("JSON.parse(sessionStorage.getItem('ownAnswer'))")
        chromium.close()
    assert asked == [{"userVisibleOnly": True, "key": key}], "subscribed with the server's key"
    # headless Chromium has no push service; if it ever has one, this test should use it
    assert own_answer == "AbortError: Registration failed - permission denied", own_answer
    (listed,) = bo.get("/v1/players/me/push-subscriptions").json()["subscriptions"]
    assert listed["device"] == "Chrome on Linux" and listed["push_service"] == "127.0.0.1"
    game_id = ada.post("/v1/games", {"game": "nautilus", "seats": [ada.id, bo.id]}).json()["id"]
    while not push.requests:  # Ada moves until it is Bo's turn
        summary = ada.get(f"/v1/games/{game_id}").json()
        if 0 in summary["active_seats"]:
            move = ada.get(f"/v1/games/{game_id}/legal-moves").json()["moves"][0]
            ada.post(
                f"/v1/games/{game_id}/moves",
                {"action": move["action"], "expected_version": summary["version"]},
            )
        else:
            push.wait_count(1, timeout=30)
    message = push.requests[0]
    assert message["problems"] == [], message["problems"]
    assert message["vapid_key"] == key
    assert message["json"]["event"] in ("turn.started", "turn.continues")
    assert message["json"]["url"] == f"{PUBLIC_URL}/play/{game_id}"
    assert message["json"]["title"].startswith("Nautilus with Ada Push: ")
