"""Nautilus: the schema of a seat's view and of an action (see docs/games/nautilus.md)."""

from marshmallow import fields
from marshmallow.validate import Length, OneOf, Range

from api.described import ClosedSchema, boolean, integer, listed, nested, pair, string
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


def _per_domain(field, description, **kw):
    """A list of five values, one per domain, in the order of `domains`."""
    return fields.List(
        field, validate=Length(equal=len(DOMAINS)), metadata={"description": description}, **kw
    )


def _divers(description, **kw):
    return listed(fields.Integer(validate=Range(1, 14)), description, **kw)


def _specials(description, **kw):
    return listed(fields.String(validate=OneOf(SPECIALS)), description, **kw)


def _board(description):
    return pair(fields.List(_card(allow_none=True), validate=Length(equal=COLUMNS)), description)


def _action_side(description):
    return string(description, required=False, validate=OneOf(SIDES))


def _action_column(description):
    return integer(description, required=False, validate=Range(1, COLUMNS))


class NautilusDomainCardSchema(ClosedSchema):
    domain = string("The card's domain", validate=OneOf(DOMAINS))
    points = integer(
        "2 (two stars), 1 (one star), -1 (ink blot)", validate=OneOf(DOMAIN_CARD_VALUES)
    )


class NautilusPendingMoveSchema(ClosedSchema):
    seat = _seat(required=True, metadata={"description": "The seat that must move a card"})
    side = _seat(required=True, metadata={"description": "The side (seat) of the arrow card"})
    col = integer("The arrow card's column, 1-5", validate=Range(1, COLUMNS))
    arrow = string(
        "vertical (6, 9): to the space opposite; horizontal (7, 8): along the same side",
        validate=OneOf(ARROW_KINDS),
    )


class NautilusSpecialUseSchema(ClosedSchema):
    seat = _seat(required=True, metadata={"description": "Who used it"})
    special = string("The Special card used this round", validate=OneOf(SPECIALS))


class NautilusLastRoundSchema(ClosedSchema):
    round = integer("The round played", validate=Range(1, ROUNDS))
    board = _board("Each seat's side of the board as the round's tenth card left it")
    domain_row = listed(
        fields.Nested(NautilusDomainCardSchema),
        "The round's Domain cards, in front of columns 1-5",
        validate=Length(equal=COLUMNS),
    )
    winners = listed(
        _seat(),
        "The seat that won each column, 1-5, and took its Domain card",
        validate=Length(equal=COLUMNS),
    )


class NautilusViewSchema(ClosedSchema):
    you = _seat(
        required=True,
        allow_none=True,
        metadata={"description": "The seat this view is for (null: a spectator)"},
    )
    round = integer("The round, 1-6", validate=Range(1, ROUNDS))
    rounds = integer("The last round (6)")
    nemo = _seat(required=True, metadata={"description": "The Nemo holder: first this round"})
    phase = string("What is being decided now", validate=OneOf(PHASES))
    hidden_domains = boolean("The hidden domains option")
    domains = listed(
        fields.String(validate=OneOf(DOMAINS)),
        "The domain names, in the order of every per-domain list",
    )
    board = _board("Each seat's side of the board: 5 spaces, a card or null")
    anchored = _card(
        required=True,
        allow_none=True,
        metadata={"description": "The card pinned by the Anchor this round"},
    )
    pending_move = nested(
        NautilusPendingMoveSchema, "The move an arrow card forces now", allow_none=True
    )
    placements = integer("Cards placed this round", validate=Range(0, 2 * COLUMNS))
    domain_row = listed(
        fields.Nested(NautilusDomainCardSchema),
        "The Domain cards in front of columns 1-5 (empty when the game is over)",
    )
    last_round = nested(
        NautilusLastRoundSchema,
        "The round just played, as it ended, until the next placement (null once a card is "
        "placed, and before the first round ends)",
        allow_none=True,
    )
    hand = _divers("Your Divers (null for a spectator)", allow_none=True)
    hand_sizes = pair(fields.Integer(), "Each seat's number of Divers")
    specials = _specials("Your unused Special cards (null for a spectator)", allow_none=True)
    special_counts = pair(fields.Integer(), "Each seat's number of unused Special cards")
    draft = _specials("The two Specials you drew as Nemo holder (only to you, while you choose)")
    special_given = string(
        "The Special the Nemo holder gave this round (to both players)",
        allow_none=True,
        validate=OneOf(SPECIALS),
    )
    submarine_drawn = _divers("The 2 Divers your Submarine drew")
    harpoon_taken = integer(
        "The Diver the Harpoon just took (to both players)",
        allow_none=True,
        validate=Range(1, 14),
    )
    eye_seen = _divers("The opponent's Divers when you used the Eye this round", allow_none=True)
    specials_used = listed(fields.Nested(NautilusSpecialUseSchema), "The Specials used this round")
    diver_pile_size = integer("Divers in the pile")
    special_deck_size = integer("Specials left in this cycle")
    domain_pile_size = integer("Domain cards not yet dealt")
    taken = pair(
        fields.List(fields.Nested(NautilusDomainCardSchema), allow_none=True),
        "Each seat's won Domain cards (null where hidden)",
    )
    taken_counts = pair(fields.Integer(), "Each seat's number of won Domain cards")
    points = pair(
        _per_domain(fields.Integer(), "", allow_none=True),
        "Each seat's points per domain (null where hidden)",
    )
    won = _per_domain(
        _seat(allow_none=True),
        "Who has won each domain for good (null: nobody yet, or hidden)",
        required=True,
    )
    domains_won = pair(
        fields.Integer(allow_none=True), "Each seat's number of domains won (null while hidden)"
    )
    final_domains = _per_domain(
        _seat(allow_none=True),
        "Who has each domain at the end of the game (null before)",
        required=True,
        allow_none=True,
    )


class NautilusActionSchema(ClosedSchema):
    type = string("The kind of action", validate=OneOf(ACTION_TYPES))
    special = string(
        "keep: the Special the Nemo holder keeps", required=False, validate=OneOf(SPECIALS)
    )
    card = _card(
        metadata={
            "description": "place: the card (0 Fishbone, 15 Kraken); "
            "submarine_keep, harpoon_give: the Diver"
        }
    )
    side = _action_side("place: your side or the opponent's")
    col = _action_column("place: column 1-5")
    anchor = _card(
        allow_none=True, metadata={"description": "place: the card the Anchor pins, or null"}
    )
    from_side = _action_side("move: the moved card's side")
    from_col = _action_column("move: the moved card's column")
    to_side = _action_side("move: the side it goes to")
    to_col = _action_column("move: the column it goes to")


VIEW_SCHEMA = NautilusViewSchema
ACTION_SCHEMA = NautilusActionSchema
