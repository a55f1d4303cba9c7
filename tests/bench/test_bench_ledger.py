"""The ledger benchmark (`umpire bench`): each figure against its raw baseline on the same kind of
store, with its target and whether it is met, so that `umpire bench` names a miss. Timings are
recorded by the benchmark, never asserted here."""
from __future__ import annotations

from pathlib import Path

import psycopg

from api.commands.bench import misses
from bench.ledger import TARGETS, bench_store

FIGURES = ("import", "read", "board_at_last_event", "board_at_random_seq")


def test_each_figure_carries_its_target_and_whether_it_is_met(db_url, tmp_path):
    db = db_url if db_url.startswith("postgresql") else str(tmp_path / "bench.db")
    figures = bench_store(db, events=300, runs=3, samples=5)
    assert (figures["events"], figures["runs"]) == (300, 3)
    for name in FIGURES:
        figure = figures[name]
        assert figure["target"] == TARGETS[name]
        assert figure["met"] is (figure["ratio"] <= figure["target"])
        assert figure["s"] > 0 and figure["raw_s"] > 0
    for name in ("import", "read", "board_at_last_event"):
        low, high = figures[name]["ratio_range"]
        assert low <= figures[name]["ratio"] <= high
    named = {miss.split(":")[0] for miss in misses({"ledger": {figures["store"]: figures}})}
    assert named == {f"ledger.{figures['store']}.{name}" for name in FIGURES if not figures[name]["met"]}


def test_the_runs_stores_are_gone_afterwards(db_url, tmp_path):
    if db_url.startswith("postgresql"):
        bench_store(db_url, events=120, runs=2, samples=2)
        with psycopg.connect(db_url) as conn:
            left = conn.execute("SELECT datname FROM pg_database WHERE datname LIKE %s",
                                (db_url.rsplit("/", 1)[1] + "\\_%",)).fetchall()
        assert left == []
    else:
        bench_store(str(tmp_path / "bench.db"), events=120, runs=2, samples=2)
        assert list(Path(tmp_path).iterdir()) == []
