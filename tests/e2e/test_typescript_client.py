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


@pytest.fixture(scope="module")
def compiled():
    subprocess.run(
        ["npm", "ci", "--no-audit", "--no-fund", "--loglevel=error"],
        cwd=CLIENT,
        check=True,
        capture_output=True,
        timeout=300,
    )
    made = npx("openapi-typescript", str(ROOT / "openapi" / "openapi.json"), "-o", "schema.d.ts")
    assert made.returncode == 0, made.stderr
    built = npx("tsc", "-p", ".")
    assert built.returncode == 0, built.stdout + built.stderr
    return CLIENT / "build" / "play.js"


def test_the_typescript_client_plays_every_title(compiled, valkey):
    # one client plays hundreds of moves a minute: this server lifts the per-player limits
    server = LiveServer(
        "--no-worker", redis_url=valkey.url, env={"RATE_LIMITS": "off"}
    ).wait_ready()
    try:
        ran = subprocess.run(
            ["node", str(compiled), server.url, *sorted(registry.GAMES)],
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
    """Each error answer's `code` is an enum of that answer's codes, so a typo is a type error.
    The declarations are checked by the `compiled` build already: here only the client's code
    is (--skipLibCheck, a third of the CPU)."""
    typo = CLIENT / "build" / "typo.ts"
    source = (CLIENT / "play.ts").read_text().replace('"./schema"', '"../schema"')
    assert '"move/stale_version"' in source
    typo.write_text(source.replace('"move/stale_version"', '"move/stale_versoin"'))
    built = npx(
        "tsc",
        "--noEmit",
        "--strict",
        "--module",
        "commonjs",
        "--target",
        "ES2022",
        "--moduleResolution",
        "node",
        "--esModuleInterop",
        "--skipLibCheck",
        str(typo),
    )
    assert built.returncode != 0
    assert "TS2367" in built.stdout and '"move/stale_versoin"' in built.stdout, built.stdout
