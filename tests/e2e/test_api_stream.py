"""Following games live (`GET /api/games/{game}/stream`, `GET /api/stream`), on SQLite and
PostgreSQL: the stored events after a position, resumed by `Last-Event-ID`, the bounded mode
(`follow=false`), who may read, a disconnect ending the stream, and appends told to a follower of
another server on the same store within a second, and a server's shutdown ending them."""
from __future__ import annotations

import asyncio
import json
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Callable, Iterator

import httpx
import pytest

from api.app import create_app
from tests.e2e.api_helpers import Server, issue, next_event, small_game

GAME, OTHER = "g-1", "g-2"
KEEPALIVE = 1.0  # seconds, for the live servers below (UMPIRE_STREAM_KEEPALIVE)


def events_of(text: str) -> list[dict]:
    """The server-sent events of a stream's text: each as {"id", "data"} (data parsed as JSON),
    a comment as {"comment"}; the `retry:` field as {"retry"}."""
    out = []
    for block in text.split("\n\n"):
        fields = dict(line.split(": ", 1) if ": " in line else (line, "") for line in block.splitlines())
        if "data" in fields:
            out.append({"id": fields.get("id"), "data": json.loads(fields["data"])})
        elif "" in fields:
            out.append({"comment": fields[""]})
        elif "retry" in fields:
            out.append({"retry": int(fields["retry"])})
    return out


def data_lines(text: str) -> list[dict]:
    return [e for e in events_of(text) if "data" in e]


@pytest.fixture
def two_games(client, api_db) -> dict[str, dict[str, str]]:
    """Games g-1 (7 events) and g-2 (6) in the store; an admin's and viewers' headers."""
    admin = issue(api_db, "admin")
    for game in (GAME, OTHER):
        assert client.post(f"/api/games/{game}/events", json={"events": small_game(game).lines},
                           headers=admin).status_code == 201
    assert client.post(f"/api/games/{GAME}/events", json={"events": [next_event(GAME, 7)]},
                       headers=admin).status_code == 201
    return {"admin": admin, "viewer": issue(api_db, "viewer"), "viewer-g2": issue(api_db, "viewer", OTHER)}


def test_bounded_stream_sends_the_events_after_a_position_as_the_events_route_gives_them(client, two_games):
    answer = client.get(f"/api/games/{GAME}/stream?after=3&follow=false", headers=two_games["viewer"])
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("text/event-stream")
    assert answer.headers["cache-control"] == "no-store"
    assert events_of(answer.text)[0] == {"retry": 1000}  # the browser reconnects after a second
    stored = client.get(f"/api/games/{GAME}/events?from=4", headers=two_games["viewer"]).json()["events"]
    sent = data_lines(answer.text)
    assert [e["id"] for e in sent] == ["4", "5", "6", "7"]
    assert [e["data"] for e in sent] == stored
    assert [e["data"]["seq"] for e in sent] == [4, 5, 6, 7]


def test_without_a_position_the_stream_starts_at_the_first_event(client, two_games):
    answer = client.get(f"/api/games/{OTHER}/stream?follow=false", headers=two_games["viewer"])
    assert [e["data"]["seq"] for e in data_lines(answer.text)] == [1, 2, 3, 4, 5, 6]


def test_last_event_id_resumes_after_the_last_event_received_and_wins_over_after(client, two_games):
    headers = {**two_games["viewer"], "Last-Event-ID": "5"}
    answer = client.get(f"/api/games/{GAME}/stream?after=1&follow=false", headers=headers)
    assert [e["id"] for e in data_lines(answer.text)] == ["6", "7"]
    at_the_end = client.get(f"/api/games/{GAME}/stream?follow=false", headers={**headers, "Last-Event-ID": "7"})
    assert at_the_end.status_code == 200 and data_lines(at_the_end.text) == []


@pytest.mark.parametrize("who, path, status, kind", [
    (None, f"/api/games/{GAME}/stream", 401, "unauthorized"),
    ("viewer-g2", f"/api/games/{GAME}/stream", 403, "forbidden"),    # a token of another game
    ("admin", "/api/games/no-such-game/stream", 404, "unknown-game"),
    (None, "/api/stream", 401, "unauthorized"),
])
def test_who_may_follow(client, two_games, who, path, status, kind):
    answer = client.get(path + "?follow=false", headers=two_games[who] if who else {})
    assert answer.status_code == status
    assert answer.headers["content-type"].startswith("application/problem+json")
    assert answer.json()["type"] == f"/api/problems/{kind}"


@pytest.mark.parametrize("query, header", [("after=-1", None), ("follow=maybe", None), ("", "five"), ("", "-5")])
def test_a_bad_position_is_422(client, two_games, query, header):
    headers = {**two_games["viewer"], **({"Last-Event-ID": header} if header else {})}
    answer = client.get(f"/api/games/{GAME}/stream?follow=false&{query}", headers=headers)
    assert answer.status_code == 422
    assert answer.json()["type"] == "/api/problems/invalid-request"


def test_games_stream_gives_each_readable_game_its_last_seq_then_only_those_grown(client, two_games):
    everyone = data_lines(client.get("/api/stream?follow=false", headers=two_games["viewer"]).text)
    assert sorted((e["data"]["game"], e["data"]["last_seq"]) for e in everyone) == [(GAME, 7), (OTHER, 6)]
    position = everyone[0]["id"]
    assert {e["id"] for e in everyone} == {position}
    bound = data_lines(client.get("/api/stream?follow=false", headers=two_games["viewer-g2"]).text)
    assert [e["data"] for e in bound] == [{"game": OTHER, "last_seq": 6}]   # its own game only
    client.post(f"/api/games/{GAME}/events", json={"events": [next_event(GAME, 8), next_event(GAME, 9)]},
                headers=two_games["admin"])
    grown = data_lines(client.get("/api/stream?follow=false",
                                  headers={**two_games["viewer"], "Last-Event-ID": position}).text)
    assert [e["data"] for e in grown] == [{"game": GAME, "last_seq": 9}]
    assert int(grown[0]["id"]) > int(position)
    assert data_lines(client.get(f"/api/stream?follow=false&after={grown[0]['id']}",
                                 headers=two_games["viewer"]).text) == []


def test_the_openapi_schema_describes_the_event_streams(client):
    paths = client.get("/api/openapi.json").json()["paths"]
    for path in ("/api/games/{game}/stream", "/api/stream"):
        answers = paths[path]["get"]["responses"]
        assert list(answers["200"]["content"]) == ["text/event-stream"]
        assert {"401", "403", "422"} <= set(answers)
        names = {p["name"] for p in paths[path]["get"]["parameters"]}
        assert {"after", "follow", "Last-Event-ID"} <= names


def call_and_leave(app, path: str, query: bytes = b"", headers: tuple = (),
                   leave: Callable[[bytes], bool] = bool) -> tuple[int, dict[str, str], bytes]:
    """Call the app as a server calls it (on an event loop of its own thread) and go away once
    `leave(the body so far)` holds: the answer's status, headers and body. The call must end
    within 5 s of that: a stream whose client left ends."""
    scope = {"type": "http", "asgi": {"version": "3.0", "spec_version": "2.3"}, "http_version": "1.1",
             "method": "GET", "scheme": "http", "path": path, "raw_path": path.encode(), "query_string": query,
             "root_path": "", "headers": list(headers), "client": ("127.0.0.1", 50000),
             "server": ("127.0.0.1", 80)}
    answer: dict = {"headers": {}, "body": b""}

    async def run() -> None:
        gone = asyncio.Event()

        async def receive() -> dict:
            await gone.wait()
            return {"type": "http.disconnect"}

        async def send(message: dict) -> None:
            if message["type"] == "http.response.start":
                answer["status"] = message["status"]
                answer["headers"] = {k.decode(): v.decode() for k, v in message["headers"]}
                return
            answer["body"] += message.get("body", b"")
            if leave(answer["body"]) or not message.get("more_body"):
                gone.set()

        await asyncio.wait_for(app(scope, receive, send), 5)

    with ThreadPoolExecutor(1) as thread:
        thread.submit(asyncio.run, run()).result()
    return answer["status"], answer["headers"], answer["body"]


def test_a_client_that_leaves_ends_its_stream(api_db, two_games):
    """The client goes away once it has the stored events: the answer ends (no generator left
    waiting) and the store is no longer watched for it."""
    app = create_app(api_db)
    token = two_games["viewer"]["Authorization"].encode()
    status, _, body = call_and_leave(app, f"/api/games/{GAME}/stream", b"after=5", ((b"authorization", token),),
                                     lambda body: b"id: 7\n" in body)
    assert status == 200
    assert [e["id"] for e in data_lines(body.decode())] == ["6", "7"]
    assert app.state.live_feed.followers == set()


# -- live, through real servers ---------------------------------------------------------------------
def servers(db: str, count: int, monkeypatch) -> list[Server]:
    """`count` servers on one store, started together, with a keep-alive of KEEPALIVE seconds."""
    monkeypatch.setenv("UMPIRE_STREAM_KEEPALIVE", str(KEEPALIVE))
    started = [Server(db) for _ in range(count)]
    with ThreadPoolExecutor(count) as pool:
        list(pool.map(lambda server: server.start(timeout=60), started))
    return started


def next_frame(lines: Iterator[str]) -> dict:
    """The next event or comment of an open stream."""
    block = []
    for line in lines:
        if line == "" and block:
            return events_of("\n".join(block) + "\n\n")[0]
        if line:
            block.append(line)
    raise AssertionError("the stream ended")


def next_data_frame(lines: Iterator[str]) -> dict:
    """The next event of an open stream, past any keep-alive comment."""
    while "comment" in (found := next_frame(lines)):
        pass
    return found


def append(server: Server, headers: dict, seq: int, game: str = GAME) -> float:
    answer = httpx.post(f"{server.url}/api/games/{game}/events", json={"events": [next_event(game, seq)]},
                        headers=headers, timeout=10)
    assert answer.status_code == 201, answer.text
    return time.monotonic()


def test_a_follower_of_one_server_gets_the_appends_made_through_another_within_a_second(db_url, monkeypatch):
    admin, viewer = issue(db_url, "admin"), issue(db_url, "viewer")
    writer, reader = servers(db_url, 2, monkeypatch)
    try:
        httpx.post(f"{writer.url}/api/games/{GAME}/events", json={"events": small_game(GAME).lines},
                   headers=admin, timeout=10).raise_for_status()
        game_url, all_url = f"{reader.url}/api/games/{GAME}/stream?after=6", f"{reader.url}/api/stream"
        with httpx.stream("GET", game_url, headers=viewer, timeout=10) as one, \
                httpx.stream("GET", all_url, headers=viewer, timeout=10) as every:
            game_lines, all_lines = one.iter_lines(), every.iter_lines()
            assert next_frame(game_lines) == {"retry": 1000}
            assert next_frame(all_lines) == {"retry": 1000}
            assert next_frame(all_lines)["data"] == {"game": GAME, "last_seq": 6}  # the games as they are
            for seq in (7, 8):
                appended = append(writer, admin, seq)
                # a keep-alive may come first when the append took longer than the keep-alive's silence
                event = next_data_frame(game_lines)
                told = next_data_frame(all_lines)
                assert time.monotonic() - appended < 1.0
                assert (event["id"], event["data"]["seq"], event["data"]["type"]) == (str(seq), seq, "DieRolled")
                assert told["data"] == {"game": GAME, "last_seq": seq}
            quiet = time.monotonic()
            assert next_frame(game_lines) == {"comment": "keep-alive"}
            assert KEEPALIVE - 0.3 < time.monotonic() - quiet < KEEPALIVE + 1.0
        resumed = httpx.get(f"{reader.url}/api/games/{GAME}/stream?follow=false",
                            headers={**viewer, "Last-Event-ID": "7"}, timeout=10)
        assert [e["id"] for e in data_lines(resumed.text)] == ["8"]
        ends_open_streams_when_shut_down(reader, viewer)
    finally:
        for server in (writer, reader):
            server.stop()


def ends_open_streams_when_shut_down(server: Server, headers: dict) -> None:
    """A server asked to stop ends its open streams rather than wait for their clients to leave."""
    with httpx.stream("GET", f"{server.url}/api/games/{GAME}/stream?after=8", headers=headers, timeout=10) as s:
        lines = s.iter_lines()
        assert next_frame(lines) == {"retry": 1000}
        began = time.monotonic()
        server.proc.terminate()
        assert list(lines) == []
        server.proc.wait(5)
        assert time.monotonic() - began < 5
