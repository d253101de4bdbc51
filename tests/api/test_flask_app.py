"""The app's Flask remembers which functions are coroutine functions instead of asking for
each request, and still tells them apart as Flask does."""

from flask import Flask


class Thing:
    def now(self):
        return "now"

    async def later(self):
        return "later"


async def later():
    return "later"


def now():
    return "now"


def test_plain_functions_and_methods_are_run_as_they_are(app):
    thing = Thing()
    for _ in range(2):
        assert app.ensure_sync(now) is now
        assert app.ensure_sync(thing.now) == thing.now


def test_coroutine_functions_still_go_to_async_to_sync(app, monkeypatch):
    passed = []
    monkeypatch.setattr(app, "async_to_sync", lambda func: passed.append(func) or func)
    thing = Thing()
    for _ in range(2):
        app.ensure_sync(later)
        app.ensure_sync(thing.later)
    assert passed == [later, thing.later] * 2
    assert [Flask.ensure_sync(app, f) for f in (later, thing.later)] == [later, thing.later]
