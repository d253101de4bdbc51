"""Playing by email, through the service: each way a reply of the seat's player can go wrong is
answered by email (to a real SMTP server), says what was wrong, changes nothing, and leaks
nothing hidden; a sender who is not the seat's player gets no answer at all."""

import time
from email.message import EmailMessage
from email.utils import make_msgid

import pytest

from service.assembly import assemble
from service.notify.notifications import TURN_STARTED, Notice
from service.notify.reply_addresses import read_reply_address
from service.settings import Settings
from tests.addresses import confirm_all
from tests.peers import text_of
from transports.mailer import SmtpMailer

DOMAIN = "play.test"


@pytest.fixture
def table(redis_client, smtp, test_game):
    """Ada and Bo at a game of Hidden Bid, each holding a turn email with a reply address."""
    settings = Settings(
        mail_domain=DOMAIN,
        public_url="http://turnpost.test",
        mail_from="turnpost <turnpost@play.test>",
    )
    services = assemble(redis_client, settings=settings, mailer=SmtpMailer(smtp.url))
    ada = services.players.register("Ada", email="ada@example.org")["id"]
    bo = services.players.register("Bo", email="Bo@Example.org")["id"]
    confirm_all(redis_client)
    services.players.set_friends(bo, [ada])  # Ada seats Bo without inviting him
    game_id = services.games.create(ada, "hiddenbid", [ada, bo])["id"]
    return services, game_id, ada, bo


def turn_email(services, smtp, game_id, seat, address):
    snap = services.games.load(game_id)
    version, since = snap["version"], snap["match"]["seat_since"][seat]
    services.notifications.email(Notice(TURN_STARTED, game_id, seat, since))
    return smtp.wait_for(
        lambda m, r: (
            address in r
            and m["X-Turnpost-Version"] == str(version)
            and m["X-Turnpost-Event"] == TURN_STARTED
        )
    )


def reply_to(original, body, sender, message_id=None):
    reply = EmailMessage()
    reply["From"] = sender
    reply["To"] = original["Reply-To"]
    reply["Subject"] = "Re: " + original["Subject"]
    reply["Message-ID"] = message_id or make_msgid("player")
    reply["In-Reply-To"] = original["Message-ID"]
    quoted = "\n".join("> " + line for line in text_of(original).splitlines())
    reply.set_content(f"{body}\n\nOn Sat, 21 Nov 2026 at 12:00, turnpost wrote:\n{quoted}\n")
    return bytes(reply)


def answer_to(smtp, address, code):
    """Answers go to the player's own address, as turn emails do (any case)."""
    return smtp.wait_for(
        lambda m, r: address.lower() in [x.lower() for x in r] and m["X-Turnpost-Code"] == code
    )


def secrets_of(services, game_id, seat):
    """What the seat must never read: the other hands, the seed."""
    view = services.games.load(game_id)["match"]["state"]
    return {
        f"you were dealt {' '.join(map(str, hand))}"
        for s, hand in enumerate(view["hands"])
        if s != seat
    } | {services.games.load(game_id)["secret_seed"]}


def test_a_reply_with_the_move_on_the_first_line_is_played(table, smtp):
    services, game_id, ada, _ = table
    email = turn_email(services, smtp, game_id, 0, "ada@example.org")
    card = services.games.legal_moves(game_id, ada)["moves"][0]["notation"]
    outcome = services.mail_moves.receive(reply_to(email, card, "Ada <ada@example.org>"))
    assert (outcome.status, outcome.code) == ("played", "mail/played")
    log = services.games.log(game_id, ada)["entries"]
    assert log[-1]["move"] == card
    answer = answer_to(smtp, "ada@example.org", "mail/played")
    assert card in text_of(answer) and answer["In-Reply-To"]


def test_stale_email_is_refused_with_the_legal_moves_now(table, smtp):
    services, game_id, ada, bo = table
    email = turn_email(services, smtp, game_id, 0, "ada@example.org")
    first = services.games.legal_moves(game_id, ada)["moves"][0]["notation"]
    services.games.play(game_id, ada, services.games.summary(game_id)["version"], first)
    services.games.play(
        game_id,
        bo,
        services.games.summary(game_id)["version"],
        services.games.legal_moves(game_id, bo)["moves"][0]["notation"],
    )
    before = services.games.summary(game_id)["version"]
    outcome = services.mail_moves.receive(reply_to(email, first, "ada@example.org"))
    assert (outcome.status, outcome.code) == ("refused", "move/stale_version")
    assert services.games.summary(game_id)["version"] == before
    body = text_of(answer_to(smtp, "ada@example.org", "move/stale_version"))
    assert "has moved on" in body
    now = services.games.legal_moves(game_id, ada)["moves"]
    if now:  # Ada won the round and decides
        assert "Your legal moves now" in body and all(m["notation"] in body for m in now)
    else:
        assert "It is not your turn now: you will get an email when it is." in body
    for secret in secrets_of(services, game_id, 0):
        assert secret not in body


def test_illegal_move_is_refused_and_says_why(table, smtp):
    services, game_id, ada, _ = table
    email = turn_email(services, smtp, game_id, 0, "ada@example.org")
    moves = services.games.legal_moves(game_id, ada)["moves"]
    held = {m["notation"] for m in moves}
    not_held = next(f"bid {n}" for n in range(1, 10) if f"bid {n}" not in held)
    outcome = services.mail_moves.receive(reply_to(email, not_held, "ada@example.org"))
    assert outcome.status == "refused" and outcome.code in ("move/illegal", "move/malformed")
    assert services.games.summary(game_id)["version"] == 2
    body = text_of(answer_to(smtp, "ada@example.org", outcome.code))
    assert f"'{not_held}'" in body and "Nothing was played" in body
    assert all(f"{m['description']} ({m['notation']})" in body for m in moves)


def test_unreadable_reply_is_refused(table, smtp):
    services, game_id, _, _ = table
    email = turn_email(services, smtp, game_id, 0, "ada@example.org")
    outcome = services.mail_moves.receive(reply_to(email, "", "ada@example.org"))
    assert (outcome.status, outcome.code) == ("refused", "mail/unreadable")
    outcome = services.mail_moves.receive(
        reply_to(email, "I'll think about it!", "ada@example.org")
    )
    assert (outcome.status, outcome.code) == ("refused", "move/malformed")
    assert services.games.summary(game_id)["version"] == 2
    assert "No move was found" in text_of(answer_to(smtp, "ada@example.org", "mail/unreadable"))


@pytest.mark.slow
def test_unknown_token_is_dropped_without_an_answer(table, smtp):
    services, game_id, _ada, _ = table
    email = turn_email(services, smtp, game_id, 0, "ada@example.org")
    token, _version = read_reply_address(email["Reply-To"], DOMAIN)
    forged = email["Reply-To"].replace(token, "0" * len(token))
    del email["Reply-To"]
    email["Reply-To"] = forged
    sent_before = len(smtp.messages)
    outcome = services.mail_moves.receive(reply_to(email, "bid 1", "victim@example.net"))
    assert (outcome.status, outcome.code) == ("refused", "mail/unknown_token")
    time.sleep(0.5)
    assert len(smtp.messages) == sent_before, "no backscatter to a forged From"
    assert services.games.summary(game_id)["version"] == 2


@pytest.mark.slow
def test_wrong_sender_is_dropped_without_an_answer_even_with_the_right_token(table, smtp):
    services, game_id, ada, _ = table
    email = turn_email(services, smtp, game_id, 0, "ada@example.org")
    card = services.games.legal_moves(game_id, ada)["moves"][0]["notation"]
    sent_before = len(smtp.messages)
    outcome = services.mail_moves.receive(reply_to(email, card, "mallory@example.net"))
    assert (outcome.status, outcome.code) == ("refused", "mail/wrong_sender")
    assert services.games.summary(game_id)["version"] == 2
    time.sleep(0.5)
    assert len(smtp.messages) == sent_before


def test_an_address_may_send_only_so_many_messages(redis_client, smtp, test_game):
    settings = Settings(mail_domain=DOMAIN, mail_in_per_sender_per_hour=2)
    services = assemble(redis_client, settings=settings, mailer=SmtpMailer(smtp.url))
    ada = services.players.register("Ada", email="ada@example.org")["id"]
    bo = services.players.register("Bo", email="bo@example.org")["id"]
    confirm_all(redis_client)
    services.players.set_friends(bo, [ada])  # Ada seats Bo without inviting him
    game_id = services.games.create(ada, "hiddenbid", [ada, bo])["id"]
    email = turn_email(services, smtp, game_id, 0, "ada@example.org")
    outcomes = [
        services.mail_moves.receive(reply_to(email, "nonsense", "ada@example.org"))
        for _ in range(3)
    ]
    assert [o.code for o in outcomes] == ["move/malformed", "move/malformed", "mail/rate_limited"]
    assert (
        services.mail_moves.receive(reply_to(email, "nonsense", "bo@example.org")).code
        == "mail/wrong_sender"
    )  # another address has its own count


def test_a_player_may_allow_replies_from_any_address(table, smtp):
    services, game_id, ada, _ = table
    services.players.update(ada, {"notifications": {"replies_from_any_address": True}})
    email = turn_email(services, smtp, game_id, 0, "ada@example.org")
    card = services.games.legal_moves(game_id, ada)["moves"][0]["notation"]
    outcome = services.mail_moves.receive(reply_to(email, card, "ada.at.work@example.com"))
    assert (outcome.status, outcome.code) == ("played", "mail/played")


def test_sender_address_is_compared_without_case(table, smtp):
    services, game_id, _, bo = table
    email = turn_email(services, smtp, game_id, 1, "Bo@Example.org")
    card = services.games.legal_moves(game_id, bo)["moves"][0]["notation"]
    outcome = services.mail_moves.receive(reply_to(email, card, "BO@example.ORG"))
    assert outcome.status == "played"


def test_the_same_message_delivered_twice_plays_once(table, smtp):
    services, game_id, ada, _ = table
    email = turn_email(services, smtp, game_id, 0, "ada@example.org")
    card = services.games.legal_moves(game_id, ada)["moves"][0]["notation"]
    raw = reply_to(email, card, "ada@example.org", message_id="<once@example.org>")
    assert services.mail_moves.receive(raw).status == "played"
    version = services.games.summary(game_id)["version"]
    again = services.mail_moves.receive(raw)
    assert (again.status, again.code) == ("ignored", "mail/duplicate")
    assert services.games.summary(game_id)["version"] == version
    assert (
        len([m for m in smtp.to("ada@example.org") if m["X-Turnpost-Code"] == "mail/played"]) == 1
    )


def test_an_automatic_reply_is_ignored_silently(table, smtp):
    services, game_id, _, _ = table
    email = turn_email(services, smtp, game_id, 0, "ada@example.org")
    raw = reply_to(email, "I am on holiday until Monday.", "ada@example.org")
    raw = b"Auto-Submitted: auto-replied\r\n" + raw
    outcome = services.mail_moves.receive(raw)
    assert (outcome.status, outcome.code) == ("ignored", "mail/automatic")
    assert services.games.summary(game_id)["version"] == 2


def test_several_steps_on_several_lines_play_in_order(table, smtp):
    """Hidden Bid: the round's winner bids and then decides, so two lines can be one reply's
    worth when the other player has bid already."""
    services, game_id, ada, bo = table
    bo_moves = services.games.legal_moves(game_id, bo)["moves"]
    services.games.play(game_id, bo, 2, bo_moves[0]["notation"])  # Bo bids his lowest card
    email = turn_email(services, smtp, game_id, 0, "ada@example.org")
    highest = services.games.legal_moves(game_id, ada)["moves"][-1]["notation"]
    ada_wins = int(highest.split()[1]) > int(bo_moves[0]["notation"].split()[1])
    outcome = services.mail_moves.receive(reply_to(email, f"{highest}\nkeep", "ada@example.org"))
    assert outcome.status == "played"
    moves = [e.get("move") for e in services.games.log(game_id, ada)["entries"] if "move" in e]
    body = text_of(answer_to(smtp, "ada@example.org", "mail/played"))
    if ada_wins:
        assert moves == [highest, "keep"]
    else:  # Bo won the round and decides: Ada's reply stops after her bid, and says so
        assert moves == [highest]
        assert "Your turn ended there, so the rest was not played: keep." in body


def test_words_after_the_move_end_the_reply_without_an_error(table, smtp):
    """The round's winner keeps the bids and is at once to bid again: the words after
    'keep' are read as the next step, which is not a move, and reading stops there."""
    services, game_id, ada, bo = table
    for player in (ada, bo):
        services.games.play(
            game_id,
            player,
            services.games.summary(game_id)["version"],
            services.games.legal_moves(game_id, player)["moves"][0]["notation"],
        )
    decider = services.games.summary(game_id)["active_seats"][0]
    address = ("ada@example.org", "Bo@Example.org")[decider]
    email = turn_email(services, smtp, game_id, decider, address)
    outcome = services.mail_moves.receive(reply_to(email, "keep\nThanks, good luck!", address))
    assert (outcome.status, outcome.code) == ("played", "mail/played")
    body = text_of(answer_to(smtp, address, "mail/played"))
    assert "Reading stopped at 'Thanks, good luck!', which is not a move." in body
    assert services.games.log(game_id, (ada, bo)[decider])["entries"][-1]["move"] == "keep"


def test_a_reply_carries_a_move_and_a_message_to_the_table(table, smtp):
    services, game_id, ada, bo = table
    email = turn_email(services, smtp, game_id, 0, "ada@example.org")
    card = services.games.legal_moves(game_id, ada)["moves"][0]["notation"]
    body = f"{card}\nsay: <b>good</b> luck,\nBo!"
    outcome = services.mail_moves.receive(reply_to(email, body, "ada@example.org"))
    assert (outcome.status, outcome.code) == ("played", "mail/played")
    said = services.talk.messages(game_id, bo)["messages"]
    assert [(m["seat"], m["text"]) for m in said] == [(0, "<b>good</b> luck, Bo!")]
    assert services.games.log(game_id, ada)["entries"][-1]["move"] == card
    answer = text_of(answer_to(smtp, "ada@example.org", "mail/played"))
    assert "Said:" in answer and "<b>good</b> luck, Bo!" in answer


def test_a_reply_with_only_a_message_is_sent_and_a_bad_one_explained(table, smtp):
    services, game_id, _ada, bo = table
    email = turn_email(services, smtp, game_id, 0, "ada@example.org")
    before = services.games.load(game_id)["match"]
    outcome = services.mail_moves.receive(reply_to(email, "say: thinking...", "ada@example.org"))
    assert (outcome.status, outcome.code) == ("said", "mail/said")
    assert services.games.load(game_id)["match"] == before
    assert [m["text"] for m in services.talk.messages(game_id, bo)["messages"]] == ["thinking..."]
    for body, words in (
        ("say to Zed: hello", "no other player here is called Zed"),
        ("say to Bo: psst", "three players or more"),
        ("say: " + "x" * 600, "at most 500 characters"),
        ("say: \u202eevil", "direction of the text"),
    ):
        outcome = services.mail_moves.receive(reply_to(email, body, "ada@example.org"))
        assert (outcome.status, outcome.code) == ("refused", "chat/refused"), body
        answer = text_of(answer_to(smtp, "ada@example.org", "chat/refused"))
        assert "Your message was not sent" in answer and words in answer
        smtp.messages.clear()
    assert len(services.talk.messages(game_id, bo)["messages"]) == 1
