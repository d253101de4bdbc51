"""The languages turnpost speaks to people in (issue 38). A player's `language` setting is one
of these codes, or None when they never chose one: the web pages then follow the browser's
Accept-Language, and English is the last resort. The words themselves are the gettext
catalogues' (web/translations); the codes and the notation of moves stay the same in every
language."""

LANGUAGES = ("en", "ru", "it")
DEFAULT = "en"
NAMES = {"en": "English", "ru": "Русский", "it": "Italiano"}
"""Each language's name in itself, as a person who reads it looks for it in a list."""
