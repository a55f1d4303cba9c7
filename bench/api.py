"""The API's load benchmark: N concurrent clients append events and read the board through a real
`umpire serve` on loopback; p50, p99 and throughput, beside a raw in-process baseline measured
in the same run. Bounded in count and in time; it talks to 127.0.0.1 only.

    python -m bench.api --db var/bench-api.db [--db postgresql://...] [--write docs/benchmarks.md]

The server's stderr goes to the file named by UMPIRE_BENCH_LOG, if set.
"""
from __future__ import annotations

import argparse
import os
import secrets
import socket
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any, Optional

import httpx

from api.deps import services_for

ROOT = Path(__file__).resolve().parents[1]


def _setup_lines(game: str) -> list[dict[str, Any]]:
    """A small game ready for turn 1 (what each client appends to)."""
    base = {"v": 1, "game": game, "side": None}
    sides = {"british": {"nation": "british", "bloc": "allied"}, "german": {"nation": "german", "bloc": "central"}}
    return [
        {**base, "seq": 1, "turn": 0, "phase": "setup", "type": "GameStarted",
         "data": {"ruleset": "infernal-machines", "scenario": "bench", "date": "1917-04", "sides": sides}},
        {**base, "seq": 2, "turn": 0, "phase": "setup", "side": "british", "type": "UnitDeployed",
         "data": {"unit": "b-1", "class": "infantry-platoon", "name": "b-1", "location": "1:1210"}},
        {**base, "seq": 3, "turn": 1, "phase": "start", "type": "TurnStarted", "data": {"turn": 1}},
    ]


def _event(game: str, seq: int) -> dict[str, Any]:
    """An event a client appends: a unit's move (it changes the board, and a Unit aggregate)."""
    path = ["1:1210", "1:1211"] if seq % 2 else ["1:1211", "1:1210"]
    return {"v": 1, "game": game, "seq": seq, "turn": 1, "phase": "start", "side": "british",
            "type": "UnitMoved", "data": {"unit": "b-1", "path": path}}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _start_server(db: str, port: int, timeout: float = 60.0) -> subprocess.Popen:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([sys.executable, "-m", "api.cli", "serve", "--db", db, "--port", str(port)],
                            cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=open(os.environ.get("UMPIRE_BENCH_LOG", os.devnull), "w"))
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and proc.poll() is None:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/health", timeout=1).status_code == 200:
                return proc
        except httpx.HTTPError:
            time.sleep(0.1)
    proc.kill()
    raise RuntimeError("umpire serve did not start")


def _summary(latencies: list[float], wall: float) -> dict[str, float]:
    ordered = sorted(latencies)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))] if ordered else 0.0
    return {"count": len(ordered), "p50_ms": round(statistics.median(ordered) * 1000, 2) if ordered else 0.0,
            "p99_ms": round(p99 * 1000, 2), "throughput_per_s": round(len(ordered) / wall, 1) if wall else 0.0}


def _phase(clients: int, work) -> tuple[list[float], float]:
    """Run work(i, latencies) on `clients` threads at once; all latencies and the wall time."""
    latencies: list[list[float]] = [[] for _ in range(clients)]
    threads = [threading.Thread(target=work, args=(i, latencies[i])) for i in range(clients)]
    start = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return [x for per in latencies for x in per], time.perf_counter() - start


def _baseline(db: str, run: str, count: int) -> dict[str, float]:
    """The same appends and state reads in process, without HTTP: the raw cost of the store."""
    services = services_for(db)
    game = f"bench-{run}-raw"
    services.ledger.append(game, _setup_lines(game))
    start = time.perf_counter()
    for seq in range(4, 4 + count):
        services.ledger.append(game, [_event(game, seq)])
    append = (time.perf_counter() - start) / count
    start = time.perf_counter()
    for _ in range(count):
        services.board_at(game, None).public()
    state = (time.perf_counter() - start) / count
    return {"append_ms": round(append * 1000, 2), "state_ms": round(state * 1000, 2)}


def run_api_bench(db: str, clients: int = 8, appends: int = 50, reads: int = 50,
                  time_limit: float = 60.0) -> dict[str, Any]:
    """Appends (one event a request) and state reads by `clients` concurrent clients, each on its
    own game, through a server on loopback; each client stops at its count or at `time_limit`."""
    run = secrets.token_hex(3)
    admin = {"Authorization": "Bearer " + services_for(db).tokens.issue("admin", name="bench")[0]}
    port = _free_port()
    proc = _start_server(db, port)
    url = f"http://127.0.0.1:{port}/api"
    deadline = time.monotonic() + time_limit
    try:
        with httpx.Client(timeout=30) as client:
            for i in range(clients):
                game = f"bench-{run}-{i}"
                client.post(f"{url}/games/{game}/events", json={"events": _setup_lines(game)},
                            headers=admin).raise_for_status()

        def appender(i: int, out: list[float]) -> None:
            game = f"bench-{run}-{i}"
            with httpx.Client(timeout=30) as client:
                for seq in range(4, 4 + appends):
                    if time.monotonic() > deadline:
                        return
                    t0 = time.perf_counter()
                    client.post(f"{url}/games/{game}/events", json={"events": [_event(game, seq)]},
                                headers=admin).raise_for_status()
                    out.append(time.perf_counter() - t0)

        def reader(i: int, out: list[float]) -> None:
            game = f"bench-{run}-{i}"
            with httpx.Client(timeout=30) as client:
                for _ in range(reads):
                    if time.monotonic() > deadline:
                        return
                    t0 = time.perf_counter()
                    client.get(f"{url}/games/{game}/state", headers=admin).raise_for_status()
                    out.append(time.perf_counter() - t0)

        append_lat, append_wall = _phase(clients, appender)
        read_lat, read_wall = _phase(clients, reader)
    finally:
        proc.terminate()
        proc.wait(10)
    baseline = _baseline(db, run, min(appends, 50))
    out = {"store": "postgresql" if services_for(db).store.pg else "sqlite", "clients": clients,
           "appends": _summary(append_lat, append_wall), "state_reads": _summary(read_lat, read_wall),
           "baseline_in_process": baseline}
    out["ratios"] = {
        "append_p50_over_raw": round(out["appends"]["p50_ms"] / baseline["append_ms"], 1) if baseline["append_ms"] else None,
        "state_p50_over_raw": round(out["state_reads"]["p50_ms"] / baseline["state_ms"], 1) if baseline["state_ms"] else None,
    }
    return out


def to_markdown(results: list[dict[str, Any]], command: str) -> str:
    lines = ["# API load benchmark", "",
             "Appends (one event a request, each client on its own game) and board reads "
             "(`GET /api/games/{game}/state`) by concurrent clients through `umpire serve` on loopback, "
             "on a 2-core machine. The baseline is the same work in process without HTTP, measured in the "
             "same run; ratios are HTTP p50 over the in-process mean.", "",
             f"Command: `{command}`", "",
             "| store | clients | operation | count | p50 ms | p99 ms | throughput /s | in-process ms | p50 / in-process |",
             "|---|---|---|---|---|---|---|---|---|"]
    for r in results:
        base, ratios = r["baseline_in_process"], r["ratios"]
        for name, key, raw, ratio in (("append", "appends", "append_ms", "append_p50_over_raw"),
                                      ("state read", "state_reads", "state_ms", "state_p50_over_raw")):
            s = r[key]
            lines.append(f"| {r['store']} | {r['clients']} | {name} | {s['count']} | {s['p50_ms']} | {s['p99_ms']} "
                         f"| {s['throughput_per_s']} | {base[raw]} | {ratios[ratio]} |")
    return "\n".join(lines) + "\n"


def main(argv: Optional[list[str]] = None) -> None:
    parser = argparse.ArgumentParser(description="Umpire API load benchmark (loopback only)")
    parser.add_argument("--db", action="append", required=True, help="a store (repeat for several)")
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--appends", type=int, default=50)
    parser.add_argument("--reads", type=int, default=50)
    parser.add_argument("--write", type=Path, help="write the Markdown table to this file")
    args = parser.parse_args(argv)
    results = [run_api_bench(db, args.clients, args.appends, args.reads) for db in args.db]
    command = "python -m bench.api " + " ".join(sys.argv[1:] if argv is None else argv)
    text = to_markdown(results, command)
    if args.write:
        args.write.write_text(text, encoding="utf-8")
    print(text)


if __name__ == "__main__":
    main()
