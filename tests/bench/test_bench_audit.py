"""The audit benchmark (`umpire bench --audit`): its figures and how `umpire bench` tells a missed
target. Timings are recorded by the benchmark, never asserted here."""
from __future__ import annotations

import statistics

import pytest

from api.commands.bench import misses
from bench.audit import run_audit_bench


def paired(point) -> bool:
    """The ratio is the median of each audit's against the raw reads either side of it (three a run)."""
    return len(point["ratios"]) == 3 and all(r > 0 for r in point["ratios"]) and point["raw_read_s"] > 0 \
        and point["ratio"] == pytest.approx(statistics.median(point["ratios"]), abs=0.01)   # figures are rounded


def test_audit_bench_measures_each_game_against_its_raw_read(tmp_path):
    figures = run_audit_bench(tmp_path, runs=1, turns=(4, 8), tabletop_turns=4, active_turns=3)
    curve = figures["curve"]
    assert [p["turns"] for p in curve] == [4, 8]
    assert curve[0]["events"] < curve[1]["events"]
    for point in curve:
        assert paired(point)
    assert figures["audit"]["met"] is (0 < figures["audit"]["ratio"] <= 5.0)   # no measurement is no pass
    assert figures["linear"]["to_events"] == curve[1]["events"]
    # the tabletop rule systems' own generated games, each against its raw read
    assert set(figures["tabletop"]) == {"dux-bellorum-avbcw", "landships-of-mogdonazia"}
    for point in figures["tabletop"].values():
        assert point["events"] > 0 and paired(point) and point["met"] is (point["ratio"] <= 5.0)
    # a game in play, recorded beside the target's game and never counted as a miss
    active = figures["active"]
    assert active["turns"] == 3 and active["events"] > 0 and active["met"] is None
    assert paired(active)
    assert not [m for m in misses(figures) if m.startswith("active")]


def test_a_missed_target_is_named_by_its_path():
    figures = {"audit": {"ratio": 7.5, "target": 5.0, "met": False},
               "ledger": {"sqlite": {"import_ratio": 2.5, "import_target": 2.0, "rebuild_ratio": 1.0, "rebuild_target": 3.0}},
               "board": {"reachable_vs_plain": 1.2, "target_ratio": 3.0, "met": True}}
    assert misses(figures) == ["audit: 7.5 against a target of 5.0",
                               "ledger.sqlite.import: 2.5x against a target of 2.0x"]


def test_met_targets_are_no_misses():
    assert misses({"audit": {"ratio": 4.0, "target": 5.0, "met": True}, "curve": [{"ratio": 9}]}) == []
