"""The army list check in a real browser (Debian's chromium, headless, through Playwright) against
a real `umpire serve`: a list pasted, or loaded from a file, is checked and costed as `umpire army
check` does it (issue: "the army check work[s] from CLI, API and dashboard")."""
from __future__ import annotations

import json
from typing import Iterator

import pytest
from playwright.sync_api import expect

from tests.e2e.api_helpers import Server
from tests.e2e.test_dashboard_browser import browser, page, running, stored  # noqa: F401 (fixtures)
from tests.integration.test_army_cli import LEGAL

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def store(tmp_path_factory) -> Iterator[str]:
    yield from stored(tmp_path_factory, "army", [])


@pytest.fixture(scope="module")
def server(store) -> Iterator[Server]:
    yield from running(store)


def test_a_list_is_checked_and_costed_in_the_browser(page, tmp_path):
    page.goto(page.base + "/army")
    page.get_by_role("link", name="Army list").wait_for()
    # game-log-tabletop.md, Examples: the royalist list (Regulars 5 + Bayonets 1 = 6)
    page.fill("#army-text", json.dumps(LEGAL))
    page.click("#army-check")
    expect(page.locator("#army-result")).to_contain_text("Legal: 1 units, 6 points", timeout=30_000)
    # "Regulars 8-10": twelve figures, loaded from a file this time
    wrong = json.loads(json.dumps(LEGAL))
    wrong["units"][0]["figures"] = 12
    path = tmp_path / "list.json"
    path.write_text(json.dumps(wrong, indent=1), encoding="utf-8")
    page.set_input_files("#army-upload input[type=file]", str(path))
    expect(page.locator("#army-text")).to_have_value(json.dumps(wrong, indent=1), timeout=30_000)
    page.click("#army-check")
    expect(page.locator("#army-result")).to_contain_text("Not legal: 1 error(s)", timeout=30_000)
    expect(page.locator(".army-errors")).to_contain_text("AVBCW.UNIT.STATS")
    expect(page.locator(".army-errors")).to_contain_text("8-10")
