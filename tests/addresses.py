"""Set-up for the tests about what comes after an address is confirmed (turn emails, replies,
invitations): the players' addresses count as confirmed, as they do once their owners followed
the emailed link. Confirming itself, and that an address gets nothing else before, is tried by
tests/service/test_address_proof.py, tests/workers/test_mail_bombing.py and the web tests."""

from __future__ import annotations

from typing import Any

import redis

from service.players.accounts import PlayerService
from store.players import PlayerStore


def confirm(client: redis.Redis, player_id: str) -> None:
    """The player's address (as it is now) is confirmed."""
    store = PlayerStore(client)
    profile = store.get(player_id)
    assert profile and profile.get("email"), f"{player_id} has no address to confirm"
    store.confirm_email(player_id, profile["email"])


def confirm_all(client: redis.Redis) -> int:
    """Every player's address (as it is now) is confirmed; how many."""
    store = PlayerStore(client)
    done = 0
    for player_id, profile in store.profiles():
        if profile.get("email"):
            store.confirm_email(player_id, profile["email"])
            done += 1
    return done


class ConfirmedPlayers(PlayerService):
    """The players' service, each address given at registration confirmed at once (set-up for
    tests of what comes after)."""

    def register(
        self,
        name: str,
        email: str | None = None,
        webhook_url: str | None = None,
        webhook_kind: str | None = None,
    ) -> dict[str, Any]:
        answer = super().register(name, email, webhook_url, webhook_kind)
        if email:
            self.players.confirm_email(answer["id"], email)
        return answer
