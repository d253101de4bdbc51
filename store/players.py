"""Players, their API tokens (kept as SHA-256) and sign-in links, the index of their email
addresses, their games and their inbox of games awaiting their move."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import redis

from . import keys
from .games import Script
from .reads import Read
from .token_cache import TokenCache


def token_hash(token: str) -> str:
    """SHA-256, hex: what Redis keeps of a high-entropy token (no slow hash is needed: the
    token has 256 random bits, nothing to guess)."""
    return hashlib.sha256(token.encode()).hexdigest()


def fold_name(name: str) -> str:
    """A name as the index compares it: trimmed, case folded."""
    return name.strip().casefold()


def _name_entry(name: str, player_id: str) -> str:
    return f"{fold_name(name)}\x00{player_id}"


def address_hash(email: str) -> str:
    return hashlib.sha256(email.strip().lower().encode()).hexdigest()


PROOF_FIELD = "address_proof"
"""In a profile: its address gets mail only once its owner followed a link emailed to it (set
on every account registered, and every address changed, since addresses are confirmed; an
account stored before that, at the same address, counts as confirmed)."""


PLAYER_EVENTS_KEPT = 1000
"""About how many events a player's stream keeps: a client away for longer resumes from the
oldest kept (its games and inbox say the rest)."""
EVENT_CLAIM_SECONDS = 7 * 86400


def _link_value(found: bytes | None) -> tuple[str, str | None] | None:
    """A sign-in link's record: "player address-hash" (a link made before addresses were
    confirmed holds the player alone)."""
    if found is None:
        return None
    player_id, _, hashed = found.decode().partition(" ")
    return player_id, hashed or None


class PlayerStore:
    def __init__(self, client: redis.Redis, token_cache: TokenCache | None = None):
        """`token_cache`: token lookups remembered in process (the API's; see token_cache)."""
        self.r = client
        self.token_cache = token_cache
        self._project = Script(client, "project.lua")
        self._player_event = Script(client, "player_events.lua")

    # -- the player's stream of events ---------------------------------------------------------

    def add_event(
        self, player_id: str, event_id: str, fields: dict[str, str | int], pipe=None
    ) -> None:
        """Add to the player's stream once per `event_id` (on `pipe`, if given: run it with
        store.games.run_pipeline)."""
        pairs = [item for key, value in fields.items() for item in (key, value)]
        self._player_event(
            [keys.player_events(player_id), keys.player_event_claim(player_id, event_id)],
            [EVENT_CLAIM_SECONDS, PLAYER_EVENTS_KEPT, *pairs],
            client=pipe,
        )

    def last_event_id(self, player_id: str) -> str:
        newest = self.r.xrevrange(keys.player_events(player_id), count=1)
        return newest[0][0].decode() if newest else "0-0"

    def wait_events(self, player_id: str, after: str, block_ms: int) -> list[tuple[str, dict]]:
        """(entry id, fields) of the player's events after the entry id `after` ("0": from
        the oldest kept), waiting up to block_ms for one."""
        found = self.r.xread({keys.player_events(player_id): after}, block=block_ms)
        if not found:
            return []
        return [
            (entry_id.decode(), {k.decode(): v.decode() for k, v in fields.items()})
            for entry_id, fields in found[0][1]
        ]

    def create(self, player_id: str, profile: dict[str, Any], token: str) -> bool:
        """Store a new player and the hash of their token; False if the id is taken."""
        if not self.r.set(keys.player(player_id), json.dumps(profile), nx=True):
            return False
        self.r.set(keys.token(token_hash(token)), player_id)
        self.r.set(keys.player_token(player_id), token_hash(token))
        if profile.get("email"):
            self.r.sadd(keys.email_players(address_hash(profile["email"])), player_id)
        self.index_name(player_id, profile["name"])
        return True

    def get(self, player_id: str) -> dict[str, Any] | None:
        raw = self.r.get(keys.player(player_id))
        return None if raw is None else json.loads(raw)

    def get_many(self, player_ids: list[str]) -> list[dict[str, Any] | None]:
        if not player_ids:
            return []
        return self.profiles_read(player_ids).run(self.r)

    def profiles_read(self, player_ids: list[str]) -> Read[list[dict[str, Any] | None]]:
        """`get_many` as a read that store.reads.at_once may run with others."""

        def queue(pipe) -> None:
            for player_id in player_ids:
                pipe.get(keys.player(player_id))

        def answer(replies: list) -> list[dict[str, Any] | None]:
            return [None if raw is None else json.loads(raw) for raw in replies]

        return Read(queue, len(player_ids), answer)

    def save(self, player_id: str, profile: dict[str, Any]) -> None:
        """Write the profile; when its email changed, move the player in the index of
        addresses."""
        before = self.r.set(keys.player(player_id), json.dumps(profile), get=True)
        old_email = json.loads(before).get("email") if before else None
        email = profile.get("email")
        if (old_email or "").strip().lower() != (email or "").strip().lower():
            if old_email:
                self.r.srem(keys.email_players(address_hash(old_email)), player_id)
            if email:
                self.r.sadd(keys.email_players(address_hash(email)), player_id)
        old_name = json.loads(before).get("name") if before else None
        if old_name != profile["name"]:
            if old_name:
                self.r.zrem(keys.PLAYER_NAMES, _name_entry(old_name, player_id))
            self.index_name(player_id, profile["name"])

    def index_name(self, player_id: str, name: str) -> None:
        self.r.zadd(keys.PLAYER_NAMES, {_name_entry(name, player_id): 0})

    def named(self, start: str, limit: int) -> list[str]:
        """The players whose name starts with `start` (any case), in the order of their
        names; at most `limit`."""
        folded = fold_name(start)
        found = self.r.zrangebylex(
            keys.PLAYER_NAMES, f"[{folded}", f"[{folded}\U0010ffff", 0, limit
        )
        return [entry.decode().rsplit("\x00", 1)[1] for entry in found]

    def games_count(self, player_id: str) -> int:
        """How many games the player has a seat in, or had (finished ones included)."""
        return int(self.r.zcard(keys.player_games(player_id)))

    def with_email(self, email: str) -> list[str]:
        """The players registered with this address (trimmed, any case)."""
        found = self.r.smembers(keys.email_players(address_hash(email)))
        return sorted(player_id.decode() for player_id in found)

    def confirm_email(self, player_id: str, email: str) -> None:
        """The owner of `email` followed a link emailed to it for this player."""
        self.r.set(keys.email_confirmed(player_id), address_hash(email))

    def email_confirmed(self, player_id: str, profile: dict[str, Any]) -> bool:
        """Whether the player's address may be sent mail (other than a sign-in letter): the
        owner of that very address followed a link emailed to it for this player, or the
        account predates confirmations and still has the address it had then."""
        if not profile.get("email") or not profile.get(PROOF_FIELD):
            return _confirmed(profile, None)
        return _confirmed(profile, self.r.get(keys.email_confirmed(player_id)))

    def addressee(self, player_id: str, game_id: str) -> Addressee:
        """What an email to the player about a game needs of them, in one round trip (a turn
        email is the most frequent thing the workers do): see Addressee."""
        return self.addressee_read(player_id, game_id).run(self.r)

    def addressee_read(self, player_id: str, game_id: str) -> Read[Addressee]:
        """`addressee` as a read that store.reads.at_once may run with others."""

        def queue(pipe) -> None:
            pipe.get(keys.player(player_id))
            pipe.get(keys.email_confirmed(player_id))
            pipe.smembers(keys.player_blocked(player_id))
            pipe.hget(keys.emailed_versions(player_id), game_id)

        def answer(replies: list) -> Addressee:
            raw, proof, blocked, emailed = replies
            profile = None if raw is None else json.loads(raw)
            return Addressee(
                profile,
                profile is not None and _confirmed(profile, proof),
                frozenset(b.decode() for b in blocked),
                None if emailed is None else int(emailed),
            )

        return Read(queue, 4, answer)

    def index_email(self, player_id: str, email: str) -> None:
        self.r.sadd(keys.email_players(address_hash(email)), player_id)

    def by_token(self, token: str) -> str | None:
        key = keys.token(token_hash(token))
        if self.token_cache is None:
            found = self.r.get(key)
        else:
            found = self.token_cache.lookup(key, lambda: self.r.get(key))
        return None if found is None else found.decode()

    def replace_token(self, player_id: str, token: str) -> None:
        """Make `token` the player's only token: the one before stops working at once."""
        new = token_hash(token)
        self.r.set(keys.token(new), player_id)
        old = self.r.set(keys.player_token(player_id), new, get=True)
        if old is not None and old.decode() != new:
            self.r.delete(keys.token(old.decode()))

    def use_stream_ticket(self, nonce: str, seconds: float) -> bool:
        """Mark a stream ticket used (the SHA-256 of its nonce, for `seconds`): True the first
        time only (SET NX is atomic, so two streams opened at once with one ticket get one)."""
        key = keys.used_stream_ticket(token_hash(nonce))
        return bool(self.r.set(key, 1, nx=True, px=max(1, int(seconds * 1000))))

    # -- the calendar: vacations ---------------------------------------------------------------

    def calendar(self, player_id: str) -> dict[str, Any]:
        """The player's vacations and the number of the calendar's latest change (`v`)."""
        raw = self.r.get(keys.player_calendar(player_id))
        return json.loads(raw) if raw else {"v": 0, "vacations": []}

    def calendar_many(self, player_ids: list[str]) -> list[dict[str, Any]]:
        """Each player's calendar (as `calendar`), in one round trip (a pipeline: the players'
        keys are in different slots of a cluster)."""
        if not player_ids:
            return []
        pipe = self.r.pipeline(transaction=False)
        for player_id in player_ids:
            pipe.get(keys.player_calendar(player_id))
        return [json.loads(raw) if raw else {"v": 0, "vacations": []} for raw in pipe.execute()]

    def calendars(self, player_ids: list[str]) -> list[tuple[str | None, dict[str, Any]]]:
        """(time zone, calendar) of each player, in one round trip."""
        if not player_ids:
            return []
        pipe = self.r.pipeline(transaction=False)
        for player_id in player_ids:
            pipe.get(keys.player(player_id))
            pipe.get(keys.player_calendar(player_id))
        found = pipe.execute()
        return [
            (
                (json.loads(profile) if profile else {}).get("time_zone"),
                json.loads(calendar) if calendar else {"v": 0, "vacations": []},
            )
            for profile, calendar in zip(found[0::2], found[1::2])
        ]

    def change_calendar(self, player_id: str, change) -> dict[str, Any] | None:
        """Apply `change(calendar) -> new calendar | None` atomically (WATCH on the one key):
        the new calendar, its `v` one more, or None when `change` changed nothing."""
        key = keys.player_calendar(player_id)
        with self.r.pipeline(transaction=True) as pipe:
            while True:
                try:
                    pipe.watch(key)
                    raw = pipe.get(key)
                    current: dict[str, Any] = json.loads(raw) if raw else {"v": 0, "vacations": []}
                    new = change(current)
                    if new is None:
                        pipe.unwatch()
                        return None
                    new = {**new, "v": current["v"] + 1}
                    pipe.multi()
                    pipe.set(key, json.dumps(new))
                    pipe.execute()
                    return new
                except redis.WatchError:
                    continue

    # -- emailed sign-in links ----------------------------------------------------------------

    def add_sign_in_link(self, link: str, player_id: str, email: str, seconds: float) -> None:
        """A sign-in link for the player, emailed to `email`, for `seconds`; Redis keeps only
        its SHA-256 (-> the player and the SHA-256 of the address)."""
        self.r.set(
            keys.sign_in_link(token_hash(link)),
            f"{player_id} {address_hash(email)}",
            px=max(1, int(seconds * 1000)),
        )

    def sign_in_link_player(self, link: str) -> tuple[str, str | None] | None:
        """(player, SHA-256 of the address it was emailed to) of a live link."""
        return _link_value(self.r.get(keys.sign_in_link(token_hash(link))))

    def take_sign_in_link(self, link: str) -> tuple[str, str | None] | None:
        """As sign_in_link_player, once: the link is gone after this (GETDEL is atomic, so
        two clicks at once redeem it once)."""
        return _link_value(self.r.getdel(keys.sign_in_link(token_hash(link))))

    def count_talk(self, player_id: str, seconds: int) -> tuple[int, int]:
        """Count one message or proposal of the player in its window of `seconds`: (how many
        so far, seconds until the window ends)."""
        key = keys.player_talk(player_id, seconds)
        pipe = self.r.pipeline(transaction=False)
        pipe.set(key, 0, nx=True, ex=seconds)
        pipe.incr(key)
        pipe.ttl(key)
        _, count, left = pipe.execute()
        return count, max(1, left)

    def tokens(self) -> Iterator[tuple[str, str]]:
        """(token hash, player id) of every API token."""
        prefix = keys.token("")
        for key in self.r.scan_iter(match=prefix + "*", count=1000):
            player_id = self.r.get(key)
            if player_id is not None:
                yield key.decode().removeprefix(prefix), player_id.decode()

    def profiles(self) -> Iterator[tuple[str, dict[str, Any]]]:
        """(player id, profile) of every player."""
        for key in self.r.scan_iter(match=keys.player("*"), count=1000):
            name = key.decode()
            if not name.endswith("}"):
                continue  # the player's other keys share the pattern's prefix
            profile = self.get(name.split("{", 1)[1][:-1])
            if profile is not None:
                yield name.split("{", 1)[1][:-1], profile

    def record_token(self, player_id: str, hashed: str) -> bool:
        """For a player registered before tokens were recorded per player: remember the hash
        of their token (unless one is recorded), so that a new token revokes it."""
        return bool(self.r.set(keys.player_token(player_id), hashed, nx=True))

    def project(
        self,
        player_id: str,
        game_id: str,
        version: int,
        activity_ms: float | None,
        awaiting_score: float | None,
        invited_score: float | None = None,
        pipe=None,
    ) -> None:
        """Put the game in or out of the player's games (scored by last activity), their inbox
        (scored by deadline) and their invitations (scored by creation): None leaves it out of
        that list. Unless a newer version was written already."""
        self._project(
            keys=[
                keys.player_seen(player_id),
                keys.player_games(player_id),
                keys.player_inbox(player_id),
                keys.player_invitations(player_id),
            ],
            args=[game_id, version]
            + [
                "" if score is None else score
                for score in (activity_ms, awaiting_score, invited_score)
            ],
            client=pipe or self.r,
        )

    def games(self, player_id: str, limit: int, offset: int = 0) -> list[str]:
        return [
            g.decode()
            for g in self.r.zrevrange(keys.player_games(player_id), offset, offset + limit - 1)
        ]

    def page(
        self, player_id: str, inbox: bool, limit: int, after: tuple[float, str] | None
    ) -> list[tuple[str, float]]:
        """(game id, score) of the player's games (latest move first) or inbox (nearest
        deadline first) that come after the place `after` (a score and a game id: where the
        previous page ended), at most `limit`. Games with the same score are in the order
        Redis keeps them (by id), so a page boundary among them loses none."""
        key = keys.player_inbox(player_id) if inbox else keys.player_games(player_id)
        if after is None:
            found = (
                self.r.zrange(key, 0, limit - 1, withscores=True)
                if inbox
                else self.r.zrevrange(key, 0, limit - 1, withscores=True)
            )
            return [(g.decode(), score) for g, score in found]
        score, last = after
        ties = self.r.zcount(key, score, score)
        if inbox:
            found = self.r.zrangebyscore(key, score, "+inf", 0, limit + ties, withscores=True)
            keep = [(g.decode(), s) for g, s in found if s > score or g.decode() > last]
        else:
            found = self.r.zrevrangebyscore(key, score, "-inf", 0, limit + ties, withscores=True)
            keep = [(g.decode(), s) for g, s in found if s < score or g.decode() < last]
        return keep[:limit]

    def invitations(self, player_id: str, limit: int) -> list[str]:
        """Games with a seat reserved for the player, newest first."""
        return [
            g.decode() for g in self.r.zrevrange(keys.player_invitations(player_id), 0, limit - 1)
        ]

    # -- friends: who may seat this player without an invitation -----------------------------

    def friends(self, player_id: str) -> list[str]:
        return sorted(f.decode() for f in self.r.smembers(keys.player_friends(player_id)))

    def set_friends(self, player_id: str, friends: list[str]) -> None:
        self._replace_set(keys.player_friends(player_id), friends)

    # -- blocks: whom a player will not meet ---------------------------------------------------

    def blocked(self, player_id: str) -> set[str]:
        return {b.decode() for b in self.r.smembers(keys.player_blocked(player_id))}

    def set_blocked(self, player_id: str, blocked: list[str]) -> None:
        self._replace_set(keys.player_blocked(player_id), blocked)

    def _replace_set(self, key: str, members: list[str]) -> None:
        """The set at `key` holds exactly `members` (none: the key is gone), in one step."""
        pipe = self.r.pipeline(transaction=True)
        pipe.delete(key)
        if members:
            pipe.sadd(key, *members)
        pipe.execute()

    def blocks_between(self, player_id: str, others: list[str]) -> list[bool]:
        """For each of `others`: whether they and `player_id` have blocked one another (either
        way): one round trip."""
        pipe = self.r.pipeline(transaction=False)
        for other in others:
            pipe.sismember(keys.player_blocked(player_id), other)
            pipe.sismember(keys.player_blocked(other), player_id)
        found = pipe.execute()
        return [bool(a or b) for a, b in zip(found[0::2], found[1::2])]

    def delete_profile(self, player_id: str, name: str, email: str | None) -> None:
        """The player's profile, its address's confirmation, and their entries in the indexes
        of names and addresses: from here on nothing finds them to write to."""
        pipe = self.r.pipeline(transaction=False)
        pipe.delete(keys.player(player_id), keys.email_confirmed(player_id))
        pipe.zrem(keys.PLAYER_NAMES, _name_entry(name, player_id))
        if email:
            pipe.srem(keys.email_players(address_hash(email)), player_id)
        pipe.execute()

    def delete_player(self, player_id: str, name: str, email: str | None) -> None:
        """Every key of the player's (all share their hash tag), and their entries in the
        indexes of names and addresses."""
        self.delete_profile(player_id, name, email)
        for key in self.r.scan_iter(match=keys.player(player_id) + "*", count=1000):
            self.r.delete(key)

    def revoke_token(self, player_id: str) -> None:
        """The player's API token stops working (no new one is made)."""
        old = self.r.getdel(keys.player_token(player_id))
        if old is not None:
            self.r.delete(keys.token(old.decode()))

    def lets_seat(self, player_ids: list[str], creator: str) -> list[bool]:
        """For each player: whether they let `creator` seat them directly (a friend)."""
        pipe = self.r.pipeline(transaction=False)
        for player_id in player_ids:
            pipe.sismember(keys.player_friends(player_id), creator)
        return [bool(found) for found in pipe.execute()]

    def waiting_count(self, player_id: str) -> int:
        """How many games wait for the player: their move (the inbox) or their answer (the
        invitations). One round trip."""
        pipe = self.r.pipeline(transaction=False)
        pipe.zcard(keys.player_inbox(player_id))
        pipe.zcard(keys.player_invitations(player_id))
        return sum(int(count) for count in pipe.execute())

    def inbox(self, player_id: str, limit: int, offset: int = 0) -> list[str]:
        """Games awaiting the player's move, the nearest deadline first."""
        return [
            g.decode()
            for g in self.r.zrange(keys.player_inbox(player_id), offset, offset + limit - 1)
        ]


@dataclass(frozen=True)
class Addressee:
    """A player as an email to them about a game needs them: `profile` (None: no such player),
    whether their address may be mailed (`PlayerStore.email_confirmed`), the players whose
    messages they do not read, and the version of the game their last email about it was
    written at (`NotificationStore.last_emailed`), if any."""

    profile: dict[str, Any] | None
    confirmed: bool
    blocked: frozenset[str]
    last_emailed: int | None


def _confirmed(profile: dict[str, Any], proof: bytes | None) -> bool:
    """See PlayerStore.email_confirmed; `proof`: the address hash its owner confirmed."""
    email = profile.get("email")
    if not email:
        return False
    if not profile.get(PROOF_FIELD):
        return True
    return proof is not None and proof.decode() == address_hash(email)
