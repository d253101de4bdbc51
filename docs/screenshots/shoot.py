"""Take the screenshots in this folder: for each game, a turn email's HTML part, the turn page
it links to, and the public game page /play/<id>, of a seeded game played part-way (or to the end) through the real
services on an embedded Valkey, photographed with headless Chromium.

Needs Debian's chromium-headless-shell and Playwright for Python (not project dependencies):
    apt-get install -y --no-install-recommends chromium-headless-shell
    .venv/bin/pip install playwright
    .venv/bin/python docs/screenshots/shoot.py
"""

from __future__ import annotations

import email
import sys
import tempfile
from email.policy import default
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))

from playwright.sync_api import sync_playwright  # noqa: E402

from api.app import create_app  # noqa: E402
from engine.rng import Rng  # noqa: E402
from service.notify.notifications import TURN_STARTED, Notice  # noqa: E402
from service.settings import Settings  # noqa: E402
from store.connection import connect  # noqa: E402
from store.embedded import EmbeddedValkey  # noqa: E402
from store.players import PlayerStore  # noqa: E402

# game, players, moves before the email (None: play to the end for the page)
SCENES = [
    ("nautilus", ["Ada", "Bo"], 24),
    ("consonar", ["Ada", "Bo", "Cy"], 23),
    ("buttons", ["Ada", "Bo", "Cy"], 27),
    ("ninedomains", ["Ada", "Bo"], 3),
]
CHROMIUM = "/usr/bin/chromium-headless-shell"
STYLESHEET = HERE.parent.parent / "web/static/turnpost.css"
STYLESHEET_LINK = '<link rel="stylesheet" href="/assets/turnpost.css">'
"""The pages' stylesheet, put into each page saved as a file (which cannot fetch it)."""


def play(services, game_id, people, moves, rng):
    for _ in range(moves):
        summary = services.games.summary(game_id)
        if summary["status"] == "finished":
            return
        seat = rng.choice(summary["active_seats"])
        legal = services.games.legal_moves(game_id, people[seat])["moves"]
        services.games.play(
            game_id, people[seat], summary["version"], action=rng.choice(legal)["action"]
        )


def turn_email_html(services, outbox: Path, game_id: str) -> str:
    snap = services.games.load(game_id)
    seat = snap["active_seats"][0]
    notice = Notice(TURN_STARTED, game_id, seat, snap["match"]["seat_since"][seat])
    assert services.notifications.email(notice)[0] == "sent"
    newest = max(outbox.glob("*.eml"), key=lambda p: p.stat().st_mtime)
    message = email.message_from_bytes(newest.read_bytes(), policy=default)
    return message.get_body(preferencelist=("html",)).get_content()


def turn_page_html(services, client, game_id: str) -> str:
    """The turn page the same email links to (its first link)."""
    seat = services.games.summary(game_id)["active_seats"][0]
    url = services.one_click.turn_url(services.tables.for_seat(game_id, seat))
    return client.get(url.removeprefix("https://turnpost.example")).get_data(as_text=True)


def main() -> None:
    work = Path(tempfile.mkdtemp())
    server = EmbeddedValkey(work / "valkey", appendonly=False).start()
    try:
        settings = Settings(
            outbox_dir=str(work / "outbox"),
            email_throttle_seconds=0,
            public_url="https://turnpost.example",
        )
        redis_client = connect(server.url)
        app = create_app(redis_client, settings=settings)
        services = app.extensions["turnpost"]["services"]
        client = app.test_client()
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
            page = browser.new_page(viewport={"width": 760, "height": 600})
            for name, names, moves in SCENES:
                people = [
                    services.players.register(n, email=f"{n.lower()}@example.org")["id"]
                    for n in names
                ]
                for person, n in zip(people, names):  # as if each had followed the emailed link
                    PlayerStore(redis_client).confirm_email(person, f"{n.lower()}@example.org")
                for other in people[1:]:  # seated at once, without an invitation
                    services.players.set_friends(other, [people[0]])
                game_id = services.games.create(people[0], name, people)["id"]
                rng = Rng(f"screenshots:{name}".encode().ljust(32, b"."))
                play(services, game_id, people, moves, rng)
                shots = {
                    "email": turn_email_html(services, work / "outbox", game_id),
                    "turn": turn_page_html(services, client, game_id),
                }
                play(services, game_id, people, 5000, rng)
                shots["page"] = client.get(f"/play/{game_id}").get_data(as_text=True)
                for kind, html in shots.items():
                    html = html.replace(STYLESHEET_LINK, f"<style>{STYLESHEET.read_text()}</style>")
                    source = work / f"{name}-{kind}.html"
                    source.write_text(html, encoding="utf-8")
                    page.goto(source.as_uri())
                    page.screenshot(path=str(HERE / f"{name}-{kind}.png"), full_page=True)
                    print(f"wrote {name}-{kind}.png")
            browser.close()
    finally:
        server.stop()


if __name__ == "__main__":
    main()
