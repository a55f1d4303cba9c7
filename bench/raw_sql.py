"""The analytics against raw SQL over the same stored events, timed in the same run (the scale
benchmark's query section, bench/scale.py).

The raw SQL reads the ledger's stored events directly (the event state holds each line as JSON
text: `json_extract` in SQLite, `jsonb` in PostgreSQL); the analytics side is the data function
the CLI and the API call (`projections.analytics.*`), catch-up check included.
"""
from __future__ import annotations

import time
from typing import Any, Callable, Optional

from domain.application import Ledger
from domain.model.ids import game_uuid
from projections.analytics import QUERIES
from projections.store import ProjectionStore

RECORDED = "domain.model.game:Game.Recorded"
TARGET_RATIO = 2.0
PER_GAME_SAMPLES = 20


def timed(fn: Callable[[], Any], repeat: int = 3) -> tuple[float, Any]:
    """The best of `repeat` runs (seconds) and the last result."""
    best, result = float("inf"), None
    for _ in range(repeat):
        start = time.perf_counter()
        result = fn()
        best = min(best, time.perf_counter() - start)
    return best, result


class RawEvents:
    """Aggregations straight over the ledger's stored events (JSON inside the state column)."""

    def __init__(self, ledger: Ledger, store: ProjectionStore):
        self.store = store
        self.table = getattr(ledger.recorder, "events_table_name", None) or "stored_events"

    def _field(self, path: str) -> str:
        """A field of the stored line: the event state holds the line as JSON text (domain/model/game.py)."""
        if self.store.pg:
            parts = path.split(".")
            head = "(convert_from(state, 'UTF8')::jsonb->>'line')::jsonb"
            return head + "".join(f"->'{p}'" for p in parts[:-1]) + f"->>'{parts[-1]}'"
        return f"json_extract(json_extract(CAST(state AS TEXT), '$.line'), '$.{path}')"

    def _num(self, path: str) -> str:
        return f"({self._field(path)})::bigint" if self.store.pg else self._field(path)

    def _query(self, select: str, kind: str, group: str, game_id: Optional[str]) -> list[tuple]:
        where = f"topic = ? AND {self._field('type')} = ?"
        args: tuple = (RECORDED, kind)
        if game_id is not None:
            where, args = where + " AND originator_id = ?", args + (game_id if self.store.pg else game_id.replace("-", ""),)
        sql = f"SELECT {select} FROM {self.table} WHERE {where} GROUP BY {group} ORDER BY {group}"
        with self.store.transaction() as cur:
            cur.execute(self.store.q(sql), args)
            return cur.fetchall()

    def points_by_element(self, game_id: Optional[str] = None) -> list[tuple]:
        g, e = self._field("game"), self._field("data.element")
        return self._query(f"{g}, {e}, SUM({self._num('data.points')}), COUNT(*)", "ArtilleryPointsSpent",
                           "1, 2", game_id)

    def fire_orders_by_game(self, game_id: Optional[str] = None) -> list[tuple]:
        granted = ("SUM(CASE WHEN " + self._field("data.granted") + " = 'true' THEN 1 ELSE 0 END)" if self.store.pg
                   else "SUM(" + self._field("data.granted") + ")")
        return self._query(f"{self._field('game')}, COUNT(*), {granted}", "FireOrderChecked", "1", game_id)

    def small_arms_by_hex(self, game_id: Optional[str] = None) -> list[tuple]:
        return self._query(f"{self._field('game')}, {self._field('data.target')}, COUNT(*)", "SmallArmsFired",
                           "1, 2", game_id)


def agreement(rows: dict[str, list[dict]], raw: RawEvents) -> dict[str, bool]:
    """Whether the analytics rows add up to what the raw SQL counts."""
    last: dict[tuple, int] = {}
    counts: dict[tuple, int] = {}
    for r in rows["ammunition"]:
        key = (r["game"], r["element"])
        last[key] = r["cumulative"]
        counts[key] = counts.get(key, 0) + 1
    sums = {(g, e): (int(s), int(n)) for g, e, s, n in raw.points_by_element()}
    ammo_ok = bool(sums) and sums == {k: (last[k], counts[k]) for k in last}
    fot: dict[str, list[int]] = {}
    for r in rows["fire-orders"]:
        fot.setdefault(r["game"], [0, 0])
        fot[r["game"]][0] += 1
        fot[r["game"]][1] += int(r["granted"])
    fot_ok = bool(fot) and fot == {g: [int(n), int(k)] for g, n, k in raw.fire_orders_by_game()}
    return {"ammunition": ammo_ok, "fire-orders": fot_ok}


def query_times(ledger: Ledger, store: ProjectionStore, repeat: int = 3) -> dict[str, Any]:
    """Each analytics query (all games: best of `repeat`; one game: the mean over 20 games spread
    through the store) against its raw SQL aggregation, and whether they agree."""
    raw = RawEvents(ledger, store)
    raw_fns = {"ammunition": raw.points_by_element, "fire-orders": raw.fire_orders_by_game,
               "resistance": raw.small_arms_by_hex}
    summary = sorted(ledger.games(), key=lambda g: g.game)
    picks = [g.game for g in summary[:: max(1, len(summary) // PER_GAME_SAMPLES)]][:PER_GAME_SAMPLES]
    out: dict[str, Any] = {}
    rows: dict[str, list[dict]] = {}
    for kind, query in QUERIES.items():
        seconds, result = timed(lambda: query(ledger, store), repeat)
        rows[kind] = result["rows"]
        raw_seconds, _ = timed(raw_fns[kind], repeat)
        per_game = sum(timed(lambda g=g: query(ledger, store, g), 1)[0] for g in picks) / max(1, len(picks))
        raw_per_game = sum(timed(lambda g=g: raw_fns[kind](str(game_uuid(g))), 1)[0] for g in picks) / max(1, len(picks))
        out[kind] = {"rows": len(rows[kind]), "analytics_seconds": round(seconds, 4),
                     "raw_sql_seconds": round(raw_seconds, 4), "ratio": round(seconds / raw_seconds, 3),
                     "per_game_analytics_seconds": round(per_game, 5), "per_game_raw_sql_seconds": round(raw_per_game, 5),
                     "per_game_ratio": round(per_game / raw_per_game, 3),
                     "within_target": seconds <= TARGET_RATIO * raw_seconds and per_game <= TARGET_RATIO * raw_per_game}
    out["agree_with_raw_sql"] = agreement(rows, raw)
    return out
