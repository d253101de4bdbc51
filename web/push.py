"""Notifications on a person's devices (Web Push), in the web client: the service worker at
/sw.js (its scope, the path it is served from, covers every page), keeping the subscription
a settings page's script makes (web/static/push.js), and removing a device."""

from __future__ import annotations

import json
from pathlib import Path

from flask import Response, flash, jsonify, redirect, request
from flask_babel import gettext

from service.errors import ErrorCode, ServiceError

from .blueprint import pages, services, signed_in, you
from .i18n import reader_language

_WORKER = Path(__file__).resolve().parent / "static" / "sw.js"


@pages.get("/sw.js")
def service_worker():
    """The service worker, from the site's root so that its scope covers every page; never
    cached long, so that a new version reaches browsers at their next visit. It has no page to
    carry its words: they are written into it, in the language of the browser (or of the
    signed-in player) that fetches it, which is the language of its next update."""
    words = {"something_happened": gettext("Something happened in one of your games.")}
    script = _WORKER.read_text().replace(
        "const WORDS = {};", f"const WORDS = {json.dumps(words)};", 1
    )
    answer = Response(script, mimetype="text/javascript")
    answer.headers["Service-Worker-Allowed"] = "/"
    answer.headers["Cache-Control"] = "no-cache"
    answer.headers["Content-Language"] = reader_language()
    answer.vary.update(("Accept-Language", "Cookie"))
    answer.add_etag()
    return answer.make_conditional(request)


def devices(player_id: str) -> dict:
    """The settings page's section: the server's key and the player's devices."""
    return services().push.listed(player_id)


@pages.post("/settings/push")
@signed_in
def keep_push_subscription():
    """The subscription the settings page's script made (JSON, as the browser writes it):
    201 with the device, or the API's error as JSON."""
    try:
        found = json.loads(request.form.get("subscription", ""))
        endpoint, keys = found["endpoint"], found["keys"]
        p256dh, auth = keys["p256dh"], keys["auth"]
        if not all(isinstance(v, str) for v in (endpoint, p256dh, auth)):
            raise TypeError
    except (ValueError, KeyError, TypeError):
        return _problem(
            ServiceError(ErrorCode.PUSH_INVALID_SUBSCRIPTION, "that is not a push subscription")
        )
    try:
        kept = services().push.add(you(), endpoint, p256dh, auth, request.form.get("device"))
    except ServiceError as err:
        return _problem(err)
    flash(gettext("Notifications are on on this device (%(device)s).", device=kept["device"]))
    return jsonify(kept), 201


@pages.post("/settings/push/remove")
@signed_in
def remove_push_device():
    wanted = request.form.get("remove", "")
    try:
        services().push.remove(you(), wanted)
    except ServiceError:
        flash(gettext("That device was removed already."))
    else:
        flash(gettext("That device gets no more notifications."))
    return redirect("/settings#push", 303)


def _problem(err: ServiceError):
    return jsonify({"code": err.code, "message": err.message}), err.status
