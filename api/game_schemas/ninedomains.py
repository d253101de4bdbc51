"""The Nine Domains: the schemas of a seat's view and of an action (docs/games/ninedomains.md)."""

from marshmallow import fields
from marshmallow.validate import Length, OneOf

from api.described import ClosedSchema, boolean, integer, listed, nested, pair, string
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


def _cards(description, **kw):
    return listed(_card(), description, **kw)


def _action_card(description):
    return string(description, required=False, validate=OneOf(CARDS))


def _action_domain(description):
    return string(description, required=False, validate=OneOf(DOMAINS))


class NineDomainsBattleSchema(ClosedSchema):
    round = integer("The round (1-3)")
    slot = integer("0 left, 1 middle, 2 right")
    domain = string("The domain fought for", validate=OneOf(DOMAINS))
    cards = pair(_card(), "The card of each seat")
    strengths = pair(
        fields.Integer(), "Each card's strength: printed value plus bonus (0 for the *)"
    )
    bonuses = pair(fields.Integer(), "Each card's combat bonus (0 for the *)")
    winner = integer("The seat that took the domain; null when it left the game", allow_none=True)
    how = string(
        "What decided the slot: a special effect, the strength, the larger bonus, identical "
        "cards (domain leaves the game) or the + / - symbol",
        validate=OneOf(FIGHT_DECIDERS),
    )


class NineDomainsDecisionSchema(ClosedSchema):
    seat = integer("Who decides")
    kind = string(
        "swap-domain after a winning 2-, swap-card after a winning 3-",
        validate=OneOf(EFFECT_KINDS),
    )
    slot = integer("The slot the card won")


class NineDomainsDomainSchema(ClosedSchema):
    id = string("The domain's id, used in notation", validate=OneOf(DOMAINS))
    element = string(
        "Its element; null for the domain without one",
        allow_none=True,
        validate=OneOf(ELEMENTS),
    )
    half = boolean("A half-purple domain: purple counts only with both halves")
    points = integer("Victory points")


class NineDomainsViewSchema(ClosedSchema):
    you = integer("The seat this view is for; null for a spectator", allow_none=True)
    round = integer("The current round, 1-3")
    rounds = integer("Rounds in a game (3)")
    phase = string(
        "commit: both choose their cards; effects: a winner decides an optional 2-/3- effect; "
        "over: the game has ended",
        validate=OneOf(PHASES),
    )
    specials_mode = string("The `specials` option", validate=OneOf(SPECIALS_MODES))
    face_up = listed(
        _domain(allow_none=True),
        "The domains at stake in the left, middle and right slots (null once fought)",
        validate=Length(equal=len(SLOTS)),
    )
    pile_sizes = listed(
        fields.Integer(),
        "Face-down domains left under each slot",
        validate=Length(equal=len(SLOTS)),
    )
    specials = _cards("The special kinds dealt so far (both players have the same)")
    hand = _cards(
        "Your cards in hand (not the ones laid face down); null for a spectator",
        allow_none=True,
    )
    hand_sizes = pair(fields.Integer(), "Cards in each seat's hand")
    committed = pair(fields.Boolean(), "Whether each seat has laid its cards this round")
    my_cards = _cards(
        "Your face-down cards (left, middle, right) this round, or null", allow_none=True
    )
    used = pair(
        fields.List(_card(metadata={"component": "NineDomainsCard"})),
        "Each seat's played cards, face up",
    )
    carry = pair(
        fields.List(fields.Integer()),
        "Each seat's carried bonus for its next card in each slot (1+ +2, 2+ +1, 4+ -1)",
    )
    domains = pair(
        fields.List(_domain(metadata={"component": "NineDomainsDomainName"})),
        "The domains each seat has won",
    )
    elements = pair(
        fields.List(
            fields.String(validate=OneOf(ELEMENTS), metadata={"component": "NineDomainsElement"})
        ),
        "The elements each seat's domains show",
    )
    points = pair(fields.Integer(), "Each seat's victory points: domains plus bonus points")
    bonus_points = pair(fields.Integer(), "Each seat's bonus points (7 per 3+ winning by 2)")
    discarded = listed(_domain(), "Domains that left the game (identical cards)")
    elements_void = boolean("Both reached all four elements in one round: elements no longer count")
    battles = listed(fields.Nested(NineDomainsBattleSchema), "Every slot fought so far, in order")
    decision = nested(
        NineDomainsDecisionSchema,
        "The optional effect being decided now, or null",
        allow_none=True,
    )
    domain_table = listed(
        fields.Nested(NineDomainsDomainSchema), "The nine domains: element, half-purple, points"
    )


class NineDomainsActionSchema(ClosedSchema):
    type = string("The kind of action", validate=OneOf(ACTION_TYPES))
    cards = _cards(
        "play: your cards for the left, middle and right slots",
        required=False,
        validate=Length(equal=len(SLOTS)),
    )
    mine = _action_domain("swap-domain: your domain to give")
    theirs = _action_domain("swap-domain: the opponent's domain to take")
    hand = _action_card("swap-card: the hand card to set aside")
    used = _action_card("swap-card: the used card to take back")


VIEW_SCHEMA = NineDomainsViewSchema
ACTION_SCHEMA = NineDomainsActionSchema
