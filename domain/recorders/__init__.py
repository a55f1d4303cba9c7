"""The library's recorders with the ledger's two bulk paths added, on SQLite and PostgreSQL.

- `select_lines`: a game's stored lines as their text, taken out of the stored states (JSON:
  {"timestamp": ..., "line": "<the line>", "turn": ...}) by orjson (cheaper than SQLite's
  json_extract, and than PostgreSQL's `->>` with the states read in binary), so that
  reading a game costs one decode of each line and no stored event, UUID or dict per row.
- `insert_batch`: one batch's stored events and the snapshots it calls for, in one
  transaction, in bulk (the library inserts a SQLite row at a time to learn its notification
  id, and sends PostgreSQL an array of a composite type that psycopg adapts in Python; the
  ledger has no followers, so it needs no notification ids back).

The tables and the stored form are the library's: a store written by one recorder is read by
the other. The Ledger chooses these recorders (RECORDERS) unless its settings name another.
"""
from __future__ import annotations

import json
from typing import Any, Optional

import orjson

RECORDERS = {
    "eventsourcing.sqlite": "domain.recorders.sqlite:LedgerSQLiteRecorder",
    "eventsourcing.postgres": "domain.recorders.postgres:LedgerPostgresRecorder",
}


def window(select: str, params: list[Any], mark: str, gt: Optional[int], lte: Optional[int],
           limit: Optional[int]) -> tuple[str, list[Any]]:
    """A select of one aggregate's events narrowed to gt < version <= lte, in version order, at
    most `limit` of them (`mark`: the driver's parameter placeholder)."""
    if gt is not None:
        select += f" AND originator_version > {mark}"
        params.append(gt)
    if lte is not None:
        select += f" AND originator_version <= {mark}"
        params.append(lte)
    select += " ORDER BY originator_version ASC"
    if limit is not None:
        select += f" LIMIT {mark}"
        params.append(limit)
    return select, params


def line_of(state: bytes) -> str:
    """The line a stored Game event's state holds."""
    try:
        return orjson.loads(state)["line"]
    except orjson.JSONDecodeError:  # a state orjson refuses (a number beyond a double): json reads it
        return json.loads(state)["line"]
