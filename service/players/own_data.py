"""A player's own data: everything the server holds about them, as JSON (`export`), and their
account deleted (`delete`).

The export reads every game through the player's own seat (its view, the messages that seat
wrote), never through a snapshot: another seat's hidden facts and the seed stay out of it.

A deletion ends the account at once (token, web sessions, address, webhook, devices, every key
of the player's), resolves the player's unfinished games as a suspension does (their clock's
timeout policy; they leave a game without a clock or not yet started; an invitation is
declined), then appends a PlayerDeleted event to every game they sat in and every tournament
they entered: from then on those name them "a deleted player" (service.play.history and
service.tournaments.events fold it into the snapshot or state, which every page, view, letter
and answer names people from, and a tournament's stream shows its earlier events so); the logs
themselves are never rewritten."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

from engine import registry
from service.errors import ErrorCode, ServiceError
from service.notify.push import PushDevices
from service.play.facts import load
from service.play.games import GameService
from service.play.logview import DELETED_NAME
from service.play.talk import Talk
from service.players.accounts import PlayerService
from service.players.vacations import VacationService
from service.ratings.ratings import Ratings
from service.tournaments.tournaments import TournamentService
from store.matchmaking import MatchmakingStore
from store.players import PlayerStore
from store.ratings import RatingStore

PAGE = 50


class OwnData:
    def __init__(
        self,
        players: PlayerService,
        games: GameService,
        talk: Talk,
        push: PushDevices,
        vacations: VacationService,
        ratings: Ratings,
        rating_store: RatingStore,
        matchmaking: MatchmakingStore,
        tournaments: TournamentService,
    ):
        self.players = players
        self.store: PlayerStore = players.players
        self.games = games
        self.talk = talk
        self.push = push
        self.vacations = vacations
        self.ratings = ratings
        self.rating_store = rating_store
        self.matchmaking = matchmaking
        self.tournaments = tournaments

    def export(self, player_id: str) -> dict[str, Any]:
        """Everything the server holds about the player, as JSON; secrets (token, webhook
        secret, push keys and endpoints, session cookies) only as the fact that they exist."""
        profile = self.players.profile(player_id)
        return {
            "profile": profile,
            "friends": self.players.friends(player_id)["friends"],
            "blocked": self.players.blocked(player_id)["blocked"],
            "calendar": self.vacations.state(player_id),
            "games": [self._game(game_id, player_id) for game_id in self._game_ids(player_id)],
            "ratings": self.ratings.of_player(player_id),
            "deliveries": list(self._deliveries(player_id)),
            "push_subscriptions": self.push.listed(player_id)["subscriptions"],
            "sessions": [
                {k: s[k] for k in ("agent", "signed_in", "seen")}
                for s in self.players.sessions.list(player_id, None)
            ],
        }

    def _game_ids(self, player_id: str) -> list[str]:
        found = [g["id"] for g in self.games.invitations(player_id, limit=1000)]
        after = None
        while True:
            page, after = self.games.list_games(player_id, limit=PAGE, after=after)
            found += [g["id"] for g in page if g["id"] not in found]
            if after is None:
                return found

    def _game(self, game_id: str, player_id: str) -> dict[str, Any]:
        summary = self.games.summary(game_id)
        game = load(self.games.games, game_id)
        seat = game.seat_of(player_id)
        view = None
        if seat is not None and game.status in ("active", "finished"):
            view = self.games.view(game_id, player_id)
        return {
            **summary,
            "seat": seat,
            "view": view,
            "messages": [] if seat is None else list(self._messages(game_id, player_id, seat)),
        }

    def _messages(self, game_id: str, player_id: str, seat: int) -> Iterator[dict[str, Any]]:
        after = 0
        while True:
            page = self.talk.messages(game_id, player_id, after=after, limit=PAGE)
            yield from (m for m in page["messages"] if m["seat"] == seat)
            if page["read_to"] >= page["version"] or page["read_to"] == after:
                return
            after = page["read_to"]

    def _deliveries(self, player_id: str) -> Iterator[dict[str, Any]]:
        before = None
        while True:
            page = self.players.deliveries(player_id, PAGE, before)
            yield from page["deliveries"]
            before = page["next_before"]
            if before is None:
                return

    def delete(self, player_id: str, confirm: str) -> dict[str, Any]:
        """Delete the player's account (`confirm`: their own id, so that a stray request or a
        token taken for another account deletes nothing): the games changed by their
        timeout policy, and every game that now names them "a deleted player"."""
        if confirm != player_id:
            raise ServiceError(
                ErrorCode.PLAYER_CONFIRM_MISMATCH,
                "to delete your account, give `confirm` your player id (GET /v1/players/me "
                "says it)",
            )
        profile = self.players.profile(player_id)
        # signed out, and their profile gone, first: no email, push or webhook reaches them
        # about what the steps below do, nor about a move someone makes meanwhile
        self.store.revoke_token(player_id)
        self.store.delete_profile(player_id, profile["name"], profile.get("email"))
        # out of every pairing, so that no game starts meanwhile
        self.players.sessions.end_all(player_id)
        for title in sorted(registry.GAMES):  # out of the pool; named so by whom they met
            self.matchmaking.forget(title, player_id, DELETED_NAME)
        entered = self.tournaments.of_player(player_id, limit=1000)
        for tournament in entered:
            if tournament["status"] in ("signup", "running"):
                # off the list before it starts; withdrawn after (its games by the policy)
                with contextlib.suppress(ServiceError):  # withdrawn already, or just over
                    self.tournaments.leave(tournament["id"], player_id)
        game_ids = self._game_ids(player_id)
        resolved = [g for g in game_ids if self._leave(g, player_id)]
        forgotten = [g for g in game_ids if self.games.forget_player(g, player_id)]
        self.rating_store.forget_player(player_id, sorted(registry.GAMES), game_ids, DELETED_NAME)
        for game_id in game_ids:
            seats = load(self.games.games, game_id).seats
            others = [str(s.player_id) for s in seats if s.player_id not in (None, player_id)]
            self.rating_store.rename_in_results(others, game_id, player_id, DELETED_NAME)
        # their standings, pairings, letters and stream; a sign-up they withdrew, too
        for tournament_id in self.tournaments.ever_entered(player_id):
            self.tournaments.forget_player(tournament_id, player_id)
        # every key of theirs left, some written by the steps above
        self.store.delete_player(player_id, profile["name"], profile.get("email"))
        return {"deleted": True, "games": resolved, "renamed": forgotten}

    def _leave(self, game_id: str, player_id: str) -> bool:
        """The game goes on without the player, as it would after a suspension."""
        game = load(self.games.games, game_id)
        seat = game.seat_of(player_id)
        if game.status == "active":
            return self.games.apply_timeout_policy(game_id, player_id)
        if game.status != "open":
            return False
        try:
            if game.invitation_of(player_id) is not None:
                self.games.decline(game_id, player_id)
            elif seat is not None:
                self.games.resign(game_id, player_id)
            else:
                return False
        except ServiceError:  # it started or ended meanwhile: the policy above is not due
            return False
        return True
