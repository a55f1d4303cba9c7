"""The ledger's SQLite recorder: the library's, with a game's lines read as text, a batch
written in one transaction with executemany (see domain/recorders/__init__.py), and a
subscription to its notification log that polls (SQLite has no LISTEN/NOTIFY, and the library's
SQLite recorder no subscription)."""
from __future__ import annotations

from threading import Event, Thread
from typing import Any, Optional, Sequence
from uuid import UUID

from eventsourcing.persistence import AggregateRecorder, ListenNotifySubscription, StoredEvent
from eventsourcing.sqlite import SQLiteApplicationRecorder, SQLiteDatastore

from domain.recorders import line_of, window
from domain.transcoder import Row

POLL_SECONDS = 0.1  # how often a subscription looks for new notifications
# Stored events inserted by one statement (4 parameters each: within SQLite's 999 parameters of
# before 3.32, and its statement cache keeps the statement).
ROWS_A_STATEMENT = 200


class PollingSubscription(ListenNotifySubscription[SQLiteApplicationRecorder]):
    """The library's listen-notify subscription, woken by a timer instead of a NOTIFY: every
    `interval` seconds it selects the notifications after the last one it yielded (a cheap range
    of rowids), as the PostgreSQL subscription does when notified."""

    def __init__(self, recorder: SQLiteApplicationRecorder, gt: Optional[int] = None,
                 topics: Sequence[str] = (), interval: float = POLL_SECONDS):
        self._interval = interval
        self._stop_polling = Event()  # before the library's threads start: they may stop us
        super().__init__(recorder=recorder, gt=gt, topics=topics)
        self._timer = Thread(target=self._wake_up, name="sqlite-subscription-poll", daemon=True)
        self._timer.start()

    def _wake_up(self) -> None:
        while not self._stop_polling.wait(self._interval):
            self._has_been_notified.set()

    def stop(self) -> None:
        self._stop_polling.set()
        super().stop()

    def __exit__(self, *args: object, **kwargs: Any) -> None:
        try:
            super().__exit__(*args, **kwargs)
        finally:
            self._timer.join()


class LedgerSQLiteRecorder(SQLiteApplicationRecorder):
    def __init__(self, datastore: SQLiteDatastore, events_table_name: str = "stored_events"):
        super().__init__(datastore, events_table_name)
        # The states, whose line orjson takes out: a fifth less than SQLite's json_extract (which
        # parses each state and writes the line out again) for a game of long lines.
        self.select_lines_statement = f"SELECT state FROM {self.events_table_name} WHERE originator_id=?"

    def select_lines(self, originator_id: UUID, *, gt: Optional[int] = None, lte: Optional[int] = None,
                     limit: Optional[int] = None) -> list[str]:
        """The `line` of each stored event of the aggregate with gt < version <= lte, in order."""
        statement, params = window(self.select_lines_statement, [originator_id.hex], "?", gt, lte, limit)
        with self.datastore.transaction(commit=False) as c:
            cursor = c.sqlite_cursor
            cursor.row_factory = None  # plain tuples, not a sqlite3.Row per row
            cursor.execute(statement, params)
            return [line_of(state) for (state,) in cursor.fetchall()]

    def insert_batch(self, rows: Sequence[Row], snapshots: Sequence[StoredEvent] = (),
                     snapshot_recorder: Optional[AggregateRecorder] = None) -> None:
        """Insert the rows and the snapshots in one transaction: all of them or none. The rows go
        ROWS_A_STATEMENT at a time, in one INSERT of that many VALUES (SQLite runs a statement a
        row in executemany: a fifth more CPU time for a 10,000-line import's rows)."""
        params: list[Any] = []
        last_id, last_hex = None, ""  # a batch's rows come by originator: each one's hex once a run
        for originator_id, version, topic, state in rows:
            if originator_id is not last_id:
                last_id, last_hex = originator_id, originator_id.hex
            params += (last_hex, version, topic, state)
        whole = len(rows) - len(rows) % ROWS_A_STATEMENT
        width = 4 * ROWS_A_STATEMENT
        with self.datastore.transaction(commit=True) as c:
            if whole:
                statement = self._insert_rows_statement(ROWS_A_STATEMENT)
                c.executemany(statement, [params[i:i + width] for i in range(0, 4 * whole, width)])
            if whole < len(rows):
                c.execute(self._insert_rows_statement(len(rows) - whole), params[4 * whole:])
            if snapshots:
                assert snapshot_recorder is not None
                snapshot_recorder._insert_events(c, snapshots)

    def _insert_rows_statement(self, rows: int) -> str:
        """The library's INSERT of one stored event, with `rows` of them in its VALUES."""
        one = self.insert_events_statement
        assert one.endswith(" VALUES (?,?,?,?)")
        return one + ",(?,?,?,?)" * (rows - 1)

    def subscribe(self, gt: Optional[int] = None, topics: Sequence[str] = ()) -> PollingSubscription:
        """The notifications after `gt` (of these topics), then each new one as it is stored."""
        return PollingSubscription(self, gt=gt, topics=topics)
