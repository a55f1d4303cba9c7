"""A benchmark of what one long game costs the others: a quiet game's board read beside a game
that keeps growing (markers placed and never removed), and the growing game's checkpoints.

The baseline is a raw read of the quiet game's lines in the same run (a SELECT of their JSON
text from a plain SQLite table and `json.loads` of each), so the ratio does not depend on the
machine. Figures go to docs/benchmarks.md (`umpire bench --growth`).
"""
from __future__ import annotations

import json
import sqlite3
import statistics
import time
from typing import Any, Callable

from domain.application import Ledger
from domain.log import canonical, chain
from bench.corpus import corpus_game
from projections.board_state import BoardCheckpoints
from projections.store import ProjectionStore


def growing_game(game: str, markers: int) -> list[dict[str, Any]]:
    """A short game whose board then grows by one marker an event."""
    lines = corpus_game(game, seed=5, turns=2).lines
    last = lines[-1]
    for i in range(markers):
        lines.append({**last, "seq": len(lines) + 1, "side": None, "type": "MarkerPlaced",
                      "data": {"marker": f"wire-{i}", "location": "1:1010"}})
    return lines


def _median_time(action: Callable[[], Any], runs: int = 7) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def _raw_read(path: str) -> Callable[[], list]:
    def read() -> list:
        with sqlite3.connect(path) as conn:
            return [json.loads(text) for (text,) in conn.execute("SELECT line FROM raw ORDER BY seq")]
    return read


def run_growth_bench(ledger: Ledger, store: ProjectionStore, raw_path: str,
                     markers: int = 24_000) -> dict[str, Any]:
    """Figures for one store holding nothing yet (closed at the end)."""
    quiet = corpus_game("quiet", seed=3, turns=6).lines
    with sqlite3.connect(raw_path) as conn:
        conn.execute("CREATE TABLE raw (seq INTEGER PRIMARY KEY, line TEXT)")
        conn.executemany("INSERT INTO raw VALUES (?, ?)", [(l["seq"], canonical(l)) for l in quiet])
    try:
        boards = BoardCheckpoints(ledger, store)
        ledger.import_lines(list(chain(quiet)))
        boards.board_at("quiet")
        raw = _median_time(_raw_read(raw_path))
        alone = _median_time(lambda: boards.board_at("quiet"))
        ledger.import_lines(list(chain(growing_game("busy", markers))))
        beside = _median_time(lambda: boards.board_at("quiet"))
        start = time.perf_counter()
        boards.board_at("busy")
        first = time.perf_counter() - start
        later = _median_time(lambda: boards.board_at("busy"))
        events = ledger.last_seq("busy")
        size = store.checkpoint_bytes("busy")
        rows = sum(1 for game, _, _ in store.all_checkpoints() if game == "busy")
    finally:
        ledger.close()
        store.close()
    return {
        "store": "postgresql" if store.pg else "sqlite",
        "quiet_events": len(quiet), "busy_events": events,
        "quiet_raw_read_s": round(raw, 5), "quiet_board_alone_s": round(alone, 5),
        "quiet_board_beside_busy_s": round(beside, 5),
        "quiet_ratio_alone": round(alone / raw, 2), "quiet_ratio_beside_busy": round(beside / raw, 2),
        "busy_first_board_s": round(first, 3), "busy_board_again_s": round(later, 4),
        "busy_checkpoint_rows": rows, "busy_checkpoint_mb": round(size / 1e6, 2),
        "busy_checkpoint_bytes_per_event": round(size / events, 1),
    }
