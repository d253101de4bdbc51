"""Buttons: the schema of a seat's view and of an action (see docs/games/buttons.md)."""

from marshmallow import RAISE, Schema, fields
from marshmallow.validate import Length, OneOf, Range, Regexp

from engine.games.buttons import (
    ACTION_TYPES,
    COLOURS,
    INFO,
    LAYOUTS,
    MARKS,
    PHASE_RULES,
    PHASES,
    SIZE,
    STATUSES,
    WHITE_PIP_DICE,
)

_COLOUR_ROW = "^[" + "".join(COLOURS) + "]{%d}$" % SIZE
_BOARD_ROW = "^[" + "".join(MARKS) + "]{%d}$" % SIZE


def _die(**kw):
    return fields.Integer(validate=Range(1, SIZE), **kw)


class ButtonsDiceSchema(Schema):
    class Meta:
        unknown = RAISE

    white = _die(required=True, metadata={"description": "The white die: the row"})
    gold = _die(
        required=True,
        metadata={
            "description": "The black die with gold pips: a column for the roller, and the column "
            "the other players may use"
        },
    )
    black = fields.List(
        _die(),
        required=True,
        validate=Length(max=WHITE_PIP_DICE),
        metadata={
            "description": "The black dice with white pips rolled (4 minus those set aside): "
            "columns for the roller only"
        },
    )


class ButtonsPlayerSchema(Schema):
    class Meta:
        unknown = RAISE

    layout = fields.Integer(
        required=True,
        validate=Range(1, len(LAYOUTS)),
        metadata={"description": "Which of the 8 board layouts this player has"},
    )
    colours = fields.List(
        fields.String(validate=Regexp(_COLOUR_ROW)),
        required=True,
        validate=Length(equal=SIZE),
        metadata={
            "description": "The layout's printed colours, row 1 first, one letter per column: "
            "R red, Y yellow, G green, B blue"
        },
    )
    board = fields.List(
        fields.String(validate=Regexp(_BOARD_ROW)),
        required=True,
        validate=Length(equal=SIZE),
        metadata={
            "description": "The board, row 1 first: '.' empty, 'o' a button of this round, "
            "'*' a star"
        },
    )
    status = fields.String(
        required=True,
        validate=OneOf(STATUSES),
        metadata={
            "description": "in: still in the round; opted_out; bust; left: resigned from the game"
        },
    )
    bonus = fields.List(
        fields.String(validate=OneOf(COLOURS)),
        required=True,
        metadata={"description": "The bonus-colour cards held"},
    )
    stars = fields.Integer(required=True, metadata={"description": "Stars on the board"})
    line = fields.Boolean(
        required=True, metadata={"description": "Whether the board has 5 stars in a row or column"}
    )
    score = fields.Integer(
        required=True, metadata={"description": "100 for a line of 5 stars plus one per star"}
    )
    stars_due = fields.Integer(
        required=True,
        metadata={"description": "Stars earned this round still to place (round end only; else 0)"},
    )
    stars_picked = fields.Integer(
        required=True,
        metadata={"description": "How many of those stars the player has already picked cells for"},
    )


class ButtonsChoiceSchema(Schema):
    class Meta:
        unknown = RAISE

    type = fields.String(required=True, validate=OneOf(list(PHASE_RULES["place"].handlers)))
    row = fields.Integer(validate=Range(1, SIZE))
    col = fields.Integer(validate=Range(1, SIZE))


class ButtonsViewSchema(Schema):
    class Meta:
        unknown = RAISE

    you = fields.Integer(
        required=True,
        allow_none=True,
        metadata={"description": "The seat this view is for; null for a spectator"},
    )
    round = fields.Integer(required=True, metadata={"description": "The round, from 1"})
    phase = fields.String(
        required=True,
        validate=OneOf(PHASES),
        metadata={
            "description": "turn: `turn` rolls or opts out; place: the seats in `waiting` decide on "
            "the roll; stars: the seats in `waiting` place their stars; over"
        },
    )
    turn = fields.Integer(
        required=True,
        allow_none=True,
        metadata={"description": "Whose turn it is (in the turn and place phases), else null"},
    )
    roller = fields.Integer(
        required=True,
        allow_none=True,
        metadata={"description": "Who rolled the dice being decided on (place phase), else null"},
    )
    waiting = fields.List(
        fields.Integer(),
        required=True,
        metadata={"description": "The seats that still have to decide on this roll or place stars"},
    )
    dice = fields.Nested(
        ButtonsDiceSchema,
        required=True,
        allow_none=True,
        metadata={
            "description": "The last roll of this round; null before the first roll of a round"
        },
    )
    dice_in_play = fields.Integer(
        required=True,
        validate=Range(0, WHITE_PIP_DICE),
        metadata={
            "description": "Black dice with white pips still in play this round (the gold pair "
            "is always in play)"
        },
    )
    removed_card = fields.String(
        required=True,
        allow_none=True,
        validate=OneOf(COLOURS),
        metadata={"description": "The bonus card removed in a 3-player game, else null"},
    )
    players = fields.List(
        fields.Nested(ButtonsPlayerSchema),
        required=True,
        validate=Length(min=INFO.min_players, max=INFO.max_players),
        metadata={"description": "Every seat's board and standing, by seat"},
    )
    my_choice = fields.Nested(
        ButtonsChoiceSchema,
        required=True,
        allow_none=True,
        metadata={"description": "Your decision on the current roll while others still decide"},
    )
    my_star_picks = fields.List(
        fields.List(fields.Integer(validate=Range(1, SIZE)), validate=Length(equal=2)),
        required=True,
        metadata={
            "description": "The [row, col] cells you picked for stars while others still pick"
        },
    )


class ButtonsActionSchema(Schema):
    class Meta:
        unknown = RAISE

    type = fields.String(
        required=True,
        validate=OneOf(ACTION_TYPES),
        metadata={
            "description": "roll, optout (your turn); place, skip (a roll's decision); "
            "star (round end)"
        },
    )
    row = fields.Integer(
        validate=Range(1, SIZE),
        metadata={"description": "place and star: the row (the white die for place)"},
    )
    col = fields.Integer(
        validate=Range(1, SIZE),
        metadata={"description": "place and star: the column (a black die for place)"},
    )


VIEW_SCHEMA = ButtonsViewSchema
ACTION_SCHEMA = ButtonsActionSchema
