"""The Flask app factory, and the OpenAPI document it describes itself with."""
from __future__ import annotations

import json
import os

import redis
from flask import Flask
from flask_swagger_ui import get_swaggerui_blueprint

from engine import registry
from service.assembly import assemble
from service.mailer import Mailer
from service.scheduler import Scheduler
from service.settings import Settings
from store.connection import connect

from . import errors, http_conventions
from .pages import pages
from .resources import catalog, games, inbound, players
from .schemas import WebhookGameFinishedSchema, WebhookTurnStartedSchema
from .spec_plugin import ContractPlugin, TurnpostMarshmallowPlugin

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
SERVERS = [{"url": "http://127.0.0.1:8000",
            "description": "`make serve` on your own machine; use your server's address"}]


def create_app(redis_client: redis.Redis | None = None, scheduler: Scheduler | None = None,
               config: dict | None = None, settings: Settings | None = None,
               mailer: Mailer | None = None) -> Flask:
    app = Flask("turnpost")
    titles = ", ".join(game.info.title for _, game in sorted(registry.GAMES.items()))
    app.config.update(
        API_TITLE="turnpost", API_VERSION="1.0.0", OPENAPI_VERSION="3.0.3",
        OPENAPI_URL_PREFIX="/", OPENAPI_JSON_PATH="openapi.json",
        API_SPEC_OPTIONS={"info": {"description": API_DESCRIPTION.format(games=titles)},
                          "servers": SERVERS, "security": [{"bearerAuth": []}]},
        JSON_SORT_KEYS=False, MAX_CONTENT_LENGTH=256 * 1024,
        STREAM_SECONDS=300,  # how long one event stream stays open; clients then resume
    )
    app.config.update(config or {})
    client = redis_client or connect(os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0"))
    services = assemble(client, scheduler, settings, mailer)
    app.extensions["turnpost"] = {
        "redis": client, "services": services,
        "players": services.players, "games": services.games,
    }
    api = errors.TurnpostApi(app, spec_kwargs={"marshmallow_plugin": TurnpostMarshmallowPlugin(),
                                               "extra_plugins": [ContractPlugin()]})
    api.spec.components.security_scheme("bearerAuth", {
        "type": "http", "scheme": "bearer",
        "description": "The token from POST /v1/players"})
    for blueprint in (catalog.blp, players.blp, games.blp, inbound.blp):
        api.register_blueprint(blueprint)
    # flask-smorest registers its page-based pagination's schema whether or not an operation
    # pages that way; none does here (pages follow `after`), so the document leaves it out.
    api.spec.components.schemas.pop("PaginationMetadata", None)
    # What the server POSTs to a player's webhook_url: no operation of the API answers with it,
    # so each event's body is a component of its own (OpenAPI 3.0 has no `webhooks`).
    for event_body in (WebhookTurnStartedSchema, WebhookGameFinishedSchema):
        api.spec.components.schema(event_body.__name__.removesuffix("Schema"),
                                   schema=event_body)
    app.register_blueprint(pages)
    errors.register(app)
    http_conventions.register(app, services.settings.cors_origins)
    app.register_blueprint(get_swaggerui_blueprint("/docs", "/openapi.json", config={
        "app_name": "turnpost API", "validatorUrl": None, "persistAuthorization": True,
        "oauth2RedirectUrl": "/docs/oauth2-redirect.html"}))
    app.extensions["turnpost"]["api"] = api
    return app


def openapi_document(app: Flask) -> str:
    """The app's OpenAPI document as openapi/openapi.json holds it: sorted keys, indented."""
    spec = app.extensions["turnpost"]["api"].spec.to_dict()
    return json.dumps(spec, indent=2, sort_keys=True) + "\n"
