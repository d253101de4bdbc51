"""Every Redis key name. A game's keys share the hash tag {ID}, so they land in one slot of a
Redis Cluster and one Lua script may touch them all; nothing is atomic across two games."""

PREFIX = "tp"


def game_log(game_id: str) -> str:
    """The game's history: a Stream of events, entry ID '<version>-0'."""
    return f"{PREFIX}:game:{{{game_id}}}:log"


def game_snapshot(game_id: str) -> str:
    """The state after the last event, as JSON (never shown as it is)."""
    return f"{PREFIX}:game:{{{game_id}}}:snap"


def game_idempotency(game_id: str, player_id: str, key: str) -> str:
    return f"{PREFIX}:game:{{{game_id}}}:idem:{player_id}:{key}"


def player(player_id: str) -> str:
    return f"{PREFIX}:player:{{{player_id}}}"


def player_games(player_id: str) -> str:
    """Sorted set of the player's games, scored by last activity (ms)."""
    return f"{PREFIX}:player:{{{player_id}}}:games"


def player_inbox(player_id: str) -> str:
    """Sorted set of games awaiting the player's move, scored by deadline (or since, in ms)."""
    return f"{PREFIX}:player:{{{player_id}}}:inbox"


def token(token_hash: str) -> str:
    """SHA-256 of an API token -> player id. The token itself is never stored."""
    return f"{PREFIX}:token:{token_hash}"


OPEN_GAMES = f"{PREFIX}:games:open"


def player_deliveries(player_id: str) -> str:
    """List of the player's latest notification deliveries, newest first (JSON)."""
    return f"{PREFIX}:player:{{{player_id}}}:deliveries"


def player_webhook(player_id: str) -> str:
    """Hash: the player's webhook secret and whether the webhook is failing."""
    return f"{PREFIX}:player:{{{player_id}}}:webhook"


def email_throttle(player_id: str, game_id: str) -> str:
    """Present while a player may not get another email about a game."""
    return f"{PREFIX}:player:{{{player_id}}}:throttle:{game_id}"


def claimed(name: str) -> str:
    """Present once something that must happen once was claimed: a delivery (so a retried job
    never sends twice), an inbound email (by Message-ID), a one-click link."""
    return f"{PREFIX}:claimed:{name}"


def mail_token(token: str) -> str:
    """A per-seat reply token -> {game_id, seat} (play by email)."""
    return f"{PREFIX}:mailtoken:{token}"


def seat_mail_token(game_id: str, seat: int) -> str:
    return f"{PREFIX}:game:{{{game_id}}}:mailtoken:{seat}"


SERVER_SECRET = f"{PREFIX}:secret"
