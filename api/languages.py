"""The language of the API's words (issue 38): the `message` of an error and the
`description`s of the catalog are said in the language the request's `Accept-Language` prefers
among service.languages.LANGUAGES, and in English without that header or when it names none
of them. Only the header decides, not the player's `language` setting (which is for what
turnpost sends a player: emails, pages): a client says what it reads, request by request, and
a client that says nothing reads English as it always did. Codes, field names and notation stay
the same in every language.

The words are the web client's gettext catalogues (web/translations, one catalogue for the
whole server), and the service's for the engine's refusals (`web.i18n.said_in`): an English
message is its own message id, `service.errors.Words` keeps the id and values of one with
values. A message the catalogues lack stays English, and the answer's Content-Language says
so.
"""

from __future__ import annotations

from flask import request

from service.languages import DEFAULT, LANGUAGES
from web.i18n import said_in


def asked() -> str:
    """The language the request asks for, among ours; English by default."""
    return request.accept_languages.best_match(LANGUAGES) or DEFAULT


def say(text: str) -> tuple[str, str]:
    """`text` in the language asked for, and the language it is in."""
    language = asked()
    words = said_in(text, language)
    return words, language if words != text or language == DEFAULT else DEFAULT


def headers(language: str) -> dict[str, str]:
    """The headers of an answer whose words are in `language`: which language, and that the
    answer depends on Accept-Language (so that no cache gives one language's answer to a
    client that asked for another)."""
    return {"Content-Language": language, "Vary": "Accept-Language"}
