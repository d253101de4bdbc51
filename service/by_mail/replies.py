"""Reading a player's emailed reply: who sent it, to which address, and the move lines they wrote
(the address itself is read by service.notify.reply_addresses).

Pure and standard library only. Mail is hostile input: nothing here raises on a malformed
message; what cannot be read is simply absent (no sender, no move lines).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from email import message_from_bytes
from email.message import EmailMessage
from email.policy import EmailPolicy
from email.utils import getaddresses
from html.parser import HTMLParser
from typing import cast


@dataclass(frozen=True)
class Reply:
    message_id: str | None  # the Message-ID header, stripped of <>, or None
    sender: str | None  # the From addr-spec, lower-cased
    recipients: list[str]  # addr-specs from To, Cc, Delivered-To, X-Original-To, in order
    subject: str  # decoded (RFC 2047), "" if none
    move_lines: list[str]  # the lines the player wrote, in order, up to a message
    auto_submitted: bool  # Auto-Submitted other than "no", or an auto-reply/bounce
    message: str | None = None
    """A message to the table: what follows `say:` (on its line and the lines after it)."""
    message_to: str | None = None
    """The name after `say to` (`say to Bo: ...`): a message to that player alone."""


def parse_reply(raw: bytes) -> Reply:
    """Read a raw RFC 822 message. Never raises: a message that cannot be read gives a Reply
    with empty fields (and no move lines)."""
    msg = cast(EmailMessage, message_from_bytes(raw, policy=_LENIENT))  # the policy's factory
    message_id = _header(msg, "Message-ID").strip().strip("<>").strip() or None
    senders = _addresses(msg, "From")
    recipients: list[str] = []
    seen: set[str] = set()
    for name in ("To", "Cc", "Delivered-To", "X-Original-To"):
        for addr in _addresses(msg, name):
            if addr.lower() not in seen:  # Delivered-To usually repeats To
                seen.add(addr.lower())
                recipients.append(addr)
    moves, message, to = split_message(_move_lines(msg))
    return Reply(
        message_id=message_id,
        sender=senders[0].lower() if senders else None,
        recipients=recipients,
        subject=" ".join(_header(msg, "Subject").split()),
        move_lines=moves,
        auto_submitted=_is_automatic(msg, senders),
        message=message,
        message_to=to,
    )


_SAY = re.compile(r"say(?:\s+to\s+(?P<to>[^:]{1,64}?))?\s*:\s*(?P<text>.*)", re.IGNORECASE)


def split_message(lines: list[str]) -> tuple[list[str], str | None, str | None]:
    """(the move lines, the message, the name it is for): a line that starts with `say:` (or
    `say to <name>:`) begins a message to the table (or to that player alone), which runs to
    the end of the player's lines, so that a mail client's line wrapping does not cut it; the
    lines before it are the moves (docs/play-by-email.md)."""
    for i, line in enumerate(lines):
        found = _SAY.fullmatch(line) if len(line) <= 100_000 else None
        if found:
            text = " ".join([found["text"], *lines[i + 1 :]]).strip()
            to = found["to"].strip() if found["to"] else None
            return lines[:i], text, to
    return lines, None, None


# -- headers ---------------------------------------------------------------------------------


class _LenientPolicy(EmailPolicy):
    """email.policy.default, except that a header value its parser chokes on is kept as the
    raw text. The standard library raises IndexError or HeaderParseError on some malformed
    values (of Content-Type, addresses, Message-ID ...), and does so even while parsing the
    message, since the parser reads Content-Type to find the MIME structure."""

    def header_fetch_parse(self, name, value):
        try:
            return super().header_fetch_parse(name, value)
        except Exception:
            return " ".join(value.split())


_LENIENT = _LenientPolicy()


def _header(msg: EmailMessage, name: str) -> str:
    """A header's decoded value, "" when absent."""
    value = msg.get(name)
    return "" if value is None else str(value)


def _addresses(msg: EmailMessage, name: str) -> list[str]:
    """The addr-specs of every occurrence of an address header, in order."""
    values = [str(value) for value in msg.get_all(name, [])]
    return [addr for _, addr in getaddresses(values) if "@" in addr]


_AUTOMATIC_PRECEDENCE = {"bulk", "junk", "list", "auto_reply"}
_AUTOMATIC_HEADERS = ("X-Autoreply", "X-Autorespond", "X-Failed-Recipients")


def _is_automatic(msg: EmailMessage, senders: list[str]) -> bool:
    """RFC 3834 auto-replies, vacation responders' own markers, and delivery reports."""
    auto_submitted = _header(msg, "Auto-Submitted").split(";")[0].strip().lower()
    if auto_submitted and auto_submitted != "no":
        return True
    if _header(msg, "Precedence").strip().lower() in _AUTOMATIC_PRECEDENCE:
        return True
    if any(_header(msg, name).strip() for name in _AUTOMATIC_HEADERS):
        return True
    if _header(msg, "Return-Path").strip() == "<>":  # the null sender of bounces (RFC 5321)
        return True
    if any(addr.lower().startswith("mailer-daemon@") for addr in senders):
        return True
    content_type = _header(msg, "Content-Type").split(";")[0].strip().lower()
    return content_type == "multipart/report"  # a delivery status notification (RFC 3464)


# -- the body --------------------------------------------------------------------------------


def _move_lines(msg: EmailMessage) -> list[str]:
    """The player's lines from the plain text body, else from the HTML one (some clients send
    an empty plain alternative next to the real HTML)."""
    plain = _body_text(msg, "plain")
    lines = _player_lines(plain) if plain is not None else []
    if not lines:
        html = _body_text(msg, "html")
        lines = _player_lines(_html_to_text(html)) if html is not None else []
    return lines


def _body_text(msg: EmailMessage, subtype: str) -> str | None:
    """The decoded text of the message's body part of this subtype (format=flowed undone),
    None when there is none or it is binary."""
    part = msg.get_body(preferencelist=(subtype,))
    if part is None:
        return None
    payload = part.get_payload(decode=True)
    if not isinstance(payload, bytes):  # a multipart part has no bytes of its own
        payload = b""
    charset = part.get_content_charset() or "utf-8"
    flowed = str(part.get_param("format", "")).lower() == "flowed"
    delsp = str(part.get_param("delsp", "")).lower() == "yes"
    try:
        text = payload.decode(charset, errors="replace")
    except (LookupError, ValueError):  # an unknown charset name, or one with a NUL in it
        text = payload.decode("utf-8", errors="replace")
    if _looks_binary(text):
        return None
    return _unflow(text, delsp) if flowed else text


_ODD_CHARACTERS = re.compile(r"[\x01-\x08\x0b\x0e-\x1f\ufffd]")  # controls, undecodable


def _looks_binary(text: str) -> bool:
    """Garbage is not a move: a NUL, or more than 5% undecodable or control characters."""
    return "\x00" in text or len(_ODD_CHARACTERS.findall(text)) > len(text) / 20


def _unflow(text: str, delsp: bool) -> str:
    """Undo RFC 3676 format=flowed: a line ending in a space continues on the next line of
    the same quote depth (with DelSp=yes that space was added by the sender and goes).
    Space-stuffing is left in: every line is trimmed afterwards."""
    out: list[str] = []
    open_depth = None  # quote depth of the last line when it was soft-broken, else None
    for line in text.replace("\r\n", "\n").split("\n"):
        depth = len(line) - len(line.lstrip(">"))
        body = line[depth:]
        soft = body.endswith(" ") and body != "-- "
        if soft and delsp:
            body = body[:-1]
        if open_depth == depth:
            out[-1] += body
        else:
            out.append(">" * depth + (" " if depth else "") + body)
        open_depth = depth if soft else None
    return "\n".join(out)


# -- HTML ------------------------------------------------------------------------------------

_BLOCK_TAGS = {
    "p",
    "div",
    "br",
    "tr",
    "li",
    "ul",
    "ol",
    "table",
    "hr",
    "pre",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
}
_HIDDEN_TAGS = {"style", "script", "title"}
_QUOTE_CLASSES = {"gmail_quote", "moz-cite-prefix", "yahoo_quoted"}
_QUOTE_IDS = {"divrplyfwdmsg", "appendonsend"}


class _HtmlText(HTMLParser):
    """The visible text of an HTML reply up to where the quoted message starts. Outlook puts
    the quoted message after (not inside) its divRplyFwdMsg header, so everything from the
    first quote container on is dropped, as in plain text."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.hidden = 0
        self.pre = 0
        self.quoted = False

    def handle_starttag(self, tag, attrs):
        if self.quoted:
            return
        attributes = dict(attrs)
        classes = set((attributes.get("class") or "").split())
        if (
            tag == "blockquote"
            or classes & _QUOTE_CLASSES
            or (attributes.get("id") or "").lower() in _QUOTE_IDS
        ):
            self.quoted = True
            return
        if tag in _HIDDEN_TAGS:
            self.hidden += 1
        elif tag == "pre":
            self.pre += 1
        if tag in _BLOCK_TAGS:
            self.parts.append("\n")

    def handle_endtag(self, tag):
        if self.quoted:
            return
        if tag in _HIDDEN_TAGS:
            self.hidden = max(0, self.hidden - 1)
        elif tag == "pre":
            self.pre = max(0, self.pre - 1)
        if tag in _BLOCK_TAGS and tag != "br":
            self.parts.append("\n")

    def handle_data(self, data):
        if self.quoted or self.hidden:
            return
        self.parts.append(data if self.pre else re.sub(r"[ \t\r\n\f]+", " ", data))


def _html_to_text(html: str) -> str:
    """The visible text of an HTML reply above its quoted part, one line per line break."""
    parser = _HtmlText()
    parser.feed(html)
    parser.close()
    return "".join(parser.parts)


# -- the player's lines ----------------------------------------------------------------------

_INVISIBLE = dict.fromkeys(map(ord, "\u200b\u200c\u200d\u200e\u200f\u2060\ufeff\u00ad"))
_SPACES = re.compile(r"[\s\u00a0\u2007\u202f]+")

_QUOTE_STARTS = (
    re.compile(r"-{3,}\s*[^-\s].*?-{3,}"),  # -----Original Message-----, Forwarded
    re.compile(r"_{5,}"),  # Outlook's separator line
)
_SIGNATURE = re.compile(r"--")  # RFC 3676 "-- ", seen after the trim
_MOBILE_FOOTER = re.compile(
    r"(sent from|sent with|get outlook for|von meinem|gesendet von|envoyé de|envoyé depuis|"
    r"enviado desde|inviato da|verstuurd vanaf|verzonden vanaf)\b.{0,60}",
    re.IGNORECASE,
)
_ATTRIBUTION = re.compile(
    r"(on\b.*\bwrote"  # On Mon, 3 Mar 2025, Ada wrote:
    r"|am\b.*\bschrieb\b.*"  # Am 03.03.2025 um 10:00 schrieb Ada:
    r"|le\b.*\ba écrit"  # Le 3 mars 2025, Ada a écrit :
    r"|el\b.*\bescribió"  # El 3 mar 2025, Ada escribió:
    r"|il\b.*\bha scritto"  # Il giorno 3 mar 2025 Ada ha scritto:
    r"|op\b.*\bschreef\b.*"  # Op 3 mrt 2025 schreef Ada:
    r")\s?:",
    re.IGNORECASE,
)
_HEADER_FROM = re.compile(r"\*?(from|von|de|da|van)\s?:\*?\s", re.IGNORECASE)
_HEADER_NEXT = re.compile(
    r"\*?(sent|date|to|gesendet|datum|an|envoyé|à|enviado|fecha|para|inviato|data|a|"
    r"verzonden|aan)\s?:",
    re.IGNORECASE,
)


def _clean_line(line: str) -> str:
    """Zero-width characters out, any run of spaces (non-breaking too) made one, trimmed.
    Punctuation stays: notations use '+', '-', ';' and '@' (e.g. 'play 3+ 0 5')."""
    return _SPACES.sub(" ", line.translate(_INVISIBLE)).strip()


def _player_lines(text: str) -> list[str]:
    """The non-empty cleaned lines above the first quote, attribution, signature or footer."""
    lines = [_clean_line(line) for line in text.replace("\r\n", "\n").split("\n")]
    following = [""] * len(lines)  # the next non-empty line after each line
    upcoming = ""
    for i in range(len(lines) - 1, -1, -1):
        following[i] = upcoming
        upcoming = lines[i] or upcoming
    kept: list[str] = []
    for line, after in zip(lines, following):
        if _starts_quote(line, after):
            break
        if line:
            kept.append(line)
    return kept


_MARKER_MAX = 300  # longer lines are never markers (and are not fed to the patterns)


def _starts_quote(line: str, after: str) -> bool:
    """Whether the quoted message (or the signature) starts at this line; `after` is the next
    non-empty line."""
    if line.startswith(">"):
        return True
    if len(line) > _MARKER_MAX:
        return False
    if _SIGNATURE.fullmatch(line) or _MOBILE_FOOTER.fullmatch(line):
        return True
    if any(pattern.fullmatch(line) for pattern in _QUOTE_STARTS):
        return True
    if _ATTRIBUTION.fullmatch(line) or (
        after and len(after) <= _MARKER_MAX and _ATTRIBUTION.fullmatch(f"{line} {after}")
    ):
        return True  # Gmail wraps a long attribution over two lines
    if line.endswith(":") and after.startswith(">"):
        return True  # an attribution in a language or form not listed above
    return bool(_HEADER_FROM.match(line) and _HEADER_NEXT.match(after))
