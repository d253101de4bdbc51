"""The first minutes of a person running turnpost: a port already taken and a Redis that is not
there are said plainly, at once, instead of retried or found at the first email."""

import os
import smtplib
import socket
import subprocess
import sys
import time

from store.embedded import free_port
from tests.e2e.server import ROOT, LiveServer


def run(*args: str, env: dict[str, str] | None = None, timeout: float = 30):
    return subprocess.run(
        [sys.executable, "-m", "turnpost.cli", *args],
        cwd=ROOT,
        env={**os.environ, **(env or {})},
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def test_serve_on_a_taken_port_names_it_and_says_how_to_choose_another(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = run("serve", "--port", str(port), "--data", str(tmp_path / "data"))
    assert done.returncode == 2, done.stdout + done.stderr
    assert f"port {port} is taken" in done.stderr
    assert "make serve PORT=" in done.stderr and "--port" in done.stderr
    assert "Traceback" not in done.stdout + done.stderr
    assert not (tmp_path / "data").exists(), "nothing was started for a server that cannot run"


def test_mail_in_refuses_to_start_without_redis():
    nobody = f"redis://127.0.0.1:{free_port()}/0"
    done = run(
        "mail-in",
        "--port",
        str(free_port()),
        env={"REDIS_URL": nobody, "MAIL_DOMAIN": "play.example.org"},
    )
    assert done.returncode == 2, done.stdout + done.stderr
    assert "cannot reach Redis" in done.stderr and f"{nobody.split('//')[1]}" in done.stderr
    assert "Traceback" not in done.stderr


def test_serve_with_a_mail_domain_receives_emailed_moves_too(tmp_path):
    """Play by email tried locally: `make serve` with MAIL_DOMAIN runs the receiver as well."""

    port = free_port()
    server = LiveServer(
        "--data",
        str(tmp_path / "data"),
        "--mail-in-port",
        str(port),
        env={"MAIL_DOMAIN": "play.localhost"},
    ).wait_ready()
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                smtp = smtplib.SMTP("127.0.0.1", port, timeout=10)
                break
            except OSError:
                assert time.monotonic() < deadline, server.printed()
                time.sleep(0.2)
        with smtp:
            smtp.ehlo()
            assert smtp.mail("ada@example.org")[0] == 250
            assert smtp.rcpt("someone@elsewhere.example")[0] == 550  # not our domain
            # the shape of a turn email's Reply-To on this domain (its token is checked later)
            assert smtp.rcpt("move+" + "0" * 32 + ".1@play.localhost")[0] == 250
        assert f"received on SMTP 127.0.0.1:{port}" in server.printed()
    finally:
        server.stop()
    with socket.socket() as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        probe.bind(("127.0.0.1", port))  # the receiver stopped with the server


def test_a_setting_that_does_not_read_stops_every_command_at_once_naming_it(tmp_path):
    """Before anything is started: no server that half runs, no traceback."""
    for args in (
        ("serve", "--port", str(free_port()), "--data", str(tmp_path / "data")),
        ("worker",),
        ("mail-in", "--port", str(free_port())),
    ):
        done = run(*args, env={"BOT_DELAY_SECONDS": "soon", "MAIL_DOMAIN": "play.localhost"})
        assert done.returncode == 2, (args, done.stdout + done.stderr)
        assert "BOT_DELAY_SECONDS" in done.stderr and "Traceback" not in done.stderr, args
    assert not (tmp_path / "data").exists()
