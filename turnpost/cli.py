"""The `turnpost` command: serve, worker, mail-in, status, settings, upgrade-secrets, openapi,
examples."""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

from gunicorn.app.base import BaseApplication

from turnpost.logs import LEVELS
from turnpost.logs import configure as configure_logs

DEFAULT_OPENAPI = Path("openapi") / "openapi.json"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="turnpost", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)

    serve = commands.add_parser(
        "serve", help="run the API (and a worker), with an embedded Valkey unless REDIS_URL is set"
    )
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    serve.add_argument("--data", default="data", help="the embedded server's folder (./data)")
    serve.add_argument("--http-workers", type=int, default=2, help="gunicorn worker processes")
    serve.add_argument(
        "--log-level",
        choices=LEVELS,
        default="warning",
        help="info shows the access log and the worker's lines (warning)",
    )
    serve.add_argument(
        "--no-worker",
        action="store_true",
        help="do not start a background worker (run `turnpost worker` apart)",
    )

    worker = commands.add_parser(
        "worker",
        help="carry out what commits cause: the outbox consumer, the clock and an RQ worker",
    )
    worker.add_argument(
        "--log-level",
        choices=LEVELS,
        default="warning",
        help="info shows each commit carried out and each delivery (warning)",
    )
    worker.add_argument(
        "--fork",
        action="store_true",
        help="run each RQ job in its own process, as plain RQ does (slower)",
    )

    commands.add_parser(
        "status",
        help="print the background work: outbox entries waiting, "
        "deadlines overdue, jobs queued, workers",
    )

    mail_in = commands.add_parser(
        "mail-in",
        help="receive players' emailed moves over SMTP (for MAIL_DOMAIN, whose MX points here)",
    )
    mail_in.add_argument("--host", default="127.0.0.1")
    mail_in.add_argument("--port", type=int, default=2525)
    mail_in.add_argument("--log-level", choices=LEVELS, default="info")

    commands.add_parser(
        "settings", help="print every setting: its value here, its default and its meaning"
    )

    commands.add_parser(
        "upgrade-secrets",
        help="hash or encrypt what an older version kept in "
        "clear, and re-encrypt webhook secrets under "
        "the first of WEBHOOK_SECRET_KEYS",
    )

    openapi = commands.add_parser("openapi", help="write the OpenAPI document")
    openapi.add_argument("--output", default=str(DEFAULT_OPENAPI), help="'-' for stdout")

    commands.add_parser(
        "examples",
        help="record the document's examples from real games "
        "(api/examples.json); then run `turnpost openapi`",
    )

    args = parser.parse_args(argv)
    return {
        "serve": serve_command,
        "worker": worker_command,
        "mail-in": mail_in_command,
        "openapi": openapi_command,
        "examples": examples_command,
        "status": status_command,
        "settings": settings_command,
        "upgrade-secrets": upgrade_secrets_command,
    }[args.command](args)


def serve_command(args) -> int:
    # One folder per server for the metrics of its gunicorn processes (api/metrics.py), set
    # before prometheus_client is first imported, which reads it then.
    metrics_dir = tempfile.mkdtemp(prefix="turnpost-metrics-")
    os.environ["PROMETHEUS_MULTIPROC_DIR"] = metrics_dir
    configure_logs(args.log_level)

    from api.front_door import FrontDoor
    from store.embedded import EmbeddedValkey

    embedded = None
    if not os.environ.get("REDIS_URL"):
        embedded = EmbeddedValkey(args.data).start()
        os.environ["REDIS_URL"] = embedded.url
        print(
            f"turnpost: embedded Valkey on {embedded.url}, data in {embedded.data_dir} "
            "(append-only file on)",
            flush=True,
        )
    else:
        print(f"turnpost: using Redis at {_without_password(os.environ['REDIS_URL'])}", flush=True)
    if not os.environ.get("SMTP_URL"):
        os.environ.setdefault("OUTBOX_DIR", str(Path(args.data) / "outbox"))
        print(
            f"turnpost: no SMTP_URL, so emails are written as .eml files into "
            f"{os.environ['OUTBOX_DIR']}/",
            flush=True,
        )
    else:
        print("turnpost: emails go out through SMTP_URL", flush=True)
    os.environ.setdefault("PUBLIC_URL", f"http://{args.host}:{args.port}")
    worker = None if args.no_worker else WorkerSupervisor(args.log_level)
    try:
        print(f"turnpost: API on http://{args.host}:{args.port}/ (docs: /docs)", flush=True)
        door = FrontDoor.from_env(os.environ)
        # gevent: thousands of idle streams and slow clients without a thread each. Its
        # keepalive is also the deadline of a request's line and headers; the body's is
        # api.front_door.BodyDeadline's.
        _Gunicorn(
            {
                "bind": f"{args.host}:{args.port}",
                "workers": args.http_workers,
                "worker_class": "gevent",
                "worker_connections": door.worker_connections,
                "keepalive": door.header_timeout_seconds,
                "accesslog": None,
                "errorlog": "-",
                "loglevel": args.log_level,
                "timeout": 60,
                "graceful_timeout": 10,
                "child_exit": _metrics_of_dead_worker,
                # no control socket: it has one fixed path per user, which two servers
                # on a host would share, and nothing here uses it
                "control_socket_disable": True,
            }
        ).run()
    finally:
        shutil.rmtree(metrics_dir, ignore_errors=True)
        if worker is not None:
            worker.stop()
        if embedded is not None:
            embedded.stop()
    return 0


def _without_password(url: str) -> str:
    parts = urlsplit(url)
    if parts.password is None:
        return url
    host = parts.netloc.rsplit("@", 1)[1]
    user = f"{parts.username}:***@" if parts.username else ":***@"
    return urlunsplit(parts._replace(netloc=user + host))


def _metrics_of_dead_worker(server, worker) -> None:
    from prometheus_client import multiprocess

    multiprocess.mark_process_dead(worker.pid)


class WorkerSupervisor:
    """`turnpost serve`'s background worker: a `turnpost worker` process, started again
    (after a second) whenever it exits, until the server stops."""

    RESTART_SECONDS = 1.0

    def __init__(self, log_level: str = "warning"):
        self.log_level = log_level
        self.stopping = threading.Event()
        self.process = self._start()
        self.watcher = threading.Thread(target=self._watch, daemon=True)
        self.watcher.start()

    def _start(self) -> subprocess.Popen:
        return subprocess.Popen(
            [sys.executable, "-m", "turnpost.cli", "worker", "--log-level", self.log_level]
        )

    def _watch(self) -> None:
        while not self.stopping.is_set():
            code = self.process.wait()
            if self.stopping.wait(self.RESTART_SECONDS):
                return
            print(f"turnpost: the worker exited ({code}); starting it again", flush=True)
            self.process = self._start()

    def stop(self) -> None:
        self.stopping.set()
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def worker_command(args) -> int:

    from workers.process import WorkerProcess

    configure_logs(args.log_level)
    WorkerProcess(os.environ, fork=args.fork).run()
    return 0


def status_command(args) -> int:
    from store.connection import connect, data_url, queue_url
    from workers.status import status

    report = status(connect(data_url(os.environ)), connect(queue_url(os.environ)))
    print(json.dumps(report, indent=2))
    return 0


def settings_command(args) -> int:
    from api.front_door import FrontDoor
    from service.settings import SettingError, Settings

    try:
        shown = [*Settings.from_env(os.environ).shown(), *FrontDoor.from_env(os.environ).shown()]
    except SettingError as error:
        print(f"turnpost settings: {error}", file=sys.stderr)
        return 2
    for each in shown:
        print(f"# {each.meaning} (default: {each.default})\n{each.variable}={each.value}\n")
    return 0


def upgrade_secrets_command(args) -> int:
    from service.secrets import ServerKeys, upgrade_secrets
    from service.settings import Settings
    from store.connection import connect, data_url
    from store.notifications import NotificationStore
    from store.players import PlayerStore

    client = connect(data_url(os.environ))
    notes = NotificationStore(client)
    done = upgrade_secrets(
        PlayerStore(client), notes, ServerKeys(Settings.from_env(os.environ), notes)
    )
    print(json.dumps(done, indent=2))
    return 1 if done["unreadable_webhook_secrets"] else 0


def mail_in_command(args) -> int:
    import threading

    from service.assembly import assemble
    from service.settings import Settings
    from store.connection import connect, data_url
    from turnpost.mailin import mail_in_server

    settings = Settings.from_env(os.environ)
    if not settings.mail_domain:
        print(
            "turnpost mail-in: set MAIL_DOMAIN (the domain whose MX points here)", file=sys.stderr
        )
        return 2
    configure_logs(args.log_level)
    services = assemble(connect(data_url(os.environ)), settings)
    server = mail_in_server(services.mail_moves, settings.mail_domain, args.host, args.port)
    stop = threading.Event()
    for signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signum, lambda *_: stop.set())
    server.start()
    print(
        f"turnpost: receiving moves for @{settings.mail_domain} on SMTP {args.host}:{args.port}",
        flush=True,
    )
    stop.wait()
    server.stop()
    return 0


def openapi_command(args) -> int:
    from api.app import create_app, openapi_document

    document = openapi_document(create_app())
    if args.output == "-":
        sys.stdout.write(document)
    else:
        Path(args.output).parent.mkdir(parents=True, exist_ok=True)
        Path(args.output).write_text(document)
        print(f"turnpost: wrote {args.output}")
    return 0


def examples_command(args) -> int:
    import tempfile

    from api import examples
    from api.app import create_app
    from store.connection import connect
    from store.embedded import EmbeddedValkey

    with tempfile.TemporaryDirectory() as data:
        server = EmbeddedValkey(data, appendonly=False).start()
        try:
            recorded = examples.record(create_app(connect(server.url)).test_client())
        finally:
            server.stop()
    examples.EXAMPLES_FILE.write_text(json.dumps(recorded, indent=2, sort_keys=True) + "\n")
    print(f"turnpost: wrote {examples.EXAMPLES_FILE}")
    return 0


class _Gunicorn(BaseApplication):
    """gunicorn run in-process, so the embedded server lives and dies with the command."""

    def __init__(self, options: dict):
        self.options = options
        super().__init__()

    def load_config(self):
        for key, value in self.options.items():
            self.cfg.set(key, value)

    def load(self):
        from turnpost.wsgi import app

        return app


if __name__ == "__main__":
    sys.exit(main())
