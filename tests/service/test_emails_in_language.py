"""Every email in its reader's language (issue 38): a Russian player's Buttons turn email and an
Italian player's Con Sonar! one say their subject, sentences, board, moves and deadline in that
language; an English player's letters are word for word what they were (golden letters written
before the emails learned languages); the sign-in letter follows the account's language. Real
Valkey, real SMTP (aiosmtpd)."""

from __future__ import annotations

import re
from pathlib import Path
from types import SimpleNamespace

import pytest

from service.notify import emails
from service.notify.notifications import TURN_STARTED, Notice, NotificationService
from service.play import games as games_module
from service.play.games import GameService
from service.players.sign_in import SignIn
from service.settings import Settings
from service.words import speaking
from store.games import GameStore
from store.notifications import NotificationStore
from store.players import PlayerStore
from store.schedule import ScheduleStore
from tests.addresses import ConfirmedPlayers
from tests.peers import html_of, text_of
from transports.mailer import SmtpMailer

GOLDEN = Path(__file__).parent / "golden_emails"
DAY = {"kind": "per_move", "per_move_seconds": 86400, "on_timeout": "auto"}


@pytest.fixture
def table(redis_client, smtp):
    players = ConfirmedPlayers(PlayerStore(redis_client))
    games = GameService(GameStore(redis_client), PlayerStore(redis_client))
    notify = NotificationService(
        GameStore(redis_client),
        PlayerStore(redis_client),
        NotificationStore(redis_client),
        Settings(email_throttle_seconds=0),
        SmtpMailer(smtp.url),
    )
    return players, games, notify


def seated(players, games, title, language, time_control=None):
    """Ada (in `language`) and Bo at a new game of `title`; (game id, Ada's seat)."""
    ada = players.register("Ada", email="ada@example.org")["id"]
    bo = players.register("Bo", email="bo@example.org")["id"]
    if language:
        players.update(ada, {"language": language})
    players.set_friends(bo, [ada])
    game_id = games.create(ada, title, [ada, bo], time_control=time_control)["id"]
    snap = games.load(game_id)
    seat = next(i for i, s in enumerate(snap["seats"]) if s["player_id"] == ada)
    while seat not in games.load(game_id)["active_seats"]:  # Bo begins: he plays his first
        who = snap["seats"][games.load(game_id)["active_seats"][0]]["player_id"]
        move = games.legal_moves(game_id, who)["moves"][0]["notation"]
        games.play(game_id, who, games.summary(game_id)["version"], notation=move)
    return game_id, seat


def turn_email(notify, smtp, games, game_id, seat):
    snap = games.load(game_id)
    since = snap["match"]["seat_since"][seat]
    assert notify.email(Notice(TURN_STARTED, game_id, seat, since))[0] == "sent"
    return smtp.wait_for(
        lambda m, rcpt: (
            "ada@example.org" in rcpt and m["X-Turnpost-Version"] == str(snap["version"])
        )
    )


ENGLISH = (
    "Hello",
    "your turn",
    "Your legal moves",
    "Your deadline",
    "How to play",
    "See the game",
    "The game as you see it",
    "After it",
    "roll the dice",
    "Your hand",
)


def test_a_russian_players_buttons_turn_email_is_in_russian(table, smtp):
    players, games, notify = table
    game_id, seat = seated(players, games, "buttons", "ru", DAY)
    message = turn_email(notify, smtp, games, game_id, seat)
    subject, text, html = message["Subject"], text_of(message), html_of(message)
    assert subject == f"[turnpost] Buttons с Bo: раунд 1, ваш ход ({game_id})"
    assert "Здравствуйте, Ada!" in text
    assert f"Ваш ход в Buttons против Bo (игра {game_id})." in text
    assert "Ваш срок: через 23 часа" in text  # a day's clock, in Russian words and plural
    assert "После него за вас сыграет компьютер." in text
    ada = games.load(game_id)["seats"][seat]["player_id"]
    moves = games.legal_moves(game_id, ada)["moves"]
    assert f"Ваши допустимые ходы ({len(moves)}):" in text
    words = {"roll": "Бросить кубики", "skip": "Пропустить золотой кубик", "place": "положить"}
    for move in moves:  # each in Russian words, its notation as it is
        kind = move["notation"].split()[0]
        line = next(x for x in text.splitlines() if x.endswith(f"({move['notation']})"))
        assert words.get(kind, "") in line, line
    assert "После вашего последнего хода:" in text
    assert "Как играть в Buttons:" in text and "Посмотреть игру:" in text
    assert "Чтобы сыграть, ответьте" not in text  # no reply address without a mail domain
    for english in ENGLISH:
        assert english not in text, english
        assert english not in html, english
    assert 'lang="ru"' in html


def test_an_italian_players_con_sonar_turn_email_is_in_italian(table, smtp):
    players, games, notify = table
    game_id, seat = seated(players, games, "consonar", "it", DAY)
    message = turn_email(notify, smtp, games, game_id, seat)
    subject, text, html = message["Subject"], text_of(message), html_of(message)
    assert subject.startswith("[turnpost] Con Sonar! con Bo: tocca a te")
    assert "Ciao Ada," in text
    assert f"Tocca a te in Con Sonar! contro Bo (partita {game_id})." in text
    assert "La tua scadenza: tra 23 ore" in text
    assert "Dopo, il computer gioca per te." in text
    assert "Le tue mosse valide (" in text
    assert "Come si gioca a Con Sonar!:" in text and "Vedi la partita:" in text
    for english in (*ENGLISH[:-2], "Your hand", "Fleet card", "submarine"):
        assert english not in text, english
        assert english not in html, english
    assert 'lang="it"' in html


def _normalised(message, game_id: str) -> str:
    """The letter's subject and parts, with what changes from run to run named instead."""
    parts = f"{message['Subject']}\n{text_of(message)}\n{html_of(message)}"
    parts = parts.replace(game_id, "GAME")
    return re.sub(r"(through|on) \w+ \d+ \w+ \d{4}, \d\d:\d\d UTC", r"\1 WHEN", parts)


@pytest.mark.parametrize("title", ["buttons", "consonar"])
def test_an_english_players_turn_email_is_what_it_was(table, smtp, monkeypatch, title):
    monkeypatch.setattr(games_module, "secrets", SimpleNamespace(token_bytes=lambda n: b"7" * n))
    players, games, notify = table
    game_id, seat = seated(players, games, title, None)
    got = _normalised(turn_email(notify, smtp, games, game_id, seat), game_id)
    golden = GOLDEN / f"turn_{title}_en.txt"
    assert got == golden.read_bytes().decode("utf-8")


def test_the_sign_in_letter_is_in_the_language_of_its_account(redis_client, smtp):
    store = PlayerStore(redis_client)
    players = ConfirmedPlayers(store)
    ada = players.register("Ada", email="ada@example.org")["id"]
    players.update(ada, {"language": "ru"})
    sign_in = SignIn(store, ScheduleStore(redis_client), SmtpMailer(smtp.url), Settings())
    assert sign_in.send_links("ada@example.org") == 1
    message = smtp.wait_for(lambda m, rcpt: "ada@example.org" in rcpt)
    text = text_of(message)
    assert message["Subject"] == "[turnpost] Ваша ссылка для входа"
    assert "Здравствуйте, Ada!" in text
    assert "Войти как Ada:" in text
    for english in ("Hello", "Sign in as", "Each link works once", "ignore this email"):
        assert english not in text, english


def test_an_invitation_and_a_cancellation_are_in_the_readers_language():
    clock = {"kind": "bank", "initial_seconds": 3 * 86400, "increment_seconds": 86400}
    clock |= {"max_seconds": 5 * 86400, "on_timeout": "forfeit", "weekends_off": True}
    with speaking("ru"):
        invited = emails.invitation(
            "Ada", "Buttons", "g_1", "Bo", [], clock, True, "http://t/v1/games/g_1", "http://t/g"
        )
        cancelled = emails.cancellation("Ada", "Buttons", "g_1", "Bo", "Cy")
    assert invited.subject == "[turnpost] Bo приглашает вас сыграть в Buttons (игра g_1)"
    assert "запас времени 3 дня, +1 день за ход, не больше 5 дней" in invited.lead
    assert "выходные не считаются" in invited.lead
    assert "Cy отклонил(а) приглашение" in cancelled.lead
    with speaking("it"):
        invited = emails.invitation(
            "Ada", "Con Sonar!", "g_1", "Bo", ["Cy"], None, False, "http://t", "http://t/g"
        )
    assert invited.greeting == "Ciao Ada,"
    assert "Bo ti invita a una partita di Con Sonar!, con Cy (partita g_1)." in invited.lead
    assert "Questa partita non ha orologio." in invited.lead
    english = emails.invitation("Ada", "Buttons", "g_1", "Bo", [], clock, True, "u", "v")
    assert english.lead == (
        "Bo invites you to a game of Buttons (game g_1). It starts once every invited player "
        "has accepted. Each player has a time bank of 3 days, +1 day a move, at most 5 days; "
        "weekends off; after that you forfeit the game."
    )
