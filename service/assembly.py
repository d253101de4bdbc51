"""Building the use-cases on one Redis connection: the one place that wires them together
(the API, the workers and the mail receiver all start here)."""

from __future__ import annotations

from dataclasses import dataclass

import redis

from service.by_mail.moves import MailMoves
from service.consequences import Consequences, Deliveries
from service.matchmaking.matchmaking import Matchmaking
from service.notify.notifications import NotificationService
from service.notify.one_click import OneClick
from service.play.games import GameService
from service.play.table import Tables
from service.players.accounts import PlayerService
from service.players.sign_in import SignIn
from service.ratings.ratings import Ratings
from service.secrets import ServerKeys
from service.settings import Settings
from service.tournaments.tournaments import TournamentService
from store.games import GameStore
from store.matchmaking import MatchmakingStore
from store.notifications import NotificationStore
from store.outbox import OutboxStore
from store.players import PlayerStore
from store.ratings import RatingStore
from store.schedule import ScheduleStore
from store.tallies import WorkerTallies
from store.token_cache import TokenCache
from store.tournaments import TournamentStore
from transports.mailer import Mailer, mailer_for


@dataclass(frozen=True)
class Services:
    settings: Settings
    players: PlayerService
    games: GameService
    tables: Tables
    """Each reader's table of a game: what every page, email and webhook shows."""
    notifications: NotificationService
    one_click: OneClick
    mail_moves: MailMoves
    sign_in: SignIn
    consequences: Consequences | None
    """Only where a job runner is wired (`turnpost worker`): what commits cause."""
    ratings: Ratings
    """Ratings, leaderboards and players' records (written by the worker only)."""
    tournaments: TournamentService
    """Tournaments: the requests record intent, the worker runs them."""
    matchmaking: Matchmaking
    """Rated games against someone near one's rating: the requests ask, the worker pairs."""


def assemble(
    client: redis.Redis,
    settings: Settings | None = None,
    mailer: Mailer | None = None,
    min_move_seconds: int | None = None,
    deliveries: Deliveries | None = None,
    cache_tokens: bool = False,
) -> Services:
    settings = settings or Settings()
    mailer = mailer or mailer_for(settings.smtp_url, settings.outbox_dir)
    token_cache = TokenCache.for_client(client) if cache_tokens else None
    game_store, player_store = GameStore(client), PlayerStore(client, token_cache)
    notes = NotificationStore(client)
    games = GameService(
        game_store,
        player_store,
        min_move_seconds=settings.min_move_seconds
        if min_move_seconds is None
        else min_move_seconds,
        expert_seconds=settings.expert_seconds,
    )
    keys = ServerKeys(settings, notes)
    ratings = Ratings(RatingStore(client), settings)
    tournament_store = TournamentStore(client)
    tournaments = TournamentService(tournament_store, games, player_store, ratings)
    matchmaking = Matchmaking(MatchmakingStore(client), games, player_store, ratings, settings)
    tables = Tables(game_store)
    one_click = OneClick(games, tables, notes, settings, keys)
    sign_in = SignIn(player_store, ScheduleStore(client), mailer, settings)
    consequences = (
        None
        if deliveries is None
        else Consequences(
            games,
            game_store,
            player_store,
            ScheduleStore(client),
            OutboxStore(client),
            deliveries,
            settings,
            sign_in=sign_in,
            tallies=WorkerTallies(client),
            ratings=ratings,
            tournaments=tournaments,
            matchmaking=matchmaking,
        )
    )
    return Services(
        settings=settings,
        players=PlayerService(player_store, notes, webhook_urls=settings.webhook_urls, keys=keys),
        games=games,
        tables=tables,
        notifications=NotificationService(
            game_store,
            player_store,
            notes,
            settings,
            mailer,
            one_click=one_click.links,
            keys=keys,
            tournaments=tournament_store,
        ),
        one_click=one_click,
        mail_moves=MailMoves(games, player_store, notes, settings, mailer, keys=keys),
        sign_in=sign_in,
        consequences=consequences,
        ratings=ratings,
        tournaments=tournaments,
        matchmaking=matchmaking,
    )
