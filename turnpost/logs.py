"""How every turnpost process logs: one JSON object per line on stderr, with the id of the
request being served or followed (store.request_ids), so that a move can be traced from the
API's access log into the worker's lines about it.

The level is the command's `--log-level` (warning by default: a quiet console; `info` shows
the access log, the worker's outbox and job lines, and RQ's)."""

from __future__ import annotations

import json
import logging
import sys
from datetime import UTC, datetime

from store.connection import STORE_AWAY
from store.request_ids import REQUEST_ID

LEVELS = ("debug", "info", "warning", "error")


class JsonLines(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        line = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        request_id = REQUEST_ID.get()
        if request_id:
            line["request_id"] = request_id
        line.update(getattr(record, "fields", {}))
        if record.exc_info:
            error = record.exc_info[1]
            line["error"] = (
                f"{type(error).__name__}: {error}"  # a restart or a failover: a line, no trace
                if isinstance(error, STORE_AWAY)
                else self.formatException(record.exc_info)
            )
        return json.dumps(line, ensure_ascii=False, default=str)


def configure(level: str = "warning") -> None:
    """JSON lines on stderr at `level` for every logger (RQ's and gunicorn's error log too)."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonLines())
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level.upper())
    for name in ("rq.worker", "rq.scheduler", "rq.queue"):  # RQ adds its own handlers
        logger = logging.getLogger(name)
        logger.handlers[:] = []
        logger.propagate = True
