"""Con Sonar!: the schema of a seat's view and of an action (see docs/games/consonar.md)."""

from marshmallow import RAISE, Schema, fields
from marshmallow.validate import Length, OneOf, Range, Regexp

from engine.games.consonar import (
    ACTION_TYPES,
    COLOURS,
    DIE,
    END_SUBS_CHOICES,
    FLEET_CARD_PATTERN,
    FLEET_VALUES,
    HIGH,
    LOW,
    PHASES,
    SUB_PATTERN,
    SYMBOLS,
    TORPEDO_CARD_PATTERN,
    TORPEDO_COUNTS,
)


def _rung(**kw):
    return fields.Integer(validate=Range(LOW, HIGH), **kw)


class ConsonarFleetCardSchema(Schema):
    class Meta:
        unknown = RAISE

    card = fields.String(
        required=True,
        validate=Regexp(FLEET_CARD_PATTERN),
        metadata={"description": "The card: colour letter and signed value, e.g. r+2"},
    )
    colour = fields.String(
        required=True,
        validate=OneOf(COLOURS),
        metadata={"description": "b blue, g green, o orange, p purple, r red, y yellow"},
    )
    value = fields.Integer(
        required=True,
        validate=OneOf(FLEET_VALUES),
        metadata={"description": "Rungs the submarine moves: + up (more exposed), - down"},
    )
    symbol = fields.String(
        required=True,
        validate=OneOf(SYMBOLS),
        metadata={"description": "The card's own ship symbol"},
    )
    arrow = fields.String(
        required=True,
        validate=OneOf(SYMBOLS),
        metadata={"description": "The symbol the arrow points to: the next card must show it"},
    )


class ConsonarTorpedoCardSchema(Schema):
    class Meta:
        unknown = RAISE

    card = fields.String(
        required=True,
        validate=Regexp(TORPEDO_CARD_PATTERN),
        metadata={"description": "The card: colour letter and number of torpedoes, e.g. b2"},
    )
    colour = fields.String(
        required=True, validate=OneOf(COLOURS), metadata={"description": "The nation it threatens"}
    )
    torpedoes = fields.Integer(
        required=True,
        validate=Range(1, max(TORPEDO_COUNTS)),
        metadata={"description": "How many d8 rolls it gives"},
    )
    symbol = fields.String(
        required=True,
        validate=OneOf(SYMBOLS),
        metadata={"description": "The last Fleet card's arrow must point to this symbol to use it"},
    )


class ConsonarPlayedSchema(Schema):
    class Meta:
        unknown = RAISE

    card = fields.String(
        required=True,
        validate=Regexp(FLEET_CARD_PATTERN),
        metadata={"description": "The Fleet card played this turn"},
    )
    sub = fields.String(
        required=True,
        validate=Regexp(SUB_PATTERN),
        metadata={"description": "The submarine it moved"},
    )
    from_ = _rung(
        required=True,
        data_key="from",
        attribute="from",
        metadata={"description": "Its rung before the move"},
    )
    to = _rung(required=True, metadata={"description": "Its rung after the move"})


class ConsonarStrikeSchema(Schema):
    class Meta:
        unknown = RAISE

    seat = fields.Integer(required=True, metadata={"description": "Who fired"})
    card = fields.String(
        required=True,
        validate=Regexp(TORPEDO_CARD_PATTERN),
        metadata={"description": "The Torpedo card fired"},
    )
    sub = fields.String(
        required=True,
        validate=Regexp(SUB_PATTERN),
        metadata={"description": "The target submarine"},
    )
    rung = _rung(required=True, metadata={"description": "The target's rung when fired at"})
    rolls = fields.List(
        fields.Integer(validate=Range(1, DIE)),
        required=True,
        validate=Length(min=1, max=max(TORPEDO_COUNTS)),
        metadata={"description": "The d8 rolls, in order; the rolling stops at the first hit"},
    )
    hit = fields.Boolean(required=True, metadata={"description": "Whether it sank the target"})


class ConsonarViewSchema(Schema):
    class Meta:
        unknown = RAISE

    you = fields.Integer(
        required=True,
        allow_none=True,
        metadata={"description": "The seat this view is for; null for a spectator"},
    )
    me = fields.Integer(
        required=True,
        allow_none=True,
        metadata={
            "deprecated": True,
            "description": "Deprecated: the same as `you`, the name the other games use; kept "
            "for the clients written before it",
        },
    )

    my_colour = fields.String(
        required=True,
        allow_none=True,
        validate=OneOf(COLOURS),
        metadata={"description": "This seat's nation; null for a spectator"},
    )
    nations = fields.List(
        fields.String(validate=OneOf(COLOURS)),
        required=True,
        metadata={"description": "Each seat's nation (colour letter), by seat"},
    )
    removed = fields.List(
        fields.Integer(),
        required=True,
        metadata={"description": "Seats that left the game: their nations are neutral"},
    )
    neutral = fields.List(
        fields.String(validate=OneOf(COLOURS)),
        required=True,
        metadata={"description": "Nations no playing seat holds"},
    )
    current = fields.Integer(
        required=True,
        allow_none=True,
        metadata={"description": "Whose turn it is; null when the game is over"},
    )
    turn = fields.Integer(required=True, metadata={"description": "Turn number, from 1"})
    phase = fields.String(
        required=True,
        validate=OneOf(PHASES),
        metadata={
            "description": "fleet: the first Fleet card is due; queue: connecting cards or the "
            "Torpedo step; over"
        },
    )
    ladder = fields.Dict(
        keys=fields.String(validate=Regexp(SUB_PATTERN)),
        values=fields.Integer(allow_none=True, validate=Range(LOW, HIGH)),
        required=True,
        metadata={
            "description": "Every submarine (b1..y2; 1 started on rung 2, 2 on rung 4): its rung "
            "1 (deepest) to 8, or null when sunk"
        },
    )
    hand = fields.List(
        fields.Nested(ConsonarFleetCardSchema),
        required=True,
        allow_none=True,
        metadata={"description": "This seat's Fleet cards; null for a spectator"},
    )
    hand_sizes = fields.List(
        fields.Integer(),
        required=True,
        metadata={"description": "How many Fleet cards each seat holds"},
    )
    played = fields.List(
        fields.Nested(ConsonarPlayedSchema),
        required=True,
        metadata={"description": "The Fleet cards played so far this turn, in order"},
    )
    next_symbol = fields.String(
        required=True,
        allow_none=True,
        validate=OneOf(SYMBOLS),
        metadata={
            "description": "The last played card's arrow symbol: "
            "what a queued card or a Torpedo card must show"
        },
    )
    torpedo_row = fields.List(
        fields.Nested(ConsonarTorpedoCardSchema),
        required=True,
        metadata={"description": "The face-up Torpedo cards"},
    )
    torpedo_deck = fields.Integer(
        required=True, metadata={"description": "Torpedo cards left in the deck"}
    )
    torpedo_removed = fields.List(
        fields.String(validate=Regexp(TORPEDO_CARD_PATTERN)),
        required=True,
        metadata={"description": "Torpedo cards defused (out of the game)"},
    )
    torpedo_discard = fields.List(
        fields.String(validate=Regexp(TORPEDO_CARD_PATTERN)),
        required=True,
        metadata={"description": "Torpedo cards that sank a submarine"},
    )
    fleet_deck = fields.Integer(
        required=True, metadata={"description": "Fleet cards left in the deck"}
    )
    fleet_discard = fields.Integer(
        required=True, metadata={"description": "Fleet cards in the discard pile"}
    )
    sunk = fields.List(
        fields.List(fields.String(validate=Regexp(SUB_PATTERN))),
        required=True,
        metadata={"description": "Per seat, the submarines it sank (scoring area)"},
    )
    misses = fields.List(
        fields.List(fields.String(validate=Regexp(TORPEDO_CARD_PATTERN))),
        required=True,
        metadata={"description": "Per seat, its missed Torpedo cards (scoring area, -1 each)"},
    )
    scores = fields.List(
        fields.Integer(),
        required=True,
        metadata={"description": "Per seat, the score if the game ended now"},
    )
    last_strike = fields.Nested(
        ConsonarStrikeSchema,
        required=True,
        allow_none=True,
        metadata={"description": "The latest torpedo fired in the game; null before the first"},
    )
    end_subs_left = fields.Integer(
        required=True,
        validate=Range(min(END_SUBS_CHOICES), max(END_SUBS_CHOICES)),
        metadata={
            "description": "The option: the game ends when this many submarines or fewer are left"
        },
    )
    end_reason = fields.String(
        required=True,
        allow_none=True,
        metadata={"description": "Why the game ended; null while it goes on"},
    )


class ConsonarActionSchema(Schema):
    class Meta:
        unknown = RAISE

    type = fields.String(
        required=True,
        validate=OneOf(ACTION_TYPES),
        metadata={
            "description": "fleet: play one Fleet card; torpedo: fire a Torpedo card; defuse: "
            "remove a Torpedo card of your colour; delay: put a face-up Torpedo card "
            "under the deck; end: end the turn without a Torpedo action"
        },
    )
    card = fields.String(
        validate=Regexp(r"^[bgopry]([123]|-1|\+2|-3|\+4|-5|\+6)$"),
        metadata={
            "description": "fleet: a Fleet card like r+2; torpedo, defuse, delay: a Torpedo card "
            "like b2"
        },
    )
    sub = fields.String(
        validate=Regexp(SUB_PATTERN),
        metadata={"description": "fleet: the submarine moved; torpedo: the target"},
    )


VIEW_SCHEMA = ConsonarViewSchema
ACTION_SCHEMA = ConsonarActionSchema
