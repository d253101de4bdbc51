"""The service's words (service/words.py, the catalogue of domain `service`): every message
has a Russian and an Italian translation, each keeps its placeholders and its plural forms, an
extraction finds no message the catalogues lack (or keep for nothing), and the words follow
the language of the block they are said in."""

import subprocess
import sys
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from service import words
from service.play.table import won_words
from service.timefmt import duration, in_words

ROOT = Path(__file__).resolve().parents[2]
TRANSLATED = ("ru", "it")


def catalogue(language):
    path = ROOT / "service/translations" / language / "LC_MESSAGES/service.po"
    with open(path, "rb") as f:
        return read_po(f, locale=language)


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_message_of_the_service_is_translated_whole(language):
    found = catalogue(language)
    messages = [m for m in found if m.id]
    assert len(messages) > 100
    untranslated = [
        m.id
        for m in messages
        if m.fuzzy or not (all(m.string) if isinstance(m.string, tuple) else m.string)
    ]
    assert untranslated == [], f"{len(untranslated)} messages have no {language} translation"
    plurals = [m for m in messages if m.pluralizable]
    assert plurals and all(len(m.string) == found.num_plurals for m in plurals)
    assert found.num_plurals == {"ru": 3, "it": 2}[language]
    problems = [(m.id, [str(e) for e in errors]) for m, errors in found.check()]
    assert problems == []


@pytest.mark.slow  # over a second
def test_an_extraction_finds_no_service_word_outside_the_catalogues(tmp_path):
    extracted = tmp_path / "service.pot"
    subprocess.run(
        [
            sys.executable,
            "-c",
            "from babel.messages.frontend import main; main()",
            "--quiet",
            "extract",
            "-F",
            "babel-service.cfg",
            "-o",
            str(extracted),
            ".",
        ],
        cwd=ROOT,
        check=True,
    )
    with open(extracted, "rb") as f:
        wanted = {m.id if isinstance(m.id, str) else m.id[0] for m in read_po(f) if m.id}
    assert len(wanted) > 100
    assert "%(who)s rolled white %(white)s, gold %(gold)s, black %(black)s" in wanted
    for language in TRANSLATED:
        known = {m.id if isinstance(m.id, str) else m.id[0] for m in catalogue(language)}
        assert sorted(wanted - known) == [], f"messages missing from the {language} catalogue"
        assert sorted(known - wanted - {""}) == [], f"stale messages in the {language} catalogue"


def test_the_words_are_in_the_language_of_the_block_and_english_outside_one():
    day_and_hours = (3 * 86400 + 5 * 3600) * 1000
    assert duration(day_and_hours) == "3 days and 5 hours"
    with words.speaking("ru"):
        assert duration(day_and_hours) == "3 дня и 5 часов"
        assert duration(21 * 86400 * 1000) == "21 день"
        assert duration(25 * 86400 * 1000) == "25 дней"
        assert in_words(day_and_hours, 0, "Europe/Moscow") == (
            "через 3 дня и 5 часов (воскресенье, 4 января 1970\u202fг., 08:00 Europe/Moscow)"
        )
        with words.speaking("it"):
            assert duration(86400 * 1000) == "1 giorno"
        assert words.language() == "ru"
    with words.speaking("de"):  # a language we do not speak: English
        assert duration(day_and_hours) == "3 days and 5 hours"
    assert words.language() == "en"
    assert in_words(day_and_hours, 0) == "in 3 days and 5 hours (Sunday 4 January 1970, 05:00 UTC)"
    assert words.words("it").ngettext("%(num)d hour", "%(num)d hours", 2) == "%(num)d ore"


def test_a_shared_win_with_the_reader_among_the_winners_is_conjugated_for_them():
    """Russian and Italian conjugate the verb for "you" among its subjects ("вы и Bo делите",
    "tu e Bo condividete"); English says what it always did."""
    names, shared = ["Ada", "Bo", "Cy"], {"winners": [0, 1]}
    assert won_words(names, shared, 0) == "you and Bo share the win"
    with words.speaking("ru"):
        assert won_words(names, shared, 0) == "вы и Bo делите победу"
        assert won_words(names, shared, 2) == "победу делят Ada и Bo"
    with words.speaking("it"):
        assert won_words(names, shared, 1) == "Ada e tu condividete la vittoria"
        assert won_words(names, shared, None) == "la vittoria è condivisa da Ada e Bo"
