"""A Web Push notification in its reader's language (issue 38): the title and body a player's
device shows say the turn, the invitation or the end in the language of the player's profile
(English word for word as before without one); names, the game's title and links stay as they
are. A push service on loopback (tests/peers.py) decrypts what it is sent."""

from __future__ import annotations

import pytest

from service.assembly import assemble
from service.notify.notifications import GAME_INVITED, TURN_STARTED, Notice
from service.settings import Settings
from tests.peers import PushService

LOOPBACK = Settings(
    webhook_allow_http=True, webhook_allow_loopback=True, public_url="http://turnpost.test"
)


def subscribe(services, service, player_id, name):
    service.application_server_key = services.push.public_key()
    sub = service.browser(name).subscription
    services.push.add(player_id, sub["endpoint"], **sub["keys"], device=f"{name}'s phone")


def pushed(services, service, notice, count):
    assert services.notifications.push(notice)[0] == "sent"
    return service.wait_count(count)[-1]["json"]


@pytest.mark.slow  # a push service on loopback
@pytest.mark.parametrize(
    ("language", "turn", "invited"),
    [
        (
            None,
            ("The Nine Domains with Ada: your move", "It is your move (round 1)."),
            (
                "Ada invites you to The Nine Domains",
                "A game of The Nine Domains: open it to accept or decline.",
            ),
        ),
        (
            "ru",
            ("The Nine Domains с Ada: ваш ход", "Ваш ход (раунд 1)."),
            (
                "Ada приглашает вас в The Nine Domains",
                "Партия в The Nine Domains: откройте её, чтобы принять или отклонить приглашение.",
            ),
        ),
        (
            "it",
            ("The Nine Domains con Ada: tocca a te", "Tocca a te (round 1)."),
            (
                "Ada ti invita a The Nine Domains",
                "Una partita a The Nine Domains: aprila per accettare o rifiutare.",
            ),
        ),
    ],
)
def test_a_push_says_the_turn_and_the_invitation_in_the_players_language(
    redis_client, language, turn, invited
):
    services = assemble(redis_client, LOOPBACK)
    with PushService() as service:
        ada = services.players.register("Ada")["id"]
        bo = services.players.register("Bo")["id"]
        if language:
            services.players.update(bo, {"language": language})
        subscribe(services, service, bo, "bo")
        asked = services.games.create(ada, "ninedomains", [ada, bo])["id"]  # Bo is invited
        seat = [s["player_id"] for s in services.games.summary(asked)["seats"]].index(bo)
        message = pushed(services, service, Notice(GAME_INVITED, asked, seat, 1), 1)
        assert (message["title"], message["body"]) == invited
        services.players.set_friends(bo, [ada])  # seated without an invitation
        game = services.games.create(ada, "ninedomains", [ada, bo])["id"]
        summary = services.games.summary(game)
        seat = [s["player_id"] for s in summary["seats"]].index(bo)
        message = pushed(services, service, Notice(TURN_STARTED, game, seat, summary["version"]), 2)
    assert (message["title"], message["body"]) == turn
