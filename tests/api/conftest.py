import pytest
from marshmallow import Schema, fields

from api.app import create_app
from api.game_views import GameViewSchema, LegalMovesSchema, ViewEnvelopeSchema, legal_moves_schema
from engine import registry
from service.assembly import assemble
from service.settings import Settings
from store.outbox import OutboxStore
from tests.engine.hidden_bid import GAME as HIDDEN_BID


class HiddenBidViewSchema(ViewEnvelopeSchema):
    round = fields.Integer()
    points = fields.List(fields.Integer())
    pot = fields.List(fields.Integer())
    hand = fields.List(fields.Integer(), allow_none=True)
    hand_sizes = fields.List(fields.Integer())
    deck_size = fields.Integer()
    has_bid = fields.List(fields.Boolean())
    my_bid = fields.Integer(allow_none=True)


class HiddenBidActionSchema(Schema):
    type = fields.String(required=True)
    card = fields.Integer()


@pytest.fixture
def test_game(monkeypatch):
    """The platform's test game and its view and action schemas, for this test only."""
    monkeypatch.setitem(registry.GAMES, "hiddenbid", HIDDEN_BID)
    monkeypatch.setitem(GameViewSchema.type_schemas, "hiddenbid", HiddenBidViewSchema)
    monkeypatch.setitem(
        LegalMovesSchema.type_schemas,
        "hiddenbid",
        legal_moves_schema("hiddenbid", HiddenBidActionSchema),
    )
    return HIDDEN_BID


@pytest.fixture
def app(redis_client):
    return create_app(redis_client)


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def register(client):
    def make(name):
        r = client.post("/v1/players", json={"name": name})
        assert r.status_code == 201, r.json
        return r.json["id"], {"Authorization": f"Bearer {r.json['token']}"}

    return make


def befriend(client, headers, *friends):
    """The player of `headers` lets `friends` seat them without an invitation (the set-up of
    tests about playing, not inviting)."""
    r = client.put("/v1/players/me/friends", json={"friends": list(friends)}, headers=headers)
    assert r.status_code == 200, r.json


class Kept:
    def queue(self, deliveries):
        self.last = deliveries


@pytest.fixture
def worker(redis_client):
    """The worker's part, carried out in this process: `worker()` carries out every entry in
    the outbox (and what they cause); its deliveries are kept, not made."""
    consequences = assemble(redis_client, Settings(), deliveries=Kept()).consequences
    outbox = OutboxStore(redis_client)
    outbox.ensure_groups()

    def run():
        for _ in range(50):
            entries = outbox.read("test", 100, 5)
            if not entries:
                return
            for entry in entries:
                consequences.carry_out(entry)
            outbox.done(entries)

    return run
