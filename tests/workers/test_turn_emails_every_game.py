"""A whole game of every title between two email players, carried out by a real `turnpost
worker` and a real SMTP server: every turn email has the table as the seat sees it (with its
hand where the game has one), its turn page, and every log line the seat may read since its
previous email, its own move's consequences included (a reveal, a draw, dice, a round's end)."""

import random

import pytest

from engine import registry
from service.play import logview
from service.play.table import SINCE_LINES
from tests.peers import text_of

pytestmark = pytest.mark.slow  # plays a whole game of every title with its emails

HANDS = {"nautilus": "Your hand", "consonar": "Your hand", "ninedomains": "Your hand"}


def one_line(text: str) -> str:
    return " ".join(text.split())


def seat_lines(games, game_id: str, seat: int, after: int, upto: int) -> list[str]:
    snap = games.load(game_id)
    game = registry.GAMES[snap["game"]]
    return [
        line["text"]
        for e in games.games.events(game_id, after=after)
        if e["version"] <= upto and e["type"] not in ("GameCreated", "GameEnded")
        for line in logview.render(game, snap["seats"], e, seat)["lines"]
    ]


@pytest.mark.parametrize("name", sorted(registry.GAMES))
def test_every_turn_email_of_a_whole_game(services, start_workers, smtp, name):
    players, games = services
    start_workers(SMTP_URL=smtp.url, PUBLIC_URL="http://turnpost.test")
    addresses = ["ada@example.org", "bo@example.org"]
    people = [players.register(n, email=a)["id"] for n, a in zip(("Ada", "Bo"), addresses)]
    players.set_friends(people[1], [people[0]])
    game_id = games.create(people[0], name, people)["id"]
    rnd = random.Random(name)
    previous: dict[int, int] = {}  # seat -> the version of its previous turn email
    checked = 0
    while (summary := games.summary(game_id))["status"] == "active":
        snap = games.load(game_id)
        for seat in summary["active_seats"]:  # each turn that began has its email
            version = snap["match"]["seat_since"][seat]
            if previous.get(seat) == version:
                continue
            message = smtp.wait_for(
                lambda m, r, s=seat, v=version: (
                    addresses[s] in r
                    and m["X-Turnpost-Version"] == str(v)
                    and m["X-Turnpost-Event"] == "turn.started"
                ),
                timeout=30,
            )
            body = one_line(text_of(message))
            assert "The game as you see it" in body
            if name in HANDS:
                assert HANDS[name].lower() in body.lower()
            assert "http://turnpost.test/t/" in body and "/v1/" not in body
            if seat in previous:
                expected = seat_lines(games, game_id, seat, previous[seat], version)
                for line in expected[-SINCE_LINES:]:
                    assert one_line(line) in body, (name, seat, version, line)
                checked += 1
            previous[seat] = version
        seat = rnd.choice(summary["active_seats"])
        moves = games.legal_moves(game_id, people[seat])["moves"]
        games.play(game_id, people[seat], summary["version"], action=rnd.choice(moves)["action"])
    assert checked >= 2
