"""What the workers count, kept in Redis so that any API process can export it on /metrics:
the workers run on other hosts and in forked job processes, where no scrape reaches.

One hash; a counter's field is `name|label=value,...`; a histogram's are its cumulative
buckets `name|...,le=<bound>`, `name_sum|...` and `name_count|...` (Prometheus' own layout)."""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Iterable, Iterator
from contextlib import contextmanager

import redis

from . import keys

LATENESS_BUCKETS_SECONDS = (0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0, 300.0)


def field(name: str, labels: dict[str, str]) -> str:
    return name + "|" + ",".join(f"{k}={v}" for k, v in sorted(labels.items()))


def parse(raw: str) -> tuple[str, dict[str, str]]:
    name, _, labels = raw.partition("|")
    return name, dict(part.split("=", 1) for part in labels.split(",") if part)


class WorkerTallies:
    def __init__(self, client: redis.Redis):
        self.r = client
        self._holding = threading.local()

    def count(self, name: str, **labels: str) -> None:
        """One more; inside `holding`, kept for its end rather than written now."""
        held = getattr(self._holding, "counts", None)
        if held is not None:
            held[field(name, labels)] += 1
            return
        self.r.hincrby(keys.WORKER_TALLIES, field(name, labels), 1)

    @contextmanager
    def holding(self) -> Iterator[Counter[str]]:
        """The counts this thread makes inside the block, kept (by field) rather than written
        one round trip each: a job of fifty emails writes them with `add` once, at its end. A
        process killed inside the block loses them: the metrics then count too few (nothing
        but the metrics reads them)."""
        counts: Counter[str] = Counter()
        self._holding.counts = counts
        try:
            yield counts
        finally:
            self._holding.counts = None

    def add(self, counts: Counter[str], pipe=None) -> None:
        """Counts kept by `holding` (by field), in one round trip; on `pipe`, if given (run
        by the caller)."""
        if not counts:
            return
        writes = pipe if pipe is not None else self.r.pipeline(transaction=False)
        for name, n in counts.items():
            writes.hincrby(keys.WORKER_TALLIES, name, n)
        if pipe is None:
            writes.execute()

    def observe(self, name: str, values: Iterable[float], **labels: str) -> None:
        """Values into a histogram with LATENESS_BUCKETS_SECONDS, in one round trip."""
        values = list(values)
        if not values:
            return
        pipe = self.r.pipeline(transaction=False)
        for bound in (*LATENESS_BUCKETS_SECONDS, float("inf")):
            within = sum(1 for v in values if v <= bound)
            if within:
                le = "+Inf" if bound == float("inf") else repr(bound)
                pipe.hincrby(keys.WORKER_TALLIES, field(name, {**labels, "le": le}), within)
        pipe.hincrbyfloat(keys.WORKER_TALLIES, field(name + "_sum", labels), sum(values))
        pipe.hincrby(keys.WORKER_TALLIES, field(name + "_count", labels), len(values))
        pipe.execute()

    def read(self) -> dict[str, float]:
        return {k.decode(): float(v) for k, v in self.r.hgetall(keys.WORKER_TALLIES).items()}
