"""The web client in Russian and Italian in a real browser (headless Chromium driven by
Playwright) against `turnpost serve` with its worker and a real SMTP server (issue 38): a
person whose browser asks for Russian signs up through the pages, finds Russian in their
settings and reads how to play Buttons in Russian; then they choose Italian, which wins over
what the browser asks for. In both languages, whose words are longer than English, the front
page, the new-game form, a game's page and a how-to-play page fit a phone's width without
scrolling sideways. With TURNPOST_SCREENSHOTS=<folder> each is photographed at that width."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from playwright.sync_api import expect, sync_playwright

from service.assembly import assemble
from service.settings import Settings
from store.connection import connect
from tests.addresses import confirm
from tests.e2e.server import LiveServer
from tests.e2e.test_pages_on_a_phone import PHONE, SIDEWAYS
from tests.e2e.test_web_client import CHROMIUM, look
from tests.peers import SmtpInbox, text_of

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


def test_a_russian_browser_signs_up_and_every_page_fits_a_phone_in_russian_and_italian(site):
    server, outgoing, services = site
    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM)
        try:
            context = chromium.new_context(viewport=PHONE, locale="ru-RU")
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
                lambda m, rcpt: (
                    "anya@example.org" in rcpt and m["X-Turnpost-Event"] == "sign_in.link"
                ),
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
        finally:
            chromium.close()
