"""Bounded work for every request (SQLite and PostgreSQL): a body, a batch and an event have
limits, and bad input is a 4xx problem naming the field, never a 500, never half stored."""
from __future__ import annotations

import json

import httpx
import pytest

from api.deps import close_services
from api.limits import MAX_BATCH, MAX_BODY_BYTES
from domain.log import LIMITS
from tests.e2e.api_helpers import issue, next_event, serving, small_game

EVENTS = "/api/games/g-1/events"


@pytest.fixture
def game(client, api_db):
    """Game g-1 stored, and the headers of its british player."""
    assert client.post(EVENTS, json={"events": small_game().lines}, headers=issue(api_db, "admin")).status_code == 201
    return issue(api_db, "player", "g-1", "british")


def export(client, headers) -> bytes:
    return client.get("/api/games/g-1/export", headers=headers).content


def post_raw(client, headers, body: bytes, **extra):
    return client.post(EVENTS, content=body, headers={**headers, "Content-Type": "application/json", **extra})


def test_a_body_over_the_limit_is_413_before_it_is_read(client, game):
    before = export(client, game)
    huge = b'{"events": ["' + b"x" * MAX_BODY_BYTES + b'"]}'
    answer = post_raw(client, game, huge)
    assert answer.status_code == 413 and answer.json()["type"].endswith("too-large")
    assert answer.headers["content-type"] == "application/problem+json"
    assert export(client, game) == before


def test_a_streamed_body_over_the_limit_is_413(client, game):
    def chunks():
        yield b'{"events": ["'
        for _ in range(MAX_BODY_BYTES // 65536 + 2):
            yield b"x" * 65536
        yield b'"]}'

    before = export(client, game)
    answer = client.post(EVENTS, content=chunks(), headers={**game, "Content-Type": "application/json"})
    assert answer.status_code == 413, answer.text
    assert export(client, game) == before


def test_a_batch_over_the_count_limit_is_422_naming_events(client, game):
    events = [next_event("g-1", 7 + i, "british") for i in range(MAX_BATCH + 1)]
    body = json.dumps({"events": events}).encode()
    assert len(body) < MAX_BODY_BYTES  # the count, not the bytes, refuses it
    answer = post_raw(client, game, body)
    assert answer.status_code == 422 and answer.json()["field"] == "events"


@pytest.mark.parametrize("size", [60 * 1024 * 1024, 20 * 1024 * 1024, 2 * 1024 * 1024])
def test_a_huge_field_or_marker_name_is_refused_and_nothing_is_stored(client, game, size):
    before = export(client, game)
    marker = {"v": 1, "game": "g-1", "seq": 7, "turn": 1, "phase": "barrage", "side": "british",
              "type": "MarkerPlaced", "data": {"marker": "m" * size, "location": "1:1210"}}
    answer = post_raw(client, game, json.dumps({"events": [marker]}).encode())
    assert answer.status_code in (413, 422), answer.text[:300]
    assert answer.headers["content-type"] == "application/problem+json"
    assert export(client, game) == before


def test_a_string_over_the_logs_limit_is_422_naming_line_and_field(client, game):
    before = export(client, game)
    marker = {"v": 1, "game": "g-1", "seq": 7, "turn": 1, "phase": "barrage", "side": "british",
              "type": "MarkerPlaced", "data": {"marker": "m" * (LIMITS.max_string + 1), "location": "1:1210"}}
    answer = client.post(EVENTS, json={"events": [next_event("g-1", 7, "british"), marker | {"seq": 8}]}, headers=game)
    assert answer.status_code == 422 and (answer.json()["line"], answer.json()["field"]) == (2, "data.marker")
    assert export(client, game) == before


BAD = [
    ("seq", "7"), ("seq", 7.0), ("seq", True), ("turn", "1"), ("turn", 1.0), ("turn", True),
    ("v", True), ("surplus", 1),
]


@pytest.mark.parametrize("field,value", BAD)
def test_a_wrongly_typed_envelope_field_is_422_naming_it(client, game, field, value):
    before = export(client, game)
    bad = next_event("g-1", 7, "british") | {field: value}
    answer = client.post(EVENTS, json={"events": [bad]}, headers=game)
    assert answer.status_code == 422, answer.text
    assert (answer.json()["line"], answer.json()["field"]) == (1, field)
    assert export(client, game) == before
    # the game is not poisoned: the right event is taken afterwards
    assert client.post(EVENTS, json={"events": [next_event("g-1", 7, "british")]}, headers=game).status_code == 201


def test_a_lone_surrogate_is_422_naming_the_line(client, game):
    before = export(client, game)
    body = '{"events": [%s]}' % json.dumps(next_event("g-1", 7, "british")).replace('"IM.SPOT.ROLL"', '"\\ud800"')
    answer = post_raw(client, game, body.encode())
    assert answer.status_code == 422, answer.text
    assert answer.json()["line"] == 1 and answer.json()["field"].startswith("data")
    assert export(client, game) == before
    # as a JSON string line too
    line = json.dumps(next_event("g-1", 7, "british")).replace('"IM.SPOT.ROLL"', '"\\ud800"')
    answer = client.post(EVENTS, json={"events": [line]}, headers=game)
    assert answer.status_code == 422 and answer.json()["line"] == 1, answer.text


def test_deeply_nested_json_is_a_4xx_problem(client, game):
    before = export(client, game)
    deep = '{"events": [{"v": 1, "data": ' + "[" * 100_000 + "]" * 100_000 + "}]}"
    answer = post_raw(client, game, deep.encode())
    assert answer.status_code in (400, 422) and answer.json()["field"] == "(body)", answer.text[:300]
    assert answer.headers["content-type"] == "application/problem+json"
    for events in ([json.loads("[" * 900 + "]" * 900)], ['{"data": %s}' % ("[" * 5000 + "]" * 5000)]):
        answer = client.post(EVENTS, json={"events": events}, headers=game)
        assert answer.status_code == 422 and answer.json()["line"] == 1, answer.text[:300]
    nested = next_event("g-1", 7, "british")
    nested["data"]["note"] = json.loads("[" * 500 + "]" * 500)
    answer = client.post(EVENTS, json={"events": [nested]}, headers=game)
    assert answer.status_code == 422 and answer.json()["line"] == 1, answer.text[:300]
    assert export(client, game) == before


def test_a_retry_with_a_key_of_a_bad_batch_is_a_problem_not_a_crash(client, game):
    headers = {**game, "Idempotency-Key": "k"}
    for events in ([next_event("g-1", 7, "british") | {"seq": "7"}], [next_event("g-1", 7, "british") | {"seq": 7.0}],
                   [1], ["[]"], [next_event("g-1", 7, "british") | {"seq": 10**40}]):
        answer = client.post(EVENTS, json={"events": events}, headers=headers)
        assert answer.status_code in (409, 422) and answer.json()["field" if answer.status_code == 422 else "last_seq"]
    assert client.post(EVENTS, json={"events": [next_event("g-1", 7, "british")]}, headers=headers).status_code == 201


def test_a_real_server_refuses_an_oversized_body_whether_declared_or_streamed(tmp_path):
    db = str(tmp_path / "umpire.db")
    admin = {**issue(db, "admin"), "Content-Type": "application/json"}

    def streamed():
        yield b'{"events": ["'
        for _ in range(MAX_BODY_BYTES // 65536 + 2):
            yield b"x" * 65536
        yield b'"]}'

    try:
        with serving(db) as server:
            url = f"{server.url}{EVENTS}"
            for body in (b"x" * (MAX_BODY_BYTES + 1), streamed()):
                answer = httpx.post(url, content=body, headers=admin, timeout=30)
                assert answer.status_code == 413 and answer.json()["type"].endswith("too-large")
            assert httpx.get(f"{server.url}/api/games", headers=admin).json() == []
    finally:
        close_services(db)
