"""The first minutes of a person running turnpost: a port already taken and a Redis that is not
there are said plainly, at once, instead of retried or found at the first email."""

import socket
import subprocess
import sys

from store.embedded import free_port
from tests.e2e.server import ROOT


def run(*args: str, env: dict[str, str] | None = None, timeout: float = 30):
    import os

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
