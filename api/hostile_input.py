"""JSON bodies are checked before any view reads them, so that no string the API keeps can later
break an email header or a page, and no cheap body can make the parser fail with a 500:

- nesting deeper than MAX_DEPTH, and integers beyond 2**53 (or with more digits than Python
  reads at all), are refused;
- a string (or object key) with a control character (CR, LF, NUL, ESC, DEL...) or a lone
  UTF-16 surrogate is refused, naming where it is.
"""

from __future__ import annotations

import json
import re

from flask import request

from service.errors import ErrorCode, ServiceError, Words

MAX_DEPTH = 32
MAX_INTEGER = 2**53
#: C0 and C1 controls, DEL, and the UTF-16 surrogates (which are not characters on their own)
FORBIDDEN = re.compile("[\x00-\x1f\x7f-\x9f\ud800-\udfff]")
NAMES = {"\r": "CR", "\n": "LF", "\x00": "NUL", "\t": "TAB", "\x1b": "ESC", "\x7f": "DEL"}


def check_json_body() -> None:
    """A Flask before_request hook: 400 or 422 for a JSON body the API will not take."""
    if not request.content_length or not request.is_json:  # the cheaper question first
        return
    raw = request.get_data(cache=True)
    # no deeper than it has brackets: most bodies are not read byte by byte in Python
    if raw.count(b"[") + raw.count(b"{") > MAX_DEPTH and _depth_exceeds(raw, MAX_DEPTH):
        raise ServiceError(
            ErrorCode.REQUEST_BAD_JSON,
            Words("the JSON body is nested deeper than %(most)d levels", most=MAX_DEPTH),
        )
    try:
        body = json.loads(raw)
    except (ValueError, RecursionError) as err:
        if "digits" in str(err):
            raise ServiceError(
                ErrorCode.REQUEST_BAD_JSON, "the JSON body holds a number too long to read"
            ) from err
        return  # not JSON at all: the body parser answers request/bad_json as usual
    problem = _first_problem(body, "")
    if problem:
        raise ServiceError(
            ErrorCode.REQUEST_INVALID,
            Words("the request does not match the schema: %(where)s", where=problem),
        )


def _depth_exceeds(raw: bytes, limit: int) -> bool:
    """Whether brackets outside strings nest deeper than `limit` (without parsing)."""
    depth, in_string, escaped = 0, False, False
    for byte in raw:
        if in_string:
            if escaped:
                escaped = False
            elif byte == 0x5C:  # backslash
                escaped = True
            elif byte == 0x22:  # quote
                in_string = False
        elif byte == 0x22:
            in_string = True
        elif byte in (0x5B, 0x7B):  # [ {
            depth += 1
            if depth > limit:
                return True
        elif byte in (0x5D, 0x7D):  # ] }
            depth -= 1
    return False


def _first_problem(value, where: str) -> str | None:
    if isinstance(value, str):
        return _string_problem(value, where)
    if isinstance(value, bool) or value is None or isinstance(value, float):
        return None
    if isinstance(value, int):
        if abs(value) > MAX_INTEGER:
            return f"{where or 'the body'}: numbers must be between -2^53 and 2^53"
        return None
    items = value.items() if isinstance(value, dict) else enumerate(value)
    for key, item in items:
        path = f"{where}.{key}" if where else str(key)
        if isinstance(key, str) and (
            problem := _string_problem(key, f"a key in {where or 'the body'}")
        ):
            return problem
        if problem := _first_problem(item, path):
            return problem
    return None


def _string_problem(text: str, where: str) -> str | None:
    found = FORBIDDEN.search(text)
    if not found:
        return None
    char = found.group()
    if "\ud800" <= char <= "\udfff":
        what = f"a lone surrogate (U+{ord(char):04X})"
    else:
        what = f"a control character ({NAMES.get(char, f'U+{ord(char):04X}')})"
    return (
        f"{where or 'the body'}: contains {what}; names, emails and other text may not "
        "contain control characters (CR, LF, NUL...) or lone surrogates"
    )
