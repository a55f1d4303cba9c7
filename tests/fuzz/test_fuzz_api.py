"""`POST /api/games/{game}/events` of damaged batches through the real app: a game's valid prefix
is stored first, then the damaged rest is posted. Each batch is stored whole (201) or refused
with a problem (4xx, naming the line and field of a bad event), never a 5xx, and a refused
batch leaves the game's export byte for byte as it was. The game's board and audit, and
another game's board, keep answering."""
from __future__ import annotations

import itertools
import json
import tempfile
import warnings
from pathlib import Path

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from api.app import create_app
from api.deps import close_services, services_for
from tests.fuzz.mutations import KINDS, MutatedLog, json_object, mutated, renamed, source_logs
from tests.fuzz.outcomes import (WHOLE, field_head, fresh_store, lines_of, refused_line, stored_objects, tally,
                                  umpire)

with warnings.catch_warnings():
    warnings.simplefilter("ignore", DeprecationWarning)
    from fastapi.testclient import TestClient

SOURCES = source_logs()
NAMES = sorted(SOURCES)
GAME_NUMBERS = itertools.count(1)
BYSTANDER = "bystander"
STAMPED = ("by", "at")


@pytest.fixture(scope="module")
def table():
    """The app on one store for every example (each example plays a game of its own), an admin's
    headers, and a bystander game whose board must stay readable throughout."""
    with tempfile.TemporaryDirectory() as tmp:
        db = str(Path(tmp) / "umpire.db")
        token, _ = services_for(db).tokens.issue("admin", name="fuzz-admin")
        headers = {"Authorization": f"Bearer {token}"}
        with TestClient(create_app(db=db), raise_server_exceptions=False) as client:
            lines = renamed(SOURCES[NAMES[0]], BYSTANDER, keep_chain=False)
            assert post(client, headers, BYSTANDER, [json.loads(t) for t in lines]).status_code == 201
            yield client, headers, db
        close_services(db)


def post(client: TestClient, headers: dict, game: str, events: list) -> httpx.Response:
    return client.post(f"/api/games/{game}/events", json={"events": events}, headers=headers)


def batch_body(log: MutatedLog, as_objects: bool) -> bytes:
    """The request body: each line as a JSON object where it is one (`as_objects`), else as a
    JSON string (which the API parses as a log line)."""
    items = []
    for text in log.lines:
        items.append(text if as_objects and json_object(text) is not None else json.dumps(text))
    return ('{"events":[' + ",".join(items) + "]}").encode("utf-8", errors="surrogateescape")


def export(client: TestClient, headers: dict, game: str) -> bytes:
    answer = client.get(f"/api/games/{game}/export", headers=headers)
    assert answer.status_code == 200, answer.text
    return answer.content


def without_stamps(lines: list[str]) -> list[str]:
    return stored_objects([json.dumps({k: v for k, v in json.loads(t).items() if k not in STAMPED}) for t in lines])


def check_refusal(answer, log: MutatedLog) -> None:
    assert answer.headers["content-type"].startswith("application/problem+json"), answer.text
    problem = answer.json()
    assert problem["status"] == answer.status_code and problem["detail"], problem
    tally(f"{answer.status_code} {problem['type'].rsplit('/', 1)[-1]} at {field_head(problem.get('field') or '-')}")
    if problem.get("line") is not None:
        refused_line(log, problem["line"], problem.get("field") or "(body)")
    else:
        assert log.first_change is not None, (problem, log.steps)
        assert problem.get("field") in WHOLE | {None} or answer.status_code != 422, problem


def check_accepted(client, headers, db, game: str, before: bytes, log: MutatedLog, tmp: Path) -> None:
    after = export(client, headers, game)
    assert after.startswith(before), log.steps
    new = lines_of(after[len(before):].decode("utf-8"))
    assert without_stamps(new) == without_stamps([t for t in log.lines if t.strip()]), log.steps
    path = tmp / "export.jsonl"
    path.write_bytes(after)
    verified = umpire("verify", str(path), "--db", db)
    assert verified.exit_code == 0, (verified.output, log.steps)
    for read in ("state", "audit"):
        answer = client.get(f"/api/games/{game}/{read}", headers=headers)
        assert answer.status_code == 200, (read, answer.text[:500], log.steps)


@settings(max_examples=280, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(name=st.sampled_from(NAMES), data=st.data())
def test_a_damaged_batch_is_stored_whole_or_refused_without_a_trace(table, name, data):
    client, headers, db = table
    game = f"{name}-{next(GAME_NUMBERS)}"
    valid = renamed(SOURCES[name], game, keep_chain=False)
    kept = data.draw(st.integers(1, len(valid) - 1), label="events stored first")
    assert post(client, headers, game, [json.loads(t) for t in valid[:kept]]).status_code == 201
    before = export(client, headers, game)
    kinds = KINDS[data.draw(st.sampled_from(sorted(KINDS)), label="mutations")]
    log = data.draw(mutated(valid[kept:], kinds=kinds), label="batch")
    as_objects = data.draw(st.booleans(), label="events as objects")
    answer = client.post(f"/api/games/{game}/events", content=batch_body(log, as_objects),
                         headers={**headers, "Content-Type": "application/json"})
    assert answer.status_code < 500, (answer.status_code, answer.text[:500], log.steps)
    if answer.status_code == 201:
        tally("201")
        with tempfile.TemporaryDirectory() as tmp:
            check_accepted(client, headers, db, game, before, log, Path(tmp))
    else:
        check_refusal(answer, log)
        assert export(client, headers, game) == before, f"a refused batch changed the game: {log.steps}"
    assert client.get(f"/api/games/{BYSTANDER}/state", headers=headers).status_code == 200


@settings(max_examples=80, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(name=st.sampled_from(NAMES), data=st.data())
def test_api_import_of_a_damaged_log_answers_as_umpire_import_does(table, name, data):
    client, headers, db = table
    log = data.draw(mutated(renamed(SOURCES[name], f"{name}-{next(GAME_NUMBERS)}")), label="log")
    games_before = client.get("/api/games", headers=headers).json()
    body = log.text().encode("utf-8", errors="surrogateescape")
    answer = client.post("/api/import", content=body, headers={**headers, "Content-Type": "application/x-ndjson"})
    assert answer.status_code < 500, (answer.status_code, answer.text[:500], log.steps)
    with tempfile.TemporaryDirectory() as tmp, fresh_store(Path(tmp)) as other:
        path = Path(tmp) / "game.jsonl"
        path.write_bytes(body)
        by_cli = umpire("import", "--db", other, str(path)).exit_code
    if answer.status_code in (200, 201):
        tally("201")
        game = answer.json()["game"]
        stored = lines_of(export(client, headers, game).decode("utf-8"))
        assert stored_objects(stored) == stored_objects(log.lines), log.steps
        assert by_cli == 0, f"umpire import refused what POST /api/import took: {log.steps}"
        return
    check_refusal(answer, log)
    assert client.get("/api/games", headers=headers).json() == games_before, log.steps
    assert by_cli != 0, f"POST /api/import refused what umpire import took: {log.steps}"


def test_api_import_reads_lines_as_umpire_import_does(table):
    client, headers, _ = table
    lines = renamed(SOURCES[NAMES[0]], "line-separator", keep_chain=False)
    first = json.loads(lines[0])
    first["data"]["scenario"] = "before\u2028after"
    text = "\n".join([json.dumps(first, ensure_ascii=False)] + lines[1:]) + "\n"
    answer = client.post("/api/import", content=text.encode("utf-8"),
                         headers={**headers, "Content-Type": "application/x-ndjson"})
    assert answer.status_code == 201, answer.text


def test_api_import_refuses_a_line_nested_beyond_what_orjson_writes(table):
    client, headers, _ = table
    lines = renamed(SOURCES[NAMES[0]], "nested-300", keep_chain=False)
    deep = lines[0].replace('"data":{', '"data":{"nested":' + "[" * 300 + "]" * 300 + ",", 1)
    answer = client.post("/api/import", content="\n".join([deep] + lines[1:]).encode("utf-8"),
                         headers={**headers, "Content-Type": "application/x-ndjson"})
    assert answer.status_code == 422 and answer.json()["line"] == 1, answer.text
