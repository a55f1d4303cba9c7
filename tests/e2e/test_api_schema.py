"""Schemathesis against the OpenAPI schema (SQLite and PostgreSQL): generated requests to every
operation, valid ones and invalid ones, with the token of each role and a stored game to reach:
no 5xx, and every answer has a documented status, content type, headers and schema.

Bounded and deterministic: EXAMPLES valid and NEGATIVE_EXAMPLES invalid requests per operation
and role, derandomized (the same requests on every run), no deadline per example."""
from __future__ import annotations

import warnings

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from schemathesis import GenerationMode
from schemathesis.checks import (allow_header_conformance, content_type_conformance, not_a_server_error,
                                 response_headers_conformance, response_schema_conformance,
                                 status_code_conformance)

from api.app import create_app
from api.deps import close_services
from tests.e2e.api_helpers import issue, next_event, small_game

with warnings.catch_warnings():
    warnings.simplefilter("ignore", DeprecationWarning)
    from fastapi.testclient import TestClient

CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance,
          response_headers_conformance, allow_header_conformance]
EXAMPLES = 25
NEGATIVE_EXAMPLES = 10
# pydantic's spellings of true: a stream asked to follow with one of them is asked bounded instead
FOLLOWS = {"1", "on", "t", "true", "y", "yes"}
ROLES = (("admin", None, None), ("referee", None, None), ("player", "g-1", "british"), ("viewer", None, None))


@pytest.fixture
def api_app(db_url):
    """An app whose store holds game g-1 (with a dispute), with service dice."""
    app = create_app(db_url)
    admin = issue(db_url, "admin")
    with TestClient(app) as client:
        log = small_game("g-1")
        assert client.post("/api/games/g-1/events", json={"events": log.lines}, headers=admin).status_code == 201
        client.post("/api/games/g-1/events", json={"events": [next_event("g-1", 7, "british")]}, headers=admin)
        client.post("/api/games/g-1/disputes", json={"about": 7, "claim": "c"}, headers=admin)
    yield app
    close_services(db_url)


@pytest.fixture
def api_schema(api_app):
    return schemathesis.openapi.from_asgi("/api/openapi.json", api_app)


@pytest.fixture
def tokens(db_url, api_app) -> dict[str, dict[str, str]]:
    return {role: issue(db_url, role, game, side) for role, game, side in ROLES}


def run_operation(operation, headers: dict[str, str], mode: GenerationMode, examples: int) -> None:
    @given(case=operation.as_strategy(generation_mode=mode))
    @settings(max_examples=examples, deadline=None, suppress_health_check=list(HealthCheck), database=None,
              derandomize=True)
    def run(case):
        bounded(case)
        case.call_and_validate(headers=headers, checks=CHECKS)
        if "game" in (case.path_parameters or {}):
            case.path_parameters["game"] = "g-1"  # the same request, at a game that exists
            case.call_and_validate(headers=headers, checks=CHECKS)

    run()


def bounded(case) -> None:
    """An event stream that follows a game ends only when its client leaves, and a case's answer
    is read whole: a stream is asked with `follow=false` (it ends after the stored events) unless
    the case's `follow` is invalid on purpose. Following is tested in test_api_stream.py."""
    follow = (case.query or {}).get("follow", "true")
    if case.operation.path.endswith("/stream") and str(follow).lower() in FOLLOWS:
        case.query = {**(case.query or {}), "follow": "false"}


def has_inputs(operation) -> bool:
    return any(len(group) for group in (operation.path_parameters, operation.query, operation.headers, operation.body))


def test_generated_requests_get_documented_answers(api_schema, tokens):
    operations = [result.ok() for result in api_schema.get_all_operations()]
    assert len(operations) >= 15
    for operation in operations:
        for role, headers in tokens.items():
            run_operation(operation, headers, GenerationMode.POSITIVE, EXAMPLES)
            if has_inputs(operation):  # else no request is invalid
                run_operation(operation, headers, GenerationMode.NEGATIVE, NEGATIVE_EXAMPLES)
