"""The committed OpenAPI document is the one the code generates, and it is valid."""
import json
from pathlib import Path

from openapi_spec_validator import validate

from api.app import create_app

COMMITTED = Path(__file__).resolve().parents[2] / "openapi" / "openapi.json"


def generated():
    return json.loads(json.dumps(create_app().extensions["turnpost"]["api"].spec.to_dict()))


def test_committed_document_matches_the_code():
    assert COMMITTED.exists(), "openapi/openapi.json is missing: run `make openapi`"
    assert json.loads(COMMITTED.read_text()) == generated(), (
        "openapi/openapi.json is out of date: run `make openapi` and commit it")


def test_document_is_valid_openapi():
    validate(generated())


def test_every_game_view_is_in_the_oneof():
    from engine import registry
    doc = generated()
    view = doc["components"]["schemas"]["GameView"]
    assert sorted(view["discriminator"]["mapping"]) == sorted(registry.GAMES)
