"""Every page and email for people, in a real browser (headless Chromium driven by Playwright)
against `turnpost serve` with its worker and a real SMTP server, at a phone's width (360 x 740)
and a desktop's (1280 x 900): nothing scrolls or spills sideways, boards included, and the
reader's own part of a board is on the screen. Then what a person sees in the tab and the
navigation when a game waits for them, an invitation accepted from its email, and an address
that does not exist.

Lean on purpose: one server, one browser and one set of games for the module, brought to the
middle and the end of a game through the service on the same Valkey (not by clicking), and
each width check a page load. With TURNPOST_SCREENSHOTS=<folder>, a few pages and emails are
photographed at the phone's width (docs/screenshots/phone/ holds the ones the README shows)."""

from __future__ import annotations

import os
import random
import re
from dataclasses import dataclass, field
from pathlib import Path

import pytest
import requests
from playwright.sync_api import Browser, BrowserContext, Page, expect, sync_playwright

from service.assembly import Services, assemble
from service.play.boards import html_board
from service.play.history import seat_view
from service.settings import Settings
from store.connection import connect
from tests.addresses import confirm
from tests.e2e.server import LiveServer
from tests.e2e.test_web_client import look
from tests.engine import conformance
from tests.peers import SmtpInbox, html_of, text_of
from tests.service.boards_positions import TITLES, positions, snapshot

CHROMIUM = "/usr/bin/chromium-headless-shell"
STYLESHEET = Path(__file__).resolve().parents[2] / "web/static/turnpost.css"
PUBLIC_URL = "http://turnpost.test"
PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1280, "height": 900}
SCREENSHOTS = os.environ.get("TURNPOST_SCREENSHOTS")
PHOTOGRAPHED = {
    "home",
    "game-consonar-six-players",
    "game-nautilus-middle",
    "turn-page-nautilus",
    "public-page-consonar",
    "turn-email-consonar",
    "invitation-email",
    "invitation-accept",
    "not-found",
    *(f"how-to-play-{title}" for title in ("nautilus", "consonar", "buttons", "ninedomains")),
}
GAMES = ("nautilus", "consonar", "buttons", "ninedomains")
MIDDLE = {"nautilus": 14, "consonar": 14, "buttons": 14, "ninedomains": 3}  # moves played

# Whatever scrolls or spills sideways: the page itself, an element that scrolls or clips its
# content sideways (a board in a frame that scrolls), and an element past either edge (caught
# even when a page hides its overflow). Form fields scroll their own text; the skip link and
# the visually hidden headings are off screen on purpose.
SIDEWAYS = """() => {
  const found = [];
  const width = document.documentElement.clientWidth;
  if (document.documentElement.scrollWidth > innerWidth)
    found.push(`the page is ${document.documentElement.scrollWidth} px wide`);
  const name = (el) => el.tagName.toLowerCase() + (el.className && typeof el.className ===
    "string" ? "." + el.className.trim().split(/\\s+/).join(".") : "") +
    ` "${(el.textContent || "").trim().slice(0, 30)}"`;
  for (const el of document.body.querySelectorAll("*")) {
    if (el.closest(".skip, .visually-hidden, input, select, textarea, option")) continue;
    const style = getComputedStyle(el);
    if (style.display === "none") continue;
    if (style.overflowX !== "visible" && el.scrollWidth > el.clientWidth + 1)
      found.push(`${name(el)} scrolls ${el.scrollWidth} px in ${el.clientWidth}`);
    const box = el.getBoundingClientRect();
    if (box.width > 0 && (box.right > width + 1 || box.left < -1))
      found.push(`${name(el)} spans ${Math.round(box.left)} to ${Math.round(box.right)} px`);
  }
  return found.slice(0, 8);
}"""


@dataclass
class Player:
    id: str
    name: str
    email: str
    token: str


@dataclass
class Site:
    server: LiveServer
    outgoing: SmtpInbox
    services: Services
    people: dict[str, Player] = field(default_factory=dict)
    games: dict[str, str] = field(default_factory=dict)
    """page kind -> game id"""

    def api(self, player: Player, method: str, path: str, body=None) -> requests.Response:
        return requests.request(
            method,
            self.server.url + path,
            json=body,
            headers={"Authorization": f"Bearer {player.token}"},
            timeout=30,
        )


@pytest.fixture(scope="module")
def site(valkey):
    with SmtpInbox() as outgoing:
        env = {
            "SMTP_URL": outgoing.url,
            "PUBLIC_URL": PUBLIC_URL,
            "EMAIL_DELAY_SECONDS": "0",
            "LIMIT_SIGN_IN_PER_IP": "1000/minute",
        }
        server = LiveServer(redis_url=valkey.url, env=env).wait_ready()
        client = connect(valkey.url)
        try:
            services = assemble(client, Settings(public_url=PUBLIC_URL))
            yield set_the_table(Site(server, outgoing, services))
        finally:
            client.close()
            server.stop()


def set_the_table(site: Site) -> Site:
    """The people and games every test of the module reads: each title at its opening, in
    the middle and at the end between Ada and Bo, Con Sonar! between six, an open game, a
    game whose invited player refused."""
    players = site.services.players
    for name in ("Ada", "Bo", "Cy", "Di", "Ed", "Flo", "Gus"):
        made = players.register(f"{name} Phone", email=f"{name.lower()}.phone@example.org")
        confirm(players.players.r, made["id"])  # as if they followed the emailed link
        site.people[name] = Player(
            made["id"], made["name"], f"{name.lower()}.phone@example.org", made["token"]
        )
    ada = site.people["Ada"]
    for name in ("Bo", "Ed", "Flo", "Gus", "Di"):
        players.set_friends(site.people[name].id, [ada.id])  # Ada seats them without asking
    games = site.services.games
    rnd = random.Random(31)
    for title in GAMES:
        for stage, moves in (("opening", 0), ("middle", MIDDLE[title]), ("end", 100_000)):
            seats = [ada, site.people["Bo"]]
            game_id = games.create(ada.id, title, [p.id for p in seats])["id"]
            play(site, game_id, seats, moves, rnd)
            site.games[f"{title}-{stage}"] = game_id
    six = [ada, *(site.people[n] for n in ("Bo", "Di", "Ed", "Flo", "Gus"))]
    game_id = games.create(ada.id, "consonar", [p.id for p in six])["id"]
    play(site, game_id, six, 9, rnd)
    site.games["consonar-six-players"] = game_id
    site.games["open"] = games.create(ada.id, "nautilus", [ada.id, None])["id"]
    refused = games.create(
        ada.id, "ninedomains", [ada.id, site.people["Cy"].id], if_declined="open"
    )
    games.decline(refused["id"], site.people["Cy"].id)
    site.games["refused"] = refused["id"]
    invited = [ada.id, site.people["Cy"].id]  # a rematch is such a game: no seat is open
    site.games["invited"] = games.create(ada.id, "nautilus", invited)["id"]
    return site


def play(site: Site, game_id: str, seats: list[Player], moves: int, rnd: random.Random) -> None:
    """Random legal moves through the service, until `moves` are played or the game ends."""
    games = site.services.games
    for _ in range(moves):
        summary = games.summary(game_id)
        if summary["status"] != "active":
            return
        seat = rnd.choice(summary["active_seats"])
        legal = games.legal_moves(game_id, seats[seat].id)["moves"]
        games.play(game_id, seats[seat].id, summary["version"], action=rnd.choice(legal)["action"])


@pytest.fixture(scope="module")
def browser():
    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM)
        yield chromium
        chromium.close()


def signed_in(browser: Browser, site: Site, person: Player) -> BrowserContext:
    """A browser context of `person`'s, signed in by the link the sign-in email carries."""
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    page.set_default_timeout(20_000)
    page.goto(site.server.url + "/sign-in")
    page.get_by_label("Your email address").fill(person.email)
    page.get_by_role("button", name="Email me a sign-in link").click()
    message = site.outgoing.wait_for(
        lambda m, rcpt: person.email in rcpt and m["X-Turnpost-Event"] == "sign_in.link",
        timeout=30,
    )
    link = re.search(rf"{re.escape(PUBLIC_URL)}(/sign-in/[A-Za-z0-9_-]+)", text_of(message))
    page.goto(site.server.url + link.group(1))
    page.get_by_role("button", name=f"Sign in as {person.name}").click()
    expect(page.get_by_role("button", name=f"Sign out {person.name}")).to_be_visible()
    page.close()
    return context


@pytest.fixture(scope="module")
def ada(browser, site):
    context = signed_in(browser, site, site.people["Ada"])
    yield context
    context.close()


@pytest.fixture(scope="module")
def stranger(browser):
    context = browser.new_context(viewport=DESKTOP)
    yield context
    context.close()


def fits(page: Page, size: dict, what: str) -> None:
    page.set_viewport_size(size)
    found = page.evaluate(SIDEWAYS)
    assert not found, f"{what} at {size['width']} px: {found}"


def open_at_both_widths(context: BrowserContext, url: str, what: str) -> Page:
    """Load the page at a phone's width and at a desktop's (a fresh load each: a page is laid
    out for the width it opens at), checking each; the page is left open at the phone's."""
    page = context.new_page()
    page.set_default_timeout(20_000)
    for size in (DESKTOP, PHONE):
        page.set_viewport_size(size)
        answer = page.goto(url)
        assert answer is not None and answer.status < 500, f"{what}: {answer and answer.status}"
        fits(page, size, what)
    return page


def photograph(page: Page, name: str) -> None:
    """The page as it is shown now (at the phone's width), when photographs are asked for."""
    if SCREENSHOTS and name in PHOTOGRAPHED:
        Path(SCREENSHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SCREENSHOTS) / f"{name}.png"), full_page=True)


def yours_on_screen(page: Page, what: str) -> None:
    """The reader's own part of the board (labelled "(you)") is shown, within the screen."""
    mine = page.locator(".board-frame").get_by_text(re.compile(r"\(you\)"))
    assert mine.count() > 0, f"{what}: the board does not show the reader's part"
    for i in range(mine.count()):
        box = mine.nth(i).bounding_box()
        assert box is not None and box["width"] > 0, f"{what}: the reader's part is hidden"
        assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"] + 1, (
            f"{what}: the reader's part is off screen ({box})"
        )


SIGNED_OUT_PAGES = {"home": "/", "sign-in": "/sign-in", "sign-up": "/sign-up"}
SIGNED_IN_PAGES = {
    "my-games": "/games",
    "lobby": "/lobby",
    "new-game": "/games/new",
    **{f"new-game-{title}": f"/games/new?game={title}" for title in GAMES},
    "settings": "/settings",
}


@pytest.mark.parametrize("kind", sorted(SIGNED_OUT_PAGES))
def test_a_page_for_strangers_fits_a_phone(stranger, site, kind):
    page = open_at_both_widths(stranger, site.server.url + SIGNED_OUT_PAGES[kind], kind)
    photograph(page, kind)
    page.close()


@pytest.mark.parametrize("kind", sorted(SIGNED_IN_PAGES))
def test_a_page_of_the_site_fits_a_phone(ada, site, kind):
    page = open_at_both_widths(ada, site.server.url + SIGNED_IN_PAGES[kind], kind)
    page.close()


GAME_PAGES = [f"{t}-{s}" for t in GAMES for s in ("opening", "middle", "end")] + [
    "consonar-six-players"
]


@pytest.mark.parametrize("kind", GAME_PAGES)
def test_a_game_page_fits_a_phone_with_the_readers_part_on_screen(ada, site, kind):
    page = open_at_both_widths(ada, f"{site.server.url}/games/{site.games[kind]}", kind)
    yours_on_screen(page, kind)
    photograph(page, f"game-{kind}")
    page.close()


@pytest.mark.parametrize("title", GAMES)
def test_the_how_to_play_page_fits_a_phone_and_passes_axe(stranger, site, title):
    url = f"{site.server.url}/how-to-play/{title}"
    page = open_at_both_widths(stranger, url, f"how to play {title}")
    expect(page.locator("figure.picture .board-frame")).to_have_count(3)
    look(page, f"how to play {title}")  # axe-core: no serious or critical violation
    photograph(page, f"how-to-play-{title}")
    page.close()


@pytest.mark.parametrize("title", GAMES)
def test_the_public_page_fits_a_phone_and_tells_a_player_to_sign_in(stranger, site, title):
    game_id = site.games[f"{title}-middle"]
    page = open_at_both_widths(stranger, f"{site.server.url}/play/{game_id}", f"public {title}")
    expect(page.get_by_role("navigation", name="Main")).to_be_visible()
    sign_in = page.get_by_role("link", name=re.compile("sign in", re.I)).last
    expect(sign_in).to_have_attribute("href", re.compile(rf"next=/games/{game_id}"))
    if title == "consonar":
        look(page, "public-page")
    photograph(page, f"public-page-{title}")
    page.close()


def turn_table(site: Site, game_id: str):
    summary = site.services.games.summary(game_id)
    return site.services.tables.for_seat(game_id, summary["active_seats"][0])


@pytest.mark.parametrize("title", GAMES)
def test_the_turn_page_of_a_turn_email_fits_a_phone(stranger, site, title):
    table = turn_table(site, site.games[f"{title}-middle"])
    url = site.services.one_click.turn_url(table).replace(PUBLIC_URL, site.server.url)
    page = open_at_both_widths(stranger, url, f"turn page {title}")
    expect(page.get_by_role("navigation", name="Main")).to_be_visible()
    yours_on_screen(page, f"turn page {title}")
    if title == "nautilus":
        look(page, "turn-page")
    photograph(page, f"turn-page-{title}")
    page.close()


def test_the_one_click_confirmation_page_fits_a_phone(stranger, site):
    table = turn_table(site, site.games["nautilus-middle"])
    notation = table.moves[0].notation
    url = site.services.one_click.links(table, [notation]).moves[notation]
    page = open_at_both_widths(stranger, url.replace(PUBLIC_URL, site.server.url), "one-click")
    expect(page.get_by_role("navigation", name="Main")).to_be_visible()
    expect(page.get_by_role("button", name=re.compile("^Play"))).to_be_visible()
    look(page, "one-click")
    page.close()


def an_email(site: Site, person: Player, game_id: str, event: str):
    return site.outgoing.wait_for(
        lambda m, rcpt: (
            person.email in rcpt
            and m["X-Turnpost-Game"] == game_id
            and m["X-Turnpost-Event"] == event
        ),
        timeout=30,
    )


@pytest.mark.parametrize("title", GAMES)
def test_the_html_turn_email_fits_a_phone(stranger, site, title):
    """The first turn email of each title's opening game (later ones are throttled)."""
    game_id = site.games[f"{title}-opening"]
    seat = site.services.games.summary(game_id)["active_seats"][0]
    person = site.people["Ada"] if seat == 0 else site.people["Bo"]
    message = an_email(site, person, game_id, "turn.started")
    page = stranger.new_page()
    for size in (DESKTOP, PHONE):
        page.set_viewport_size(size)
        page.set_content(html_of(message))
        fits(page, size, f"the turn email of {title}")
    yours_on_screen_in_an_email(page, title)
    photograph(page, f"turn-email-{title}")
    page.close()


def yours_on_screen_in_an_email(page: Page, what: str) -> None:
    mine = page.get_by_text(re.compile(r"\(you\)"))
    assert mine.count() > 0, f"{what}: the email's board does not show the reader's part"
    box = mine.first.bounding_box()
    assert box and box["x"] + box["width"] <= PHONE["width"] + 1, f"{what}: off screen"


def test_the_board_of_every_title_fits_a_phone_in_many_positions(stranger):
    """Positions of a seeded game of every title at every player count (from the start to the
    end), for the first and the last seat and a spectator, with long, wide and hostile names,
    each board in the game page's frame at a phone's width: none may be wider than its frame
    (which would then scroll, as boards did) or than the screen."""
    boards = []
    for name, title in TITLES.items():
        for i in range(len(title.players)):
            n, matches = positions(title, i, conformance.seed_of(900 + i))
            for index in sorted({0, len(matches) // 3, 2 * len(matches) // 3, len(matches) - 1}):
                snap = snapshot(name, matches[index], index + 1)
                names = [s["name"] for s in snap["seats"]]
                for seat in (0, n - 1, None):
                    view = seat_view(snap, seat)  # what the pages draw a board from
                    drawn = html_board(view, names, matches[index]["outcome"])
                    boards.append((f"{name} {n} players, version {index + 1}, seat {seat}", drawn))
    document = (
        "<!doctype html><html><head><meta charset='utf-8'>"
        "<meta name='viewport' content='width=device-width, initial-scale=1'>"
        f"<style>{STYLESHEET.read_text()}</style></head><body><main>"
        + "".join(
            f"<div class='board-frame' id='b{i}'>{b}</div>" for i, (_, b) in enumerate(boards)
        )
        + "</main></body></html>"
    )
    page = stranger.new_page()
    page.set_viewport_size(PHONE)
    page.set_content(document)
    wide = page.evaluate(
        """() => [...document.querySelectorAll('.board-frame')].filter(
             (frame) => frame.scrollWidth > frame.clientWidth + 1
               || frame.getBoundingClientRect().right > innerWidth + 1
           ).map((frame) => Number(frame.id.slice(1)))"""
    )
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.close()
    assert len(boards) > 100
    assert not wide, f"{len(wide)} of {len(boards)} boards are too wide, e.g. " + ", ".join(
        boards[i][0] for i in wide[:6]
    )


def test_the_tab_and_the_navigation_say_when_a_game_waits_for_me(ada, site):
    """Ada's page of a game waits for Bo; Bo moves through the API; the live page's tab title
    then says "Your turn" and the navigation counts the game among those waiting for her."""
    bo, me = site.people["Bo"], site.people["Ada"]
    games = site.services.games
    game_id = games.create(me.id, "nautilus", [me.id, bo.id])["id"]
    while 0 in (summary := games.summary(game_id))["active_seats"]:  # Ada's moves first
        legal = games.legal_moves(game_id, me.id)["moves"]
        games.play(game_id, me.id, summary["version"], action=legal[0]["action"])
    page = ada.new_page()
    page.set_viewport_size(PHONE)
    page.goto(f"{site.server.url}/games/{game_id}")
    assert "Your turn" not in page.title()
    counted = re.search(
        r"\((\d+)\)",
        page.locator("nav").get_by_role("link", name=re.compile("^My games")).inner_text(),
    )
    waiting_before = int(counted.group(1)) if counted else 0
    while True:
        legal = site.api(bo, "GET", f"/v1/games/{game_id}/legal-moves").json()
        answer = site.api(
            bo,
            "POST",
            f"/v1/games/{game_id}/moves",
            {"notation": legal["moves"][0]["notation"], "expected_version": legal["version"]},
        )
        assert answer.status_code == 201, answer.text
        if 0 in games.summary(game_id)["active_seats"]:
            break
    expect(page).to_have_title(re.compile(r"^Your turn — Nautilus"), timeout=20_000)
    expect(page.locator("nav").get_by_role("link", name=re.compile("^My games"))).to_have_text(
        f"My games ({waiting_before + 1})"
    )
    page.close()


def test_an_invited_person_accepts_from_the_invitation_email(browser, site):
    """Bo invites Cy (not his friend; Ada's invitations to her were emailed already); the
    invitation email reaches Cy by SMTP; its link to the game shows Cy Accept and Refuse; its
    one-click Accept link asks first (a GET changes nothing), then the button seats her and
    she lands on the game."""
    cy, bo = site.people["Cy"], site.people["Bo"]
    game = site.api(bo, "POST", "/v1/games", {"game": "buttons", "seats": [bo.id, cy.id]}).json()
    message = an_email(site, cy, game["id"], "game.invited")
    page = browser.new_page(viewport=PHONE)
    page.set_content(html_of(message))
    fits(page, PHONE, "the invitation email")
    photograph(page, "invitation-email")
    accept = page.get_by_role("link", name=re.compile("^Accept")).get_attribute("href")
    see = page.get_by_role("link", name=re.compile("^See the game")).get_attribute("href")
    assert see == f"{PUBLIC_URL}/games/{game['id']}"
    text = text_of(message)
    assert text.index(accept) < text.index("POST "), "the API lines come after the links"
    page.close()

    context = signed_in(browser, site, cy)
    page = context.new_page()
    page.set_viewport_size(PHONE)
    page.goto(see.replace(PUBLIC_URL, site.server.url))
    expect(page.get_by_role("button", name="Accept")).to_be_visible()
    expect(page.get_by_role("button", name="Refuse")).to_be_visible()

    page = open_at_both_widths(context, accept.replace(PUBLIC_URL, site.server.url), "accept")
    look(page, "invitation-accept")
    photograph(page, "invitation-accept")
    assert site.services.games.summary(game["id"])["status"] == "open", "a GET accepted"
    page.get_by_role("button", name=re.compile("^Accept")).click()
    page.wait_for_url(re.compile(rf"/games/{game['id']}$"))
    expect(page.locator(".status")).not_to_contain_text("to join")
    expect(page.get_by_role("heading", name="The table as you see it")).to_be_visible()
    assert site.services.games.summary(game["id"])["status"] == "active"
    context.close()


def test_an_unknown_address_answers_a_page_to_a_browser_and_json_to_a_program(stranger, site):
    page = stranger.new_page()
    answer = page.goto(site.server.url + "/no/such/page")
    assert answer.status == 404 and answer.headers["content-type"].startswith("text/html")
    expect(page.get_by_role("navigation", name="Main")).to_be_visible()
    expect(page.get_by_role("heading", level=1)).to_contain_text("not found", ignore_case=True)
    fits(page, PHONE, "the error page")
    look(page, "not-found-page")
    photograph(page, "not-found")
    answer = page.goto(site.server.url + "/v1/no/such/thing")
    assert answer.status == 404 and "json" in answer.headers["content-type"]
    page.close()
    program = requests.get(
        site.server.url + "/no/such/page", headers={"Accept": "application/json"}, timeout=10
    )
    assert program.status_code == 404 and program.json()["code"] == "not_found"
    assert "json" in program.headers["Content-Type"]


def test_pages_number_seats_and_say_who_refused(ada, site):
    """A refused seat reads "Cy Phone (refused)"; the invite box shows only while a seat is
    open, and not on a game that has none."""
    page = ada.new_page()
    page.goto(f"{site.server.url}/games/{site.games['refused']}")
    expect(page.get_by_role("heading", level=1)).to_contain_text("Cy Phone (refused)")
    for kind in ("nautilus-middle", "invited"):
        page.goto(f"{site.server.url}/games/{site.games[kind]}")
        expect(page.get_by_role("heading", name="Invite a friend")).to_have_count(0)
    page.goto(f"{site.server.url}/games/{site.games['open']}")
    expect(page.get_by_role("heading", name="Invite a friend")).to_be_visible()
    page.close()
