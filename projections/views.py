"""The views of Umpire's projections: the eventsourcing library's tracking recorders, whose
transactions also hold the projection's own writes (projections/follow.py).

`ProjectionView.batch` opens a transaction, checks that the projection still stands where its
page of events begins (else `Overtaken`, nothing written), lets the projection write, and records
the tracking position of the page's last event, all or nothing. A view has a tracking table of
its own (`<name>_tracking`, as the library's PostgreSQL factory names it; the library's SQLite
recorder has one table for every projection of a store, which two projections would share).
"""
from __future__ import annotations

import functools
import threading
import weakref
import zlib
from abc import ABC, abstractmethod
from contextlib import AbstractContextManager, contextmanager
from typing import Any, ClassVar, Iterator, Optional, Sequence

from eventsourcing.persistence import IntegrityError, Tracking
from eventsourcing.postgres import PostgresApplicationRecorder, PostgresTrackingRecorder
from eventsourcing.sqlite import SQLiteTrackingRecorder

from domain.application import Ledger

APPLICATION = Ledger.name  # the application name in the tracking rows
LOCK_CLASS = 715_518  # PostgreSQL advisory locks: (LOCK_CLASS, projection) while a page is written


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


def tracking_table(projection: type) -> str:
    """The table of a projection's tracking row: the name the library's PostgreSQL factory gives it."""
    return f"{projection.name.lower()}_tracking"


@functools.cache
def view_class(projection: type, pg: bool) -> type:
    """The view class of a projection on one kind of store (its tracking table named after it)."""
    base = PostgresProjectionView if pg else SQLiteProjectionView
    return type(f"{projection.__name__}{'Postgres' if pg else 'SQLite'}View", (base,),
                {"tracking_table_name": tracking_table(projection), "__module__": __name__})


_VIEWS: "weakref.WeakKeyDictionary[Ledger, dict[str, ProjectionView]]" = weakref.WeakKeyDictionary()
_VIEWS_LOCK = threading.Lock()


def is_postgres_ledger(ledger: Ledger) -> bool:
    return isinstance(ledger.recorder, PostgresApplicationRecorder)


def view_of(ledger: Ledger, projection: type) -> ProjectionView:
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


