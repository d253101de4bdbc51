"""The service worker (web/static/sw.js) run by Node with the few browser objects it uses
stood in: a push message becomes a notification with its title, body and game tag, and a
click opens the game's page on this site (or brings forward a window that shows it), never a
page of another site."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

WORKER = Path(__file__).resolve().parents[2] / "web" / "static" / "sw.js"

HARNESS = r"""
const vm = require("vm");
const fs = require("fs");
const [source, scenario] = [fs.readFileSync(process.argv[1], "utf8"), JSON.parse(process.argv[2])];
const handlers = {};
const done = [];
const self = {
  location: { origin: "https://turnpost.example" },
  addEventListener: (type, handler) => { handlers[type] = handler; },
  skipWaiting: () => {},
  registration: {
    showNotification: async (title, options) => { done.push(["show", title, options]); },
  },
  clients: {
    claim: async () => {},
    matchAll: async () => scenario.open.map((url) => ({
      url, focus: async () => { done.push(["focus", url]); },
    })),
    openWindow: async (url) => { done.push(["open", url]); },
  },
};
vm.runInNewContext(source, { self, URL, console });
(async () => {
  const waits = [];
  const event = (extra) => ({ waitUntil: (p) => waits.push(p), ...extra });
  if (scenario.push !== undefined) {
    handlers.push(event({ data: scenario.push === null ? null : {
      json: () => JSON.parse(scenario.push) } }));
  }
  if (scenario.click !== undefined) {
    handlers.notificationclick(event({ notification: {
      data: { url: scenario.click }, close: () => done.push(["close"]) } }));
  }
  await Promise.all(waits);
  process.stdout.write(JSON.stringify(done));
})();
"""


def run(scenario: dict, worker: Path = WORKER) -> list:
    found = subprocess.run(
        ["node", "-e", HARNESS, "--", str(worker), json.dumps({"open": [], **scenario})],
        capture_output=True,
        text=True,
        timeout=30,
        check=True,
    )
    return json.loads(found.stdout)


pytestmark = pytest.mark.slow  # a Node process each


def test_a_push_message_is_shown_with_its_title_body_and_game():
    message = {
        "title": "Nautilus with Ada: your move",
        "body": "It is your move (round 2).",
        "url": "https://turnpost.example/play/g_1",
        "tag": "g_1",
    }
    ((what, title, options),) = run({"push": json.dumps(message)})
    assert (what, title) == ("show", "Nautilus with Ada: your move")
    assert options == {
        "body": "It is your move (round 2).",
        "data": {"url": "https://turnpost.example/play/g_1"},
        "tag": "g_1",
        "renotify": True,
    }


def test_a_message_it_cannot_read_still_shows_a_notification():
    for data in (None, "not json"):
        ((what, title, options),) = run({"push": data})
        assert (what, title) == ("show", "turnpost")
        assert options["data"] == {"url": "https://turnpost.example/games"}


def test_a_click_opens_the_games_page_on_this_site_only():
    shown = run({"push": json.dumps({"title": "t", "url": "https://evil.example/play/g_1?x=1"})})
    assert shown[0][2]["data"] == {"url": "https://turnpost.example/play/g_1?x=1"}
    assert run({"click": "https://turnpost.example/play/g_1"}) == [
        ["close"],
        ["open", "https://turnpost.example/play/g_1"],
    ]
    assert run(
        {
            "click": "https://turnpost.example/play/g_1",
            "open": ["https://turnpost.example/games", "https://turnpost.example/play/g_1"],
        }
    ) == [["close"], ["focus", "https://turnpost.example/play/g_1"]]


@pytest.mark.parametrize(
    ("asked", "said"),
    [
        ({}, "Something happened in one of your games."),
        ({"Accept-Language": "ru"}, "Что-то произошло в одной из ваших партий."),
        ({"Accept-Language": "it-IT,it;q=0.9"}, "È successo qualcosa in una delle tue partite."),
    ],
)
def test_a_message_without_words_is_shown_in_the_browsers_language(app, tmp_path, asked, said):
    """The worker has no page: /sw.js is served with its few words in the language of the
    browser (or of the signed-in player) that fetches it."""
    served = app.test_client().get("/sw.js", headers=asked)
    assert "Accept-Language" in served.headers["Vary"]
    worker = tmp_path / "sw.js"
    worker.write_bytes(served.data)
    ((what, title, options),) = run({"push": json.dumps({"url": "/play/g_1"})}, worker)
    assert (what, title, options["body"]) == ("show", "turnpost", said)
