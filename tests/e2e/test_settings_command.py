"""`turnpost settings`, run as a process: every setting with its value, default and meaning,
and never a secret."""

import os
import subprocess
import sys
from dataclasses import fields

from api.front_door import FrontDoor
from service.settings import Settings
from tests.e2e.server import ROOT

SECRETS = {
    "INBOUND_SECRET": "inbound-secret-4711",
    "LINK_SIGNING_KEYS": "link-key-new-4711,link-key-old-4711",
    "WEBHOOK_SECRET_KEYS": "fernet-key-4711",
    "SMTP_URL": "smtp://mailer:smtp-password-4711@mail.example:587?starttls=true",
}


def turnpost_settings(**env: str) -> subprocess.CompletedProcess:
    variables = {field.name.upper() for cls in (Settings, FrontDoor) for field in fields(cls)}
    clean = {name: value for name, value in os.environ.items() if name not in variables}
    return subprocess.run(
        [sys.executable, "-m", "turnpost.cli", "settings"],
        env={**clean, **env},
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_it_prints_every_setting_with_its_value_default_and_meaning():
    done = turnpost_settings(BOT_DELAY_SECONDS="2.5", RATE_LIMITS="off")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    for cls in (Settings, FrontDoor):
        for field in fields(cls):
            assert any(line.startswith(f"{field.name.upper()}=") for line in lines), (
                f"{field.name.upper()} is missing"
            )
            assert field.metadata["meaning"] in done.stdout
    assert "BOT_DELAY_SECONDS=2.5" in lines and "RATE_LIMITS=off" in lines
    assert "# a bot seat moves this long after its turn begins (default: 1.0)" in lines


def test_it_never_prints_a_secret():
    done = turnpost_settings(**SECRETS)
    assert done.returncode == 0, done.stderr
    printed = done.stdout + done.stderr
    for secret in ("inbound-secret-4711", "link-key", "fernet-key-4711", "smtp-password-4711"):
        assert secret not in printed
    lines = printed.splitlines()
    assert "SMTP_URL=smtp://mailer:***@mail.example:587?starttls=true" in lines
    assert "LINK_SIGNING_KEYS=***,***" in lines and "INBOUND_SECRET=***" in lines


def test_a_value_that_does_not_read_is_named_without_a_traceback():
    done = turnpost_settings(WEBHOOK_ALLOW_HTTP="maybe")
    assert done.returncode == 2
    assert "WEBHOOK_ALLOW_HTTP" in done.stderr and "Traceback" not in done.stderr
