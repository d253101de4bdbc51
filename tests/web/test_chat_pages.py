"""Table talk on the web client's pages (Flask's test client, a real Valkey): the form, who reads
what, hostile text shown inert, a refusal in words, the turn page."""

import re

import pytest

from tests.hostile_text import REFUSED, SHOWN
from tests.web.conftest import Browser, sign_up


def people(app, services, smtp, names):
    """Signed-in browsers, the later ones friends of the first (seated without invitation)."""
    browsers = []
    for name in names:
        browser = Browser(app)
        sign_up(browser, services, smtp, name, f"{name.lower()}@example.org")
        browsers.append(browser)
    for browser in browsers[1:]:
        browser.get("/settings")
        browser.post("/settings/friends", {"add": names[0]})
    return browsers


def new_game(browser, game, *others):
    browser.get(f"/games/new?game={game}")
    fields = {"game": game}
    for n, name in enumerate(others, start=1):
        fields |= {f"seat.{n}": "player", f"seat.{n}.name": name}
    r = browser.post("/games/new", fields)
    assert r.status_code == 303, r.get_data(as_text=True)
    return r.headers["Location"].rsplit("/", 1)[1]


def chat_section(html: str) -> str:
    found = re.search(r'<section id="chat".*?</section>', html, re.S)
    return found.group(0) if found else ""


@pytest.mark.slow
def test_a_message_is_sent_from_the_page_and_read_by_the_players_not_spectators(
    app, services, smtp
):
    ada, bo = people(app, services, smtp, ["Ada", "Bo"])
    game_id = new_game(ada, "nautilus", "Bo")
    page = ada.text(f"/games/{game_id}")
    assert 'id="chat-form"' in page and "No messages yet" in page
    assert "chat-to" not in page  # two players: no private message
    r = ada.post(f"/games/{game_id}/chat", {"text": "Good luck, Bo!"})
    assert r.status_code == 303 and r.headers["Location"].endswith("#chat")
    for reader, who in ((ada, "you, to the table"), (bo, "Ada, to the table")):
        section = chat_section(reader.text(f"/games/{game_id}"))
        assert who in section and "<bdi>Good luck, Bo!</bdi>" in section
    spectator = Browser(app)
    assert "Good luck" not in spectator.text(f"/games/{game_id}")
    assert "Good luck" not in spectator.text(f"/play/{game_id}")


@pytest.mark.slow
def test_a_private_message_shows_on_two_pages_of_three(app, services, smtp):
    ada, bo, cy = people(app, services, smtp, ["Ada", "Bo", "Cy"])
    game_id = new_game(ada, "consonar", "Bo", "Cy")
    page = ada.text(f"/games/{game_id}")
    assert '<option value="2">Cy only</option>' in page
    assert (
        ada.post(f"/games/{game_id}/chat", {"text": "ally with me", "to": "2"}).status_code == 303
    )
    assert "Ada, to you privately" in cy.text(f"/games/{game_id}")
    assert "you, to Cy privately" in ada.text(f"/games/{game_id}")
    assert "ally with me" not in bo.text(f"/games/{game_id}")


@pytest.mark.slow
def test_hostile_text_is_refused_in_words_or_shown_as_text(app, services, smtp):
    ada, bo = people(app, services, smtp, ["Ada", "Bo"])
    game_id = new_game(ada, "buttons", "Bo")
    for what in ("CRLF", "NUL"):  # every form of the web client refuses control characters
        r = ada.post(f"/games/{game_id}/chat", {"text": REFUSED[what]})
        assert r.status_code == 400 and "control character" in r.get_data(as_text=True), what
    for what in ("RTL override", "10,000 characters", "only spaces"):
        r = ada.post(f"/games/{game_id}/chat", {"text": REFUSED[what]})
        assert r.status_code == 422, what
        assert re.search(
            r"class=\"problem\"[^>]*>Not sent: (the|a) message", r.get_data(as_text=True)
        )
    assert (
        services.talk.messages(game_id, services.games.load(game_id)["seats"][1]["player_id"])[
            "messages"
        ]
        == []
    )
    for text in SHOWN.values():
        assert ada.post(f"/games/{game_id}/chat", {"text": text}).status_code == 303
    page = bo.text(f"/games/{game_id}")
    assert "<script>alert" not in page and "<img src=x" not in page and "<b>bold" not in page
    assert "&lt;script&gt;alert(&#39;chat&#39;)&lt;/script&gt;" in page
    assert "&amp;lt;not a tag&amp;gt;" in page
    assert 'href="https://evil.example' not in page and 'href="javascript' not in page
    # shown as written, never evaluated as a template ("49 ...") or a format ("{ 7*7 } ...")
    shown = chat_section(page)
    assert "{{ 7*7 }} {seat0}" in shown and "49 {seat0}" not in shown
    assert "{ 7*7 }" not in shown.replace("{{ 7*7 }}", "")


def test_the_turn_page_shows_the_table_talk(app, services, smtp):
    ada, bo = people(app, services, smtp, ["Ada", "Bo"])
    game_id = new_game(ada, "ninedomains", "Bo")
    bo.post(f"/games/{game_id}/chat", {"text": "take your time <3"})
    ada_id = services.games.load(game_id)["seats"][0]["player_id"]
    table = services.tables.for_player(game_id, ada_id)
    link = services.one_click.links(table, [m.notation for m in table.moves]).turn_page
    page = Browser(app).text(link.removeprefix("http://turnpost.test"))
    assert "Table talk" in page and "Bo, to the table" in page
    assert "<bdi>take your time &lt;3</bdi>" in page


@pytest.mark.slow  # a game played to a takeback, over a second
def test_a_takeback_is_proposed_and_accepted_from_the_pages(app, services, smtp):
    ada, bo = people(app, services, smtp, ["Ada", "Bo"])
    game_id = new_game(ada, "ninedomains", "Bo")
    before = services.games.load(game_id)["match"]
    page = ada.text(f"/games/{game_id}")
    assert 'name="kind" value="abort"' in page and 'value="takeback"' not in page
    ada_id = services.games.load(game_id)["seats"][0]["player_id"]
    notation = services.games.legal_moves(game_id, ada_id)["moves"][0]["notation"]
    version = str(services.games.load(game_id)["version"])
    assert (
        ada.post(f"/games/{game_id}/move", {"version": version, "notation": notation}).status_code
        == 303
    )
    page = ada.text(f"/games/{game_id}")
    assert 'name="kind" value="takeback" class="secondary">Take back my last move' in page
    r = ada.post(f"/games/{game_id}/proposals", {"kind": "takeback"})
    assert r.status_code == 303 and r.headers["Location"].endswith("#proposals")
    theirs = bo.text(f"/games/{game_id}")
    assert "Ada proposes to take back their last move" in theirs and ">Accept</button>" in theirs
    assert "You propose to take back your last move" in ada.text(f"/games/{game_id}")
    proposal = re.search(r"/proposals/(\d+)/answer", theirs).group(1)
    assert (
        bo.post(f"/games/{game_id}/proposals/{proposal}/answer", {"accept": "yes"}).status_code
        == 303
    )
    assert services.games.load(game_id)["match"]["state"] == before["state"]
    assert "Bo accepts: Your last move is taken back" in ada.text(f"/games/{game_id}")
    again = bo.post(f"/games/{game_id}/proposals/{proposal}/answer", {"accept": "yes"})
    assert again.status_code == 404 and "Not done:" in again.get_data(as_text=True)


@pytest.mark.slow
def test_a_player_is_blocked_and_a_message_reported_from_the_pages(app, services, smtp):
    ada, bo = people(app, services, smtp, ["Ada", "Bo"])
    game_id = new_game(ada, "nautilus", "Bo")
    bo.post(f"/games/{game_id}/chat", {"text": "nasty words"})
    page = ada.text(f"/games/{game_id}")
    version = re.search(r"/games/[^/]+/messages/(\d+)/report", page).group(1)
    r = ada.post(f"/games/{game_id}/messages/{version}/report", {"reason": "nasty"})
    assert r.status_code == 303 and r.headers["Location"].endswith("#chat")
    assert services.moderation.reports()[0]["text"] == "nasty words"
    bo_id = services.games.load(game_id)["seats"][1]["player_id"]
    profile = ada.text(f"/players/{bo_id}")
    assert ">Block Bo</button>" in profile
    assert ada.post(f"/players/{bo_id}/block", {"block": "yes"}).status_code == 303
    assert ">Unblock Bo</button>" in ada.text(f"/players/{bo_id}")
    assert "nasty words" not in ada.text(f"/games/{game_id}")
    assert "nasty words" in bo.text(f"/games/{game_id}")
    assert ada.post(f"/players/{bo_id}/report", {"reason": "spam"}).status_code == 303
    assert ada.post(f"/players/{bo_id}/block", {"block": "no"}).status_code == 303
    assert "nasty words" in ada.text(f"/games/{game_id}")
