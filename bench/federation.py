"""What a federation would change, measured (`umpire bench --federation`): the ledger's write lock
with 1, 2 and 3 writer processes on one PostgreSQL database (events/s, 409 conflicts), the same
writers on partitions by game (a database each), and a streaming read replica's replay lag
under those writes.

1. A throwaway PostgreSQL 15 primary under /tmp (initdb, a free loopback port, `fsync=off` as
   scripts/with-postgres.sh starts it) and a streaming replica of it (`pg_basebackup -R` into a
   second directory, started on another port as a hot standby), both removed at the end.
2. Templates: generated Infernal Machines games (bench/scale.py); game i of a run is template
   i mod `templates` under an id of its own.
3. A run: `writers` processes append every game of the run in batches of `batch` events through
   `Ledger.append` (the API's write path: checked against the stored game, a batch a transaction).
   Any writer appends to any game, chosen at random (no game belongs to a writer: the worst case
   of a shared league); a batch another writer stored first is a conflict (`ConflictError`, the
   API's 409), after which the writer goes on from the seq the conflict reports. A partitioned
   run gives each writer a database of its own on the same server holding the games whose id
   hashes to it (`bucket_of`): each partition its own notification log and write lock. A last
   run imports whole games (each writer its own, a game a transaction, as `umpire import` and the
   scale bench write): the heaviest load, for the replica.
4. Meanwhile a sampler reads, every `SAMPLE_SECONDS`, the sessions waiting for a lock on the
   primary and how far the replica is behind: in notifications of the run's ledger (what a
   dashboard reading the replica would miss), in WAL bytes and in the primary's `replay_lag`.
"""
from __future__ import annotations

import multiprocessing
import os
import random
import shutil
import socket
import subprocess
import tempfile
import threading
import time
import uuid
from pathlib import Path
from typing import Any, Optional

import orjson

from api.cli_app import created_racing
from bench.scale import _load, _percentile, game_texts, peak_rss_mb, write_templates, writer_result
from domain.application import ConflictError, Ledger
from projections.audit_trail import bucket_of

PGBIN = "/usr/lib/postgresql/15/bin"
SAMPLE_SECONDS = 0.5


def pg_bin() -> str:
    """PostgreSQL's programs ($PGBIN, else Debian's PostgreSQL 15)."""
    return os.environ.get("PGBIN", PGBIN)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


# -- 1. a primary and its streaming replica ----------------------------------------------------------
class Cluster:
    """A throwaway primary and a streaming replica of it, under one directory of /tmp."""

    def __init__(self) -> None:
        self.dir = Path(tempfile.mkdtemp(prefix="umpire-federation-", dir="/tmp"))
        self.as_pg = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []  # initdb refuses root
        if self.as_pg:
            shutil.chown(self.dir, "postgres", "postgres")
        self.primary_port, self.replica_port = free_port(), free_port()
        self.started: list[Path] = []

    def url(self, port: int, database: str = "postgres") -> str:
        return f"postgresql://postgres@127.0.0.1:{port}/{database}"

    def _run(self, *args: str) -> None:
        subprocess.run([*self.as_pg, *args], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)

    def _start(self, data: Path, port: int) -> None:
        self._run(f"{pg_bin()}/pg_ctl", "-D", str(data), "-l", str(self.dir / f"{data.name}.log"), "-w", "-t", "120",
                  "-o", f"-p {port} -k {self.dir} -c listen_addresses=127.0.0.1 -c fsync=off "
                        "-c max_connections=100 -c wal_level=replica -c max_wal_senders=4", "start")
        self.started.append(data)

    def start(self) -> "Cluster":
        primary, replica = self.dir / "primary", self.dir / "replica"
        self._run(f"{pg_bin()}/initdb", "-D", str(primary), "-A", "trust", "-U", "postgres", "--no-sync")
        self._start(primary, self.primary_port)
        # A base backup streamed from the primary, with the settings that make it follow (-R).
        self._run(f"{pg_bin()}/pg_basebackup", "-h", "127.0.0.1", "-p", str(self.primary_port), "-U", "postgres",
                  "-D", str(replica), "-R", "-X", "stream", "--no-sync")
        self._start(replica, self.replica_port)
        return self

    def stop(self) -> None:
        for data in reversed(self.started):
            try:
                self._run(f"{pg_bin()}/pg_ctl", "-D", str(data), "-m", "immediate", "stop")
            except subprocess.CalledProcessError:
                pass
        shutil.rmtree(self.dir, ignore_errors=True)

    def new_database(self) -> str:
        """A new database on the primary (the replica follows it); its name."""
        import psycopg
        name = f"umpire_fed_{uuid.uuid4().hex[:10]}"
        with psycopg.connect(self.url(self.primary_port), autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {name}")
        return name


# -- 3. writers ----------------------------------------------------------------------------------------
def game_lines(folder: Path, index: int, templates: int) -> tuple[str, list[dict[str, Any]]]:
    lines = [orjson.loads(text) for text in game_texts(folder, index, templates)]
    return lines[0]["game"], lines


def append_games(env: dict[str, str], folder: str, indices: list[int], templates: int, batch: int,
                 seed: int, start: Any, results: Any) -> None:
    """A writer process: append every game of `indices` in batches, choosing the game at random
    each time; report the batches stored, the conflicts and each batch's time."""
    ledger, rng = created_racing(lambda: Ledger(env)), random.Random(seed)
    games = dict(game_lines(Path(folder), index, templates) for index in indices)
    at = {game: 0 for game in games}  # events of each game stored, as this writer knows it
    stored = conflicts = events = 0
    times: list[float] = []
    start.wait()
    began = time.perf_counter()
    while at:
        game = rng.choice(list(at))
        lines = games[game]
        chunk = lines[at[game]:at[game] + batch]
        t0 = time.perf_counter()
        try:
            ledger.append(game, chunk)
            stored, events, at[game] = stored + 1, events + len(chunk), at[game] + len(chunk)
        except ConflictError as conflict:
            conflicts, at[game] = conflicts + 1, conflict.last_seq
        times.append(time.perf_counter() - t0)
        if at[game] >= len(lines):
            del at[game]
    results.put({"stored": stored, "conflicts": conflicts, "events": events, "times": times,
                 "seconds": time.perf_counter() - began, "peak_rss_mb": peak_rss_mb()})
    ledger.close()


def import_games(env: dict[str, str], folder: str, indices: list[int], templates: int, batch: int,
                 seed: int, start: Any, results: Any) -> None:
    """A writer process importing its own games whole, a game a transaction (`umpire import`, the
    scale bench's writers): the heaviest write load, for the replica."""
    ledger = created_racing(lambda: Ledger(env))
    texts = [game_texts(Path(folder), index, templates) for index in indices]
    events, times = 0, []
    start.wait()
    began = time.perf_counter()
    for lines in texts:
        t0 = time.perf_counter()
        events += ledger.import_lines(lines).appended
        times.append(time.perf_counter() - t0)
    results.put({"stored": len(texts), "conflicts": 0, "events": events, "times": times,
                 "seconds": time.perf_counter() - began, "peak_rss_mb": peak_rss_mb()})
    ledger.close()


def partitions_of(games: int, writers: int, partitioned: bool) -> list[list[int]]:
    """The game indices each writer appends: all of them for each writer, or (partitioned) the
    games of its partition only."""
    if not partitioned:
        return [list(range(games))] * writers
    return [[i for i in range(games) if bucket_of(f"scale-{i:05d}", writers) == w] for w in range(writers)]


# -- 4. the sampler --------------------------------------------------------------------------------------
class Sampler(threading.Thread):
    """Every SAMPLE_SECONDS: sessions waiting for a lock on the primary, and the replica's lag."""

    def __init__(self, cluster: Cluster, databases: list[str], table: str):
        super().__init__(daemon=True)
        import psycopg
        self.primary = psycopg.connect(cluster.url(cluster.primary_port), autocommit=True)
        self.cluster, self.databases, self.table = cluster, databases, table
        self.halt = threading.Event()
        self.samples: list[dict[str, float]] = []

    def notifications(self, port: int) -> Optional[int]:
        """The last notification id of every database of the run, summed (None: not there yet)."""
        import psycopg
        total = 0
        for name in self.databases:
            try:
                with psycopg.connect(self.cluster.url(port, name), autocommit=True, connect_timeout=5) as conn:
                    total += conn.execute(f"SELECT COALESCE(MAX(notification_id), 0) FROM {self.table}").fetchone()[0]
            except psycopg.Error:
                return None
        return total

    def sample(self) -> Optional[dict[str, float]]:
        import psycopg
        waiting = self.primary.execute("SELECT COUNT(*) FROM pg_locks WHERE NOT granted").fetchone()[0]
        # The replica first: the primary, read after it, holds at least what it had replayed.
        replayed = self.notifications(self.cluster.replica_port)
        written = self.notifications(self.cluster.primary_port)
        with psycopg.connect(self.cluster.url(self.cluster.replica_port), autocommit=True) as replica:
            lsn = replica.execute("SELECT pg_last_wal_replay_lsn()").fetchone()[0]
        row = self.primary.execute("SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), %s), "
                                   "(SELECT EXTRACT(EPOCH FROM replay_lag) FROM pg_stat_replication LIMIT 1)",
                                   (str(lsn),)).fetchone()
        if written is None or replayed is None:
            return None
        return {"at": time.monotonic(), "waiting": waiting, "events": written - replayed,
                "bytes": float(row[0] or 0), "seconds": float(row[1] or 0)}

    def run(self) -> None:
        while not self.halt.wait(SAMPLE_SECONDS):
            taken = self.sample()
            if taken:
                self.samples.append(taken)

    def stop(self) -> None:
        self.halt.set()
        self.join(30)
        self.primary.close()

    def figures(self) -> dict[str, Any]:
        def spread(key: str, digits: int = 0) -> dict[str, float]:
            values = sorted(s[key] for s in self.samples) or [0]
            return {"p50": round(_percentile(values, 50), digits), "p99": round(_percentile(values, 99), digits),
                    "max": round(values[-1], digits)}
        return {"samples": len(self.samples), "sessions_waiting_for_a_lock": spread("waiting"),
                "replica_lag_notifications": spread("events"), "replica_lag_wal_bytes": spread("bytes"),
                "replica_replay_lag_seconds": spread("seconds", 3)}


def replica_catch_up(sampler: Sampler, timeout: float = 120) -> Optional[float]:
    """Seconds until the replica holds every notification the primary does, after the writes."""
    start = time.monotonic()
    while time.monotonic() - start < timeout:
        taken = sampler.sample()
        if taken and taken["events"] == 0:
            return round(time.monotonic() - start, 2)
        time.sleep(0.05)
    return None


# -- a run ---------------------------------------------------------------------------------------------
def run_writes(cluster: Cluster, folder: Path, games: int, templates: int, writers: int, batch: int,
               partitioned: bool, seed: int, whole_games: bool = False) -> dict[str, Any]:
    """One run on new databases (one, or one a partition): the figures of section 3 and 4. With
    `whole_games`, each writer imports games of its own whole instead (one database)."""
    from api.settings import ledger_env
    shares = ([list(range(w, games, writers)) for w in range(writers)] if whole_games
              else partitions_of(games, writers, partitioned))
    databases = [cluster.new_database() for _ in (shares if partitioned else [0])]
    envs = [ledger_env(cluster.url(cluster.primary_port, name)) for name in databases]
    table = ""
    for env in envs:  # the tables made once, before the writers race
        ledger = Ledger(env)
        table = f'"{ledger.recorder.datastore.schema}"."{ledger.recorder.events_table_name}"'
        ledger.close()
    context = multiprocessing.get_context("spawn")
    results, start = context.Queue(), context.Event()
    procs = [context.Process(target=import_games if whole_games else append_games, args=(envs[w if partitioned else 0], str(folder), share,
                                                        templates, batch, seed + w, start, results))
             for w, share in enumerate(shares)]
    for proc in procs:
        proc.start()
    sampler = Sampler(cluster, databases, table)
    time.sleep(1.0)  # the writers have read their games
    sampler.start()
    began = time.perf_counter()
    start.set()
    done = [writer_result(results, procs) for _ in procs]
    seconds = time.perf_counter() - began
    for proc in procs:
        proc.join()
    caught_up = replica_catch_up(sampler)
    sampler.stop()
    events, attempts = sum(d["events"] for d in done), sum(d["stored"] + d["conflicts"] for d in done)
    conflicts = sum(d["conflicts"] for d in done)
    times = sorted(t for d in done for t in d["times"])
    return {"writers": writers, "partitions": len(databases), "games": games, "events": events,
            "write": "whole games imported, a game a transaction" if whole_games
            else f"batches of {batch} events appended to any game",
            "seconds": round(seconds, 2), "events_per_second": round(events / seconds),
            "batches_tried": attempts, "conflicts_409": conflicts, "conflict_rate": round(conflicts / attempts, 4),
            "transaction_ms": {"p50": round(_percentile(times, 50) * 1000, 1),
                               "p99": round(_percentile(times, 99) * 1000, 1)},
            "writer_peak_rss_mb": max(d["peak_rss_mb"] or 0 for d in done),
            **sampler.figures(), "replica_caught_up_after_seconds": caught_up}


def run_federation_bench(*, games: int = 60, writers: int = 3, batch: int = 50, templates: int = 20,
                         turns: int = 10, seed: int = 1917) -> dict[str, Any]:
    """Runs with 1..`writers` writers on one database, then `writers` on as many partitions, beside a
    streaming replica; return the figures."""
    work = Path(tempfile.mkdtemp(prefix="umpire-federation-work-"))
    report: dict[str, Any] = {"machine": {"cores": os.cpu_count(), "load_average_at_start": _load()},
                              "batch_events": batch,
                              "corpus": write_templates(work / "templates", min(templates, games), seed, turns)}
    cluster = Cluster().start()
    try:
        runs = [run_writes(cluster, work / "templates", games, min(templates, games), n, batch, False, seed)
                for n in range(1, writers + 1)]
        if writers > 1:
            runs.append(run_writes(cluster, work / "templates", games, min(templates, games), writers, batch,
                                   True, seed))
        runs.append(run_writes(cluster, work / "templates", games, min(templates, games), writers, batch,
                               False, seed, whole_games=True))
        report["runs"] = runs
    finally:
        cluster.stop()
        shutil.rmtree(work, ignore_errors=True)
    report["machine"]["load_average_at_end"] = _load()
    return report
