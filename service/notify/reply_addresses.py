"""The reply address of a turn email, move+<token>.<version>@<mail domain>: written into the
email by the notifications, read back by play by email. Standard library only."""

from __future__ import annotations

import re
from email.utils import parseaddr

REPLY_LOCAL_PREFIX = "move"

_TOKEN = re.compile(r"[0-9a-f]{20,64}")
_REPLY_LOCAL = re.compile(
    REPLY_LOCAL_PREFIX + r"\+([0-9a-f]{20,64})\.(0|[1-9][0-9]{0,17})", re.IGNORECASE
)


def reply_address(token: str, version: int, domain: str) -> str:
    """move+<token>.<version>@<domain>; token is [0-9a-f]{20,64} (we make it with
    secrets.token_hex(16))."""
    if not isinstance(token, str) or not _TOKEN.fullmatch(token):
        raise ValueError("the token must be 20 to 64 lower-case hex digits")
    if isinstance(version, bool) or not isinstance(version, int) or version < 0:
        raise ValueError("the version must be a non-negative integer")
    if not domain or "@" in domain:
        raise ValueError("the domain must be a bare mail domain")
    return f"{REPLY_LOCAL_PREFIX}+{token}.{version}@{domain}"


def read_reply_address(address: str, domain: str) -> tuple[str, int] | None:
    """(token, version) from an address like above (case-insensitive local part and domain,
    tolerate a display name and angle brackets); None if it is not one of ours."""
    addr = parseaddr(address)[1]
    local, at, addr_domain = addr.rpartition("@")
    if not at or addr_domain.lower() != domain.lower():
        return None
    found = _REPLY_LOCAL.fullmatch(local)
    if not found:
        return None
    return found.group(1).lower(), int(found.group(2))
