"""Configuration, read from the environment when asked (never at import time)."""
from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Optional
from urllib.parse import unquote, urlparse

DEFAULT_DB = "var/umpire.db"
PG_SCHEMES = ("postgresql://", "postgres://")
# Seconds to wait for a PostgreSQL server before giving up (libpq and the library's pool).
DEFAULT_CONNECT_TIMEOUT = 3


@dataclass(frozen=True)
class Settings:
    db: str
    tables_dir: str | None = None  # UMPIRE_TABLES: a default table pack file for audits
    named: bool = True  # False when neither --db nor UMPIRE_DB chose the store
    connect_timeout: int = DEFAULT_CONNECT_TIMEOUT  # UMPIRE_PG_CONNECT_TIMEOUT

    @property
    def is_postgres(self) -> bool:
        return self.db.startswith(PG_SCHEMES)


def get_settings(db: str | None = None) -> Settings:
    """`--db` wins, then `UMPIRE_DB`, then `var/umpire.db`."""
    chosen = db or os.environ.get("UMPIRE_DB")
    timeout = os.environ.get("UMPIRE_PG_CONNECT_TIMEOUT", "")
    return Settings(db=chosen or DEFAULT_DB, tables_dir=os.environ.get("UMPIRE_TABLES"),
                    named=bool(chosen),
                    connect_timeout=int(timeout) if timeout.isdigit() and int(timeout) > 0 else DEFAULT_CONNECT_TIMEOUT)


def ledger_env(db: str, connect_timeout: Optional[int] = None) -> dict[str, str]:
    """The eventsourcing library's settings for a store: a file path or a postgresql:// URL.

    Nothing is created here: the commands that create a store decide so (api/cli_app.py)."""
    if db.startswith(PG_SCHEMES):
        url = urlparse(db)
        return {
            "PERSISTENCE_MODULE": "eventsourcing.postgres",
            "POSTGRES_DBNAME": url.path.lstrip("/") or "postgres",
            "POSTGRES_HOST": url.hostname or "127.0.0.1",
            "POSTGRES_PORT": str(url.port or 5432),
            "POSTGRES_USER": unquote(url.username or "postgres"),
            "POSTGRES_PASSWORD": unquote(url.password or ""),
            "POSTGRES_POOL_SIZE": "10",
            "POSTGRES_MAX_OVERFLOW": "10",
            # The library waits 30 s by default; a store that cannot be reached should say so sooner.
            "POSTGRES_CONNECT_TIMEOUT": str(connect_timeout or get_settings(db).connect_timeout),
        }
    return {"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": db,
            "SQLITE_LOCK_TIMEOUT": "10"}
