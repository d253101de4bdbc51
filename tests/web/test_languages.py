"""The web client in English, Russian and Italian (issue 38): every message of the pages, their
scripts and the API (an extraction with babel.cfg: templates, web/, api/, service/ and the
engine's refusals and options) has a translation in each catalogue, no word of a page or a
script is left outside them, and a page is in the language of its reader (their setting, else
their browser's Accept-Language, else English). The API's answers: tests/api/test_api_languages.py."""

import html
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from flask import render_template_string

from tests.web.conftest import Browser, sign_up
from web.play import won_words

ROOT = Path(__file__).resolve().parents[2]
TRANSLATED = ("ru", "it")
MONTHS = {  # a date on a page is written in the page's language
    "ru": "января|февраля|марта|апреля|мая|июня|июля|августа|сентября|октября|ноября|декабря",
    "it": "gennaio|febbraio|marzo|aprile|maggio|giugno|luglio|agosto|settembre|ottobre|"
    "novembre|dicembre",
}


def catalogue(language):
    with open(ROOT / "web/translations" / language / "LC_MESSAGES/messages.po", "rb") as f:
        return read_po(f, locale=language)


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_message_of_the_pages_is_translated_whole(language):
    found = catalogue(language)
    messages = [m for m in found if m.id]
    assert len(messages) > 100
    untranslated = [
        m.id
        for m in messages
        if m.fuzzy or not (all(m.string) if isinstance(m.string, tuple) else m.string)
    ]
    assert untranslated == [], f"{len(untranslated)} messages have no {language} translation"
    plurals = [m for m in messages if m.pluralizable]
    assert plurals and all(len(m.string) == found.num_plurals for m in plurals)
    # each translation keeps the placeholders of its message (python-format): what `pybabel
    # compile`, which `make test` runs first, checks ("31% of games" reads as a placeholder)
    problems = [(m.id, [str(e) for e in errors]) for m, errors in found.check()]
    assert problems == []


@pytest.mark.slow  # over a second
def test_an_extraction_finds_no_message_outside_the_catalogues(tmp_path):
    extracted = tmp_path / "messages.pot"
    subprocess.run(
        [
            sys.executable,
            "-c",
            "from babel.messages.frontend import main; main()",
            "--quiet",
            "extract",
            "-F",
            "babel.cfg",
            "-o",
            str(extracted),
            ".",
        ],
        cwd=ROOT,
        check=True,
    )
    with open(extracted, "rb") as f:
        wanted = {m.id if isinstance(m.id, str) else m.id[0] for m in read_po(f) if m.id}
    assert len(wanted) > 100
    for language in TRANSLATED:
        known = {m.id if isinstance(m.id, str) else m.id[0] for m in catalogue(language)}
        assert sorted(wanted - known) == [], f"messages missing from the {language} catalogue"
        assert sorted(known - wanted - {""}) == [], f"stale messages in the {language} catalogue"


@pytest.mark.parametrize(
    ("accept", "lang", "words"),
    [
        ("ru-RU,ru;q=0.9,en;q=0.5", "ru", ["Игры", "Войти", "Как играть в Buttons"]),
        ("it", "it", ["I giochi", "Accedi", "Come si gioca a Con Sonar!"]),
        ("de-DE,fr;q=0.8", "en", ["The games", "Sign in", "How to play Buttons"]),
        ("de, it;q=0.4, ru;q=0.3", "it", ["I giochi"]),
        ("", "en", ["The games"]),
    ],
)
def test_a_page_is_in_the_language_the_browser_asks_for(app, accept, lang, words):
    html = Browser(app).text("/", headers={"Accept-Language": accept} if accept else {})
    assert f'<html lang="{lang}">' in html
    for text in words:
        assert text in html


def test_signing_up_keeps_the_browsers_language_and_the_setting_wins_over_the_header(
    app, services, smtp
):
    browser = Browser(app)
    russian = {"Accept-Language": "ru,en;q=0.5"}
    browser.get("/sign-up", headers=russian)
    r = browser.post("/sign-up", {"name": "Anya", "email": "anya@example.org"}, headers=russian)
    assert r.status_code == 200 and "Проверьте почту" in r.get_data(as_text=True)
    sign_up_done = sign_up_link(browser, services, smtp, "anya@example.org", russian)
    assert sign_up_done.status_code == 303
    player = services.players.named("Anya", 1)[0]["id"]
    assert services.players.profile(player)["language"] == "ru"

    settings = browser.text("/settings", headers={"Accept-Language": "it"})
    assert '<html lang="ru">' in settings, "her setting, not the browser's header of the moment"
    assert re.search(r'<option value="ru" lang="ru" selected>', settings)
    assert re.search(MONTHS["ru"], settings), "the date she signed in, in Russian"

    browser.post("/settings", {"name": "Anya", "email": "anya@example.org", "language": "it"})
    page = browser.text("/settings", headers=russian)
    assert '<html lang="it">' in page and "Impostazioni" in page
    assert re.search(MONTHS["it"], page)
    assert services.players.profile(player)["language"] == "it"

    browser.post("/settings", {"name": "Anya", "email": "anya@example.org", "language": ""})
    assert '<html lang="ru">' in browser.text("/games", headers=russian), "no setting: the browser"


def sign_up_link(browser, services, smtp, email, headers):
    from tests.peers import text_of

    assert services.sign_in.send_links(email) == 1
    message = smtp.wait_for(lambda m, rcpt: email in rcpt)
    link = re.search(r"http://turnpost\.test(/sign-in/[A-Za-z0-9_-]+)", text_of(message)).group(1)
    browser.get(link, headers=headers)
    return browser.post(link, headers=headers)


def test_the_api_keeps_a_players_language_and_refuses_one_it_does_not_speak(app):
    client = app.test_client()
    made = client.post("/v1/players", json={"name": "Lia", "language": "it"})
    assert made.status_code == 201
    auth = {"Authorization": f"Bearer {made.json['token']}"}
    assert client.get("/v1/players/me", headers=auth).json["language"] == "it"
    assert (
        client.patch("/v1/players/me", json={"language": "ru"}, headers=auth).json["language"]
        == "ru"
    )
    refused = client.patch("/v1/players/me", json={"language": "de"}, headers=auth)
    assert refused.status_code == 422
    assert client.get("/v1/players/me", headers=auth).json["language"] == "ru"
    assert (
        client.patch("/v1/players/me", json={"language": None}, headers=auth).json["language"]
        is None
    )


def test_an_english_player_keeps_english_pages_whatever_the_browser_says(app, services, smtp):
    browser = Browser(app)
    sign_up(browser, services, smtp, "Ada", "ada@example.org")  # no Accept-Language: English
    page = browser.text("/games", headers={"Accept-Language": "ru"})
    assert '<html lang="en">' in page and "My games" in page


TRANS = re.compile(r"\{%-?\s*trans\b.*?\{%-?\s*endtrans\s*-?%\}", re.S)
NOT_WORDS = [
    r"\{#.*?#\}",  # comments
    r"\{\{.*?\}\}",  # expressions: _() and ngettext() are their words, the rest are values
    r"\{%.*?%\}",  # statements
    r"<script\b.*?</script>",
]
SAID_IN_ATTRIBUTES = re.compile(r'\b(?:aria-label|title|placeholder|alt)="([^"]*)"')
NEUTRAL = {"turnpost", "UTC"}  # the site's name and the time zone's


def words_outside_the_catalogue(template: str) -> list[str]:
    """The text of a template that a reader sees but no {% trans %}, _() or ngettext() wraps."""
    text = TRANS.sub(" ", template)
    for pattern in NOT_WORDS:
        text = re.sub(pattern, " ", text, flags=re.S)
    found = [said for said in SAID_IN_ATTRIBUTES.findall(text) if re.search("[A-Za-z]{2}", said)]
    text = re.sub(r"<[^>]*>", " ", text)
    text = re.sub(r'[\w-]+="[^"]*"', " ", text)  # attributes a block adds to a tag
    found += [
        words
        for words in re.findall(r"[A-Za-z][A-Za-z' ]*[A-Za-z]", text)
        if words.strip() not in NEUTRAL
    ]
    return found


def test_no_words_of_a_template_are_left_outside_the_catalogue():
    templates = sorted((ROOT / "web/templates").rglob("*.html"))
    assert len(templates) > 30
    left = {
        str(path.relative_to(ROOT)): found
        for path in templates
        if (found := words_outside_the_catalogue(path.read_text()))
    }
    assert left == {}
    assert words_outside_the_catalogue('<p>Sign in to see this page.</p>{{ _("Play") }}') == [
        "Sign in to see this page"
    ], "the check itself finds a sentence left out"


def test_a_fresh_clone_compiles_its_catalogues_when_the_app_starts(tmp_path):
    """No .mo is kept in git: the app compiles a missing one, and one older than its .po."""
    from babel.support import Translations

    from web.i18n import compile_catalogues

    for language in TRANSLATED:
        folder = tmp_path / language / "LC_MESSAGES"
        folder.mkdir(parents=True)
        po = ROOT / "web/translations" / language / "LC_MESSAGES/messages.po"
        (folder / "messages.po").write_bytes(po.read_bytes())
    assert compile_catalogues(tmp_path) == tmp_path
    russian = Translations.load(str(tmp_path), ["ru"])
    assert russian.gettext("Sign in") == "Войти"
    assert russian.ngettext("%(num)d day", "%(num)d days", 3) == "%(num)d дня"

    po = tmp_path / "it/LC_MESSAGES/messages.po"
    po.write_text(po.read_text().replace('msgstr "Accedi"', 'msgstr "Entra"'))
    mo = po.with_suffix(".mo")
    os.utime(mo, (0, 0))  # older than its .po, as after an edit
    compile_catalogues(tmp_path)
    assert Translations.load(str(tmp_path), ["it"]).gettext("Sign in") == "Entra"


def test_a_games_deadlines_are_in_the_readers_language_and_time_zone(app, services, smtp):
    browser = Browser(app)
    sign_up(browser, services, smtp, "Ada", "ada@example.org")
    ada = services.players.named("Ada", 1)[0]["id"]
    bo = services.players.register("Bo", email="bo@example.org")["id"]
    services.players.set_friends(bo, [ada])
    clock = {"kind": "per_move", "per_move_seconds": 3 * 86400, "on_timeout": "auto"}
    game = services.games.create(ada, "nautilus", [ada, bo], time_control=clock)["id"]
    english = browser.text(f"/games/{game}")
    assert "deadline in 2 days and 23 hours (" in english

    settings = {"name": "Ada", "email": "ada@example.org", "time_zone": "Europe/Moscow"}
    browser.post("/settings", {**settings, "language": "ru"})
    russian = browser.text(f"/games/{game}")
    assert "срок через 2 дня и 23 часа (" in russian
    assert re.search(rf"\d+ ({MONTHS['ru']}) \d{{4}}\s*г\., \d\d:\d\d Europe/Moscow\)", russian)
    assert "/games" in browser.text("/games") and "через 2 дня и 23 часа" in browser.text("/games")


@pytest.mark.slow
def test_a_vacation_is_told_in_the_readers_language(app, services, smtp):
    browser = Browser(app)
    sign_up(browser, services, smtp, "Ada", "ada@example.org")
    browser.get("/settings")  # a form of the new session's
    settings = {"name": "Ada", "email": "ada@example.org", "time_zone": "Europe/Rome"}
    browser.post("/settings", {**settings, "language": "it"})
    r = browser.post("/settings/vacation", {"from": "2026-12-24", "to": "2026-12-27"})
    assert r.status_code == 303
    page = browser.text("/settings")
    assert "La tua vacanza è presa" in page and "Ti restano 26 giorni di vacanza" in page
    assert "dal giovedì 24 dicembre 2026, 00:00 Europe/Rome al " in page
    assert "(4 giorni)</li>" in page


SCRIPTS = ("board.js", "chat.js", "live.js", "push.js")  # the scripts a page runs


def test_the_words_a_pages_scripts_write_are_the_pages_in_its_language(app, services, smtp):
    """The scripts write no English of their own: their words come with the page, as data."""
    asked = set()
    for name in SCRIPTS:
        script = (ROOT / "web/static" / name).read_text()
        asked |= set(re.findall(r'\bword\("(\w+)"', script))
        asked |= {
            f"{subject}_{rest}"
            for subject in ("game", "tournament")
            for rest in re.findall(r"\bword\(`\$\{subject\}_(\w+)`", script)
        }
        code = re.sub(r"^\s*//.*$", "", script, flags=re.M)  # not its comments
        sentences = re.findall(r'"[A-Z][a-z]+ [^"]*"|`[A-Z][a-z]+ [^`]*`', code)
        assert sentences == [], f"{name} writes words of its own"
    assert {"pick_next", "chat_sent", "game_moved_shown", "push_failed"} <= asked

    browser = Browser(app)
    sign_up(browser, services, smtp, "Ada", "ada@example.org")
    browser.get("/settings")
    said = {}
    for language in ("en", "ru", "it"):
        browser.post("/settings", {"name": "Ada", "email": "ada@example.org", "language": language})
        page = browser.text("/settings")
        block = re.search(r'<script type="application/json" id="words">(.*?)</script>', page, re.S)
        said[language] = json.loads(block.group(1))
        assert asked <= set(said[language]) and all(said[language].values())
    assert said["en"]["push_failed"] == "Notifications could not be turned on here: %(why)s."
    assert said["ru"]["push_failed"] == "Здесь не удалось включить уведомления: %(why)s."
    assert said["it"]["chat_sent"] == "Inviato."
    assert said["ru"]["game_moved_reload"].startswith("Партия продвинулась")


@pytest.mark.slow
def test_a_refusal_worded_with_values_is_shown_in_the_pages_language(app, services, smtp):
    browser = Browser(app)
    sign_up(browser, services, smtp, "Ada", "ada@example.org")
    ada = services.players.named("Ada", 1)[0]["id"]
    bo = services.players.register("Bo", email="bo@example.org")["id"]
    services.players.set_friends(bo, [ada])
    game = services.games.create(ada, "nautilus", [ada, bo])["id"]
    while (snap := services.games.load(game))["seats"][snap["active_seats"][0]]["player_id"] != ada:
        move = services.games.legal_moves(game, bo)["moves"][0]["notation"]
        services.games.play(game, bo, snap["version"], notation=move)
    browser.get("/settings")  # a form of the new session's
    settings = {"name": "Ada", "email": "ada@example.org", "time_zone": "UTC"}
    browser.post("/settings", {**settings, "language": "ru"})
    version = services.games.load(game)["version"]
    r = browser.post(f"/games/{game}/move", {"version": str(version), "notation": "place 7 opp9"})
    page = html.unescape(r.get_data(as_text=True))
    assert r.status_code == 422, page
    assert "не удаётся прочитать 'place 7 opp9': 'opp9' — не клетка;" in page
    assert "cannot read" not in page
    r = browser.post(f"/games/{game}/chat", {"text": "good \u202eluck"})
    page = html.unescape(r.get_data(as_text=True))
    assert r.status_code == 422
    assert "в сообщении есть символ, меняющий направление текста (U+202E)" in page
    assert "changes the direction" not in page
    r = browser.post("/games/g_nothere/proposals", {"kind": "draw"})
    page = html.unescape(r.get_data(as_text=True))
    assert r.status_code == 404 and "Партии g_nothere нет" in page, page


def test_points_and_tiebreaks_on_a_page_are_written_in_its_locale(app):
    template = "{{ 0.25 | points }} {{ 2.5 | points }} {{ 3 | points }} {{ 12.75 | points }}"
    said = {}
    for accept in ("en", "ru", "it"):
        with app.test_request_context("/", headers={"Accept-Language": accept}):
            said[accept] = render_template_string(template)
    assert said == {"en": "0.25 2½ 3 12.75", "ru": "0,25 2½ 3 12,75", "it": "0,25 2½ 3 12,75"}


@pytest.mark.parametrize(
    "accept,said",
    [
        ("en", "you and Bo share the win"),
        ("ru", "вы и Bo делите победу"),
        ("it", "tu e Bo condividete la vittoria"),
    ],
)
def test_a_shared_win_on_a_game_page_is_conjugated_for_the_reader_among_the_winners(
    app, accept, said
):
    with app.test_request_context(headers={"Accept-Language": accept}):
        assert won_words(["Ada", "Bo"], {"winners": [0, 1]}, 0) == said
        assert "Ada" in won_words(["Ada", "Bo"], {"winners": [0, 1]}, None)


def test_a_yes_or_no_option_is_offered_in_the_pages_language_and_still_sets_the_option(
    app, services, smtp
):
    """The new-game form's yes-or-no options read "да (true)" in Russian ("yes (true)" in
    English): the reader's word, with the API's that the option's description uses; the form
    sends the API's value."""
    browser = Browser(app)
    sign_up(browser, services, smtp, "Ada", "ada@example.org")
    ada = services.players.named("Ada", 1)[0]["id"]
    bo = services.players.register("Bo", email="bo@example.org")["id"]
    services.players.set_friends(bo, [ada])
    english = browser.get("/games/new?game=nautilus").get_data(as_text=True)
    assert '<option value="true">yes (true)</option>' in english
    assert '<option value="false" selected>no (false)</option>' in english
    settings = {"name": "Ada", "email": "ada@example.org", "time_zone": "Europe/Rome"}
    browser.post("/settings", {**settings, "language": "ru"})
    russian = browser.get("/games/new?game=nautilus").get_data(as_text=True)
    assert '<option value="true">да (true)</option>' in russian
    assert '<option value="false" selected>нет (false)</option>' in russian
    assert ">true<" not in russian and ">false<" not in russian
    r = browser.post(
        "/games/new",
        {
            "game": "nautilus",
            "seat.1": "player",
            "seat.1.name": "Bo",
            "option.anchor_placed_card": "true",
            "option.hidden_domains": "false",
        },
    )
    assert r.status_code == 303, r.get_data(as_text=True)
    game = services.games.load(r.headers["Location"].rsplit("/", 1)[1])
    assert game["options"] == {"anchor_placed_card": True, "hidden_domains": False}
