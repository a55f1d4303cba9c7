"""Umpire at scale: import a generated corpus into SQLite and PostgreSQL, follow it with the
analytics projection, and time each analytics query against a raw SQL aggregation over the same
stored events, in the same run.

Memory is measured as the process's resident set (VmRSS) sampled after every tenth of the
corpus, and its peak (getrusage ru_maxrss) before and after the queries; each store is measured
in a child process of its own, so that its peak is its own. Games are generated, imported and
dropped one at a time and the projection reads the notification log page by page, so the samples
stay flat while the store grows.
"""
from __future__ import annotations

import json
import multiprocessing
import os
import random
import resource
import shutil
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any, Callable, Iterator, Optional

from domain.application import Ledger
from domain.log import chain
from projections.analytics import AnalyticsProjection, QUERIES
from bench.corpus import corpus_game
from projections.store import ProjectionStore

MAPS_DIR = Path(__file__).resolve().parents[1] / "fixtures" / "maps"

RECORDED = "domain.model.game:Game.Recorded"
TARGET_RATIO = 2.0
PER_GAME_SAMPLES = 20


def rss_mb() -> float:
    """The resident set now, in MiB (Linux /proc; else the peak so far)."""
    try:
        with open("/proc/self/status") as fh:
            for line in fh:
                if line.startswith("VmRSS:"):
                    return round(int(line.split()[1]) / 1024, 1)
    except OSError:
        pass
    return peak_rss_mb()


def peak_rss_mb() -> float:
    return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)


def _timed(fn: Callable[[], Any], repeat: int = 3) -> tuple[float, Any]:
    """The best of `repeat` runs (seconds) and the last result."""
    best, result = float("inf"), None
    for _ in range(repeat):
        start = time.perf_counter()
        result = fn()
        best = min(best, time.perf_counter() - start)
    return best, result


# -- the corpus: written to files once, imported into each store ---------------------------------------
def game_seed(seed: int, index: int) -> int:
    """The seed of game `index` of a run: the derivation of `umpire generate`, so that the corpus is
    exactly `umpire generate --games N --seed S --turns T`."""
    return random.Random(f"umpire-generate:{seed}:{index}").getrandbits(64)


def write_corpus(folder: Path, games: int, seed: int, turns: int, kind: str = "generator") -> dict[str, Any]:
    """Write `games` logs (NAME.jsonl) one at a time; `kind` "generator" plays them with the seeded
    game generator (the Infernal Machines RuleSet's) on the fixture maps, "bench" with the lighter bench corpus."""
    folder.mkdir(parents=True, exist_ok=True)
    start, events = time.perf_counter(), 0
    play = _generator_player(turns) if kind == "generator" else \
        (lambda name, own: corpus_game(name, own, turns=turns).lines)
    for index in range(1, games + 1):
        name = f"gen-{seed}-{index:04d}"
        lines = play(name, game_seed(seed, index))
        events += len(lines)
        (folder / f"{name}.jsonl").write_text("".join(t + "\n" for t in chain(lines)), encoding="utf-8")
    spent = time.perf_counter() - start
    return {"kind": kind, "games": games, "turns": turns, "events": events, "seconds": round(spent, 1)}


def _generator_player(turns: int) -> Callable[[str, int], list[dict[str, Any]]]:
    from domain.rules.tables import resolve
    from domain.rulesets import ruleset
    play_game = ruleset("infernal-machines").generator().play_game
    pack = resolve("sample")
    maps = [(f.stem, json.loads(f.read_text(encoding="utf-8"))) for f in sorted(MAPS_DIR.glob("*.json"))]
    counter = iter(range(10 ** 9))

    def play(name: str, own: int) -> list[dict[str, Any]]:
        map_name, map_data = maps[next(counter) % len(maps)]
        return play_game(name, own, map_data, pack, turns=turns, scenario=f"generated on map {map_name}")
    return play


def corpus_files(folder: Path) -> Iterator[Path]:
    return iter(sorted(folder.glob("*.jsonl")))


# -- raw SQL over the stored events -----------------------------------------------------------------
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


# -- agreement between the projection and the raw events ---------------------------------------------
def _agreement(rows: dict[str, list[dict]], raw: RawEvents) -> dict[str, bool]:
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


# -- one store ---------------------------------------------------------------------------------------
def bench_store_apart(db: str, env: dict[str, str], corpus: Path) -> dict[str, Any]:
    """`bench_store` in a child process (its own peak RSS); in this process where fork is missing."""
    if "fork" not in multiprocessing.get_all_start_methods():
        return bench_store(db, env, corpus)
    with multiprocessing.get_context("fork").Pool(1) as pool:
        return pool.apply(bench_store, (db, env, corpus))


def bench_store(db: str, env: dict[str, str], corpus: Path) -> dict[str, Any]:
    ledger = Ledger(env)
    store = ProjectionStore(db)
    try:
        out = {"import": _import(ledger, corpus)}
        projection = AnalyticsProjection(ledger, store)
        out["projection"] = _catch_up(projection)
        out["peak_rss_mb_before_queries"] = peak_rss_mb()
        out["queries"] = _queries(ledger, store)
        out["peak_rss_mb"] = peak_rss_mb()  # the all-games answers (100,000 rows and more) included
        return out
    finally:
        store.close()
        ledger.close()


def _import(ledger: Ledger, corpus: Path) -> dict[str, Any]:
    files = list(corpus_files(corpus))
    events, spent, samples = 0, 0.0, []
    tenth = max(1, len(files) // 10)
    for i, path in enumerate(files):
        with open(path, encoding="utf-8") as fh:
            lines = fh.readlines()
        start = time.perf_counter()
        ledger.import_lines(lines)
        spent += time.perf_counter() - start
        events += len(lines)
        if (i + 1) % tenth == 0 or i + 1 == len(files):
            samples.append({"games": i + 1, "events": events, "rss_mb": rss_mb()})
    return {"games": len(files), "events": events, "seconds": round(spent, 2),
            "events_per_second": round(events / spent) if spent else None, "rss_samples": samples}


def _catch_up(projection: AnalyticsProjection) -> dict[str, Any]:
    start = time.perf_counter()
    taken = projection.catch_up()
    spent = time.perf_counter() - start
    again = projection.catch_up()
    return {"events": taken, "seconds": round(spent, 2), "events_per_second": round(taken / spent) if spent else None,
            "second_catch_up_events": again, "rss_mb_after": rss_mb()}


def _queries(ledger: Ledger, store: ProjectionStore) -> dict[str, Any]:
    raw = RawEvents(ledger, store)
    raw_fns = {"ammunition": raw.points_by_element, "fire-orders": raw.fire_orders_by_game,
               "resistance": raw.small_arms_by_hex}
    summary = sorted(ledger.games(), key=lambda g: g.game)
    picks = [g.game for g in summary[:: max(1, len(summary) // PER_GAME_SAMPLES)]][:PER_GAME_SAMPLES]
    from domain.model.ids import game_uuid
    out: dict[str, Any] = {}
    rows: dict[str, list[dict]] = {}
    for kind, query in QUERIES.items():
        seconds, result = _timed(lambda: query(ledger, store))
        rows[kind] = result["rows"]
        raw_seconds, _ = _timed(raw_fns[kind])
        per_game = sum(_timed(lambda g=g: query(ledger, store, g), 1)[0] for g in picks) / max(1, len(picks))
        raw_per_game = sum(_timed(lambda g=g: raw_fns[kind](str(game_uuid(g))), 1)[0] for g in picks) / max(1, len(picks))
        out[kind] = {"rows": len(rows[kind]), "analytics_seconds": round(seconds, 4),
                     "raw_sql_seconds": round(raw_seconds, 4), "ratio": round(seconds / raw_seconds, 3),
                     "per_game_analytics_seconds": round(per_game, 5), "per_game_raw_sql_seconds": round(raw_per_game, 5),
                     "per_game_ratio": round(per_game / raw_per_game, 3),
                     "within_target": seconds <= TARGET_RATIO * raw_seconds and per_game <= TARGET_RATIO * raw_per_game}
    out["agree_with_raw_sql"] = _agreement(rows, raw)
    return out


# -- both stores -------------------------------------------------------------------------------------
def _sqlite_env(path: str) -> dict[str, str]:
    return {"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": path, "SQLITE_LOCK_TIMEOUT": "10"}


def _pg_env(url: str) -> dict[str, str]:
    from urllib.parse import unquote, urlparse
    u = urlparse(url)
    return {"PERSISTENCE_MODULE": "eventsourcing.postgres", "POSTGRES_DBNAME": u.path.lstrip("/") or "postgres",
            "POSTGRES_HOST": u.hostname or "127.0.0.1", "POSTGRES_PORT": str(u.port or 5432),
            "POSTGRES_USER": unquote(u.username or "postgres"), "POSTGRES_PASSWORD": unquote(u.password or ""),
            "POSTGRES_POOL_SIZE": "5", "POSTGRES_MAX_OVERFLOW": "5"}


def _scratch_database(server_url: str) -> tuple[str, Callable[[], None]]:
    """A new, empty database on the server, and how to drop it."""
    import psycopg
    name = f"umpire_scale_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(server_url, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    url = server_url.rsplit("/", 1)[0] + "/" + name

    def drop() -> None:
        with psycopg.connect(server_url, autocommit=True) as conn:
            conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
    return url, drop


def run_scale_bench(db_sqlite_path: Optional[str], pg_url: Optional[str], games: int = 1000,
                    seed: int = 1917, *, turns: int = 16, corpus: str = "generator",
                    corpus_dir: Optional[str] = None, keep: bool = False) -> dict[str, Any]:
    """Write `games` seeded games (the game generator's, or `corpus="bench"` for the lighter bench
    corpus) and import them into a new SQLite file and into a scratch database on the PostgreSQL
    server at `pg_url` (dropped afterwards unless `keep`); either store may be None to skip it.
    With `corpus_dir` holding *.jsonl logs, those are imported instead. Returns the figures."""
    report: dict[str, Any] = {"games": games, "seed": seed, "target_ratio": TARGET_RATIO, "stores": {}}
    if db_sqlite_path and os.path.exists(db_sqlite_path) and os.path.getsize(db_sqlite_path) > 0:
        raise ValueError(f"{db_sqlite_path} exists: the scale bench needs a new SQLite file")
    work = None
    if corpus_dir:
        folder = Path(corpus_dir)
        report["corpus"] = {"kind": "files", "folder": str(folder), "games": sum(1 for _ in corpus_files(folder))}
    else:
        work = Path(tempfile.mkdtemp(prefix="umpire-scale-"))
        folder = work / "corpus"
        report["corpus"] = write_corpus(folder, games, seed, turns, corpus)
    try:
        if db_sqlite_path:
            report["stores"]["sqlite"] = bench_store_apart(db_sqlite_path, _sqlite_env(db_sqlite_path), folder)
        if pg_url:
            url, drop = _scratch_database(pg_url)
            try:
                report["stores"]["postgresql"] = bench_store_apart(url, _pg_env(url), folder)
            finally:
                if not keep:
                    drop()
    finally:
        if work is not None:
            shutil.rmtree(work, ignore_errors=True)
    return report
