"""The committed OpenAPI document is, to the byte, the one the code generates; it is valid and
complete; the app serves it and its interactive docs itself."""

import difflib
import json
import re
from pathlib import Path

import pytest
from openapi_spec_validator import validate

from api.app import create_app, openapi_document
from api.error_codes import EXTENSION
from api.game_schemas.nautilus import NautilusActionSchema
from api.schemas import ProblemSchema
from api.spec_plugin import ContractPlugin
from engine import registry
from engine.core import GameError
from service.errors import ErrorCode

ROOT = Path(__file__).resolve().parents[2]
COMMITTED = ROOT / "openapi" / "openapi.json"
OPERATION_ID = re.compile(r"^[a-z][a-zA-Z]+$")


def drift(committed: str, generated: str) -> str:
    """What differs between the committed and the generated document ('' when nothing)."""
    return "".join(
        difflib.unified_diff(
            committed.splitlines(True),
            generated.splitlines(True),
            "openapi/openapi.json",
            "generated",
            n=1,
        )
    )


def generated() -> str:
    return openapi_document(create_app())


def operations(doc):
    for path, item in doc["paths"].items():
        for method, operation in item.items():
            if method != "parameters":
                yield method.upper(), path, operation


@pytest.mark.slow
def test_committed_document_matches_the_code():
    assert COMMITTED.exists(), "openapi/openapi.json is missing: run `make openapi`"
    difference = drift(COMMITTED.read_text(), generated())
    assert not difference, (
        "openapi/openapi.json is out of date: run `make openapi` and "
        "commit it\n" + difference[:4000]
    )


@pytest.mark.slow  # builds the app's document twice
def test_a_schema_change_without_regenerating_is_caught(monkeypatch):
    """The check above compares the whole document: a new field on a shared schema and a
    changed description deep in one game's action both show as drift."""
    from marshmallow import fields

    monkeypatch.setitem(ProblemSchema._declared_fields, "hint", fields.String())
    assert '"hint"' in drift(COMMITTED.read_text(), generated())
    monkeypatch.undo()
    col = NautilusActionSchema._declared_fields["col"]
    monkeypatch.setitem(col.metadata, "description", "place: column one to five")
    assert "column one to five" in drift(COMMITTED.read_text(), generated())


@pytest.mark.slow  # over a second: not in make test-fast
def test_document_is_valid_openapi():
    validate(json.loads(generated()))


@pytest.mark.slow
def test_every_game_has_its_view_legal_moves_and_action():
    schemas = json.loads(generated())["components"]["schemas"]
    for oneof in ("GameView", "LegalMoves"):
        assert schemas[oneof]["discriminator"]["propertyName"] == "game"
        assert sorted(schemas[oneof]["discriminator"]["mapping"]) == sorted(registry.GAMES)
    actions = schemas["Move"]["properties"]["action"]["anyOf"]
    assert len(actions) == len(registry.GAMES)
    for ref in actions:
        assert ref["$ref"].removeprefix("#/components/schemas/") in schemas


@pytest.mark.slow
def test_every_operation_is_named_tagged_summarized_and_lists_its_errors():
    doc = json.loads(generated())
    tags = {t["name"]: t.get("description") for t in doc["tags"]}
    ids = []
    for method, path, op in operations(doc):
        where = f"{method} {path}"
        assert OPERATION_ID.match(op.get("operationId", "")), where
        ids.append(op["operationId"])
        assert op.get("description") and op["description"] != op.get("summary"), where
        assert op.get("summary") and op["tags"] and all(tags.get(t) for t in op["tags"]), where
        for status, response in op["responses"].items():
            if int(status) < 400:
                continue
            codes = response["x-error-codes"]
            problem, narrowed = response["content"]["application/problem+json"]["schema"]["allOf"]
            assert problem == {"$ref": "#/components/schemas/Problem"}, where
            assert narrowed["properties"]["code"]["enum"] == codes, where
            assert codes and all(ErrorCode.of(c).status == int(status) for c in codes), where
            assert all(f"`{c}`" in response["description"] for c in codes), where
        secured = op.get("security", doc["security"])
        assert ("401" in op["responses"]) == bool(secured), where
        assert "500" in op["responses"], where
    assert len(ids) == len(set(ids)), "operationIds must be unique"
    assert all(path.startswith("/v1/") for path in doc["paths"]), "pages stay out of the API"


@pytest.mark.slow  # builds the app's document
def test_no_operation_names_a_code_its_kind_always_has(monkeypatch):
    """`errors=[...]` names an operation's own codes; those of its kind (any operation's, a
    body's, a query's, a token's: api/error_codes.py) are added by rule, not named again."""
    named_again = {}
    codes = ContractPlugin._codes

    def checked(self, operation):
        kind = codes(self, {k: v for k, v in operation.items() if k != EXTENSION})
        again = [c for c in operation.get(EXTENSION, []) if ErrorCode.of(c) in kind]
        if again:
            named_again[operation["operationId"]] = again
        return codes(self, operation)

    monkeypatch.setattr(ContractPlugin, "_codes", checked)
    generated()
    assert named_again == {}


def test_the_headers_are_documented():
    paths = json.loads(generated())["paths"]
    view = paths["/v1/games/{game_id}/view"]["get"]
    assert {p["name"] for p in view["parameters"]} >= {"If-None-Match"}
    assert "ETag" in view["responses"]["200"]["headers"] and "304" in view["responses"]
    moves = paths["/v1/games/{game_id}/moves"]["post"]
    assert "Idempotency-Key" in {p["name"] for p in moves["parameters"]}
    stream = paths["/v1/games/{game_id}/stream"]["get"]
    assert "Last-Event-ID" in {p["name"] for p in stream["parameters"]}


def test_every_refusal_of_the_engine_is_in_the_table():
    """The service raises members of ErrorCode only (the type checker sees to it); the engine
    names its refusals by class, and each class's code must be a member."""

    def kinds(cls):
        return [cls] + [k for sub in cls.__subclasses__() for k in kinds(sub)]

    refusals = kinds(GameError)
    assert len(refusals) >= 7
    for refusal in refusals:
        assert ErrorCode.of(refusal.code), refusal


@pytest.mark.slow
def test_the_app_serves_the_document_and_offline_docs(redis_client):
    client = create_app(redis_client).test_client()
    served = client.get("/openapi.json")
    assert served.status_code == 200 and served.json == json.loads(COMMITTED.read_text())
    assert client.get("/docs").status_code in (301, 308)
    page = client.get("/docs/")
    assert page.status_code == 200 and page.mimetype == "text/html"
    html = page.get_data(as_text=True)
    assert '"url": "/openapi.json"' in html and '"validatorUrl": null' in html
    assets = re.findall(r'(?:src|href)="([^"]+)"', html)
    assert len(assets) >= 5, assets
    for asset in assets:
        assert asset.startswith("/docs/"), f"{asset} does not come from the app itself"
        r = client.get(asset)
        assert r.status_code == 200 and len(r.data) > 100, asset
    assert not re.search(r"https?://", html), "the docs page must not load anything from outside"
