"""Notifications on a device in the web client, over HTTP: the service worker's route, the
settings section (static scripts only: no inline script, handler or style), keeping the
subscription the page's script posts (with the form's CSRF token; errors as JSON with a code),
and removing a device."""

import json
import re

from tests.api.test_push_subscriptions import PUBLIC_ENDPOINT, browser_keys
from tests.web.conftest import Browser, sign_up


def subscription(name="a"):
    return json.dumps({"endpoint": PUBLIC_ENDPOINT + name, "keys": browser_keys()})


def test_the_service_worker_is_served_for_the_whole_site(app):
    r = app.test_client().get("/sw.js")
    assert r.status_code == 200 and r.mimetype == "text/javascript"
    assert r.headers["Service-Worker-Allowed"] == "/" and r.headers["Cache-Control"] == "no-cache"
    assert b'addEventListener("push"' in r.data


def test_a_device_is_turned_on_listed_and_removed_from_the_settings(app, services, smtp):
    browser = Browser(app)
    sign_up(browser, services, smtp, "Ada", "ada@example.org")
    html = browser.text("/settings")
    key = services.push.public_key()
    assert f'data-push-key="{key}"' in html and "No device has notifications on." in html
    assert re.search(r'<script src="[^"]*push\.js" defer></script>', html)
    assert "<script>" not in html and " onclick=" not in html and " style=" not in html
    refused = browser.post("/settings/push", {"subscription": subscription()}, csrf=False)
    assert refused.status_code == 400, "no CSRF token, nothing kept"
    bad = browser.post("/settings/push", {"subscription": "{not json"})
    assert bad.status_code == 422 and bad.json["code"] == "push/invalid_subscription"
    inside = json.dumps({"endpoint": "https://10.0.0.1/push", "keys": browser_keys()})
    unsafe = browser.post("/settings/push", {"subscription": inside})
    assert unsafe.status_code == 422 and unsafe.json["code"] == "push/unsafe_endpoint"
    kept = browser.post("/settings/push", {"subscription": subscription(), "device": "My phone"})
    assert kept.status_code == 201 and kept.json["device"] == "My phone"
    html = browser.text("/settings")
    assert "My phone, through 93.184.215.14" in html
    assert "Notifications are on on this device (My phone)." in html
    r = browser.post("/settings/push/remove", {"remove": kept.json["id"]})
    assert r.status_code == 303 and r.headers["Location"] == "/settings#push"
    html = browser.text("/settings")
    assert "That device gets no more notifications." in html and "My phone" not in html
