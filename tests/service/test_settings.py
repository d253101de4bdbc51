"""The settings classes read the environment one way: each field is the setting named by its
name in capitals, read according to its type, with one boolean parser for all."""

from dataclasses import dataclass, fields
from pathlib import Path

import pytest

from api.front_door import FrontDoor
from service.settings import FromEnvironment, SettingError, Settings

SETTINGS_CLASSES = [Settings, FrontDoor]

SPELLINGS = {
    "1": True,
    "on": True,
    "true": True,
    "yes": True,
    "ON": True,
    "True": True,
    " Yes ": True,
    "0": False,
    "off": False,
    "false": False,
    "no": False,
    "OFF": False,
    "False": False,
    "No": False,
}


@pytest.mark.parametrize("spelling", SPELLINGS)
def test_every_switch_reads_every_accepted_spelling_the_same_way(spelling):
    expected = SPELLINGS[spelling]
    assert Settings.from_env({"WEBHOOK_ALLOW_HTTP": spelling}).webhook_allow_http is expected
    assert FrontDoor.from_env({"RATE_LIMITS": spelling}).rate_limits is expected


@pytest.mark.parametrize(
    ("cls", "name"), [(Settings, "WEBHOOK_ALLOW_LOOPBACK"), (FrontDoor, "RATE_LIMITS")]
)
@pytest.mark.parametrize("spelling", ["maybe", "enabled", "2", "nope"])
def test_a_switch_refuses_other_words_and_names_its_variable(cls, name, spelling):
    with pytest.raises(SettingError, match=name):
        cls.from_env({name: spelling})


@pytest.mark.parametrize(
    ("cls", "name", "text"),
    [
        (Settings, "BOT_DELAY_SECONDS", "soon"),
        (Settings, "WEBHOOK_ATTEMPTS", "3.5"),
        (FrontDoor, "WORKER_CONNECTIONS", "many"),
    ],
)
def test_a_number_that_does_not_read_is_refused_naming_its_variable(cls, name, text):
    with pytest.raises(SettingError, match=name):
        cls.from_env({name: text})


def _another_text(value: object) -> str:
    """A value of the setting's type other than its default, as the environment writes it."""
    if isinstance(value, bool):
        return "off" if value else "on"
    if isinstance(value, int | float):
        return str(value + 7)
    if isinstance(value, tuple):
        return "first, second"
    return "https://elsewhere.example"


@pytest.mark.parametrize("cls", SETTINGS_CLASSES)
def test_every_setting_is_read_from_its_variable(cls):
    defaults = cls()
    for field in fields(cls):
        default = getattr(defaults, field.name)
        given = cls.from_env({field.name.upper(): _another_text(default)})
        assert getattr(given, field.name) != default, field.name


@pytest.mark.parametrize("cls", SETTINGS_CLASSES)
def test_an_unset_or_empty_variable_leaves_every_default(cls):
    empty = {field.name.upper(): "" for field in fields(cls)}
    assert cls.from_env({}) == cls.from_env(empty) == cls()


@pytest.mark.parametrize("cls", SETTINGS_CLASSES)
def test_every_setting_has_a_one_line_meaning(cls):
    for field in fields(cls):
        meaning = field.metadata.get("meaning", "")
        assert meaning.strip() and "\n" not in meaning, field.name


def test_addresses_lose_their_trailing_slash_and_lists_their_spaces():
    settings = Settings.from_env(
        {
            "PUBLIC_URL": "https://play.example.org/",
            "CORS_ORIGINS": " https://a.example/ ,, https://b.example",
            "LINK_SIGNING_KEYS": "new, old ,",
        }
    )
    assert settings.public_url == "https://play.example.org"
    assert settings.cors_origins == ("https://a.example", "https://b.example")
    assert settings.link_signing_keys == ("new", "old")


def test_a_field_declared_without_setting_is_still_read_by_its_type():
    @dataclass(frozen=True)
    class Plain(FromEnvironment):
        seconds: float = 1.0

    assert Plain.from_env({"SECONDS": "2.5"}).seconds == 2.5
    assert Plain().shown()[0].value == "1.0"


def test_every_setting_is_in_the_operations_guide():
    guide = (Path(__file__).resolve().parents[2] / "docs" / "operations.md").read_text()
    variables = [field.name.upper() for cls in SETTINGS_CLASSES for field in fields(cls)]
    assert [name for name in variables if f"`{name}`" not in guide] == []
