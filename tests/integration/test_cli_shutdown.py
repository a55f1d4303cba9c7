"""Closing a store frees its PostgreSQL datastore while the interpreter is whole. One still alive
at shutdown closes itself in `__del__` after the modules it needs are gone: the
`PostgresDatastore.__del__` tracebacks that followed every green `make test` run."""
from __future__ import annotations

import gc

from eventsourcing.postgres import PostgresDatastore

from api.cli_app import close_ledgers, open_ledger
from api.deps import close_services, services_for


def datastores_of(url: str) -> list[PostgresDatastore]:
    gc.collect()
    name = url.rsplit("/", 1)[1]
    return [o for o in gc.get_objects() if isinstance(o, PostgresDatastore) and o.pool.kwargs["dbname"] == name]


def test_closing_the_services_of_a_store_frees_its_datastore(pg_url):
    services_for(pg_url).tokens.list()
    assert len(datastores_of(pg_url)) == 1
    close_services(pg_url)  # what the API tests' fixtures do after each test
    assert datastores_of(pg_url) == []


def test_closing_the_ledgers_at_exit_frees_their_datastores(pg_url):
    open_ledger(pg_url).games()
    assert len(datastores_of(pg_url)) == 1
    close_ledgers()  # what runs at exit, and at the end of the test session
    assert datastores_of(pg_url) == []
