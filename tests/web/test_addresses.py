"""The web client says where an address stands: signing up sends the letter that confirms it,
whose link page says so; a new address in the settings is not confirmed until its own link is
followed, and the settings say that until then it gets nothing. Flask's test client, a real
Valkey, a real SMTP peer (aiosmtpd)."""

import re

from tests.peers import text_of
from tests.web.conftest import Browser


def link_in(smtp, address: str) -> str:
    message = smtp.wait_for(lambda m, rcpt: address in rcpt)
    with smtp.changed:
        smtp.messages[:] = [x for x in smtp.messages if x[1] is not message]
    assert message["Subject"] == "[turnpost] Confirm your email address"
    return re.search(r"http://turnpost\.test(/sign-in/[A-Za-z0-9_-]+)", text_of(message)).group(1)


def test_sign_up_confirms_the_address_and_a_new_one_waits_for_its_own_link(app, services, smtp):
    browser = Browser(app)
    browser.get("/sign-up")
    r = browser.post("/sign-up", {"name": "Ada", "email": "ada@example.org"})
    assert "until you open its link" in r.get_data(as_text=True)
    assert services.sign_in.send_links("ada@example.org", "confirm") == 1  # the worker's part
    link = link_in(smtp, "ada@example.org")
    page = browser.text(link)
    assert "confirms that <strong>ada@example.org</strong> is your address" in page
    assert browser.post(link).status_code == 303
    assert "Not confirmed yet" not in browser.text("/settings")
    ada = services.players.named("Ada")[0]["id"]
    assert services.players.profile(ada)["email_confirmed"] is True
    r = browser.post("/settings", {"name": "Ada", "email": "ada@new.example.org"})
    assert r.status_code == 303
    settings = browser.text("/settings")
    assert "ada@new.example.org is not confirmed yet" in settings  # the flash
    assert 'aria-describedby="email-status"' in settings and "Not confirmed yet" in settings
    assert services.players.profile(ada)["email_confirmed"] is False
    assert services.sign_in.send_links("ada@new.example.org", "confirm") == 1
    link = link_in(smtp, "ada@new.example.org")
    assert browser.post(link).status_code == 303
    assert "Not confirmed yet" not in browser.text("/settings")
    assert services.players.profile(ada)["email_confirmed"] is True
