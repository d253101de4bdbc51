"""The schemas of tournaments (/v1/tournaments) and of their webhook deliveries."""

from marshmallow import Schema, fields, validate

from engine import registry

from .described import boolean, described, integer, listed, nested, string
from .schemas import JsonBoolean, JsonInteger, TimeControlSchema, optional_integer

ISO_TIME = {"description": "ISO 8601 time in UTC", "example": "2026-11-21T12:00:00Z"}
GAME_NAME = {"enum": sorted(registry.GAMES), "example": "ninedomains"}
FORMAT = {
    "description": "round_robin: everyone plays everyone once, all the games at once (3 to 10 "
    "players); swiss: rounds in which players of equal points meet, no one twice (4 to 64)",
    "enum": ["round_robin", "swiss"],
}
STATUS = {
    "description": "signup: taking sign-ups; running; finished; cancelled (too few signed up "
    "by its start date)",
    "enum": ["signup", "running", "finished", "cancelled"],
}
POINTS = {"description": "A win 1, a draw 1/2, a loss 0, a bye 1", "example": 2.5}


class TournamentCreateSchema(Schema):
    game = fields.String(required=True, metadata=GAME_NAME)
    format = fields.String(required=True, validate=validate.OneOf(FORMAT["enum"]), metadata=FORMAT)
    size = described(
        JsonInteger,
        "The most players; without `start_at` it starts when this many signed up",
        validate=validate.Range(3, 64),
    )
    time_control = nested(
        TimeControlSchema,
        "Every game's clock. A player who runs out of time under `forfeit` "
        "loses that game and is withdrawn from the tournament; under `auto` the computer "
        "plays that move",
    )
    name = fields.String(
        load_default=None,
        allow_none=True,
        validate=validate.Length(max=80),
        metadata={"description": "Its name (by default the game's and the format's)"},
    )
    options = fields.Dict(
        keys=fields.String(),
        load_default=dict,
        metadata={"description": "The game's options for every game, as in POST /v1/games"},
    )
    rated = JsonBoolean(
        load_default=True, metadata={"description": "Whether its games count for ratings"}
    )
    rounds = optional_integer(
        "A Swiss's rounds, fewer than its size (by default log2 of the size, "
        "rounded up); at the start, at most one fewer than the players signed up. A "
        "round-robin has one round of all its games",
        1,
        63,
    )
    start_at = fields.AwareDateTime(
        load_default=None,
        allow_none=True,
        metadata={
            "description": "When it starts, with the players signed up by then (in the next "
            "year; null: when it is full)",
            "example": "2026-12-01T18:00:00Z",
        },
    )


class TournamentListQuerySchema(Schema):
    entered = fields.String(
        validate=validate.OneOf(["me"]),
        metadata={"description": "me: the tournaments you signed up to, newest first"},
    )


class TournamentSummarySchema(Schema):
    id = fields.String(required=True)
    name = fields.String(required=True)
    game = fields.String(required=True, metadata=GAME_NAME)
    title = fields.String(required=True)
    format = fields.String(required=True, metadata=FORMAT)
    status = fields.String(required=True, metadata=STATUS)
    size = fields.Integer(required=True)
    signed_up = fields.Integer(required=True)
    rounds = fields.Integer(required=True)
    rated = fields.Boolean(required=True)
    time_control = fields.Nested(TimeControlSchema, required=True)
    start_at = string(
        "Its start date; null: it starts when full", allow_none=True, metadata=ISO_TIME
    )
    created_at = fields.String(required=True, metadata=ISO_TIME)
    version = integer("The number of events in its log")


class TournamentListSchema(Schema):
    tournaments = fields.List(fields.Nested(TournamentSummarySchema), required=True)


class EntrantSchema(Schema):
    player_id = fields.String(required=True)
    name = fields.String(required=True)
    rating = integer("At the start (the seed order); null before", allow_none=True)
    withdrawn = string(
        "Why the player left the running tournament; null: playing",
        allow_none=True,
        validate=validate.OneOf(["withdrew", "timed out"]),
    )


class StandingSchema(Schema):
    place = integer("Ties share (1, 2, 2, 4)")
    player_id = fields.String(required=True)
    name = fields.String(required=True)
    points = fields.Float(required=True, metadata=POINTS)
    tiebreak = described(fields.Float, "Sonneborn-Berger (round-robin) or Buchholz (Swiss)")
    games = fields.Integer(required=True)
    wins = fields.Integer(required=True)
    draws = fields.Integer(required=True)
    losses = fields.Integer(required=True)
    byes = fields.Integer(required=True)
    withdrawn = fields.String(required=True, allow_none=True)


class PlayerRefSchema(Schema):
    player_id = fields.String(required=True)
    name = fields.String(required=True)


class BoardSchema(Schema):
    board = fields.Integer(required=True)
    game_id = string("GET /v1/games/{id}")
    first = nested(PlayerRefSchema, "Seat 0")
    second = fields.Nested(PlayerRefSchema, required=True)
    first_score = described(
        fields.Float, "The first seat's score (1, 0.5, 0); null while it is played", allow_none=True
    )
    result = fields.String(
        required=True, allow_none=True, validate=validate.OneOf(["1-0", "½-½", "0-1"])
    )


class PairedRoundSchema(Schema):
    round = fields.Integer(required=True)
    started = boolean("Its games are created")
    ended = fields.Boolean(required=True)
    bye = nested(PlayerRefSchema, "Who sits this round out, with a point", allow_none=True)
    games = fields.List(fields.Nested(BoardSchema), required=True)


class YouInTournamentSchema(Schema):
    signed_up = fields.Boolean(required=True)
    withdrawn = fields.String(required=True, allow_none=True)


class TournamentSchema(TournamentSummarySchema):
    options = fields.Dict(keys=fields.String(), required=True)
    tiebreak = fields.String(
        required=True, validate=validate.OneOf(["sonneborn_berger", "buchholz"])
    )
    created_by = fields.String(required=True)
    current_round = fields.Integer(required=True)
    cancelled_because = fields.String(required=True, allow_none=True)
    players = listed(fields.Nested(EntrantSchema), "In sign-up order; from the start in seed order")
    standings = listed(
        fields.Nested(StandingSchema), "By points, then the tiebreak; empty before the start"
    )
    pairings = fields.List(fields.Nested(PairedRoundSchema), required=True)
    you = fields.Nested(YouInTournamentSchema, required=True, allow_none=True)


class TournamentGameRefSchema(Schema):
    game_id = fields.String(required=True)
    opponent = fields.Nested(PlayerRefSchema, required=True)
    first_seat = fields.Boolean(required=True)


class WebhookTournamentLinksSchema(Schema):
    tournament = fields.Url(required=True, require_tld=False)
    page = fields.Url(required=True, require_tld=False)


class WebhookTournamentRoundSchema(Schema):
    """The body of a `tournament.round_started` or `tournament.round_ended` webhook delivery:
    POSTed to your webhook_url, signed as docs/notifications.md says."""

    event = fields.String(
        required=True,
        validate=validate.OneOf(["tournament.round_started", "tournament.round_ended"]),
    )
    delivery_id = fields.String(required=True)
    tournament_id = fields.String(required=True)
    name = fields.String(required=True)
    game = fields.String(required=True, metadata=GAME_NAME)
    round = fields.Integer(required=True)
    status = fields.String(required=True, metadata=STATUS)
    games = listed(
        fields.Nested(TournamentGameRefSchema),
        "round_started: your games of the round (empty otherwise)",
    )
    bye = boolean("You have the round's bye")
    place = fields.Integer(required=True, allow_none=True)
    points = fields.Float(required=True, allow_none=True)
    sent_at = fields.String(required=True, metadata=ISO_TIME)
    links = fields.Nested(WebhookTournamentLinksSchema, required=True)
