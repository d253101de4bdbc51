"""`turnpost worker`: one process that carries out everything commits cause.

Three loops share the process:
- the outbox consumer (a thread) reads the outbox streams in the consumer group, carries each
  entry out (service.consequences) and only then acknowledges it; every few seconds it also
  takes over entries another worker read and never finished (that worker died);
- the clock (a thread) leases the schedule's due items in passes of at most CLOCK_PASS_ITEMS,
  carries them out and ends their leases; a pass whose clock died comes due again when its
  lease runs out;
- RQ's worker loop (the main thread) runs the deliveries: emails and webhooks.

None of them exits when Redis goes away (a restart, a failover, a dropped connection): each
waits, with a backoff from 0.1 s doubling to 5 s, and carries on. RQ's own loop quits on any
unhandled exception, so it is started again with a fresh worker.
"""

from __future__ import annotations

import logging
import os
import signal
import threading
import time
import uuid
from collections.abc import Callable, Mapping

import redis
from rq import SimpleWorker, Worker
from rq.exceptions import NoSuchJobError
from rq.job import Job, JobStatus

from service.assembly import assemble
from service.consequences import Batch
from service.health import HEARTBEAT_SECONDS
from service.settings import Settings
from store.connection import connect, data_url, queue_url
from store.games import GameStore
from store.outbox import Entry, OutboxStore
from store.request_ids import REQUEST_ID
from store.schedule import ScheduleStore
from store.workers import WorkerHeartbeats

from .queue import RQDeliveries, queue

log = logging.getLogger("turnpost.worker")

BATCH = 200
"""Outbox entries taken at once."""
CLOCK_PASS_ITEMS = 200
"""Due items a clock pass takes at most, over all buckets (shared fairly among them), so that
it is carried out well within its lease (SCHEDULE_LEASE_SECONDS): at load 15 a pass of 5,843
items took 22.9 s, longer than the 15 s lease, and another clock took them again (bench/
RESULTS.md, Turn timers). More due items than this are taken by the next passes, at once."""
OUTBOX_BLOCK_MS = 1000
OUTBOX_LINGER_SECONDS = 0.1
"""After a batch smaller than BATCH, the consumer waits this long before it reads again, so
that under load the entries that come meanwhile make one batch (four round trips for all of
them) rather than one batch each. A lone entry is still carried out the moment it comes."""
CLOCK_TICK_SECONDS = 0.05
BACKOFF_FIRST, BACKOFF_MAX = 0.1, 5.0
RQ_MAINTENANCE_SECONDS = 30
"""How often RQ looks for jobs whose worker died (it queues them again)."""


class Backoff:
    def __init__(self, stop: threading.Event):
        self.stop = stop
        self.delay = BACKOFF_FIRST

    def wait(self, what: str, err: Exception) -> None:
        log.warning("%s: Redis unavailable (%s); again in %.1f s", what, err, self.delay)
        self.stop.wait(self.delay)
        self.delay = min(self.delay * 2, BACKOFF_MAX)

    def reset(self) -> None:
        self.delay = BACKOFF_FIRST


def keep_running(
    name: str, step: Callable[[], bool], stop: threading.Event, idle_seconds: float = 0.0
) -> None:
    """Run `step` until `stop` is set; it answers whether it found work. Redis errors wait
    with a backoff; any other error is logged and the loop goes on (what failed is still
    pending, and is tried again)."""
    backoff = Backoff(stop)
    while not stop.is_set():
        try:
            busy = step()
            backoff.reset()
        except (redis.ConnectionError, redis.TimeoutError) as err:
            backoff.wait(name, err)
            continue
        except Exception:
            log.exception("%s: failed; what it was doing is left pending", name)
            stop.wait(1.0)
            continue
        if not busy and idle_seconds:
            stop.wait(idle_seconds)


class _StopsTheProcess:
    """An RQ worker whose stop signal (SIGINT, SIGTERM: RQ installs its own handlers while it
    works) stops the whole process, the outbox consumer and the clock too; and which knows the
    job it runs (for `_queue_again`)."""

    process_stop: threading.Event
    running: str | None = None
    """The id of the job this worker runs, until RQ is done with it, its bookkeeping in Redis
    included; still set when RQ's loop quit inside it."""

    def execute_job(self, job, queue):
        self.running = job.id
        super().execute_job(job, queue)  # type: ignore[misc]
        self.running = None

    def heartbeat(self, timeout=None, pipeline=None):
        """RQ's heartbeat (the worker's hash and the expiries of it and of its executions) in
        one round trip: RQ sends it as three when it beats alone, which it does at least twice
        a job (before it waits for the next, and after each)."""
        if pipeline is not None:
            return super().heartbeat(timeout, pipeline)  # type: ignore[misc]
        with self.connection.pipeline(transaction=False) as beat:  # type: ignore[attr-defined]
            super().heartbeat(timeout, pipeline=beat)  # type: ignore[misc]
            beat.execute()

    def request_stop(self, signum, frame):
        self.process_stop.set()
        return super().request_stop(signum, frame)  # type: ignore[misc]

    def _install_signal_handlers(self):
        """RQ's handlers, and a stop signal that came before them (to the process's own, while
        RQ's loop was starting) honoured at once: RQ would not know of it, and would wait for
        jobs until the next signal."""
        super()._install_signal_handlers()  # type: ignore[misc]
        if self.process_stop.is_set():
            self._stop_requested = True


class _InProcessWorker(_StopsTheProcess, SimpleWorker):
    pass


class _ForkingWorker(_StopsTheProcess, Worker):
    pass


def _queue_again(client: redis.Redis, job_ids: list[str]) -> None:
    """The jobs RQ's loop was running when it quit (its Redis went away: a restart, a
    failover), queued again now that Redis answers, their executions ended. RQ's maintenance
    would do so only once their heartbeat ran out (90 s). A job that runs twice does its
    deliveries once (an email is claimed; a webhook carries its delivery id). One that is no
    longer STARTED there (it finished, or its start was lost with the old primary), or has no
    retry left (workers.queue.ABANDONED_RETRIES), is left to RQ."""
    jobs = queue(client)
    for job_id in job_ids:
        try:
            job = Job.fetch(job_id, connection=client)
        except NoSuchJobError:
            continue
        if job.get_status() != JobStatus.STARTED or not job.retries_left:
            continue  # RQ's maintenance fails one without retries left
        with client.pipeline() as pipe:
            jobs.started_job_registry.remove_executions(job, pipeline=pipe)
            job.retry(jobs, pipe)
            pipe.execute()
        log.warning("rq: job %s was running when Redis went away: queued again", job.id)


class WorkerProcess:
    def __init__(self, env: Mapping[str, str], fork: bool = False):
        """Games and players on REDIS_URL (a server or a cluster), RQ on QUEUE_REDIS_URL."""
        self.queue_url = queue_url(env)
        self.settings = Settings.from_env(env)
        self.fork = fork
        self._next_claim = 0.0  # when the outbox next takes over a dead worker's entries
        self.stop = threading.Event()
        self.name = f"{os.uname().nodename}-{os.getpid()}-{uuid.uuid4().hex[:6]}"
        client = connect(data_url(env))
        self.deliveries = RQDeliveries(connect(self.queue_url))
        services = assemble(client, self.settings, deliveries=self.deliveries)
        assert services.consequences is not None
        self.consequences = services.consequences
        self.push = services.push
        self.outbox = OutboxStore(client)
        self.games = GameStore(client)
        self.schedule = ScheduleStore(client)
        self.heartbeats = WorkerHeartbeats(client)
        self.clock_busy = threading.Event()
        """Set while the clock finds due items: the outbox consumer waits meanwhile."""
        self._next_beat = 0

    # -- the outbox --------------------------------------------------------------------------

    def outbox_step(self) -> bool:
        if self.clock_busy.is_set():  # deadlines first: the two threads share one GIL
            self.stop.wait(CLOCK_TICK_SECONDS)
            return False
        entries = self.outbox.read(self.name, BATCH, OUTBOX_BLOCK_MS)
        if time.monotonic() >= self._next_claim:
            self._next_claim = time.monotonic() + self.settings.outbox_lease_seconds / 3
            entries += self.outbox.claim_stale(
                self.name, int(self.settings.outbox_lease_seconds * 1000), BATCH
            )
        batch = self._begin(entries)
        with self.deliveries.held():  # the batch's emails share jobs, queued before the ack
            done = []
            for entry in entries:
                self._wait_for_the_clock()
                if self._carry_out(entry, batch):
                    done.append(entry)
            if batch is not None and not self._finish(batch):
                done = [entry for entry in done if self._carry_out(entry, None)]
        self.outbox.done(done)
        if 0 < len(entries) < BATCH:
            self.stop.wait(OUTBOX_LINGER_SECONDS)
        return bool(entries)

    def _wait_for_the_clock(self) -> None:
        """Wait while the clock carries out due items. A batch's entries may take
        seconds of CPU (the computer's moves under `on_timeout: auto`), and a thread that
        holds the GIL so makes the clock wait up to the switch interval (5 ms) at each of its
        round trips: a deadline that fell due during such a batch was recorded 12 s late under
        load (bench/RESULTS.md, Turn timers). An entry this waits for stays leased; past the
        outbox lease another worker may take it over, which the consequences allow."""
        while self.clock_busy.is_set() and not self.stop.is_set():
            self.stop.wait(CLOCK_TICK_SECONDS)

    def _begin(self, entries: list[Entry]) -> Batch | None:
        """What the entries share, read at once; None (each entry reads its own, and one
        that fails fails alone) if that failed for another reason than Redis."""
        if not entries:
            return None
        try:
            return self.consequences.begin(entries)
        except (redis.ConnectionError, redis.TimeoutError):
            raise
        except Exception:
            log.exception("outbox: a batch of %d entries, read entry by entry", len(entries))
            return None

    def _carry_out(self, entry: Entry, batch: Batch | None) -> bool:
        """Whether the entry was carried out (else it stays pending, and is tried again)."""
        following = REQUEST_ID.set(entry.request_id)  # the move's request, in every line
        try:
            log.info("outbox: %s versions %d-%d", entry.game_id, entry.first, entry.version)
            self.consequences.carry_out(entry, batch)
            return True
        except (redis.ConnectionError, redis.TimeoutError):
            raise
        except Exception:
            log.exception(
                "outbox: %s version %s failed; it stays pending", entry.game_id, entry.version
            )
            return False
        finally:
            REQUEST_ID.reset(following)

    def _finish(self, batch: Batch) -> bool:
        """Whether the batch's last writes went; if they failed for another reason than
        Redis, its entries are carried out again one by one, so that one that fails fails
        alone (all of it is idempotent)."""
        try:
            self.consequences.finish(batch)
            return True
        except (redis.ConnectionError, redis.TimeoutError):
            raise
        except Exception:
            log.exception("outbox: a batch's last writes failed; its entries one by one")
            return False

    # -- the clock ---------------------------------------------------------------------------

    def clock_step(self) -> bool:
        """One pass: lease up to CLOCK_PASS_ITEMS due items and carry them out. Answers whether
        it took any: then the clock's loop takes its next pass at once, until none are due."""
        now = self.consequences.now_ms()
        if now >= self._next_beat:
            self.heartbeats.beat(self.name, now)
            self._next_beat = now + int(HEARTBEAT_SECONDS * 1000)
        lease_ms = int(self.settings.schedule_lease_seconds * 1000)
        taken = self.schedule.take_due(now, CLOCK_PASS_ITEMS, lease_ms)
        if taken:
            self.clock_busy.set()
            if self.consequences.tallies is not None:
                self.consequences.tallies.observe(
                    "turnpost_schedule_lateness_seconds",
                    [ms / 1000 for ms in self.schedule.last_lateness_ms],
                )
            started = time.monotonic()
            self.consequences.run_due(taken)
            if time.monotonic() - started > self.settings.schedule_lease_seconds:
                log.warning(
                    "clock: a pass of %d items outlived its lease (%.0f s): another clock may "
                    "have taken them again",
                    len(taken),
                    self.settings.schedule_lease_seconds,
                )
        else:
            self.clock_busy.clear()
        return bool(taken)

    # -- RQ ------------------------------------------------------------------------------------

    def run_rq(self) -> None:
        """RQ's loop, started again whenever it quits on an error (not on a stop request)."""
        backoff = Backoff(self.stop)
        worker_class = _ForkingWorker if self.fork else _InProcessWorker
        interrupted: list[str] = []
        while not self.stop.is_set():
            client = connect(self.queue_url)
            worker = None
            try:
                _queue_again(client, interrupted)
                interrupted = []
                worker = worker_class(
                    [queue(client)], connection=client, maintenance_interval=RQ_MAINTENANCE_SECONDS
                )
                worker.process_stop = self.stop
                worker.work(
                    logging_level=logging.getLevelName(logging.getLogger().getEffectiveLevel())
                )
                if self.stop.is_set():
                    return
                error: Exception = RuntimeError("RQ's loop quit")
            except (redis.ConnectionError, redis.TimeoutError) as err:
                error = err
            finally:
                if worker is not None and worker.running:
                    interrupted.append(worker.running)
                client.close()
                self._install_signal_handlers()  # RQ's own replace them while it works
            backoff.wait("rq", error)

    def run(self) -> None:
        """Run until SIGINT or SIGTERM."""
        self._next_claim = 0.0
        self._install_signal_handlers()
        self._prune_lobby()
        self._make_push_keys()
        threads = [
            threading.Thread(
                target=keep_running, name=name, daemon=True, args=(name, step, self.stop, idle)
            )
            for name, step, idle in (
                ("outbox", self.outbox_step, 0.0),
                ("clock", self.clock_step, CLOCK_TICK_SECONDS),
            )
        ]
        for thread in threads:
            thread.start()
        try:
            self.run_rq()
        finally:
            self.stop.set()
            for thread in threads:
                thread.join(10)

    def _prune_lobby(self) -> None:
        """Once at start: what a turnpost before store/lobby.lua kept of every game ever in
        the lobby (a Redis that is away now is tried at the next start)."""
        try:
            removed = self.games.prune_lobby()
        except (redis.ConnectionError, redis.TimeoutError) as err:
            log.warning("the lobby was not pruned: %s", err)
            return
        if removed:
            log.info("the lobby kept the versions of %d games no longer in it: removed", removed)

    def _make_push_keys(self) -> None:
        """Once at start: the Web Push key pair, made now if this is the first start (else
        when it is first needed)."""
        try:
            self.push.public_key()
        except (redis.ConnectionError, redis.TimeoutError) as err:
            log.warning("the push keys were not looked at: %s", err)

    def _install_signal_handlers(self) -> None:
        for signum in (signal.SIGINT, signal.SIGTERM):
            signal.signal(signum, lambda *_: self.stop.set())
