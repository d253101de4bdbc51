"""The web client's tests: an app with a real SMTP peer, and a browser made of Flask's test
client that keeps its cookies and sends each form with its page's CSRF token."""

import re

import pytest
from markupsafe import escape

from api.app import create_app
from service.settings import Settings
from tests.peers import text_of
from transports.mailer import SmtpMailer

CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')


@pytest.fixture
def app(redis_client, smtp):
    return create_app(
        redis_client,
        mailer=SmtpMailer(smtp.url),
        settings=Settings(public_url="http://turnpost.test"),
    )


@pytest.fixture
def services(app):
    return app.extensions["turnpost"]["services"]


class Browser:
    """A test client that keeps its cookies and sends each form with the page's CSRF token."""

    def __init__(self, app):
        self.client = app.test_client()
        self.token = None

    def get(self, path, **kw):
        r = self.client.get(path, **kw)
        found = CSRF.search(r.get_data(as_text=True))
        if found:
            self.token = found.group(1)
        return r

    def post(self, path, data=None, csrf=True, **kw):
        if csrf and self.token is None:
            self.get("/sign-in")  # a page with a form, so with a token
        data = {**({"csrf_token": self.token} if csrf else {}), **(data or {})}
        r = self.client.post(path, data=data, **kw)
        found = CSRF.search(r.get_data(as_text=True))
        if found:
            self.token = found.group(1)
        return r

    def text(self, path, **kw):
        return self.get(path, **kw).get_data(as_text=True)


def sign_up(browser, services, smtp, name, email):
    """Sign up, then follow the emailed link (the worker's job, run here) and press its button."""
    browser.get("/sign-up")
    r = browser.post("/sign-up", {"name": name, "email": email})
    assert r.status_code == 200 and "Check your email" in r.get_data(as_text=True)
    assert services.sign_in.send_links(email) == 1  # what the worker does with the request
    message = smtp.wait_for(lambda m, rcpt: email in rcpt)
    link = re.search(r"http://turnpost\.test(/sign-in/[A-Za-z0-9_-]+)", text_of(message)).group(1)
    page = browser.get(link)
    assert f"Sign in as {escape(name)}" in page.get_data(as_text=True)
    r = browser.post(link)
    assert r.status_code == 303
    return r
