"""The daily digest: instead of an email per turn, one email a day, at the time of day the
player chose in their time zone, with every game waiting for them, the nearest deadline first,
each with its board and its one-click moves. Reminders near a deadline, invitations and ends
of games still come on their own, on time.

The clock keeps one schedule item per player and time of day (`{"kind": "digest", ...}`, in
the bucket of the player's id); when it comes due, the digest of that day is queued (its
delivery id names the player and the day, and the email is claimed before it is sent, so a day
has one digest however often its job runs) and the next day's item is scheduled. An item whose
time the player changed or turned off since is dropped: the new time has its own.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from service.notify import emails
from service.play.table import SeatTable
from service.words import gettext, ngettext

TIME_OF_DAY = re.compile(r"^([01][0-9]|2[0-3]):[0-5][0-9]$")
DIGEST: str = "digest"
"""The digest's event, in its delivery id, its email's X-Turnpost-Event and the deliveries."""
MAX_GAMES = 100
"""A digest lists at most this many games (then says how many more wait)."""
DAY = 86400.0


def item(player_id: str, at: str, due_ms: int) -> dict:
    """The schedule's item of a player's digest due at `due_ms`."""
    return {"kind": "digest", "player": player_id, "at": at, "due": due_ms}


def next_due(now_ms: int, at: str, zone: str | None, day_seconds: float = DAY) -> int:
    """When the next digest is due: the next `at` (HH:MM) in the player's zone after now. A
    shorter day (DIGEST_DAY_SECONDS, for tests) makes it `day_seconds` from now."""
    if day_seconds != DAY:
        return now_ms + int(day_seconds * 1000)
    tz = ZoneInfo(zone or "UTC")
    now = datetime.fromtimestamp(now_ms / 1000, tz)
    hour, minute = (int(part) for part in at.split(":"))
    due = now.replace(hour=hour, minute=minute, second=0, microsecond=0)
    if due <= now:
        due = (due + timedelta(days=1)).replace(hour=hour, minute=minute)
    return int(due.timestamp() * 1000)


def day_of(due_ms: int) -> int:
    """The digest's day, in its delivery id: the due time in whole seconds (unique per
    player, whatever the length of a day)."""
    return due_ms // 1000


def letter(
    reader: str,
    tables: Sequence[SeatTable],
    more: int,
    links: Callable[[SeatTable], tuple[str, dict[str, str]] | None],
    public_url: str,
) -> emails.Letter:
    """The digest: each waiting game, nearest deadline first (the order of `tables`), with
    its board as the reader's seat sees it, its deadline and its legal moves with their
    one-click links (`links(table)`: the turn page and the move links, service.notify
    .one_click). `more`: games waiting beyond those listed."""
    sections: list = []
    for number, table in enumerate(tables, start=1):
        named = {
            "number": number,
            "title": table.title,
            "others": ", ".join(s.name for s in table.seats if not s.you),
            "game": table.game_id,
        }
        you = table.you
        heading = (
            gettext(
                "%(number)s. %(title)s with %(others)s (%(game)s), deadline %(deadline)s:",
                deadline=you.deadline,
                **named,
            )
            if you is not None and you.deadline
            else gettext("%(number)s. %(title)s with %(others)s (%(game)s), no clock:", **named)
        )
        if table.board_text is not None and table.board_html is not None:
            sections.append(emails.BoardSection(heading, table.board_text, table.board_html))
        else:
            sections.append((heading, []))
        found = links(table)
        sections.append(
            emails.moves_section(
                gettext("Your legal moves"), table.moves, table.forms, found[1] if found else None
            )
        )
        page = found[0] if found else f"{public_url}/play/{table.game_id}"
        sections.append(("", [(gettext("Open your turn page for this game"), page)]))
    if more:
        sections.append(
            (
                ngettext(
                    "And %(num)d more game waits for you:",
                    "And %(num)d more games wait for you:",
                    more,
                ),
                [(gettext("My games"), f"{public_url}/games")],
            )
        )
    count = len(tables) + more
    return emails.Letter(
        subject=ngettext(
            "[turnpost] Your daily digest: %(num)d game waits for your move",
            "[turnpost] Your daily digest: %(num)d games wait for your move",
            count,
        ),
        greeting=emails.hello(reader),
        lead=ngettext(
            "%(num)d game waits for your move, the nearest deadline first. Reminders before a "
            "deadline still come on their own.",
            "%(num)d games wait for your move, the nearest deadline first. Reminders before a "
            "deadline still come on their own.",
            count,
        ),
        sections=sections,
        links=[(gettext("My games"), f"{public_url}/games")],
        footer=gettext(
            "You get this digest instead of an email at each turn; change it in your settings."
        ),
    )
