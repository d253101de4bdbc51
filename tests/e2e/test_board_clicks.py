"""Moves made on the board, in a real browser (headless Chromium driven by Playwright) against
`turnpost serve`: two people, each in a browser of their own, play a whole game of every title
by clicking the board only (a card, a die, a submarine, then a space, a slot or a target; a
verb such as "Roll the dice" beside the board), each move previewed in words before it is
confirmed; and each time the turn comes to one of them, they arrive from My games and find
the other's move in words at the top of the page and marked on the board.

The moves are chosen (to keep the games short) from the data the page carries for its script,
as a person chooses from what the board shows; they are made by clicks alone. With
TURNPOST_SCREENSHOTS=<folder>, a board with a move picked and shown in words is photographed
at a phone's size (360 x 740) for each title (docs/screenshots/web/ holds them).
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect, sync_playwright

from tests.e2e.server import LiveServer
from tests.peers import SmtpInbox, text_of

pytestmark = [pytest.mark.browser, pytest.mark.slow]  # whole games, clicked

CHROMIUM = "/usr/bin/chromium-headless-shell"  # installed by `make test` (the browser target)
AXE = Path(__file__).resolve().parents[2] / "tools/axe/node_modules/axe-core/axe.min.js"
AXE_SOURCE = AXE.read_text() if AXE.exists() else "throw new Error('npm ci --prefix tools/axe')"
PUBLIC_URL = "http://turnpost.test"
SCREENSHOTS = os.environ.get("TURNPOST_SCREENSHOTS")
PHONE = {"width": 360, "height": 740}
TITLES = {
    "nautilus": "Nautilus",
    "consonar": "Con Sonar!",
    "buttons": "Buttons",
    "ninedomains": "The Nine Domains",
}
# the rules' shortest games: Con Sonar! ends with the first submarine sunk
OPTIONS = {"consonar": {"End subs left": "10"}}
MOVES_AT_MOST = 400
FROM_MY_GAMES = 4  # the first turns of each game are found on My games, the others on the
# game's page left open, which redraws itself (web/static/live.js, then board.js again)


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
        try:
            yield server, outgoing
        finally:
            server.stop()


@pytest.fixture(scope="module")
def browser():
    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM)
        yield chromium
        chromium.close()


class Person:
    """Someone at their own browser (a context of its own: its own cookies)."""

    def __init__(self, browser: Browser, site, name: str, email: str, seat: int):
        self.server, self.outgoing = site
        self.name, self.email, self.seat = name, email, seat
        self.context = browser.new_context(viewport={"width": 1280, "height": 900})
        self.page = self.context.new_page()
        self.page.set_default_timeout(20_000)

    def open(self, path: str) -> Page:
        self.page.goto(self.server.url + path)
        return self.page

    def sign_up(self) -> None:
        page = self.open("/sign-up")
        page.get_by_label("Your name").fill(self.name)
        page.get_by_label("Your email address").fill(self.email)
        page.get_by_role("button", name="Sign up").click()
        expect(page.get_by_role("heading", name="Check your email")).to_be_visible()
        message = self.outgoing.wait_for(
            lambda m, rcpt: self.email in rcpt and m["X-Turnpost-Event"] == "sign_in.link",
            timeout=30,
        )
        link = re.search(rf"{re.escape(PUBLIC_URL)}(/sign-in/[A-Za-z0-9_-]+)", text_of(message))
        self.open(link.group(1)).get_by_role("button", name=f"Sign in as {self.name}").click()
        expect(page.get_by_role("button", name=f"Sign out {self.name}")).to_be_visible()

    def new_game(self, game: str, other: Person) -> str:
        page = self.open(f"/games/new?game={game}")
        page.get_by_label("Seat 2", exact=True).select_option("player")
        page.get_by_label("Name of the player in seat 2").fill(other.name)
        for label, value in OPTIONS.get(game, {}).items():
            page.get_by_label(label).select_option(value)
        page.get_by_role("button", name="Create the game").click()
        page.wait_for_url(re.compile(r"/games/g_"))
        return page.url.rsplit("/", 1)[1]

    def arrive(self, game_id: str) -> Page:
        """From My games, where the game waits for this person's move, to the game's page."""
        page = self.open("/games")
        waiting = page.locator("section", has=page.get_by_role("heading", name="Your move"))
        waiting.locator(f'a[href="/games/{game_id}"]').click()
        page.wait_for_url(re.compile(f"/games/{game_id}"))
        return page


@pytest.fixture(scope="module")
def ada_and_bo(browser, site):
    ada = Person(browser, site, "Ada Board", "ada.board@example.org", 0)
    bo = Person(browser, site, "Bo Board", "bo.board@example.org", 1)
    ada.sign_up()
    bo.sign_up()
    return ada, bo


def accessible(page: Page, name: str) -> None:
    """axe-core finds no serious or critical violation on the page as it is now (evaluated
    through the browser's debugging protocol, which the page's policy does not govern: an
    inline <script> added to the page would be refused)."""
    page.evaluate(AXE_SOURCE)
    violations = page.evaluate(
        """async () => (await axe.run(document)).violations.map(
             (v) => ({id: v.id, impact: v.impact, help: v.help,
                      where: v.nodes.slice(0, 3).map((n) => n.target.join(" "))}))"""
    )
    serious = [v for v in violations if v["impact"] in ("serious", "critical")]
    assert not serious, f"{name}: {serious}"


def offered(page: Page) -> dict | None:
    """The moves the page offers on its board (the data its script reads), or None."""
    text = page.evaluate("() => document.getElementById('moves')?.textContent ?? null")
    if text is None:
        return None
    offer = json.loads(text)
    names = offer["parts"]
    return {
        "moves": [
            {
                "notation": notation,
                "words": words,
                "parts": [names[i] for i in picked],
                "changes": [names[i] for i in changed],
            }
            for notation, words, picked, changed in offer["moves"]
        ]
    }


def part(page: Page, name: str):
    """A part of the board, or a verb beside it."""
    where = "#picker" if name.startswith("do:") else ".board-frame"
    return page.locator(f'{where} [data-part="{name}"]')


# What the page shows of the picks now, read in one round trip: what is highlighted as the
# next pick, what is picked (pressed), the preview, the confirm button, the parts previewed.
PICKER_STATE = """() => {
  const names = (selector) => [...document.querySelectorAll(selector)].map((e) => e.dataset.part);
  const picker = document.getElementById("picker");
  const preview = document.getElementById("picker-preview");
  const confirm = picker && [...picker.querySelectorAll("button")].find(
    (b) => b.textContent === "Play this move");
  return {
    shown: !!picker && !picker.hidden && picker.offsetParent !== null,
    next: names(".can-pick[data-part]"),
    picked: names('[data-part][aria-pressed="true"]'),
    preview: preview && !preview.hidden ? preview.textContent : null,
    confirm: !!confirm && !confirm.hidden && confirm.offsetParent !== null,
    previewed: names(".preview[data-part]"),
  };
}"""


def play_by_clicks(page: Page, move: dict, photo: str | None = None) -> None:
    """Click the move's parts in order, each offered (highlighted) when its turn comes and
    pressed once clicked; check the preview in words; confirm."""
    where = f"{move['notation']!r}"
    state = page.evaluate(PICKER_STATE)
    assert state["shown"] and not state["picked"] and not state["confirm"], (where, state)
    assert state["preview"] is None, f"{where}: a move is shown before anything is picked"
    for i, name in enumerate(move["parts"]):
        assert name in state["next"], f"{where}: {name} is not offered after {state['picked']}"
        part(page, name).click()
        state = page.evaluate(PICKER_STATE)
        assert state["picked"] and set(state["picked"]) == set(move["parts"][: i + 1]), state
    assert state["preview"] == move["words"] and state["confirm"], (where, state)
    assert set(move["changes"]) <= set(state["previewed"]), (where, state)
    if photo:
        photograph(page, photo)
    with page.expect_navigation(wait_until="domcontentloaded"):  # the POST, then the page
        page.locator("#picker").get_by_role("button", name="Play this move").click()
    flash = page.evaluate("() => document.querySelector('.flash')?.textContent ?? ''")
    assert f"You played {move['notation']}" in flash, (where, flash)


def photograph(page: Page, name: str) -> None:
    """The accessibility check of the page mid-pick, and its photograph at a phone's size when
    asked for: the board around the part picked last, the picker below it."""
    accessible(page, name)
    if SCREENSHOTS:
        folder = Path(SCREENSHOTS)
        folder.mkdir(parents=True, exist_ok=True)
        size = page.viewport_size
        page.set_viewport_size(PHONE)
        page.evaluate(
            """() => [...document.querySelectorAll('.board-frame .picked')].pop()
                     .scrollIntoView({block: "center", inline: "center"})"""
        )
        page.screenshot(path=str(folder / f"{name}-phone.png"))
        if size:
            page.set_viewport_size(size)


# -- choosing (from what the board offers): short games, and each kind of pick once -----------

ONCE = {  # moves that pick in their own way, made the first time they are offered
    "nautilus": ("submarine", "harpoon", "eye", "place *anchor"),
    "consonar": ("delay", "defuse"),
    "buttons": ("skip",),
    "ninedomains": ("swap-domain", "swap-card"),
}


def choose(game: str, page: Page, moves: list[dict], tried: set[str]) -> dict:
    for kind in ONCE[game]:
        if kind in tried:
            continue
        head, _, tail = kind.partition(" *")
        found = [m for m in moves if m["notation"].split()[0] == head and tail in m["notation"]]
        if found:
            tried.add(kind)
            return found[0]
    kinds = {m["notation"].split()[0]: m for m in moves}
    if game == "nautilus":
        return nautilus_choice(page, moves, kinds)
    if game == "consonar":
        return consonar_choice(moves, kinds)
    if game == "buttons":  # out of each round as soon as one may: a star a round
        for verb in ("optout", "roll"):
            if verb in kinds:
                return kinds[verb]
        return next((m for m in moves if m["notation"].startswith("place")), moves[0])
    return kinds.get("pass", moves[0])  # The Nine Domains: the first cards


def nautilus_choice(page: Page, moves: list[dict], kinds: dict) -> dict:
    """Both help Ada (seat 0) win every column: high cards on her side, low ones on Bo's."""
    if "pass" in kinds:
        return kinds["pass"]
    places = [
        m for m in moves if m["notation"].startswith("place") and "anchor" not in m["notation"]
    ]
    if not places:
        return moves[0]
    faces = page.evaluate(
        """() => Object.fromEntries([...document.querySelectorAll('[data-part^="space:"]')]
                 .map((e) => [e.dataset.part, e.innerText.trim()]))"""
    )

    def strength(face: str) -> int:
        word = face.replace("\u00ad", "").split()[0] if face else ""  # Kra-ken on a phone
        return {"Kraken": 16, "Fishbone": -1, "": 7}.get(word, int(word) if word.isdigit() else 7)

    def score(move: dict) -> int:
        card, target = move["notation"].split()[1], move["parts"][-1]
        mine = {"kraken": 16, "fishbone": -1}.get(card, int(card) if card.isdigit() else 7)
        _, seat, col = target.split(":")
        facing = strength(faces.get(f"space:{1 - int(seat)}:{col}", ""))
        return mine - facing if seat == "0" else facing - mine

    return max(places, key=score)


def consonar_choice(moves: list[dict], kinds: dict) -> dict:
    """Fire at the most exposed submarine; else raise another's submarine; else end."""
    fire = [m for m in moves if m["notation"].startswith("torpedo")]
    if fire:
        return max(fire, key=lambda m: int(re.search(r"on rung (\d)", m["words"]).group(1)))
    fleet = [m for m in moves if m["notation"].startswith("fleet")]
    raising = [m for m in fleet if " up to " in m["words"] and " your " not in m["words"]]
    if raising:
        return raising[0]
    if "end" in kinds:
        return kinds["end"]
    return fleet[0]


# -- arriving: the other's move in words, and marked on the board -------------------------------

MARKS_SEEN = """() => [...document.querySelectorAll('.board-frame .changed')].map(
  (e) => [e.dataset.part, e.getAttribute('title') || ''])"""


def check_arrival(page: Page, other: Person) -> list[str]:
    """The page tells the other's move at its top; the parts its board marks."""
    since = page.evaluate("() => document.getElementById('since')?.innerText ?? ''")
    assert other.name in since, f"the other's move is not told: {since!r}"
    marked = page.evaluate(MARKS_SEEN)
    for name, title in marked:  # told in words too, not by its colour alone
        assert "changed since your last move" in title, (name, title)
    return [name for name, _ in marked]


PLACES = {"nautilus": "place", "consonar": "fleet"}


def certain_marks(game: str, moves: list[dict]) -> set[str]:
    """Parts the other's moves since the reader's last one must have marked, if they still
    show what those moves did (see `still_shown`): the space of a Nautilus placement, the
    submarine a Con Sonar! Fleet card moved, the dice of a Buttons roll, the three cards laid
    face down in The Nine Domains."""
    certain: set[str] = set()
    for move in moves:
        notation = move["notation"]
        if notation.startswith(PLACES.get(game, "-")):  # a card placed, a submarine moved
            certain.add(move["parts"][-1])
        elif game == "buttons" and notation == "roll":
            certain = {"die:white", "die:gold"}
        elif game == "ninedomains" and notation.startswith("play"):
            certain |= {move["parts"][1].rsplit(":", 1)[0] + f":{slot}" for slot in range(3)}
    return certain


SHOWN = """(names) => Object.fromEntries(names.map((name) => {
  const e = document.querySelector(`.board-frame [data-part="${name}"]`);
  return [name, e ? e.innerText.trim() : null];
}))"""


def still_shown(game: str, text: str | None) -> bool:
    """Whether a part still shows what the move did (a round may have ended since, the dice
    gone, the cards revealed)."""
    if text is None:
        return False
    if game == "nautilus":
        return bool(text)  # a card is there
    if game == "ninedomains":
        return text == "face down"
    return True


REDRAWN = """(version) => document.querySelector("main").dataset.version === version
  && !!document.getElementById("moves") && !!document.querySelector("#picker[data-ready]")"""


def play_a_whole_game(ada: Person, bo: Person, game: str) -> tuple[int, int, int]:
    """(moves played, arrivals, arrivals that found a mark)."""
    people = {ada.seat: ada, bo.seat: bo}
    game_id = ada.new_game(game, bo)
    page = bo.open("/games")
    page.locator(f'form[action="/games/{game_id}/join"]').get_by_role("button").click()
    expect(page.locator(".flash")).to_contain_text("The game has begun")

    mover = ada if offered(ada.open(f"/games/{game_id}")) else bo
    page = mover.open(f"/games/{game_id}")
    first = offered(page)
    assert first is not None, f"{game}: the page offers no move on its board"
    # Enter on a focused part picks it as a click does; Cancel clears the picks
    opening = first["moves"][0]["parts"][0]
    part(page, opening).focus()
    page.keyboard.press("Enter")
    expect(part(page, opening)).to_have_attribute("aria-pressed", "true")
    page.locator("#picker").get_by_role("button", name="Cancel").click()
    expect(page.locator("[data-part][aria-pressed='true']")).to_have_count(0)

    played = arrivals = with_marks = checked = 0
    theirs: list[dict] = []  # the moves of the one who waits, since their last move
    tried: set[str] = set()
    photographed = False
    for _ in range(MOVES_AT_MOST):
        data = offered(page)
        if data is None:
            if "Game over" in page.locator(".status").inner_text():
                assert checked, f"{game}: no mark of a move was checked"
                return played, arrivals, with_marks
            other = people[1 - mover.seat]
            version = page.locator("main").get_attribute("data-version")
            if arrivals < FROM_MY_GAMES:  # from My games, as a person comes back to a game
                page = other.arrive(game_id)
            else:  # the game's page left open: it redraws itself when the game moves on
                page = other.page
                if f"/games/{game_id}" not in page.url:
                    other.open(f"/games/{game_id}")
                page.wait_for_function(REDRAWN, arg=version)
            mover = other
            arrivals += 1
            marked = check_arrival(page, people[1 - mover.seat])
            with_marks += bool(marked)
            certain = sorted(certain_marks(game, theirs))
            shown = page.evaluate(SHOWN, certain)
            verified = [p for p in certain if still_shown(game, shown[p])]
            missing = [p for p in verified if p not in marked]
            assert not missing, f"{game}: {missing} not marked after {theirs}"
            checked += len(verified)
            theirs = []
            continue
        move = choose(game, page, data["moves"], tried)
        on_board = not any(p.startswith("do:") for p in move["parts"])
        photo = None if photographed or played < 2 or not on_board else f"board-pick-{game}"
        play_by_clicks(page, move, photo)
        photographed = photographed or photo is not None
        theirs.append(move)
        played += 1
    raise AssertionError(f"{game}: not over after {MOVES_AT_MOST} moves")


@pytest.mark.parametrize("game", TITLES)
def test_a_whole_game_played_by_clicking_the_board(ada_and_bo, game):
    """A title a test, so that the parallel workers share the four games (a worker that runs
    several shares one server and one browser between them)."""
    ada, bo = ada_and_bo
    played, arrivals, with_marks = play_a_whole_game(ada, bo, game)
    assert played >= 4 and arrivals >= 2, (game, played, arrivals)
    assert with_marks >= arrivals // 2, f"{game}: marks on {with_marks} of {arrivals}"
