"""The id of the request being served (or of the request whose consequences a worker is
carrying out): log lines carry it, and a commit writes it into its outbox entry, so that one
move can be followed from the API's access log into the worker's lines and its jobs.

A context variable: each thread, and each gevent greenlet, has its own."""

from __future__ import annotations

from contextvars import ContextVar

REQUEST_ID: ContextVar[str] = ContextVar("request_id", default="")
