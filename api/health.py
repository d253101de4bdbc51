"""Probes for operators and orchestrators, outside the API's document: `/healthz` (the
process answers) and `/readyz` (Redis answers, a worker is alive, the outbox is not behind)."""

from __future__ import annotations

from flask import Blueprint, current_app, jsonify

health = Blueprint("health", __name__)


@health.get("/healthz")
def healthz():
    return jsonify({"status": "ok"})


@health.get("/readyz")
def readyz():
    report = current_app.extensions["turnpost"]["readiness"].check()
    return jsonify(report), 200 if report["ready"] else 503
