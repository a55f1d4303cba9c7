"""Schemathesis against the OpenAPI schema (SQLite and PostgreSQL): generated requests to every
route, with a stored game to reach: no 5xx, and every answer matches its documented status,
content type and schema. Bounded: a few examples per route, no deadline per example."""
from __future__ import annotations

import warnings

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from schemathesis.checks import (content_type_conformance, not_a_server_error, response_headers_conformance,
                                 response_schema_conformance, status_code_conformance)

from api.app import create_app
from api.deps import close_services
from tests.e2e.api_helpers import issue, next_event, small_game

with warnings.catch_warnings():
    warnings.simplefilter("ignore", DeprecationWarning)
    from fastapi.testclient import TestClient

CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance,
          response_headers_conformance]


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
def admin_headers(db_url, api_app):
    return issue(db_url, "admin")


def test_generated_requests_get_documented_answers(api_schema, admin_headers):
    operations = [result.ok() for result in api_schema.get_all_operations()]
    assert len(operations) >= 12
    for operation in operations:
        @given(case=operation.as_strategy())
        @settings(max_examples=10, deadline=None, suppress_health_check=list(HealthCheck), database=None)
        def run(case):
            case.call_and_validate(headers=admin_headers, checks=CHECKS)
            if "game" in (case.path_parameters or {}):
                case.path_parameters["game"] = "g-1"  # the same request, at a game that exists
                case.call_and_validate(headers=admin_headers, checks=CHECKS)

        run()
