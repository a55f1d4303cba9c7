"""Following the ledger's notification log with the eventsourcing library's projection machinery.

A projection here is a library `Projection` (`FollowingProjection`) whose view is a library
`TrackingRecorder` for the store (`SQLiteProjectionView`, `PostgresProjectionView`). A worker runs
it with the library's `ProjectionRunner` (projections/worker.py): the runner subscribes to the
ledger (PostgreSQL: LISTEN/NOTIFY; SQLite: a polling subscription, domain/recorders/sqlite.py)
from the view's tracking position and hands each game event to `process_event`. The projection
gathers the events of a page and writes their results and the tracking position of the page's
last event in one transaction (`ProjectionView.batch`): a restart, or a process killed at any
point, starts again after the last page written. An accumulating projection (the analytics'
running totals) takes each event exactly once so; the others derive each game's results from its
log's first N events alone (checkpoints, audit reports), so they may take a game further than the
page and store a result only when it covers more than the one stored.

The same projection can be fed without a runner (`catch_up`): a read that finds no worker
follows the log itself, page by page, through the same code and the same tracking row.

`Lease` says who follows a projection: one holder at a time across processes (a PostgreSQL
advisory lock; on SQLite an flock on a file beside the store), released by the operating system
when its process dies. A worker holds it while it runs; a read that cannot take it knows that a
worker keeps the projection and answers at once, saying how far behind it is (`events_after`).
"""
from __future__ import annotations

import fcntl
import functools
import os
import threading
import weakref
import zlib
from abc import ABC, abstractmethod
from contextlib import AbstractContextManager, contextmanager
from time import monotonic
from typing import Any, ClassVar, Iterator, Optional, Sequence

import orjson
from eventsourcing.persistence import IntegrityError, Tracking
from eventsourcing.postgres import PostgresApplicationRecorder, PostgresTrackingRecorder
from eventsourcing.projection import Projection
from eventsourcing.sqlite import SQLiteTrackingRecorder

from domain.application import Ledger
from domain.model import Game
from domain.model.ids import game_uuid
from projections.store import ProjectionStore

APPLICATION = Ledger.name  # the application name in the tracking rows
PAGE = 500  # events written per transaction by a runner (a read catching up takes larger pages)
LOCK_CLASS = 715_518  # PostgreSQL advisory locks: (LOCK_CLASS, projection) for a batch, LEASE_CLASS for a lease
LEASE_CLASS = 715_519


def game_topics() -> list[str]:
    """The notification topics of game events (units and elements have their own)."""
    base = f"{Game.__module__}:{Game.__qualname__}"
    return [f"{base}.Started", f"{base}.Recorded"]


def projection_key(name: str) -> int:
    """A stable small number for a projection's name (its PostgreSQL lock keys)."""
    return zlib.crc32(name.encode()) & 0x7FFFFFFF


class Overtaken(Exception):
    """Another process wrote this projection past where this one read the log: nothing was written."""

    def __init__(self, expected: int, found: int):
        super().__init__(f"the projection is at {found}, not {expected}: another process took these events")
        self.expected, self.found = expected, found


# -- the views: a tracking recorder whose transactions also hold the projection's writes --------------
class ProjectionView(ABC):
    """What Umpire's views add to the library's tracking recorders: a transaction that checks where
    the projection stands, takes the projection's writes and records the tracking position."""

    pg: ClassVar[bool]
    tracking_table_name: str

    def q(self, sql: str) -> str:
        """Our SQL is written with `?`; psycopg wants `%s`."""
        return sql.replace("?", "%s") if self.pg else sql

    def position(self) -> int:
        """The notification id of the last event this projection has taken (0: none)."""
        return self.max_tracking_id(APPLICATION) or 0  # type: ignore[attr-defined]

    @contextmanager
    def batch(self, after: int, tracking: Tracking) -> Iterator[Any]:
        """A transaction for the results of the events after notification `after` up to `tracking`:
        refused (`Overtaken`, nothing written) unless the projection still stands at `after`."""
        with self._transaction() as (library, ours):
            self._serialise(ours)
            found = self._max_tracking_id(APPLICATION, library) or 0  # type: ignore[attr-defined]
            if found != after:
                raise Overtaken(after, found)
            yield ours
            self._insert_tracking(library, tracking)  # type: ignore[attr-defined]

    def create_table(self) -> None:
        """The library's, once more if another process created the table at the same moment (both
        then record the table's first tracking row, and the second is refused)."""
        try:
            super().create_table()  # type: ignore[misc]
        except IntegrityError:
            super().create_table()  # type: ignore[misc]

    def forget(self, statements: Sequence[tuple[str, tuple]]) -> None:
        """Run `statements` (deleting the projection's results) and forget the tracking position,
        in one transaction: the projection starts again from the first event."""
        with self._transaction() as (_, ours):
            self._serialise(ours)
            for sql, args in statements:
                ours.execute(self.q(sql), args)
            ours.execute(self.q(f"DELETE FROM {self._tracking_table()} WHERE application_name = ?"), (APPLICATION,))

    def _tracking_table(self) -> str:
        return self.tracking_table_name

    def _serialise(self, cur: Any) -> None:
        """Writers of one projection, one at a time (SQLite's BEGIN IMMEDIATE does it already)."""

    @abstractmethod
    def _transaction(self) -> AbstractContextManager[tuple[Any, Any]]:
        """A transaction: (the library's cursor, ours), committed when the block ends without error."""


class SQLiteProjectionView(ProjectionView, SQLiteTrackingRecorder):
    """The library's SQLite tracking recorder with a tracking table per projection (the library's
    is one table, one row per application, which two projections of one store would share)."""

    pg = False
    tracking_table_name = "projection_tracking"

    def __init__(self, datastore: Any, tracking_table_name: Optional[str] = None, **kwargs: Any):
        if tracking_table_name:
            self.tracking_table_name = tracking_table_name
        super().__init__(datastore, **kwargs)
        table = self.tracking_table_name
        self.insert_tracking_statement = (
            f"INSERT INTO {table} VALUES (:application_name, :notification_id) "
            f"ON CONFLICT (application_name) DO UPDATE SET notification_id = :notification_id "
            f"WHERE {table}.notification_id < :notification_id RETURNING notification_id")
        self.select_max_tracking_id_statement = f"SELECT MAX(notification_id) FROM {table} WHERE application_name=?"

    def construct_create_table_statements(self) -> list[str]:
        return [f"CREATE TABLE IF NOT EXISTS {self.tracking_table_name} (application_name TEXT, "
                f"notification_id INTEGER, PRIMARY KEY (application_name)) WITHOUT ROWID"]

    @contextmanager
    def _transaction(self) -> Iterator[tuple[Any, Any]]:
        with self.datastore.get_connection(commit=True) as conn:
            cursor = conn.cursor()
            # IMMEDIATE: a transaction that reads, then writes, waits for the write lock up front
            # instead of failing when another process wrote in between.
            cursor.execute("BEGIN IMMEDIATE")
            try:
                yield cursor, cursor
            except BaseException:
                conn.rollback()
                raise
            conn.commit()


class PostgresProjectionView(ProjectionView, PostgresTrackingRecorder):
    """The library's PostgreSQL tracking recorder (a tracking table per projection already)."""

    pg = True
    tracking_table_name = "projection_tracking"

    def __init__(self, datastore: Any, tracking_table_name: Optional[str] = None, **kwargs: Any):
        super().__init__(datastore, tracking_table_name=tracking_table_name or self.tracking_table_name, **kwargs)

    def _tracking_table(self) -> str:
        return f'"{self.datastore.schema}"."{self.tracking_table_name}"'

    def _serialise(self, cur: Any) -> None:
        cur.execute("SELECT pg_advisory_xact_lock(%s, %s)", (LOCK_CLASS, projection_key(self.tracking_table_name)))

    def _create_table(self, curs: Any) -> None:
        # Concurrent CREATE TABLE IF NOT EXISTS can collide in PostgreSQL's catalogue: one at a time
        # (the lock ProjectionStore takes for its own tables).
        curs.execute("SELECT pg_advisory_xact_lock(715517)")
        super()._create_table(curs)

    @contextmanager
    def _transaction(self) -> Iterator[tuple[Any, Any]]:
        from psycopg.rows import tuple_row
        with self.datastore.get_connection() as conn, conn.transaction():
            # The library reads its rows as dicts; ours are tuples, as ProjectionStore's are.
            yield conn.cursor(), conn.cursor(row_factory=tuple_row)


def tracking_table(projection: type["FollowingProjection"]) -> str:
    """The table of a projection's tracking row: the name the library's PostgreSQL factory gives it."""
    return f"{projection.name.lower()}_tracking"


@functools.cache
def view_class(projection: type["FollowingProjection"], pg: bool) -> type:
    """The view class of a projection on one kind of store (its tracking table named after it)."""
    base = PostgresProjectionView if pg else SQLiteProjectionView
    return type(f"{projection.__name__}{'Postgres' if pg else 'SQLite'}View", (base,),
                {"tracking_table_name": tracking_table(projection), "__module__": __name__})


_VIEWS: "weakref.WeakKeyDictionary[Ledger, dict[str, ProjectionView]]" = weakref.WeakKeyDictionary()
_VIEWS_LOCK = threading.Lock()


def is_postgres_ledger(ledger: Ledger) -> bool:
    return isinstance(ledger.recorder, PostgresApplicationRecorder)


def view_of(ledger: Ledger, projection: type["FollowingProjection"]) -> ProjectionView:
    """A projection's view over the ledger's own connections (reads that follow the log themselves)."""
    with _VIEWS_LOCK:
        views = _VIEWS.setdefault(ledger, {})
        view = views.get(projection.name)
        if view is None:
            cls = view_class(projection, is_postgres_ledger(ledger))
            view = views[projection.name] = cls(datastore=ledger.recorder.datastore,
                                                tracking_table_name=tracking_table(projection))
            view.create_table()  # type: ignore[attr-defined]
        return view


# -- the projection ----------------------------------------------------------------------------------
class FollowingProjection(Projection[ProjectionView]):
    """A library projection of the ledger's game events, written a page at a time.

    Subclasses name themselves (`name`, which names the tracking table, and `key`, the name a
    worker and `--projection` know them by) and say what a page of events becomes: `prepare`
    (outside the transaction: read the ledger, fold, audit) and `write` (inside it)."""

    name = "umpire_projection"
    key: ClassVar[str] = ""
    topics = tuple(game_topics())
    page = PAGE

    def __init__(self, view: ProjectionView):
        super().__init__(view)
        self.ledger: Optional[Ledger] = None
        self.store: Optional[ProjectionStore] = None
        self.taken = 0  # events written by this object
        self._bound = threading.Event()
        self._lock = threading.RLock()
        self._pending: list[tuple[Any, Tracking]] = []
        self._position = 0
        self._last_event = monotonic()
        self._closed = False

    def bind(self, ledger: Ledger, store: ProjectionStore) -> "FollowingProjection":
        """Read the ledger through `ledger` and the projection's tables through `store`, from where
        the view stands now (a runner makes its projection before its application: the worker
        binds it right after)."""
        with self._lock:
            self.ledger, self.store = ledger, store
            self._position = self.view.position()
            self._bound.set()
        return self

    @property
    def position(self) -> int:
        """The notification id of the last event written (as this object knows it)."""
        return self._position

    def process_event(self, domain_event: Any, tracking: Tracking) -> None:  # type: ignore[override]
        """Take one game event (the runner calls this for each); a full page is written at once."""
        self._bound.wait()  # the runner starts before the worker can bind its projection (not under the lock)
        if self._closed:
            raise Overtaken(self._position, -1)  # a projection given up: its runner's thread ends here
        with self._lock:
            self._pending.append((domain_event, tracking))
            self._last_event = monotonic()
            if len(self._pending) >= self.page:
                self._flush()

    def give_up(self) -> None:
        """Take no more events (its runner is being stopped, bound or not)."""
        self._closed = True
        self._bound.set()

    def flush(self) -> int:
        """Write what has been taken and not written yet; return how many events."""
        with self._lock:
            return self._flush()

    def flush_if_idle(self, seconds: float) -> int:
        """Write a page that has waited `seconds` without a new event (the log has gone quiet)."""
        with self._lock:
            if self._pending and monotonic() - self._last_event >= seconds:
                return self._flush()
            return 0

    def _flush(self) -> int:
        if not self._pending:
            return 0
        pending = self._pending
        prepared = self.prepare([event for event, _ in pending])
        with self.view.batch(self._position, pending[-1][1]) as cur:
            self.write(cur, prepared)
        self._pending = []
        self._position = pending[-1][1].notification_id
        self.taken += len(pending)
        return len(pending)

    def prepare(self, events: list[Any]) -> Any:
        """What a page of events becomes, worked out before the transaction opens (default: the
        events themselves)."""
        return events

    @abstractmethod
    def write(self, cur: Any, prepared: Any) -> None:
        """Write a page's results with `cur`, inside the transaction that records its tracking."""

    def setup(self) -> None:
        """Make the projection's tables, and start again what an older version left (called under
        the projection's lease, before it follows the log)."""

    def forget_statements(self) -> list[tuple[str, tuple]]:
        """The statements that delete every result (a rebuild)."""
        return []

    def forget(self) -> None:
        """Delete every result and the tracking position: the next event taken is the first."""
        with self._lock:
            self.view.forget(self.forget_statements())
            self._pending, self._position = [], 0


def games_of(events: list[Any]) -> list[str]:
    """The games a page of game events touches, in the order they first appear."""
    seen: dict[Any, str] = {}
    for event in events:
        if event.originator_id not in seen:
            seen[event.originator_id] = orjson.loads(event.line)["game"]
    return list(seen.values())


def catch_up(projection: FollowingProjection, page: int = 5000) -> int:
    """Feed the projection every game event after its position, without a runner, page by page
    (a read that finds no worker); return how many it wrote. Another process writing the same
    projection at the same time stops this one (what it wrote stays)."""
    ledger, store = projection.ledger, projection.store
    assert ledger is not None and store is not None, "bind the projection to the ledger first"
    projection.bind(ledger, store)  # from where the projection stands now
    projection.page = page
    topics = list(projection.topics)
    start = projection.taken
    try:
        while True:
            notes = ledger.recorder.select_notifications(start=projection.position, limit=page, topics=topics,
                                                         inclusive_of_start=False)
            for note in notes:
                projection.process_event(ledger.mapper.to_domain_event(note), Tracking(APPLICATION, note.id))
            projection.flush()
            if len(notes) < page:
                break
    except Overtaken:
        pass
    return projection.taken - start


# -- leases ------------------------------------------------------------------------------------------
class Lease:
    """The right to follow one projection of one store, held by one holder at a time across
    processes and threads, and given back by the operating system when its process dies."""

    def __init__(self, store: ProjectionStore, name: str):
        self.store, self.name = store, name
        self._thread_lock = threading.Lock()
        self._conn_lock = threading.Lock()  # the PostgreSQL session serves one call at a time
        self._held = False
        self._conn: Any = None  # PostgreSQL: the session that holds the advisory lock
        self._file: Optional[int] = None  # SQLite: the descriptor that holds the flock
        self._key = (LEASE_CLASS, projection_key(name))

    @property
    def held(self) -> bool:
        """Whether this object holds the lease now."""
        return self._held

    @property
    def path(self) -> Optional[str]:
        """SQLite: the lock file beside the store (none for an in-memory store)."""
        db = self.store.db
        return None if self.store.pg or db == ":memory:" or db.startswith("file:") else f"{db}-{self.name}.lease"

    def acquire(self) -> bool:
        """Take the lease if nobody holds it; False at once otherwise."""
        if not self._thread_lock.acquire(blocking=False):
            return False
        try:
            self._held = self._take()
        finally:
            if not self._held:
                self._thread_lock.release()
        return self._held

    def release(self) -> None:
        if not self._held:
            return
        try:
            self._give_back()
        finally:
            self._held = False
            self._thread_lock.release()

    @contextmanager
    def taken(self) -> Iterator[bool]:
        """The lease for the time of a block, if it can be had at once (the block is told whether)."""
        mine = self.acquire()
        try:
            yield mine
        finally:
            if mine:
                self.release()

    def is_held(self) -> bool:
        """Whether anyone (a worker, or a read catching up) holds the lease now; it is not taken."""
        if self._held:
            return True
        if self.store.pg:
            return self._pg_held()
        path = self.path
        if path is None:
            return self._thread_lock.locked()
        try:
            fd = os.open(path, os.O_RDWR)
        except FileNotFoundError:  # no worker has ever followed this projection of this store
            return False
        try:
            fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
            return False
        except BlockingIOError:
            return True
        finally:
            os.close(fd)

    def _take(self) -> bool:
        if self.store.pg:
            return bool(self._pg("SELECT pg_try_advisory_lock(%s, %s)"))
        path = self.path
        if path is None:
            return True
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            return False
        self._file = fd
        return True

    def _give_back(self) -> None:
        if self.store.pg:
            try:
                self._pg("SELECT pg_advisory_unlock(%s, %s)")
            except Exception:  # the session is gone: so is its lock
                self.close()
        elif self._file is not None:
            os.close(self._file)  # closing the descriptor gives the flock back
            self._file = None

    def _pg(self, sql: str) -> Any:
        """One query about the lease's lock, on the session that holds it (opened when first needed)."""
        import psycopg
        with self._conn_lock:
            if self._conn is None or self._conn.closed:
                self._conn = psycopg.connect(self.store.db, autocommit=True,
                                             connect_timeout=self.store.connect_timeout)
            return self._conn.execute(sql, self._key).fetchone()[0]

    def _pg_held(self) -> bool:
        return bool(self._pg("SELECT EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND granted "
                             "AND database = (SELECT oid FROM pg_database WHERE datname = current_database()) "
                             "AND classid = %s AND objid = %s AND objsubid = 2)"))

    def close(self) -> None:
        """Close the PostgreSQL session (and so give back a lock it holds)."""
        with self._conn_lock:
            if self._conn is not None:
                try:
                    self._conn.close()
                finally:
                    self._conn = None


_LEASES: dict[tuple[str, str], Lease] = {}
_LEASES_LOCK = threading.Lock()


def lease_of(store: ProjectionStore, name: str) -> Lease:
    """The process's lease object for a projection of a store (one per store and projection)."""
    with _LEASES_LOCK:
        key = (store.db, name)
        if key not in _LEASES:
            _LEASES[key] = Lease(store, name)
        return _LEASES[key]


def close_leases(db: str) -> None:
    """Give back and close the leases this process holds on a store (its services are closing)."""
    with _LEASES_LOCK:
        leases = [lease for (of, _), lease in _LEASES.items() if of == db]
        for lease in leases:
            del _LEASES[(db, lease.name)]
    for lease in leases:
        lease.release()
        lease.close()


def worker_keeps(store: ProjectionStore, name: str) -> bool:
    """Whether a worker (or another process's read) keeps projection `name` now."""
    return lease_of(store, name).is_held()


# -- how far behind ----------------------------------------------------------------------------------
LAG_SCAN = 100_000  # notifications a lag counts one by one at the most


def events_after(ledger: Ledger, position: int, game: Optional[str] = None) -> int:
    """How many game events the log holds after notification `position` (of one game, if given):
    what a projection standing at `position` has yet to take. Counted exactly while the log holds
    at most LAG_SCAN notifications after the position; further behind, the distance in notification
    ids is the answer (an upper bound: it counts the unit and element events recorded with the game
    events too), so that asking costs a bounded read however far behind a projection is."""
    recorder, topics = ledger.recorder, game_topics()
    pg = is_postgres_ledger(ledger)
    table = f'"{recorder.datastore.schema}"."{recorder.events_table_name}"' if pg else recorder.events_table_name
    ident, mark = ("notification_id", "%s") if pg else ("rowid", "?")
    is_game = f"topic IN ({mark}, {mark})"
    if game is not None:
        # The game's own rows first (its key), then those after the position.
        sql = (f"SELECT COUNT(*) FROM (SELECT {ident} AS id, topic FROM {table} WHERE originator_id = {mark}"
               f"{' OFFSET 0' if pg else ''}) g WHERE id > {mark} AND {is_game}")
        counted = _one(ledger, sql, [game_uuid(game) if pg else game_uuid(game).hex, position, *topics])
        return int(counted[0])
    distance = int(_one(ledger, f"SELECT MAX({ident}) FROM {table}", [])[0] or 0) - position
    if distance > LAG_SCAN:
        return distance
    sql = f"SELECT COUNT(*) FROM {table} WHERE {ident} > {mark} AND {is_game}"
    return int(_one(ledger, sql, [position, *topics])[0])


def _one(ledger: Ledger, sql: str, params: list[Any]) -> tuple:
    """The one row a query over the ledger's events answers."""
    datastore = ledger.recorder.datastore
    if is_postgres_ledger(ledger):
        from psycopg.rows import tuple_row
        with datastore.get_connection() as conn, conn.cursor(row_factory=tuple_row) as cur:
            cur.execute(sql, params)
            return cur.fetchone()
    with datastore.transaction(commit=False) as cur:
        cur.execute(sql, params)
        return tuple(cur.fetchone())
