"""marshmallow's words in a `request/invalid` answer (422), said in the language the client
asks for (issue 38, api/languages.py): "Missing data for required field." is "Нет данных для
обязательного поля." to a client that asks for Russian. The field names (the `errors`' keys),
the values a message quotes (a limit, the choices) and the code stay as they are; English is
marshmallow's own words, untouched.

marshmallow words its messages in English once, for every request (its fields'
`default_error_messages` and its validators' messages are the class's, shared by every
request of a process, and gevent serves many at once), so they are not changed per request:
the English messages it answered are read back, after the validation, against the templates
below (marshmallow's, their `{name}` values as `%(name)s`) and said again from the catalogue.
A message that matches none (a schema's own words) is said as its own message id, so it stays
English unless the catalogue has it."""

from __future__ import annotations

import re
from typing import Any

from service.errors import Words

from . import languages

#: marshmallow's messages (marshmallow.fields and marshmallow.validate), as message ids.
MESSAGES = (
    Words("Missing data for required field."),
    Words("Field may not be null."),
    Words("Invalid value."),
    Words("Invalid type."),
    Words("Invalid input."),
    Words("Invalid input type."),
    Words("Unknown field."),
    Words("Not a valid string."),
    Words("Not a valid utf-8 string."),
    Words("Not a valid integer."),
    Words("Not a valid number."),
    Words("Number too large."),
    Words("Special numeric values (nan or infinity) are not permitted."),
    Words("Not a valid boolean."),
    Words("Not a valid list."),
    Words("Not a valid tuple."),
    Words("Not a valid mapping type."),
    Words("Not a valid email address."),
    Words("Not a valid URL."),
    Words("Not a valid UUID."),
    Words("Not a valid date."),
    Words("Not a valid datetime."),
    Words("Not a valid period of time."),
    Words("Must be one of: %(choices)s."),
    Words("Length must be between %(min)s and %(max)s."),
    Words("Shorter than minimum length %(min)s."),
    Words("Longer than maximum length %(max)s."),
    Words("Length must be %(equal)s."),
    Words("Must be greater than or equal to %(min)s."),
    Words("Must be greater than %(min)s."),
    Words("Must be less than or equal to %(max)s."),
    Words("Must be less than %(max)s."),
    Words("Must be greater than or equal to %(min)s and less than or equal to %(max)s."),
    Words("Must be greater than %(min)s and less than %(max)s."),
    Words("Must be greater than or equal to %(min)s and less than %(max)s."),
    Words("Must be greater than %(min)s and less than or equal to %(max)s."),
    Words("Must be equal to %(other)s."),
    Words("String does not match expected pattern."),
    Words("One or more of the choices you made was not in: %(choices)s."),
    Words("One or more of the choices you made was in: %(values)s."),
)


def _pattern(msgid: str) -> re.Pattern[str]:
    """The English messages a template words: its `%(name)s` read back as a value."""
    parts = re.split(r"%\((\w+)\)s", msgid)
    text = "".join(
        re.escape(part) if i % 2 == 0 else f"(?P<{part}>.+?)" for i, part in enumerate(parts)
    )
    return re.compile(text + r"\Z")


#: The longest first, so that "Must be greater than 1." is never read as "... or equal to".
_TEMPLATES = [(_pattern(m.msgid), m.msgid) for m in sorted(MESSAGES, key=lambda m: -len(m.msgid))]


def words_of(message: str) -> Words:
    """A message marshmallow answered, as the template it was worded from and its values."""
    for pattern, msgid in _TEMPLATES:
        found = pattern.match(message)
        if found:
            return Words(msgid, **found.groupdict())
    return Words(message)


def said_in(errors: Any, language: str) -> Any:
    """The `errors` of a 422 (marshmallow's messages, by location and field), each message
    in `language`; the keys as they are."""
    if language == languages.DEFAULT:
        return errors
    if isinstance(errors, dict):
        return {key: said_in(value, language) for key, value in errors.items()}
    if isinstance(errors, list):
        return [said_in(value, language) for value in errors]
    if isinstance(errors, str):
        return languages.said_in(words_of(errors), language)
    return errors
