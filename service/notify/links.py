"""Signed one-click links: a token for a URL that says which move to play, for which seat, at
which game version, until when, and that only the server can make. An invitation's links are
made the same way, with the answer (accept or refuse) where a move link has its notation, and
so are a proposal's (accept or decline, with the proposal's id where a move link has its
version).

A token is `<payload>.<mac>`: the payload is the base64url (unpadded) of a compact JSON array
[game_id, seat, version, notation, expires_at]; the mac is the base64url of HMAC-SHA256 over
a purpose label and the payload text, truncated to 128 bits (RFC 2104 section 5), which keeps
the URL short and is ample against forgery. The purpose label (MOVE, INVITATION or PROPOSAL)
keeps each kind of link from being read as another. Standard library only.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import re
from dataclasses import dataclass

MOVE = b"turnpost move link v1\n"  # keeps these MACs apart from any other use of the key
INVITATION = b"turnpost invitation link v1\n"
PROPOSAL = b"turnpost proposal link v1\n"
_MAC_BYTES = 16
_MAX_TOKEN = 2048  # far more than any real link; longer input is refused before any work
_SHAPE = re.compile(r"([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]{22})")


@dataclass(frozen=True)
class MoveLink:
    game_id: str
    seat: int
    version: int
    notation: str
    expires_at: int  # epoch seconds
    link_id: str  # a short stable id of this link (hex of a hash of its token), used by the
    # caller to make it single-use in Redis


class LinkError(Exception):
    """A link that cannot be used; `code` is link/bad_signature, link/expired or
    link/malformed."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code
        self.message = message


def sign_link(
    secret: bytes,
    game_id: str,
    seat: int,
    version: int,
    notation: str,
    expires_at: int,
    purpose: bytes = MOVE,
) -> str:
    """A URL-safe token (no padding, only [A-Za-z0-9_-.]) carrying the fields and an
    HMAC-SHA256 over them with `secret`; compact (it goes in a URL in an email)."""
    fields = [game_id, seat, version, notation, expires_at]
    if not _well_typed(fields):
        raise ValueError(
            "a link needs a game id and notation (text), and a seat, version "
            "and expiry (non-negative integers)"
        )
    payload = _b64(json.dumps(fields, ensure_ascii=False, separators=(",", ":")).encode())
    return f"{payload}.{_mac(secret, payload, purpose)}"


def read_link(secret: bytes, token: str, now: float, purpose: bytes = MOVE) -> MoveLink:
    """Verify (constant-time compare) and decode; LinkError when forged, altered, truncated,
    signed with another secret, or expired (now >= expires_at).

    The MAC is compared as text, so exactly one spelling of a token is accepted (base64 has
    others for the same bytes): its link_id cannot be dodged to use a link twice."""
    shape = _SHAPE.fullmatch(token) if isinstance(token, str) and len(token) <= _MAX_TOKEN else None
    if shape is None:
        raise LinkError("link/malformed", "this is not a move link")
    payload, mac = shape.groups()
    if not hmac.compare_digest(mac, _mac(secret, payload, purpose)):
        raise LinkError(
            "link/bad_signature",
            "this move link is not valid: it was altered or not made by this server",
        )
    fields = _fields(payload)
    if fields is None:  # a good MAC over a payload sign_link would never make
        raise LinkError("link/malformed", "this move link cannot be read")
    game_id, seat, version, notation, expires_at = fields
    if now >= expires_at:
        raise LinkError("link/expired", "this move link has expired: the turn it was for is over")
    link_id = hashlib.sha256(token.encode()).hexdigest()[:32]
    return MoveLink(game_id, seat, version, notation, expires_at, link_id)


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _mac(secret: bytes, payload: str, purpose: bytes) -> str:
    """hmac.digest: OpenSSL's HMAC in one call, the same bytes as an hmac.new object's digest
    at a fraction of its cost (a turn email signs its turn page's link and up to a dozen
    moves')."""
    digest = hmac.digest(secret, purpose + payload.encode(), "sha256")
    return _b64(digest[:_MAC_BYTES])


def _fields(payload: str) -> list | None:
    """The five fields of a payload, None unless they have the types sign_link gives."""
    try:
        fields = json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))
    except ValueError:  # bad base64 (binascii.Error is one), UTF-8 or JSON
        return None
    return fields if isinstance(fields, list) and _well_typed(fields) else None


def _well_typed(fields: list) -> bool:
    """[game_id, seat, version, notation, expires_at]: two texts and three counts."""
    if len(fields) != 5:
        return False
    game_id, seat, version, notation, expires_at = fields
    counts = (seat, version, expires_at)
    return (
        isinstance(game_id, str)
        and isinstance(notation, str)
        and all(isinstance(n, int) and not isinstance(n, bool) and n >= 0 for n in counts)
    )
