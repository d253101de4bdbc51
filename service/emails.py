"""The emails a player gets: their turn, a reminder, the end of a game, and answers to moves
sent by email. Each is plain text with an HTML twin, and holds only what that player may know:
their own redacted log, their own legal moves, public names."""
from __future__ import annotations

import html
from collections.abc import Sequence
from dataclasses import dataclass, field
from email.message import EmailMessage
from email.utils import formataddr, make_msgid

from .boards import Html


LISTED_MOVES = 60


def moves_section(title: str, moves: list[str], game_id: str) -> tuple[str, list[str]]:
    """A section listing the player's legal moves in notation, the first LISTED_MOVES of them."""
    listed = moves[:LISTED_MOVES]
    if len(moves) > len(listed):
        listed.append(f"... and {len(moves) - len(listed)} more "
                      f"(GET /v1/games/{game_id}/legal-moves)")
    return f"{title} ({len(moves)}):", listed


@dataclass(frozen=True)
class BoardSection:
    """The game drawn for the reader: the text board in the plain part, the HTML board (already
    safe markup, built from the reader's view) in the HTML part."""
    title: str
    text: str
    html: Html


@dataclass(frozen=True)
class Letter:
    """What an email says, before it is laid out as text and HTML."""
    subject: str
    greeting: str
    lead: str
    sections: Sequence[tuple[str, list[str]] | BoardSection] = field(default_factory=list)
    links: list[tuple[str, str]] = field(default_factory=list)   # (label, url)
    footer: str = ""


def layout(letter: Letter, to_name: str, to_address: str, mail_from: str,
           delivery_id: str, reply_to: str | None = None,
           headers: dict[str, str] | None = None) -> EmailMessage:
    message = EmailMessage()
    message["Subject"] = letter.subject
    message["From"] = mail_from
    message["To"] = formataddr((to_name, to_address))
    message["Message-ID"] = make_msgid("turnpost")
    message["Auto-Submitted"] = "auto-generated"
    message["X-Turnpost-Delivery"] = delivery_id
    if reply_to:
        message["Reply-To"] = reply_to
    for name, value in (headers or {}).items():
        message[name] = value
    message.set_content(_text(letter))
    message.add_alternative(_html(letter), subtype="html")
    return message


def _text(letter: Letter) -> str:
    out = [letter.greeting, "", letter.lead, ""]
    for section in letter.sections:
        if isinstance(section, BoardSection):
            out += [section.title, "", section.text]
            continue
        title, lines = section
        out.append(title)
        out += [f"  {line}" for line in lines]
        out.append("")
    for label, url in letter.links:
        out.append(f"{label}: {url}")
    if letter.links:
        out.append("")
    if letter.footer:
        out.append(letter.footer)
    return "\n".join(out).rstrip() + "\n"


def _html(letter: Letter) -> str:
    e = html.escape
    parts = [f"<p>{e(letter.greeting)}</p>", f"<p>{e(letter.lead)}</p>"]
    for section in letter.sections:
        if isinstance(section, BoardSection):
            board = section.html if isinstance(section.html, Html) else e(section.html)
            parts.append(f"<p><strong>{e(section.title)}</strong></p>{board}")
            continue
        title, lines = section
        items = "".join(f"<li>{e(line)}</li>" for line in lines)
        parts.append(f"<p><strong>{e(title)}</strong></p><ul>{items}</ul>")
    if letter.links:
        items = "".join(f'<li><a href="{e(url)}">{e(label)}</a></li>'
                        for label, url in letter.links)
        parts.append(f"<ul>{items}</ul>")
    if letter.footer:
        parts.append(f"<p><small>{e(letter.footer)}</small></p>")
    return ("<!doctype html><html><body style=\"font-family: sans-serif\">"
            + "".join(parts) + "</body></html>\n")
