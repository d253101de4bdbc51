"""Whole games played from a mailbox, with every part real: `turnpost serve` (API and
worker) sends turn emails over SMTP to an aiosmtpd server; the players answer with real SMTP
to `turnpost mail-in`; or they click the one-click links and confirm over HTTP."""

import re
from email.message import EmailMessage
from email.utils import make_msgid

import pytest
import requests

from engine.rng import Rng
from tests.e2e.server import Client, LiveServer, MailIn
from tests.peers import SmtpInbox, html_of, text_of

DOMAIN = "play.test"


@pytest.fixture(scope="module")
def post_office(valkey):
    with SmtpInbox() as outgoing:
        env = {
            "SMTP_URL": outgoing.url,
            "MAIL_DOMAIN": DOMAIN,
            "EMAIL_DELAY_SECONDS": "0",
            "EMAIL_THROTTLE_SECONDS": "0",
            "ONE_CLICK_MAX_MOVES": "1000",
        }
        server = LiveServer(redis_url=valkey.url, env=env).wait_ready()
        mail_in = MailIn(valkey.url, env).wait_ready()
        try:
            yield server, mail_in, outgoing
        finally:
            mail_in.stop()
            server.stop()


def listed_moves(message):
    """The moves the email offers, in notation: its list (each move in words, its notation
    after it in brackets), or, when it sums them up (The Nine Domains' 504 ways to lay three
    cards), one composed from the summary as a person would: three different cards of the
    hand."""
    text = text_of(message)
    lines = text.split("Your legal moves (")[1].splitlines()[1:]
    moves = []
    for line in lines:
        if not line.startswith("  "):
            break
        listed = line.strip().split(": http", 1)[0]
        notation = re.search(r"\(([^()]*)\)$", listed)
        moves.append(notation.group(1) if notation else listed)
    summary = [m for m in moves if m.startswith("play (") and "ways): left slot: " in m]
    if summary:
        hand = summary[0].split("left slot: ", 1)[1].split(";", 1)[0].split()
        return [
            f"play {' '.join(hand[i] for i in (0, 1, 2))}",
            f"play {' '.join(hand[i] for i in (2, 1, 0))}",
        ]
    return [m for m in moves if "ways): " not in m and not m.startswith("your turn page")]


def reply(original, move, sender):
    message = EmailMessage()
    message["From"] = sender
    message["To"] = original["Reply-To"]
    message["Subject"] = "Re: " + original["Subject"]
    message["Message-ID"] = make_msgid("player")
    message["In-Reply-To"] = original["Message-ID"]
    quoted = "\n".join("> " + line for line in text_of(original).splitlines())
    message.set_content(
        f"{move}\n\nThanks!\n-- \nsent from my phone\n\n"
        f"On Sat, 21 Nov 2026, turnpost <turnpost@{DOMAIN}> wrote:\n{quoted}\n"
    )
    return message


def new_table(server, outgoing, game, tag):
    ada = Client(server.url, "Ada", email=f"ada.{tag}@example.org")
    bo = Client(server.url, "Bo", email=f"bo.{tag}@example.org")
    for person in (ada, bo):  # each follows the link that confirms their address
        person.confirm(outgoing)
    bo.befriend(ada)
    r = ada.post("/v1/games", {"game": game, "seats": [ada.id, bo.id]})
    assert r.status_code == 201, r.text
    return r.json()["id"], ada


def next_email(outgoing, game_id, handled):
    def fresh(message, _):
        return (
            message["X-Turnpost-Game"] == game_id
            and message["X-Turnpost-Event"] in ("turn.started", "game.finished")
            and message["X-Turnpost-Delivery"] not in handled
        )

    message = outgoing.wait_for(fresh, timeout=30)
    handled.add(message["X-Turnpost-Delivery"])
    return message


@pytest.mark.parametrize("game", ["nautilus", "ninedomains"])
def test_a_whole_game_played_only_by_replying_to_emails(post_office, game):
    server, mail_in, outgoing = post_office
    game_id, ada = new_table(server, outgoing, game, f"{game}-mail")
    picker = Rng(game.encode() + bytes(32))
    handled, finished, replies = set(), set(), 0
    while len(finished) < 2:
        message = next_email(outgoing, game_id, handled)
        recipient = message["To"].addresses[0].addr_spec
        if message["X-Turnpost-Event"] == "game.finished":
            finished.add(recipient)
            continue
        assert message["Reply-To"].startswith("move+") and DOMAIN in message["Reply-To"]
        mail_in.send(reply(message, picker.choice(listed_moves(message)), recipient))
        replies += 1
        assert replies < 2000, "the game did not end"
    refusals = [
        m
        for m in outgoing.messages
        if m[1]["X-Turnpost-Game"] == game_id
        and m[1]["X-Turnpost-Event"] == "mail.answer"
        and m[1]["X-Turnpost-Code"] != "mail/played"
    ]
    assert refusals == [], [text_of(m[1]) for m in refusals]
    assert ada.get(f"/v1/games/{game_id}").json()["status"] == "finished"
    log = ada.get(f"/v1/games/{game_id}/log?limit=1000").json()["entries"]
    assert len([e for e in log if e["type"] == "ActionTaken"]) == replies, (
        "every move came by email"
    )


def click_links(message):
    return re.findall(r'href="([^"]+/m/[^"]+)"', html_of(message))


def test_a_whole_game_played_only_by_one_click_links(post_office):
    server, _, outgoing = post_office
    game_id, ada = new_table(server, outgoing, "nautilus", "clicks")
    picker = Rng(b"clicks" + bytes(32))
    handled, finished, clicks = set(), set(), 0
    while len(finished) < 2:
        message = next_email(outgoing, game_id, handled)
        if message["X-Turnpost-Event"] == "game.finished":
            finished.add(message["To"].addresses[0].addr_spec)
            continue
        links = click_links(message)
        assert len(links) == int(text_of(message).split("Your legal moves (")[1].split(")")[0])
        link = picker.choice(links)
        page = requests.get(link, timeout=10)  # what a mail scanner would fetch, too
        assert page.status_code == 200 and '<form method="post">' in page.text
        played = requests.post(link, timeout=10)
        assert played.status_code == 200 and "Played" in played.text, played.text
        clicks += 1
        assert clicks < 2000, "the game did not end"
    assert ada.get(f"/v1/games/{game_id}").json()["status"] == "finished"
    assert clicks > 5


def test_forged_messages_get_no_answer(post_office):
    """Backscatter: 20 messages to made-up reply addresses and one to a real one, all from a
    forged From, over real SMTP to `turnpost mail-in`: nothing goes back to that address."""
    server, mail_in, outgoing = post_office
    game_id, ada = new_table(server, outgoing, "ninedomains", "forged")
    turn = next_email(outgoing, game_id, set())
    for n in range(20):
        forged = EmailMessage()
        forged["From"] = "victim@example.net"
        forged["To"] = f"move+{n:032x}.2@{DOMAIN}"
        forged["Subject"] = "Buy cheap watches"
        forged["Message-ID"] = make_msgid("spam")
        forged.set_content("bid 1")
        mail_in.send(forged)
    mail_in.send(reply(turn, listed_moves(turn)[0], "victim@example.net"))
    with pytest.raises(AssertionError):
        outgoing.wait_for(lambda m, rcpt: "victim@example.net" in rcpt, timeout=3)
    assert ada.get(f"/v1/games/{game_id}").json()["version"] == 2
