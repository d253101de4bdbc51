"""A player's data from the settings page: a download of everything the server holds about
them (the JSON of GET /v1/players/me/export), and a button that deletes the account after
asking first. Flask's test client, a real Valkey, a real SMTP peer for the sign-in link."""

import json

from tests.web.test_sessions import ada, app, signed_in  # noqa: F401 (fixtures)


def test_the_settings_page_downloads_my_data(app, smtp, ada):  # noqa: F811
    player, _ = ada
    browser = signed_in(app, smtp)
    assert 'href="/settings/export"' in browser.text("/settings")
    r = browser.get("/settings/export")
    assert r.status_code == 200 and r.mimetype == "application/json"
    assert r.headers["Content-Disposition"].startswith("attachment;")
    assert json.loads(r.get_data())["profile"]["id"] == player


def test_the_settings_page_deletes_my_account_after_asking(app, smtp, ada):  # noqa: F811
    player, token = ada
    browser = signed_in(app, smtp)
    assert 'href="/settings/delete"' in browser.text("/settings")
    asked = browser.text("/settings/delete")
    assert "Delete your account?" in asked and "cannot be undone" in asked
    assert (
        app.test_client()
        .get("/v1/players/me", headers={"Authorization": f"Bearer {token}"})
        .status_code
        == 200
    )  # asking deleted nothing
    r = browser.post("/settings/delete")
    assert r.status_code == 303 and r.headers["Location"] == "/"
    assert "Your account is deleted" in browser.text("/")
    assert browser.get("/settings").status_code == 303  # signed out: to the sign-in page
    assert (
        app.test_client()
        .get("/v1/players/me", headers={"Authorization": f"Bearer {token}"})
        .status_code
        == 401
    )
    assert app.test_client().get(f"/v1/players/{player}").status_code in (401, 404)
