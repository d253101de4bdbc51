"""Rate limits (Flask-Limiter, counted in Redis so that every worker process shares them).

Each request falls in exactly one bucket:

- `register`: `POST /v1/players`, per client IP;
- `sign_in`: `POST /v1/sign-in` (a sign-in link by email), per client IP;
- `anonymous`: any other call without a valid token (a bad token too), per client IP;
- `create`: `POST /v1/games`, per player;
- `moves`: every other change a player makes (moves, joins, resigns, settings), per player;
- `reads`: every GET of a player, per player.

The limits come from api.front_door.FrontDoor (environment variables LIMIT_*). Every answer
carries the IETF RateLimit-Policy and RateLimit headers of its bucket
(draft-ietf-httpapi-ratelimit-headers); a 429 also carries Retry-After.
"""

from __future__ import annotations

import logging
import time

import redis
from flask import Flask, g, request
from flask_limiter import ApplicationLimit, Limiter
from redis.cluster import RedisCluster

from service.errors import ServiceError, Words
from store import keys

from . import context
from .front_door import FrontDoor

READ_METHODS = ("GET", "HEAD", "OPTIONS")

log = logging.getLogger(__name__)


def install(app: Flask, client: redis.Redis, door: FrontDoor) -> Limiter | None:
    """The limits on `app`, or none at all when RATE_LIMITS is off (benchmarks): then no
    request pays for a limiter that counts nothing (its hooks cost a GET about 5% of its CPU)."""
    if not door.rate_limits:
        return None
    limits = {  # bucket: (its limit, whose requests it counts, "per" whom in its message)
        "register": (door.limit_register_per_ip, _client_ip, PER_ADDRESS),
        "anonymous": (door.limit_anonymous_per_ip, _client_ip, PER_ADDRESS),
        "sign_in": (door.limit_sign_in_per_ip, _client_ip, PER_ADDRESS),
        "create": (door.limit_create_per_player, _player, PER_PLAYER),
        "moves": (door.limit_moves_per_player, _player, PER_PLAYER),
        "reads": (door.limit_reads_per_player, _player, PER_PLAYER),
    }
    refusals = {name: _too_many(name, limit, whose) for name, (limit, _, whose) in limits.items()}
    # One application limit that is the request's bucket's (its limit, key, scope and words),
    # rather than one limit a bucket with all but one exempt: Flask-Limiter resolves, parses
    # and hashes every limit it is given on every request, which cost more than the rest of a
    # request's own work.
    the_buckets_limit = ApplicationLimit(
        lambda: limits[_bucket()][0],
        key_function=lambda: limits[_bucket()][1](),
        scope=lambda endpoint: _bucket(),
        error_message=lambda: refusals[_bucket()],
    )
    limiter = Limiter(
        _client_ip,
        app=app,
        application_limits=[the_buckets_limit],
        **_storage(client),
        strategy="sliding-window-counter",
        key_prefix=keys.RATE_LIMITS_PREFIX,
        headers_enabled=False,
        swallow_errors=True,
    )  # Redis down: serve (and log) rather than 500

    @app.after_request
    def rate_limit_headers(response):
        current = limiter.current_limit
        if current is None:
            return response
        item = current.limit
        try:  # read from Redis now, after the request was served
            reset = max(0, int(current.reset_at - time.time()))
            remaining = current.remaining
        except redis.RedisError:  # gone since: the answer (a move made, maybe) stands
            log.warning("the rate limit's window was not read: no RateLimit headers")
            return response
        bucket = _bucket()
        response.headers["RateLimit-Policy"] = f'"{bucket}";q={item.amount};w={item.get_expiry()}'
        response.headers["RateLimit"] = f'"{bucket}";r={remaining};t={reset}'
        if response.status_code == 429:
            response.headers["Retry-After"] = str(max(1, reset))
        return response

    return limiter


PER_ADDRESS, PER_PLAYER = "address", "player"


def _too_many(bucket: str, limit: str, whose: str) -> Words:
    """A 429's message: the bucket and its limits (their notation, as configured: "10/minute"),
    in words said in the language the client asks for (api/languages.py)."""
    limits: str = limit.split(";")[0]
    for then in limit.split(";")[1:]:
        limits = Words("%(limits)s and %(limit)s", limits=limits, limit=then)
    if whose == PER_ADDRESS:
        return Words(
            "too many requests (%(bucket)s: at most %(limits)s per address); wait the "
            "Retry-After seconds",
            bucket=bucket,
            limits=limits,
        )
    return Words(
        "too many requests (%(bucket)s: at most %(limits)s per player); wait the Retry-After "
        "seconds",
        bucket=bucket,
        limits=limits,
    )


def _storage(client: redis.Redis) -> dict:
    """Count in the data's Redis: its own pool on one server, its nodes on a cluster."""
    if isinstance(client, RedisCluster):
        node = client.get_default_node()
        return {"storage_uri": f"redis+cluster://{node.host}:{node.port}"}
    return {
        "storage_uri": "redis://",
        "storage_options": {"connection_pool": client.connection_pool},
    }


def _client_ip() -> str:
    """The client's address; behind a reverse proxy, PROXY_HOPS makes it the real client's."""
    return request.remote_addr or "unknown"


def _player() -> str:
    return g.rate_limit_player


def _bucket() -> str:
    """The request's bucket, worked out once (it looks the token up)."""
    if "rate_limit_bucket" not in g:
        g.rate_limit_bucket = _classify()
    return g.rate_limit_bucket


def _classify() -> str:
    path = request.path.rstrip("/")
    if request.method == "POST" and path in ("/v1/players", "/sign-up"):
        return "register"
    if request.method == "POST" and path in ("/v1/sign-in", "/sign-in"):
        return "sign_in"
    if request.headers.get("Authorization"):
        try:
            g.rate_limit_player = context.caller()
        except ServiceError:
            return "anonymous"
    elif request.cookies and context.web_player():  # a person signed in to the web client
        g.rate_limit_player = context.web_player()
    else:
        return "anonymous"
    if request.method in READ_METHODS:
        return "reads"
    if request.method == "POST" and path in ("/v1/games", "/games/new"):
        return "create"
    return "moves"
