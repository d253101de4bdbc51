"""`turnpost reports`, run as a process by an operator: the players' reports, a message hidden
from everyone, a player suspended and restored, and every action in the audit log."""

import json
import os
import subprocess
import sys

from service.assembly import assemble
from service.settings import Settings
from tests.e2e.server import ROOT


def turnpost_reports(valkey, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "turnpost.cli", "reports", "--operator", "olga", *args],
        env={**os.environ, "REDIS_URL": valkey.url},
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )


def lines(done: subprocess.CompletedProcess) -> list[dict]:
    assert done.returncode == 0, done.stderr
    return [json.loads(line) for line in done.stdout.splitlines()]


def test_an_operator_reads_the_reports_hides_a_message_and_suspends_a_player(valkey, redis_client):
    services = assemble(redis_client, Settings())
    ada, bo = (services.players.register(n)["id"] for n in ("Ada", "Bo"))
    services.players.set_friends(bo, [ada])
    game_id = services.games.create(ada, "nautilus", [ada, bo])["id"]
    rude = services.talk.say(game_id, bo, "you <b>fool</b>")
    services.moderation.report(ada, "an insult", game_id=game_id, message=rude["version"])
    [report] = lines(turnpost_reports(valkey))
    assert (report["reporter"], report["player"], report["text"], report["reason"]) == (
        ada,
        bo,
        "you <b>fool</b>",
        "an insult",
    )
    hidden = lines(
        turnpost_reports(valkey, "hide", game_id, str(rude["version"]), "--reason", "insult")
    )
    assert hidden[0]["action"] == "hide" and hidden[0]["player"] == bo
    assert "fool" not in json.dumps(services.talk.messages(game_id, ada))
    suspended = lines(turnpost_reports(valkey, "suspend", bo, "--reason", "insults"))
    assert suspended[0]["games"] == [game_id]  # no clock: Bo left the game
    assert services.games.summary(game_id)["status"] == "finished"
    lines(turnpost_reports(valkey, "restore", bo))
    audit = lines(turnpost_reports(valkey, "audit"))
    assert [(a["action"], a["operator"]) for a in audit] == [
        ("hide", "olga"),
        ("suspend", "olga"),
        ("restore", "olga"),
    ]
    missing = turnpost_reports(valkey, "hide", game_id, "1", "--reason", "x")
    assert missing.returncode == 1 and "has no message 1" in missing.stderr
