"""`Idempotency-Key`: the same key and body get the same answer; the key with another body is refused.

Answers are kept per token and key in a table beside the ledger (not events). Only successful
answers are kept: a refused request stores nothing, and sending it again is refused again.
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
import time
from typing import Any, Optional

from projections.store import ProjectionStore

SCHEMA = """CREATE TABLE IF NOT EXISTS umpire_idempotency (
    scope TEXT NOT NULL, key TEXT NOT NULL, fingerprint TEXT NOT NULL, status INTEGER NOT NULL,
    response TEXT NOT NULL, created DOUBLE PRECISION NOT NULL, PRIMARY KEY (scope, key))"""


PENDING = 0
STALE = 30.0  # seconds after which a reservation of a dead request is taken over


def fingerprint(method: str, path: str, body: Any) -> str:
    """What makes two requests the same: method, path and the JSON body in canonical form."""
    text = json.dumps([method, path, body], sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    # surrogatepass: a body holding a lone surrogate is refused later with its line, not here
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


@dataclass(frozen=True)
class Answer:
    fingerprint: str
    status: int
    body: Any


class IdempotencyStore:
    def __init__(self, store: ProjectionStore):
        self.store = store
        with store.transaction() as cur:
            cur.execute(SCHEMA)

    def get(self, scope: str, key: str) -> Optional[Answer]:
        with self.store.transaction() as cur:
            cur.execute(self.store.q("SELECT fingerprint, status, response FROM umpire_idempotency "
                                     "WHERE scope = ? AND key = ?"), (scope, key))
            row = cur.fetchone()
        return Answer(row[0], int(row[1]), json.loads(row[2])) if row else None

    def reserve(self, scope: str, key: str, fp: str) -> Optional[Answer]:
        """Take the key for a request about to run: None when taken now, else what the key holds
        (status PENDING while another request with it runs). A reservation older than STALE
        seconds (its server died) is taken over."""
        now = time.time()
        with self.store.transaction() as cur:
            cur.execute(self.store.q(
                "INSERT INTO umpire_idempotency (scope, key, fingerprint, status, response, created) "
                "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (scope, key) DO NOTHING"),
                (scope, key, fp, PENDING, "null", now))
            taken = cur.rowcount == 1
            if not taken:
                cur.execute(self.store.q("UPDATE umpire_idempotency SET created = ?, fingerprint = ? "
                                         "WHERE scope = ? AND key = ? AND status = ? AND created < ?"),
                            (now, fp, scope, key, PENDING, now - STALE))
                taken = cur.rowcount == 1
        return None if taken else self.get(scope, key)

    def finish(self, scope: str, key: str, status: int, body: Any) -> None:
        with self.store.transaction() as cur:
            cur.execute(self.store.q("UPDATE umpire_idempotency SET status = ?, response = ? "
                                     "WHERE scope = ? AND key = ?"), (status, json.dumps(body), scope, key))

    def release(self, scope: str, key: str) -> None:
        """Forget a reservation whose request was refused: nothing was stored."""
        with self.store.transaction() as cur:
            cur.execute(self.store.q("DELETE FROM umpire_idempotency WHERE scope = ? AND key = ? AND status = ?"),
                        (scope, key, PENDING))
