"""The web client in Russian and Italian in a real browser (headless Chromium driven by
Playwright) against `turnpost serve` with its worker and a real SMTP server (issue 38): a
person whose browser asks for Russian signs up through the pages, finds Russian in their
settings and reads how to play Buttons in Russian; then they choose Italian, which wins over
what the browser asks for. In both languages, whose words are longer than English, the front
page, the new-game form, a game's page and a how-to-play page fit a phone's width without
scrolling sideways.

Then a game played in the reader's language, at a phone's width: a Russian browser signs up,
reads how to play Buttons, creates a game through the new-game form and plays it against a
player driven through the API: from the turn email (its one-click move page, its turn page)
and on the game's page, whose heading, board, move choices, log and seats are in Russian
with no English word of those surfaces, through to the end (moved on through the service, to
keep it short): the finished page with its ratings, and the turn and finished emails in
Russian at the SMTP server. The same in Italian for Con Sonar!. Every page of those visits,
and the emails' HTML, fits 360 px. With TURNPOST_SCREENSHOTS=<folder> each page is
photographed at that width."""

from __future__ import annotations

import os
import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
import requests
from playwright.sync_api import expect, sync_playwright

from service.assembly import assemble
from service.settings import Settings
from store.connection import connect
from tests.addresses import confirm
from tests.e2e.server import Client, LiveServer
from tests.e2e.test_pages_on_a_phone import PHONE, SIDEWAYS
from tests.e2e.test_web_client import CHROMIUM, look
from tests.peers import SmtpInbox, html_of, text_of

pytestmark = pytest.mark.slow

PUBLIC_URL = "http://turnpost.test"
SCREENSHOTS = os.environ.get("TURNPOST_SCREENSHOTS")


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
            yield server, outgoing, assemble(client, Settings(public_url=PUBLIC_URL))
        finally:
            client.close()
            server.stop()


@pytest.fixture(scope="module")
def browser():
    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM)
        yield chromium
        chromium.close()


def test_a_russian_browser_signs_up_and_every_page_fits_a_phone_in_russian_and_italian(
    site, browser
):
    server, outgoing, services = site
    context = browser.new_context(viewport=PHONE, locale="ru-RU")
    page = context.new_page()
    page.set_default_timeout(20_000)

    page.goto(server.url + "/")
    expect(page.locator("html")).to_have_attribute("lang", "ru")
    page.get_by_role("link", name="Зарегистрироваться").first.click()
    page.get_by_label("Ваше имя").fill("Аня")
    page.get_by_label("Ваш адрес электронной почты").fill("anya@example.org")
    page.get_by_role("button", name="Зарегистрироваться").click()
    expect(page.get_by_role("heading", name="Проверьте почту")).to_be_visible()
    message = outgoing.wait_for(
        lambda m, rcpt: "anya@example.org" in rcpt and m["X-Turnpost-Event"] == "sign_in.link",
        timeout=30,
    )
    link = re.search(rf"{re.escape(PUBLIC_URL)}(/sign-in/[A-Za-z0-9_-]+)", text_of(message))
    page.goto(server.url + link.group(1))
    page.get_by_role("button", name="Войти как Аня").click()
    expect(page.get_by_role("button", name="Выйти (Аня)")).to_be_visible()

    page.goto(server.url + "/settings")
    expect(page.get_by_label("Ваш язык")).to_have_value("ru")
    anya = services.players.named("Аня", 1)[0]["id"]
    assert services.players.profile(anya)["language"] == "ru"

    page.goto(server.url + "/how-to-play/buttons")
    expect(page.get_by_role("heading", name="Как играть в Buttons")).to_be_visible()
    expect(page.locator("#goal")).to_contain_text("звёзд")
    expect(page.locator("#turn")).to_contain_text("пуговиц")
    look(page, "how to play Buttons in Russian")  # axe-core, with lang="ru"

    bo = services.players.register("Bo", email="bo@example.org", language="it")
    confirm(services.players.players.r, bo["id"])
    services.players.set_friends(bo["id"], [anya])  # Аня seats him without asking
    game = services.games.create(anya, "buttons", [anya, bo["id"]])["id"]

    pages = {
        "home": "/",
        "new-game": "/games/new?game=consonar",
        "game": f"/games/{game}",
        "how-to-play": "/how-to-play/consonar",
    }
    words = {"ru": re.compile("как играть", re.I), "it": re.compile("come si gioca", re.I)}
    for language in ("ru", "it"):
        if language == "it":  # her setting wins over the browser's Russian
            page.goto(server.url + "/settings")
            page.get_by_label("Ваш язык").select_option("it")
            page.get_by_role("button", name="Сохранить", exact=True).click()
            expect(page.get_by_text("Le tue impostazioni sono salvate.")).to_be_visible()
        for kind, path in pages.items():
            page.goto(server.url + path)
            expect(page.locator("html")).to_have_attribute("lang", language)
            expect(page.locator("body")).to_contain_text(words[language])
            found = page.evaluate(SIDEWAYS)
            assert not found, f"{kind} in {language} at {PHONE['width']} px: {found}"
            if SCREENSHOTS:
                Path(SCREENSHOTS).mkdir(parents=True, exist_ok=True)
                picture = Path(SCREENSHOTS) / f"{kind}-{language}.png"
                page.screenshot(path=str(picture), full_page=True)
    expect(page.locator("#goal")).to_contain_text("sottomarini")
    context.close()


# -- a whole game's pages and emails in the reader's language ----------------------------------

# What a page or an email says, without the notation (language-neutral, in <code>) and the
# players' names (<bdi>): the text checked for the reader's words and for English ones.
SAID = """(selector) => [...document.querySelectorAll(selector)].map((found) => {
  const copy = found.cloneNode(true);
  copy.querySelectorAll("code, bdi, script, .visually-hidden").forEach((e) => e.remove());
  return copy.textContent;
}).join("\\n")"""


@dataclass(frozen=True)
class Language:
    code: str
    locale: str
    sign_up: dict[str, str]
    """The sign-up page's words: name, email, sign up, check your email, sign in as, sign out."""
    seat_name: str
    create: str
    played: str
    play: str


RUSSIAN = Language(
    "ru",
    "ru-RU",
    {
        "name": "Ваше имя",
        "email": "Ваш адрес электронной почты",
        "button": "Зарегистрироваться",
        "check": "Проверьте почту",
        "sign_in": "Войти как {}",
        "sign_out": "Выйти ({})",
    },
    "Имя игрока на месте 2",
    "Создать игру",
    "Вы сыграли",
    "Сыграть",
)
ITALIAN = Language(
    "it",
    "it-IT",
    {
        "name": "Il tuo nome",
        "email": "Il tuo indirizzo email",
        "button": "Registrati",
        "check": "Controlla la tua email",
        "sign_in": "Accedi come {}",
        "sign_out": "Esci ({})",
    },
    "Nome del giocatore al posto 2",
    "Crea la partita",
    "Hai giocato",
    "Gioca",
)


TITLES = ("Buttons", "Con Sonar!")  # the games' names are said as they are in every language


def english_in(text: str, words: tuple[str, ...]) -> list[str]:
    """The English words (whole words, any case) found in `text`, the titles and links aside."""
    text = re.sub(r"https?://\S+", "", text)
    for title in TITLES:
        text = text.replace(title, "").replace(title.upper(), "")
    return [w for w in words if re.search(rf"(?<!\w){re.escape(w)}(?!\w)", text, re.I)]


class Reader:
    """A person at a phone whose browser asks for a language: the pages they visit are checked
    to fit 360 px and photographed when asked."""

    def __init__(self, browser, site, language: Language, name: str, email: str):
        self.server, self.outgoing, self.services = site
        self.language, self.name, self.email = language, name, email
        self.context = browser.new_context(viewport=PHONE, locale=language.locale)
        self.page = self.context.new_page()
        self.page.set_default_timeout(20_000)

    def open(self, path: str, what: str):
        self.page.goto(self.server.url + path)
        self.check(what)
        return self.page

    def check(self, what: str) -> None:
        """The page is in the reader's language (its tab's title too) and fits a phone's
        width."""
        page = self.page
        expect(page.locator("html")).to_have_attribute("lang", self.language.code)
        leaked = english_in(page.title(), COMMON_ENGLISH)
        assert not leaked, f"{what}'s title in {self.language.code}: {leaked} in {page.title()}"
        found = page.evaluate(SIDEWAYS)
        assert not found, f"{what} in {self.language.code} at {PHONE['width']} px: {found}"
        if SCREENSHOTS:
            Path(SCREENSHOTS).mkdir(parents=True, exist_ok=True)
            name = f"{what}-{self.language.code}.png".replace(" ", "-")
            page.screenshot(path=str(Path(SCREENSHOTS) / name), full_page=True)

    def said(self, selector: str) -> str:
        return self.page.evaluate(SAID, selector)

    def sign_up(self) -> str:
        words, page = self.language.sign_up, self.page
        self.open("/sign-up", "sign-up")
        page.get_by_label(words["name"]).fill(self.name)
        page.get_by_label(words["email"]).fill(self.email)
        page.get_by_role("button", name=words["button"]).click()
        expect(page.get_by_role("heading", name=words["check"])).to_be_visible()
        self.check("check-your-email")
        message = self.outgoing.wait_for(
            lambda m, rcpt: self.email in rcpt and m["X-Turnpost-Event"] == "sign_in.link",
            timeout=30,
        )
        link = re.search(rf"{re.escape(PUBLIC_URL)}(/sign-in/[A-Za-z0-9_-]+)", text_of(message))
        self.open(link.group(1), "sign-in-link")
        page.get_by_role("button", name=words["sign_in"].format(self.name)).click()
        expect(page.get_by_role("button", name=words["sign_out"].format(self.name))).to_be_visible()
        self.check("signed-in")
        player = self.services.players.named(self.name, 1)[0]["id"]
        assert self.services.players.profile(player)["language"] == self.language.code
        return player

    def new_game(self, title: str, other: str, options: dict[str, str], english) -> str:
        """A game with `other` in seat 2, made through the new-game form, whose words (the
        options' descriptions and values too) are the reader's."""
        page = self.open(f"/games/new?game={title}", "new-game")
        check_surfaces(self, "the new-game form", {"main form": ""}, english)
        page.get_by_label(self.language.seat_name).fill(other)
        for label, value in options.items():
            page.get_by_label(label).select_option(value)
        page.get_by_role("button", name=self.language.create).click()
        page.wait_for_url(re.compile(r"/games/g_"))
        return page.url.rsplit("/", 1)[1]

    def finished(self, game_id: str) -> None:
        """The finished game's page, once its ratings are worked out (by the worker, before
        the finished email, which tells them)."""
        for _ in range(50):
            self.open(f"/games/{game_id}", "game-over")
            if self.page.locator("#ratings ul").count():
                return
            time.sleep(0.2)
        raise AssertionError("the game's ratings are not shown")

    def read_letter(self, message, what: str) -> None:
        """An email's HTML, read on the phone: it fits the width too."""
        letter = self.context.new_page()
        letter.set_content(html_of(message))
        found = letter.evaluate(SIDEWAYS)
        assert not found, f"{what} in {self.language.code} at {PHONE['width']} px: {found}"
        if SCREENSHOTS:
            name = f"{what}-{self.language.code}.png"
            letter.screenshot(path=str(Path(SCREENSHOTS) / name), full_page=True)
        letter.close()

    def letter(self, game_id: str, event: str):
        return self.outgoing.wait_for(
            lambda m, rcpt: (
                self.email in rcpt
                and m["X-Turnpost-Game"] == game_id
                and m["X-Turnpost-Event"] == event
            ),
            timeout=30,
        )


def opponent(server, name: str, friend: str):
    """The other player, driven through the API; `friend` may seat them without asking."""
    other = Client(server.url, name)
    r = requests.put(
        server.url + "/v1/players/me/friends",
        headers=other.headers,
        json={"friends": [friend]},
        timeout=30,
    )
    assert r.status_code == 200, r.text
    return other


def api_moves(other: Client, game_id: str, choose) -> int:
    """The opponent plays while the game waits for them: how many moves."""
    for played in range(50):
        summary = other.get(f"/v1/games/{game_id}").json()
        if summary["status"] != "active" or summary["active_seats"] != [1]:
            return played
        legal = other.get(f"/v1/games/{game_id}/legal-moves").json()
        notation = choose([m["notation"] for m in legal["moves"]])
        r = other.post(
            f"/v1/games/{game_id}/moves",
            {"notation": notation, "expected_version": legal["version"]},
        )
        assert r.status_code == 201, r.text
    raise AssertionError("the opponent's turn does not end")


def to_the_end(services, game_id: str, seats: list[str], choose) -> None:
    """Both players' moves, through the service on the same Valkey, until the game is over
    (the reader's last pages and the finished email are what the test looks at)."""
    for _ in range(500):
        summary = services.games.summary(game_id)
        if summary["status"] == "finished":
            return
        seat = summary["active_seats"][0]
        table = services.tables.for_seat(game_id, seat)
        notation = choose([m.notation for m in table.moves])
        services.games.play(game_id, seats[seat], table.version, notation=notation)
    raise AssertionError("the game did not end")


def first_of(kinds: tuple[str, ...]) -> Callable[[list[str]], str]:
    def choose(notations: list[str]) -> str:
        for kind in kinds:
            found = [n for n in notations if n.split()[0] == kind]
            if found:
                return found[0]
        return notations[0]

    return choose


quick = first_of(("torpedo", "optout", "roll", "end"))
"""The move that ends a game soonest: fire a torpedo, leave the round, roll, end the turn."""
calm = first_of(("end", "fleet", "optout", "roll"))
"""A move that keeps the game going for the turns the test reads (no torpedo fired)."""


def play_on_the_page(reader: Reader, what: str, choose: Callable[[list[str]], str]) -> None:
    """A move from the choices the page lists (a button per move, or a form per kind of move
    with a choice per field); the page that answers says it was played."""
    page = reader.page
    buttons = page.locator("#your-move ul.moves button")
    if buttons.count():
        notation = choose([b.get_attribute("value") for b in buttons.all()])
        page.locator(f'#your-move ul.moves button[value="{notation}"]').click()
    else:
        form = page.locator("#your-move form.composer").first
        for select in form.locator("select").all():
            select.select_option(index=1)  # the first choice after the prompt
        form.get_by_role("button", name=reader.language.play, exact=True).click()
    page.wait_for_load_state("domcontentloaded")
    said = page.locator(".flash, .status").filter(has_text=reader.language.played)
    expect(said.first).to_be_visible()
    reader.check(what)


def check_surfaces(reader: Reader, where: str, words: dict[str, str], english: tuple[str, ...]):
    """Each part of the page (a selector) says its reader's word (if one is given) and no
    English one."""
    for selector, word in words.items():
        text = reader.said(selector)
        assert word.lower() in text.lower(), f"{where} {selector}: no {word!r} in {text!r}"
        leaked = english_in(text, english)
        assert not leaked, f"{where} {selector} in {reader.language.code}: {leaked} in {text!r}"


def check_email(message, words: tuple[str, ...], english: tuple[str, ...]):
    """The email's subject and body say the reader's words, and its subject, plain text and
    HTML no English one."""
    subject, body = str(message["Subject"]), text_of(message)
    for word in words:
        assert word.lower() in (subject + "\n" + body).lower(), f"no {word!r}: {subject}\n{body}"
    for part, text in (("subject", subject), ("body", body), ("html", html_text(message))):
        leaked = english_in(text, english)
        assert not leaked, f"{message['X-Turnpost-Event']} {part}: {leaked} in {text!r}"


def html_text(message) -> str:
    """The words of the HTML part, without its tags and its notation (<code>)."""
    html = re.sub(r"<code>.*?</code>|<(style|script)\b.*?</\1>", " ", html_of(message), flags=re.S)
    return re.sub(r"<[^>]+>", " ", html)


def listed(text: str) -> tuple[str, ...]:
    return tuple(text.split(", "))


# English words of each title's surfaces (the board, its labels, the moves, the log, the
# emails), none of them notation, a name or a word the languages share
COMMON_ENGLISH = listed(
    "your move, your turn, to move, the board, the game so far, since your last move, score, "
    "clock, choose, played, game over, you won, wins, points, vs, you, provisional"
)
BUTTONS_ENGLISH = COMMON_ENGLISH + listed(
    "round, button, buttons, a star, stars, dice, die, white, gold, black, red, yellow, green, "
    "blue, bonus, opted out, bust, in the round, rolls, opt out, row, column"
)
CONSONAR_ENGLISH = COMMON_ENGLISH + listed(
    "submarine, submarines, sunk, rung, ladder, deck, hand, card, cards, fleet card, "
    "torpedo card, fire, fires, raise, lower, nation, orange, purple, red, yellow, green, blue, "
    "discard, neutral"
)


# (an option's values are its JSON text, true or false, as its description says them)
OPTIONS_ENGLISH = listed("the game ends, with 2 players, the seed, page says")


def test_a_russian_browser_learns_buttons_and_plays_it_in_russian(site, browser):
    server, _, services = site
    vera = Reader(browser, site, RUSSIAN, "Вера", "vera@example.org")
    me = vera.sign_up()
    page = vera.open("/how-to-play/buttons", "how-to-play-buttons")
    expect(page.get_by_role("heading", name="Как играть в Buttons")).to_be_visible()
    check_surfaces(
        vera,
        "how to play",
        {"#goal": "звёзд", "#turn": "пуговиц", "figure .board-frame": "раунд", "main": ""},
        BUTTONS_ENGLISH,
    )

    bo = opponent(server, "Bo Lang", me)
    game_id = vera.new_game("buttons", "Bo Lang", {}, COMMON_ENGLISH + OPTIONS_ENGLISH)
    vera.check("game-started")
    api_moves(bo, game_id, quick)

    # the turn email, in Russian, and its turn page, where she plays
    turn = vera.letter(game_id, "turn.started")
    vera.read_letter(turn, "turn-email")
    check_email(turn, ("Ваш ход", "Buttons"), BUTTONS_ENGLISH)
    # a one-click move of the email asks before it plays, in Russian (a GET plays nothing)
    one_click = re.search(rf"{re.escape(PUBLIC_URL)}(/m/[A-Za-z0-9_.-]+)", text_of(turn))
    vera.open(one_click.group(1), "one-click")
    check_surfaces(vera, "the one-click page", {"main": "Сделать этот ход?"}, BUTTONS_ENGLISH)
    link = re.search(rf"{re.escape(PUBLIC_URL)}(/t/[A-Za-z0-9_.-]+)", text_of(turn))
    page = vera.open(link.group(1), "turn-page")
    check_surfaces(
        vera,
        "the turn page",
        {"main": "Ваш ход", ".board-frame": "раунд", "#your-move": "Сыграть"},
        BUTTONS_ENGLISH,
    )
    play_on_the_page(vera, "turn-page-played", quick)
    vera.open(one_click.group(1), "one-click-stale")  # the move is no longer hers to play
    check_surfaces(
        vera, "the one-click page after", {"main": "Партия продвинулась"}, COMMON_ENGLISH
    )

    # the game's page, a few turns: the board, the moves, the log, what the other did
    for i in range(3):
        api_moves(bo, game_id, quick)
        vera.open(f"/games/{game_id}", f"game-page-{i}")
        check_surfaces(
            vera,
            f"the game's page, turn {i}",
            {
                "h1": "Вера",
                ".status": "ход",
                ".board-frame": "раунд",
                "#your-move": "Ваш ход",
                "#log": "раунд",
                ".seats": "",
            },
            BUTTONS_ENGLISH,
        )
        play_on_the_page(vera, f"game-page-{i}-played", quick)

    to_the_end(services, game_id, [me, bo.id], quick)
    finished = vera.letter(game_id, "game.finished")
    vera.finished(game_id)
    check_surfaces(
        vera,
        "the finished game's page",
        {".status": "Игра окончена", "#ratings": "Вы", ".board-frame": "", "#log": ""},
        BUTTONS_ENGLISH,
    )
    vera.open(f"/play/{game_id}", "public-page")  # linked from the turn page
    check_surfaces(vera, "the public page", {"main": "Игра окончена"}, BUTTONS_ENGLISH)
    vera.open("/games", "my-games")
    check_surfaces(vera, "my games", {"main": "Buttons"}, COMMON_ENGLISH)
    vera.read_letter(finished, "finished-email")
    check_email(finished, ("Buttons", "окончена", "Рейтинги"), BUTTONS_ENGLISH)
    vera.context.close()


def test_an_italian_browser_learns_con_sonar_and_plays_it_in_italian(site, browser):
    server, _, services = site
    lia = Reader(browser, site, ITALIAN, "Lia", "lia@example.org")
    me = lia.sign_up()
    page = lia.open("/how-to-play/consonar", "how-to-play-consonar")
    expect(page.get_by_role("heading", name="Come si gioca a Con Sonar!")).to_be_visible()
    check_surfaces(
        lia,
        "how to play",
        {"#goal": "sottomarini", "figure .board-frame": "livell", "main": ""},
        CONSONAR_ENGLISH,
    )

    cy = opponent(server, "Cy Lang", me)
    options = {"Fine con sottomarini rimasti": "10"}
    game_id = lia.new_game("consonar", "Cy Lang", options, CONSONAR_ENGLISH + OPTIONS_ENGLISH)
    lia.check("game-started")
    api_moves(cy, game_id, calm)

    turn = lia.letter(game_id, "turn.started")
    lia.read_letter(turn, "turn-email")
    check_email(turn, ("Tocca a te", "Con Sonar!"), CONSONAR_ENGLISH)
    link = re.search(rf"{re.escape(PUBLIC_URL)}(/t/[A-Za-z0-9_.-]+)", text_of(turn))
    lia.open(link.group(1), "turn-page")
    check_surfaces(
        lia,
        "the turn page",
        {"main": "Tocca a te", ".board-frame": "sottomarin", "#your-move": "Gioca"},
        CONSONAR_ENGLISH,
    )
    play_on_the_page(lia, "turn-page-played", calm)

    for i in range(3):
        api_moves(cy, game_id, calm)
        lia.open(f"/games/{game_id}", f"game-page-{i}")
        check_surfaces(
            lia,
            f"the game's page, turn {i}",
            {
                "h1": "Lia",
                ".status": "Tocca a te",
                ".board-frame": "sottomarin",
                "#your-move": "Tocca a te",
                "#log": "livello",
                ".seats": "",
            },
            CONSONAR_ENGLISH,
        )
        play_on_the_page(lia, f"game-page-{i}-played", calm)

    to_the_end(services, game_id, [me, cy.id], quick)
    finished = lia.letter(game_id, "game.finished")
    lia.finished(game_id)
    check_surfaces(
        lia,
        "the finished game's page",
        {".status": "Partita finita", "#ratings": "Tu", ".board-frame": "", "#log": ""},
        CONSONAR_ENGLISH,
    )
    lia.open(f"/play/{game_id}", "public-page")
    check_surfaces(lia, "the public page", {"main": "Partita finita"}, CONSONAR_ENGLISH)
    lia.open("/games", "my-games")
    check_surfaces(lia, "my games", {"main": "Con Sonar!"}, COMMON_ENGLISH)
    lia.read_letter(finished, "finished-email")
    check_email(finished, ("Con Sonar!", "finita", "Punteggi"), CONSONAR_ENGLISH)
    lia.context.close()
