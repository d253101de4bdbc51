"""The emails a player gets: their turn, a reminder, the end of a game, and answers to moves
sent by email. Each is plain text with an HTML twin, and holds only what that player may know:
their own redacted log, their own legal moves, public names."""

from __future__ import annotations

import binascii
import html
import os
import re
import socket
from collections.abc import Sequence
from dataclasses import dataclass, field
from email.header import Header
from email.utils import formataddr, make_msgid, parseaddr
from functools import cache, lru_cache

from service.errors import Words
from service.languages import DEFAULT
from service.play import composer
from service.play.boards import Html
from service.play.table import Move
from service.words import gettext, language, ngettext
from store.record import TimeControl
from transports.mailer import Mail

LISTED_MOVES = 60


def mailable(address: str) -> str:
    """`address` as every mail server takes it: its domain in ASCII (IDNA: "Bücher.example" is
    mailed as "xn--bcher-kva.example"). ValueError, in words (service.errors.Words), for an address that cannot be
    written so: one without a part before and after its @, or whose part before the @ is not
    ASCII (that needs SMTPUTF8, which not every server on a letter's way speaks)."""
    local, at, domain = address.strip().rpartition("@")
    if not (at and local and domain):
        raise ValueError(Words("an email address is a name, an @ and a domain"))
    if not local.isascii():
        raise ValueError(
            Words(
                "the part of an email address before the @ must be plain ASCII letters, digits "
                "and signs (not every mail server can carry others)"
            )
        )
    if domain.isascii():
        return f"{local}@{domain}"  # as it was written
    try:
        ascii_domain = domain.lower().encode("idna").decode("ascii")
    except UnicodeError as err:
        raise ValueError(Words("%(domain)r is not a domain name", domain=domain)) from err
    return f"{local}@{ascii_domain}"


def listed_moves(one_click_max_moves: int) -> int:
    """The most legal moves a turn email lists in words (see moves_section): LISTED_MOVES, or
    as many as may each have a one-click link."""
    return max(LISTED_MOVES, one_click_max_moves)


def moves_section(
    title: str,
    moves: Sequence[Move],
    forms: Sequence[composer.Form],
    links: dict[str, str] | None = None,
) -> tuple[str, list[str | tuple[str, str]]]:
    """The player's legal moves (a seat's table's): listed, each in words with its notation
    (and its one-click link, if any), when there are at most LISTED_MOVES; otherwise summed
    up, one line per kind of move with the values each of its fields may take (the table's
    forms), to be written by the player in the notation explained below it, or chosen on the
    turn page."""
    links = links or {}
    if len(moves) <= LISTED_MOVES or len(links) >= len(moves):
        return f"{title} ({len(moves)}):", [
            (said(m), links[m.notation]) if m.notation in links else said(m) for m in moves
        ]
    summary: list[str | tuple[str, str]] = [
        ngettext(
            "%(kind)s (%(num)d way): %(choices)s",
            "%(kind)s (%(num)d ways): %(choices)s",
            form.count,
            kind=form.action_type,
            choices="; ".join(
                f"{choice.label}: {' '.join(text for _, text in choice.options)}"
                for choice in form.choices
            ),
        )
        for form in forms
    ]
    summary.append(gettext("your turn page (the link below) lets you choose any of them"))
    return gettext("%(title)s (%(count)s, summed up):", title=title, count=len(moves)), summary


def hello(name: str | None) -> str:
    """A letter's greeting, to `name` (or to nobody in particular), in the language spoken."""
    return gettext("Hello %(name)s,", name=name) if name else gettext("Hello,")


def said(move: Move) -> str:
    """A move as an email lists it: in words, with its notation when the words differ."""
    return (
        move.notation
        if move.description == move.notation
        else f"{move.description} ({move.notation})"
    )


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
    sections: Sequence[tuple[str, Sequence[str | tuple[str, str]]] | BoardSection] = field(
        default_factory=list
    )
    """A section's line is text, or (text, url): a line that is a link."""
    links: list[tuple[str, str]] = field(default_factory=list)  # (label, url)
    footer: str = ""


def layout(
    letter: Letter,
    to_name: str,
    to_address: str,
    mail_from: str,
    delivery_id: str,
    reply_to: str | None = None,
    headers: dict[str, str] | None = None,
) -> Mail:
    """The letter as a message ready to send: a text part and its HTML twin
    (multipart/alternative), with its headers, written here as they go on the wire (RFC 5322
    and 2045-2047: ASCII lines ending in CRLF, headers folded at their spaces, non-ASCII words
    and names as encoded words, a part that is not short plain ASCII quoted-printable) rather
    than through the header registry of `email.policy` and its generator, which cost a turn
    email more than its letter did (bench/RESULTS.md, "Email deliveries"). A header value
    with a line break is refused (ValueError), as the standard library refuses it."""
    sender_name, sender = _sender(mail_from)
    lines = [
        _header("Subject", letter.subject),
        _mailbox("From", sender_name, sender),
        _mailbox("To", to_name, to_address),
        _header("Message-ID", make_msgid("turnpost", _host())),
        _header("Auto-Submitted", "auto-generated"),
        _header("X-Turnpost-Delivery", delivery_id),
    ]
    if reply_to:
        lines.append(_header("Reply-To", reply_to))
    lines += [_header(name, value) for name, value in (headers or {}).items()]
    boundary = f"=_{os.urandom(16).hex()}"  # never in a quoted-printable part ("=" starts "=XX")
    lines += [
        "MIME-Version: 1.0",
        _header("Content-Type", f'multipart/alternative; boundary="{boundary}"'),
        "",
        f"--{boundary}",
        _part("plain", _text(letter)),
        f"--{boundary}",
        _part("html", _html(letter)),
        f"--{boundary}--",
        "",
    ]
    return Mail(sender, (to_address,), CRLF.join(lines).encode("ascii"), delivery_id)


CRLF = "\r\n"
HEADER_WIDTH = 78
"""RFC 5322's width of a line (2.1.1), to which a header is folded where it has spaces."""
_NOT_7BIT = re.compile(r"[^\t\n\x20-\x7e]|[^\n]{%d}" % (HEADER_WIDTH + 1))
"""What a part may not hold to go as it is (7bit): a character other than printable ASCII, a
tab and a line break, or a line longer than 78."""


def _header(name: str, value: str) -> str:
    """`name: value` as it goes on the wire: folded before its spaces when it is long (which
    unfolding undoes exactly), or, when it is not plain ASCII or holds what a reader would take
    for an encoded word ("=?"), as encoded words (RFC 2047)."""
    if "\r" in value or "\n" in value:
        raise ValueError(f"a header's value may not break its line ({name})")
    if value.isascii() and "=?" not in value:
        return _folded(f"{name}: {value}")
    return f"{name}: {Header(value, 'utf-8', header_name=name).encode(linesep=CRLF)}"


def _mailbox(name: str, display_name: str, address: str) -> str:
    """An address header: the display name quoted when it must be, or as encoded words."""
    if "\r" in display_name + address or "\n" in display_name + address:
        raise ValueError(f"a header's value may not break its line ({name})")
    if display_name.isascii() and "=?" not in display_name:
        return _folded(f"{name}: {formataddr((display_name, address))}")
    words = Header(display_name, "utf-8", header_name=name).encode(linesep=CRLF)
    return f"{name}: {words} <{address}>"


def _folded(line: str) -> str:
    """A header line longer than HEADER_WIDTH broken before some of its spaces (RFC 5322
    2.2.3); a word longer than the width stays whole (the limit of a line is 998)."""
    if len(line) <= HEADER_WIDTH:
        return line
    words = line.split(" ")
    out, current = [], words[0]
    for word in words[1:]:
        if len(current) + 1 + len(word) > HEADER_WIDTH and current.strip():
            out.append(current)
            current = " " + word
        else:
            current += " " + word
    out.append(current)
    return CRLF.join(out)


def _part(subtype: str, text: str) -> str:
    """A text part in UTF-8: as it is when
    it is short plain ASCII lines, else quoted-printable (see `quoted_printable`)."""
    if _NOT_7BIT.search(text):
        encoding = "quoted-printable"
        body = quoted_printable(text.encode("utf-8")).decode("ascii")
    else:
        encoding, body = "7bit", text
    return (
        f'Content-Type: text/{subtype}; charset="utf-8"{CRLF}'
        f"Content-Transfer-Encoding: {encoding}{CRLF}{CRLF}" + body.replace("\n", CRLF)
    )


QP_WIDTH = 76
"""RFC 2045's width of a quoted-printable line, its soft break's "=" included (binascii's)."""
_QP_PLAIN = b"\t\n\r=" + bytes(range(0x20, 0x7F))
"""The bytes quoted-printable writes as they are (printable ASCII, the tab and line breaks),
and "=", escaped first; any other is written =XX wherever it is."""
_QP_HEX = {byte: b"=%02X" % byte for byte in range(256)}
_QP_LINE = re.compile(rb".{1,%d}(?<!=)(?<!=.)" % (QP_WIDTH - 1), re.DOTALL)
"""A piece of an escaped line between soft breaks: as long as it may be, but never ending
inside an =XX."""


def quoted_printable(data: bytes) -> bytes:
    """`binascii.b2a_qp(data, istext=True)`, byte for byte, in a few passes over whole lines
    rather than binascii's byte by byte: an HTML part is one line of some 15 kB, which binascii
    took a quarter of a millisecond to encode, a twentieth of a turn email's CPU
    (bench/RESULTS.md, "Email deliveries"). What binascii treats by rules of their own (a tab,
    a carriage return, a NUL, a space ending a line or the text, a line that is only a dot)
    goes through binascii itself.

    binascii's rule for the soft breaks, which this follows: a line holds at most
    QP_WIDTH - 1 columns before its "=" (an =XX is never cut: `_QP_LINE`), but a plain byte
    that ends a line or the text is written on the line before it even past that."""
    if b"\t" in data or b"\r" in data or b"\x00" in data:
        return binascii.b2a_qp(data, istext=True)
    escaped = data.replace(b"=", b"=3D")  # first: the other bytes' =XX are not to be escaped
    for byte in set(data.translate(None, _QP_PLAIN)):
        escaped = escaped.replace(bytes((byte,)), _QP_HEX[byte])
    lines = escaped.split(b"\n")
    for i, line in enumerate(lines):
        if line.endswith(b" ") or line == b".":
            return binascii.b2a_qp(data, istext=True)
        if len(line) >= QP_WIDTH:
            pieces = _QP_LINE.findall(line)
            if len(pieces[-1]) == 1:  # a plain last byte goes on the line before it
                pieces[-2:] = [pieces[-2] + pieces[-1]]
            lines[i] = b"=\n".join(pieces)
    return b"\n".join(lines)


@lru_cache(maxsize=8)
def _sender(mail_from: str) -> tuple[str, str]:
    """The setting MAIL_FROM as (display name, address), parsed once, not at every email."""
    return parseaddr(mail_from)


@cache
def _host() -> str:
    """This host's name for Message-IDs, asked once (make_msgid would ask at every email)."""
    return socket.getfqdn()


def _text(letter: Letter) -> str:
    out = [letter.greeting, "", letter.lead, ""]
    for section in letter.sections:
        if isinstance(section, BoardSection):
            out += [section.title, "", section.text]
            continue
        title, lines = section
        out.append(title)
        out += [
            f"  {line}" if isinstance(line, str) else f"  {line[0]}: {line[1]}" for line in lines
        ]
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
        items = "".join(
            f"<li>{e(line)}</li>"
            if isinstance(line, str)
            else f'<li><a href="{e(line[1])}">{e(line[0])}</a></li>'
            for line in lines
        )
        parts.append(f"<p><strong>{e(title)}</strong></p><ul>{items}</ul>")
    if letter.links:
        items = "".join(
            f'<li><a href="{e(url)}">{e(label)}</a></li>' for label, url in letter.links
        )
        parts.append(f"<ul>{items}</ul>")
    if letter.footer:
        parts.append(f"<p><small>{e(letter.footer)}</small></p>")
    spoken = language()
    lang = "" if spoken == DEFAULT else f' lang="{spoken}"'  # English letters stay as they were
    return (
        f'<!doctype html><html{lang}><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1"></head>'
        '<body style="font-family: sans-serif; margin: 0; padding: 8px; '
        'overflow-wrap: anywhere">' + "".join(parts) + "</body></html>\n"
    )


def invitation(
    reader: str,
    title: str,
    game_id: str,
    inviter: str,
    others: list[str],
    time_control: TimeControl | None,
    cancel_if_declined: bool,
    api_url: str,
    game_url: str,
    answer_links: tuple[str, str] | None = None,
    settings_url: str | None = None,
) -> Letter:
    """An invitation to a game: who invited whom to what, and how to accept or refuse: the
    one-click links to accept and to refuse (`answer_links`; each page asks first), the game's
    page (which shows Accept and Refuse to the invited player signed in), then the API's calls
    for programs. The game has not started, so it shows no board and no hand."""
    named = {"inviter": inviter, "title": title, "game": game_id, "others": ", ".join(others)}
    if_declined = (
        gettext("If you refuse, the game is cancelled.")
        if cancel_if_declined
        else gettext("If you refuse, your seat is offered to anyone in the lobby.")
    )
    answer: list[str | tuple[str, str]] = (
        [
            (gettext("Accept the invitation"), answer_links[0]),
            (gettext("Refuse it"), answer_links[1]),
        ]
        if answer_links
        else []
    )
    friends = (
        gettext(
            "You get this because %(inviter)s named you in a new game. To let a player seat you "
            "without asking, add them to your friends on your settings page (%(url)s), or "
            "through the API (PUT /v1/players/me/friends).",
            inviter=inviter,
            url=settings_url,
        )
        if settings_url
        else gettext(
            "You get this because %(inviter)s named you in a new game. To let a player seat you "
            "without asking, add them to your friends, or through the API "
            "(PUT /v1/players/me/friends).",
            inviter=inviter,
        )
    )
    invites = (
        gettext(
            "%(inviter)s invites you to a game of %(title)s, with %(others)s (game %(game)s). It "
            "starts once every invited player has accepted.",
            **named,
        )
        if others
        else gettext(
            "%(inviter)s invites you to a game of %(title)s (game %(game)s). It starts once "
            "every invited player has accepted.",
            **named,
        )
    )
    return Letter(
        subject=gettext(
            "[turnpost] %(inviter)s invites you to play %(title)s (game %(game)s)", **named
        ),
        greeting=hello(reader),
        lead=f"{invites} {_clock(time_control)}",
        sections=[
            (
                gettext("To answer, open a link (its page asks you to confirm):"),
                [*answer, (gettext("See the game"), game_url)],
            ),
            (
                gettext(
                    "Nothing happens if you do not answer: you are not seated and get no turn "
                    "emails for this game unless you accept."
                ),
                [if_declined],
            ),
            (
                gettext("For programs, with an API token (Authorization: Bearer <token>):"),
                [f"accept: POST {api_url}/join", f"refuse: POST {api_url}/decline"],
            ),
        ],
        footer=friends,
    )


def _clock(time_control: TimeControl | None) -> str:
    """An invitation's clock in a sentence."""
    if time_control is None:
        return gettext("There is no clock on this game.")
    if time_control.get("kind") == "bank":
        clock = gettext(
            "Each player has a time bank of %(bank)s, +%(increment)s a move, at most %(most)s",
            bank=_duration(time_control["initial_seconds"]),
            increment=_duration(time_control["increment_seconds"]),
            most=_duration(time_control["max_seconds"]),
        )
    else:
        clock = gettext("Each move has %(time)s", time=_duration(time_control["per_move_seconds"]))
    if time_control.get("weekends_off"):
        clock = gettext("%(clock)s; weekends off", clock=clock)
    if time_control["on_timeout"] == "auto":
        return gettext("%(clock)s; after that the computer plays for you.", clock=clock)
    return gettext("%(clock)s; after that you forfeit the game.", clock=clock)


def cancellation(
    reader: str, title: str, game_id: str, inviter: str | None, declined_by: str
) -> Letter:
    """The news that a game that had not started was cancelled because an invitation was
    declined (to the creator: `inviter` None; to the other players: the creator's name)."""
    named = {"title": title, "game": game_id, "inviter": inviter, "who": declined_by}
    return Letter(
        subject=gettext(
            "[turnpost] %(title)s (game %(game)s) is cancelled: %(who)s declined", **named
        ),
        greeting=hello(reader),
        lead=gettext(
            "%(who)s declined the invitation, so the game %(title)s (game %(game)s), is "
            "cancelled. It had not started; nothing else happens.",
            **named,
        )
        if inviter is None
        else gettext(
            "%(who)s declined the invitation, so the game %(inviter)s invited you to, %(title)s "
            "(game %(game)s), is cancelled. It had not started; nothing else happens.",
            **named,
        ),
    )


def _duration(seconds: int) -> str:
    """A whole number of days, hours, minutes or else seconds, in words."""
    if seconds % 86400 == 0:
        return ngettext("%(num)d day", "%(num)d days", seconds // 86400)
    if seconds % 3600 == 0:
        return ngettext("%(num)d hour", "%(num)d hours", seconds // 3600)
    if seconds % 60 == 0:
        return ngettext("%(num)d minute", "%(num)d minutes", seconds // 60)
    return ngettext("%(num)d second", "%(num)d seconds", seconds)
