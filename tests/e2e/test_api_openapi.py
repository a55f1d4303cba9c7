"""OpenAPI conformance beyond schemathesis: a wrong method is 405 with the right `Allow`, every
operation documents the problems it can answer, the docs page works offline, and a 500 (a
broken store, not bad input) leaves its traceback in the server's log."""
from __future__ import annotations

import re
import sqlite3

import httpx
import pytest

from api.deps import close_services
from tests.e2e.api_helpers import Server, issue, small_game

WRONG_METHODS = [
    ("DELETE", "/api/games/g-1/events", {"GET", "POST"}),
    ("PUT", "/api/import", {"POST"}),
    ("GET", "/api/import", {"POST"}),
    ("POST", "/api/health", {"GET"}),
    ("HEAD", "/api/games", {"GET"}),
    ("PATCH", "/api/games", {"GET"}),
    ("GET", "/api/games/g-1/rulings", {"POST"}),
    ("DELETE", "/api/games/g-1/dice/reveal", {"POST"}),
    ("POST", "/api/openapi.json", {"GET", "HEAD"}),
]


@pytest.mark.parametrize("method,path,allow", WRONG_METHODS)
def test_a_wrong_method_is_405_with_the_allowed_ones(client, api_db, method, path, allow):
    answer = client.request(method, path, headers=issue(api_db, "admin"))
    assert answer.status_code == 405, answer.text
    assert set(re.split(r",\s*", answer.headers["allow"])) == allow
    if method != "HEAD":
        assert answer.headers["content-type"] == "application/problem+json"


def test_a_path_of_no_route_stays_404(client, api_db):
    for method in ("GET", "POST", "DELETE"):
        answer = client.request(method, "/api/games/g-1/nothing", headers=issue(api_db, "admin"))
        assert answer.status_code == 404 and "allow" not in answer.headers


def test_every_operation_documents_the_problems_it_can_answer(client):
    schema = client.get("/api/openapi.json").json()
    for path, item in schema["paths"].items():
        for method, operation in item.items():
            documented = set(operation["responses"])
            if path != "/api/health":
                assert {"401", "403"} <= documented, (method, path, documented)
            if operation.get("parameters") or operation.get("requestBody"):
                assert "422" in documented, (method, path, documented)
            if "{game}" in path:
                assert "404" in documented, (method, path)
            if method == "post":
                assert "413" in documented, (method, path, documented)
            if method == "post" and operation.get("requestBody"):
                assert "400" in documented or path == "/api/import", (method, path, documented)


def test_the_docs_page_loads_every_asset_from_the_app_itself(client):
    page = client.get("/api/docs")
    assert page.status_code == 200 and "text/html" in page.headers["content-type"]
    assert not re.search(r"(https?:)?//[a-z]", page.text, re.I), "the page names an outside host"
    assets = re.findall(r'(?:src|href)="([^"]+)"', page.text)
    assert len(assets) >= 3
    for asset in assets:
        fetched = client.get(asset)
        assert fetched.status_code == 200 and len(fetched.content) > 50, asset
    script = next(a for a in assets if a.endswith(".js"))
    assert b"SwaggerUIBundle" in client.get(script).content
    assert "/api/openapi.json" in page.text


def test_a_server_error_logs_its_traceback_and_answers_a_problem(tmp_path):
    db = str(tmp_path / "umpire.db")
    viewer = issue(db, "viewer")
    server = Server(db).start()
    try:
        assert httpx.get(f"{server.url}/api/games", headers=viewer).status_code == 200
        with sqlite3.connect(db) as conn:
            conn.execute("DROP TABLE umpire_tokens")  # the store breaks under the server
        broken = httpx.get(f"{server.url}/api/games", headers=viewer)
        assert broken.status_code == 500 and broken.json()["type"].endswith("internal-error")
        assert "umpire_tokens" not in broken.text  # the details are the log's, not the client's
    finally:
        server.stop()
        close_services(db)
    log = server.log_tail(size=1_000_000)
    ours = log[log.index("unexpected error answering GET /api/games"):]
    assert ours.splitlines()[1].startswith("Traceback") and "umpire_tokens" in ours


def test_the_answer_to_a_batch_is_documented_with_its_head(client, api_db):
    schema = client.get("/api/openapi.json").json()
    answer = schema["components"]["schemas"]["AppendAnswer"]
    assert "head" in answer["required"]
    posted = client.post("/api/games/g-1/events", json={"events": small_game().lines}, headers=issue(api_db, "admin"))
    assert set(posted.json()) == set(answer["properties"])
