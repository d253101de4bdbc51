"""A player's calendar and feed, each at a secret address: an iCalendar feed of their deadlines
(one VEVENT per game waiting for them that has a clock) and an Atom feed of "your turn" (one
entry per game waiting for them), for a calendar or feed reader that cannot sign in.

The address holds the player's id and an HMAC of it under the link key (service.secrets) with
the generation of their addresses; a rotation (Settings, or `POST
/v1/players/me/feeds`) moves to the next generation and the old addresses answer 404. Nothing
secret is stored: Redis keeps only the generation. What a feed says comes from the player's
own tables (service/play/table.py): titles, names, deadlines and links, nothing hidden.
"""

from __future__ import annotations

import hashlib
import hmac
import time
import xml.etree.ElementTree as ET
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from icalendar import Calendar, Event, Timezone, TimezoneStandard

from service.play.table import SeatTable, Tables
from service.secrets import ServerKeys
from service.settings import Settings
from service.timefmt import iso
from store.notifications import NotificationStore
from store.players import PlayerStore

_PURPOSE = b"turnpost feed v1\n"  # keeps these MACs apart from the link key's others
MAC_HEX = 32
MAX_GAMES = 200
EVENT_MINUTES = 30
"""A deadline's VEVENT ends at the deadline and begins this much earlier."""
ATOM = "http://www.w3.org/2005/Atom"


@dataclass(eq=False)
class Feeds:
    players: PlayerStore
    notes: NotificationStore
    tables: Tables
    keys: ServerKeys
    settings: Settings
    clock: Callable[[], float] = time.time

    # -- the addresses ---------------------------------------------------------------------------

    def _mac(self, key: bytes, player_id: str, generation: int) -> str:
        signed = _PURPOSE + f"{player_id}\n{generation}".encode()
        return hmac.new(key, signed, hashlib.sha256).hexdigest()[:MAC_HEX]

    def addresses(self, player_id: str) -> dict[str, str]:
        generation = self.notes.feed_generation(player_id)
        token = f"{player_id}.{self._mac(self.keys.link_keys[0], player_id, generation)}"
        base = f"{self.settings.public_url}/feeds/{token}"
        return {"calendar_url": f"{base}/deadlines.ics", "atom_url": f"{base}/turns.atom"}

    def rotate(self, player_id: str) -> dict[str, str]:
        """New addresses; the old ones answer 404 from now on."""
        self.notes.next_feed_generation(player_id)
        return self.addresses(player_id)

    def player_of(self, token: str) -> str | None:
        """The player a feed address is for, or None (forged, or rotated since)."""
        player_id, _, mac = token.partition(".")
        if not player_id or len(mac) != MAC_HEX or self.players.get(player_id) is None:
            return None
        generation = self.notes.feed_generation(player_id)
        for key in self.keys.link_keys:  # the first signs; older keys still read
            if hmac.compare_digest(mac, self._mac(key, player_id, generation)):
                return player_id
        return None

    # -- what they hold ----------------------------------------------------------------------------

    def waiting(self, player_id: str) -> list[SeatTable]:
        """The tables of the games waiting for the player, nearest deadline first."""
        profile = self.players.get(player_id) or {}
        found = []
        for game_id in self.players.inbox(player_id, MAX_GAMES):
            table = self.tables.for_player(game_id, player_id, profile.get("time_zone"))
            if table.your_turn:
                found.append(table)
        return found

    def calendar(self, player_id: str) -> bytes:
        """iCalendar (RFC 5545): one VEVENT per waiting game with a clock, ending at its
        deadline (UTC); its UID names the game, the seat and the turn, so a calendar
        updates the event of a turn and drops it once the turn is played. It also holds UTC's
        VTIMEZONE: RFC 5545 (3.6) wants at least one component in a calendar, and a player
        with no deadline has no event (strict readers refuse an empty one)."""
        now = datetime.fromtimestamp(self.clock(), UTC)
        cal = Calendar()
        cal.add("prodid", "-//turnpost//deadlines//EN")
        cal.add("version", "2.0")
        cal.add("calscale", "GREGORIAN")
        cal.add("method", "PUBLISH")
        cal.add("x-wr-calname", "turnpost: your deadlines")
        cal.add_component(_utc())
        for table in self.waiting(player_id):
            you = table.you
            if you is None or you.deadline_ms is None:
                continue
            end = datetime.fromtimestamp(you.deadline_ms / 1000, UTC)
            url = f"{self.settings.public_url}/play/{table.game_id}"
            event = Event()
            event.add("uid", f"{table.game_id}-{you.seat}-{table.turn_since}@turnpost")
            event.add("dtstamp", now)
            event.add("dtstart", end - timedelta(minutes=EVENT_MINUTES))
            event.add("dtend", end)
            event.add("summary", f"Your move in {_with_whom(table)}")
            after = "the computer plays for you" if table.on_timeout == "auto" else "you forfeit"
            event.add("description", f"Your deadline; after it {after}. {url}")
            event.add("url", url)
            cal.add_component(event)
        return cal.to_ical()

    def atom(self, player_id: str) -> bytes:
        """Atom (RFC 4287): an entry per waiting game ("your turn"), newest turn first."""
        profile = self.players.get(player_id) or {}
        tables = self.waiting(player_id)
        ET.register_namespace("", ATOM)
        feed = ET.Element(f"{{{ATOM}}}feed")
        ids = f"tag:turnpost,2026:feeds:{player_id}"
        _text(feed, "id", ids)
        _text(feed, "title", f"turnpost: your turn, {profile.get('name', '')}")
        updated = max((t.updated_ms for t in tables), default=int(self.clock() * 1000))
        _text(feed, "updated", iso(updated) or "")
        author = ET.SubElement(feed, f"{{{ATOM}}}author")
        _text(author, "name", "turnpost")
        ET.SubElement(
            feed, f"{{{ATOM}}}link", rel="self", href=self.addresses(player_id)["atom_url"]
        )
        for table in sorted(tables, key=lambda t: -t.updated_ms):
            url = f"{self.settings.public_url}/play/{table.game_id}"
            entry = ET.SubElement(feed, f"{{{ATOM}}}entry")
            _text(entry, "id", f"{ids}:{table.game_id}:{table.seat}:{table.turn_since}")
            _text(entry, "title", f"Your move in {_with_whom(table)}")
            _text(entry, "updated", iso(table.updated_ms) or "")
            ET.SubElement(entry, f"{{{ATOM}}}link", rel="alternate", href=url)
            you = table.you
            due = f"Your deadline: {you.deadline}." if you and you.deadline else "No clock."
            _text(entry, "summary", f"It is your move in {_with_whom(table)}. {due}")
        return ET.tostring(feed, encoding="utf-8", xml_declaration=True)


def _utc() -> Timezone:
    """UTC as a VTIMEZONE: one offset, zero, since 1970."""
    standard = TimezoneStandard()
    standard.add("dtstart", datetime(1970, 1, 1))
    standard.add("tzoffsetfrom", timedelta(0))
    standard.add("tzoffsetto", timedelta(0))
    standard.add("tzname", "UTC")
    utc = Timezone()
    utc.add("tzid", "UTC")
    utc.add_component(standard)
    return utc


def _with_whom(table: SeatTable) -> str:
    others = [s.name for s in table.seats if not s.you]
    return f"{table.title} with {', '.join(others)}" if others else table.title


def _text(parent: ET.Element, name: str, text: str) -> ET.Element:
    element = ET.SubElement(parent, f"{{{ATOM}}}{name}")
    element.text = text
    return element
