"""Running `turnpost serve` as a real process, the way a person runs it."""

from __future__ import annotations

import contextlib
import os
import re
import signal
import smtplib
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import requests

from store.embedded import free_port

ROOT = Path(__file__).resolve().parents[2]


class LiveServer:
    def __init__(
        self,
        *args: str,
        redis_url: str | None = None,
        cwd: Path = ROOT,
        env: dict[str, str] | None = None,
    ):
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        # Every test's players register from 127.0.0.1 and the limit is counted in the shared
        # Valkey, so the per-address registration limit is raised here; the limits themselves
        # are tried by test_rate_limits with their own values.
        env = {
            **{k: v for k, v in os.environ.items() if k != "REDIS_URL"},
            "LIMIT_REGISTER_PER_IP": "100000/minute",
            **(env or {}),
        }
        if redis_url:
            env["REDIS_URL"] = redis_url
        if env.get("MAIL_DOMAIN") and "--mail-in-port" not in args:
            # serve runs mail-in too: on a port of its own, as tests run side by side
            args = (*args, "--mail-in-port", str(free_port()))
        self.output = tempfile.TemporaryFile()
        # its own process group, so that stop() signals it the way Ctrl-C in a terminal does
        self.process = subprocess.Popen(
            [sys.executable, "-m", "turnpost.cli", "serve", "--port", str(self.port), *args],
            env=env,
            cwd=cwd,
            stdout=self.output,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    def wait_ready(self, timeout: float = 60.0) -> LiveServer:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError("turnpost serve exited:\n" + self.printed())
            try:
                if requests.get(self.url + "/v1/catalog", timeout=5).status_code == 200:
                    return self
            except requests.RequestException:
                pass
            time.sleep(0.1)
        self.stop()
        raise RuntimeError("turnpost serve did not answer in time")

    def stop(self) -> None:
        """Stop as Ctrl-C would (SIGINT to the whole process group); whatever is still
        running after that is killed, so no process outlives the test."""
        group = self.process.pid
        if self.process.poll() is None:
            os.killpg(group, signal.SIGINT)
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.process.wait(30)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(group, signal.SIGKILL)
        self.process.wait()

    def printed(self) -> str:
        self.output.seek(0)
        return self.output.read().decode(errors="replace")


class MailIn:
    """`turnpost mail-in` as a real process: the SMTP server that takes players' replies."""

    def __init__(self, redis_url: str, env: dict[str, str]):
        self.port = free_port()
        self.output = tempfile.TemporaryFile()
        self.process = subprocess.Popen(
            [sys.executable, "-m", "turnpost.cli", "mail-in", "--port", str(self.port)],
            env={**os.environ, **env, "REDIS_URL": redis_url},
            cwd=ROOT,
            stdout=self.output,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    def wait_ready(self, timeout: float = 30.0) -> MailIn:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                self.output.seek(0)
                raise RuntimeError("turnpost mail-in exited:\n" + self.output.read().decode())
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return self
            except OSError:
                time.sleep(0.1)
        raise RuntimeError("turnpost mail-in did not listen in time")

    def send(self, message) -> None:
        with smtplib.SMTP("127.0.0.1", self.port, timeout=30) as smtp:
            smtp.send_message(message)

    def stop(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait()


class Client:
    """A player talking to a live server with requests."""

    def __init__(self, base: str, name: str, email: str | None = None):
        self.base = base
        self.name, self.email = name, email
        r = requests.post(f"{base}/v1/players", json={"name": name, "email": email}, timeout=10)
        assert r.status_code == 201, r.text
        self.id = r.json()["id"]
        self.headers = {"Authorization": f"Bearer {r.json()['token']}"}

    def get(self, path, **kw):
        return requests.get(self.base + path, headers=self.headers, timeout=30, **kw)

    def post(self, path, body=None, **kw):
        return requests.post(
            self.base + path, json=body or {}, headers=self.headers, timeout=30, **kw
        )

    def confirm(self, outgoing) -> None:
        """Follow the link that confirms this player's address (see confirm_address)."""
        assert self.email, "the player registered without an address"
        confirm_address(outgoing, self.base, self.name, self.email)
        assert self.get("/v1/players/me").json()["email_confirmed"] is True

    def befriend(self, *others: Client) -> None:
        """Let `others` seat this player in their games without an invitation (the set-up of
        tests about playing, not inviting)."""
        r = requests.put(
            self.base + "/v1/players/me/friends",
            headers=self.headers,
            json={"friends": [other.id for other in others]},
            timeout=30,
        )
        assert r.status_code == 200, r.text


def confirm_address(outgoing, base: str, name: str, email: str, timeout: float = 30.0) -> None:
    """The owner of `email` follows the link for the account `name` in the letter that
    confirms the address (the server's worker sent it to `outgoing`, a tests.peers.SmtpInbox),
    as a person does in a browser: the link's page, then its button. The letter leaves the
    inbox, so that a test counts the emails that come after."""
    from tests.peers import text_of  # aiosmtpd is the tests' (the soak imports this module)

    message = outgoing.wait_for(
        lambda m, rcpt: (
            email.lower() in [r.lower() for r in rcpt] and m["X-Turnpost-Event"] == "sign_in.link"
        ),
        timeout=timeout,
    )
    with outgoing.changed:
        outgoing.messages[:] = [x for x in outgoing.messages if x[1] is not message]
    found = re.search(
        rf"Sign in as {re.escape(name)}: \S+?(/sign-in/[A-Za-z0-9_-]+)", text_of(message)
    )
    assert found, f"no link for {name} in the letter"
    browser = requests.Session()
    page = browser.get(base + found.group(1), timeout=30)
    token = re.search(r'name="csrf_token" value="([^"]+)"', page.text).group(1)
    done = browser.post(base + found.group(1), data={"csrf_token": token}, timeout=30)
    assert done.ok and f"Sign out {name}" in done.text, done.text


# The processes of a live server, from /proc (for the tests and the soak that signal them).


def children(pid: int) -> list[int]:
    """The direct children of a process, from /proc (every thread's list)."""
    found: list[int] = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        text = (task / "children").read_text().split()
        found.extend(int(child) for child in text)
    return found


def descendants(pid: int) -> list[int]:
    every: list[int] = []
    for child in children(pid):
        every.append(child)
        every.extend(descendants(child))
    return every


def command_of(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except FileNotFoundError:
        return ""


def http_workers(server: LiveServer) -> set[int]:
    """gunicorn's workers are forks of `turnpost serve` itself, so they carry its command
    line; the background worker and Valkey carry their own."""
    own = command_of(server.process.pid)
    return {pid for pid in children(server.process.pid) if command_of(pid) == own}
