"""The turn page: a link in every turn email opens the table as the seat sees it and forms
that compose any legal move, without JavaScript. Whole games of every title are played with
nothing but these pages, read and submitted as a browser would (the forms parsed from the
HTML); a stale, forged or tampered page changes nothing. Real Valkey, the app over WSGI."""

import random
import re
from html.parser import HTMLParser

import pytest

from api.app import create_app
from api.front_door import FrontDoor
from engine import registry
from service.settings import Settings

BASE = "http://turnpost.test"


class Forms(HTMLParser):
    """The page's forms: for each, its hidden fields and each select's option values."""

    def __init__(self, html: str):
        super().__init__()
        self.forms: list[dict] = []
        self.select: str | None = None
        self.links: list[str] = []
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "form":
            self.forms.append({"hidden": {}, "selects": {}})
        elif tag == "input" and attrs.get("type") == "hidden":
            self.forms[-1]["hidden"][attrs["name"]] = attrs["value"]
        elif tag == "select":
            self.select = attrs["name"]
            self.forms[-1]["selects"][self.select] = []
        elif tag == "option" and self.select and attrs["value"]:  # not the prompt: a choice
            self.forms[-1]["selects"][self.select].append(attrs["value"])
        elif tag == "a" and "href" in attrs:
            self.links.append(attrs["href"])

    def handle_endtag(self, tag):
        if tag == "select":
            self.select = None


@pytest.fixture
def table(redis_client):
    # the pages are anonymous calls, limited per address; a test plays whole games from one
    app = create_app(
        redis_client, settings=Settings(public_url=BASE), front_door=FrontDoor(rate_limits=False)
    )
    services = app.extensions["turnpost"]["services"]
    return app.test_client(), services


def turn_link(services, game_id: str, seat: int) -> str:
    """The link a turn email of this seat carries now (its first link)."""
    table = services.tables.for_seat(game_id, seat)
    return services.one_click.links(table, []).turn_page.removeprefix(BASE)


def play_by_pages(client, services, game_id: str, rnd: random.Random) -> int:
    """Play the game to its end through the turn pages; the number of moves played."""
    moves = 0
    while (snap := services.games.games.snapshot(game_id))["status"] == "active":
        seat = rnd.choice(snap["active_seats"])
        url = turn_link(services, game_id, seat)
        while url:  # the steps of this seat's turn
            page = client.get(url)
            assert page.status_code == 200, page.text
            assert "Your move" in page.text and "The table as you see it" in page.text
            forms = Forms(page.text).forms
            answer = None
            for _ in range(50):  # a combination may not be legal: the page says so
                form = rnd.choice(forms)
                data = {
                    **form["hidden"],
                    **{name: rnd.choice(values) for name, values in form["selects"].items()},
                }
                answer = client.post(url, data=data)
                if answer.status_code == 200:
                    break
                assert answer.status_code == 409 and "not one of your legal moves" in answer.text
            assert answer is not None and answer.status_code == 200, answer.text
            assert "You played" in answer.text
            moves += 1
            follow = [href for href in Forms(answer.text).links if "/t/" in href]
            url = follow[0].removeprefix(BASE) if follow else None
    return moves


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(registry.GAMES))
def test_a_whole_game_is_played_with_the_turn_pages_alone(table, name):
    client, services = table
    people = [
        services.players.register(n, email=f"{n.lower()}@example.org")["id"] for n in ("Ada", "Bo")
    ]
    services.players.set_friends(people[1], [people[0]])
    game_id = services.games.create(people[0], name, people)["id"]
    moves = play_by_pages(client, services, game_id, random.Random(name))
    assert services.games.games.snapshot(game_id)["status"] == "finished"
    assert moves >= 3


def test_a_page_the_game_moved_past_plays_nothing(table):
    client, services = table
    ada, bo = (services.players.register(n)["id"] for n in ("Ada", "Bo"))
    services.players.set_friends(bo, [ada])
    game_id = services.games.create(ada, "ninedomains", [ada, bo])["id"]
    url = turn_link(services, game_id, 0)
    form = Forms(client.get(url).text).forms[0]
    data = {**form["hidden"], **{n: v[0] for n, v in form["selects"].items()}}
    cards = services.games.legal_moves(game_id, ada)["moves"]
    # Ada plays through the API meanwhile: the page's turn is over
    services.games.play(game_id, ada, 2, action=cards[-1]["action"])
    version = services.games.games.snapshot(game_id)["version"]
    answer = client.post(url, data=data)
    assert answer.status_code == 409 and "moved on" in answer.text
    assert services.games.games.snapshot(game_id)["version"] == version


def test_a_tampered_form_or_a_forged_link_plays_nothing(table):
    client, services = table
    ada, bo = (services.players.register(n)["id"] for n in ("Ada", "Bo"))
    services.players.set_friends(bo, [ada])
    game_id = services.games.create(ada, "ninedomains", [ada, bo])["id"]
    url = turn_link(services, game_id, 0)
    for data in (
        {"type": "play", "cards.0": '"9"', "cards.1": '"9"', "cards.2": '"9"'},
        {"type": "resign"},
        {"type": "play", "cards.0": "not json"},
        {},
    ):
        answer = client.post(url, data=data)
        assert answer.status_code == 409, data
    token = url.rsplit("/", 1)[1]
    forged = token[:-3] + ("AAA" if not token.endswith("AAA") else "BBB")
    assert client.get(f"/t/{forged}").status_code == 404
    move_link = services.one_click.links(services.tables.for_seat(game_id, 0), ["x"]).moves[
        "x"
    ]  # a one-click link is no turn page
    assert client.get(move_link.removeprefix(BASE).replace("/m/", "/t/")).status_code == 404
    assert services.games.games.snapshot(game_id)["version"] == 2


def test_no_drop_down_of_the_turn_page_chooses_a_move_for_the_player(table):
    """Each drop-down starts on an empty prompt and is required: Play pressed at once plays
    nothing (a browser does not send the form; a page without checks sends the prompt)."""
    client, services = table
    ada, bo = (services.players.register(n)["id"] for n in ("Ada", "Bo"))
    services.players.set_friends(bo, [ada])
    game_id = services.games.create(ada, "ninedomains", [ada, bo])["id"]
    url = turn_link(services, game_id, 0)
    page = client.get(url).text
    selects = re.findall(r"<select ([^>]*)>\s*<option ([^>]*)>", page)
    assert len(selects) == 3  # the left, middle and right slots
    for select, first in selects:
        assert "required" in select and 'value=""' in first, (select, first)
    form = Forms(page).forms[0]
    answer = client.post(url, data={**form["hidden"], **{n: "" for n in form["selects"]}})
    assert answer.status_code == 409 and "not one of your legal moves" in answer.text
    assert services.games.games.snapshot(game_id)["version"] == 2
