"""A flood of messages to one game, carried out by a real `turnpost worker` (outbox, clock, RQ)
with a real SMTP server: each reader gets one email once the table is quiet, gathering the
messages, and no second one within the hour however many more are written."""

import time

import pytest

from service.play.talk import Talk, TalkLimits
from store.players import PlayerStore
from tests.peers import text_of

pytestmark = pytest.mark.slow  # a worker process, and the quiet delay waited out


def test_a_flood_of_messages_sends_each_reader_one_email_an_hour(
    services, start_workers, smtp, redis_client
):
    players, games = services
    start_workers(
        SMTP_URL=smtp.url,
        EMAIL_DELAY_SECONDS="600",  # no turn email (which would tell the messages) meanwhile
        CHAT_EMAIL_DELAY_SECONDS="1",
        CHAT_EMAIL_EVERY_SECONDS="3600",
    )
    names = ("Ada", "Bo", "Cy")
    ids = [players.register(n, email=f"{n.lower()}@example.org")["id"] for n in names]
    for friend in ids[1:]:
        players.set_friends(friend, [ids[0]])
    game_id = games.create(ids[0], "consonar", ids)["id"]
    talk = Talk(games, PlayerStore(redis_client), TalkLimits(1000, 1000))
    for i in range(15):
        talk.say(game_id, ids[1], f"flood {i}")
    talk.say(game_id, ids[1], "for Cy alone", to=2)

    def chat_emails():
        return [
            (rcpt, message)
            for rcpt, message, _ in smtp.messages
            if message["X-Turnpost-Event"] == "chat.message"
        ]

    for address in ("ada@example.org", "cy@example.org"):
        smtp.wait_for(
            lambda m, rcpt, address=address: (
                address in rcpt and m["X-Turnpost-Event"] == "chat.message"
            )
        )
    by_reader = {rcpt[0]: text_of(message) for rcpt, message in chat_emails()}
    assert sorted(by_reader) == ["ada@example.org", "cy@example.org"]  # never the writer
    assert "flood 0" in by_reader["ada@example.org"] and "flood 14" in by_reader["ada@example.org"]
    assert "for Cy alone" in by_reader["cy@example.org"]
    assert "for Cy alone" not in by_reader["ada@example.org"]
    # more of the flood within the hour: no second email, however quiet the table gets
    for i in range(15, 25):
        talk.say(game_id, ids[1], f"flood {i}")
    time.sleep(4)  # four times the quiet delay: the notices came due and wait for the window
    assert len(chat_emails()) == 2
