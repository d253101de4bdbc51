"""A tournament's letters (a round started, a round ended) in their reader's language (issue
38): an English letter is word for word what it was (a golden written before the letters
learned languages), a Russian and an Italian reader's say every sentence in their language,
and the worker's email follows the reader's profile. Names, the game's title, links and the
scores stay as they are."""

from __future__ import annotations

import email
import re
from email.policy import default
from pathlib import Path
from types import SimpleNamespace

import pytest

from service.assembly import assemble
from service.notify import emails, tournament_letters
from service.notify.notifications import Notice
from service.settings import Settings
from service.words import speaking
from store.outbox import OutboxStore
from tests.addresses import confirm
from tests.peers import html_of, text_of
from transports.mailer import SmtpMailer

GOLDEN = Path(__file__).parent / "golden_emails" / "tournament_en.txt"
URL = "http://turnpost.test"
ADA = {"id": "p_ada", "name": "Ada"}


def _board(game_id, first, second, score=None):
    return {"game_id": game_id, "first": first, "second": second, "score": score}


def _state(format_, status, rounds, round_list):
    return {
        "id": "t_cup",
        "version": 9,
        "game": "ninedomains",
        "name": "Cup",
        "options": {},
        "time_control": {"per_move_seconds": 86400, "on_timeout": "forfeit"},
        "rated": False,
        "format": format_,
        "size": 3,
        "rounds": rounds,
        "start_at": None,
        "created_by": "p_ada",
        "created_at": 0,
        "updated_at": 0,
        "status": status,
        "players": [
            {"player_id": "p_ada", "name": "Ada"},
            {"player_id": "p_bo", "name": "Bo"},
            {"player_id": "p_cy", "name": "Cy"},
        ],
        "round_list": round_list,
        "cancelled_because": None,
    }


def _round(number, boards, bye=None, ended=False):
    return {"round": number, "boards": boards, "bye": bye, "started": True, "ended": ended}


STARTED = tournament_letters.ROUND_STARTED
ENDED = tournament_letters.ROUND_ENDED
ROUND_ROBIN = [
    _round(1, [_board("g_1", "p_ada", "p_bo"), _board("g_2", "p_cy", "p_ada")]),
]
ROUND_ROBIN_OVER = [
    _round(
        1,
        [_board("g_1", "p_ada", "p_bo", 1.0), _board("g_2", "p_cy", "p_ada", 0.5)],
        ended=True,
    ),
]
SWISS_ONE = [_round(1, [_board("g_1", "p_ada", "p_bo")], bye="p_cy")]
SWISS_ONE_OVER = [_round(1, [_board("g_1", "p_ada", "p_bo", 0.5)], bye="p_cy", ended=True)]
SWISS_BYE = [*SWISS_ONE_OVER, _round(2, [_board("g_3", "p_cy", "p_bo")], bye="p_ada")]
SWISS_OVER = [
    *SWISS_ONE_OVER,
    _round(2, [_board("g_3", "p_cy", "p_bo", 0.0)], bye="p_ada", ended=True),
]
CASES = {  # every sentence a letter may say
    "a round-robin begins": (_state("round_robin", "running", 1, ROUND_ROBIN), STARTED, 1),
    "a round-robin ends": (_state("round_robin", "finished", 1, ROUND_ROBIN_OVER), ENDED, 1),
    "a Swiss round begins": (_state("swiss", "running", 2, SWISS_ONE), STARTED, 1),
    "a Swiss round ends": (_state("swiss", "running", 2, SWISS_ONE_OVER), ENDED, 1),
    "a Swiss round with the bye": (_state("swiss", "running", 2, SWISS_BYE), STARTED, 2),
    "a Swiss tournament ends": (_state("swiss", "finished", 2, SWISS_OVER), ENDED, 2),
}


def _sent(letter) -> str:
    """The letter as the reader gets it: its subject and its two parts."""
    wire = emails.layout(letter, "Ada", "ada@example.org", "turnpost <t@turnpost.test>", "d_1")
    message = email.message_from_bytes(wire.data, policy=default)
    return f"{message['Subject']}\n{text_of(message)}\n{html_of(message)}"


def _letters(language: str | None) -> str:
    with speaking(language):
        return "".join(
            f"== {case}\n" + _sent(tournament_letters.letter(*found, ADA, URL))
            for case, found in CASES.items()
        )


def test_an_english_readers_tournament_letters_are_what_they_were():
    assert _letters(None) == GOLDEN.read_bytes().decode("utf-8")


# English words a translated letter must not keep (names, titles and links aside).
ENGLISH = (
    "Hello",
    "tournament",
    "begun",
    "over",
    "round",
    "against",
    "first seat",
    "bye",
    "Your game",
    "Standings",
    "points",
    "See the",
    "you",
    "pairings",
    "Swiss",
)


@pytest.mark.parametrize("language", ["ru", "it"])
def test_a_readers_tournament_letters_are_in_their_language(language):
    said = _letters(language)
    for english in ENGLISH:
        kept = [
            line
            for line in said.splitlines()
            if re.search(rf"\b{english}\b", line.replace("/tournaments/", ""))
            and not line.startswith("== ")
        ]
        assert kept == [], english
    assert f'<html lang="{language}">' in said
    assert "http://turnpost.test/games/g_1" in said and "Cup" in said
    assert "The Nine Domains" in said and "1½" in said


def test_the_russian_and_italian_sentences_say_the_readers_place_and_games():
    with speaking("ru"):
        ended = tournament_letters.letter(*CASES["a Swiss round ends"], ADA, URL)
        begun = tournament_letters.letter(*CASES["a round-robin begins"], ADA, URL)
    assert ended.subject == "[turnpost] Cup: тур 1 из 2 окончен"
    assert ended.greeting == "Здравствуйте, Ada!"
    assert "Вы на 2-м месте, очков: ½." in ended.lead
    assert begun.sections[0][0] == "Ваши игры:"
    assert begun.sections[0][1][0] == ("против Bo (у вас первое место)", f"{URL}/games/g_1")
    with speaking("it"):
        over = tournament_letters.letter(*CASES["a Swiss tournament ends"], ADA, URL)
        bye = tournament_letters.letter(*CASES["a Swiss round with the bye"], ADA, URL)
    assert over.subject == "[turnpost] Cup: il torneo è finito"
    assert over.lead.startswith("Il torneo Cup (The Nine Domains, sistema svizzero) è finito.")
    assert "1. tu: 1½ (3)" in over.sections[-1][1]
    assert bye.sections[0] == ("Questo turno:", ["riposi: un punto, senza giocare"])


@pytest.mark.slow  # a tournament of three begins (its games created), an SMTP server
def test_the_worker_emails_a_round_in_the_players_language(redis_client, smtp):
    queued = []
    deliveries = SimpleNamespace(queue=queued.extend)  # the test sends the one it reads
    services = assemble(
        redis_client, Settings(public_url=URL), mailer=SmtpMailer(smtp.url), deliveries=deliveries
    )
    outbox = OutboxStore(redis_client)
    outbox.ensure_groups()
    ada = services.players.register("Ada", email="ada@example.org")["id"]
    confirm(redis_client, ada)
    services.players.update(ada, {"language": "ru"})
    others = [services.players.register(f"P{i}")["id"] for i in range(2)]
    t = services.tournaments.create(
        ada, "ninedomains", "round_robin", 3, {"per_move_seconds": 86400, "on_timeout": "forfeit"}
    )
    for player in [ada, *others]:
        services.tournaments.sign_up(t["id"], player)
    for _ in range(20):  # the start and its games, carried out as the worker does
        entries = outbox.read("test", 100, 5)
        if not entries:
            break
        for entry in entries:
            services.consequences.carry_out(entry)
        outbox.done(entries)
    seat = [p["player_id"] for p in services.tournaments.get(t["id"])["players"]].index(ada)
    notice = Notice(tournament_letters.ROUND_STARTED, t["id"], seat, 1)
    assert services.notifications.email(notice)[0] == "sent"
    message = smtp.wait_for(lambda m, rcpt: "ada@example.org" in rcpt)
    assert "турнир" in text_of(message) and "Hello" not in text_of(message)
    assert f"{URL}/games/" in text_of(message)  # the round began: its games are listed
    assert '<html lang="ru">' in html_of(message)


def test_a_tiebreak_with_decimals_is_written_in_the_readers_locale():
    """Ada drew with Bo, who has half a point: her Sonneborn-Berger is a quarter."""
    drawn = [_round(1, [_board("g_1", "p_ada", "p_bo", 0.5), _board("g_2", "p_cy", "p_ada")])]
    state = _state("round_robin", "running", 3, drawn)
    assert "1. you: ½ (0.25)" in tournament_letters.standing_lines(state, "p_ada")
    for language in ("ru", "it"):
        with speaking(language):
            lines = tournament_letters.standing_lines(state, "p_ada")
        assert any(line.endswith(": ½ (0,25)") for line in lines), lines
        assert not any("0.25" in line for line in lines)
