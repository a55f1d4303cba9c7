"""Workers: processes that keep the projections current in the background (`umpire worker`).

For each projection it is asked to keep, a worker waits for the projection's lease (one keeper
at a time, however many workers run: the others stand by and take over when its process dies),
then runs the eventsourcing library's `ProjectionRunner` over it: the runner subscribes to the
ledger from the projection's tracking position and feeds it every game event; the projection
writes a page at a time, each page with its tracking position (projections/follow.py). The
worker's loop writes a page that has waited `IDLE` seconds (the log went quiet), and starts the
runner again from the last page written when anything goes wrong (a lost connection, another
process that wrote the projection first).

The audits can be kept in buckets of games by several workers (`buckets`: (K, N) pairs, bucket K
of N; projections/audit_trail.py), each bucket a projection with its own tracking and lease.
"""
from __future__ import annotations

import os
import sys
import threading
from time import monotonic
from typing import Callable, Iterable, Optional

from eventsourcing.projection import ProjectionRunner

from domain.application import Ledger
from projections.analytics import AnalyticsFollower
from projections.audit_trail import KEY as AUDITS, AuditFollower, audit_bucket, kept_buckets
from projections.board_state import BoardFollower
from projections.follow import FollowingProjection, catch_up, events_after
from projections.lease import Lease, worker_keeps
from projections.views import is_postgres_ledger, view_class, view_of
from projections.store import ProjectionStore

# The projections a worker keeps, by the name `--projection` takes.
PROJECTIONS: dict[str, type[FollowingProjection]] = {
    cls.key: cls for cls in (AnalyticsFollower, BoardFollower, AuditFollower)}
TICK = 0.05  # seconds between two looks at the runners
IDLE = 0.05  # a page waits this long for more events before it is written
RETRY = 1.0  # seconds between two tries for a lease, or to start a runner again
PAGE = 1000  # events a runner's projection writes per transaction at the most


def say_on_stderr(message: str) -> None:
    print(f"umpire worker: {message}", file=sys.stderr, flush=True)


class Keeper:
    """One projection this worker keeps: its lease and, while it holds it, a ProjectionRunner."""

    def __init__(self, projection: type[FollowingProjection], ledger: Ledger, store: ProjectionStore,
                 env: dict[str, str], say: Callable[[str], None]):
        self.projection, self.ledger, self.store, self.env, self.say = projection, ledger, store, env, say
        self.lease = Lease(store, projection.key)  # its own: another worker of this process has its own too
        self.runner: Optional[ProjectionRunner] = None
        self._next_try = 0.0
        self._standing_by = False

    @property
    def name(self) -> str:
        return self.projection.key

    def step(self) -> None:
        """Take the lease and start the runner when they can be had; write a page the log has left
        waiting; start again after an error."""
        if self.runner is None:
            if monotonic() < self._next_try:
                return
            self._next_try = monotonic() + RETRY
            if not self.lease.held and not self._take_lease():
                return
            self._start()
            return
        try:
            self.runner.run_forever(timeout=0)  # raises what stopped the runner's thread
            if self.runner.is_interrupted.is_set():
                raise RuntimeError("the subscription stopped")
            self.runner.projection.flush_if_idle(IDLE)
        except Exception as exc:  # noqa: BLE001 - any failure: start again from the tracking position
            self.say(f"{self.name}: {type(exc).__name__}: {exc}; starting again from the last page written")
            self._stop()
            self._next_try = monotonic() + RETRY

    def _take_lease(self) -> bool:
        if self.projection.stands_by_for(self.store):
            return self._stand_by("another worker keeps the same results")
        if self.lease.acquire():
            self._standing_by = False
            return True
        return self._stand_by("another worker keeps it")

    def _stand_by(self, why: str) -> bool:
        if not self._standing_by:
            self.say(f"{self.name}: {why}; standing by")
            self._standing_by = True
        return False

    def _start(self) -> None:
        runner = None
        try:
            # Under the lease, before the runner reads the tracking position: an older version's
            # results may have to be forgotten first.
            self.projection(view_of(self.ledger, self.projection)).bind(self.ledger, self.store).setup()
            runner = ProjectionRunner(application_class=Ledger, projection_class=self.projection,
                                      view_class=view_class(self.projection, is_postgres_ledger(self.ledger)),
                                      env=self.env)
            runner.projection.page = PAGE
            runner.projection.bind(runner.app, self.store)
            runner.__enter__()
        except Exception as exc:  # noqa: BLE001 - the store may be unreachable for a while
            self.say(f"{self.name}: cannot start: {type(exc).__name__}: {exc}")
            self.runner = runner
            self._stop()
            return
        self.runner = runner
        self.say(f"{self.name}: keeping it from event {runner.projection.position}")

    def _stop(self, flush: bool = False) -> None:
        runner, self.runner = self.runner, None
        if runner is None:
            return
        try:
            if flush:
                runner.stop()
                runner.projection.flush()
        except Exception as exc:  # noqa: BLE001 - what was not written is read again next time
            self.say(f"{self.name}: the last page was not written: {exc}")
        runner.projection.give_up()
        try:
            runner.__exit__(None, None, None)
        except Exception:  # noqa: BLE001 - the error that stopped it was said already
            pass
        finally:
            runner.view.datastore.close()

    def close(self) -> None:
        """Write what was taken, stop the runner and give the lease back."""
        self._stop(flush=True)
        self.lease.release()
        self.lease.close()


class Worker:
    """Keeps some projections of one store current until stopped."""

    def __init__(self, db: str, env: dict[str, str], names: Iterable[str] = (), *,
                 buckets: Iterable[tuple[int, int]] = (), say: Callable[[str], None] = say_on_stderr,
                 connect_timeout: int = 5):
        """Keep projections `names` whole (all of them when neither names nor buckets are given)
        and the audit buckets `buckets` ((K, N): bucket K of N)."""
        self.ledger = Ledger(env)
        self.store = ProjectionStore(db, connect_timeout)
        buckets = list(buckets)
        projections = [PROJECTIONS[name] for name in (list(names) or ([] if buckets else list(PROJECTIONS)))]
        projections += [audit_bucket(k, n) for k, n in buckets]
        self.keepers = [Keeper(projection, self.ledger, self.store, env, say) for projection in projections]

    def run(self, stop: threading.Event, exit_with: Optional[int] = None) -> None:
        """Keep the projections until `stop` is set (or the process `exit_with` is gone)."""
        try:
            while not stop.is_set():
                for keeper in self.keepers:
                    keeper.step()
                if exit_with is not None and os.getppid() != exit_with:
                    break
                stop.wait(TICK)
        finally:
            self.close()

    def close(self) -> None:
        for keeper in self.keepers:
            keeper.close()
        self.store.close()
        self.ledger.close()


def behind(ledger: Ledger, store: ProjectionStore) -> dict[str, int]:
    """The projections a worker keeps now, each with the game events it has yet to take (a read
    of the others catches up itself, so it is not behind). Audits kept in buckets count as the
    audits, as far behind as their furthest bucket (the events after its position, of every game:
    a bucket worker reads them all, auditing its own)."""
    out = {name: events_after(ledger, view_of(ledger, cls).position())
           for name, cls in PROJECTIONS.items() if worker_keeps(store, name)}
    buckets = [cls for cls, kept in kept_buckets(store).items() if kept] if AUDITS not in out else []
    if buckets:
        out[AUDITS] = max(events_after(ledger, view_of(ledger, cls).position()) for cls in buckets)
    return out


def rebuild(ledger: Ledger, store: ProjectionStore, name: str) -> int:
    """Forget a projection's results and take the whole log again, in this process (no worker may
    keep the projection meanwhile); return the events taken."""
    cls = PROJECTIONS[name]
    lease = Lease(store, name)
    with lease.taken() as mine:
        if not mine:
            raise RuntimeError(f"a worker keeps the {name}: stop it before rebuilding them")
        projection = cls(view_of(ledger, cls)).bind(ledger, store)
        projection.setup()
        projection.forget()
        taken = catch_up(projection)
    lease.close()
    return taken
