"""Nautilus: the schema of a seat's view and of an action (see docs/games/nautilus.md)."""

from marshmallow import RAISE, Schema, fields
from marshmallow.validate import Length, OneOf, Range

from engine.games.nautilus import (
    ACTION_TYPES,
    ARROW_KINDS,
    COLUMNS,
    DOMAIN_CARD_VALUES,
    DOMAINS,
    PHASES,
    ROUNDS,
    SIDES,
    SPECIALS,
)


def _card(**kw):
    """A card on the board or in a hand: Divers 1-14, 0 the Fishbone, 15 the Kraken."""
    return fields.Integer(validate=Range(0, 15), **kw)


def _seat(**kw):
    return fields.Integer(validate=OneOf([0, 1]), **kw)


def _pair(field, description, **kw):
    """A list of two values, one per seat (index = seat)."""
    return fields.List(
        field, required=True, validate=Length(equal=2), metadata={"description": description}, **kw
    )


def _per_domain(field, description, **kw):
    """A list of five values, one per domain, in the order of `domains`."""
    return fields.List(
        field, validate=Length(equal=len(DOMAINS)), metadata={"description": description}, **kw
    )


class NautilusDomainCardSchema(Schema):
    class Meta:
        unknown = RAISE

    domain = fields.String(
        required=True, validate=OneOf(DOMAINS), metadata={"description": "The card's domain"}
    )
    points = fields.Integer(
        required=True,
        validate=OneOf(DOMAIN_CARD_VALUES),
        metadata={"description": "2 (two stars), 1 (one star), -1 (ink blot)"},
    )


class NautilusPendingMoveSchema(Schema):
    class Meta:
        unknown = RAISE

    seat = _seat(required=True, metadata={"description": "The seat that must move a card"})
    side = _seat(required=True, metadata={"description": "The side (seat) of the arrow card"})
    col = fields.Integer(
        required=True,
        validate=Range(1, COLUMNS),
        metadata={"description": "The arrow card's column, 1-5"},
    )
    arrow = fields.String(
        required=True,
        validate=OneOf(ARROW_KINDS),
        metadata={
            "description": "vertical (6, 9): to the space opposite; "
            "horizontal (7, 8): along the same side"
        },
    )


class NautilusSpecialUseSchema(Schema):
    class Meta:
        unknown = RAISE

    seat = _seat(required=True, metadata={"description": "Who used it"})
    special = fields.String(
        required=True,
        validate=OneOf(SPECIALS),
        metadata={"description": "The Special card used this round"},
    )


class NautilusLastRoundSchema(Schema):
    class Meta:
        unknown = RAISE

    round = fields.Integer(
        required=True, validate=Range(1, ROUNDS), metadata={"description": "The round played"}
    )
    board = _pair(
        fields.List(_card(allow_none=True), validate=Length(equal=COLUMNS)),
        "Each seat's side of the board as the round's tenth card left it",
    )
    domain_row = fields.List(
        fields.Nested(NautilusDomainCardSchema),
        required=True,
        validate=Length(equal=COLUMNS),
        metadata={"description": "The round's Domain cards, in front of columns 1-5"},
    )
    winners = fields.List(
        _seat(),
        required=True,
        validate=Length(equal=COLUMNS),
        metadata={"description": "The seat that won each column, 1-5, and took its Domain card"},
    )


class NautilusViewSchema(Schema):
    class Meta:
        unknown = RAISE

    you = _seat(
        required=True,
        allow_none=True,
        metadata={"description": "The seat this view is for (null: a spectator)"},
    )
    round = fields.Integer(
        required=True, validate=Range(1, ROUNDS), metadata={"description": "The round, 1-6"}
    )
    rounds = fields.Integer(required=True, metadata={"description": "The last round (6)"})
    nemo = _seat(required=True, metadata={"description": "The Nemo holder: first this round"})
    phase = fields.String(
        required=True, validate=OneOf(PHASES), metadata={"description": "What is being decided now"}
    )
    hidden_domains = fields.Boolean(
        required=True, metadata={"description": "The hidden domains option"}
    )
    domains = fields.List(
        fields.String(validate=OneOf(DOMAINS)),
        required=True,
        metadata={"description": "The domain names, in the order of every per-domain list"},
    )
    board = _pair(
        fields.List(_card(allow_none=True), validate=Length(equal=COLUMNS)),
        "Each seat's side of the board: 5 spaces, a card or null",
    )
    anchored = _card(
        required=True,
        allow_none=True,
        metadata={"description": "The card pinned by the Anchor this round"},
    )
    pending_move = fields.Nested(
        NautilusPendingMoveSchema,
        required=True,
        allow_none=True,
        metadata={"description": "The move an arrow card forces now"},
    )
    placements = fields.Integer(
        required=True,
        validate=Range(0, 2 * COLUMNS),
        metadata={"description": "Cards placed this round"},
    )
    domain_row = fields.List(
        fields.Nested(NautilusDomainCardSchema),
        required=True,
        metadata={
            "description": "The Domain cards in front of columns 1-5 (empty when the game is over)"
        },
    )
    last_round = fields.Nested(
        NautilusLastRoundSchema,
        required=True,
        allow_none=True,
        metadata={
            "description": "The round just played, as it ended, until the next placement "
            "(null once a card is placed, and before the first round ends)"
        },
    )
    hand = fields.List(
        fields.Integer(validate=Range(1, 14)),
        required=True,
        allow_none=True,
        metadata={"description": "Your Divers (null for a spectator)"},
    )
    hand_sizes = _pair(fields.Integer(), "Each seat's number of Divers")
    specials = fields.List(
        fields.String(validate=OneOf(SPECIALS)),
        required=True,
        allow_none=True,
        metadata={"description": "Your unused Special cards (null for a spectator)"},
    )
    special_counts = _pair(fields.Integer(), "Each seat's number of unused Special cards")
    draft = fields.List(
        fields.String(validate=OneOf(SPECIALS)),
        required=True,
        metadata={
            "description": "The two Specials you drew as Nemo holder "
            "(only to you, while you choose)"
        },
    )
    special_given = fields.String(
        required=True,
        allow_none=True,
        validate=OneOf(SPECIALS),
        metadata={"description": "The Special the Nemo holder gave this round (to both players)"},
    )
    submarine_drawn = fields.List(
        fields.Integer(validate=Range(1, 14)),
        required=True,
        metadata={"description": "The 2 Divers your Submarine drew"},
    )
    harpoon_taken = fields.Integer(
        required=True,
        allow_none=True,
        validate=Range(1, 14),
        metadata={"description": "The Diver the Harpoon just took (to both players)"},
    )
    eye_seen = fields.List(
        fields.Integer(validate=Range(1, 14)),
        required=True,
        allow_none=True,
        metadata={"description": "The opponent's Divers when you used the Eye this round"},
    )
    specials_used = fields.List(
        fields.Nested(NautilusSpecialUseSchema),
        required=True,
        metadata={"description": "The Specials used this round"},
    )
    diver_pile_size = fields.Integer(required=True, metadata={"description": "Divers in the pile"})
    special_deck_size = fields.Integer(
        required=True, metadata={"description": "Specials left in this cycle"}
    )
    domain_pile_size = fields.Integer(
        required=True, metadata={"description": "Domain cards not yet dealt"}
    )
    taken = _pair(
        fields.List(fields.Nested(NautilusDomainCardSchema), allow_none=True),
        "Each seat's won Domain cards (null where hidden)",
    )
    taken_counts = _pair(fields.Integer(), "Each seat's number of won Domain cards")
    points = _pair(
        _per_domain(fields.Integer(), "", allow_none=True),
        "Each seat's points per domain (null where hidden)",
    )
    won = _per_domain(
        _seat(allow_none=True),
        "Who has won each domain for good (null: nobody yet, or hidden)",
        required=True,
    )
    domains_won = _pair(
        fields.Integer(allow_none=True), "Each seat's number of domains won (null while hidden)"
    )
    final_domains = _per_domain(
        _seat(allow_none=True),
        "Who has each domain at the end of the game (null before)",
        required=True,
        allow_none=True,
    )


class NautilusActionSchema(Schema):
    class Meta:
        unknown = RAISE

    type = fields.String(
        required=True, validate=OneOf(ACTION_TYPES), metadata={"description": "The kind of action"}
    )
    special = fields.String(
        validate=OneOf(SPECIALS),
        metadata={"description": "keep: the Special the Nemo holder keeps"},
    )
    card = _card(
        metadata={
            "description": "place: the card (0 Fishbone, 15 Kraken); "
            "submarine_keep, harpoon_give: the Diver"
        }
    )
    side = fields.String(
        validate=OneOf(SIDES), metadata={"description": "place: your side or the opponent's"}
    )
    col = fields.Integer(validate=Range(1, COLUMNS), metadata={"description": "place: column 1-5"})
    anchor = _card(
        allow_none=True, metadata={"description": "place: the card the Anchor pins, or null"}
    )
    from_side = fields.String(
        validate=OneOf(SIDES), metadata={"description": "move: the moved card's side"}
    )
    from_col = fields.Integer(
        validate=Range(1, COLUMNS), metadata={"description": "move: the moved card's column"}
    )
    to_side = fields.String(
        validate=OneOf(SIDES), metadata={"description": "move: the side it goes to"}
    )
    to_col = fields.Integer(
        validate=Range(1, COLUMNS), metadata={"description": "move: the column it goes to"}
    )


VIEW_SCHEMA = NautilusViewSchema
ACTION_SCHEMA = NautilusActionSchema
