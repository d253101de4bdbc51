"""The README's curl walkthrough, run line by line in bash against a live `turnpost serve`."""

import json
import re
import subprocess

import requests

from tests.e2e.server import ROOT


def walkthrough() -> str:
    readme = (ROOT / "README.md").read_text()
    section = readme.split("## A first game with curl", 1)[1]
    return re.search(r"```sh\n(.*?)```", section, re.S).group(1)


def test_readme_walkthrough_works_as_written(live_server):
    script = walkthrough()
    assert script.startswith("TP=http://127.0.0.1:8000\n")
    script = script.replace("TP=http://127.0.0.1:8000", f"TP={live_server.url}", 1)
    done = subprocess.run(
        ["bash", "-euo", "pipefail", "-c", script], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    documents = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    friends, view, move, log = documents
    assert [f["name"] for f in friends["friends"]] == ["Ada"]
    catalog = requests.get(f"{live_server.url}/v1/catalog", timeout=10).json()["games"]
    notation = next(g["notation"] for g in catalog if g["name"] == "ninedomains")
    assert str(notation) in done.stdout.splitlines(), "the notation shown is the game played"
    assert view["game"] == "ninedomains" and view["seat"] == 0 and view["version"] == 2
    assert move["version"] == 3 and move["move"]
    assert [e["type"] for e in log["entries"]] == ["GameCreated", "GameStarted", "ActionTaken"]
    assert log["entries"][-1]["move"] == move["move"]
