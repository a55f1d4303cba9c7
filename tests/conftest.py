"""Shared fixtures: stores on SQLite and on the throwaway PostgreSQL cluster of `make test`."""
from __future__ import annotations

import json
import os
import uuid
from pathlib import Path

import psycopg
import pytest
from hypothesis import settings

# `make test` runs on every core of a shared 2-core machine: an example's time says nothing of
# the property, so no property test fails for a slow example (Hypothesis's default is 200 ms).
settings.register_profile("umpire", deadline=None)
settings.load_profile("umpire")

ROOT = Path(__file__).resolve().parents[1]
# The shared spec beside the repository, else the copy kept in fixtures/spec/.
SPEC = next(p for p in (ROOT.parent / "shared" / "spec", ROOT / "fixtures" / "spec")
            if (p / "examples").is_dir())
EXAMPLES = SPEC / "examples"
FIXTURE_GAMES = ROOT / "fixtures" / "games"


def pg_server() -> str:
    url = os.environ.get("UMPIRE_TEST_PG")
    if not url:
        pytest.fail("UMPIRE_TEST_PG is not set: run the tests with `make test`, which starts a "
                    "throwaway PostgreSQL 15 cluster (scripts/with-postgres.sh)")
    return url


@pytest.fixture
def pg_url() -> str:
    """A fresh, empty PostgreSQL database on the test cluster, dropped afterwards."""
    server = pg_server()
    name = f"umpire_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(server, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    base = server.rsplit("/", 1)[0]
    yield f"{base}/{name}"
    with psycopg.connect(server, autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


@pytest.fixture(params=["sqlite", "postgres"])
def db_url(request, tmp_path) -> str:
    """A fresh store of each kind: a SQLite file, then a PostgreSQL database."""
    if request.param == "sqlite":
        return str(tmp_path / "umpire.db")
    return request.getfixturevalue("pg_url")


@pytest.fixture
def ledger(db_url):
    from api.settings import ledger_env
    from domain.application import Ledger
    app = Ledger(ledger_env(db_url))
    yield app
    app.close()


def example_lines(name: str) -> list[str]:
    return (EXAMPLES / f"{name}.jsonl").read_text(encoding="utf-8").splitlines()


def expected_findings(name: str) -> list[dict]:
    return json.loads((EXAMPLES / f"{name}.expected.json").read_text())["findings"]


def example_names() -> list[str]:
    return sorted(p.stem for p in EXAMPLES.glob("*.jsonl"))


@pytest.fixture(scope="session", autouse=True)
def _close_stores_at_the_end():
    """Close and free every store the tests opened before the interpreter shuts down: a PostgreSQL
    datastore that is still alive then closes itself in `__del__` after the modules it needs are
    gone, one traceback each on stderr."""
    yield
    import gc

    from api import deps
    from api.cli_app import close_ledgers
    from domain.application import Ledger
    for db in list(deps._SERVICES):
        deps.close_services(db)
    close_ledgers()
    for obj in gc.get_objects():
        if isinstance(obj, Ledger):
            try:
                obj.close()
            except Exception:  # already closed, or its database dropped: nothing to release
                pass
    del obj
    gc.collect()  # the datastores in reference cycles go now, with the interpreter whole
