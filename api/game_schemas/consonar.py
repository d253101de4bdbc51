"""Con Sonar!: the schema of a seat's view and of an action (see docs/games/consonar.md)."""

from marshmallow import fields
from marshmallow.validate import Length, OneOf, Range, Regexp

from api.described import ClosedSchema, boolean, integer, listed, nested, string
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


def _rung(description, **kw):
    return integer(description, validate=Range(LOW, HIGH), **kw)


def _fleet_card(description):
    return string(description, validate=Regexp(FLEET_CARD_PATTERN))


def _torpedo_card(description):
    return string(description, validate=Regexp(TORPEDO_CARD_PATTERN))


def _sub(description):
    return string(description, validate=Regexp(SUB_PATTERN))


def _symbol(description, **kw):
    return string(description, validate=OneOf(SYMBOLS), **kw)


def _colours(description):
    return listed(fields.String(validate=OneOf(COLOURS)), description)


def _per_seat(item, description):
    return listed(fields.List(item), description)


class ConsonarFleetCardSchema(ClosedSchema):
    card = _fleet_card("The card: colour letter and signed value, e.g. r+2")
    colour = string("b blue, g green, o orange, p purple, r red, y yellow", validate=OneOf(COLOURS))
    value = integer(
        "Rungs the submarine moves: + up (more exposed), - down", validate=OneOf(FLEET_VALUES)
    )
    symbol = _symbol("The card's own ship symbol")
    arrow = _symbol("The symbol the arrow points to: the next card must show it")


class ConsonarTorpedoCardSchema(ClosedSchema):
    card = _torpedo_card("The card: colour letter and number of torpedoes, e.g. b2")
    colour = string("The nation it threatens", validate=OneOf(COLOURS))
    torpedoes = integer("How many d8 rolls it gives", validate=Range(1, max(TORPEDO_COUNTS)))
    symbol = _symbol("The last Fleet card's arrow must point to this symbol to use it")


class ConsonarPlayedSchema(ClosedSchema):
    card = _fleet_card("The Fleet card played this turn")
    sub = _sub("The submarine it moved")
    from_ = _rung("Its rung before the move", data_key="from", attribute="from")
    to = _rung("Its rung after the move")


class ConsonarStrikeSchema(ClosedSchema):
    seat = integer("Who fired")
    card = _torpedo_card("The Torpedo card fired")
    sub = _sub("The target submarine")
    rung = _rung("The target's rung when fired at")
    rolls = listed(
        fields.Integer(validate=Range(1, DIE)),
        "The d8 rolls, in order; the rolling stops at the first hit",
        validate=Length(min=1, max=max(TORPEDO_COUNTS)),
    )
    hit = boolean("Whether it sank the target")


class ConsonarViewSchema(ClosedSchema):
    you = integer("The seat this view is for; null for a spectator", allow_none=True)
    me = fields.Integer(
        required=True,
        allow_none=True,
        metadata={
            "deprecated": True,
            "description": "Deprecated: the same as `you`, the name the other games use; kept "
            "for the clients written before it",
        },
    )

    my_colour = string(
        "This seat's nation; null for a spectator", allow_none=True, validate=OneOf(COLOURS)
    )
    nations = _colours("Each seat's nation (colour letter), by seat")
    removed = listed(fields.Integer(), "Seats that left the game: their nations are neutral")
    neutral = _colours("Nations no playing seat holds")
    current = integer("Whose turn it is; null when the game is over", allow_none=True)
    turn = integer("Turn number, from 1")
    phase = string(
        "fleet: the first Fleet card is due; queue: connecting cards or the Torpedo step; over",
        validate=OneOf(PHASES),
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
    hand = listed(
        fields.Nested(ConsonarFleetCardSchema),
        "This seat's Fleet cards; null for a spectator",
        allow_none=True,
    )
    hand_sizes = listed(fields.Integer(), "How many Fleet cards each seat holds")
    played = listed(
        fields.Nested(ConsonarPlayedSchema), "The Fleet cards played so far this turn, in order"
    )
    next_symbol = _symbol(
        "The last played card's arrow symbol: what a queued card or a Torpedo card must show",
        allow_none=True,
    )
    torpedo_row = listed(fields.Nested(ConsonarTorpedoCardSchema), "The face-up Torpedo cards")
    torpedo_deck = integer("Torpedo cards left in the deck")
    torpedo_removed = listed(
        fields.String(validate=Regexp(TORPEDO_CARD_PATTERN)),
        "Torpedo cards defused (out of the game)",
    )
    torpedo_discard = listed(
        fields.String(validate=Regexp(TORPEDO_CARD_PATTERN)), "Torpedo cards that sank a submarine"
    )
    fleet_deck = integer("Fleet cards left in the deck")
    fleet_discard = integer("Fleet cards in the discard pile")
    sunk = _per_seat(
        fields.String(validate=Regexp(SUB_PATTERN)),
        "Per seat, the submarines it sank (scoring area)",
    )
    misses = _per_seat(
        fields.String(validate=Regexp(TORPEDO_CARD_PATTERN)),
        "Per seat, its missed Torpedo cards (scoring area, -1 each)",
    )
    scores = listed(fields.Integer(), "Per seat, the score if the game ended now")
    last_strike = nested(
        ConsonarStrikeSchema,
        "The latest torpedo fired in the game; null before the first",
        allow_none=True,
    )
    end_subs_left = integer(
        "The option: the game ends when this many submarines or fewer are left",
        validate=Range(min(END_SUBS_CHOICES), max(END_SUBS_CHOICES)),
    )
    end_reason = string("Why the game ended; null while it goes on", allow_none=True)


class ConsonarActionSchema(ClosedSchema):
    type = string(
        "fleet: play one Fleet card; torpedo: fire a Torpedo card; defuse: remove a Torpedo "
        "card of your colour; delay: put a face-up Torpedo card under the deck; end: end the "
        "turn without a Torpedo action",
        validate=OneOf(ACTION_TYPES),
    )
    card = string(
        "fleet: a Fleet card like r+2; torpedo, defuse, delay: a Torpedo card like b2",
        required=False,
        validate=Regexp(r"^[bgopry]([123]|-1|\+2|-3|\+4|-5|\+6)$"),
    )
    sub = string(
        "fleet: the submarine moved; torpedo: the target",
        required=False,
        validate=Regexp(SUB_PATTERN),
    )


VIEW_SCHEMA = ConsonarViewSchema
ACTION_SCHEMA = ConsonarActionSchema
