"""The `turnpost` command: serve, worker, mail-in, status, settings, upgrade-secrets,
rotate-push-keys, reports, backup, restore, openapi, examples."""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

from gunicorn.app.base import BaseApplication

from service.settings import without_password
from turnpost.logs import LEVELS
from turnpost.logs import configure as configure_logs

DEFAULT_OPENAPI = Path("openapi") / "openapi.json"
# How long each part of `turnpost serve` has to finish what it is doing when the server stops:
# the HTTP workers, then the background worker; each is killed after that.
STOP_SECONDS = 2


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
        "--mail-in-port",
        type=int,
        default=2525,
        help="with MAIL_DOMAIN set, also run `turnpost mail-in` on this port (0: do not)",
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
    worker.add_argument("--exit-with-parent", type=int, metavar="PID", help=argparse.SUPPRESS)
    worker.add_argument(
        "--fork",
        action="store_true",
        help="run each RQ job in its own process, as plain RQ does (slower)",
    )

    commands.add_parser(
        "status",
        help="print the background work: outbox entries waiting, "
        "deadlines overdue, jobs queued, workers; and the largest keys",
    )

    mail_in = commands.add_parser(
        "mail-in",
        help="receive players' emailed moves over SMTP (for MAIL_DOMAIN, whose MX points here)",
    )
    mail_in.add_argument("--host", default="127.0.0.1")
    mail_in.add_argument("--port", type=int, default=2525)
    mail_in.add_argument("--log-level", choices=LEVELS, default="info")
    mail_in.add_argument("--exit-with-parent", type=int, metavar="PID", help=argparse.SUPPRESS)

    commands.add_parser(
        "settings", help="print every setting: its value here, its default and its meaning"
    )

    commands.add_parser(
        "upgrade-secrets",
        help="hash or encrypt what an older version kept in "
        "clear, and re-encrypt webhook secrets under "
        "the first of WEBHOOK_SECRET_KEYS",
    )

    commands.add_parser(
        "rotate-push-keys",
        help="make a new Web Push (VAPID) key pair; the devices subscribed with the old one "
        "are removed, and subscribe again when their settings page is opened",
    )
    reports = commands.add_parser(
        "reports",
        help="the players' reports, and the operators' actions on them (each kept in the "
        "audit log): hide a message, suspend or restore a player",
    )
    reports.add_argument(
        "--operator",
        default=os.environ.get("USER") or "operator",
        help="who acts, for the audit log ($USER)",
    )
    acts = reports.add_subparsers(dest="act")
    acts.add_parser("list", help="the latest reports, oldest first (the default)")
    acts.add_parser("audit", help="the operators' actions, oldest first")
    hide = acts.add_parser("hide", help="hide a message of a game from everyone")
    hide.add_argument("game")
    hide.add_argument("message", type=int, help="the message's version in the game's log")
    hide.add_argument("--reason", required=True)
    suspend = acts.add_parser(
        "suspend",
        help="suspend a player: sign-in refused, token revoked, their games by the timeout "
        "policy (now where it is their turn; a game without a clock is left)",
    )
    suspend.add_argument("player")
    suspend.add_argument("--reason", required=True)
    restore = acts.add_parser("restore", help="lift a player's suspension")
    restore.add_argument("player")
    restore.add_argument("--reason", default="")

    backup = commands.add_parser(
        "backup",
        help="write every turnpost key of REDIS_URL (or of the embedded server's --data folder, "
        "when it is not running) to FILE; safe while the server runs",
    )
    restore = commands.add_parser(
        "restore",
        help="write a backup's keys into REDIS_URL (or into the embedded server's --data "
        "folder, when it is not running), which must hold no turnpost key",
    )
    for backup_or_restore in (backup, restore):
        backup_or_restore.add_argument("file")
        backup_or_restore.add_argument(
            "--data", default="data", help="the embedded server's folder (./data)"
        )
    restore.add_argument(
        "--replace",
        action="store_true",
        help="restore into a database that holds turnpost keys: each key in the file replaces "
        "its namesake, the others stay",
    )

    openapi = commands.add_parser("openapi", help="write the OpenAPI document")
    openapi.add_argument("--output", default=str(DEFAULT_OPENAPI), help="'-' for stdout")

    commands.add_parser(
        "examples",
        help="record the document's examples from real games "
        "(api/examples.json); then run `turnpost openapi`",
    )

    args = parser.parse_args(argv)
    from service.settings import SettingError

    try:
        return COMMANDS[args.command](args)
    except SettingError as error:  # a variable that does not read as its setting
        print(f"turnpost {args.command}: {error}", file=sys.stderr)
        return 2


def serve_command(args) -> int:
    from api.front_door import FrontDoor
    from service.settings import Settings

    # read here, once, so that a setting that does not read stops the server before it starts
    # anything (its HTTP workers would each fail to load the app)
    Settings.from_env(os.environ)
    door = FrontDoor.from_env(os.environ)
    ports = [args.port] + ([args.mail_in_port] if os.environ.get("MAIL_DOMAIN") else [])
    for port in ports:
        if port and not _port_is_free(args.host, port):
            option = "--port" if port == args.port else "--mail-in-port"
            print(
                f"turnpost: port {port} is taken on {args.host} (another turnpost, or another "
                f"server?): choose another with {option} N (make serve PORT=N)",
                file=sys.stderr,
            )
            return 2
    # One folder per server for the metrics of its gunicorn processes (api/metrics.py), set
    # before prometheus_client is first imported, which reads it then.
    metrics_dir = tempfile.mkdtemp(prefix="turnpost-metrics-")
    os.environ["PROMETHEUS_MULTIPROC_DIR"] = metrics_dir
    configure_logs(args.log_level)

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
        print(f"turnpost: using Redis at {without_password(os.environ['REDIS_URL'])}", flush=True)
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
    children = (
        [] if args.no_worker else [Supervised("worker", "worker", "--log-level", args.log_level)]
    )
    mail_domain = os.environ.get("MAIL_DOMAIN")
    if mail_domain and args.mail_in_port:
        children.append(
            Supervised(
                "mail receiver", "mail-in", "--host", args.host, "--port", str(args.mail_in_port)
            )
        )
        print(
            f"turnpost: emailed moves for @{mail_domain} are received on SMTP "
            f"{args.host}:{args.mail_in_port} (send a reply to a turn email there)",
            flush=True,
        )
    # gunicorn forks its HTTP workers inside run(), and a worker that exits unwinds through
    # this same call: what follows run() is the server's own stop, so it runs in this
    # process alone, never in an exiting worker (which would delete the metrics of every
    # worker and stop the background worker).
    server_pid = os.getpid()
    try:
        print(f"turnpost: API on http://{args.host}:{args.port}/ (docs: /docs)", flush=True)
        _Gunicorn(gunicorn_options(args, door)).run()
    finally:
        if os.getpid() == server_pid:
            for child in children:
                child.stop()
            if embedded is not None:
                embedded.stop()
            shutil.rmtree(metrics_dir, ignore_errors=True)
    return 0


def gunicorn_options(args, door) -> dict:
    """How `turnpost serve` runs gunicorn.

    gevent: thousands of idle streams and slow clients without a thread each. Its keepalive is
    also the deadline of a request's line and headers; the body's is
    api.front_door.BodyDeadline's. Workers are recycled after about `http_max_requests`
    answers (with jitter, so that they do not all restart at once): a worker's exit is then
    an everyday event, not the worst day's. A stopping worker has `STOP_SECONDS` to finish
    what it serves, then gunicorn kills it."""
    return {
        "bind": f"{args.host}:{args.port}",
        "workers": args.http_workers,
        "worker_class": "turnpost.http_worker.GeventWorker",
        "worker_connections": door.worker_connections,
        "keepalive": door.header_timeout_seconds,
        "max_requests": door.http_max_requests,
        "max_requests_jitter": door.http_max_requests // 10,
        "accesslog": None,
        "errorlog": "-",
        "loglevel": args.log_level,
        "timeout": 30,
        "graceful_timeout": STOP_SECONDS,
        "child_exit": _metrics_of_dead_worker,
        # no control socket: it has one fixed path per user, which two servers
        # on a host would share, and nothing here uses it
        "control_socket_disable": True,
    }


def _port_is_free(host: str, port: int) -> bool:
    """Whether gunicorn will be able to listen there (it would retry a taken port five times,
    a second apart, then stop with a traceback)."""
    with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError:
            return False
    return True


def _metrics_of_dead_worker(server, worker) -> None:
    from prometheus_client import multiprocess

    multiprocess.mark_process_dead(worker.pid)


class Supervised:
    """A child of `turnpost serve` (its background worker, its mail receiver): a `turnpost`
    command started again (after a second) whenever it exits, until the server stops it.

    Each runs in its own process group: Ctrl-C in the terminal reaches the server alone, which
    stops the children itself, after its HTTP workers and before Valkey; and each asks the
    kernel to stop it should the server die without stopping it (--exit-with-parent)."""

    RESTART_SECONDS = 1.0

    def __init__(self, name: str, *args: str):
        self.name = name
        self.command = [
            sys.executable,
            "-m",
            "turnpost.cli",
            *args,
            "--exit-with-parent",
            str(os.getpid()),
        ]
        self.stopping = threading.Event()
        self.process = self._start()
        self.watcher = threading.Thread(target=self._watch, daemon=True)
        self.watcher.start()

    def _start(self) -> subprocess.Popen:
        return subprocess.Popen(self.command, process_group=0)

    def _watch(self) -> None:
        while not self.stopping.is_set():
            code = self.process.wait()
            if self.stopping.wait(self.RESTART_SECONDS):
                return
            print(f"turnpost: the {self.name} exited ({code}); starting it again", flush=True)
            self.process = self._start()

    def stop(self) -> None:
        from store.embedded import stop_process

        self.stopping.set()
        stop_process(self.process, STOP_SECONDS)


def worker_command(args) -> int:

    from workers.process import WorkerProcess

    if args.exit_with_parent:
        _exit_with(args.exit_with_parent)
    configure_logs(args.log_level)
    WorkerProcess(os.environ, fork=args.fork).run()
    return 0


def _exit_with(parent: int) -> None:
    """SIGTERM to this process when its parent exits (Linux's PR_SET_PDEATHSIG), so that a
    server killed outright leaves no worker behind; at once if the parent is already gone."""
    if sys.platform == "linux":
        import ctypes

        pr_set_pdeathsig = 1
        ctypes.CDLL(None, use_errno=True).prctl(pr_set_pdeathsig, signal.SIGTERM)
    if os.getppid() != parent:
        os.kill(os.getpid(), signal.SIGTERM)


def status_command(args) -> int:
    from store.connection import connect, data_url, queue_url
    from workers.status import largest_keys, status

    data = connect(data_url(os.environ))
    report = status(data, connect(queue_url(os.environ))) | {"data": largest_keys(data)}
    print(json.dumps(report, indent=2))
    return 0


def reports_command(args) -> int:
    from service.assembly import assemble
    from service.errors import ServiceError
    from service.settings import Settings
    from store.connection import connect, data_url

    moderation = assemble(connect(data_url(os.environ)), Settings.from_env(os.environ)).moderation
    try:
        if args.act == "hide":
            done = moderation.hide(args.game, args.message, args.reason, args.operator)
        elif args.act == "suspend":
            done = moderation.suspend(args.player, args.reason, args.operator)
        elif args.act == "restore":
            done = moderation.restore(args.player, args.operator, args.reason)
        else:
            found = moderation.audit_log() if args.act == "audit" else moderation.reports()
            for line in found:
                print(json.dumps(line, ensure_ascii=False))
            return 0
    except ServiceError as error:
        print(f"turnpost reports {args.act}: {error.message}", file=sys.stderr)
        return 1
    print(json.dumps(done, ensure_ascii=False))
    return 0


def settings_command(args) -> int:
    from api.front_door import FrontDoor
    from service.settings import Settings

    shown = [*Settings.from_env(os.environ).shown(), *FrontDoor.from_env(os.environ).shown()]
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


def rotate_push_keys_command(args) -> int:
    from service.secrets import rotate_push_keys
    from store.connection import connect, data_url
    from store.push import PushStore

    done = rotate_push_keys(PushStore(connect(data_url(os.environ))))
    print(json.dumps(done, indent=2))
    return 0


def mail_in_command(args) -> int:
    import redis

    from service.assembly import assemble
    from service.settings import Settings
    from store.connection import connect, data_url
    from turnpost.mailin import mail_in_server

    if args.exit_with_parent:
        _exit_with(args.exit_with_parent)
    settings = Settings.from_env(os.environ)
    if not settings.mail_domain:
        print(
            "turnpost mail-in: set MAIL_DOMAIN (the domain whose MX points here)", file=sys.stderr
        )
        return 2
    configure_logs(args.log_level)
    client = connect(data_url(os.environ))
    try:
        client.ping()
    except (redis.ConnectionError, redis.TimeoutError) as err:
        print(
            f"turnpost mail-in: cannot reach Redis at {without_password(data_url(os.environ))} "
            f"({err}): start it, or set REDIS_URL to the server's",
            file=sys.stderr,
        )
        return 2
    services = assemble(client, settings)
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


@contextlib.contextmanager
def _data_redis(command: str, data: str):
    """A client to REDIS_URL; without it, to the embedded Valkey started on `data` for the
    command's length (refused while a `turnpost serve` runs on that folder: two servers must
    never share one append-only file)."""
    from store.connection import connect, data_url
    from store.embedded import EmbeddedValkey

    if os.environ.get("REDIS_URL"):
        yield connect(data_url(os.environ))
        return
    pid_file = Path(data) / "valkey.pid"
    if pid_file.exists() and _running(int(pid_file.read_text() or 0)):
        raise SystemExit(
            f"turnpost {command}: the embedded Valkey in {data}/ is running: set REDIS_URL to "
            "the URL `turnpost serve` printed (redis://127.0.0.1:PORT/0)"
        )
    server = EmbeddedValkey(data).start()
    try:
        yield connect(server.url)
    finally:
        server.stop()


def _running(pid: int) -> bool:
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def backup_command(args) -> int:
    from store.backup import backup

    target = Path(args.file)
    partial = target.with_name(target.name + ".partial")
    with _data_redis("backup", args.data) as client, partial.open("w") as out:
        written = backup(client, out)
    partial.replace(target)  # a file named FILE is always a whole backup
    print(json.dumps({"file": str(target), "keys": written}))
    return 0


def restore_command(args) -> int:
    from store.backup import BackupError, check, has_turnpost_keys, restore

    try:
        with open(args.file) as lines:
            check(lines)
        with _data_redis("restore", args.data) as client:
            if not args.replace and has_turnpost_keys(client):
                print(
                    "turnpost restore: this database holds turnpost keys already: restore into "
                    "an empty one, or give --replace",
                    file=sys.stderr,
                )
                return 1
            with open(args.file) as lines:
                restored = restore(client, lines)
    except (OSError, BackupError) as error:
        print(f"turnpost restore: {args.file}: {error}", file=sys.stderr)
        return 1
    print(json.dumps({"file": args.file, "keys": restored}))
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


COMMANDS = {
    "serve": serve_command,
    "worker": worker_command,
    "mail-in": mail_in_command,
    "reports": reports_command,
    "backup": backup_command,
    "restore": restore_command,
    "openapi": openapi_command,
    "examples": examples_command,
    "status": status_command,
    "settings": settings_command,
    "upgrade-secrets": upgrade_secrets_command,
    "rotate-push-keys": rotate_push_keys_command,
}

if __name__ == "__main__":
    sys.exit(main())
