"""The AVBCW demo game (fixtures/games/avbcw-derwent-1938.jsonl) in the tabletop replay, in a
real browser against `umpire serve --public-read`: every unit drawn at its place, step by step."""
from __future__ import annotations

import json
from typing import Iterator

import pytest
from playwright.sync_api import expect

from tests.conftest import FIXTURE_GAMES
from tests.e2e.api_helpers import Server
from tests.e2e.test_dashboard_browser import (  # noqa: F401 (fixtures)
    ARTIFACTS, at_event, browser, open_replay, page, running, stored,
)
from tests.e2e.test_dashboard_tabletop import plotted

pytestmark = pytest.mark.browser

DEMO = FIXTURE_GAMES / "avbcw-derwent-1938.jsonl"
LINES = [json.loads(line) for line in DEMO.read_text(encoding="utf-8").splitlines()]
GAME = LINES[0]["game"]


@pytest.fixture(scope="module")
def store(tmp_path_factory) -> Iterator[str]:
    yield from stored(tmp_path_factory, "avbcw-demo", [DEMO])


@pytest.fixture(scope="module")
def server(store) -> Iterator[Server]:
    yield from running(store, "--public-read")


def test_the_demo_battle_is_drawn_unit_by_unit(page):
    last = len(LINES)
    deployed = [l["data"]["unit"] for l in LINES if l["type"] == "UnitDeployed"]
    # after the last deployment every unit of both lists stands on the table
    open_replay(page, GAME, max(l["seq"] for l in LINES if l["type"] == "UnitDeployed"))
    assert sorted(plotted(page, "ids")["text"]) == sorted(deployed)
    # the militia's fall back after the melee (turn 5) ends at (20.0, 37.1)
    fall_back = next(l for l in LINES if l["type"] == "UnitMoved" and l["data"].get("mode") == "fall-back")
    open_replay(page, GAME, fall_back["seq"])
    ids = plotted(page, "ids")
    where = dict(zip(ids["text"], ids["x"]))
    assert where["s-mil"] == pytest.approx(20.0)
    page.keyboard.press("End")
    at_event(page, last, last)
    expect(page.locator("#replay-event-text")).to_contain_text("RulingIssued")
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "dashboard-tabletop-avbcw-demo.png"), full_page=True)
