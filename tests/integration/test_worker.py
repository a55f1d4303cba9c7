"""Workers keep the projections (analytics, board checkpoints, audit reports) current through the
eventsourcing library's ProjectionRunner, on SQLite (a polling subscription) and PostgreSQL
(LISTEN/NOTIFY): what they keep equals a rebuild from scratch, a restarted worker goes on from the
last page it wrote, a second worker stands by and takes over, and a read answers at once with its
lag while a worker keeps the projection (and catches up itself when none does)."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
import zlib
from pathlib import Path

import httpx
import orjson
import pytest

from api.deps import close_services
from api.settings import ledger_env
from domain.application import Ledger
from domain.log import chain
from bench.corpus import corpus_game
from projections.analytics import TABLES, ammunition
from projections.audit_trail import AuditReports, audit_lines
from projections.board_state import BoardCheckpoints
from projections.follow import events_after
from projections.lease import Lease, close_leases
from projections.store import ProjectionStore
from projections.worker import PROJECTIONS, Worker, behind, rebuild
from tests.e2e.api_helpers import Server, issue

ROOT = Path(__file__).resolve().parents[2]
SMALL_POOL = {"POSTGRES_POOL_SIZE": "2", "POSTGRES_MAX_OVERFLOW": "2"}


def corpus(ledger: Ledger, first: int, count: int, turns: int = 6) -> int:
    """Import `count` generated games; return their events."""
    events = 0
    for i in range(first, first + count):
        lines = corpus_game(f"w-{i}", seed=500 + i, turns=turns).lines
        ledger.import_lines(list(chain(lines)))
        events += len(lines)
    return events


def wait_until_caught_up(ledger: Ledger, store: ProjectionStore, names=tuple(PROJECTIONS), timeout=60.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        kept = behind(ledger, store)
        if set(kept) == set(names) and not any(kept.values()):
            return
        time.sleep(0.1)
    raise AssertionError(f"the worker did not catch up: {behind(ledger, store)}")


class Running:
    """A Worker in a thread of the test process (the library's runners in their own threads)."""

    def __init__(self, db: str, names=()):
        self.worker = Worker(db, {**ledger_env(db), **SMALL_POOL}, names, say=lambda _: None)
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.worker.run, args=(self.stop,))
        self.thread.start()

    def close(self) -> None:
        self.stop.set()
        self.thread.join(60)
        assert not self.thread.is_alive()


def snapshot(store: ProjectionStore) -> dict[str, list]:
    """Every projection's results as they stand (reports decompressed: their bytes may differ)."""
    out = {}
    with store.transaction() as cur:
        for table in (*TABLES, "umpire_board_checkpoints", "umpire_board_heads"):
            cur.execute(f"SELECT * FROM {table}")
            out[table] = sorted(tuple(row) for row in cur.fetchall())
        cur.execute("SELECT game, events, report FROM umpire_audit_reports")
        out["reports"] = sorted((g, n, orjson.loads(zlib.decompress(bytes(r)))["findings"]) for g, n, r in cur.fetchall())
    return out


@pytest.fixture
def stores(db_url):
    ledger = Ledger(ledger_env(db_url))
    store = ProjectionStore(db_url)
    yield ledger, store
    close_leases(db_url)
    store.close()
    ledger.close()


def test_a_worker_keeps_every_projection_equal_to_a_rebuild_and_goes_on_after_a_restart(stores, db_url):
    ledger, store = stores
    corpus(ledger, 0, 3)
    first = Running(db_url)
    try:
        wait_until_caught_up(ledger, store)
    finally:
        first.close()
    assert behind(ledger, store) == {}  # nobody keeps them now
    corpus(ledger, 3, 2)  # written while no worker runs
    again = Running(db_url)
    try:
        wait_until_caught_up(ledger, store)
        corpus(ledger, 5, 1)  # written while it runs
        wait_until_caught_up(ledger, store)
    finally:
        again.close()
    kept = snapshot(store)
    assert kept["umpire_an_ammo"] and kept["umpire_board_checkpoints"] and len(kept["reports"]) == 6
    for name in PROJECTIONS:
        rebuild(ledger, store, name)
    assert snapshot(store) == kept


def test_a_read_answers_at_once_with_its_lag_while_a_worker_keeps_the_projection(stores, db_url):
    ledger, store = stores
    corpus(ledger, 0, 2)
    before = ammunition(ledger, store)  # no worker: the read catches up itself
    assert before["lag"] == 0 and before["rows"]
    boards, audits = BoardCheckpoints(ledger, store), AuditReports(ledger, store)
    assert boards.read("w-0")[1] == 0 and audits.answer("w-0")[1] == 0
    held = [Lease(store, name) for name in PROJECTIONS]  # a worker that has stopped taking events
    assert all(lease.acquire() for lease in held)
    try:
        added = corpus(ledger, 2, 1)
        last = ledger.lines("w-0")[-1]
        ledger.append("w-0", [{**last, "seq": last["seq"] + 1}], checked=True)  # one more event
        answer = ammunition(ledger, store)
        assert answer["lag"] == added + 1 and answer["rows"] == before["rows"]  # served as it stands
        assert ammunition(ledger, store, "w-2")["lag"] == added
        board, lag = boards.read("w-0")
        assert lag == 1 and board.seq == ledger.last_seq("w-0")  # the board itself is exact
        report, lag = audits.answer("w-0")
        assert lag == 1 and report.events == ledger.last_seq("w-0") - 1  # the stored report, one event short
        report, lag = audits.answer("w-2")  # not reached by the worker yet: audited by the read
        assert lag == 0 and report.to_json() == audit_lines(ledger.lines("w-2")).to_json()
        # What each keeper has yet to take by its tracking position: no worker has taken the board or
        # audit events yet (the reads made those games' checkpoints and reports, not tracked)
        everything = events_after(ledger, 0)
        assert behind(ledger, store) == {"analytics": added + 1, "boards": everything, "audits": everything}
    finally:
        for lease in held:
            lease.release()
            lease.close()
    assert ammunition(ledger, store)["lag"] == 0  # nobody keeps it: the read catches up again


def test_a_second_worker_stands_by_and_takes_over(stores, db_url):
    ledger, store = stores
    corpus(ledger, 0, 1)
    keeper = Running(db_url, ["analytics"])
    wait_until_caught_up(ledger, store, ["analytics"])
    standby = Running(db_url, ["analytics"])
    try:
        time.sleep(0.3)
        assert [k.lease.held for k in standby.worker.keepers] == [False]
        keeper.close()
        added = corpus(ledger, 1, 1)
        wait_until_caught_up(ledger, store, ["analytics"])
        assert [k.lease.held for k in standby.worker.keepers] == [True]
    finally:
        keeper.close()
        standby.close()
    assert ammunition(ledger, store, "w-1")["rows"] and events_after(ledger, 0, "w-1") == added


def test_umpire_worker_keeps_only_its_projection_and_stops_on_sigterm(tmp_path):
    db = str(tmp_path / "umpire.db")
    ledger, store = Ledger(ledger_env(db)), ProjectionStore(db)
    corpus(ledger, 0, 1)
    proc = subprocess.Popen([sys.executable, "-m", "api.cli", "worker", "--db", db, "--projection", "analytics"],
                            cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)}, stderr=subprocess.PIPE, text=True)
    try:
        wait_until_caught_up(ledger, store, ["analytics"])
        assert set(behind(ledger, store)) == {"analytics"}
    finally:
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(30) == 0
    assert "analytics: keeping it from event 0" in proc.stderr.read()
    proc.stderr.close()
    assert behind(ledger, store) == {}
    store.close()
    ledger.close()


def test_serve_with_a_worker_keeps_the_projections_and_the_worker_ends_with_the_server(tmp_path):
    db = str(tmp_path / "umpire.db")
    server = Server(db, options=("--worker",)).start(timeout=60)
    ledger, store = Ledger(ledger_env(db)), ProjectionStore(db)
    try:
        corpus(ledger, 0, 1)
        wait_until_caught_up(ledger, store)
        answer = httpx.get(f"{server.url}/api/analytics/ammunition", headers=issue(db, "viewer"), timeout=30).json()
        assert answer["lag"] == 0 and answer["rows"]
    finally:
        server.kill()  # kill -9: the worker notices its parent is gone and stops
        close_services(db)
    deadline = time.monotonic() + 20
    while behind(ledger, store) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert behind(ledger, store) == {}
    store.close()
    ledger.close()


def test_the_dashboard_says_how_far_behind_a_worker_is_and_nothing_without_one(tmp_path):
    from api.deps import services_for
    from dashboard.lag import lag_banner, lag_text
    db = str(tmp_path / "umpire.db")
    ledger, store = Ledger(ledger_env(db)), ProjectionStore(db)
    events = corpus(ledger, 0, 1)
    services = services_for(db)
    assert lag_banner(services) is None  # no worker: every read catches up itself
    held = Lease(store, "analytics")
    assert held.acquire()
    try:
        banner = lag_banner(services)
        assert banner is not None and banner.children == lag_text({"analytics": events})
        assert f"analytics {events} events behind" in banner.children
    finally:
        held.release()
    assert lag_text({"analytics": 0, "audits": 1}).startswith("Catching up with the log: audit reports 1 event behind.")
    close_services(db)
    store.close()
    ledger.close()
