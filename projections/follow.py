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

A lease (projections/lease.py) says who follows a projection; a read that finds a worker
keeping it answers at once, saying how far behind it is (`events_after`).
"""
from __future__ import annotations

import threading
from abc import abstractmethod
from time import monotonic
from typing import Any, ClassVar, Optional

import orjson
from eventsourcing.persistence import Tracking
from eventsourcing.projection import Projection

from domain.application import Ledger
from domain.model import Game
from domain.model.ids import game_uuid
from projections.store import ProjectionStore
from projections.views import APPLICATION, Overtaken, ProjectionView, is_postgres_ledger

PAGE = 500  # events written per transaction by a runner (a read catching up takes larger pages)


def game_topics() -> list[str]:
    """The notification topics of game events (units and elements have their own)."""
    base = f"{Game.__module__}:{Game.__qualname__}"
    return [f"{base}.Started", f"{base}.Recorded"]


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

    @classmethod
    def stands_by_for(cls, store: ProjectionStore) -> bool:
        """Whether a worker should stand by rather than take this projection's lease now: another
        worker keeps the same results under another lease (the audits whole or in buckets)."""
        return False

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

