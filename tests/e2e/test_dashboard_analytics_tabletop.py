"""The analytics page's tabletop charts in a real browser (Debian's chromium, headless, through
Playwright) against a real `umpire serve`: the page chooses the rule system, Infernal Machines'
charts stay as they were, AVBCW's and Mogdonazia's are drawn from their demo games and the
spec's examples, filtered by game, and exported as PNG."""
from __future__ import annotations

import re
from pathlib import Path
from typing import Iterator

import pytest
from playwright.sync_api import Page, expect

from tests.conftest import FIXTURE_GAMES, SPEC
from tests.e2e.api_helpers import Server
from tests.e2e.test_dashboard_browser import ARTIFACTS, browser, page, running, stored  # noqa: F401 (fixtures)

pytestmark = pytest.mark.browser

GAMES = [*sorted((SPEC / "examples-tabletop").glob("*.jsonl")), FIXTURE_GAMES / "avbcw-derwent-1938.jsonl",
         FIXTURE_GAMES / "mog-1890-kessarine-road.jsonl", FIXTURE_GAMES / "cambrai-1917-flesquieres.jsonl"]


@pytest.fixture(scope="module")
def store(tmp_path_factory) -> Iterator[str]:
    yield from stored(tmp_path_factory, "analytics-tabletop", GAMES)


@pytest.fixture(scope="module")
def server(store) -> Iterator[Server]:
    yield from running(store)


def traces(page: Page, chart: str) -> list[dict]:
    return page.evaluate("(id) => document.querySelector('#' + id + ' .js-plotly-plot').data"
                         ".map(t => ({name: t.name, x: t.x, y: t.y, text: t.text}))", chart)


def test_the_page_chooses_the_rule_system_and_draws_avbcw(page):
    page.goto(page.base + "/analytics")
    expect(page.locator(".chart .js-plotly-plot")).to_have_count(7, timeout=30_000)   # Infernal Machines' (and its machines')
    page.get_by_role("link", name="Dux Bellorum AVBCW").click()
    expect(page).to_have_url(re.compile(r"/analytics\?ruleset=dux-bellorum-avbcw$"))
    expect(page.locator(".chart .js-plotly-plot")).to_have_count(5, timeout=30_000)
    expect(page.locator("#an-avbcw-low-ammo")).to_contain_text("more 1s than hits")
    # AVBCW, Low on ammo: the demo game's r-lmg goes low in turn 4 and the example's r-inf in turn 1.
    every = {t["name"] for t in traces(page, "an-avbcw-first-low")}
    assert {"lmg", "inf-regulars"} <= every
    # "remains suppressed until it succeeds a BRV test": the demo game's two stretches end unsuppressed.
    assert "unsuppressed" in {t["name"] for t in traces(page, "an-avbcw-suppression")}
    page.click("#an-games-dux-bellorum-avbcw")
    page.get_by_role("option", name="avbcw-example").click()
    expect(page.locator("#an-avbcw-leadership")).to_contain_text("no leadership points in the games shown")
    with page.expect_download(timeout=60_000) as download:
        page.click("#an-avbcw-low-ammo-png")
    assert Path(download.value.path()).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "dashboard-analytics-avbcw.png"), full_page=True)


def test_mogdonazia_breakdowns_against_the_texts_odds(page):
    page.goto(page.base + "/analytics?ruleset=landships-of-mogdonazia")
    expect(page.locator(".chart .js-plotly-plot")).to_have_count(3, timeout=30_000)
    expect(page.locator("#an-ruleset")).to_contain_text("Infernal Machines")
    odds = next(t for t in traces(page, "an-mog-breakdowns") if t["name"] == "the text's odds")
    # MOG, A.2 "On road 6 Off road 5-6": 1/6 on the demo game's road, 2/6 off road in the example.
    assert sorted(round(y, 4) for y in odds["y"]) == [0.1667, 0.3333]
    cards = {t["name"]: t for t in traces(page, "an-mog-criticals")}
    # D.2, small arms: "Ace card- Criticals": the aces drawn are criticals, the 7 of clubs is none.
    assert "AH" in cards["critical"]["x"] and "7C" in cards["none"]["x"]
    page.screenshot(path=str(ARTIFACTS / "dashboard-analytics-mog.png"), full_page=True)
