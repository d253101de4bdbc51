"""Building the use-cases on one Redis connection: the one place that wires them together
(the API, the workers and the mail receiver all start here)."""

from __future__ import annotations

from dataclasses import dataclass

import redis

from service.by_mail.moves import MailMoves
from service.consequences import Consequences, Deliveries
from service.matchmaking.matchmaking import Matchmaking
from service.notify.feeds import Feeds
from service.notify.notifications import NotificationService
from service.notify.one_click import OneClick
from service.notify.push import PushDevices
from service.play.games import GameService
from service.play.table import Tables
from service.play.talk import Talk, TalkLimits
from service.players.accounts import PlayerService
from service.players.moderation import Moderation
from service.players.own_data import OwnData
from service.players.sessions import WebSessions
from service.players.sign_in import SignIn
from service.players.vacations import VacationService
from service.ratings.ratings import Ratings
from service.secrets import ServerKeys
from service.settings import Settings
from service.tournaments.tournaments import TournamentService
from store.games import GameStore
from store.matchmaking import MatchmakingStore
from store.moderation import ModerationStore
from store.notifications import NotificationStore
from store.outbox import OutboxStore
from store.players import PlayerStore
from store.push import PushStore
from store.ratings import RatingStore
from store.schedule import ScheduleStore
from store.sessions import SessionStore
from store.tallies import WorkerTallies
from store.token_cache import TokenCache
from store.tournaments import TournamentStore
from transports.mailer import Mailer, mailer_for


@dataclass(frozen=True)
class Services:
    settings: Settings
    players: PlayerService
    games: GameService
    talk: Talk
    """The players' messages (and proposals) in a game."""
    moderation: Moderation
    """Reports, and the operators' actions on them."""
    tables: Tables
    """Each reader's table of a game: what every page, email and webhook shows."""
    notifications: NotificationService
    one_click: OneClick
    mail_moves: MailMoves
    sign_in: SignIn
    sessions: WebSessions
    """The web client's sessions (signing out ends them)."""
    push: PushDevices
    """The players' devices with Web Push on (service.notify.push)."""
    feeds: Feeds
    """Each player's calendar of deadlines and feed of turns, at secret addresses."""
    consequences: Consequences | None
    """Only where a job runner is wired (`turnpost worker`): what commits cause."""
    ratings: Ratings
    """Ratings, leaderboards and players' records (written by the worker only)."""
    tournaments: TournamentService
    """Tournaments: the requests record intent, the worker runs them."""
    matchmaking: Matchmaking
    """Rated games against someone near one's rating: the requests ask, the worker pairs."""
    own_data: OwnData
    """A player's export of their data, and the deletion of their account."""
    vacations: VacationService | None = None


def assemble(
    client: redis.Redis,
    settings: Settings | None = None,
    mailer: Mailer | None = None,
    min_move_seconds: int | None = None,
    deliveries: Deliveries | None = None,
    cache_tokens: bool = False,
) -> Services:
    settings = settings or Settings()
    mailer = mailer or mailer_for(
        settings.smtp_url, settings.outbox_dir, settings.smtp_timeout_seconds
    )
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
    talk = Talk(
        games,
        player_store,
        TalkLimits(settings.talk_per_minute, settings.talk_per_hour, settings.proposal_hours),
    )
    tables = Tables(game_store, players=player_store)
    tournament_store = TournamentStore(client)
    tournaments = TournamentService(tournament_store, games, player_store, ratings)
    matchmaking = Matchmaking(MatchmakingStore(client), games, player_store, ratings, settings)
    one_click = OneClick(games, tables, notes, settings, keys, talk)
    push = PushDevices(PushStore(client), notes, keys, settings)
    sign_in = SignIn(player_store, ScheduleStore(client), mailer, settings)
    vacations = VacationService(player_store, games, ScheduleStore(client), settings)
    games.vacation_days = vacations.days_for
    games.came_back = vacations.come_back
    sessions = WebSessions(SessionStore(client))
    players = PlayerService(
        player_store,
        notes,
        webhook_urls=settings.webhook_urls,
        keys=keys,
        digest_day_seconds=settings.digest_day_seconds,
        sessions=sessions,
        confirmations=sign_in.ask_confirmation,
    )
    players.zone_changed = vacations.zone_changed
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
            talk=talk,
            push=PushStore(client),
            vacations=vacations,
            tournaments=tournaments,
            matchmaking=matchmaking,
            notes=notes,
        )
    )
    return Services(
        settings=settings,
        players=players,
        games=games,
        talk=talk,
        moderation=Moderation(games, talk, player_store, ModerationStore(client)),
        tables=tables,
        notifications=NotificationService(
            game_store,
            player_store,
            notes,
            settings,
            mailer,
            one_click=one_click.links,
            keys=keys,
            push_devices=push,
            invitation_links=one_click.invitation_links,
            proposal_links=one_click.proposal_links,
            tournaments=tournament_store,
        ),
        one_click=one_click,
        mail_moves=MailMoves(games, player_store, notes, settings, mailer, keys=keys, talk=talk),
        sign_in=sign_in,
        sessions=sessions,
        push=push,
        feeds=Feeds(player_store, notes, tables, keys, settings),
        consequences=consequences,
        ratings=ratings,
        vacations=vacations,
        tournaments=tournaments,
        matchmaking=matchmaking,
        own_data=OwnData(
            players,
            games,
            talk,
            push,
            vacations,
            ratings,
            RatingStore(client),
            MatchmakingStore(client),
            tournaments,
        ),
    )
