"""The library's recorders with the ledger's two bulk paths added, on SQLite and PostgreSQL.

- `select_lines`: a game's stored lines as their text, taken out of the stored state by the
  database (the state is JSON: {"timestamp": ..., "line": "<the line>", "turn": ...}), so that
  reading a game costs one decode per row, of the line itself, and no stored event or UUID is
  built per row.
- `insert_batch`: one batch's stored events and the snapshots it calls for, in one
  transaction, in bulk (the library inserts a SQLite row at a time to learn its notification
  id, and sends PostgreSQL an array of a composite type that psycopg adapts in Python; the
  ledger has no followers, so it needs no notification ids back).

The tables and the stored form are the library's: a store written by one recorder is read by
the other. The Ledger chooses these recorders (RECORDERS) unless its settings name another.
"""
from __future__ import annotations

from typing import Any, Optional

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
