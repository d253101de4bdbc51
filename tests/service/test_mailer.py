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
