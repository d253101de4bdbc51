"""The table-talk operations through the Flask app (a real Valkey): answers as the OpenAPI
document says, with its error codes; a takeback proposed and accepted over the API."""

from __future__ import annotations

import json
from pathlib import Path

from openapi_schema_validator import OAS30Validator, validate

from tests.api.conftest import befriend

DOCUMENT = json.loads(
    (Path(__file__).resolve().parents[2] / "openapi" / "openapi.json").read_text()
)


def valid(body, name):
    validate(
        body,
        {"allOf": [{"$ref": f"#/components/schemas/{name}"}], "components": DOCUMENT["components"]},
        cls=OAS30Validator,
    )
    return body


def a_game(client, register, title="ninedomains", count=2):
    people = [register(f"P{i}") for i in range(count)]
    for _, headers in people[1:]:
        befriend(client, headers, people[0][0])
    r = client.post(
        "/v1/games",
        json={"game": title, "seats": [pid for pid, _ in people]},
        headers=people[0][1],
    )
    assert r.status_code == 201, r.json
    return r.json["id"], people


def test_chat_answers_as_documented(client, register):
    game_id, [(_, ada), (_, bo)] = a_game(client, register)
    r = client.post(f"/v1/games/{game_id}/chat", json={"text": "hello"}, headers=ada)
    assert r.status_code == 201
    valid(r.json, "ChatMessage")
    r = client.get(f"/v1/games/{game_id}/chat", headers=bo)
    assert valid(r.json, "ChatList")["messages"][0]["text"] == "hello" and r.json["next"] is None
    r = client.post(f"/v1/games/{game_id}/chat", json={"text": "psst", "to": 0}, headers=bo)
    assert r.status_code == 422 and r.json["code"] == "chat/bad_recipient"
    r = client.post(f"/v1/games/{game_id}/chat", json={"text": "x" * 501}, headers=bo)
    assert r.status_code == 422 and r.json["code"] == "request/invalid"
    entry = client.get(f"/v1/games/{game_id}/log", headers=bo).json["entries"][-1]
    assert entry["message"] == {"text": "hello", "private": False, "to": None}
    valid(client.get(f"/v1/games/{game_id}/log", headers=bo).json, "Log")


def test_a_takeback_over_the_api(client, register):
    game_id, [(_, ada), (_, bo)] = a_game(client, register)
    view_before = client.get(f"/v1/games/{game_id}/view", headers=ada).json
    moves = client.get(f"/v1/games/{game_id}/legal-moves", headers=ada).json
    r = client.post(
        f"/v1/games/{game_id}/moves",
        json={"action": moves["moves"][0]["action"], "expected_version": moves["version"]},
        headers=ada,
    )
    assert r.status_code == 201
    listed = valid(client.get(f"/v1/games/{game_id}/proposals", headers=ada).json, "ProposalList")
    assert listed["proposals"] == [] and "takeback" in listed["may_propose"]
    assert (
        "takeback"
        not in client.get(f"/v1/games/{game_id}/proposals", headers=bo).json["may_propose"]
    )
    r = client.post(f"/v1/games/{game_id}/proposals", json={"kind": "takeback"}, headers=ada)
    assert r.status_code == 201, r.json
    proposal = valid(r.json, "Proposal")
    assert (proposal["status"], proposal["waiting"]) == ("open", [1])
    r = client.post(f"/v1/games/{game_id}/proposals", json={"kind": "takeback"}, headers=ada)
    assert r.status_code == 409 and r.json["code"] == "proposal/not_allowed"
    r = client.post(
        f"/v1/games/{game_id}/proposals/{proposal['id']}/answer", json={"accept": True}, headers=ada
    )
    assert r.status_code == 409 and r.json["code"] == "proposal/not_asked"
    r = client.post(
        f"/v1/games/{game_id}/proposals/{proposal['id']}/answer", json={"accept": True}, headers=bo
    )
    assert r.status_code == 200 and valid(r.json, "Proposal")["status"] == "accepted"
    view_after = client.get(f"/v1/games/{game_id}/view", headers=ada).json
    assert {**view_after, "version": 0} == {**view_before, "version": 0}
    r = client.post(
        f"/v1/games/{game_id}/proposals/{proposal['id']}/answer", json={"accept": True}, headers=bo
    )
    assert r.status_code == 404 and r.json["code"] == "proposal/not_found"
    log = client.get(f"/v1/games/{game_id}/log", headers=bo).json["entries"]
    assert [e["type"] for e in log[-3:]] == ["ActionTaken", "ProposalMade", "ProposalClosed"]
    assert "accept: P0's last move is taken back" in log[-1]["lines"][0]["text"]


def test_proposal_requests_that_do_not_read_are_refused(client, register):
    game_id, [(_, ada), _] = a_game(client, register, "nautilus")
    for body in (
        {"kind": "surrender"},
        {"kind": "pause", "days": 0},
        {"kind": "pause", "days": "3"},
    ):
        r = client.post(f"/v1/games/{game_id}/proposals", json=body, headers=ada)
        assert r.status_code == 422 and r.json["code"] == "request/invalid", body
    r = client.post(
        f"/v1/games/{game_id}/proposals", json={"kind": "pause", "days": 3}, headers=ada
    )
    assert r.status_code == 409 and "no clock" in r.json["message"]
    for proposal in ("12", "\u00b2", "\u0661\u0662", "1" * 16, "-1"):  # ², Arabic-Indic 12
        for verb in ("withdraw", "answer"):
            r = client.post(
                f"/v1/games/{game_id}/proposals/{proposal}/{verb}",
                json={"accept": True},
                headers=ada,
            )
            assert r.status_code == 404 and r.json["code"] == "proposal/not_found", proposal


def test_blocks_and_reports_over_the_api(client, register):
    game_id, [(ada_id, ada), (bo_id, bo)] = a_game(client, register, "buttons")
    r = client.put("/v1/players/me/blocked", json={"blocked": [bo_id]}, headers=ada)
    assert r.status_code == 200 and valid(r.json, "Blocked")["blocked"][0]["id"] == bo_id
    assert client.get("/v1/players/me/blocked", headers=ada).json == r.json
    r = client.put("/v1/players/me/blocked", json={"blocked": [ada_id]}, headers=ada)
    assert r.status_code == 422 and r.json["code"] == "player/invalid_friends"
    said = client.post(f"/v1/games/{game_id}/chat", json={"text": "boo"}, headers=bo).json
    assert client.get(f"/v1/games/{game_id}/chat", headers=ada).json["messages"] == []
    r = client.post(
        "/v1/reports",
        json={"reason": "rude", "game_id": game_id, "message": said["version"]},
        headers=ada,
    )
    assert r.status_code == 202 and valid(r.json, "ReportReceived")["status"] == "received"
    r = client.post("/v1/reports", json={"reason": "rude"}, headers=ada)
    assert r.status_code == 422 and r.json["code"] == "report/invalid"
    lobby = client.post("/v1/games", json={"game": "buttons", "seats": [bo_id, None]}, headers=bo)
    listed = client.get("/v1/games?status=open", headers=ada).json["games"]
    assert lobby.json["id"] not in [g["id"] for g in listed]
    r = client.post(f"/v1/games/{lobby.json['id']}/join", json={}, headers=ada)
    assert r.status_code == 409 and r.json["code"] == "game/blocked"


def test_the_chat_pages_on_by_next_and_link(client, register):
    """A page of the chat names the next one twice (`next`, and the Link header), reading on
    after the last message it read; the last page names none."""
    game_id, [(_, ada), (_, bo)] = a_game(client, register)
    for text in ("one", "two", "three"):
        r = client.post(f"/v1/games/{game_id}/chat", json={"text": text}, headers=ada)
        assert r.status_code == 201, r.json
    first = client.get(f"/v1/games/{game_id}/chat?limit=2", headers=bo)
    assert [m["text"] for m in valid(first.json, "ChatList")["messages"]] == ["one", "two"]
    after = first.json["messages"][-1]["version"]
    assert first.json["next"] == f"/v1/games/{game_id}/chat?after={after}&limit=2"
    assert first.headers["Link"] == f'<{first.json["next"]}>; rel="next"'
    last = client.get(first.json["next"], headers=bo)
    assert [m["text"] for m in last.json["messages"]] == ["three"]
    assert last.json["next"] is None and "Link" not in last.headers
