"""/v1/tournaments through the API: creating one, bad settings answered with a clear code,
signing up and withdrawing, the lists, and every answer exactly what its schema dumps. The
worker's part (the start, the games) is carried out in this process."""

from __future__ import annotations

import pytest

from api.tournament_schemas import TournamentListSchema, TournamentSchema

CLOCK = {"per_move_seconds": 86400, "on_timeout": "forfeit"}
BODY = {"game": "ninedomains", "format": "round_robin", "size": 3, "time_control": CLOCK}


def test_a_tournament_from_creation_to_its_first_games(client, register, worker):
    creator, headers = register("Ada")
    r = client.post("/v1/tournaments", json={**BODY, "name": "Autumn cup"}, headers=headers)
    assert r.status_code == 201, r.json
    made = r.json
    assert r.headers["Location"] == f"/v1/tournaments/{made['id']}"
    assert made["status"] == "signup" and made["name"] == "Autumn cup"
    assert made["created_by"] == creator
    assert made["tiebreak"] == "sonneborn_berger" and made["players"] == []
    assert TournamentSchema().dump(made) == made
    lobby = client.get("/v1/tournaments", headers=headers).json
    assert [t["id"] for t in lobby["tournaments"]] == [made["id"]]
    assert TournamentListSchema().dump(lobby) == lobby
    others = [register(f"P{i}") for i in range(3)]
    for _, h in others:
        r = client.post(f"/v1/tournaments/{made['id']}/signup", headers=h)
        assert r.status_code == 200, r.json
    assert r.json["you"] == {"signed_up": True, "withdrawn": None}
    again = client.post(f"/v1/tournaments/{made['id']}/signup", headers=others[0][1])
    assert again.status_code == 409 and again.json["code"] == "tournament/already_signed_up"
    late = client.post(f"/v1/tournaments/{made['id']}/signup", headers=headers)
    assert late.status_code == 409 and late.json["code"] == "tournament/closed"
    worker()
    shown = client.get(f"/v1/tournaments/{made['id']}", headers=headers).json
    assert shown["status"] == "running" and shown["you"] == {"signed_up": False, "withdrawn": None}
    assert TournamentSchema().dump(shown) == shown
    assert len(shown["pairings"][0]["games"]) == 3
    assert [s["place"] for s in shown["standings"]] == [1, 1, 1]
    mine = client.get("/v1/tournaments?entered=me", headers=others[0][1]).json["tournaments"]
    assert [t["id"] for t in mine] == [made["id"]]
    game = shown["pairings"][0]["games"][0]
    summary = client.get(f"/v1/games/{game['game_id']}", headers=headers).json
    assert summary["tournament"] == {"id": made["id"], "round": 1, "board": 1}
    quits = client.post(f"/v1/tournaments/{made['id']}/withdraw", headers=others[2][1])
    assert quits.status_code == 200 and quits.json["you"]["withdrawn"] == "withdrew"
    again = client.post(f"/v1/tournaments/{made['id']}/withdraw", headers=others[2][1])
    assert again.status_code == 409 and again.json["code"] == "tournament/not_entered"


@pytest.mark.parametrize(
    "change,status,code",
    [
        ({"size": 11}, 422, "tournament/invalid"),
        ({"size": 65}, 422, "request/invalid"),
        ({"size": "4"}, 422, "request/invalid"),
        ({"format": "knockout"}, 422, "request/invalid"),
        ({"game": "chess"}, 422, "game/unknown"),
        ({"time_control": None}, 422, "request/invalid"),
        ({"time_control": {"per_move_seconds": 5}}, 422, "game/invalid_time_control"),
        ({"time_control": {}}, 422, "game/invalid_time_control"),  # a clock without its time
        ({"time_control": {"kind": "none"}}, 422, "game/invalid_time_control"),
        ({"options": {"specials": "never"}}, 422, "game/invalid_options"),
        ({"format": "swiss", "size": 8, "rounds": 8}, 422, "tournament/invalid"),
        ({"start_at": "2001-01-01T00:00:00Z"}, 422, "tournament/invalid"),
        ({"start_at": "tomorrow"}, 422, "request/invalid"),
        ({"start_at": "2030-01-01T00:00:00"}, 422, "request/invalid"),  # no time zone
        ({"name": "x" * 81}, 422, "request/invalid"),
        ({"rated": "yes"}, 422, "request/invalid"),
    ],
)
@pytest.mark.slow  # over a second: not in make test-fast
def test_bad_settings_are_refused_with_a_code(client, register, change, status, code):
    _, headers = register("Ada")
    r = client.post("/v1/tournaments", json={**BODY, **change}, headers=headers)
    assert (r.status_code, r.json["code"]) == (status, code), r.json
    assert r.json["message"]


def test_unknown_tournaments_and_strangers(client, register):
    _, headers = register("Ada")
    for method, path in [
        ("get", "/v1/tournaments/t_nothere"),
        ("post", "/v1/tournaments/t_nothere/signup"),
        ("post", "/v1/tournaments/t_nothere/withdraw"),
        ("get", "/v1/tournaments/t_nothere/stream"),
    ]:
        r = getattr(client, method)(path, headers=headers)
        assert (r.status_code, r.json["code"]) == (404, "tournament/not_found"), path
    made = client.post("/v1/tournaments", json=BODY, headers=headers).json
    r = client.post(f"/v1/tournaments/{made['id']}/withdraw", headers=headers)
    assert (r.status_code, r.json["code"]) == (409, "tournament/not_entered")
    assert client.get(f"/v1/tournaments/{made['id']}").status_code == 401
    r = client.get("/v1/tournaments?entered=you", headers=headers)
    assert (r.status_code, r.json["code"]) == (422, "request/invalid")
