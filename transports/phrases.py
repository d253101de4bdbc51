"""Words a transport says to a person (why a URL or a push subscription cannot be used), in
English, that keep the message id and values they were made from, so that the service can say
them in the reader's language (issue 38). `service.errors.Words` is this class under the
service's name; web.i18n.said_in and service.words.said read `msgid` and `values`, and
babel.cfg extracts each `Phrase` written with a literal message."""

from __future__ import annotations

from typing import Any, Self


class Phrase(str):
    """A message with values, in English (`Phrase("the %(name)s host %(host)s does not
    resolve", name=..., host=...)`), that keeps its gettext message id and values. A value
    that is words too (what a URL is for) is a Phrase itself, said in the same language."""

    msgid: str
    values: dict[str, Any]

    def __new__(cls, msgid: str, **values: Any) -> Self:
        said = super().__new__(cls, msgid % values if values else msgid)
        said.msgid = msgid
        said.values = values
        return said


class PhrasedError(ValueError):
    """A ValueError whose message is a Phrase, kept as `words` for the service to say in the
    reader's language."""

    def __init__(self, words: Phrase):
        super().__init__(words)
        self.words = words
