"""Configuration, read from the environment when asked (never at import time)."""
from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote, urlparse

DEFAULT_DB = "var/umpire.db"


@dataclass(frozen=True)
class Settings:
    db: str
    tables_dir: str | None = None  # UMPIRE_TABLES: a default table pack file for audits

    @property
    def is_postgres(self) -> bool:
        return self.db.startswith(("postgresql://", "postgres://"))


def get_settings(db: str | None = None) -> Settings:
    """`--db` wins, then `UMPIRE_DB`, then `var/umpire.db`."""
    return Settings(db=db or os.environ.get("UMPIRE_DB") or DEFAULT_DB,
                    tables_dir=os.environ.get("UMPIRE_TABLES"))


def ledger_env(db: str) -> dict[str, str]:
    """The eventsourcing library's settings for a store: a file path or a postgresql:// URL."""
    if db.startswith(("postgresql://", "postgres://")):
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
        }
    if db != ":memory:":
        Path(db).parent.mkdir(parents=True, exist_ok=True)
    return {"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": db,
            "SQLITE_LOCK_TIMEOUT": "10"}
