"""`GET /metrics`: Prometheus metrics (prometheus_client), outside the API's document.

What this process counts: requests by route pattern, method and status, with a latency
histogram; moves made through the API and games created, by title. Under gunicorn several
processes serve: `turnpost serve` gives them one PROMETHEUS_MULTIPROC_DIR (prometheus_client's
multiprocess mode) so that a scrape sums them all; a server started otherwise must set that
variable to an empty folder of its own, or each scrape shows the one process that answered.

What the workers count (deliveries by channel and outcome, the computer's moves, finished
games, how late the clock took what was due) lives in Redis (store.tallies), and what is
waiting (jobs queued, outbox entries, due items, live workers) is read from Redis at each
scrape, so any API process shows the whole server's."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator

import redis
from flask import Flask, Response, request
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Histogram,
    generate_latest,
    multiprocess,
)
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, HistogramMetricFamily
from prometheus_client.registry import Collector

from store import keys
from store.connection import StoreUnavailable, connect, queue_url
from store.outbox import OutboxStore
from store.schedule import ScheduleStore
from store.tallies import WorkerTallies, parse
from store.workers import WorkerHeartbeats

from .request_log import route, started

REQUESTS = Counter(
    "turnpost_http_requests_total", "Requests answered", ["route", "method", "status"]
)
LATENCY = Histogram(
    "turnpost_http_request_seconds",
    "Time to answer a request (to its headers)",
    ["route", "method"],
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 10.0),
)
MOVES = Counter("turnpost_moves_total", "Moves played through the API", ["game"])
CREATED = Counter("turnpost_games_created_total", "Games created", ["game"])
WORKER_ALIVE_SECONDS = 10


def install(app: Flask, client: redis.Redis) -> None:
    """Requests are timed from the request log's start (api/request_log.py, installed first)."""
    server = ServerState(client)

    @app.after_request
    def count_request(response: Response) -> Response:
        began = started()
        if began is not None:
            asked = request._get_current_object()  # type: ignore[attr-defined]  # once
            if asked.path != "/metrics":
                counted(route(), asked.method, response.status_code).observe(
                    time.perf_counter() - began
                )
        return response

    @app.get("/metrics")
    def metrics() -> Response:
        registry = CollectorRegistry()
        if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
            multiprocess.MultiProcessCollector(registry)
        else:
            for collector in (REQUESTS, LATENCY, MOVES, CREATED):
                registry.register(collector)
        registry.register(server)
        return Response(generate_latest(registry), mimetype=CONTENT_TYPE_LATEST)


class Counted:
    """The counter and the latency histogram of one route, method and status."""

    def __init__(self, route: str, method: str, status: int):
        self.requests = REQUESTS.labels(route, method, str(status))
        self.latency = LATENCY.labels(route, method)

    def observe(self, seconds: float) -> None:
        self.requests.inc()
        self.latency.observe(seconds)


_counted: dict[tuple[str, str, int], Counted] = {}


def counted(route: str, method: str, status: int) -> Counted:
    """Each route's, method's and status's metrics, looked up in prometheus_client once (its
    `labels` checks the values and takes a lock every time)."""
    key = (route, method, status)
    found = _counted.get(key)
    if found is None:
        found = _counted[key] = Counted(route, method, status)
    return found


def moved(game: str) -> None:
    MOVES.labels(game).inc()


def created(game: str) -> None:
    CREATED.labels(game).inc()


class ServerState(Collector):
    """Read from Redis at each scrape: the workers' tallies and what is waiting."""

    def __init__(self, client: redis.Redis):
        self.client = client
        self.tallies = WorkerTallies(client)
        self.outbox = OutboxStore(client)
        self.schedule = ScheduleStore(client)
        self.heartbeats = WorkerHeartbeats(client)
        self._queue: redis.Redis | None = None

    def queue_client(self) -> redis.Redis:
        if self._queue is None:
            self._queue = connect(queue_url(os.environ))
        return self._queue

    def collect(self) -> Iterator:
        try:
            yield from self._tallies(self.tallies.read())
            now_ms = int(time.time() * 1000)
            backlog = self.outbox.backlog()
            counts = self.schedule.counts(now_ms, 1000)
            alive = self.heartbeats.alive_since(now_ms - WORKER_ALIVE_SECONDS * 1000)
            queued = self.queue_client().llen(f"rq:queue:{keys.QUEUE_NAME}")
        except StoreUnavailable:
            yield GaugeMetricFamily("turnpost_redis_up", "Redis answered this scrape", value=0)
            return
        yield GaugeMetricFamily("turnpost_redis_up", "Redis answered this scrape", value=1)
        yield GaugeMetricFamily(
            "turnpost_outbox_waiting",
            "Commits whose consequences are not yet carried out",
            value=backlog["waiting"],
        )
        yield GaugeMetricFamily(
            "turnpost_outbox_oldest_seconds",
            "Age of the oldest of them",
            value=backlog["oldest_ms"] / 1000,
        )
        yield GaugeMetricFamily(
            "turnpost_schedule_items",
            "Deadlines, reminders and delayed deliveries waiting for their time",
            value=counts["scheduled"],
        )
        yield GaugeMetricFamily(
            "turnpost_schedule_overdue",
            "Of them, due more than 1 s ago and not yet taken by a clock",
            value=counts["overdue"],
        )
        yield GaugeMetricFamily(
            "turnpost_jobs_queued", "Deliveries queued for the workers", value=queued
        )
        yield GaugeMetricFamily(
            "turnpost_workers_alive",
            f"Workers that beat in the last {WORKER_ALIVE_SECONDS} s",
            value=alive,
        )

    @staticmethod
    def _tallies(values: dict[str, float]) -> Iterator:
        counters: dict[str, CounterMetricFamily] = {}
        histograms: dict[tuple[str, tuple], dict] = {}
        for raw, value in sorted(values.items()):
            name, labels = parse(raw)
            if name == "turnpost_schedule_lateness_seconds" or name.startswith(
                "turnpost_schedule_lateness_seconds_"
            ):
                base = "turnpost_schedule_lateness_seconds"
                le = labels.pop("le", None)
                entry = histograms.setdefault(
                    (base, tuple(sorted(labels.items()))), {"buckets": [], "sum": 0.0}
                )
                if name.endswith("_sum"):
                    entry["sum"] = value
                elif le is not None:
                    entry["buckets"].append((le, value))
                continue
            base = name.removesuffix("_total")
            family = counters.get(base)
            if family is None:
                family = counters[base] = CounterMetricFamily(
                    base, TALLY_HELP.get(base, "Counted by the workers"), labels=sorted(labels)
                )
            family.add_metric([labels[k] for k in sorted(labels)], value)
        yield from counters.values()
        for (base, _), entry in histograms.items():
            histogram = HistogramMetricFamily(base, "How late the clock took due items")
            buckets = sorted(entry["buckets"], key=lambda b: float(b[0]))
            histogram.add_metric([], [(le, count) for le, count in buckets], entry["sum"])
            yield histogram


TALLY_HELP = {
    "turnpost_deliveries": "Deliveries tried by the workers, by channel and outcome",
    "turnpost_computer_moves": "Moves the computer made (bots, and timed-out seats under auto)",
    "turnpost_games_finished": "Games that ended, by title",
}
