"""The API under stress through real `umpire serve` processes on loopback: racing writers,
two servers on one PostgreSQL database, and a server killed in the middle of a stream."""
from __future__ import annotations

import threading
import time

import httpx

from tests.e2e.api_helpers import Server, issue, next_event, serving, small_game

RACERS = 16
ROUNDS = 3


def create_game(url: str, db: str, game: str = "g-1") -> None:
    answer = httpx.post(f"{url}/api/games/{game}/events", json={"events": small_game(game).lines},
                        headers=issue(db, "admin"), timeout=30)
    assert answer.status_code == 201, answer.text


def race(urls: list[str], headers: dict, seq: int) -> list[httpx.Response]:
    """RACERS threads post an event at the same `seq` at once (spread over the servers)."""
    barrier = threading.Barrier(RACERS)
    answers: list[httpx.Response] = [None] * RACERS  # type: ignore[list-item]

    def run(i: int) -> None:
        with httpx.Client(timeout=60) as client:
            barrier.wait()
            answers[i] = client.post(f"{urls[i % len(urls)]}/api/games/g-1/events",
                                     json={"events": [next_event("g-1", seq, "british")]}, headers=headers)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(RACERS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    return answers


def assert_one_winner_per_round(urls: list[str], db: str) -> None:
    create_game(urls[0], db)
    british = issue(db, "player", "g-1", "british")
    for seq in range(7, 7 + ROUNDS):
        answers = race(urls, british, seq)
        statuses = sorted(a.status_code for a in answers)
        assert statuses == [201] + [409] * (RACERS - 1), [a.text for a in answers if a.status_code not in (201, 409)]
        assert {a.json()["last_seq"] for a in answers if a.status_code == 409} == {seq}
    events = httpx.get(f"{urls[-1]}/api/games/g-1/events", headers=british, timeout=30).json()["events"]
    assert [e["seq"] for e in events] == list(range(1, 7 + ROUNDS))


def test_sixteen_racers_for_one_seq_one_wins_the_others_get_409(db_url):
    with serving(db_url) as server:
        assert_one_winner_per_round([server.url], db_url)


def test_two_servers_on_one_postgresql_database_one_wins(pg_url):
    with serving(pg_url) as first, serving(pg_url) as second:
        assert_one_winner_per_round([first.url, second.url], pg_url)


def test_kill_9_mid_stream_keeps_every_acknowledged_batch_whole(db_url):
    batch = 3
    server = Server(db_url).start()
    try:
        create_game(server.url, db_url)
        admin = issue(db_url, "admin")
        acknowledged: list[list[dict]] = []
        stop = threading.Event()

        def stream() -> None:
            seq = 7
            with httpx.Client(timeout=10) as client:
                while not stop.is_set() and seq < 7 + 3000:
                    events = [next_event("g-1", s) for s in range(seq, seq + batch)]
                    try:
                        answer = client.post(f"{server.url}/api/games/g-1/events", json={"events": events},
                                             headers=admin)
                    except httpx.HTTPError:
                        return  # the server is gone: this batch was never acknowledged
                    assert answer.status_code == 201, answer.text
                    acknowledged.append(events)
                    seq += batch

        sender = threading.Thread(target=stream)
        sender.start()
        deadline = time.monotonic() + 20
        while len(acknowledged) < 20 and time.monotonic() < deadline:
            time.sleep(0.05)
        server.kill()
        stop.set()
        sender.join(30)
        assert len(acknowledged) >= 20
    finally:
        server.stop()
    with serving(db_url) as again:
        viewer = issue(db_url, "viewer")
        stored = httpx.get(f"{again.url}/api/games/g-1/events?limit=5000", headers=viewer, timeout=30).json()["events"]
        seqs = [e["seq"] for e in stored]
        assert seqs == list(range(1, len(seqs) + 1))  # contiguous
        assert (len(seqs) - 6) % batch == 0  # no batch half-stored
        by_seq = {e["seq"]: e for e in stored}
        for events in acknowledged:
            for event in events:
                stored_event = dict(by_seq.get(event["seq"]) or {})
                assert stored_event.pop("by", "").startswith("admin:") and stored_event.pop("at", None)
                assert stored_event == event  # as sent, with the service's by and at
        # and the game goes on where the log stands
        nxt = len(seqs) + 1
        answer = httpx.post(f"{again.url}/api/games/g-1/events", json={"events": [next_event("g-1", nxt)]},
                            headers=issue(db_url, "admin"), timeout=30)
        assert answer.status_code == 201
