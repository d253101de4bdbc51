"""Playing through the web client's pages (Flask's test client, a real Valkey): a game
against a friend found by name, an invitation accepted or refused, the lobby, a move form sent
again after the game moved on, a tampered form, resigning and a rematch."""

import random
import re
from html.parser import HTMLParser

import pytest
from markupsafe import escape

from tests.web.conftest import Browser, sign_up


class MoveForms(HTMLParser):
    """The move forms of a game's page: for each, its hidden fields, its selects' values (but
    the empty prompt each starts on), and its submit button's name and value (a one-click
    move). Not the board's picker, which posts the notation its script fills in (a form no
    one can send without the script)."""

    def __init__(self, html: str):
        super().__init__()
        self.forms: list[dict] = []
        self._select: str | None = None
        self._in_move_form = False
        self.feed(html)
        self.forms = [f for f in self.forms if f["hidden"].get("notation") != ""]

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "form":
            self._in_move_form = (a.get("action") or "").endswith("/move")
            if self._in_move_form:
                self.forms.append({"hidden": {}, "selects": {}, "button": None})
        elif not self._in_move_form:
            return
        elif tag == "input" and a.get("type") == "hidden":
            self.forms[-1]["hidden"][a["name"]] = a["value"]
        elif tag == "select":
            self._select = a["name"]
            self.forms[-1]["selects"][self._select] = []
        elif tag == "option" and self._select and a["value"]:  # not the prompt: a choice
            self.forms[-1]["selects"][self._select].append(a["value"])
        elif tag == "button" and a.get("name"):
            self.forms[-1]["button"] = (a["name"], a["value"])

    def handle_endtag(self, tag):
        if tag == "select":
            self._select = None
        elif tag == "form":
            self._in_move_form = False


def a_move(html: str, rnd: random.Random) -> dict | None:
    """The fields of a move a person could send from this page (None: no move to make)."""
    forms = MoveForms(html).forms
    if not forms:
        return None
    form = rnd.choice(forms)
    fields = {**form["hidden"], **{n: rnd.choice(v) for n, v in form["selects"].items()}}
    if form["button"]:
        fields[form["button"][0]] = form["button"][1]
    return fields


@pytest.fixture
def ada_and_bo(app, services, smtp):
    ada, bo = Browser(app), Browser(app)
    sign_up(ada, services, smtp, "Ada", "ada@example.org")
    sign_up(bo, services, smtp, "Bo", "bo@example.org")
    return ada, bo


def new_game(browser, game, **fields):
    browser.get(f"/games/new?game={game}")
    r = browser.post("/games/new", {"game": game, **fields})
    assert r.status_code == 303, r.get_data(as_text=True)
    return r.headers["Location"].rsplit("/", 1)[1]


def play_until_over(players: list, game_id: str, rnd: random.Random, limit: int = 3000) -> int:
    moves = 0
    for _ in range(limit):
        pages = [p.text(f"/games/{game_id}") for p in players]
        if "Game over" in pages[0]:
            return moves
        for player, html in zip(players, pages):
            fields = a_move(html, rnd)
            if fields is None:
                continue
            r = player.post(f"/games/{game_id}/move", fields)
            if r.status_code == 303:
                moves += 1
            else:  # a combination that is not legal: the page says so, nothing was played
                assert r.status_code == 422, r.get_data(as_text=True)
                assert "not one of your legal moves" in r.get_data(as_text=True)
            break
    raise AssertionError("the game did not end")


@pytest.mark.slow
@pytest.mark.parametrize("game", ["buttons", "consonar", "nautilus", "ninedomains"])
def test_a_game_against_a_friend_found_by_name_is_played_to_the_end(ada_and_bo, services, game):
    ada, bo = ada_and_bo
    game_id = new_game(ada, game, **{"seat.1": "player", "seat.1.name": "bo"})
    assert "Waiting for Bo (invited) to join" in ada.text(f"/games/{game_id}")
    invitations = bo.text("/games")
    assert "Invitations" in invitations and f"/games/{game_id}/join" in invitations
    assert bo.post(f"/games/{game_id}/join").status_code == 303
    assert play_until_over([ada, bo], game_id, random.Random(game)) >= 4  # two rounds at least
    snap = services.games.load(game_id)
    assert snap["status"] == "finished"
    finished = ada.text("/games")
    assert "Game over" in finished.split("Finished")[1]


@pytest.mark.slow
def test_a_form_sent_again_after_the_game_moved_on_plays_nothing(ada_and_bo, services):
    ada, bo = ada_and_bo
    bo.get("/settings")
    bo.post("/settings/friends", {"add": "Ada"})  # Ada may seat Bo: no invitation
    game_id = new_game(ada, "ninedomains", **{"seat.1": "player", "seat.1.name": "Bo"})
    rnd = random.Random(1)
    html = ada.text(f"/games/{game_id}")
    fields = a_move(html, rnd)
    while True:
        r = ada.post(f"/games/{game_id}/move", fields)
        if r.status_code == 303:
            break
        fields = a_move(html, rnd)
    version = services.games.load(game_id)["version"]
    # the same form again (the back button, a second tab): refused in words, nothing played
    again = ada.post(f"/games/{game_id}/move", fields)
    assert again.status_code in (303, 409)  # 303: the same request, answered as the first was
    assert services.games.load(game_id)["version"] == version
    bo_fields = a_move(bo.text(f"/games/{game_id}"), rnd)
    while bo.post(f"/games/{game_id}/move", bo_fields).status_code != 303:
        bo_fields = a_move(bo.text(f"/games/{game_id}"), rnd)
    moved = services.games.load(game_id)["version"]
    fields["type"] = fields.get("type", "")
    stale = ada.post(f"/games/{game_id}/move", {**fields, "x": "1"})
    assert stale.status_code == 409
    assert "The game moved on since this page was shown" in stale.get_data(as_text=True)
    assert services.games.load(game_id)["version"] == moved


@pytest.mark.slow
def test_a_tampered_move_form_plays_nothing(ada_and_bo, services):
    ada, bo = ada_and_bo
    bo.get("/settings")
    bo.post("/settings/friends", {"add": "Ada"})
    game_id = new_game(ada, "ninedomains", **{"seat.1": "player", "seat.1.name": "Bo"})
    version = services.games.load(game_id)["version"]
    for fields in (
        {"version": str(version), "type": "play", "cards.0": '"no such card"'},
        {"version": str(version), "type": "nonsense"},
        {"version": "not a number"},
        {"version": str(version), "notation": "zz top"},
    ):
        r = ada.post(f"/games/{game_id}/move", fields)
        assert r.status_code in (400, 409, 422), r.status_code
        assert (
            "Nothing was played" in r.get_data(as_text=True)
            or "legal moves" in r.get_data(as_text=True)
            or "not sent whole" in r.get_data(as_text=True)
        )
    assert services.games.load(game_id)["version"] == version
    stranger_move = bo.post(f"/games/{game_id}/move", {"version": str(version), "notation": "x"})
    assert stranger_move.status_code in (409, 422)


def test_an_invitation_refused_cancels_the_game(ada_and_bo, services):
    ada, bo = ada_and_bo
    game_id = new_game(ada, "buttons", **{"seat.1": "player", "seat.1.name": "Bo"})
    bo.get("/games")
    r = bo.post(f"/games/{game_id}/decline")
    assert r.status_code == 303
    assert services.games.load(game_id)["status"] == "cancelled"
    assert "Cancelled" in ada.text("/games")


def test_a_refused_seat_opened_to_the_lobby_says_who_refused_in_the_lists(ada_and_bo, services):
    ada, bo = ada_and_bo
    game_id = new_game(
        ada, "buttons", **{"seat.1": "player", "seat.1.name": "Bo", "if_declined": "open"}
    )
    bo.get("/games")
    assert bo.post(f"/games/{game_id}/decline").status_code == 303
    assert services.games.load(game_id)["status"] == "open"
    line = next(li for li in ada.text("/games").split("<li") if f"/games/{game_id}" in li)
    assert "Waiting for anyone from the lobby (Bo refused) to join" in line, line
    assert "an open seat" not in line
    assert "Bo (refused)" in ada.text(f"/games/{game_id}")


def test_a_game_with_an_open_seat_is_joined_from_the_lobby(ada_and_bo, services):
    ada, bo = ada_and_bo
    game_id = new_game(ada, "consonar", **{"seat.1": "open", "seat.2": "bot:heuristic"})
    page = ada.text(f"/games/{game_id}")
    assert "Invite a friend" in page and f"/games/{game_id}" in page
    lobby = bo.text("/lobby")
    assert f'action="/games/{game_id}/join"' in lobby
    assert bo.post(f"/games/{game_id}/join").status_code == 303
    assert services.games.load(game_id)["status"] == "active"
    assert f"/games/{game_id}/join" not in bo.text("/lobby")


@pytest.mark.slow
def test_resigning_asks_first_and_a_rematch_follows(ada_and_bo, services):
    ada, bo = ada_and_bo
    bo.get("/settings")
    bo.post("/settings/friends", {"add": "Ada"})
    game_id = new_game(
        ada, "nautilus", **{"seat.1": "player", "seat.1.name": "Bo", "clock": "86400"}
    )
    confirm = ada.text(f"/games/{game_id}/resign")
    assert "Yes, resign" in confirm and services.games.load(game_id)["status"] == "active"
    assert ada.post(f"/games/{game_id}/resign").status_code == 303
    over = bo.text(f"/games/{game_id}")
    assert "Game over: you won" in over and "Ask for a rematch" in over
    r = bo.post(f"/games/{game_id}/rematch")
    assert r.status_code == 303
    rematch = r.headers["Location"].rsplit("/", 1)[1]
    assert rematch != game_id
    assert "See the rematch" in ada.text(f"/games/{game_id}")
    assert f"/games/{rematch}/join" in ada.text("/games"), "Ada is invited to the rematch"
    assert services.games.load(rematch)["time_control"]["per_move_seconds"] == 86400


def test_a_new_game_form_says_what_is_wrong_in_words(ada_and_bo):
    ada, _ = ada_and_bo
    ada.get("/games/new?game=nautilus")
    r = ada.post("/games/new", {"game": "nautilus", "seat.1": "player", "seat.1.name": "Nobody"})
    assert r.status_code == 422 and "No player is called Nobody." in r.get_data(as_text=True)
    r = ada.post("/games/new", {"game": "nautilus", "seat.1": "player", "seat.1.name": ""})
    assert r.status_code == 422 and "Write the player&#39;s name." in r.get_data(as_text=True)
    options = ada.text("/games/new?game=consonar")
    assert "delay any card" in options.lower() and "the last arrow points to" in options
    r = ada.post("/games/new", {"game": "consonar", "seat.1": "none"})
    assert r.status_code == 422 and "needs at least 2 players" in r.get_data(as_text=True)


def test_a_player_sees_the_table_from_their_seat_and_a_stranger_as_a_spectator(
    app, services, smtp, ada_and_bo
):
    from service.play import boards

    ada, bo = ada_and_bo
    bo.get("/settings")
    bo.post("/settings/friends", {"add": "Ada"})
    game_id = new_game(ada, "ninedomains", **{"seat.1": "player", "seat.1.name": "Bo"})
    cy = Browser(app)
    sign_up(cy, services, smtp, "Cy", "cy@example.org")
    snap = services.games.load(game_id)
    seen = {name: b.text(f"/games/{game_id}") for name, b in (("ada", ada), ("bo", bo), ("cy", cy))}
    assert boards.seat_html(snap, 0) in seen["ada"] and boards.seat_html(snap, 1) in seen["bo"]
    assert boards.seat_html(snap, None) in seen["cy"]
    for reader, other in (("ada", 1), ("bo", 0), ("cy", 0), ("cy", 1)):
        assert boards.seat_html(snap, other) not in seen[reader]
    hands = services.games.view(game_id, snap["seats"][0]["player_id"])["hand"]
    assert "Your move" not in seen["cy"] and "/move" not in seen["cy"]
    assert hands and "YOUR HAND" not in seen["cy"].upper().split("THE GAME SO FAR")[0]


@pytest.mark.slow
def test_each_move_button_says_the_move_in_words_beside_its_notation(ada_and_bo, services):
    """Buttons: the first turn is a roll (one button), the roll a few placements."""
    ada, bo = ada_and_bo
    bo.get("/settings")
    bo.post("/settings/friends", {"add": "Ada"})
    game_id = new_game(ada, "buttons", **{"seat.1": "player", "seat.1.name": "Bo"})
    browsers = {"Ada": ada, "Bo": bo}
    buttons_seen = 0
    for _ in range(6):
        snap = services.games.load(game_id)
        seat = snap["active_seats"][0]
        record = snap["seats"][seat]
        page = browsers[record["name"]].text(f"/games/{game_id}")
        moves = services.games.legal_moves(game_id, record["player_id"])["moves"]
        shown = re.findall(r'<button type="submit" name="notation"[^>]*>(.*?)</button>', page, re.S)
        assert len(shown) == len(moves)
        for move, text in zip(moves, shown, strict=True):
            assert str(escape(move["description"])) in text and move["notation"] in text, text
        buttons_seen += len(shown)
        r = browsers[record["name"]].post(
            f"/games/{game_id}/move",
            {"version": str(snap["version"]), "notation": moves[0]["notation"]},
        )
        assert r.status_code == 303
    assert buttons_seen > 6  # a roll's placements, not rolls alone


@pytest.mark.slow
def test_no_control_of_a_move_form_chooses_a_move_for_the_player(ada_and_bo, services):
    """The Nine Domains' cards: every drop-down starts on a prompt, not on a card, and is
    required, so pressing Play at once plays nothing (a whole game was once played that way,
    with the first cards of every list)."""
    ada, bo = ada_and_bo
    bo.get("/settings")
    bo.post("/settings/friends", {"add": "Ada"})
    game_id = new_game(ada, "ninedomains", **{"seat.1": "player", "seat.1.name": "Bo"})
    version = services.games.load(game_id)["version"]
    page = ada.text(f"/games/{game_id}")
    selects = re.findall(r"<select ([^>]*)>\s*<option ([^>]*)>", page)
    assert len(selects) == 3  # the left, middle and right slots
    for select, first in selects:
        assert "required" in select and 'value=""' in first, (select, first)
    assert "selected" not in page.split('id="your-move"')[1].split("</section>")[0]
    pressed_at_once = {**MoveForms(page).forms[0]["hidden"]}
    pressed_at_once |= {name: "" for name in MoveForms(page).forms[0]["selects"]}
    r = ada.post(f"/games/{game_id}/move", pressed_at_once)
    assert r.status_code == 422 and "not one of your legal moves" in r.get_data(as_text=True)
    assert services.games.load(game_id)["version"] == version
