"""The schemas of ratings, leaderboards and players' records (GET /v1/leaderboards/{game},
the parts of GET /v1/players/{id} about a player's games)."""

from marshmallow import Schema, fields, validate

from engine import registry

from .described import described, integer, listed, string

ISO_TIME = {"description": "ISO 8601 time in UTC", "example": "2026-11-21T12:00:00Z"}
GAME_NAME = {"enum": sorted(registry.GAMES), "example": "nautilus"}
RATING = {
    "description": "The rating on an Elo-like scale: 1500 + 30 (mu - 25) of the player's "
    "Weng-Lin (Plackett-Luce) skill; everyone starts at 1500",
    "example": 1542,
}
UNCERTAINTY = {
    "description": "One standard deviation of the skill, in rating points (250 at the start, "
    "shrinking with every rated game)",
    "example": 240,
}
PROVISIONAL = {
    "description": "The rating is still uncertain (sigma above 6: about a dozen two-player "
    "rated games, more with more players)"
}
BOT_OR_PLAYER = {"description": "The player's id; null for a bot (rated as a player of its own)"}


class TitleSchema(Schema):
    """The head of a row about one title: its name (`game`) and its title."""

    game = fields.String(required=True, metadata=GAME_NAME)
    title = fields.String(required=True)


class RatingPointSchema(Schema):
    game_id = fields.String(required=True)
    at = fields.String(required=True, metadata=ISO_TIME)
    rating = integer("The rating after the game")


class TitleRatingSchema(TitleSchema):
    rating = fields.Integer(required=True, metadata=RATING)
    uncertainty = fields.Integer(required=True, metadata=UNCERTAINTY)
    provisional = fields.Boolean(required=True, metadata=PROVISIONAL)
    games = integer("Rated games of the title")
    rank = integer("The place on the title's leaderboard; null when not on it", allow_none=True)
    ranked_players = integer("How many players the leaderboard has")
    history = listed(
        fields.Nested(RatingPointSchema),
        "The rating after each of the last 100 rated games, oldest first",
    )


class PlaceCountSchema(Schema):
    place = fields.Integer(required=True)
    games = fields.Integer(required=True)


class TitleRecordSchema(TitleSchema):
    games = integer("Finished games of the title")
    rated_games = fields.Integer(required=True)
    wins = integer("Games finished first (or tied)")
    places = fields.List(fields.Nested(PlaceCountSchema), required=True)


class ResultOtherSchema(Schema):
    player_id = fields.String(required=True, allow_none=True, metadata=BOT_OR_PLAYER)
    name = fields.String(required=True)
    place = fields.Integer(required=True)


class ResultSchema(Schema):
    game_id = fields.String(required=True)
    game = fields.String(required=True, metadata=GAME_NAME)
    title = fields.String(required=True)
    ended_at = fields.String(required=True, metadata=ISO_TIME)
    place = integer(
        "1 is first; tied seats share a place (1, 2, 2, 4); who resigned or "
        "forfeited on time comes after everyone still playing"
    )
    seats = fields.Integer(required=True)
    rated = fields.Boolean(required=True)
    rating = integer("After it", allow_none=True)
    change = fields.Integer(required=True, allow_none=True)
    others = fields.List(fields.Nested(ResultOtherSchema), required=True)


class HeadToHeadGameSchema(TitleSchema):
    won = fields.Integer(required=True)
    lost = fields.Integer(required=True)
    drawn = fields.Integer(required=True)


class HeadToHeadSchema(Schema):
    player_id = string("You (the caller)")
    won = integer("Finished games the player placed above you")
    lost = integer("... below you")
    drawn = integer("... level with you")
    games = fields.List(fields.Nested(HeadToHeadGameSchema), required=True)


class RatingChangeSchema(Schema):
    """One seat's rating change in a finished rated game (the `game.finished` webhook)."""

    seat = fields.Integer(required=True)
    player_id = fields.String(required=True, allow_none=True, metadata=BOT_OR_PLAYER)
    name = fields.String(required=True)
    place = integer("1 is first; ties share")
    rating_before = fields.Integer(required=True)
    rating = fields.Integer(required=True, metadata=RATING)
    change = fields.Integer(required=True)
    uncertainty = fields.Integer(required=True, metadata=UNCERTAINTY)
    provisional = fields.Boolean(required=True, metadata=PROVISIONAL)


class LeaderboardQuerySchema(Schema):
    page = fields.Integer(load_default=1, validate=validate.Range(1, 100_000))
    per_page = fields.Integer(load_default=50, validate=validate.Range(1, 200))


class LeaderboardRowSchema(Schema):
    rank = fields.Integer(required=True)
    player_id = fields.String(required=True, allow_none=True, metadata=BOT_OR_PLAYER)
    name = string("The name of their last rated game")
    rating = fields.Integer(required=True, metadata=RATING)
    uncertainty = fields.Integer(required=True, metadata=UNCERTAINTY)
    provisional = fields.Boolean(required=True, metadata=PROVISIONAL)
    games = fields.Integer(required=True)


class LeaderboardSchema(TitleSchema):
    page = fields.Integer(required=True)
    per_page = fields.Integer(required=True)
    pages = fields.Integer(required=True)
    total = integer("Players on the leaderboard")
    min_games = integer("Rated games a player needs to be on it")
    active_days = described(fields.Float, "A player leaves it when their last rated game is older")
    players = fields.List(fields.Nested(LeaderboardRowSchema), required=True)
    next = string(
        "The next page's path (also in the Link header); null on the last", allow_none=True
    )
