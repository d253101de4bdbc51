"""Chat-app webhooks: a player's webhook of kind `discord` or `slack` gets each notice as one
line of text in that app's incoming-webhook JSON, instead of the signed JSON of kind `signed`.
The game's messages are told as the chat email tells them: one line once the table is quiet,
at most one an hour a game (service.notify.notifications), for messages to the table only.

A chat channel is often read by more people than the player (a club's server, a team's
channel, maybe the opponent), so the line is written from what a spectator may know (a
spectator's table, service/play/table.py): the game, the players' names, the last move as
everyone reads it, the deadline, the result, and a link to the game's page. Never the
player's hand or anything only their seat sees. Names come from players and are escaped for
the app, so a name cannot mention everyone or forge a link.

The shapes, as the apps document them:
- Discord, "Execute Webhook": `{"content": text (at most 2,000 characters), "username",
  "allowed_mentions": {"parse": []}}`; a 204 (or 200) answers it.
- Slack, incoming webhooks: `{"text": text (mrkdwn, links as <url|label>, with &, < and >
  escaped), "unfurl_links": false}`; a 200 answers it.
"""

from __future__ import annotations

import json
import re
import time
from typing import Any

from service.notify.webhooks import PostResult
from service.play.table import SeatTable
from transports import safe_urls
from transports.safe_urls import UnsafeUrl, UrlPolicy

KINDS = ("signed", "discord", "slack")
"""A player's webhook kinds: today's signed JSON, or a chat app's incoming webhook."""
DISCORD_LIMIT = 2000
USERNAME = "turnpost"
_DISCORD_MARKDOWN = re.compile(r"([\\*_~`|<>\[\]#@])")


def discord_escape(text: str) -> str:
    """Text shown as it is by Discord: its markdown, mentions and links escaped."""
    return _DISCORD_MARKDOWN.sub(r"\\\1", text)


def slack_escape(text: str) -> str:
    """Text shown as it is by Slack (its three control characters, as Slack says to)."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def turn_words(
    event: str, spectator: SeatTable, seat: int, continues: bool
) -> tuple[str, tuple[str, ...]]:
    """(what happened to whom, the last move as everyone reads it), from a spectator's table:
    "Ada: your move in Nautilus with Bo, round 3 (deadline ...)" and ("Bo played ...",)."""
    player, with_whom = _whose(spectator, seat)
    round_ = (spectator.view or {}).get("round")
    where = f", round {round_}" if round_ is not None else ""
    deadline = next((s.deadline for s in spectator.seats if s.seat == seat), None)
    due = f" (deadline {deadline})" if deadline else ""
    last = spectator.log.entries[-1].lines if spectator.log.entries else ()
    if event == "game.finished":
        score = f" ({spectator.score})" if spectator.score else ""
        return f"{with_whom} is over: {spectator.won or 'it ended'}{score}", ()
    if event == "turn.reminder":
        return f"{player}: reminder, your move in {with_whom}{where}{due}", ()
    if continues:
        return f"{player}: your turn goes on in {with_whom}{where}{due}", ()
    return f"{player}: your move in {with_whom}{where}{due}", last


def message_words(spectator: SeatTable, seat: int) -> str:
    """A line for the messages of a game's table, none of them quoted (the channel may be read
    by others than the player): "Ada: new messages in Nautilus with Bo"."""
    player, with_whom = _whose(spectator, seat)
    return f"{player}: new messages in {with_whom}"


def _whose(spectator: SeatTable, seat: int) -> tuple[str, str]:
    """The seat's player, and the game with the others ("Nautilus with Bo")."""
    player = next(s.name for s in spectator.seats if s.seat == seat)
    others = [s.name for s in spectator.seats if s.seat != seat]
    return player, f"{spectator.title} with {', '.join(others)}" if others else spectator.title


def invitation_words(event: str, player: str, title: str, inviter: str) -> str:
    if event == "game.invited":
        return f"{player}: {inviter} invites you to a game of {title}"
    return f"{player}: the game of {title} with {inviter} is cancelled (an invitation was declined)"


def body(kind: str, words: str, last: tuple[str, ...], url: str, game_id: str) -> dict[str, Any]:
    """The app's JSON for one notice: its words, the last move, and the game's link."""
    move = " ".join(last)
    if kind == "discord":
        text = discord_escape(words) + (f". {discord_escape(move)}" if move else "")
        link = f" <{url}>"  # <...>: a link without Discord's preview of the page
        room = DISCORD_LIMIT - len(link)
        if len(text) > room:
            text = text[: room - 1] + "…"
        return {
            "content": text + link,
            "username": USERNAME,
            "allowed_mentions": {"parse": []},
        }
    if kind == "slack":
        text = slack_escape(words) + (f". {slack_escape(move)}" if move else "")
        return {"text": f"{text} <{url}|{slack_escape(game_id)}>", "unfurl_links": False}
    raise ValueError(f"no chat app {kind!r}")


def post(url: str, payload: dict[str, Any], timeout: float, policy: UrlPolicy) -> PostResult:
    """POST to the chat app's webhook, if the URL is still a safe one (the SSRF guard of every
    webhook); the detail says only "delivered", "refused by the receiver (HTTP n)" or "could
    not connect"."""
    try:
        target = policy.check(url)
    except UnsafeUrl:
        return PostResult(None, safe_urls.COULD_NOT_CONNECT)
    started = time.monotonic()
    answer = safe_urls.send(
        target,
        json.dumps(payload, separators=(",", ":")).encode(),
        {"Content-Type": "application/json", "User-Agent": "turnpost-webhook/1"},
        timeout,
    )
    held = answer.status is None and time.monotonic() - started >= timeout
    return PostResult(answer.status, answer.detail, timed_out=held)
