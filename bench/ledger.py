"""`umpire bench`: the ledger and the board against raw baselines measured in the same run.

Baselines: sqlite3 inserts of the same canonical lines (import), a sqlite3 read of them with
`json.loads` (rebuild), and that full read again for the board at a random seq.
"""
from __future__ import annotations

import json
import random
import sqlite3
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any, Callable, Optional

from api.settings import ledger_env
from domain.application import Ledger
from domain.board.state import fold
from domain.log import chain
from projections.board_state import BoardCheckpoints
from projections.store import ProjectionStore


def synthetic_game(game: str, events: int, seed: int = 7) -> list[dict[str, Any]]:
    """A valid log of `events` lines: moves, rolls and status changes of 40 units over many turns."""
    rng = random.Random(seed)
    lines: list[dict[str, Any]] = []
    turn, phase = 0, "setup"

    def add(type_: str, data: dict[str, Any], side: Optional[str] = None) -> None:
        lines.append({"v": 1, "game": game, "seq": len(lines) + 1, "turn": turn, "phase": phase,
                      "side": side, "type": type_, "data": data})

    add("GameStarted", {"ruleset": "infernal-machines", "scenario": "benchmark", "date": "1917-04",
                        "sides": {"british": {"nation": "british", "bloc": "allied"},
                                  "german": {"nation": "german", "bloc": "central"}},
                        "options": [], "permissions": [], "tables": "none"})
    add("MapDefined", {"maps": ["1"], "hexes": {f"1:{c:02d}{r:02d}": {"terrain": rng.choice(["clear", "wood", "town"])}
                                                for c in range(1, 30) for r in range(1, 20)}, "hexsides": []})
    add("WeatherSet", {"weather": "fair", "terrain_state": "good"})
    units = {}
    for i in range(40):
        side = "british" if i < 20 else "german"
        col, row = 2 + i % 20, 3 if side == "british" else 15
        units[f"u{i}"] = (side, col, row)
        add("UnitDeployed", {"unit": f"u{i}", "class": "infantry-platoon", "name": f"u{i}",
                             "location": f"1:{col:02d}{row:02d}", "facing": 1, "morale": 4,
                             "firepower": 4, "range": 6, "movement": 4, "attrs": {}}, side)
    while len(lines) < events:
        turn += 1
        phase = "start"
        add("TurnStarted", {"turn": turn})
        for side in ("british", "german"):
            phase = "first-foot-movement"
            add("PhaseStarted", {"phase": phase, "active": side})
            for uid, (s, col, row) in units.items():
                if s != side or len(lines) >= events:
                    continue
                new_row = row + 1 if row < 18 else row - 1
                add("UnitMoved", {"unit": uid, "path": [f"1:{col:02d}{row:02d}", f"1:{col:02d}{new_row:02d}"]}, side)
                units[uid] = (s, col, new_row)
                if len(lines) < events:
                    add("DieRolled", {"purpose": "LS.MORALE", "die": "d6", "result": rng.randint(1, 6),
                                      "subject": uid}, side)
    return lines[:events]


def _timed(fn: Callable[[], Any], repeat: int = 3) -> float:
    """Best wall time of `repeat` runs, in seconds."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def _raw_insert(path: Path, texts: list[str]) -> None:
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE IF NOT EXISTS raw (game TEXT, seq INTEGER, line TEXT, PRIMARY KEY (game, seq))")
    with conn:
        conn.execute("DELETE FROM raw")
        conn.executemany("INSERT INTO raw VALUES (?, ?, ?)",
                         [("g", json.loads(t)["seq"], t) for t in texts])
    conn.close()


def _raw_read(path: Path) -> list[dict[str, Any]]:
    conn = sqlite3.connect(path)
    rows = [json.loads(r[0]) for r in conn.execute("SELECT line FROM raw WHERE game = 'g' ORDER BY seq")]
    conn.close()
    return rows


def bench_store(db: str, events: int = 10_000, samples: int = 50, seed: int = 7) -> dict[str, Any]:
    """Import, rebuild and random access on one store, with their raw baselines."""
    lines = synthetic_game("bench", events, seed)
    texts = list(chain(lines))
    workdir = Path(tempfile.mkdtemp(prefix="umpire-bench-"))
    raw_path = workdir / "raw.db"
    raw_insert = _timed(lambda: _raw_insert(raw_path, texts))
    # json.dumps of the lines is part of writing a log; the raw baseline pays it too.
    raw_insert += _timed(lambda: [json.dumps(l) for l in lines])
    raw_read = _timed(lambda: _raw_read(raw_path))

    ledger = Ledger(ledger_env(db))
    start = time.perf_counter()
    ledger.import_lines(texts)
    import_time = time.perf_counter() - start
    rebuild = _timed(lambda: fold(ledger.lines("bench")))
    store = ProjectionStore(db)
    checkpoints = BoardCheckpoints(ledger, store)
    start = time.perf_counter()
    checkpoints.catch_up()
    catch_up = time.perf_counter() - start
    rng = random.Random(seed)
    times = []
    for _ in range(samples):
        seq = rng.randint(1, events)
        start = time.perf_counter()
        checkpoints.board_at("bench", seq)
        times.append(time.perf_counter() - start)
    at_random = statistics.median(times)
    ledger.close()
    store.close()
    return {
        "store": "postgresql" if db.startswith("postgresql") else "sqlite",
        "events": events,
        "import_s": round(import_time, 4), "raw_insert_s": round(raw_insert, 4),
        "import_ratio": round(import_time / raw_insert, 2), "import_target": 2.0,
        "rebuild_s": round(rebuild, 4), "raw_read_decode_s": round(raw_read, 4),
        "rebuild_ratio": round(rebuild / raw_read, 2), "rebuild_target": 3.0,
        "checkpoint_catch_up_s": round(catch_up, 4),
        "board_at_random_seq_median_s": round(at_random, 5),
        "random_ratio": round(at_random / raw_read, 3), "random_target": 0.1,
    }


def run_bench(sqlite_path: str, pg_url: Optional[str], events: int = 10_000) -> dict[str, Any]:
    out = {"sqlite": bench_store(sqlite_path, events)}
    if pg_url:
        out["postgresql"] = bench_store(pg_url, events)
    return out
