"""Leases: who follows a projection of a store now (projections/worker.py).

One holder at a time across processes and threads: a PostgreSQL advisory lock held by a session
of its own; on SQLite an flock on a file beside the store (`STORE-NAME.lease`). The operating
system gives it back when the holder's process dies, however it dies. A worker holds a lease while
it keeps the projection; a read that cannot take it (or sees it held) knows that a worker keeps the
projection, and answers at once with its lag instead of catching up.
"""
from __future__ import annotations

import fcntl
import os
import threading
from contextlib import contextmanager
from typing import Any, Iterator, Optional

from projections.store import ProjectionStore
from projections.views import projection_key

LEASE_CLASS = 715_519  # PostgreSQL advisory locks: (LEASE_CLASS, projection)


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


