"""A TypeScript client made from the OpenAPI document by openapi-typescript and openapi-fetch
(default settings, pinned in tools/ts-client/package-lock.json, from the npm registry) compiles
under `tsc --strict` and plays a game of every title against a live server, reading every
summary, view and legal-moves answer through the generated types."""

import json
import subprocess
from pathlib import Path

import pytest

from engine import registry
from tests.e2e.server import LiveServer

ROOT = Path(__file__).resolve().parents[2]
CLIENT = ROOT / "tools" / "ts-client"


def npx(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        ["npx", "--no-install", *args], cwd=CLIENT, capture_output=True, text=True, timeout=300
    )


TYPO = CLIENT / "build" / "typo.ts"  # play.ts with one error code misspelt


@pytest.fixture(scope="module")
def compiled():
    """The client built by one `tsc` run of tools/ts-client/tsconfig.json (strict, the generated
    declarations checked), with a copy of play.ts that misspells an error code compiled in the
    same program: the program's parsing and checking of the declarations, most of a build's
    CPU, is done once for both tests. The path of the play.js built, and the errors tsc reports
    in the copy; tsc reporting an error anywhere else fails here."""
    subprocess.run(
        ["npm", "ci", "--no-audit", "--no-fund", "--loglevel=error"],
        cwd=CLIENT,
        check=True,
        capture_output=True,
        timeout=300,
    )
    made = npx("openapi-typescript", str(ROOT / "openapi" / "openapi.json"), "-o", "schema.d.ts")
    assert made.returncode == 0, made.stderr
    source = (CLIENT / "play.ts").read_text().replace('"./schema"', '"../schema"')
    assert '"move/stale_version"' in source
    TYPO.parent.mkdir(exist_ok=True)
    TYPO.write_text(source.replace('"move/stale_version"', '"move/stale_versoin"'))
    files = json.loads((CLIENT / "tsconfig.json").read_text())["files"]
    both = TYPO.parent / "tsconfig.typo.json"
    both.write_text(
        json.dumps(
            {"extends": "../tsconfig.json", "files": [f"../{f}" for f in files] + ["typo.ts"]}
        )
    )
    play = CLIENT / "build" / "play.js"
    play.unlink(missing_ok=True)
    built = npx("tsc", "-p", str(both))
    reported = (built.stdout + built.stderr).splitlines()
    errors = [line for line in reported if "error TS" in line]
    elsewhere = [line for line in errors if not line.startswith("build/typo.ts(")]
    assert not elsewhere, built.stdout + built.stderr
    assert play.exists(), reported
    return play, errors


def test_the_typescript_client_plays_every_title(compiled, valkey):
    # one client plays hundreds of moves a minute: this server lifts the per-player limits
    server = LiveServer(
        "--no-worker", redis_url=valkey.url, env={"RATE_LIMITS": "off"}
    ).wait_ready()
    try:
        ran = subprocess.run(
            ["node", str(compiled[0]), server.url, *sorted(registry.GAMES)],
            capture_output=True,
            text=True,
            timeout=600,
        )
    finally:
        server.stop()
    assert ran.returncode == 0, ran.stderr
    games = [json.loads(line) for line in ran.stdout.splitlines()]
    assert [g["title"] for g in games] == sorted(registry.GAMES)
    assert all(g["moves"] > 0 and g["reason"] for g in games), games


def test_a_misspelt_error_code_does_not_compile(compiled):
    """Each error answer's `code` is an enum of that answer's codes, so a typo is a type error:
    the misspelt copy of play.ts built with the client (`compiled`) does not compile."""
    _, errors = compiled
    assert any("TS2367" in line and '"move/stale_versoin"' in line for line in errors), errors
