"""Where projections keep what they derive: tables beside the ledger's, in the same database.

SQLite (a file path) or PostgreSQL (a postgresql:// URL). The projections that follow the
notification log record how far they have taken it with the eventsourcing library's tracking
recorders, in the same transaction as their results (projections/follow.py); this store reads
their tables, and keeps the small things beside them (checkpoints, a key-value space).
"""
from __future__ import annotations

import json
import sqlite3
import threading
from contextlib import contextmanager
from typing import Any, Iterator, Optional

SCHEMA = [
    # Earlier versions tracked their projections here by hand (projections/follow.py does now).
    "DROP TABLE IF EXISTS umpire_tracking",
    # Board checkpoints per game; `next_at` is the seq of the next one due (projections.board_state).
    """CREATE TABLE IF NOT EXISTS umpire_board_checkpoints (
         game TEXT NOT NULL, seq INTEGER NOT NULL, next_at INTEGER NOT NULL, state TEXT NOT NULL,
         PRIMARY KEY (game, seq))""",
    # The checkpoints of earlier versions, every 50 events of every game (derived data).
    "DROP TABLE IF EXISTS umpire_checkpoints",
    """CREATE TABLE IF NOT EXISTS umpire_kv (
         space TEXT NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL,
         PRIMARY KEY (space, key))""",
    # How far the checkpoints have taken each game (projections.board_state).
    "CREATE TABLE IF NOT EXISTS umpire_board_heads (game TEXT PRIMARY KEY, seq INTEGER NOT NULL)",
    # Each game's latest default audit, compressed JSON (projections.audit_trail).
    """CREATE TABLE IF NOT EXISTS umpire_audit_reports (
         game TEXT PRIMARY KEY, events INTEGER NOT NULL, report {blob} NOT NULL)""",
]


def is_postgres(db: str) -> bool:
    return db.startswith(("postgresql://", "postgres://"))


class ProjectionStore:
    """A small DB-API wrapper over the projection tables, one connection per thread."""

    def __init__(self, db: str, connect_timeout: int = 5):
        self.db = db
        self.connect_timeout = connect_timeout  # seconds: a server that does not answer is an error, not a hang
        self.pg = is_postgres(db)
        self._local = threading.local()
        self.create(SCHEMA)

    def create(self, statements: list[str]) -> None:
        """Run CREATE statements, one process at a time (concurrent CREATE TABLE IF NOT EXISTS can
        collide in PostgreSQL's catalogue); `{blob}` is the store's type of bytes."""
        with self.transaction() as cur:
            if self.pg:
                cur.execute("SELECT pg_advisory_xact_lock(715517)")
            for statement in statements:
                cur.execute(statement.replace("{blob}", "BYTEA" if self.pg else "BLOB"))

    def _connect(self):
        if self.pg:
            import psycopg
            return psycopg.connect(self.db, autocommit=False, connect_timeout=self.connect_timeout)
        conn = sqlite3.connect(self.db, timeout=30, isolation_level=None, check_same_thread=False)
        conn.execute("PRAGMA journal_mode=WAL")
        return conn

    def _conn(self):
        conn = getattr(self._local, "conn", None)
        if conn is None:
            conn = self._local.conn = self._connect()
        return conn

    def q(self, sql: str) -> str:
        """Our SQL is written with `?`; psycopg wants `%s`."""
        return sql.replace("?", "%s") if self.pg else sql

    @contextmanager
    def transaction(self) -> Iterator[Any]:
        conn = self._conn()
        if self.pg:
            with conn.transaction():
                with conn.cursor() as cur:
                    yield cur
            return
        cur = conn.cursor()
        cur.execute("BEGIN IMMEDIATE")
        try:
            yield cur
        except BaseException:
            cur.execute("ROLLBACK")
            raise
        cur.execute("COMMIT")

    def close(self) -> None:
        conn = getattr(self._local, "conn", None)
        if conn is not None:
            conn.close()
            self._local.conn = None

    # -- checkpoints ----------------------------------------------------------------------------
    def last_checkpoint(self, game: str) -> Optional[tuple[int, int]]:
        """(seq, next_at) of the game's last checkpoint, without reading its state."""
        with self.transaction() as cur:
            cur.execute(self.q("SELECT seq, next_at FROM umpire_board_checkpoints WHERE game = ? "
                               "ORDER BY seq DESC LIMIT 1"), (game,))
            row = cur.fetchone()
        return (int(row[0]), int(row[1])) if row else None

    def checkpoint_before(self, game: str, seq: int) -> Optional[tuple[int, dict[str, Any]]]:
        with self.transaction() as cur:
            cur.execute(self.q("SELECT seq, state FROM umpire_board_checkpoints WHERE game = ? AND seq <= ? "
                               "ORDER BY seq DESC LIMIT 1"), (game, seq))
            row = cur.fetchone()
        return (int(row[0]), json.loads(row[1])) if row else None

    def put_checkpoints(self, cur, game: str, rows: list[tuple[int, int, dict[str, Any]]]) -> None:
        """Store checkpoints; one that another process stored first is the same board, kept."""
        if not rows:
            return
        cur.executemany(self.q("INSERT INTO umpire_board_checkpoints (game, seq, next_at, state) "
                               "VALUES (?, ?, ?, ?) ON CONFLICT (game, seq) DO NOTHING"),
                        [(game, seq, next_at, json.dumps(state, sort_keys=True)) for seq, next_at, state in rows])

    def all_checkpoints(self) -> list[tuple[str, int, str]]:
        with self.transaction() as cur:
            cur.execute("SELECT game, seq, state FROM umpire_board_checkpoints ORDER BY game, seq")
            return [(g, int(s), st) for g, s, st in cur.fetchall()]

    def checkpoint_bytes(self, game: str) -> int:
        """The size of a game's checkpoints (what a long game costs the store)."""
        with self.transaction() as cur:
            cur.execute(self.q("SELECT COALESCE(SUM(LENGTH(state)), 0) FROM umpire_board_checkpoints "
                               "WHERE game = ?"), (game,))
            return int(cur.fetchone()[0])

    def clear_checkpoints(self) -> None:
        with self.transaction() as cur:
            cur.execute("DELETE FROM umpire_board_checkpoints")

    # -- a key-value space for small projections ------------------------------------------------
    def kv_get(self, space: str, key: str) -> Optional[Any]:
        with self.transaction() as cur:
            cur.execute(self.q("SELECT value FROM umpire_kv WHERE space = ? AND key = ?"), (space, key))
            row = cur.fetchone()
        return json.loads(row[0]) if row else None

    def kv_put(self, cur, space: str, key: str, value: Any) -> None:
        cur.execute(self.q("DELETE FROM umpire_kv WHERE space = ? AND key = ?"), (space, key))
        cur.execute(self.q("INSERT INTO umpire_kv (space, key, value) VALUES (?, ?, ?)"),
                    (space, key, json.dumps(value, sort_keys=True)))

    def kv_all(self, space: str) -> dict[str, Any]:
        with self.transaction() as cur:
            cur.execute(self.q("SELECT key, value FROM umpire_kv WHERE space = ? ORDER BY key"), (space,))
            return {k: json.loads(v) for k, v in cur.fetchall()}
