"""Sending over real SMTP: plain, and with STARTTLS and login, against aiosmtpd."""

import smtplib
import ssl
import subprocess
from email.message import EmailMessage

import pytest
from aiosmtpd.smtp import AuthResult

from tests.peers import SmtpInbox
from transports.mailer import OutboxMailer, SmtpMailer, mailer_for


def message(to="ada@example.org"):
    m = EmailMessage()
    m["From"], m["To"], m["Subject"] = "turnpost <t@play.test>", to, "Your turn"
    m["X-Turnpost-Delivery"] = "email-g_1-0-3-turn_started"
    m.set_content("It is your turn.")
    return m


@pytest.fixture
def certificate(tmp_path):
    key, cert = tmp_path / "key.pem", tmp_path / "cert.pem"
    subprocess.run(
        [
            "openssl",
            "req",
            "-x509",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-days",
            "1",
            "-subj",
            "/CN=127.0.0.1",
            "-addext",
            "subjectAltName=IP:127.0.0.1",
            "-keyout",
            str(key),
            "-out",
            str(cert),
        ],
        check=True,
        capture_output=True,
    )
    return key, cert


def test_plain_smtp_delivers():
    with SmtpInbox() as inbox:
        SmtpMailer(inbox.url).send(message())
        got = inbox.wait_for(lambda m, r: "ada@example.org" in r)
    assert got["Subject"] == "Your turn"


def test_starttls_and_login_when_the_url_has_a_user(certificate):
    key, cert = certificate
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(cert, key)
    logins = []

    def authenticator(server, session, envelope, mechanism, auth_data):
        logins.append((auth_data.login, auth_data.password))
        return AuthResult(success=auth_data.password == b"s3cret")

    with SmtpInbox(
        tls_context=context, require_starttls=True, auth_required=True, authenticator=authenticator
    ) as inbox:
        url = f"smtp://mailer:s3cret@127.0.0.1:{inbox.port}?starttls=true&cafile={cert}"
        SmtpMailer(url).send(message())
        inbox.wait_for(lambda m, r: "ada@example.org" in r)
        assert logins == [(b"mailer", b"s3cret")]
        with pytest.raises(smtplib.SMTPSenderRefused):  # no user in the URL: no login
            SmtpMailer(f"smtp://127.0.0.1:{inbox.port}?cafile={cert}").send(
                message("bo@example.org")
            )
        assert inbox.to("bo@example.org") == []


def test_a_session_sends_its_emails_over_one_connection():
    with SmtpInbox() as inbox:
        mailer = SmtpMailer(inbox.url)
        with mailer.session():
            for name in ("ada", "bo", "cy"):
                mailer.send(message(f"{name}@example.org"))
        mailer.send(message("di@example.org"))  # outside a session: a connection of its own
        inbox.wait_for(lambda m, r: "di@example.org" in r)
    assert [r for r, _, _ in inbox.messages] == [
        ["ada@example.org"],
        ["bo@example.org"],
        ["cy@example.org"],
        ["di@example.org"],
    ]
    assert len(set(inbox.peers[:3])) == 1 and inbox.peers[3] != inbox.peers[0]


def test_a_session_whose_server_dropped_it_connects_again():
    """A server that went away between two sends of a session (a restart, an idle client
    dropped): the NOOP before the next send finds it out, and that email goes on a new
    connection. One that fails on a connection fails alone: the next opens another."""
    with SmtpInbox() as inbox:
        mailer = SmtpMailer(inbox.url)
        mailer.IDLE_CHECK_SECONDS = 0.0
        with mailer.session():
            mailer.send(message("ada@example.org"))
            inbox.down()
            inbox.up()
            mailer.send(message("bo@example.org"))
            inbox.down()
            with pytest.raises(OSError):
                mailer.send(message("cy@example.org"))
            inbox.up()
            mailer.send(message("di@example.org"))
        inbox.wait_for(lambda m, r: "di@example.org" in r)
    assert [r for r, _, _ in inbox.messages] == [
        ["ada@example.org"],
        ["bo@example.org"],
        ["di@example.org"],
    ]
    assert len(set(inbox.peers)) == 3


def test_no_smtp_url_means_the_outbox_folder(tmp_path):
    mailer = mailer_for(None, tmp_path / "outbox")
    assert isinstance(mailer, OutboxMailer)
    mailer.send(message())
    files = list((tmp_path / "outbox").glob("*.eml"))
    assert len(files) == 1 and files[0].name.endswith("email-g_1-0-3-turn_started.eml")
    assert b"It is your turn." in files[0].read_bytes()


def test_a_bad_smtp_url_is_refused_at_start():
    with pytest.raises(ValueError):
        SmtpMailer("http://example.org")
