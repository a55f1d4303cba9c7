"""Umpire at scale (`umpire bench --scale`): many games written by several processes while workers
follow them, on a scratch PostgreSQL database (or a new SQLite file).

1. Templates: `templates` games played by the Infernal Machines generator (`turns` turns, the
   fixture maps, table pack `sample`). Game i of the run is template i mod `templates` under an id
   of its own, so that 10,000 games cost a hundred games of generation; each is a whole, valid
   log (its lines checked again on import), and every projection takes it as a game of its own.
2. Workers: one `umpire worker --projection NAME` process per projection (analytics, boards,
   audits), started first; each holds its projection's lease before any game is written. With
   `audit_buckets` N, the audits are kept by N workers instead, `umpire worker --bucket K/N` each
   (projections/audit_trail.py), and each bucket's lag is sampled on its own.
3. Writers: `writers` processes import their share of the games (a game a transaction, as
   `umpire import` does). Write throughput: the events over the wall time of the writes.
4. Meanwhile this process reads every `SAMPLE_SECONDS` how many game events each projection has
   yet to take (its lag, as the API reports it); after the writes, how long each takes to catch
   up (its drain).
5. The workers stop; each analytics query is timed against raw SQL (bench/raw_sql.py).

Memory: the peak resident set (VmHWM) of each writer and each worker, and of this process.
"""
from __future__ import annotations

import json
import multiprocessing
import os
import random
import resource
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path
from typing import Any, Callable, Optional

from domain.application import Ledger
from domain.log import canonical
from projections.follow import events_after
from projections.lease import worker_keeps
from projections.views import view_of
from projections.store import ProjectionStore
from projections.audit_trail import KEY as AUDITS, audit_bucket
from projections.worker import PROJECTIONS
from bench.raw_sql import query_times

MAPS_DIR = Path(__file__).resolve().parents[1] / "fixtures" / "maps"
SAMPLE_SECONDS = 2.0  # a sample costs an index lookup per projection (a count, within 100,000 of the head)
TEMPLATE_ID = "scale-template-0000"


def peak_rss_mb(pid: Optional[int] = None) -> Optional[float]:
    """A process's peak resident set (VmHWM) in MiB; this process's by default."""
    try:
        with open(f"/proc/{pid or 'self'}/status") as fh:
            for line in fh:
                if line.startswith("VmHWM:"):
                    return round(int(line.split()[1]) / 1024, 1)
    except OSError:
        pass
    return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1) if pid is None else None


def game_seed(seed: int, index: int) -> int:
    """The seed of game `index` of a run: the derivation of `umpire generate`."""
    return random.Random(f"umpire-generate:{seed}:{index}").getrandbits(64)


# -- 1. templates ------------------------------------------------------------------------------------
def write_templates(folder: Path, count: int, seed: int, turns: int) -> dict[str, Any]:
    """`count` generated games as canonical lines under TEMPLATE_ID (one file each)."""
    from domain.rules.tables import resolve
    from domain.rulesets import ruleset
    play_game = ruleset("infernal-machines").generator().play_game
    pack = resolve("sample")
    maps = [(f.stem, json.loads(f.read_text(encoding="utf-8"))) for f in sorted(MAPS_DIR.glob("*.json"))]
    folder.mkdir(parents=True, exist_ok=True)
    start, events = time.perf_counter(), []
    for index in range(count):
        map_name, map_data = maps[index % len(maps)]
        lines = play_game(TEMPLATE_ID, game_seed(seed, index + 1), map_data, pack, turns=turns,
                          scenario=f"generated on map {map_name}")
        (folder / f"t-{index:04d}.jsonl").write_text("".join(canonical(line) + "\n" for line in lines), encoding="utf-8")
        events.append(len(lines))
    return {"templates": count, "turns": turns, "seed": seed, "events_per_game_mean": round(statistics.mean(events)),
            "seconds": round(time.perf_counter() - start, 1)}


def game_texts(folder: Path, index: int, templates: int) -> list[str]:
    """Game `index` of the run: its template's lines under the game's own id."""
    text = (folder / f"t-{index % templates:04d}.jsonl").read_text(encoding="utf-8")
    own = f'"game":"scale-{index:05d}"'
    return text.replace(f'"game":"{TEMPLATE_ID}"', own).splitlines()


# -- 3. writers ----------------------------------------------------------------------------------------
def write_share(env: dict[str, str], folder: str, indices: list[int], templates: int, results: Any) -> None:
    """A writer process: import games `indices`, one a transaction; report events, time and memory."""
    from api.cli_app import created_racing
    ledger = created_racing(lambda: Ledger(env))   # writers start together on an empty database
    events, start = 0, time.perf_counter()
    for index in indices:
        events += ledger.import_lines(game_texts(Path(folder), index, templates)).appended
    results.put({"events": events, "seconds": time.perf_counter() - start, "peak_rss_mb": peak_rss_mb()})
    ledger.close()


def run_writers(env: dict[str, str], folder: Path, games: int, templates: int, writers: int) -> dict[str, Any]:
    context = multiprocessing.get_context("spawn")  # a clean process: no connection of this one inherited
    results = context.Queue()
    procs = [context.Process(target=write_share, args=(env, str(folder), list(range(w, games, writers)), templates, results))
             for w in range(writers)]
    start = time.perf_counter()
    for proc in procs:
        proc.start()
    shares = [writer_result(results, procs) for _ in procs]
    for proc in procs:
        proc.join()
    seconds = time.perf_counter() - start
    events = sum(s["events"] for s in shares)
    return {"writers": writers, "games": games, "events": events, "seconds": round(seconds, 1),
            "events_per_second": round(events / seconds), "writer_peak_rss_mb": max(s["peak_rss_mb"] for s in shares)}


def writer_result(results: Any, procs: list[Any]) -> dict[str, Any]:
    """The next writer's figures; an error when a writer died without giving them (instead of a
    run left waiting for them)."""
    import queue
    while True:
        try:
            return results.get(timeout=1.0)
        except queue.Empty:
            dead = [proc.exitcode for proc in procs if proc.exitcode not in (None, 0)]
            if dead:
                raise RuntimeError(f"a writer failed (exit status {dead[0]}): see its traceback above")


# -- 2. workers, 4. lag --------------------------------------------------------------------------------
def kept_projections(audit_buckets: int = 0) -> dict[str, type]:
    """What the run's workers keep, by lease name: every projection, the audits whole or in buckets."""
    if not audit_buckets:
        return dict(PROJECTIONS)
    buckets = [audit_bucket(k, audit_buckets) for k in range(audit_buckets)]
    return {**{name: cls for name, cls in PROJECTIONS.items() if name != AUDITS}, **{cls.key: cls for cls in buckets}}


def worker_args(cls: type) -> list[str]:
    return ["--bucket", f"{cls.index}/{cls.buckets}"] if hasattr(cls, "buckets") else ["--projection", cls.key]


class Workers:
    """One `umpire worker` process per projection (per bucket of the audits, if so split)."""

    def __init__(self, db: str, log: Path, kept: dict[str, type]):
        self.log, self.kept = open(log, "w", encoding="utf-8"), kept
        self.procs = {name: subprocess.Popen([sys.executable, "-m", "api.cli", "worker", "--db", db, *worker_args(cls)],
                                             stderr=self.log, stdout=self.log) for name, cls in kept.items()}

    def wait_for_leases(self, store: ProjectionStore, timeout: float = 120) -> None:
        deadline = time.monotonic() + timeout
        while not all(worker_keeps(store, name) for name in self.kept):
            if time.monotonic() > deadline:
                raise RuntimeError("the workers did not take their leases")
            time.sleep(0.2)

    def stop(self) -> dict[str, Optional[float]]:
        """Stop them (SIGTERM); their peak resident sets."""
        peaks = {name: peak_rss_mb(proc.pid) for name, proc in self.procs.items()}
        for proc in self.procs.values():
            proc.send_signal(signal.SIGTERM)
        for proc in self.procs.values():
            proc.wait(120)
        self.log.close()
        return peaks


class LagSampler(threading.Thread):
    """Every SAMPLE_SECONDS, each projection's lag in game events (what the API reports)."""

    def __init__(self, ledger: Ledger, kept: dict[str, type]):
        super().__init__(daemon=True)
        self.ledger, self.kept, self.stop_event = ledger, kept, threading.Event()
        self.samples: dict[str, list[tuple[float, int]]] = {name: [] for name in kept}
        self.seconds_spent = 0.0

    def lags(self) -> dict[str, int]:
        start = time.perf_counter()
        out = {name: events_after(self.ledger, view_of(self.ledger, cls).position()) for name, cls in self.kept.items()}
        self.seconds_spent += time.perf_counter() - start
        return out

    def run(self) -> None:
        while not self.stop_event.wait(SAMPLE_SECONDS):
            now = time.monotonic()
            for name, lag in self.lags().items():
                self.samples[name].append((now, lag))

    def figures(self, start: float, end: float) -> dict[str, Any]:
        out = {}
        for name, samples in self.samples.items():
            during = sorted(lag for at, lag in samples if start <= at <= end) or [0]
            out[name] = {"p50": _percentile(during, 50), "p99": _percentile(during, 99), "max": during[-1],
                         "samples": len(during)}
        return out


def _percentile(values: list[int], p: float) -> int:
    """The nearest-rank percentile of sorted values."""
    rank = max(1, -(-len(values) * p // 100))
    return values[int(rank) - 1]


def drain(sampler: LagSampler, since: float, timeout: float) -> dict[str, dict[str, Any]]:
    """After the writes: how long each projection takes to take every event, or, when it has not
    within `timeout`, what it has left; and how fast it took them meanwhile."""
    first = sampler.lags()
    done: dict[str, float] = {}
    left = dict(first)
    deadline = since + timeout
    while len(done) < len(sampler.kept) and time.monotonic() < deadline:
        time.sleep(1.0)
        left = sampler.lags()
        for name, lag in left.items():
            if lag == 0 and name not in done:
                done[name] = time.monotonic() - since
    spent = time.monotonic() - since
    out = {}
    for name in sampler.kept:
        seconds = done.get(name, spent)
        taken = first[name] - (0 if name in done else left[name])
        out[name] = {"lag_at_end_of_writes": first[name], "seconds": round(done[name], 1) if name in done else None,
                     "left_at_timeout": None if name in done else left[name],
                     "events_per_second": round(taken / seconds) if seconds > 0 and taken > 0 else None}
    return out


# -- the run -------------------------------------------------------------------------------------------
def scratch_database(server_url: str) -> tuple[str, Callable[[], None]]:
    """A new, empty database on the server, and how to drop it."""
    import psycopg
    name = f"umpire_scale_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(server_url, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")

    def drop() -> None:
        with psycopg.connect(server_url, autocommit=True) as conn:
            conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
    return server_url.rsplit("/", 1)[0] + "/" + name, drop


def run_scale_bench(pg_url: Optional[str] = None, sqlite_path: Optional[str] = None, *, games: int = 1000,
                    writers: int = 3, templates: int = 100, turns: int = 10, seed: int = 1917,
                    drain_timeout: float = 600.0, query_repeat: int = 1, keep: bool = False,
                    audit_buckets: int = 0) -> dict[str, Any]:
    """Run the benchmark on a scratch database of the PostgreSQL server at `pg_url` (dropped
    afterwards unless `keep`), else on a new SQLite file at `sqlite_path`; return the figures."""
    from api.settings import ledger_env
    work = Path(tempfile.mkdtemp(prefix="umpire-scale-"))
    drop: Callable[[], None] = lambda: None
    if pg_url:
        db, drop = scratch_database(pg_url)
    elif sqlite_path:
        if os.path.exists(sqlite_path) and os.path.getsize(sqlite_path) > 0:
            raise ValueError(f"{sqlite_path} exists: the scale bench needs a new SQLite file")
        db = sqlite_path
    else:
        raise ValueError("give a PostgreSQL server URL or a new SQLite file")
    kept = kept_projections(audit_buckets)
    report: dict[str, Any] = {"store": "postgresql" if pg_url else "sqlite", "games": games,
                              "audit_workers": audit_buckets or 1,
                              "machine": {"cores": os.cpu_count(), "load_average_at_start": _load()},
                              "corpus": write_templates(work / "templates", min(templates, games), seed, turns)}
    try:
        env = ledger_env(db)
        ledger, store = Ledger(env), ProjectionStore(db)
        workers = Workers(db, work / "workers.log", kept)
        try:
            workers.wait_for_leases(store)
            sampler = LagSampler(ledger, kept)
            sampler.start()
            start = time.monotonic()
            report["write"] = run_writers(env, work / "templates", games, min(templates, games), writers)
            end = time.monotonic()
            report["lag_events_during_writes"] = sampler.figures(start, end)
            report["drain_after_writes"] = drain(sampler, end, drain_timeout)
            sampler.stop_event.set()
            report["lag_sampling_seconds"] = round(sampler.seconds_spent, 1)
        finally:
            report["worker_peak_rss_mb"] = workers.stop()
        report["queries"] = query_times(ledger, store, query_repeat)
        report["store_mb"] = _store_mb(store, db)
        report["bench_peak_rss_mb"] = peak_rss_mb()
        report["machine"]["load_average_at_end"] = _load()  # other work on the machine counts too
        store.close()
        ledger.close()
    finally:
        if not keep:
            drop()
        shutil.rmtree(work, ignore_errors=True)
    return report


def _store_mb(store: ProjectionStore, db: str) -> float:
    if store.pg:
        with store.transaction() as cur:
            cur.execute("SELECT pg_database_size(current_database())")
            return round(cur.fetchone()[0] / 2 ** 20, 1)
    return round(os.path.getsize(db) / 2 ** 20, 1)


def _load() -> list[float]:
    """The 1, 5 and 15 minute load averages."""
    return [round(x, 2) for x in os.getloadavg()]
