import pytest
from marshmallow import fields

from api.app import create_app
from api.game_views import GameViewSchema, ViewEnvelopeSchema
from engine import registry
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


@pytest.fixture
def test_game(monkeypatch):
    """The platform's test game and its view schema, for this test only."""
    monkeypatch.setitem(registry.GAMES, "hiddenbid", HIDDEN_BID)
    monkeypatch.setitem(GameViewSchema.type_schemas, "hiddenbid", HiddenBidViewSchema)
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
