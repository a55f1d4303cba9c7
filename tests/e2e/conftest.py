"""Fixtures of the API tests: an app on a fresh store (SQLite and PostgreSQL) with tokens."""
from __future__ import annotations

import warnings

import pytest

from api.deps import close_services

with warnings.catch_warnings():
    warnings.simplefilter("ignore", DeprecationWarning)
    from fastapi.testclient import TestClient


@pytest.fixture
def api_db(db_url):
    """A fresh store of each kind, its services closed afterwards."""
    yield db_url
    close_services(db_url)


@pytest.fixture
def client(api_db):
    from api.app import create_app
    with TestClient(create_app(api_db)) as c:
        yield c
