"""Stepping speed of the replay: the server's step callback, and a click to the redrawn board.

`server_step` is the step callback's work in process (board, Patch, texts, rules, JSON), after a
first step that audits the game and folds its snapshots (`first_ms`); `step_request_round_trip`
is the browser's request to `umpire serve` and its answer; `click_to_board` runs from the click
on "next" to plotly's `plotly_afterplot` on the map.

`pytest tests/e2e/test_dashboard_bench.py -s` prints the figures and keeps them in
test-artifacts/benchmarks-dashboard.json (docs/benchmarks.md quotes them)."""
from __future__ import annotations

import json
import os
import statistics
import time

import pytest
from plotly.utils import PlotlyJSONEncoder

from dashboard.data import data_for
from dashboard.pages.replay import step_outputs
from tests.e2e.test_dashboard_browser import ARTIFACTS, browser, page, server, store  # noqa: F401  (fixtures)

pytestmark = pytest.mark.browser

GAME = "michael-1918-ronssoy"  # the largest demo game in fixtures/games
START, STEPS = 150, 60
TARGET_MS = 150

CLICK_TO_BOARD = """
async () => {
    const gd = document.querySelector('#replay-map .js-plotly-plot');
    performance.clearResourceTimings();
    const t0 = performance.now();
    const drawn = new Promise(resolve => gd.once('plotly_afterplot', resolve));
    document.getElementById('replay-next').click();
    await drawn;
    const total = performance.now() - t0;
    const calls = performance.getEntriesByType('resource').filter(e => e.name.includes('_dash-update-component'));
    return [total, calls.reduce((sum, e) => sum + e.responseEnd - e.startTime, 0)];
}
"""


def summary(samples: list[float]) -> dict[str, float]:
    ordered = sorted(samples)
    return {"n": len(samples), "median_ms": round(statistics.median(ordered), 1),
            "p95_ms": round(ordered[int(0.95 * (len(ordered) - 1))], 1), "max_ms": round(ordered[-1], 1)}


def server_step_ms(db: str) -> list[float]:
    """What the step callback computes and sends: the Patch of the moving traces, the texts, the rules."""
    data = data_for(db)
    gv = data.view(GAME)
    t0 = time.perf_counter()
    json.dumps(step_outputs(data, gv, START - 1, False, False), cls=PlotlyJSONEncoder)
    cold = (time.perf_counter() - t0) * 1000
    samples = [cold]
    for seq in range(START, START + STEPS):
        t0 = time.perf_counter()
        json.dumps(step_outputs(data, gv, seq, False, False), cls=PlotlyJSONEncoder)
        samples.append((time.perf_counter() - t0) * 1000)
    return samples


def test_stepping_redraws_the_board_and_reports_its_timing(page, store):  # noqa: F811
    cold, *warm = server_step_ms(store)
    server_side = {**summary(warm), "first_ms": round(cold, 1)}
    page.goto(f"{page.base}/replay/{GAME}?seq={START}")
    page.wait_for_selector("#replay-map .js-plotly-plot .main-svg")
    page.wait_for_timeout(500)
    clicks, round_trips = zip(*(page.evaluate(CLICK_TO_BOARD) for _ in range(STEPS)))
    page.wait_for_timeout(300)
    assert page.locator("#replay-position").inner_text().startswith(f"event {START + STEPS} of")
    browser_side = summary(list(clicks))
    figures = {"game": GAME, "events": STEPS, "server_step": server_side, "click_to_board": browser_side,
               "step_request_round_trip": summary(list(round_trips)),
               "load_average_1min": round(os.getloadavg()[0], 2), "cores": os.cpu_count(),
               "target_ms": TARGET_MS}
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / "benchmarks-dashboard.json").write_text(json.dumps(figures, indent=1))
    print(json.dumps(figures, indent=1))
    # A benchmark, not a timed test: the figures (against the 150 ms target) go to
    # docs/benchmarks.md; what is asserted is that every step redrew the board.
    assert browser_side["n"] == STEPS and browser_side["median_ms"] > 0
