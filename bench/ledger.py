"""`umpire bench`: the ledger against raw baselines on the same kind of store, in the same run.

For each store (a SQLite file; a PostgreSQL database when one is given), `runs` times, each time
on new stores and in an order that alternates between runs:
- raw: the game's lines written to a plain table (game, seq, line) with executemany in one
  transaction, with `json.dumps` of the lines (writing a log pays it), then read back with a
  SELECT of the lines and `json.loads` of each;
- ledger: `Ledger.import_lines` of the same lines (canonical, with the hash chain), then
  `Ledger.lines` of the game (read), then the board at the last event (a fold of those lines).
A write is timed once a run (it changes the store); a read is timed as the best of three.
Each figure is the median of the runs' ratios (the ledger's time over the raw time of the same
run), with the range of the ratios, its target and whether it is met (`met`, which makes
`umpire bench` exit 1). The board at a random seq, from the board checkpoints, is measured on the
last run's store: the median of `samples` reads against the raw read.
"""
from __future__ import annotations

import json
import random
import sqlite3
import statistics
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Callable, Iterator, Optional

from api.settings import ledger_env
from domain.application import Ledger
from domain.board.state import fold
from domain.log import chain
from projections.board_state import BoardCheckpoints
from projections.store import ProjectionStore

# Targets (issue 12): import within 2x of the raw insert, the board at the last event within 3x
# of the raw read, a board at a random seq under 0.1x of it; reading a game's lines, which is the
# raw read and one decode per line, within 1.5x of it.
TARGETS = {"import": 2.0, "read": 1.5, "board_at_last_event": 3.0, "board_at_random_seq": 0.1}
GAME = "bench"


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


def _seconds(action: Callable[[], Any]) -> float:
    start = time.perf_counter()
    action()
    return time.perf_counter() - start


def _best(action: Callable[[], Any], tries: int = 3) -> float:
    """The shortest of a few times of an action that changes nothing (a read): the least
    disturbed by the other work of a shared machine."""
    return min(_seconds(action) for _ in range(tries))


class _RawTable:
    """The raw baseline: a plain table of the lines on a store of the given kind."""

    def __init__(self, db: str):
        if db.startswith("postgresql"):
            import psycopg
            self.conn: Any = psycopg.connect(db, autocommit=True)
            self.mark, self.transaction = "%s", self.conn.transaction
        else:
            self.conn = sqlite3.connect(db, isolation_level=None)
            self.mark, self.transaction = "?", self._sqlite_transaction
        self.conn.execute("CREATE TABLE raw (game TEXT, seq INTEGER, line TEXT, PRIMARY KEY (game, seq))")

    @contextmanager
    def _sqlite_transaction(self) -> Iterator[None]:
        self.conn.execute("BEGIN")
        try:
            yield
        except BaseException:
            self.conn.execute("ROLLBACK")
            raise
        self.conn.execute("COMMIT")

    def insert(self, texts: list[str]) -> None:
        with self.transaction():
            self.conn.cursor().executemany(f"INSERT INTO raw VALUES ({self.mark}, {self.mark}, {self.mark})",
                                           [(GAME, json.loads(t)["seq"], t) for t in texts])

    def read(self) -> list[dict[str, Any]]:
        rows = self.conn.execute(f"SELECT line FROM raw WHERE game = {self.mark} ORDER BY seq", (GAME,))
        return [json.loads(line) for (line,) in rows]

    def close(self) -> None:
        self.conn.close()


class _Stores:
    """New stores of one kind for each run: files beside `db`, or databases on its server."""

    def __init__(self, db: str):
        self.db, self.made = db, []
        self.postgres = db.startswith("postgresql")

    def new(self, name: str) -> str:
        if not self.postgres:
            path = Path(self.db).with_name(f"{Path(self.db).stem}-{name}.db")
            self._remove(path)
            self.made.append(path)
            return str(path)
        import psycopg
        database = f"{self.db.rsplit('/', 1)[1]}_{name}".replace("-", "_")
        with psycopg.connect(self.db, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)')
            conn.execute(f'CREATE DATABASE "{database}"')
        self.made.append(database)
        return f"{self.db.rsplit('/', 1)[0]}/{database}"

    def drop(self) -> None:
        if not self.postgres:
            for path in self.made:
                self._remove(path)
        elif self.made:
            import psycopg
            with psycopg.connect(self.db, autocommit=True) as conn:
                for database in self.made:
                    conn.execute(f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)')

    @staticmethod
    def _remove(path: Path) -> None:
        for leftover in (path, Path(f"{path}-wal"), Path(f"{path}-shm")):
            leftover.unlink(missing_ok=True)


def figure(times: list[float], raw_times: list[float], target: float) -> dict[str, Any]:
    """The median of the runs' ratios against its target, with the median times and the range."""
    ratios = [t / raw for t, raw in zip(times, raw_times)]
    ratio = statistics.median(ratios)
    return {"s": round(statistics.median(times), 4), "raw_s": round(statistics.median(raw_times), 4),
            "ratio": round(ratio, 2), "ratio_range": [round(min(ratios), 2), round(max(ratios), 2)],
            "target": target, "met": ratio <= target}


def _one_run(ledger: Ledger, raw: _RawTable, lines: list[dict[str, Any]], texts: list[str],
             raw_first: bool) -> dict[str, float]:
    """One run's times: the raw insert and read, the import, the read and the board of the ledger."""
    def raw_side() -> dict[str, float]:
        return {"raw_insert": _seconds(lambda: (raw.insert(texts), [json.dumps(line) for line in lines])),
                "raw_read": _best(raw.read)}

    def ledger_side() -> dict[str, float]:
        ledger.last_seq(GAME)  # the store's connections opened before the clock starts, as raw's are
        return {"import": _seconds(lambda: ledger.import_lines(texts)), "read": _best(lambda: ledger.lines(GAME)),
                "board_at_last_event": _best(lambda: fold(ledger.lines(GAME)))}
    sides = (raw_side, ledger_side) if raw_first else (ledger_side, raw_side)
    return {**sides[0](), **sides[1]()}


def _at_random(db: str, ledger: Ledger, events: int, samples: int, seed: int) -> tuple[float, float]:
    """The checkpoints' catch-up time and the median time of a board at a random seq."""
    store = ProjectionStore(db)
    try:
        checkpoints = BoardCheckpoints(ledger, store)
        catch_up = _seconds(checkpoints.catch_up)
        rng = random.Random(seed)
        times = []
        for seq in [rng.randint(1, events) for _ in range(samples)]:
            start = time.perf_counter()
            checkpoints.board_at(GAME, seq)
            times.append(time.perf_counter() - start)
        return catch_up, statistics.median(times)
    finally:
        store.close()


def bench_store(db: str, events: int = 10_000, runs: int = 7, samples: int = 50, seed: int = 7) -> dict[str, Any]:
    """The ledger's figures on one kind of store (`db`: a SQLite path or a PostgreSQL URL whose
    server gets a new database per run, dropped at the end)."""
    lines = synthetic_game(GAME, events, seed)
    texts = list(chain(lines))
    stores = _Stores(db)
    try:
        warm = Ledger(ledger_env(stores.new("warm-up")))  # the rule system loaded before the first run
        warm.import_lines(texts[:60])
        warm.close()
        times: dict[str, list[float]] = {}
        for run in range(runs):
            ledger_db = stores.new(f"run-{run}")
            ledger, raw = Ledger(ledger_env(ledger_db)), _RawTable(stores.new(f"raw-{run}"))
            try:
                for name, seconds in _one_run(ledger, raw, lines, texts, raw_first=run % 2 == 0).items():
                    times.setdefault(name, []).append(seconds)
                if run == runs - 1:  # the board at random seqs, on the last run's store
                    catch_up, at_random = _at_random(ledger_db, ledger, events, samples, seed)
            finally:
                raw.close()
                ledger.close()
    finally:
        stores.drop()
    raw_read = statistics.median(times["raw_read"])
    return {
        "store": "postgresql" if stores.postgres else "sqlite", "events": events, "runs": runs,
        "import": figure(times["import"], times["raw_insert"], TARGETS["import"]),
        "read": figure(times["read"], times["raw_read"], TARGETS["read"]),
        "board_at_last_event": figure(times["board_at_last_event"], times["raw_read"], TARGETS["board_at_last_event"]),
        "board_at_random_seq": {"s": round(at_random, 5), "raw_s": round(raw_read, 4), "samples": samples,
                                "ratio": round(at_random / raw_read, 3), "target": TARGETS["board_at_random_seq"],
                                "met": at_random / raw_read <= TARGETS["board_at_random_seq"]},
        "checkpoint_catch_up_s": round(catch_up, 4),
    }


def run_bench(sqlite_path: str, pg_url: Optional[str], events: int = 10_000, runs: int = 7) -> dict[str, Any]:
    out = {"sqlite": bench_store(sqlite_path, events, runs)}
    if pg_url:
        out["postgresql"] = bench_store(pg_url, events, runs)
    return out
