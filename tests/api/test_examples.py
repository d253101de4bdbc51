"""The document's examples come from real games and fit their schemas."""

import json

import pytest
from openapi_schema_validator import OAS30Validator, validate

from api import examples
from api.app import create_app, openapi_document


def document() -> dict:
    return json.loads(openapi_document(create_app()))


def operation(doc: dict, operation_id: str) -> dict:
    return next(
        op
        for item in doc["paths"].values()
        for method, op in item.items()
        if method != "parameters" and op["operationId"] == operation_id
    )


def check_examples(doc: dict, recorded: dict) -> int:
    """Validate every example against the schema of the body it is for; how many there were."""
    count = 0
    for operation_id, entry in recorded.items():
        op = operation(doc, operation_id)
        bodies = [(op.get("requestBody"), entry.get("request", {}))]
        bodies += [(op["responses"][status], named) for status, named in entry["responses"].items()]
        for body, named in bodies:
            schema = named and next(iter(body["content"].values()))["schema"]
            for value in named.values():
                validate(
                    value, {"allOf": [schema], "components": doc["components"]}, cls=OAS30Validator
                )
                count += 1
    return count


def shape(recorded: dict) -> dict:
    return {
        op: {
            "request": sorted(entry.get("request", {})),
            "responses": {s: sorted(n) for s, n in entry["responses"].items()},
        }
        for op, entry in recorded.items()
    }


@pytest.mark.slow  # over a second: not in make test-fast
def test_the_committed_examples_fit_the_document_and_are_in_it():
    doc, recorded = document(), examples.load()
    assert check_examples(doc, recorded) > 40
    view = operation(doc, "getView")["responses"]["200"]["content"]["application/json"]
    assert (
        view["examples"]["nautilus"]["value"] == recorded["getView"]["responses"]["200"]["nautilus"]
    )
    move = operation(doc, "playMove")
    assert (
        "stale version"
        in move["responses"]["409"]["content"]["application/problem+json"]["examples"]
    )
    assert move["requestBody"]["content"]["application/json"]["examples"]


def test_every_game_has_its_examples():
    recorded = examples.load()
    for operation_id in ("getView", "getLegalMoves", "getGame", "getLog"):
        games = {
            value.get("game", name)
            for name, value in recorded[operation_id]["responses"]["200"].items()
        }
        assert games == {"buttons", "consonar", "nautilus", "ninedomains"}, operation_id


@pytest.mark.slow  # over a second: not in make test-fast
def test_recording_them_again_gives_the_same_kinds_of_example(redis_client):
    """`turnpost examples` still works, and what it records now fits the document too."""
    fresh = examples.record(create_app(redis_client).test_client())
    assert shape(fresh) == shape(examples.load())
    check_examples(document(), fresh)
