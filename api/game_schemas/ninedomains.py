"""The Nine Domains: the schemas of a seat's view and of an action (docs/games/ninedomains.md)."""

from marshmallow import RAISE, Schema, fields
from marshmallow.validate import Length, OneOf

from engine.games.ninedomains import (
    ACTION_TYPES,
    EFFECT_KINDS,
    ELEMENTS,
    FIGHT_DECIDERS,
    PHASES,
    SLOTS,
    SPECIALS_MODES,
)
from engine.games.ninedomains import CARD_ORDER as CARDS
from engine.games.ninedomains import DOMAIN_IDS as DOMAINS


def _card(**kw):
    return fields.String(validate=OneOf(CARDS), **kw)


def _domain(**kw):
    return fields.String(validate=OneOf(DOMAINS), **kw)


def _pair(field, description):
    """A list of two values, one per seat (index = seat)."""
    return fields.List(
        field, required=True, validate=Length(equal=2), metadata={"description": description}
    )


class NineDomainsBattleSchema(Schema):
    class Meta:
        unknown = RAISE

    round = fields.Integer(required=True, metadata={"description": "The round (1-3)"})
    slot = fields.Integer(required=True, metadata={"description": "0 left, 1 middle, 2 right"})
    domain = _domain(required=True, metadata={"description": "The domain fought for"})
    cards = _pair(_card(), "The card of each seat")
    strengths = _pair(
        fields.Integer(), "Each card's strength: printed value plus bonus (0 for the *)"
    )
    bonuses = _pair(fields.Integer(), "Each card's combat bonus (0 for the *)")
    winner = fields.Integer(
        required=True,
        allow_none=True,
        metadata={"description": "The seat that took the domain; null when it left the game"},
    )
    how = fields.String(
        required=True,
        validate=OneOf(FIGHT_DECIDERS),
        metadata={
            "description": "What decided the slot: a special effect, the strength, the larger "
            "bonus, identical cards (domain leaves the game) or the + / - symbol"
        },
    )


class NineDomainsDecisionSchema(Schema):
    class Meta:
        unknown = RAISE

    seat = fields.Integer(required=True, metadata={"description": "Who decides"})
    kind = fields.String(
        required=True,
        validate=OneOf(EFFECT_KINDS),
        metadata={"description": "swap-domain after a winning 2-, swap-card after a winning 3-"},
    )
    slot = fields.Integer(required=True, metadata={"description": "The slot the card won"})


class NineDomainsDomainSchema(Schema):
    class Meta:
        unknown = RAISE

    id = _domain(required=True, metadata={"description": "The domain's id, used in notation"})
    element = fields.String(
        required=True,
        allow_none=True,
        validate=OneOf(ELEMENTS),
        metadata={"description": "Its element; null for the domain without one"},
    )
    half = fields.Boolean(
        required=True,
        metadata={"description": "A half-purple domain: purple counts only with both halves"},
    )
    points = fields.Integer(required=True, metadata={"description": "Victory points"})


class NineDomainsViewSchema(Schema):
    class Meta:
        unknown = RAISE

    you = fields.Integer(
        required=True,
        allow_none=True,
        metadata={"description": "The seat this view is for; null for a spectator"},
    )
    round = fields.Integer(required=True, metadata={"description": "The current round, 1-3"})
    rounds = fields.Integer(required=True, metadata={"description": "Rounds in a game (3)"})
    phase = fields.String(
        required=True,
        validate=OneOf(PHASES),
        metadata={
            "description": "commit: both choose their cards; effects: a winner decides an "
            "optional 2-/3- effect; over: the game has ended"
        },
    )
    specials_mode = fields.String(
        required=True,
        validate=OneOf(SPECIALS_MODES),
        metadata={"description": "The `specials` option"},
    )
    face_up = fields.List(
        _domain(allow_none=True),
        required=True,
        validate=Length(equal=len(SLOTS)),
        metadata={
            "description": "The domains at stake in the left, middle "
            "and right slots (null once fought)"
        },
    )
    pile_sizes = fields.List(
        fields.Integer(),
        required=True,
        validate=Length(equal=len(SLOTS)),
        metadata={"description": "Face-down domains left under each slot"},
    )
    specials = fields.List(
        _card(),
        required=True,
        metadata={"description": "The special kinds dealt so far (both players have the same)"},
    )
    hand = fields.List(
        _card(),
        required=True,
        allow_none=True,
        metadata={
            "description": "Your cards in hand (not the ones laid face down); null for a spectator"
        },
    )
    hand_sizes = _pair(fields.Integer(), "Cards in each seat's hand")
    committed = _pair(fields.Boolean(), "Whether each seat has laid its cards this round")
    my_cards = fields.List(
        _card(),
        required=True,
        allow_none=True,
        metadata={"description": "Your face-down cards (left, middle, right) this round, or null"},
    )
    used = _pair(
        fields.List(_card(metadata={"component": "NineDomainsCard"})),
        "Each seat's played cards, face up",
    )
    carry = _pair(
        fields.List(fields.Integer()),
        "Each seat's carried bonus for its next card in each slot (1+ +2, 2+ +1, 4+ -1)",
    )
    domains = _pair(
        fields.List(_domain(metadata={"component": "NineDomainsDomainName"})),
        "The domains each seat has won",
    )
    elements = _pair(
        fields.List(
            fields.String(validate=OneOf(ELEMENTS), metadata={"component": "NineDomainsElement"})
        ),
        "The elements each seat's domains show",
    )
    points = _pair(fields.Integer(), "Each seat's victory points: domains plus bonus points")
    bonus_points = _pair(fields.Integer(), "Each seat's bonus points (7 per 3+ winning by 2)")
    discarded = fields.List(
        _domain(),
        required=True,
        metadata={"description": "Domains that left the game (identical cards)"},
    )
    elements_void = fields.Boolean(
        required=True,
        metadata={
            "description": "Both reached all four elements in one round: elements no longer count"
        },
    )
    battles = fields.List(
        fields.Nested(NineDomainsBattleSchema),
        required=True,
        metadata={"description": "Every slot fought so far, in order"},
    )
    decision = fields.Nested(
        NineDomainsDecisionSchema,
        required=True,
        allow_none=True,
        metadata={"description": "The optional effect being decided now, or null"},
    )
    domain_table = fields.List(
        fields.Nested(NineDomainsDomainSchema),
        required=True,
        metadata={"description": "The nine domains: element, half-purple, points"},
    )


class NineDomainsActionSchema(Schema):
    class Meta:
        unknown = RAISE

    type = fields.String(
        required=True, validate=OneOf(ACTION_TYPES), metadata={"description": "The kind of action"}
    )
    cards = fields.List(
        _card(),
        validate=Length(equal=len(SLOTS)),
        metadata={"description": "play: your cards for the left, middle and right slots"},
    )
    mine = _domain(metadata={"description": "swap-domain: your domain to give"})
    theirs = _domain(metadata={"description": "swap-domain: the opponent's domain to take"})
    hand = _card(metadata={"description": "swap-card: the hand card to set aside"})
    used = _card(metadata={"description": "swap-card: the used card to take back"})


VIEW_SCHEMA = NineDomainsViewSchema
ACTION_SCHEMA = NineDomainsActionSchema
