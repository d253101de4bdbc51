"""The web client in a real browser (headless Chromium driven by Playwright) against
`turnpost serve` with its workers and a real SMTP server: what a person does, through the
pages only. Every page the tests open is checked with axe-core (no serious or critical
violation); with TURNPOST_SCREENSHOTS=<folder> each is also photographed at a phone's and a
desktop's width (docs/screenshots/web/ holds the ones the README shows). Every page runs under
the server's Content-Security-Policy: each browser reports any violation of it (the page's
`securitypolicyviolation` events and the console), and a test fails on one."""

from __future__ import annotations

import os
import random
import re
import time
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect, sync_playwright

from tests.e2e.server import LiveServer
from tests.peers import SmtpInbox, text_of

CHROMIUM = "/usr/bin/chromium-headless-shell"  # installed by `make test` (the browser target)
AXE = Path(__file__).resolve().parents[2] / "tools/axe/node_modules/axe-core/axe.min.js"
AXE_SOURCE = AXE.read_text() if AXE.exists() else "throw new Error('npm ci --prefix tools/axe')"
PUBLIC_URL = "http://turnpost.test"
SCREENSHOTS = os.environ.get("TURNPOST_SCREENSHOTS")
WIDTHS = {"phone": (390, 844), "desktop": (1280, 900)}
PHOTOGRAPHED = {  # one of each kind of page
    "home",
    "sign-up",
    "check-your-email",
    "sign-in-link",
    "sign-in",
    "my-games",
    "lobby",
    "new-game-consonar",
    "game-nautilus",
    "game-consonar",
    "game-buttons",
    "game-ninedomains",
    "game-over-nautilus",
    "stale-form",
    "settings",
}
TITLES = {
    "nautilus": "Nautilus",
    "consonar": "Con Sonar!",
    "buttons": "Buttons",
    "ninedomains": "The Nine Domains",
}


@pytest.fixture(scope="module")
def site(valkey):
    with SmtpInbox() as outgoing:
        env = {
            "SMTP_URL": outgoing.url,
            "PUBLIC_URL": PUBLIC_URL,
            "EMAIL_DELAY_SECONDS": "0",  # the first turn email at once; later ones are
            # throttled as in production (one per player and game per 5 minutes)
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


PEOPLE: list[Person] = []  # everyone's browser, whose policy violations each test checks
REPORT_VIOLATIONS = """
document.addEventListener("securitypolicyviolation", (e) => window.reportViolation({
  page: location.href, directive: e.violatedDirective, blocked: e.blockedURI, sample: e.sample,
}));
"""


class Person:
    """A person at their own browser (a context of its own: its own cookies). The browser
    reports every violation of a page's Content-Security-Policy to `violations`."""

    def __init__(self, browser: Browser, site, name: str, email: str):
        self.server, self.outgoing = site
        self.name, self.email = name, email
        self.context = browser.new_context(viewport={"width": 1280, "height": 900})
        self.violations: list = []
        self.context.expose_binding(
            "reportViolation", lambda _source, found: self.violations.append(found)
        )
        self.context.add_init_script(REPORT_VIOLATIONS)
        self.page = self.context.new_page()
        self.page.set_default_timeout(20_000)
        self.watch(self.page)
        PEOPLE.append(self)

    def watch(self, page: Page) -> None:
        """Chromium also says on the console when the policy refused something."""
        page.on(
            "console",
            lambda message: (
                self.violations.append({"page": page.url, "console": message.text})
                if "Content Security Policy" in message.text
                else None
            ),
        )

    def open(self, path: str) -> Page:
        self.page.goto(self.server.url + path)
        return self.page

    def sign_up(self) -> None:
        page = self.open("/")
        look(page, "home")
        page.get_by_role("link", name="Sign up").first.click()
        look(page, "sign-up")
        page.get_by_label("Your name").fill(self.name)
        page.get_by_label("Your email address").fill(self.email)
        page.get_by_role("button", name="Sign up").click()
        expect(page.get_by_role("heading", name="Check your email")).to_be_visible()
        look(page, "check-your-email")
        self.follow_sign_in_link()

    def sign_in(self) -> None:
        page = self.open("/sign-in")
        look(page, "sign-in")
        page.get_by_label("Your email address").fill(self.email)
        page.get_by_role("button", name="Email me a sign-in link").click()
        expect(page.get_by_role("heading", name="Check your email")).to_be_visible()
        self.follow_sign_in_link()

    def follow_sign_in_link(self) -> None:
        """Open the sign-in email's link (written for PUBLIC_URL) and press its button; the
        email is taken out of the outbox, so the next sign-in waits for a new one."""
        message = self.outgoing.wait_for(
            lambda m, rcpt: self.email in rcpt and m["X-Turnpost-Event"] == "sign_in.link",
            timeout=30,
        )
        with self.outgoing.changed:
            self.outgoing.messages[:] = [x for x in self.outgoing.messages if x[1] is not message]
        link = re.search(rf"{re.escape(PUBLIC_URL)}(/sign-in/[A-Za-z0-9_-]+)", text_of(message))
        page = self.open(link.group(1))
        look(page, "sign-in-link")
        page.get_by_role("button", name=f"Sign in as {self.name}").click()
        expect(page.get_by_role("button", name=f"Sign out {self.name}")).to_be_visible()

    def new_game(self, game: str, seats: dict[int, tuple[str, str]], **choices: str) -> str:
        """Create a game from the pages; seats: {seat index: (kind, name)}; its id."""
        page = self.open("/games/new")
        page.get_by_role("link", name=TITLES[game], exact=True).click()
        for n, (kind, name) in seats.items():
            page.get_by_label(f"Seat {n + 1}", exact=True).select_option(kind)
            if name:
                page.get_by_label(f"Name of the player in seat {n + 1}").fill(name)
        for label, value in choices.items():
            page.get_by_label(label).select_option(value)
        look(page, f"new-game-{game}")
        page.get_by_role("button", name="Create the game").click()
        page.wait_for_url(re.compile(r"/games/g_"))
        return page.url.rsplit("/", 1)[1]


def look(page: Page, name: str) -> None:
    """The accessibility check of the page, and its photographs when they are asked for.
    axe-core is evaluated by the browser's debugging protocol, which the page's policy does
    not govern (an inline <script> added to the page would be refused, rightly)."""
    page.evaluate(AXE_SOURCE)
    violations = page.evaluate(
        """async () => (await axe.run(document)).violations.map(
             (v) => ({id: v.id, impact: v.impact, help: v.help,
                      where: v.nodes.slice(0, 3).map((n) => n.target.join(" "))}))"""
    )
    serious = [v for v in violations if v["impact"] in ("serious", "critical")]
    assert not serious, f"{name}: {serious}"
    if SCREENSHOTS and name in PHOTOGRAPHED:
        folder = Path(SCREENSHOTS)
        folder.mkdir(parents=True, exist_ok=True)
        size = page.viewport_size
        for width, (w, h) in WIDTHS.items():
            page.set_viewport_size({"width": w, "height": h})
            page.screenshot(path=str(folder / f"{name}-{width}.png"), full_page=True)
        if size:
            page.set_viewport_size(size)


# The game's page as the players read it, in one round trip: its status line (null unless there
# is exactly one), whether it has a "Your move" part, and the moves that part offers (how many
# buttons; for each form, the values of each of its drop-downs' options, the prompt's empty).
SHOWN = """() => {
  const status = document.querySelectorAll(".status");
  const mine = document.getElementById("your-move");
  return {
    status: status.length === 1 ? status[0].innerText : null,
    mine: !!mine,
    buttons: mine ? mine.querySelectorAll("ul.moves button").length : 0,
    forms: mine ? [...mine.querySelectorAll("form.composer")].map((form) =>
      [...form.querySelectorAll("select")].map((select) =>
        [...select.querySelectorAll("option")].map((o) => o.getAttribute("value")))) : [],
  };
}"""


def move(page: Page, rnd: random.Random, shown: dict | None = None) -> bool:
    """Make a move from the game's page shown, if it offers one: a button when there are few
    moves, else a choice in each drop-down of one form. Whether a move was played (a
    combination that is not allowed is answered on the page, and nothing is played).
    `shown` is what SHOWN read of the page, if it was read already."""
    shown = shown or page.evaluate(SHOWN)
    if shown["buttons"]:
        page.locator("#your-move ul.moves button").nth(rnd.randrange(shown["buttons"])).click()
    elif shown["forms"]:
        i = rnd.randrange(len(shown["forms"]))
        form = page.locator("#your-move form.composer").nth(i)
        for j, values in enumerate(shown["forms"][i]):
            chosen = rnd.choice([v for v in values if v])  # not the prompt
            form.locator("select").nth(j).select_option(value=chosen)
        form.get_by_role("button", name="Play").click()
    else:
        return False
    page.wait_for_load_state("domcontentloaded")
    return page.locator(".flash").filter(has_text="You played").count() == 1


def play_to_the_end(people: list[Person], game_id: str, rnd: random.Random) -> int:
    """Play the game through its pages until it is over: each person plays while their page
    offers a move, then the next one opens the game's page. How many moves were played."""
    moves, turn = 0, 0
    page = people[0].open(f"/games/{game_id}")
    for _ in range(5000):
        shown = page.evaluate(SHOWN)
        assert shown["status"] is not None, f"not one status line on {page.url}"
        if "Game over" in shown["status"]:
            return moves
        if move(page, rnd, shown):
            moves += 1
        elif not shown["mine"]:
            page.goto("about:blank")  # its stream closes: no redraw while the other plays
            turn += 1
            page = people[turn % len(people)].open(f"/games/{game_id}")
    raise AssertionError("the game did not end")


@pytest.fixture(autouse=True)
def no_policy_violation():
    """After each test: no page of anyone's browser broke its Content-Security-Policy."""
    yield
    found = [v for person in PEOPLE for v in person.violations]
    for person in PEOPLE:
        person.violations.clear()
    assert not found, f"Content-Security-Policy violations: {found}"


@pytest.fixture(scope="module")
def ada_and_bo(browser, site):
    ada = Person(browser, site, "Ada Web", "ada.web@example.org")
    bo = Person(browser, site, "Bo Web", "bo.web@example.org")
    ada.sign_up()
    bo.sign_up()
    return ada, bo


# Through the forms alone (the page without its board's clicks), in a browser: one title.
# tests/e2e/test_board_clicks.py plays a whole game of every title on the page's board, and
# tests/web/test_game_pages.py one of every title through its forms (Flask's test client).
@pytest.mark.parametrize("game", ["nautilus"])
def test_two_people_play_a_whole_game_through_the_pages(ada_and_bo, game):
    ada, bo = ada_and_bo
    # Con Sonar! ends when two submarines are left (the site's English page): a shorter game
    choices = {"End subs left": "2"} if game == "consonar" else {}
    game_id = ada.new_game(game, {1: ("player", "bo web")}, **choices)
    look(ada.page, f"game-open-{game}")
    page = bo.open("/games")
    look(page, "my-games-invited")
    invitation = page.locator("li", has=page.locator(f'a[href="/games/{game_id}"]'))
    accept = invitation.get_by_role("button", name="Accept")
    if accept.count():  # not when an earlier test on this worker made Ada his friend
        accept.click()
        expect(page.locator(".flash")).to_contain_text("The game has begun")
    look(page, f"game-{game}")
    moves = play_to_the_end([ada, bo], game_id, random.Random(game))
    assert moves >= 4
    page = ada.open(f"/games/{game_id}")
    expect(page.locator(".status")).to_contain_text("Game over")
    look(page, f"game-over-{game}")
    # a rematch: Ada asks, Bo finds the invitation in his games
    page.get_by_role("button", name="Ask for a rematch").click()
    page.wait_for_url(re.compile(r"/games/g_"))
    rematch = page.url.rsplit("/", 1)[1]
    assert rematch != game_id
    expect(page.locator(".status")).to_contain_text("Waiting for Bo Web (invited) to join")
    mine = bo.open("/games")
    look(mine, "my-games")
    mine.locator(f'form[action="/games/{rematch}/join"]').get_by_role("button").click()
    expect(mine.locator(".flash")).to_contain_text("The game has begun")


def test_the_board_changes_without_a_reload_when_the_other_moves(ada_and_bo):
    ada, bo = ada_and_bo
    game_id = ada.new_game("nautilus", {1: ("player", "Bo Web")})
    take_the_seat(bo, game_id)
    rnd = random.Random(7)
    waiting, mover = (ada, bo)
    if not bo.open(f"/games/{game_id}").locator("#your-move").count():
        waiting, mover = bo, ada
    watched = waiting.open(f"/games/{game_id}")
    expect(watched.locator("#your-move")).to_have_count(0)
    watched.evaluate("window.notReloaded = true")
    before = watched.locator("main").get_attribute("data-version")
    page = mover.open(f"/games/{game_id}")
    while not move(page, rnd):
        pass
    expect(watched.locator("#live")).to_contain_text("moved on", timeout=20_000)
    assert watched.evaluate("window.notReloaded") is True, "the page was not reloaded"
    after = watched.locator("main").get_attribute("data-version")
    assert int(after) > int(before), "the page shows the game after the move"
    assert watched.locator("ol.log li").last.get_attribute("value") == after


def test_a_form_sent_after_the_turn_moved_on_is_refused_in_words(ada_and_bo):
    ada, bo = ada_and_bo
    game_id = ada.new_game("ninedomains", {1: ("player", "Bo Web")})
    take_the_seat(bo, game_id)
    # a second tab of Ada's, where she starts to choose before she plays from the first
    second = ada.context.new_page()
    second.goto(ada.server.url + f"/games/{game_id}")
    form = second.locator("#your-move form.composer").first
    for select in form.locator("select").all():  # each is required
        select.select_option(index=select.locator("option").count() - 1)
    page = ada.open(f"/games/{game_id}")
    rnd = random.Random(3)
    while not move(page, rnd):
        pass
    # the game moved on: the page she is choosing on says so and is not redrawn under her
    expect(second.locator("#live")).to_contain_text("reload the page")
    form.get_by_role("button", name="Play").click()
    expect(second.locator(".problem")).to_contain_text(
        "The game moved on since this page was shown, so nothing was played"
    )
    look(second, "stale-form")
    second.close()


def test_an_invitation_is_refused_and_a_game_is_joined_from_the_lobby(browser, site, ada_and_bo):
    ada, _ = ada_and_bo
    cy = Person(browser, site, "Cy Web", "cy.web@example.org")
    cy.sign_up()
    refused = ada.new_game("buttons", {1: ("player", "Cy Web")})
    page = cy.open("/games")
    page.locator(f'form[action="/games/{refused}/decline"]').get_by_role("button").click()
    expect(page.locator(".flash")).to_contain_text("You refused the invitation")
    expect(ada.open(f"/games/{refused}").locator(".status")).to_contain_text("Cancelled")
    lobby_game = ada.new_game("consonar", {1: ("open", ""), 2: ("bot:heuristic", "")})
    page = cy.open("/lobby")
    look(page, "lobby")
    page.locator(f'form[action="/games/{lobby_game}/join"]').get_by_role("button").click()
    expect(page.locator(".flash")).to_contain_text("The game has begun")


def test_signing_in_again_on_a_new_browser_by_an_emailed_link(browser, site, ada_and_bo):
    ada, _ = ada_and_bo
    again = Person(browser, site, ada.name, ada.email)
    page = again.open("/settings")
    expect(page).to_have_url(re.compile(r"/sign-in"))
    again.sign_in()
    expect(again.page).to_have_url(re.compile(r"/settings$"))
    look(again.page, "settings")
    again.page.get_by_label("Your time zone, for deadlines").select_option("Europe/Rome")
    again.page.get_by_role("button", name="Save", exact=True).click()
    expect(again.page.locator(".flash")).to_contain_text("Your settings are saved")
    again.page.get_by_role("button", name="Make a new API token").click()
    token = again.page.locator("code.secret").inner_text()
    assert token.startswith("tp_")
    look(again.page, "settings-new-token")
    # a new token signs out every other browser of hers: her first one signs in again
    expect(ada.open("/settings")).to_have_url(re.compile(r"/sign-in"))
    ada.sign_in()
    expect(ada.page).to_have_url(re.compile(r"/settings$"))


def test_the_other_pages_pass_the_accessibility_check_too(ada_and_bo):
    """The pages no other test here opens: choosing a game, a profile, the resign question,
    the turn page of a turn email, a game's public page, and a page that says no."""
    ada, bo = ada_and_bo
    look(ada.open("/games/new"), "choose-game")
    page = bo.open("/settings")
    page.get_by_label("Add a friend by name").fill(ada.name)
    page.get_by_role("button", name="Save friends").click()
    expect(page.locator(".flash")).to_contain_text("Your friends are saved")
    game_id = ada.new_game("nautilus", {1: ("player", bo.name)})
    page = ada.open(f"/games/{game_id}")
    page.get_by_role("link", name=bo.name).click()
    expect(page.get_by_role("heading", name=bo.name, exact=True)).to_be_visible()
    look(page, "profile")
    page = ada.open(f"/games/{game_id}/resign")
    look(page, "resign")
    first = "ada" if ada.open(f"/games/{game_id}").locator("#your-move").count() else "bo"
    person = ada if first == "ada" else bo
    email = person.outgoing.wait_for(
        lambda m, rcpt: (
            person.email in rcpt
            and m["X-Turnpost-Game"] == game_id
            and m["X-Turnpost-Event"] == "turn.started"
        ),
        timeout=30,
    )
    turn_page = re.search(rf"{re.escape(PUBLIC_URL)}(/t/[A-Za-z0-9_.-]+)", text_of(email))
    look(person.open(turn_page.group(1)), "turn-page")
    look(person.open(f"/play/{game_id}"), "public-page")
    missing = person.open("/games/g_nothing")
    expect(missing.locator(".message")).to_contain_text("There is no game g_nothing")
    look(missing, "not-found")


def security_headers(response, what: str) -> None:
    """An answer's headers say what the server's policy says (api/security_headers.py)."""
    assert response is not None, what
    headers = response.headers  # Playwright gives their names in lower case
    policy = {
        part.strip().split(" ", 1)[0]: part.strip().partition(" ")[2]
        for part in headers["content-security-policy"].split(";")
    }
    assert policy["frame-ancestors"] == "'none'", what
    assert "'unsafe-inline'" not in policy["script-src"], what
    assert "'unsafe-eval'" not in policy["script-src"], what
    assert policy["object-src"] == "'none'" and policy["base-uri"] == "'none'", what
    assert headers["x-frame-options"] == "DENY", what
    assert headers["x-content-type-options"] == "nosniff", what
    assert headers["referrer-policy"] == "same-origin", what
    assert "strict-transport-security" not in headers, f"{what}: plain http, no HSTS"


def test_every_page_kind_carries_the_security_headers_and_works_under_the_policy(ada_and_bo):
    """The headers of every kind of page, read by the browser; and the pages work under the
    policy: a move played from a game's page and seen live on the other's (no reload), the
    API's documentation. The policy is enforced, not only sent: a script slipped into a page
    does not run, and its violation is reported (the check every test here makes sees it)."""
    ada, bo = ada_and_bo
    game_id = ada.new_game("nautilus", {1: ("player", bo.name)})
    invitation = bo.open("/games").locator(f'form[action="/games/{game_id}/join"]')
    if invitation.count():  # not when an earlier test made Ada his friend
        invitation.get_by_role("button").click()
        expect(bo.page.locator(".flash")).to_contain_text("The game has begun")
    first = ada if ada.open(f"/games/{game_id}").locator("#your-move").count() else bo
    email = first.outgoing.wait_for(
        lambda m, rcpt: (
            first.email in rcpt
            and m["X-Turnpost-Game"] == game_id
            and m["X-Turnpost-Event"] == "turn.started"
        ),
        timeout=30,
    )
    turn_page = re.search(rf"{re.escape(PUBLIC_URL)}(/t/[A-Za-z0-9_.-]+)", text_of(email))
    profile = ada.open(f"/games/{game_id}").get_by_role("link", name=bo.name).get_attribute("href")
    stranger = Person(ada.page.context.browser, (ada.server, ada.outgoing), "Nobody", "x@y.org")
    kinds = {
        "front page": (stranger, "/"),
        "sign in": (stranger, "/sign-in"),
        "sign up": (stranger, "/sign-up"),
        "a refused next": (stranger, "/sign-in?next=//evil.test"),
        "lobby": (ada, "/lobby"),
        "my games": (ada, "/games"),
        "choose a game": (ada, "/games/new"),
        "new game": (ada, "/games/new?game=nautilus"),
        "a game": (ada, f"/games/{game_id}"),
        "resign?": (ada, f"/games/{game_id}/resign"),
        "a profile": (ada, profile),
        "settings": (ada, "/settings"),
        "public page": (stranger, f"/play/{game_id}"),
        "turn page": (first, turn_page.group(1)),
        "not found": (ada, "/games/g_nothing"),
        "a bad sign-in link": (stranger, "/sign-in/" + "A" * 43),
        "API docs": (stranger, "/docs/"),
    }
    for what, (person, path) in kinds.items():
        security_headers(person.page.goto(person.server.url + path), what)
    # its script ran and read the document
    expect(stranger.page.locator(".swagger-ui .info")).to_be_visible(timeout=60_000)
    # a move through the page, seen live by the other (live.js under the policy)
    waiting = bo if first is ada else ada
    watched = waiting.open(f"/games/{game_id}")
    watched.evaluate("window.notReloaded = true")
    page = first.open(f"/games/{game_id}")
    rnd = random.Random(11)
    while not move(page, rnd):
        pass
    expect(watched.locator("#live")).to_contain_text("moved on", timeout=20_000)
    assert watched.evaluate("window.notReloaded") is True
    # enforced: a script put into the page (as an injection would) is refused and reported
    watched.evaluate(
        """() => { const s = document.createElement("script");
                   s.textContent = "window.injected = true"; document.body.append(s); }"""
    )
    deadline = time.monotonic() + 10
    while not waiting.violations and time.monotonic() < deadline:
        watched.wait_for_timeout(50)
    assert watched.evaluate("window.injected === undefined"), "the inline script ran"
    reported = [v for v in waiting.violations if v.get("directive", "").startswith("script-src")]
    assert reported, waiting.violations
    waiting.violations.clear()
    # and no other page shows one of these in a frame
    other_site = stranger.context.new_page()
    other_site.set_content(f'<iframe src="{ada.server.url}/"></iframe>')  # waits for its load
    framed = other_site.frames[-1]
    assert "turnpost" not in (framed.evaluate("document.body.innerText") or "")
    other_site.close()
    stranger.violations.clear()  # the refusal, which the framing page may report


def take_the_seat(person: Person, game_id: str) -> None:
    """Accept the invitation to the game, if there is one (a friend is seated already)."""
    page = person.open("/games")
    invitation = page.locator(f'form[action="/games/{game_id}/join"]')
    if invitation.count():
        invitation.get_by_role("button").click()
        expect(page.locator(".flash")).to_contain_text("You took your seat")


def test_two_people_talk_while_they_play_and_a_move_is_taken_back(ada_and_bo):
    """Messages appear on the other's page as they are written (no reload), a message being
    typed survives the page's redraw when the game moves, and a takeback proposed on one page
    is accepted on the other's."""
    ada, bo = ada_and_bo
    game_id = ada.new_game("ninedomains", {1: ("player", "Bo Web")})
    take_the_seat(bo, game_id)
    watched = bo.open(f"/games/{game_id}")
    watched.evaluate("window.notReloaded = true")
    page = ada.open(f"/games/{game_id}")
    page.get_by_label("Your message").fill("Good luck, Bo <b>!</b>")
    page.get_by_role("button", name="Send").click()
    expect(page.locator("#chat-status")).to_have_text("Sent.")
    expect(watched.locator("#chat-messages")).to_contain_text("Ada Web, to the table")
    expect(watched.locator("#chat-messages bdi")).to_have_text("Good luck, Bo <b>!</b>")
    look(watched, "game-talk")
    # Bo starts to answer; meanwhile Ada plays: his page shows her move, his words kept
    watched.get_by_label("Your message").fill("Thanks, and to")
    while not move(page, random.Random(5)):
        pass
    expect(watched.locator("#live")).to_contain_text("moved on")
    expect(watched.get_by_label("Your message")).to_have_value("Thanks, and to")
    assert watched.evaluate("window.notReloaded") is True, "the page was not reloaded"
    # Ada takes her face-down cards back; Bo, asked on his page, accepts
    page = ada.open(f"/games/{game_id}")
    page.get_by_role("button", name="Take back my last move").click()
    expect(page.locator(".flash")).to_contain_text("Your proposal is made")
    proposal = watched.locator("#proposals")
    expect(proposal).to_contain_text("Ada Web proposes to take back their last move")
    proposal.get_by_role("button", name="Accept").click()
    expect(watched.locator(".flash")).to_contain_text("You accepted the proposal")
    page = ada.open(f"/games/{game_id}")
    expect(page.locator("#log")).to_contain_text("Bo Web accepts: Your last move is taken back")
    expect(page.locator("#your-move")).to_have_count(1)


def test_a_private_message_is_read_by_one_opponent_and_not_the_other(browser, site, ada_and_bo):
    ada, bo = ada_and_bo
    di = Person(browser, site, "Di Web", "di.web@example.org")
    di.sign_up()
    game_id = ada.new_game("consonar", {1: ("player", "Bo Web"), 2: ("player", "Di Web")})
    for person in (bo, di):
        take_the_seat(person, game_id)
    bo_page = bo.open(f"/games/{game_id}")
    page = ada.open(f"/games/{game_id}")
    page.get_by_label("Your message").fill("Bo, shall we sink Di's first?")
    page.get_by_label("To", exact=True).select_option(label="Bo Web only")
    page.get_by_role("button", name="Send").click()
    expect(page.locator("#chat-messages")).to_contain_text("you, to Bo Web privately")
    expect(bo_page.locator("#chat-messages")).to_contain_text("Ada Web, to you privately")
    di_page = di.open(f"/games/{game_id}")
    expect(di_page.locator("#chat")).to_contain_text("No messages yet")
    assert "sink Di" not in di_page.content()


def test_a_blocked_players_invitation_never_arrives(browser, site):
    """Di blocks Ev from his page (reached from the game he invited her to): his next
    invitation is refused on his page and never reaches her, neither in her games nor by
    email, and his open table is not in her lobby."""
    _, outgoing = site
    di = Person(browser, site, "Di Block", "di.block@example.org")
    ev = Person(browser, site, "Ev Block", "ev.block@example.org")
    di.sign_up()
    ev.sign_up()

    def invitations_to_di():
        return [
            m
            for rcpt, m, _ in outgoing.messages
            if di.email in rcpt and m["X-Turnpost-Event"] == "game.invited"
        ]

    first = ev.new_game("nautilus", {1: ("player", "Di Block")})
    outgoing.wait_for(lambda m, rcpt: di.email in rcpt and m["X-Turnpost-Event"] == "game.invited")
    page = di.open(f"/games/{first}")
    page.get_by_role("link", name="Ev Block").first.click()
    page.get_by_role("button", name="Block Ev Block").click()
    expect(page.get_by_role("button", name="Unblock Ev Block")).to_be_visible()
    invited = len(invitations_to_di())
    # Ev invites her again: refused on his page, and nothing reaches her
    page = ev.open("/games/new")
    page.get_by_role("link", name="Nautilus", exact=True).click()
    page.get_by_label("Seat 2", exact=True).select_option("player")
    page.get_by_label("Name of the player in seat 2").fill("Di Block")
    page.get_by_role("button", name="Create the game").click()
    expect(page.locator("main")).to_contain_text("one of you has blocked the other")
    # his table with an open seat: not in her lobby
    open_table = ev.new_game("nautilus", {1: ("open", "")})
    page = di.open("/lobby")
    expect(page.locator("main")).to_be_visible()
    assert f"/games/{open_table}" not in page.content()
    time.sleep(1)  # an invitation email would have gone at once (EMAIL_DELAY_SECONDS=0)
    assert len(invitations_to_di()) == invited
    page = di.open("/games")
    assert page.locator('form[action$="/join"]').count() == 1  # the first invitation only
    assert f"/games/{first}" in page.content()
