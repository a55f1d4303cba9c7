"""Stepping speed of the replay: the server's step callback, and a click to the redrawn board.

`pytest tests/e2e/test_dashboard_bench.py -s` prints the figures and keeps them in
test-artifacts/benchmarks-dashboard.json (docs/benchmarks-dashboard.md quotes them)."""
from __future__ import annotations

import json
import statistics
import time

import pytest
from plotly.utils import PlotlyJSONEncoder

from dashboard.data import data_for
from dashboard.pages.replay import _event_text, _position, rules_panel, step_patch
from tests.e2e.test_dashboard_browser import ARTIFACTS, browser, page, server, store  # noqa: F401  (fixtures)

pytestmark = pytest.mark.browser

GAME = "michael-1918-ronssoy"  # the largest demo game in fixtures/games
START, STEPS = 150, 60
TARGET_MS = 150

CLICK_TO_BOARD = """
async () => {
    const gd = document.querySelector('#replay-map .js-plotly-plot');
    const t0 = performance.now();
    const drawn = new Promise(resolve => gd.once('plotly_afterplot', resolve));
    document.getElementById('replay-next').click();
    await drawn;
    return performance.now() - t0;
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
    samples = []
    for seq in range(START, START + STEPS):
        t0 = time.perf_counter()
        out = (step_patch(gv, seq, False), _position(gv, seq), _event_text(gv, seq), rules_panel(data, gv, seq, False))
        json.dumps(out, cls=PlotlyJSONEncoder)
        samples.append((time.perf_counter() - t0) * 1000)
    return samples


def test_stepping_redraws_the_board_within_target(page, store):  # noqa: F811
    server_side = summary(server_step_ms(store))
    page.goto(f"{page.base}/replay/{GAME}?seq={START}")
    page.wait_for_selector("#replay-map .js-plotly-plot .main-svg")
    page.wait_for_timeout(500)
    clicks = [page.evaluate(CLICK_TO_BOARD) for _ in range(STEPS)]
    page.wait_for_timeout(300)
    assert page.locator("#replay-position").inner_text().startswith(f"event {START + STEPS} of")
    browser_side = summary(clicks)
    figures = {"game": GAME, "events": STEPS, "server_step": server_side, "click_to_board": browser_side}
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / "benchmarks-dashboard.json").write_text(json.dumps(figures, indent=1))
    print(json.dumps(figures, indent=1))
    assert browser_side["median_ms"] < TARGET_MS
