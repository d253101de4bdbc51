"""The pictures of the games on the front page and the how-to-play pages speak the page's
language (issue 38): their boards' labels and captions, and the moves listed beside the turn,
are said in Russian or Italian to a browser that asks for it, and in English otherwise, each
language drawn once and kept."""

from __future__ import annotations

import re
from html import unescape

import pytest

RUSSIAN, ITALIAN = {"Accept-Language": "ru"}, {"Accept-Language": "it-IT,it;q=0.9"}


def words_of(html: str) -> str:
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", html)).replace("\u00ad", ""))


def pictures(html: str) -> str:
    """The words of the page's board pictures (each a table drawn by the renderer)."""
    return " ".join(words_of(t) for t in re.findall(r"<table.*?</table>", html, re.S))


def test_the_front_pages_pictures_are_in_the_pages_language(app):
    client = app.test_client()
    english = pictures(client.get("/").get_data(as_text=True))
    russian = pictures(client.get("/", headers=RUSSIAN).get_data(as_text=True))
    italian = pictures(client.get("/", headers=ITALIAN).get_data(as_text=True))
    assert "Round 1 of 6" in english and "Bo to play" in english  # Nautilus, Con Sonar!
    for said in (russian, italian):  # Italian says "round" too, as Buttons' page does
        for english_words in ("Round 1 of", "Turn 1", "to roll", "to play", "column 1", "Points"):
            assert english_words not in said, english_words
    assert "Раунд 1 из 6" in russian and "Ход 1 · ходит Bo" in russian
    assert "Ada в раунде" in russian  # Buttons
    assert "Turno 1 · gioca Bo" in italian and "Round 1 di 6" in italian
    again = pictures(client.get("/", headers=RUSSIAN).get_data(as_text=True))
    assert again == russian
    assert pictures(client.get("/").get_data(as_text=True)) == english


@pytest.mark.parametrize("title", ["buttons", "consonar"])
def test_a_how_to_play_pages_pictures_and_moves_are_in_the_pages_language(app, title):
    client = app.test_client()
    english = client.get(f"/how-to-play/{title}").get_data(as_text=True)
    russian = client.get(f"/how-to-play/{title}", headers=RUSSIAN).get_data(as_text=True)
    listed = re.search(r'<ul class="log" id="moves-turn"[^>]*>(.*?)</ul>', russian, re.S)
    moves = [unescape(w) for w in re.findall(r"<li>(.*?)</li>", listed.group(1))]
    assert moves and not any(re.search(r"[A-Za-z]{4,}", m.split("(")[0]) for m in moves), moves
    said = pictures(russian)
    for english_words in ("Round 1", "Turn 1", "to roll", "to play", "in the round", "score"):
        assert english_words not in said, english_words
    assert re.search(r"\b(Round|Turn) 1\b", pictures(english))
