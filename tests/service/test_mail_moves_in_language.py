"""Playing by email in the player's language (issue 38): a Russian Buttons player may write the
move's verb in Russian as well as in the notation, the answer letter is in Russian, and no word
that could mean two moves is read as either. Real Valkey, real SMTP (aiosmtpd)."""

from __future__ import annotations

import pytest

from service.assembly import assemble
from service.by_mail.moves import _explain
from service.by_mail.verbs import notation_of, unambiguous, verbs
from service.errors import ServiceError
from service.settings import Settings
from service.words import speaking
from tests.addresses import confirm_all
from tests.peers import text_of
from tests.service.test_mail_moves import DOMAIN, answer_to, reply_to, turn_email
from transports.mailer import SmtpMailer


@pytest.fixture
def buttons(redis_client, smtp):
    """Ada (who reads Russian) and Bo at a game of Buttons, Ada's turn to roll."""
    settings = Settings(
        mail_domain=DOMAIN,
        public_url="http://turnpost.test",
        mail_from="turnpost <turnpost@play.test>",
        email_throttle_seconds=0,
    )
    services = assemble(redis_client, settings=settings, mailer=SmtpMailer(smtp.url))
    ada = services.players.register("Ada", email="ada@example.org", language="ru")["id"]
    bo = services.players.register("Bo", email="bo@example.org")["id"]
    confirm_all(redis_client)
    services.players.set_friends(bo, [ada])
    game_id = services.games.create(ada, "buttons", [ada, bo])["id"]
    snap = services.games.load(game_id)
    seat = next(i for i, s in enumerate(snap["seats"]) if s["player_id"] == ada)
    while True:  # until Ada is to roll
        snap = services.games.load(game_id)
        mover = snap["seats"][snap["active_seats"][0]]["player_id"]
        moves = [m["notation"] for m in services.games.legal_moves(game_id, mover)["moves"]]
        if mover == ada and "roll" in moves:
            break
        move = next(m for m in moves if m in ("skip", "roll") or m.startswith("place"))
        services.games.play(game_id, mover, snap["version"], notation=move)
    return services, game_id, seat


def test_a_reply_in_russian_words_plays_the_move_and_is_answered_in_russian(buttons, smtp):
    services, game_id, seat = buttons
    email = turn_email(services, smtp, game_id, seat, "ada@example.org")
    assert "Ваш ход в Buttons" in text_of(email)
    version = services.games.load(game_id)["version"]
    outcome = services.mail_moves.receive(reply_to(email, "Бросить", "ada@example.org"))
    assert outcome.code == "mail/played", outcome
    snap = services.games.load(game_id)
    assert snap["version"] > version
    answer = answer_to(smtp, "ada@example.org", "mail/played")
    text = text_of(answer)
    assert "Здравствуйте, Ada!" in text
    assert "Ваш ход в Buttons (игра" in text and "сыгран" in text
    assert "Сыграно:" in text and "roll" in text
    for english in ("Hello", "was played", "Played:", "Your legal moves"):
        assert english not in text, english


def test_an_unreadable_russian_reply_is_answered_in_russian(buttons, smtp):
    services, game_id, seat = buttons
    email = turn_email(services, smtp, game_id, seat, "ada@example.org")
    outcome = services.mail_moves.receive(reply_to(email, "", "ada@example.org"))
    assert outcome.code == "mail/unreadable"
    text = text_of(answer_to(smtp, "ada@example.org", "mail/unreadable"))
    assert "Ничего не сыграно в Buttons" in text
    assert "No move was found" not in text


def test_the_translated_verbs_are_the_notations_and_never_ambiguous():
    russian = verbs("buttons", "ru")
    assert russian["бросить"] == "roll" and russian["выйти"] == "optout"
    assert notation_of("buttons", "ru", "Положить 3 5") == "place 3 5"
    assert notation_of("buttons", "ru", "roll") == "roll"  # the notation stays as it is
    assert notation_of("buttons", "en", "бросить") == "бросить"  # only in the reader's language
    italian = verbs("consonar", "it")
    assert italian["flotta"] == "fleet" and italian["siluro"] == "torpedo"
    assert notation_of("consonar", "it", "Flotta r+2@r1 g-3@g2; fine") == (
        "fleet r+2@r1 g-3@g2; end"
    )
    for game in ("buttons", "consonar", "nautilus", "ninedomains"):
        for language in ("ru", "it"):
            said = verbs(game, language)
            assert said and all(" " not in word for word in said)
            notations = set(verbs(game, "en").values())
            # a word is never both a translation and another move's notation
            assert all(word not in notations or said[word] == word for word in said)


def test_a_word_that_could_mean_two_moves_is_read_as_neither():
    pairs = [("passo", "end"), ("passo", "skip"), ("fine", "end"), ("end", "end")]
    assert unambiguous(pairs, notations={"end", "skip", "fine"}) == {"end": "end"}


def test_nautilus_and_the_nine_domains_moves_may_be_written_in_russian_and_italian():
    assert notation_of("nautilus", "ru", "Поставить 7 opp3") == "place 7 opp3"
    assert notation_of("nautilus", "ru", "подлодка keep 4") == "submarine keep 4"
    assert notation_of("nautilus", "ru", "Оставить kraken") == "keep kraken"
    assert notation_of("nautilus", "it", "Sposto me2 opp2") == "move me2 opp2"
    assert notation_of("nautilus", "it", "arpione give 9") == "harpoon give 9"
    assert notation_of("nautilus", "it", "occhio") == "eye"
    assert notation_of("ninedomains", "ru", "Сыграть 3+ 0 5") == "play 3+ 0 5"
    assert notation_of("ninedomains", "ru", "поменяться red4 blue2") == "swap-domain red4 blue2"
    assert notation_of("ninedomains", "ru", "обменять 2 4") == "swap-card 2 4"
    assert notation_of("ninedomains", "it", "gioco 3+ 0 5") == "play 3+ 0 5"
    assert notation_of("ninedomains", "it", "recupero 2 4") == "swap-card 2 4"
    assert notation_of("ninedomains", "it", "passo") == "pass"
    assert notation_of("ninedomains", "it", "play 3+ 0 5") == "play 3+ 0 5"
    every = {
        game: {verb for language in ("ru", "it") for verb in verbs(game, language).values()}
        for game in ("nautilus", "ninedomains")
    }
    assert every == {
        "nautilus": {"keep", "eye", "submarine", "harpoon", "pass", "place", "move"},
        "ninedomains": {"play", "swap-domain", "swap-card", "pass"},
    }, "each move has a word in each language"


def test_a_refused_reply_quotes_the_reason_in_russian(buttons, smtp):
    services, game_id, seat = buttons
    email = turn_email(services, smtp, game_id, seat, "ada@example.org")
    outcome = services.mail_moves.receive(reply_to(email, "place 3 5", "ada@example.org"))
    assert outcome.code == "move/illegal", outcome
    text = " ".join(text_of(answer_to(smtp, "ada@example.org", "move/illegal")).split())
    assert "«place 3 5» сейчас не допустимый ход: ход place 3 5 сейчас не разрешён" in text
    assert "is not allowed now" not in text
    outcome = services.mail_moves.receive(reply_to(email, "летать 3 5", "ada@example.org"))
    assert outcome.code == "move/malformed", outcome
    text = " ".join(text_of(answer_to(smtp, "ada@example.org", "move/malformed")).split())
    assert "не удаётся прочитать 'летать 3 5': напишите 'roll', 'optout'" in text
    assert "cannot read" not in text


def test_a_message_refused_in_a_reply_is_answered_with_the_reason_in_russian(buttons, smtp):
    services, game_id, seat = buttons
    email = turn_email(services, smtp, game_id, seat, "ada@example.org")
    reply = reply_to(email, "бросить\nsay to Bo: удачи", "ada@example.org")
    assert services.mail_moves.receive(reply).code == "mail/played"
    text = " ".join(text_of(answer_to(smtp, "ada@example.org", "mail/played")).split())
    assert "личные сообщения — для партий на троих и больше: напишите всему столу" in text
    assert "private messages" not in text


def test_the_services_refusals_of_a_move_are_quoted_in_the_players_language(buttons):
    """A refusal of the service's own (not the engine's, not the table talk's) that an answer
    to an emailed move quotes: the game busy after every attempt, the game not started."""
    services, game_id, _seat = buttons
    with pytest.raises(ServiceError) as busy:
        services.games.commits.run(game_id, lambda draft: None, attempts=0)
    assert busy.value.code == "game/busy"
    ada, bo, cy = (services.players.register(n)["id"] for n in ("Ann", "Ben", "Cat"))
    waiting = services.games.create(ada, "buttons", [ada, bo, cy])["id"]
    with pytest.raises(ServiceError) as not_started:
        services.games.play(waiting, ada, 1, notation="roll")
    assert not_started.value.code == "game/not_started"
    english = [_explain(err.value, "roll", 3) for err in (busy, not_started)]
    assert english == [
        "'roll' was not played: the game is busy; try again",
        "'roll' was not played: the game has not started: it waits for 2 more players",
    ]
    with speaking("ru"):
        assert [_explain(err.value, "roll", 3) for err in (busy, not_started)] == [
            "«roll» не сыгран: партия занята; попробуйте ещё раз",
            "«roll» не сыгран: партия не началась: она ждёт ещё игроков — 2",
        ]
    with speaking("it"):
        said = _explain(busy.value, "roll", 3)
        assert said.startswith("'roll' non è stata giocata: ") and "try again" not in said
