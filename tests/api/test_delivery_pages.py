"""The delivery log in pages: following `next` reads every kept delivery once, newest first,
and a delivery recorded meanwhile does not shift the pages. Real Valkey, the app over WSGI."""

from api.app import create_app
from api.front_door import FrontDoor


def test_following_next_reads_every_delivery_once(redis_client):
    app = create_app(redis_client, front_door=FrontDoor(rate_limits=False))
    notes = app.extensions["turnpost"]["services"].notifications.notes
    client = app.test_client()
    ada = client.post("/v1/players", json={"name": "Ada"}).json
    headers = {"Authorization": f"Bearer {ada['token']}"}

    def record(n):
        notes.record(
            ada["id"],
            {
                "id": f"d{n}",
                "at": "2026-11-24T12:00:00Z",
                "channel": "email",
                "event": "turn.started",
                "game_id": "g_x",
                "version": n,
                "status": "sent",
                "detail": "to ada@example.org",
                "attempt": 1,
            },
        )

    for n in range(1, 24):
        record(n)
    url, seen = "/v1/players/me/deliveries?limit=5", []
    while url:
        page = client.get(url, headers=headers)
        assert page.status_code == 200, page.json
        seen += [d["id"] for d in page.json["deliveries"]]
        if len(seen) == 5:
            record(24)  # a new delivery while paging: the next pages do not shift
        url = page.json["next"]
        if url:
            assert page.headers["Link"] == f'<{url}>; rel="next"'
    assert seen == [f"d{n}" for n in range(23, 0, -1)]
    assert (
        "seq" not in client.get("/v1/players/me/deliveries", headers=headers).json["deliveries"][0]
    )
