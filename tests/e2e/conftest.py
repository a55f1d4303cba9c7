"""Fixtures of the API tests: an app on a fresh store (SQLite and PostgreSQL) with tokens."""
from __future__ import annotations

import warnings
from typing import Iterator

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


@pytest.fixture(scope="session", autouse=True)
def patient_expect() -> Iterator[None]:
    """Each browser step waits for a callback of a server on a machine other tests share (two
    workers, and the servers they start): a longer wait than Playwright's 5 seconds before a step
    is taken as failed. A step that passes returns as soon as it does."""
    from playwright.sync_api import expect
    expect.set_options(timeout=15_000)
    yield
