"""A league's deployment on one PostgreSQL database: three `umpire serve` processes and two
`umpire worker` processes. Sixteen clients race appends across the servers (exactly one wins each
seq, nothing lost, nothing stored twice); a server killed with kill -9 in the middle of a stream
of batches keeps every acknowledged batch and no half batch; the worker keeping the projections,
killed with kill -9 while it takes a page, is taken over by the other and restarted; at the end
every projection equals a rebuild from scratch."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx
import pytest

from api.deps import close_services, services_for
from api.settings import ledger_env
from domain.application import Ledger
from projections.lease import close_leases
from projections.views import view_of
from projections.store import ProjectionStore
from projections.worker import PROJECTIONS, behind, rebuild
from tests.e2e.api_helpers import Server, next_event, small_game
from tests.integration.test_worker import corpus, snapshot, wait_until_caught_up

pytestmark = pytest.mark.postgres

ROOT = Path(__file__).resolve().parents[2]
CLIENTS = 16
ROUNDS = 4
FREE_FOR_ALL = 3.0  # seconds of appends without a barrier
BATCH = 3


def start_worker(db: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "api.cli", "worker", "--db", db], cwd=ROOT,
                            env={**os.environ, "PYTHONPATH": str(ROOT)}, stderr=subprocess.DEVNULL)


def headers(db: str, role: str, name: str, game: str | None = None, side: str | None = None) -> dict[str, str]:
    token, _ = services_for(db).tokens.issue(role, game, side, name)
    return {"Authorization": f"Bearer {token}"}


def events_of(url: str, db: str, game: str) -> list[dict]:
    viewer = headers(db, "viewer", "reader")
    return httpx.get(f"{url}/api/games/{game}/events?limit=5000", headers=viewer, timeout=30).json()["events"]


def race(urls: list[str], db: str) -> None:
    """Sixteen clients, each with its own token (its name is the stored `by`), append to one game
    through the three servers: in rounds at one seq, then freely for a few seconds, each going on
    from where a conflict says the game stands."""
    game = "race"
    assert httpx.post(f"{urls[0]}/api/games/{game}/events", json={"events": small_game(game).lines},
                      headers=headers(db, "admin", "creator"), timeout=30).status_code == 201
    clients = [headers(db, "player", f"client-{i}", game, "british") for i in range(CLIENTS)]
    won: list[tuple[int, str]] = []  # (seq, client) of every 201
    errors: list[str] = []
    lock, barrier = threading.Lock(), threading.Barrier(CLIENTS)

    def post(http: httpx.Client, i: int, seq: int) -> int:
        """Append at `seq`; the seq to try next."""
        answer = http.post(f"{urls[i % len(urls)]}/api/games/{game}/events",
                           json={"events": [next_event(game, seq, "british")]}, headers=clients[i])
        if answer.status_code == 201:
            with lock:
                won.append((seq, f"client-{i}"))
            return seq + 1
        if answer.status_code != 409 or answer.json()["last_seq"] < seq:
            errors.append(f"{answer.status_code} {answer.text}")
        return answer.json()["last_seq"] + 1

    def client(i: int) -> None:
        with httpx.Client(timeout=60) as http:
            for round_ in range(ROUNDS):
                barrier.wait()
                post(http, i, 7 + round_)
            barrier.wait()
            seq, deadline = 7 + ROUNDS, time.monotonic() + FREE_FOR_ALL
            while time.monotonic() < deadline:
                seq = post(http, i, seq)

    threads = [threading.Thread(target=client, args=(i,)) for i in range(CLIENTS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert errors == []
    stored = events_of(urls[-1], db, game)
    assert [e["seq"] for e in stored] == list(range(1, len(stored) + 1))  # nothing lost, nothing twice
    assert sorted(s for s, _ in won) == list(range(7, len(stored) + 1))  # exactly one winner a seq
    assert {e["seq"]: e["by"] for e in stored[6:]} == dict(won)  # the winner's event is the one stored
    assert len(won) > ROUNDS


def kill_mid_stream(victim: Server, witness: str, db: str) -> None:
    """Batches of BATCH events stream to `victim` until it is killed: every acknowledged batch is
    stored whole, as sent, and no batch is stored in part."""
    game = "stream"
    admin = headers(db, "admin", "streamer")
    assert httpx.post(f"{victim.url}/api/games/{game}/events", json={"events": small_game(game).lines},
                      headers=admin, timeout=30).status_code == 201
    acknowledged: list[list[dict]] = []

    def stream() -> None:
        seq = 7
        with httpx.Client(timeout=10) as http:
            while seq < 7 + 3000:
                events = [next_event(game, s) for s in range(seq, seq + BATCH)]
                try:
                    answer = http.post(f"{victim.url}/api/games/{game}/events", json={"events": events}, headers=admin)
                except httpx.HTTPError:
                    return  # the server is gone: this batch was never acknowledged
                assert answer.status_code == 201, answer.text
                acknowledged.append(events)
                seq += BATCH

    sender = threading.Thread(target=stream)
    sender.start()
    deadline = time.monotonic() + 20
    while len(acknowledged) < 15 and time.monotonic() < deadline:
        time.sleep(0.02)
    victim.kill()
    sender.join(30)
    stored = {e["seq"]: e for e in events_of(witness, db, game)}
    assert sorted(stored) == list(range(1, len(stored) + 1)) and (len(stored) - 6) % BATCH == 0
    assert len(stored) - 6 >= BATCH * len(acknowledged) >= BATCH * 15
    for events in acknowledged:
        for event in events:
            kept = dict(stored[event["seq"]])
            assert kept.pop("by") == "streamer" and kept.pop("at")
            assert kept == event


def kill_the_keeper(db: str, keeper: subprocess.Popen, ledger: Ledger, store: ProjectionStore) -> None:
    """`keeper` keeps every projection, a second worker stands by; the keeper is killed while it
    takes the pages of a burst of games, the second takes over, the first comes back to stand by."""
    wait_until_caught_up(ledger, store)
    standby = start_worker(db)
    try:
        corpus(ledger, 100, 12, turns=8)
        audits = view_of(ledger, PROJECTIONS["audits"])
        before = audits.position()
        deadline = time.monotonic() + 30
        while audits.position() == before and time.monotonic() < deadline:
            time.sleep(0.01)
        assert behind(ledger, store)["audits"] > 0  # it has written a page of the burst, not all of them
        keeper.send_signal(signal.SIGKILL)
        keeper.wait(10)
        keeper = start_worker(db)
        wait_until_caught_up(ledger, store)
    finally:
        for worker in (keeper, standby):
            worker.send_signal(signal.SIGTERM)
        for worker in (keeper, standby):
            assert worker.wait(30) == 0


def test_three_servers_and_two_workers_on_one_postgresql_database(pg_url):
    ledger, store = Ledger(ledger_env(pg_url)), ProjectionStore(pg_url)
    services_for(pg_url)  # every table made once, before the processes start
    corpus(ledger, 0, 2)
    servers = [Server(pg_url) for _ in range(3)]
    starting = [threading.Thread(target=server.start, kwargs={"timeout": 90}) for server in servers]
    keeper = start_worker(pg_url)  # the first worker keeps the projections while the servers take writes
    try:
        for t in starting:
            t.start()
        for t in starting:
            t.join(120)
        urls = [server.url for server in servers]
        race(urls, pg_url)
        kill_mid_stream(servers[2], urls[0], pg_url)
        kill_the_keeper(pg_url, keeper, ledger, store)
    finally:
        for server in servers:
            server.stop()
        if keeper.poll() is None:
            keeper.kill()
    kept = snapshot(store)
    assert len(kept["reports"]) == 2 + 2 + 12  # the corpus, the race, the stream, the burst
    for name in PROJECTIONS:
        rebuild(ledger, store, name)
    assert snapshot(store) == kept
    close_services(pg_url)
    close_leases(pg_url)
    store.close()
    ledger.close()
