"""`turnpost mail-in`: an SMTP server that takes players' replies (the MX of MAIL_DOMAIN
points at it) and plays them. It accepts mail only for reply addresses (move+TOKEN.VERSION@
MAIL_DOMAIN); every accepted message is answered by email, so SMTP itself only says yes,
no such mailbox, or try again later."""

from __future__ import annotations

import asyncio
import logging

from aiosmtpd.controller import Controller

from service.by_mail.moves import MailMoves
from service.notify.reply_addresses import read_reply_address

log = logging.getLogger("turnpost.mailin")


class MoveMailHandler:
    def __init__(self, mail_moves: MailMoves, domain: str):
        self.mail_moves = mail_moves
        self.domain = domain

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if read_reply_address(address, self.domain) is None:
            return "550 5.1.1 No such mailbox here"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        raw = envelope.original_content or envelope.content
        try:
            outcome = await asyncio.get_running_loop().run_in_executor(
                None, self.mail_moves.receive, raw, list(envelope.rcpt_tos)
            )
        except Exception:
            log.exception("a reply could not be processed; the sender's server will retry")
            return "451 4.3.0 Try again later"
        log.info("reply %s: %s", outcome.status, outcome.code)
        return "250 OK"


def mail_in_server(mail_moves: MailMoves, domain: str, host: str, port: int) -> Controller:
    return Controller(
        MoveMailHandler(mail_moves, domain), hostname=host, port=port, data_size_limit=1024 * 1024
    )
