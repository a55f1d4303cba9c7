"""The service's dice seeds, one per game, kept beside the ledger until they are revealed.

A seed is drawn when a game is created through the service; its commitment (SHA-256) is public
from then on; the seed itself is published only by a reveal, after which the service rolls no
more dice for that game (anyone could predict them).
"""
from __future__ import annotations

import json
import secrets
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Optional

from domain.dice import SEED_BYTES, commitment
from projections.store import ProjectionStore

SPACE = "dice-seeds"


@dataclass(frozen=True)
class GameSeed:
    game: str
    seed: bytes
    commitment: str
    revealed: Optional[str]  # when it was revealed (RFC 3339), or None

    def public(self) -> dict:
        """What anyone may see: the commitment always, the seed once revealed."""
        return {"game": self.game, "commitment": self.commitment,
                "revealed": self.seed.hex() if self.revealed else None, "revealed_at": self.revealed}


def _now() -> str:
    return datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


class SeedStore:
    def __init__(self, store: ProjectionStore):
        self.store = store

    def ensure(self, game: str) -> GameSeed:
        """The game's seed, drawn now if it has none (concurrent callers get the same one)."""
        seed = secrets.token_bytes(SEED_BYTES)
        value = json.dumps({"seed": seed.hex(), "commitment": commitment(seed), "revealed": None}, sort_keys=True)
        with self.store.transaction() as cur:
            cur.execute(self.store.q("INSERT INTO umpire_kv (space, key, value) VALUES (?, ?, ?) "
                                     "ON CONFLICT (space, key) DO NOTHING"), (SPACE, game, value))
        found = self.get(game)
        assert found is not None
        return found

    def get(self, game: str) -> Optional[GameSeed]:
        value = self.store.kv_get(SPACE, game)
        if value is None:
            return None
        return GameSeed(game, bytes.fromhex(value["seed"]), value["commitment"], value["revealed"])

    def reveal(self, game: str) -> Optional[GameSeed]:
        """Publish the seed (idempotent); None when the game has no seed."""
        with self.store.transaction() as cur:
            cur.execute(self.store.q("SELECT value FROM umpire_kv WHERE space = ? AND key = ?"), (SPACE, game))
            row = cur.fetchone()
            if row is None:
                return None
            value = json.loads(row[0])
            if not value["revealed"]:
                value["revealed"] = _now()
                self.store.kv_put(cur, SPACE, game, value)
        return self.get(game)

    def revealed(self) -> dict[str, bytes]:
        """Every revealed seed, by game."""
        return {game: bytes.fromhex(v["seed"]) for game, v in self.store.kv_all(SPACE).items() if v["revealed"]}
