"""Who may do what: Bearer tokens (stored as SHA-256 hashes beside the ledger) and roles.

Tokens are not events: they live in their own table of the same database (SQLite or
PostgreSQL). A token is `umpire_<id>_<secret>`; only its hash is stored, so a copy of the
database does not hand out tokens. The id names a token for revocation and in logs.
"""
from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Optional

from projections.store import ProjectionStore

ROLES = ("viewer", "player", "referee", "admin")
RANK = {role: rank for rank, role in enumerate(ROLES)}

SCHEMA = """CREATE TABLE IF NOT EXISTS umpire_tokens (
    id TEXT PRIMARY KEY, hash TEXT NOT NULL UNIQUE, role TEXT NOT NULL,
    game TEXT, side TEXT, name TEXT, created TEXT NOT NULL, revoked TEXT)"""


class TokenError(ValueError):
    """A token request that cannot be granted (unknown role, a player without a game, ...)."""


@dataclass(frozen=True)
class Principal:
    """The holder of a token: a role, optionally bound to one game and (players) one side."""

    id: str
    role: str
    game: Optional[str] = None
    side: Optional[str] = None
    name: Optional[str] = None

    def at_least(self, role: str) -> bool:
        return RANK[self.role] >= RANK[role]

    def sees(self, game: str) -> bool:
        """A token bound to a game reaches only that game."""
        return self.game is None or self.game == game

    @property
    def label(self) -> str:
        """Who recorded an event (`by`): the token's name, else its role and side."""
        return self.name or (f"{self.role}:{self.side}" if self.side else f"{self.role}:{self.id}")


LOCAL_ADMIN = Principal(id="local", role="admin", name="local")


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


class TokenStore:
    """Issue, look up and revoke tokens."""

    def __init__(self, store: ProjectionStore):
        self.store = store
        with store.transaction() as cur:
            cur.execute(SCHEMA)

    def issue(self, role: str, game: Optional[str] = None, side: Optional[str] = None,
              name: Optional[str] = None) -> tuple[str, Principal]:
        """A new token (returned once, never stored) and its principal."""
        if role not in RANK:
            raise TokenError(f"unknown role {role!r}; one of {', '.join(ROLES)}")
        if side is not None and role != "player":
            raise TokenError("--side is for player tokens")
        if role == "player" and game is None:
            raise TokenError("a player token needs --game (and --side, unless it records only neutral events)")
        token_id = secrets.token_hex(6)
        token = f"umpire_{token_id}_{secrets.token_urlsafe(32)}"
        created = datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
        with self.store.transaction() as cur:
            cur.execute(self.store.q("INSERT INTO umpire_tokens (id, hash, role, game, side, name, created) "
                                     "VALUES (?, ?, ?, ?, ?, ?, ?)"),
                        (token_id, token_hash(token), role, game, side, name, created))
        return token, Principal(token_id, role, game, side, name)

    def lookup(self, token: str) -> Optional[Principal]:
        """The principal of a live token, or None (unknown or revoked)."""
        with self.store.transaction() as cur:
            cur.execute(self.store.q("SELECT id, role, game, side, name FROM umpire_tokens "
                                     "WHERE hash = ? AND revoked IS NULL"), (token_hash(token),))
            row = cur.fetchone()
        return Principal(*row) if row else None

    def revoke(self, token_or_id: str) -> Optional[str]:
        """Revoke by token or by id; the id revoked, or None when nothing matched."""
        now = datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
        with self.store.transaction() as cur:
            cur.execute(self.store.q("SELECT id FROM umpire_tokens WHERE (id = ? OR hash = ?) AND revoked IS NULL"),
                        (token_or_id, token_hash(token_or_id)))
            row = cur.fetchone()
            if row is None:
                return None
            cur.execute(self.store.q("UPDATE umpire_tokens SET revoked = ? WHERE id = ?"), (now, row[0]))
        return row[0]

    def list(self) -> list[dict]:
        with self.store.transaction() as cur:
            cur.execute("SELECT id, role, game, side, name, created, revoked FROM umpire_tokens ORDER BY created, id")
            names = ("id", "role", "game", "side", "name", "created", "revoked")
            return [dict(zip(names, row)) for row in cur.fetchall()]
