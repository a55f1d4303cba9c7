"""The audits split in buckets of games between workers (`umpire worker --bucket K/N`): two bucket
workers on one PostgreSQL store keep reports equal to a rebuild of the whole projection from
scratch; a bucket worker killed with kill -9 while it takes a burst of games, and started again,
goes on from its own bucket's last page; a read asks the lease of the game's bucket."""
from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
import zlib
from pathlib import Path

import orjson
import pytest

from api.settings import ledger_env
from domain.application import Ledger
from projections.audit_trail import AuditReports, audit_bucket, audits_kept, bucket_of, layouts, parse_bucket
from projections.follow import events_after
from projections.lease import Lease, close_leases
from projections.store import ProjectionStore
from projections.views import view_of
from projections.worker import behind, rebuild
from tests.integration.test_worker import corpus

ROOT = Path(__file__).resolve().parents[2]


def start_bucket_worker(db: str, bucket: str, log: Path) -> subprocess.Popen:
    with open(log, "a", encoding="utf-8") as err:
        return subprocess.Popen([sys.executable, "-m", "api.cli", "worker", "--db", db, "--bucket", bucket],
                                cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)}, stderr=err,
                                stdout=subprocess.DEVNULL)


def reports(store: ProjectionStore) -> list[tuple[str, int, list]]:
    """Every stored report's game, events covered and findings (decompressed: the bytes may differ)."""
    with store.transaction() as cur:
        cur.execute("SELECT game, events, report FROM umpire_audit_reports")
        return sorted((g, n, orjson.loads(zlib.decompress(bytes(r)))["findings"]) for g, n, r in cur.fetchall())


def wait_for_audits(ledger: Ledger, store: ProjectionStore, timeout: float = 90.0) -> None:
    """Until both buckets are kept and neither has an event left to take."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        kept = [Lease(store, audit_bucket(k, 2).key) for k in range(2)]
        held = all(lease.is_held() for lease in kept)
        for lease in kept:
            lease.close()
        if held and behind(ledger, store).get("audits") == 0:
            return
        time.sleep(0.1)
    raise AssertionError(f"the bucket workers did not catch up: {behind(ledger, store)}")


def test_a_game_s_bucket_is_a_stable_hash_of_its_id():
    # A BLAKE2 digest of the id: the same in every process and release (Python's hash of a str is
    # salted per process), so a bucket's games never move between restarts
    assert [bucket_of(f"scale-{i:05d}", 2) for i in range(6)] == [1, 1, 1, 1, 0, 0]
    assert bucket_of("w-0", 3) == bucket_of("w-0", 3) and {bucket_of(f"g{i}", 4) for i in range(40)} == {0, 1, 2, 3}
    assert parse_bucket("1/3") == (1, 3)
    for bad, why in (("3/2", "counts from 0"), ("a/2", "not K/N"), ("2", "not K/N")):
        with pytest.raises(ValueError, match=why):
            parse_bucket(bad)


def test_umpire_worker_refuses_a_bucket_it_cannot_keep(tmp_path):
    db = str(tmp_path / "umpire.db")
    Ledger(ledger_env(db)).close()
    for args, said in ((["--bucket", "2/2"], "bucket 2 of 2"), (["--bucket", "0/2", "--bucket", "1/3"], "one N"),
                       (["--bucket", "0/2", "--projection", "audits"], "not both")):
        done = subprocess.run([sys.executable, "-m", "api.cli", "worker", "--db", db, *args], cwd=ROOT,
                              env={**os.environ, "PYTHONPATH": str(ROOT)}, capture_output=True, text=True, timeout=60)
        assert done.returncode == 2 and said in done.stderr


def test_a_read_asks_the_lease_of_the_game_s_bucket(tmp_path):
    db = str(tmp_path / "umpire.db")
    ledger, store = Ledger(ledger_env(db)), ProjectionStore(db)
    corpus(ledger, 0, 1, turns=3)
    game = "w-0"
    mine = audit_bucket(bucket_of(game, 2), 2)
    other = audit_bucket(1 - bucket_of(game, 2), 2)
    mine(view_of(ledger, mine)).bind(ledger, store).setup()  # what a bucket worker does first: the layout
    assert layouts(store) == [2]
    held = Lease(store, other.key)
    assert held.acquire()
    assert not audits_kept(store, game)  # the other bucket is kept, not this game's
    held.release()
    held = Lease(store, mine.key)
    assert held.acquire()
    try:
        assert audits_kept(store, game)
        report, lag = AuditReports(ledger, store).answer(game)  # nothing stored yet: the read audits it
        assert lag == 0 and report.events == ledger.last_seq(game)
        assert behind(ledger, store) == {"audits": ledger.last_seq(game)}  # the bucket has taken nothing
    finally:
        held.release()
        held.close()
        close_leases(db)
        store.close()
        ledger.close()


@pytest.mark.postgres
def test_two_bucket_workers_equal_a_rebuild_and_a_killed_one_resumes_its_bucket(pg_url, tmp_path):
    ledger, store = Ledger(ledger_env(pg_url)), ProjectionStore(pg_url)
    corpus(ledger, 0, 4)
    logs = [tmp_path / "bucket-0.log", tmp_path / "bucket-1.log"]
    workers = [start_bucket_worker(pg_url, f"{k}/2", logs[k]) for k in range(2)]
    try:
        wait_for_audits(ledger, store)
        victim = audit_bucket(1, 2)
        view = view_of(ledger, victim)
        starts = [0]
        for attempt in range(4):
            before = view.position()
            corpus(ledger, 100 + 20 * attempt, 10, turns=8)  # a burst: bucket 1 is killed once it wrote a page of it
            deadline = time.monotonic() + 60
            while view.position() == before and time.monotonic() < deadline:
                time.sleep(0.01)
            workers[1].send_signal(signal.SIGKILL)
            workers[1].wait(10)
            stood = view.position()
            assert stood > before
            workers[1] = start_bucket_worker(pg_url, "1/2", logs[1])
            starts.append(stood)
            if events_after(ledger, stood) > 0:   # killed with pages of the burst left (on a busy machine
                break                             # it may have taken the whole burst first: another one)
        else:
            pytest.fail("bucket 1 took every burst whole before it could be killed")
        wait_for_audits(ledger, store)
    finally:
        for worker in workers:
            worker.send_signal(signal.SIGTERM)
        codes = [worker.wait(30) for worker in workers]
    assert codes == [0, 0]
    resumed = [int(n) for n in re.findall(r"audits-1of2: keeping it from event (\d+)", logs[1].read_text())]
    assert resumed == starts  # first start, then again after its own last page each time
    kept = reports(store)
    assert len(kept) == 4 + 10 * (len(starts) - 1) and {bucket_of(g, 2) for g, _, _ in kept} == {0, 1}
    assert all(n == ledger.last_seq(g) for g, n, _ in kept)
    rebuild(ledger, store, "audits")  # the whole projection, from scratch, in this process
    assert reports(store) == kept
    close_leases(pg_url)
    store.close()
    ledger.close()
