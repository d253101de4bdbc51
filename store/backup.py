"""Backing up every turnpost key (those under `tp:`) to a file, and restoring it, with Redis'
own serialisation (DUMP, RESTORE): any Redis 7 or Valkey server, a cluster included.

The file is JSON lines: a header `{"format": "turnpost-backup", "version": 1, "taken_at":
<epoch ms>}`, then one line per key `{"key": ..., "ttl_ms": <ms left, or null>, "dump":
<base64 of DUMP>}`, then a trailer `{"end": true, "keys": <count>}`, so that a file cut short
is refused before anything is restored.

Keys are found with SCAN and read by hash tag: the keys of one tag (a game bucket's games,
outbox and schedule; a player's keys) are read in one transaction, which a cluster allows since
they share a slot. So a backup taken while the server runs holds every game with its log,
snapshot and the outbox entries and deadlines of the same moment; keys of different tags (a
game and its players' lists) may be read moments apart, which the worker's consequences
tolerate as they tolerate a late list. RQ's queues (another Redis, `rq:` keys) are not in it."""

from __future__ import annotations

import base64
import json
import time
from collections.abc import Iterable, Iterator
from itertools import islice
from typing import IO, Any

import redis

from store import keys

FORMAT = "turnpost-backup"
VERSION = 1
BATCH = 500
"""Keys restored per round trip."""
GAME_PARTS = ("log", "snap", "archive")
"""A game's keys read together whichever of them SCAN found: a game created while the backup
scans is either whole in it or absent."""


class BackupError(Exception):
    """The file is not a whole turnpost backup, or the database is not fresh."""


def _text(key: bytes) -> str:
    return key.decode("utf-8", "surrogateescape")


def _tag(key: str) -> str:
    """The key's hash tag (what decides its cluster slot), or the key itself without one."""
    start = key.find("{")
    end = key.find("}", start + 1)
    return key[start + 1 : end] if start >= 0 and end > start + 1 else key


def _with_siblings(key: str) -> list[str]:
    game_prefix = f"{keys.PREFIX}:game:"
    if not key.startswith(game_prefix):
        return [key]
    parts = key.split(":", 4)
    if len(parts) < 5:
        return [key]
    base = ":".join(parts[:4])
    return [key, *(f"{base}:{part}" for part in GAME_PARTS)]


def _groups(client: redis.Redis) -> dict[str, list[str]]:
    by_tag: dict[str, set[str]] = {}
    for raw in client.scan_iter(match=f"{keys.PREFIX}:*", count=1000):
        key = _text(raw)
        by_tag.setdefault(_tag(key), set()).update(_with_siblings(key))
    return {tag: sorted(names) for tag, names in sorted(by_tag.items())}


def backup(client: redis.Redis, out: IO[str]) -> int:
    """Write every turnpost key to `out`; how many."""
    out.write(json.dumps({"format": FORMAT, "version": VERSION, "taken_at": _now_ms()}) + "\n")
    written = 0
    for names in _groups(client).values():
        pipe = client.pipeline(transaction=len(names) > 1)
        for name in names:
            pipe.dump(name)
            pipe.pttl(name)
        found = pipe.execute()
        for name, dumped, ttl in zip(names, found[::2], found[1::2]):
            if dumped is None:  # gone since the scan (expired, deleted), or a missing sibling
                continue
            record = {
                "key": name,
                "ttl_ms": ttl if ttl > 0 else None,
                "dump": base64.b64encode(dumped).decode(),
            }
            out.write(json.dumps(record) + "\n")
            written += 1
    out.write(json.dumps({"end": True, "keys": written}) + "\n")
    return written


def check(lines: Iterable[str]) -> int:
    """How many keys a backup file holds, having read it whole; BackupError if it is not a
    whole turnpost backup."""
    count, trailer = 0, None
    for number, record in enumerate(_records(lines), start=1):
        if number == 1:
            if record.get("format") != FORMAT or record.get("version") != VERSION:
                raise BackupError(f"not a {FORMAT} file of version {VERSION}")
        elif trailer is not None:
            raise BackupError(f"line {number} follows the last line")
        elif record.get("end") is True:
            trailer = record
        elif isinstance(record.get("key"), str) and isinstance(record.get("dump"), str):
            count += 1
        else:
            raise BackupError(f"line {number} is not a key's record")
    if trailer is None:
        raise BackupError("the file ends before its last line (cut short?)")
    if trailer.get("keys") != count:
        raise BackupError(f"the file says {trailer.get('keys')} keys and holds {count}")
    return count


def has_turnpost_keys(client: redis.Redis) -> bool:
    return next(iter(client.scan_iter(match=f"{keys.PREFIX}:*", count=1000)), None) is not None


def restore(client: redis.Redis, lines: Iterable[str]) -> int:
    """Write every key of a backup (checked first with `check`) with RESTORE ... REPLACE, one
    command per key (no command spans two slots); how many. A key's time to live counts again
    from now."""
    records = (r for r in _records(lines) if "key" in r)
    restored = 0
    while batch := list(islice(records, BATCH)):
        pipe = client.pipeline(transaction=False)
        for record in batch:
            pipe.restore(
                record["key"].encode("utf-8", "surrogateescape"),
                record["ttl_ms"] or 0,
                base64.b64decode(record["dump"]),
                replace=True,
            )
        pipe.execute()
        restored += len(batch)
    return restored


def _records(lines: Iterable[str]) -> Iterator[dict[str, Any]]:
    for number, line in enumerate(lines, start=1):
        try:
            record = json.loads(line)
        except ValueError:
            raise BackupError(f"line {number} is not JSON") from None
        if not isinstance(record, dict):
            raise BackupError(f"line {number} is not a JSON object")
        yield record


def _now_ms() -> int:
    return int(time.time() * 1000)
