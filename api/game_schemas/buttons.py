"""Buttons: the schema of a seat's view and of an action (see docs/games/buttons.md)."""

from marshmallow import fields
from marshmallow.validate import Length, OneOf, Range, Regexp

from api.described import ClosedSchema, boolean, integer, listed, nested, string
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


def _rows(pattern, description):
    """The board's rows, row 1 first, each a string of one letter per column."""
    return listed(fields.String(validate=Regexp(pattern)), description, validate=Length(equal=SIZE))


class ButtonsDiceSchema(ClosedSchema):
    white = _die(required=True, metadata={"description": "The white die: the row"})
    gold = _die(
        required=True,
        metadata={
            "description": "The black die with gold pips: a column for the roller, and the column "
            "the other players may use"
        },
    )
    black = listed(
        _die(),
        "The black dice with white pips rolled (4 minus those set aside): columns for the "
        "roller only",
        validate=Length(max=WHITE_PIP_DICE),
    )


class ButtonsPlayerSchema(ClosedSchema):
    layout = integer(
        "Which of the 8 board layouts this player has", validate=Range(1, len(LAYOUTS))
    )
    colours = _rows(
        _COLOUR_ROW,
        "The layout's printed colours, row 1 first, one letter per column: R red, Y yellow, "
        "G green, B blue",
    )
    board = _rows(
        _BOARD_ROW,
        "The board, row 1 first: '.' empty, 'o' a button of this round, '*' a star",
    )
    status = string(
        "in: still in the round; opted_out; bust; left: resigned from the game",
        validate=OneOf(STATUSES),
    )
    bonus = listed(fields.String(validate=OneOf(COLOURS)), "The bonus-colour cards held")
    stars = integer("Stars on the board")
    line = boolean("Whether the board has 5 stars in a row or column")
    score = integer("100 for a line of 5 stars plus one per star")
    stars_due = integer("Stars earned this round still to place (round end only; else 0)")
    stars_picked = integer("How many of those stars the player has already picked cells for")


class ButtonsChoiceSchema(ClosedSchema):
    type = fields.String(required=True, validate=OneOf(list(PHASE_RULES["place"].handlers)))
    row = fields.Integer(validate=Range(1, SIZE))
    col = fields.Integer(validate=Range(1, SIZE))


class ButtonsViewSchema(ClosedSchema):
    you = integer("The seat this view is for; null for a spectator", allow_none=True)
    round = integer("The round, from 1")
    phase = string(
        "turn: `turn` rolls or opts out; place: the seats in `waiting` decide on the roll; "
        "stars: the seats in `waiting` place their stars; over",
        validate=OneOf(PHASES),
    )
    turn = integer("Whose turn it is (in the turn and place phases), else null", allow_none=True)
    roller = integer(
        "Who rolled the dice being decided on (place phase), else null", allow_none=True
    )
    waiting = listed(
        fields.Integer(), "The seats that still have to decide on this roll or place stars"
    )
    dice = nested(
        ButtonsDiceSchema,
        "The last roll of this round; null before the first roll of a round",
        allow_none=True,
    )
    dice_in_play = integer(
        "Black dice with white pips still in play this round (the gold pair is always in play)",
        validate=Range(0, WHITE_PIP_DICE),
    )
    removed_card = string(
        "The bonus card removed in a 3-player game, else null",
        allow_none=True,
        validate=OneOf(COLOURS),
    )
    players = listed(
        fields.Nested(ButtonsPlayerSchema),
        "Every seat's board and standing, by seat",
        validate=Length(min=INFO.min_players, max=INFO.max_players),
    )
    my_choice = nested(
        ButtonsChoiceSchema,
        "Your decision on the current roll while others still decide",
        allow_none=True,
    )
    my_star_picks = listed(
        fields.List(fields.Integer(validate=Range(1, SIZE)), validate=Length(equal=2)),
        "The [row, col] cells you picked for stars while others still pick",
    )


class ButtonsActionSchema(ClosedSchema):
    type = string(
        "roll, optout (your turn); place, skip (a roll's decision); star (round end)",
        validate=OneOf(ACTION_TYPES),
    )
    row = integer(
        "place and star: the row (the white die for place)",
        required=False,
        validate=Range(1, SIZE),
    )
    col = integer(
        "place and star: the column (a black die for place)",
        required=False,
        validate=Range(1, SIZE),
    )


VIEW_SCHEMA = ButtonsViewSchema
ACTION_SCHEMA = ButtonsActionSchema
