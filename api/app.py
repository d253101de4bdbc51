"""The Flask app factory, and the OpenAPI document it describes itself with."""

from __future__ import annotations

import functools
import gc
import inspect
import json
import os
from collections.abc import Callable
from typing import Any

import redis
from apispec import APISpec
from flask import Flask
from flask_swagger_ui import get_swaggerui_blueprint
from werkzeug.middleware.proxy_fix import ProxyFix

from engine import registry
from service.assembly import assemble
from service.health import Readiness
from service.settings import Settings
from store.connection import connect, data_url, for_blocking_reads
from store.front_door import StreamSlots
from store.outbox import OutboxStore
from store.workers import WorkerHeartbeats
from transports.mailer import Mailer
from web import install as install_web_client

from . import (
    errors,
    hostile_input,
    http_conventions,
    metrics,
    rate_limits,
    request_log,
    security_headers,
)
from .front_door import BodyDeadline, FrontDoor
from .health import health
from .json_answers import OrjsonProvider
from .pages import pages
from .resources import (
    catalog,
    feeds,
    games,
    inbound,
    leaderboards,
    matchmaking,
    players,
    push,
    talk,
    tournaments,
)
from .schemas import (
    PushMessageSchema,
    WebhookChatMessageSchema,
    WebhookGameCancelledSchema,
    WebhookGameFinishedSchema,
    WebhookGameInvitedSchema,
    WebhookProposalSchema,
    WebhookTurnStartedSchema,
)
from .spec_plugin import ContractPlugin, TurnpostMarshmallowPlugin
from .tournament_schemas import WebhookTournamentRoundSchema

API_DESCRIPTION = """\
turnpost hosts asynchronous, turn-based board games played by correspondence: {games}.

Register with `POST /v1/players` to get a token, then send `Authorization: Bearer <token>`.
Your inbox is `GET /v1/games?awaiting=me`. Every game has a `version`: read your view or your
`/legal-moves`, and post a move with the `expected_version` you read. A stale version answers
409 `move/stale_version`; an `Idempotency-Key` makes a retry safe. Follow a game by polling
`/view` with `If-None-Match` (304 while nothing moved) or with its event stream.

Errors are RFC 9457 problem details (`application/problem+json`) with a stable `code` and a
`message`: each error response below lists its codes. The project's docs/clients.md walks
through a complete bot.
"""
SERVERS = [
    {
        "url": "http://127.0.0.1:8000",
        "description": "`make serve` on your own machine; use your server's address",
    }
]


class TurnpostFlask(Flask):
    """Flask, asking once per function whether it is a coroutine function: Flask asks it of
    every hook, view and decorator a request goes through (14 times for the baseline GET,
    about a twentieth of its time in Flask), and the answer never changes."""

    def ensure_sync(self, func: Callable) -> Callable:
        if _is_a_coroutine_function(getattr(func, "__func__", func)):  # a method: its function
            return self.async_to_sync(func)
        return func


@functools.lru_cache(maxsize=1024)  # the app's functions are a few hundred; all live forever
def _is_a_coroutine_function(func: Any) -> bool:
    return inspect.iscoroutinefunction(func)


def create_app(
    redis_client: redis.Redis | None = None,
    config: dict | None = None,
    settings: Settings | None = None,
    mailer: Mailer | None = None,
    front_door: FrontDoor | None = None,
) -> Flask:
    app = TurnpostFlask("turnpost")
    app.json = OrjsonProvider(app)
    titles = ", ".join(game.info.title for _, game in sorted(registry.GAMES.items()))
    app.config.update(
        API_TITLE="turnpost",
        API_VERSION="1.0.0",
        OPENAPI_VERSION="3.0.3",
        OPENAPI_URL_PREFIX="/",
        OPENAPI_JSON_PATH="openapi.json",
        API_SPEC_OPTIONS={
            "info": {"description": API_DESCRIPTION.format(games=titles)},
            "servers": SERVERS,
            "security": [{"bearerAuth": []}],
        },
        JSON_SORT_KEYS=False,
        MAX_CONTENT_LENGTH=256 * 1024,
        STREAM_SECONDS=300,  # how long one event stream stays open; clients then resume
    )
    app.config.update(config or {})
    door = front_door or FrontDoor()
    client = redis_client or connect(data_url(os.environ))
    services = assemble(client, settings, mailer, cache_tokens=True)
    # a stream blocks up to a keep-alive interval in XREAD: its client must wait longer
    streaming = assemble(
        for_blocking_reads(client, door.stream_keepalive_seconds + 10, door.worker_connections),
        services.settings,
        services.notifications.mailer,
    )
    app.extensions["turnpost"] = {
        "redis": client,
        "services": services,
        "front_door": door,
        "players": services.players,
        "games": services.games,
        "readiness": Readiness(
            WorkerHeartbeats(client),
            OutboxStore(client),
            services.settings.ready_worker_seconds,
            services.settings.ready_backlog_seconds,
        ),
        "stream_games": streaming.games,
        "stream_players": streaming.players,
        "stream_tournaments": streaming.tournaments,
        "stream_slots": StreamSlots(
            client, app.config["STREAM_SECONDS"] + door.stream_keepalive_seconds + 60
        ),
    }
    # Flask's documented way to wrap the WSGI app in middleware (mypy sees a method)
    app.wsgi_app = BodyDeadline(  # type: ignore[method-assign]
        app.wsgi_app, door.body_timeout_seconds, app.config["MAX_CONTENT_LENGTH"]
    )
    if door.proxy_hops:
        app.wsgi_app = ProxyFix(  # type: ignore[method-assign]
            app.wsgi_app, x_for=door.proxy_hops, x_proto=door.proxy_hops
        )
    api = errors.TurnpostApi(
        app,
        spec_kwargs={
            "marshmallow_plugin": TurnpostMarshmallowPlugin(),
            "extra_plugins": [ContractPlugin()],
        },
    )
    api.spec.components.security_scheme(
        "bearerAuth",
        {"type": "http", "scheme": "bearer", "description": "The token from POST /v1/players"},
    )
    api.spec.components.security_scheme(
        "streamTicket",
        {
            "type": "apiKey",
            "in": "query",
            "name": "ticket",
            "description": "For the event streams only, from a browser's EventSource (which "
            "cannot send the Authorization header): a ticket from POST "
            "/v1/players/me/stream-ticket, which opens one stream, once, within a minute",
        },
    )
    for blueprint in (
        catalog.blp,
        players.blp,
        players.sign_in_blp,
        games.blp,
        talk.blp,
        talk.reports_blp,
        inbound.blp,
        leaderboards.blp,
        push.blp,
        feeds.blp,
        tournaments.blp,
        matchmaking.blp,
    ):
        api.register_blueprint(blueprint)
    api.document_when_read(_finish_the_document)
    app.register_blueprint(pages)
    install_web_client(app, services)
    app.register_blueprint(health)
    # before-request hooks run in this order: the rate limits first (hostile bodies and bad
    # tokens count against them), then hostile bodies, then the token and the body's type
    request_log.install(app)
    metrics.install(app, client)
    rate_limits.install(app, client, door)
    app.before_request(hostile_input.check_json_body)
    errors.register(app)
    http_conventions.register(app, services.settings.cors_origins)
    security_headers.install(app, services.settings.public_url, door.hsts_seconds)
    app.register_blueprint(
        get_swaggerui_blueprint(
            "/docs",
            "/openapi.json",
            config={
                "app_name": "turnpost API",
                "validatorUrl": None,
                "persistAuthorization": True,
                "oauth2RedirectUrl": "/docs/oauth2-redirect.html",
            },
        )
    )
    app.extensions["turnpost"]["api"] = api
    return app


def _finish_the_document(spec: APISpec) -> None:
    """What the document holds beside the views of the blueprints."""
    # flask-smorest registers its page-based pagination's schema whether or not an operation
    # pages that way; none does here (pages follow `after`), so the document leaves it out.
    spec.components.schemas.pop("PaginationMetadata", None)
    # What the server POSTs to a player's webhook_url: no operation of the API answers with it,
    # so each event's body is a component of its own (OpenAPI 3.0 has no `webhooks`).
    for event_body in (
        WebhookTurnStartedSchema,
        WebhookGameFinishedSchema,
        WebhookGameInvitedSchema,
        WebhookGameCancelledSchema,
        WebhookChatMessageSchema,
        WebhookProposalSchema,
        PushMessageSchema,
        WebhookTournamentRoundSchema,
    ):
        spec.components.schema(event_body.__name__.removesuffix("Schema"), schema=event_body)


def settle_the_heap(app: Flask) -> None:
    """Called by a serving process once its app is built, to tune the garbage collector for
    serving. Its OpenAPI document is put together first. What is on the heap then (the app,
    its routes, schemas and OpenAPI document, the libraries) lives as long as the process, so it is moved out of the collector's sight
    (`gc.freeze`): otherwise every full collection walks those ~90,000 objects again. And a
    young collection runs when 5,000 more containers are alive than at the last one, not 700:
    The Nine Domains' 504 legal moves hold about 1,500 at once, so with 700 every such answer
    set off two young collections and, now and then, a full one (a tenth of its CPU); the
    answer's containers are freed before the next one counts. Not for create_app itself: the
    tests build many apps in one process, and a frozen app is never collected."""
    openapi_document(app)
    gc.collect()
    gc.freeze()
    gc.set_threshold(5000, *gc.get_threshold()[1:])


def openapi_document(app: Flask) -> str:
    """The app's OpenAPI document as openapi/openapi.json holds it: sorted keys, indented."""
    spec = app.extensions["turnpost"]["api"].spec.to_dict()
    return json.dumps(spec, indent=2, sort_keys=True) + "\n"
