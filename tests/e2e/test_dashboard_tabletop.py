"""The replay in a real browser, for a tabletop game and for serving a dispute: Debian's chromium
(headless) driven by Playwright against a real `umpire serve --public-read` over a store holding
the two tabletop examples of game-log-tabletop.md and a hex fixture game with findings.

The tabletop examples have no findings yet (their rule modules judge nothing so far), so the
finding navigation is tried on the Infernal Machines fixture game.
"""
from __future__ import annotations

import re
from typing import Iterator

import pytest
from playwright.sync_api import Page, expect
from shapely.geometry import Point, Polygon

from domain.log import read_lines
from projections.audit_trail import audit_lines
from tests.conftest import FIXTURE_GAMES, SPEC
from tests.e2e.api_helpers import Server
from tests.e2e.test_dashboard_browser import (  # noqa: F401 (fixtures)
    ARTIFACTS, at_event, browser, open_replay, page, running, stored,
)

pytestmark = pytest.mark.browser

TABLETOP = SPEC / "examples-tabletop"
HEX_GAME = "cambrai-1917-flesquieres"


@pytest.fixture(scope="module")
def store(tmp_path_factory) -> Iterator[str]:
    yield from stored(tmp_path_factory, "tabletop",
                      [*sorted(TABLETOP.glob("*.jsonl")), FIXTURE_GAMES / f"{HEX_GAME}.jsonl"])


@pytest.fixture(scope="module")
def server(store) -> Iterator[Server]:
    yield from running(store, "--public-read")


def lines_of(path) -> list[dict]:
    with open(path, encoding="utf-8") as fh:
        return read_lines(fh)


def plotted(page: Page, name: str) -> dict:
    """The figure's trace named `name`, as plotly holds it in the page."""
    return page.evaluate("(name) => { const t = document.querySelector('#replay-map .js-plotly-plot').data"
                         ".find(t => t.name === name); return {x: t.x, y: t.y, text: t.text}; }", name)


def rings(trace: dict) -> list[list[tuple[float, float]]]:
    out, current = [], []
    for x, y in zip(trace["x"], trace["y"]):
        if x is None:
            out, current = out + [current], []
        else:
            current.append((x, y))
    return out + ([current] if current else [])


def test_a_tabletop_game_is_drawn_to_scale_and_steps_like_the_hex_replay(page):
    last = len(lines_of(TABLETOP / "avbcw-example.jsonl"))
    open_replay(page, "avbcw-example", 1)
    page.keyboard.press("ArrowRight")
    at_event(page, 2, last)
    page.click("#replay-next")
    at_event(page, 3, last)
    # line 11: r-inf shoots at s-mil; its range runs from r-inf's leader figure (y 8) to s-mil's
    # closest edge (y 21: line 6, a 5" by 2" base centred at y 22), 13.0" by `avbcw-range`'s default
    # (from-leader), the recorded range; its arc "45° to its front" (`avbcw-arc` quadrant)
    page.locator('#replay-events .event-row[data-seq="11"]').click()
    at_event(page, 11, last)
    expect(page.locator("#replay-event-text .measured")).to_contain_text(
        '13.0" (avbcw-range=from-leader); recorded range 13.0"; arc: front, 90° about 0°')
    assert [y for _, y in rings(plotted(page, "line"))[0]] == [8.0, 21.0]
    assert rings(plotted(page, "arc"))

    page.keyboard.press("End")
    at_event(page, 20, last)
    # line 20: the car (a 2" by 4" hull, line 7) ends at (34.3, 21.0); its path is 10.0" (the page's words)
    car = [Polygon(r) for r in rings(plotted(page, "socialist")) if Polygon(r).centroid.distance(Point(34.3, 21.0)) < 0.01]
    assert len(car) == 1 and car[0].area == pytest.approx(8.0)
    expect(page.locator("#replay-map text", has_text='10.0"')).to_be_visible()
    expect(page.locator("#replay-event-text")).to_contain_text('10.0"')
    expect(page.locator("#replay-events .event-row.current")).to_have_attribute("data-seq", "20")
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "dashboard-tabletop-avbcw.png"), full_page=True)

    # a shared position opens there; the terrain stays the same traces while stepping back
    open_replay(page, "avbcw-example", 7)
    assert "s-car" in plotted(page, "ids")["text"]
    page.keyboard.press("Home")
    at_event(page, 1, last)
    assert plotted(page, "ids")["text"] == []


def test_the_mogdonazia_example_draws_its_table(page):
    open_replay(page, "mog-example", 16)
    assert rings(plotted(page, "road")), "the road is drawn as its band"
    expect(page.locator("#replay-event-text .measured")).to_contain_text('12.0"')  # line 16's range
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "dashboard-tabletop-mog.png"), full_page=True)


def findings_of(lines: list[dict]) -> list[int]:
    """The events the auditor flags, in log order: the stops of the finding navigation."""
    return sorted({a.seq for a in audit_lines(lines).applications if a.verdict.value != "ok"})


def test_the_finding_keys_and_buttons_jump_between_the_events_with_findings(page):
    lines = lines_of(FIXTURE_GAMES / f"{HEX_GAME}.jsonl")
    last, findings = len(lines), findings_of(lines)
    assert len(findings) >= 2, "the fixture game has findings to go between"
    open_replay(page, HEX_GAME, 1)
    expect(page.locator("#replay-keys-help")).to_contain_text("n or Shift+→ next finding")
    page.keyboard.press("n")
    at_event(page, findings[0], last)
    expect(page.locator("#replay-rules tr.app:not(.app-ok)").first).to_be_visible()
    page.keyboard.press("Shift+ArrowRight")
    at_event(page, findings[1], last)
    page.keyboard.press("p")
    at_event(page, findings[0], last)
    page.keyboard.press("Shift+ArrowLeft")  # none before the first: the position stays
    at_event(page, findings[0], last)
    page.click("#replay-next-finding")
    at_event(page, findings[1], last)
    page.click("#replay-prev-finding")
    at_event(page, findings[0], last)
    page.keyboard.press("End")
    at_event(page, last, last)  # each key moves from the position the one before it reached
    page.keyboard.press("p")
    at_event(page, findings[-1], last)


def test_a_roll_shows_the_check_that_read_it(page):
    lines = lines_of(FIXTURE_GAMES / f"{HEX_GAME}.jsonl")
    report = audit_lines(lines)
    judged = {a.seq for a in report.applications}
    rolls = {line["seq"] for line in lines if line["type"] == "DieRolled"}
    # a roll no rule judges on its own line, named in a later finding's related seqs
    finding, roll = next((a, r) for a in report.applications if a.verdict.value != "ok"
                         for r in a.related if r in rolls and r not in judged)
    open_replay(page, HEX_GAME, roll)
    rules = page.locator("#replay-rules")
    expect(rules).to_contain_text("Checks that read this roll")
    expect(rules).not_to_contain_text("No rule judges this event")
    row = rules.locator(f"tr.app-{finding.verdict.value}", has_text=finding.rule).first
    expect(row.locator(".app-seq")).to_have_text(str(finding.seq))
    expect(row.locator(".rule-id")).to_have_text(finding.rule)
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "dashboard-roll-read-by.png"), full_page=True)
