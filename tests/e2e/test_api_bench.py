"""The API load benchmark runs (tiny counts), on each store, and reports what it measured."""
from __future__ import annotations

from bench.api import run_api_bench, to_markdown


def test_the_api_bench_reports_latencies_throughput_and_the_baseline(api_db):
    result = run_api_bench(api_db, clients=2, appends=5, reads=5, time_limit=60)
    assert result["appends"]["count"] == 10 and result["state_reads"]["count"] == 10
    for key in ("appends", "state_reads"):
        assert 0 < result[key]["p50_ms"] <= result[key]["p99_ms"] and result[key]["throughput_per_s"] > 0
    assert result["baseline_in_process"]["append_ms"] > 0 and result["ratios"]["append_p50_over_raw"] > 0
    table = to_markdown([result], "python -m bench.api --db X")
    assert f"| {result['store']} | 2 | append | 10 |" in table
