"""The dashboard in a real browser: Debian's chromium (headless) driven by Playwright against a
real `umpire serve` (API and dashboard on one port) over a store holding the spec's examples.
The store is not public: each page signs in with a viewer token first."""
from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Iterator

import pytest
from playwright.sync_api import Page, expect, sync_playwright

from api.deps import close_services, services_for
from api.cli_app import open_ledger
from dashboard.form_view import dom_id, error_id, field_id
from domain.log import read_lines
from projections.audit_trail import audit_lines
from tests.conftest import EXAMPLES, FIXTURE_GAMES
from tests.e2e.api_helpers import Server

pytestmark = pytest.mark.browser

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
FINDING_GAME = "resistance-turns"


def example_lines(game: str) -> list[dict]:
    with open(EXAMPLES / f"{game}.jsonl", encoding="utf-8") as fh:
        return read_lines(fh)


def expected_finding(game: str) -> dict:
    """The first finding the spec expects in the example (examples/<game>.expected.json)."""
    return json.loads((EXAMPLES / f"{game}.expected.json").read_text())["findings"][0]


def stored(tmp_path_factory, name: str, logs: list[Path]) -> Iterator[str]:
    """A SQLite store holding `logs` (for a module's fixture), its services closed afterwards."""
    db = str(tmp_path_factory.mktemp(name) / "umpire.db")
    ledger = open_ledger(db)
    for path in logs:
        ledger.import_lines(path.read_text(encoding="utf-8").splitlines())
    yield db
    close_services(db)


def running(db: str, *options: str) -> Iterator[Server]:
    """`umpire serve` over `db` (with `options`) for a module's fixture."""
    srv = Server(db, options=options).start(timeout=60)
    yield srv
    srv.stop()


@pytest.fixture(scope="module")
def store(tmp_path_factory) -> Iterator[str]:
    yield from stored(tmp_path_factory, "dashboard",
                      [*sorted(EXAMPLES.glob("*.jsonl")), *sorted(FIXTURE_GAMES.glob("*.jsonl"))])


@pytest.fixture(scope="module")
def server(store) -> Iterator[Server]:
    yield from running(store)


@pytest.fixture(scope="module")
def browser():
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        yield b
        b.close()


def sign_in(page: Page, token: str, then: str = "/") -> None:
    """Sign in through the dashboard's form, then land on `then`."""
    page.goto(f"{page.base}/sign-in?next={then}")
    page.fill("#token", token)
    page.click("#sign-in-submit")
    expect(page).to_have_url(re.compile(rf"{re.escape(page.base + then)}$"))


def token_cookie(url: str, token: str) -> dict:
    return {"name": "umpire_token", "value": token, "url": url, "httpOnly": True, "sameSite": "Strict"}


def left_feed(url: str, failure: str) -> bool:
    """A page's live feed, closed by the page as it moved on (assets/live.js): not a failure."""
    return "/live/games" in url and failure == "net::ERR_ABORTED"


@pytest.fixture
def page(browser, server, store):
    """A page signed in with a viewer token that records console errors, uncaught errors and failed
    requests; none may occur."""
    context = browser.new_context(viewport={"width": 1400, "height": 1000}, accept_downloads=True)
    context.add_cookies([token_cookie(server.url, services_for(store).tokens.issue("viewer")[0])])
    pg = context.new_page()
    problems: list[str] = []
    pg.on("console", lambda m: problems.append(f"console {m.type}: {m.text}") if m.type == "error" else None)
    pg.on("pageerror", lambda e: problems.append(f"page error: {e}"))
    pg.on("requestfailed", lambda r: problems.append(f"request failed: {r.url} {r.failure}")
          if not left_feed(r.url, r.failure) else None)
    pg.on("response", lambda r: problems.append(f"HTTP {r.status}: {r.url}") if r.status >= 400 else None)
    pg.base = server.url
    yield pg
    context.close()
    assert problems == []


def open_replay(page: Page, game: str, seq: int) -> None:
    page.goto(f"{page.base}/replay/{game}?seq={seq}")
    page.wait_for_selector("#replay-map .js-plotly-plot .main-svg")
    expect(page.locator("#replay-position")).to_contain_text(f"event {seq} of")


def at_event(page: Page, seq: int, last: int) -> None:
    expect(page.locator("#replay-position")).to_contain_text(f"event {seq} of {last}")
    expect(page).to_have_url(re.compile(rf"[?&]seq={seq}(&|$)"))


def test_games_page_lists_every_game_with_its_audit_summary(page):
    page.goto(page.base + "/")
    rows = page.locator("#games-table .game-row")
    expect(rows).to_have_count(len(list(EXAMPLES.glob("*.jsonl"))) + len(list(FIXTURE_GAMES.glob("*.jsonl"))))
    row = rows.filter(has_text=FINDING_GAME)
    expect(row).to_contain_text(f"{len(example_lines(FINDING_GAME))}")
    expect(row.locator(f".verdict-{expected_finding(FINDING_GAME)['verdict']}")).to_be_visible()
    row.get_by_role("link", name=FINDING_GAME).click()
    expect(page).to_have_url(re.compile(rf"/replay/{FINDING_GAME}"))
    page.wait_for_selector("#replay-map .js-plotly-plot .main-svg")


def test_an_unknown_game_says_so(page):
    page.goto(page.base + "/replay/no-such-game")
    expect(page.locator(".missing")).to_contain_text("There is no game 'no-such-game' in this store.")
    page.get_by_role("link", name="All games").click()
    expect(page.locator("#games-table")).to_be_visible()


def test_replay_steps_jumps_and_reads_the_citation_of_a_finding(page):
    lines = example_lines(FINDING_GAME)
    last = len(lines)
    open_replay(page, FINDING_GAME, 1)
    page.click("#replay-next")
    at_event(page, 2, last)
    page.keyboard.press("ArrowRight")
    at_event(page, 3, last)
    page.keyboard.press("ArrowLeft")
    at_event(page, 2, last)
    page.keyboard.press("End")
    at_event(page, last, last)
    page.keyboard.press("Home")
    at_event(page, 1, last)

    # jump to turn 2: its first event
    turn2 = next(line["seq"] for line in lines if line["turn"] == 2)
    page.click("#replay-jump")
    page.get_by_role("option", name="Turn 2", exact=True).click()
    at_event(page, turn2, last)

    # the slider's number box moves the board when it loses focus
    page.fill("#replay-slider input[type=number]", "10")
    page.keyboard.press("Tab")
    at_event(page, 10, last)

    # choose the event the spec flags; its findings carry the auditor's citation
    finding = expected_finding(FINDING_GAME)
    seq = finding["seq"]
    report = audit_lines(lines)
    found = [a for a in report.applications if a.seq == seq and a.verdict.value == finding["verdict"]]
    assert found, "the auditor flags the event the spec expects"
    page.locator(f'#replay-events .event-row[data-seq="{seq}"]').click()
    at_event(page, seq, last)
    rules = page.locator("#replay-rules")
    expect(rules.locator(f"tr.app-{finding['verdict']}").first).to_contain_text(found[0].citation)
    expect(rules.locator(f"tr.app-{finding['verdict']} .rule-id").first).to_have_text(found[0].rule)
    expect(page.locator("#replay-events .event-row.current")).to_have_attribute("data-seq", str(seq))
    # the event's hex is outlined: the highlight trace has points
    outline = page.evaluate("() => document.querySelector('#replay-map .js-plotly-plot').data"
                            ".find(t => t.name === 'touched').x.length")
    assert outline > 0

    page.get_by_label("findings only").check()
    expect(rules.locator("tr.app-ok")).to_have_count(0)
    expect(rules.locator(f"tr.app-{finding['verdict']}").first).to_be_visible()
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "dashboard-replay.png"), full_page=True)


def test_a_shared_url_opens_at_its_position(page):
    open_replay(page, "first-turn-barrage", 15)
    assert page.locator("#replay-slider [role=slider]").get_attribute("aria-valuenow") == "15"
    expect(page.locator("#replay-events .event-row.current")).to_have_attribute("data-seq", "15")


def trace_shows(trace: str, key: str, words: str) -> str:
    """A script true once an item of the map's trace `trace` under `key` holds `words` (for
    page.wait_for_function)."""
    return (f"() => {{ const plot = document.querySelector('#replay-map .js-plotly-plot');"
            f" const t = plot && plot.data && plot.data.find(t => t.name === '{trace}');"
            f" return !!t && (t.{key} || []).some(s => String(s).includes({json.dumps(words)})); }}")


def test_replay_draws_a_disputed_spot_and_the_shot_after_it_with_range_and_result(page):
    game = "michael-1918-ronssoy"
    with open(FIXTURE_GAMES / f"{game}.jsonl", encoding="utf-8") as fh:
        lines = read_lines(fh)
    spot = next(l["data"]["about"] for l in lines if l["type"] == "DisputeRaised")
    fire = next(l for l in lines if l["seq"] > spot and l["type"] == "SmallArmsFired")
    open_replay(page, game, spot)
    panel = page.locator("#replay-fire")
    expect(panel).to_contain_text("Result: spotted")
    expect(panel).to_contain_text("Range counted: 1 hex")
    expect(panel).to_contain_text("Disputed:")
    page.wait_for_function(trace_shows("fire-range", "text", "1 hex"))
    page.wait_for_function(trace_shows("fire-marks", "hovertext", "(spotter)"))
    for seq in range(spot + 1, fire["seq"] + 1):   # step to the shot: the board is patched, the panel redrawn
        page.click("#replay-next")
        at_event(page, seq, len(lines))
    expect(panel).to_contain_text(f"recorded {fire['data']['range']} (agrees)")
    expect(panel).to_contain_text("hit")
    page.wait_for_function(trace_shows("fire-marks", "hovertext", "(firer)"))
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "dashboard-replay-fire.png"), full_page=True)


def test_analytics_draws_every_chart_and_exports_png(page):
    page.goto(page.base + "/analytics")
    charts = page.locator(".chart .js-plotly-plot")
    # artillery's four and the machines' three; the first visit brings the analytics projection up to date
    expect(charts).to_have_count(7, timeout=30_000)
    expect(page.locator("#an-points")).to_contain_text("cap 25 points")
    expect(page.locator("#an-vehicle-breakdowns")).to_contain_text("Breakdowns per vehicle type")
    with page.expect_download(timeout=60_000) as download:
        page.click("#an-fot-png")
    path = download.value.path()
    assert Path(path).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "dashboard-analytics.png"), full_page=True)


def unit_labels(page: Page) -> list[str]:
    return page.evaluate("() => document.querySelector('#replay-map .js-plotly-plot').data"
                         ".find(t => t.name === 'units').text")


def test_a_dispute_is_raised_by_a_signed_in_player_and_ruled_by_a_signed_in_referee(page, store):
    game = "first-turn-barrage"
    pinned = next(line for line in example_lines(game)
                  if line["type"] == "UnitStatusChanged" and line["data"]["status"] == "pinned")
    unit, about = pinned["data"]["unit"], pinned["seq"]
    tokens = services_for(store).tokens
    player, _ = tokens.issue("player", game, "german")
    referee, _ = tokens.issue("referee")
    page.goto(f"{page.base}/disputes/{game}")
    expect(page.locator("#dispute-list")).to_contain_text("No dispute")
    # the viewer the page signed in with may read, not raise: the form says so, and so does a try
    expect(page.locator(".rights").first).to_contain_text("needs player or better")
    page.click("#dispute-about")
    page.get_by_role("option", name=re.compile(rf"^{about} · ")).click()
    page.fill("#dispute-claim", "a miss cannot pin")
    page.click("#dispute-raise")
    expect(page.locator("#dispute-raise-result")).to_contain_text("a viewer token may not do this")

    sign_in(page, player, f"/disputes/{game}")
    page.click("#dispute-about")
    page.get_by_role("option", name=re.compile(rf"^{about} · ")).click()
    expect(page.locator("#dispute-evidence-for")).to_contain_text(f"Evidence on event {about}")
    page.fill("#dispute-claim", "a miss cannot pin")
    page.click("#dispute-raise")
    expect(page.locator("#dispute-raise-result")).to_contain_text("raised")
    expect(page.locator("#dispute-list")).to_contain_text("a miss cannot pin")

    page.click("#ruling-dispute")
    page.get_by_role("option", name=re.compile("a miss cannot pin")).click()
    page.get_by_label("overturned").check()
    page.click("#ruling-issue")
    expect(page.locator("#ruling-result")).to_contain_text("needs referee")

    sign_in(page, referee, f"/disputes/{game}")
    page.click("#ruling-dispute")
    page.get_by_role("option", name=re.compile("a miss cannot pin")).click()
    page.get_by_label("overturned").check()
    # the correction is built with the form of its event type, its unit chosen from the board
    page.click("#ruling-fix-type")
    page.get_by_role("option", name="UnitStatusChanged", exact=True).click()
    page.locator(f"[id='{dom_id(field_id('ruling-fix', 'unit'))}']").click()
    page.get_by_role("option", name=re.compile(rf"^{unit} \(")).click()
    status = page.locator(f"[id='{dom_id(field_id('ruling-fix', 'status'))}']")
    status.fill("unpinnd")
    page.click("#ruling-fix-add")
    expect(page.locator(f"[id='{dom_id(error_id('ruling-fix', 'status'))}']")).to_contain_text("unknown status 'unpinnd'")
    status.fill("unpinned")
    page.click("#ruling-fix-add")
    expect(page.locator("#ruling-fix-list")).to_contain_text(f"{unit}")
    page.fill("#ruling-note", "no hit, no pin")
    page.click("#ruling-issue")
    expect(page.locator("#ruling-result")).to_contain_text("Ruling on")
    expect(page.locator("#dispute-list")).to_contain_text("overturned")
    stored = open_ledger(store).lines(game)
    assert [l["type"] for l in stored[-2:]] == ["DisputeRaised", "RulingIssued"]

    # the replay now offers the board as ruled: the correction lifts the pin
    open_replay(page, game, len(stored))
    assert f"{unit}<br>PIN" in unit_labels(page)
    page.get_by_label("as ruled").check()
    expect(page).to_have_url(re.compile(r"view=ruled"))
    page.wait_for_function(f"() => document.querySelector('#replay-map .js-plotly-plot').data"
                           f".find(t => t.name === 'units').text.includes('{unit}')")
    assert unit in unit_labels(page) and f"{unit}<br>PIN" not in unit_labels(page)
