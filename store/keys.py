"""Every Redis key name.

A game belongs to one of BUCKETS buckets (a hash of its id), and its keys carry the bucket's
hash tag `{bNN}`, as do that bucket's outbox stream and schedule. So one Lua script may commit
a game's events, its snapshot, the outbox entry that says the commit's consequences are due and
the game's deadlines, atomically, and still every key it touches is in one slot of a Redis
Cluster. Nothing is atomic across two buckets. A player's keys share the tag {player id}."""

import hashlib
import zlib

PREFIX = "tp"
BUCKETS = 32
"""Fixed for the life of a database: a game's keys are named after its bucket."""


def bucket_of(game_id: str) -> int:
    return zlib.crc32(game_id.encode()) % BUCKETS


def _bucket_tag(bucket: int) -> str:
    return f"{{b{bucket:02d}}}"


def _game(game_id: str) -> str:
    return f"{PREFIX}:game:{_bucket_tag(bucket_of(game_id))}:{game_id}"


def game_log(game_id: str) -> str:
    """The game's history: a Stream of events, entry ID '<version>-0'."""
    return f"{_game(game_id)}:log"


def game_archive(game_id: str) -> str:
    """A finished game's history once compacted: its events as one zlib-compressed JSON list
    (the log Stream is then gone). See GameStore.compact."""
    return f"{_game(game_id)}:archive"


def game_snapshot(game_id: str) -> str:
    """The state after the last event, as JSON (never shown as it is)."""
    return f"{_game(game_id)}:snap"


def game_idempotency(game_id: str, player_id: str, key: str) -> str:
    return f"{_game(game_id)}:idem:{player_id}:{key}"


def outbox(bucket: int) -> str:
    """Stream of commits whose consequences are due: fields `game` and `version`, written by
    the append script, read by the workers' consumer group OUTBOX_GROUP."""
    return f"{PREFIX}:outbox:{_bucket_tag(bucket)}"


OUTBOX_GROUP = "consequences"


def schedule(bucket: int) -> str:
    """Sorted set of what is due at a time (score: epoch ms): turn deadlines (written with the
    commit), reminders, delayed notices, a bot's delayed move."""
    return f"{PREFIX}:schedule:{_bucket_tag(bucket)}"


def schedule_leased(bucket: int) -> str:
    """Items a clock took and has not finished (score: when the lease runs out)."""
    return f"{PREFIX}:schedule:{_bucket_tag(bucket)}:leased"


def player(player_id: str) -> str:
    """The player's profile (JSON). Every key of the player starts with this one, so that all
    carry the hash tag {player id}."""
    return f"{PREFIX}:player:{{{player_id}}}"


def player_calendar(player_id: str) -> str:
    """JSON: the player's vacations and the number of its latest change (service/players/
    vacations.py)."""
    return f"{player(player_id)}:calendar"


def player_games(player_id: str) -> str:
    """Sorted set of the player's games, scored by last activity (ms)."""
    return f"{player(player_id)}:games"


def player_inbox(player_id: str) -> str:
    """Sorted set of games awaiting the player's move, scored by deadline (or since, in ms)."""
    return f"{player(player_id)}:inbox"


def player_invitations(player_id: str) -> str:
    """Sorted set of the games with a seat reserved for the player, who has not answered yet,
    scored by the game's creation (ms)."""
    return f"{player(player_id)}:invitations"


def player_friends(player_id: str) -> str:
    """Set of the players who may seat this player in a game without inviting them."""
    return f"{player(player_id)}:friends"


def invitation_window(invitee: str, inviter: str) -> str:
    """Present while no other invitation email from `inviter` may go to `invitee`; holds the
    delivery id of the one that took the window."""
    return f"{player(invitee)}:invited-by:{inviter}"


def player_seen(player_id: str) -> str:
    """Hash: game id -> the version the player's lists were last written from (so that an
    older commit's update never overwrites a newer one)."""
    return f"{player(player_id)}:seen"


def player_blocked(player_id: str) -> str:
    """Set of the players this player has blocked: no invitation from them, their messages
    hidden from this player, not seated together from the lobby."""
    return f"{player(player_id)}:blocked"


REPORTS = f"{PREFIX}:{{moderation}}:reports"
"""Stream of players' reports of a message or a player, for the operators (`turnpost reports`)."""
AUDIT = f"{PREFIX}:{{moderation}}:audit"
"""Stream of every operator action (a message hidden, a player suspended or restored)."""


def player_talk(player_id: str, seconds: int) -> str:
    """How many messages and proposals the player wrote in the current window of `seconds`."""
    return f"{player(player_id)}:talk:{seconds}"


def token(token_hash: str) -> str:
    """SHA-256 of an API token -> player id. The token itself is never stored."""
    return f"{PREFIX}:token:{token_hash}"


def player_token(player_id: str) -> str:
    """The SHA-256 of the player's current API token (so a new one can revoke it)."""
    return f"{player(player_id)}:token"


def email_players(address_hash: str) -> str:
    """Set of the players registered with an email address (by the SHA-256 of the address,
    trimmed and lower-cased): whom a sign-in link for that address goes to."""
    return f"{PREFIX}:email:{address_hash}"


PLAYER_NAMES = f"{PREFIX}:{{names}}:players"
"""Sorted set, every score 0, of `<name folded>\x00<player id>`: players found by the start
of their name (ZRANGEBYLEX), in the order of their names."""


def game_rematch(game_id: str) -> str:
    """The id of the game that rematches this finished one (set once, by the first asker)."""
    return f"{_game(game_id)}:rematch"


def sign_in_link(link_hash: str) -> str:
    """SHA-256 of an emailed sign-in link's token -> "player-id address-hash" (the address it
    was emailed to), until the link expires."""
    return f"{PREFIX}:signin:{link_hash}"


def web_session(player_id: str, session_hash: str) -> str:
    """JSON of a web session (signed in, last seen, browser), until it expires or ends; named
    by the SHA-256 of the secret its cookie holds."""
    return f"{player(player_id)}:session:{session_hash}"


def web_sessions(player_id: str) -> str:
    """Set of the SHA-256 names of a player's web sessions (some may have expired)."""
    return f"{player(player_id)}:sessions"


def address_quota(kind: str, address_hash: str) -> str:
    """Sorted set of what an email address (its SHA-256) was sent of a kind (`letters`: sign-in
    links and confirmations; `invitations`) in the last hour, by time."""
    return f"{PREFIX}:address:{{{address_hash}}}:{kind}"


def email_confirmed(player_id: str) -> str:
    """The SHA-256 of the address whose owner followed a link emailed to it for this player:
    the player's address is confirmed while it is that one."""
    return f"{player(player_id)}:email-confirmed"


def used_stream_ticket(nonce_hash: str) -> str:
    """Present once a stream ticket (the SHA-256 of its nonce) opened a stream, until the
    ticket expires."""
    return f"{PREFIX}:ticket-used:{nonce_hash}"


OPEN_GAMES = f"{PREFIX}:{{lobby}}:open"
"""Sorted set of the games with an open seat (the lobby), scored by creation time."""
OPEN_GAMES_SEEN = f"{PREFIX}:{{lobby}}:seen"
"""Hash: game id -> the version the lobby was last written from, for the games in the lobby."""


def lobby_left(game_id: str) -> str:
    """The version at which a game left the lobby (expires: store.games.LOBBY_MARKER_SECONDS)."""
    return f"{PREFIX}:{{lobby}}:left:{game_id}"


def player_deliveries(player_id: str) -> str:
    """List of the player's latest notification deliveries, newest first (JSON)."""
    return f"{player(player_id)}:deliveries"


def player_deliveries_count(player_id: str) -> str:
    """How many deliveries were ever recorded for the player: each record's `seq`."""
    return f"{player(player_id)}:deliveries:count"


def player_webhook(player_id: str) -> str:
    """Hash: the player's webhook secret (encrypted) and whether the webhook is failing."""
    return f"{player(player_id)}:webhook"


def player_webhook_in_flight(player_id: str) -> str:
    """Sorted set: the deliveries being posted to the player's webhook now, scored by when
    their hold runs out (a worker that died frees its slot then)."""
    return f"{player(player_id)}:webhook:in-flight"


def player_webhook_slow(player_id: str) -> str:
    """Present while the player's webhook is not called: it left a delivery unanswered."""
    return f"{player(player_id)}:webhook:slow"


def player_push(player_id: str) -> str:
    """Hash: the player's Web Push subscriptions, by id -> JSON (endpoint, keys, device)."""
    return f"{player(player_id)}:push"


PLAYER_PUSH_PATTERN = f"{PREFIX}:player:*:push"
"""A pattern matching every player_push (the operator's key rotation scans them)."""


def player_feeds(player_id: str) -> str:
    """The generation of the player's feed addresses (a counter: a rotation adds one, and the
    addresses of an older generation answer 404)."""
    return f"{player(player_id)}:feeds"


def player_events(player_id: str) -> str:
    """Stream: what concerns the player across all their games (turns, invitations, ends),
    for GET /v1/players/me/stream; capped (store.players.PLAYER_EVENTS_KEPT)."""
    return f"{player(player_id)}:events"


def player_event_claim(player_id: str, event_id: str) -> str:
    """Set once an event is in the player's stream: a commit carried out again adds nothing."""
    return f"{player(player_id)}:event:{event_id}"


def emailed_versions(player_id: str) -> str:
    """Hash: game id -> the version the player's last email about that game was written at."""
    return f"{player(player_id)}:emailed"


def deliveries_retrying(channel: str) -> str:
    """Sorted set: the deliveries of a channel waiting for their next attempt after a failed
    one (delivery id -> when it is due, epoch ms), until one is delivered or given up."""
    return f"{PREFIX}:deliveries:retrying:{channel}"


def email_throttle(player_id: str, game_id: str) -> str:
    """Present while a player may not get another email about a game."""
    return f"{player(player_id)}:throttle:{game_id}"


def chat_email_throttle(player_id: str, game_id: str) -> str:
    """Present while no other email about a game's messages may go to the player."""
    return f"{player(player_id)}:chat-throttle:{game_id}"


def chat_line_window(player_id: str, game_id: str) -> str:
    """Present while no other chat app's line about a game's messages may go to the player's
    webhook; holds the delivery id of the one that took the window."""
    return f"{player(player_id)}:chat-line:{game_id}"


def claimed(name: str) -> str:
    """Present once something that must happen once was claimed: a delivery (so a retried job
    never sends twice), an inbound email (by Message-ID), a one-click link."""
    return f"{PREFIX}:claimed:{name}"


def reply_token(token_hash: str) -> str:
    """SHA-256 of a seat's reply token -> {game_id, seat} (play by email)."""
    return f"{PREFIX}:replytoken:{token_hash}"


def legacy_mail_token(token: str) -> str:
    """Before reply tokens were hashed: the token in clear -> {game_id, seat}. Read once more
    and replaced by reply_token (and `turnpost upgrade-secrets` replaces them all)."""
    return f"{PREFIX}:mailtoken:{token}"


def legacy_seat_mail_token(game_id: str, seat: int) -> str:
    """Before reply tokens were derived: the seat's token in clear (deleted on upgrade)."""
    return f"{_game(game_id)}:mailtoken:{seat}"


LEGACY_SEAT_MAIL_TOKENS = f"{PREFIX}:game:*:mailtoken:*"
"""A pattern matching every legacy_seat_mail_token."""


SERVER_SECRET = f"{PREFIX}:secret"
"""The link signing key made by the server when LINK_SIGNING_KEYS is not set."""
WEBHOOK_SECRETS_KEY = f"{PREFIX}:secret:webhooks"
"""The Fernet key made by the server when WEBHOOK_SECRET_KEYS is not set."""
VAPID_KEYS = f"{PREFIX}:secret:vapid"
"""The server's Web Push key pair (JSON, base64url): made on first use, replaced by
`turnpost rotate-push-keys`."""


WORKERS = f"{PREFIX}:workers"
"""Sorted set: `turnpost worker` name -> its last heartbeat (epoch ms)."""

WORKER_TALLIES = f"{PREFIX}:metrics:workers"
"""Hash: what the workers counted (deliveries, computer moves, finished games, how late the
clock took due items), summed over every worker; read by the API's /metrics."""

QUEUE_NAME = "turnpost"
"""The RQ queue the deliveries go on (RQ keeps it as `rq:queue:turnpost` on the queue Redis)."""


def player_streams(player_id: str) -> str:
    """Sorted set of the player's open streams, scored by when each expires (seconds)."""
    return f"{player(player_id)}:streams"


def mail_sender(address: str) -> str:
    """How many emails an address sent to the mail receiver in the current window."""
    return f"{PREFIX}:mailin:sender:{hashlib.sha256(address.lower().encode()).hexdigest()}"


RATE_LIMITS_PREFIX = f"{PREFIX}:rate"
"""The prefix of flask-limiter's counters (api/rate_limits.py)."""


# -- ratings (store/ratings.py): a title's keys share the hash tag {rating:<title>}, so that one
# script updates every seat of a finished game, its leaderboard and its "rated" marker at once.


def _rating(title: str) -> str:
    return f"{PREFIX}:{{rating:{title}}}"


def rating_skills(title: str) -> str:
    """Hash: player id (or `bot:<name>`) -> their skill at the title, JSON {mu, sigma, games}."""
    return f"{_rating(title)}:skills"


def rating_names(title: str) -> str:
    """Hash: player id (or `bot:<name>`) -> the name they last played a rated game under."""
    return f"{_rating(title)}:names"


def rating_board(title: str) -> str:
    """Sorted set: the leaderboard, the players with enough rated games who played one lately,
    scored by rating."""
    return f"{_rating(title)}:board"


def rating_active(title: str) -> str:
    """Sorted set: the title's players who played a rated game lately, scored by their last
    rated game's end (ms); those idle past the leaderboard's cut-off leave it and the board."""
    return f"{_rating(title)}:active"


def rating_applied(title: str, game_id: str) -> str:
    """The game's rating changes, written with them: present once a game's ratings are applied
    (kept store.ratings.APPLIED_MARKER_SECONDS; the game's own copy, game_ratings, stays)."""
    return f"{_rating(title)}:applied:{game_id}"


def game_ratings(game_id: str) -> str:
    """A finished rated game's rating changes per seat (JSON), part of the game's record."""
    return f"{_game(game_id)}:ratings"


def player_results(player_id: str, title: str | None = None) -> str:
    """Sorted set of the player's finished games (of one title, when given), scored by their
    end (ms)."""
    tail = f":{title}" if title else ""
    return f"{player(player_id)}:results{tail}"


def player_result_records(player_id: str) -> str:
    """Hash: game id -> the player's result in that finished game (JSON): place, the others,
    the rating before and after. Written once per game (store/player_result.lua)."""
    return f"{player(player_id)}:result-records"


def player_tally(player_id: str) -> str:
    """Hash of counts per title: `<title>:games`, `<title>:rated`, `<title>:wins`,
    `<title>:place:<n>`."""
    return f"{player(player_id)}:tally"


def player_rivals(player_id: str) -> str:
    """Hash: `<title>:<other player>:won|lost|drawn` -> how many finished games the player
    placed above, below or level with the other."""
    return f"{player(player_id)}:rivals"


# -- tournaments (store/tournaments.py): a tournament is placed in a bucket by its id, as a game
# is, so that its commit (store/append.lua) writes its log, its state, its bucket's
# outbox entry and its bucket's schedule in one slot. Its games are games like any other, each
# in its own bucket, created by the worker through the game service.


def _tournament(tournament_id: str) -> str:
    return f"{PREFIX}:tournament:{_bucket_tag(bucket_of(tournament_id))}:{tournament_id}"


def tournament_log(tournament_id: str) -> str:
    """The tournament's history: a Stream of events, entry ID '<version>-0'."""
    return f"{_tournament(tournament_id)}:log"


def tournament_state(tournament_id: str) -> str:
    """The tournament after its last event, as JSON (public: nothing in it is secret)."""
    return f"{_tournament(tournament_id)}:state"


OPEN_TOURNAMENTS = f"{PREFIX}:{{lobby}}:tournaments"
"""Sorted set of the tournaments taking sign-ups, scored by creation time (the lobby's)."""
OPEN_TOURNAMENTS_SEEN = f"{PREFIX}:{{lobby}}:tournaments:seen"
"""Hash: tournament id -> the version the lobby was last written from (store/lobby.lua)."""


def lobby_tournament_left(tournament_id: str) -> str:
    """The version at which a tournament left the lobby (expires, as lobby_left)."""
    return f"{PREFIX}:{{lobby}}:tournaments:left:{tournament_id}"


def player_tournaments(player_id: str) -> str:
    """Sorted set of the tournaments the player signed up to, scored by when they did (ms)."""
    return f"{player(player_id)}:tournaments"


def player_tournaments_seen(player_id: str) -> str:
    """Hash: tournament id -> the version the player's list was last written from."""
    return f"{player(player_id)}:tournaments:seen"


# -- matchmaking (store/matchmaking.py): a title's pool of players waiting for a rated game and
# their requests share the hash tag of the bucket "matchmaking:<title>" falls in, so that one
# script records a request with its outbox entry and its bot's wake-up, and one pairs two.


def _matchmaking(title: str) -> str:
    return f"{PREFIX}:matchmaking:{_bucket_tag(bucket_of(matchmaking_subject(title)))}:{title}"


def matchmaking_subject(title: str) -> str:
    """What a title's pool is named by in the outbox and the schedule (its bucket's key)."""
    return f"matchmaking:{title}"


def matchmaking_pool(title: str) -> str:
    """Sorted set: the players waiting for a rated game of the title, scored by rating."""
    return f"{_matchmaking(title)}:pool"


def matchmaking_requests(title: str) -> str:
    """Hash: player id -> their latest request for a game of the title (JSON)."""
    return f"{_matchmaking(title)}:requests"
