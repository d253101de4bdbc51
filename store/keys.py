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
