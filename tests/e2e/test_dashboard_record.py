"""The scribe in a real browser: a short game of each rule system recorded through `/record`
alone (started with the start form, every event from the forms made from the event schemas, one
roll by the service, one mistake the auditor flags at the table and its correction), then
exported as the API exports it, verified and audited by the CLI, whose report must be the one the
page showed. One server and one browser serve the three games.
"""
from __future__ import annotations

import json
import re
from typing import Any, Iterator, Optional

import httpx
import pytest
from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from typer.testing import CliRunner

from api.cli import app as cli
from api.commands.tokens import sign_in_link
from api.cli_app import open_ledger
from api.deps import services_for
from dashboard.form_view import dom_id, error_id, field_id
from tests.e2e.test_dashboard_browser import browser, running, stored  # noqa: F401 (browser: a shared fixture)

pytestmark = pytest.mark.browser
EVENT, FIX = "event", "fix"
PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def empty_store(tmp_path_factory) -> Iterator[str]:
    yield from stored(tmp_path_factory, "record", [])


@pytest.fixture(scope="module")
def scribe_server(empty_store):
    yield from running(empty_store)


@pytest.fixture(scope="module")
def admin(empty_store) -> str:
    return services_for(empty_store).tokens.issue("admin", name="scribe")[0]


def open_scribe(browser, server, token: str, viewport: dict[str, int]) -> Page:
    """A page signed in once through the link `umpire token issue --link` prints, on /record.
    No console error, page error or failed request may occur (checked by `done`)."""
    context = browser.new_context(viewport=viewport)
    page = context.new_page()
    page.problems = []
    page.on("console", lambda m: page.problems.append(f"console: {m.text}") if m.type == "error" else None)
    page.on("pageerror", lambda e: page.problems.append(f"page error: {e}"))
    page.on("response", lambda r: page.problems.append(f"HTTP {r.status}: {r.url}") if r.status >= 400 else None)
    page.base = server.url
    page.goto(sign_in_link(server.url, token, "/record"))
    expect(page).to_have_url(f"{server.url}/record")
    expect(page.locator("#nav")).to_contain_text("signed in as scribe: admin")
    return page


def done(page: Page) -> None:
    problems = page.problems
    page.context.close()
    assert problems == []


def field(page: Page, name: str, form: str = EVENT):
    return page.locator(f"[id='{dom_id(field_id(form, name))}']")


def error(page: Page, name: str, form: str = EVENT):
    return page.locator(f"[id='{dom_id(error_id(form, name))}']")


def choose(page: Page, dropdown, option: str | re.Pattern) -> None:
    """Choose an option by its name (a unit's also says its side and place: "b-1 (british) at
    1:1203"), or one matching a pattern; the dropdown is brought to the top of the screen first,
    so that a phone's has room to open."""
    name = option if isinstance(option, re.Pattern) else re.compile(rf"^{re.escape(option)}( \(|$)")
    for attempt in range(5):
        dropdown.evaluate("e => e.scrollIntoView({block: 'start'})")
        dropdown.click()
        try:
            # a callback still running may draw the form again and close the open list: open it again
            page.get_by_role("option", name=name).click(timeout=6_000)
            return
        except PlaywrightTimeout:
            page.keyboard.press("Escape")
            page.wait_for_timeout(500)
    page.get_by_role("option", name=name).click()


def fill(page: Page, form: str, values: dict[str, Any]) -> None:
    """Type each value into its field: text and numbers typed, choices and units chosen."""
    for name, value in values.items():
        control = field(page, name, form)
        expect(control).to_be_visible()
        tag = control.evaluate("e => e.tagName + (e.getAttribute('type') || '')")
        if tag.startswith("BUTTON"):  # a dropdown
            for item in value if isinstance(value, list) else [value]:
                choose(page, control, item)
            if isinstance(value, list):
                page.keyboard.press("Escape")
        elif tag.startswith("DIV"):  # yes / no
            control.get_by_label(value, exact=True).check()
        else:
            control.fill(str(value))


def start_game(page: Page, game: str, ruleset: str, prefix: str, started: dict[str, Any]) -> None:
    """Start a game from /record's form; `prefix` is its rule system's rule ids' (the form is drawn
    again for the rule system chosen, naming its interpretations)."""
    fill(page, "start", {"@game": game})
    choose(page, page.locator("#record-ruleset"), ruleset)
    expect(page.locator("#record-readings")).to_contain_text(prefix)
    fill(page, "start", started)
    page.click("#start-submit")
    expect(page).to_have_url(f"{page.base}/record/{game}")
    expect(page.locator("h2")).to_contain_text(f"Record · {game}")


def next_event(page: Page, event_type: str, values: dict[str, Any], side: Optional[str] = None,
               enter: bool = False) -> int:
    """Record the next event from its form (Enter in its last field when `enter`); its seq."""
    seq = last_seq(page) + 1
    choose(page, page.locator("#event-type"), event_type)
    if side:
        choose(page, field(page, "@side"), side)
    fill(page, EVENT, values)
    if enter:
        field(page, list(values)[-1]).press("Enter")
    else:
        page.click("#event-submit")
    expect(page.locator("#event-result")).to_contain_text(f"Stored event {seq}.")
    expect(page.locator(f'#record-audit h4[data-seq="{seq}"]')).to_be_visible()
    return seq


def last_seq(page: Page) -> int:
    """The game's last event, as the page's list of last events shows it."""
    return int(page.locator("#record-events li").first.get_attribute("data-seq"))


def service_roll(page: Page, store: str, game: str, values: dict[str, Any], side: str) -> dict[str, Any]:
    """A roll by the service, its purpose said on the page: the stored DieRolled."""
    choose(page, page.locator("#event-type"), "DieRolled")
    choose(page, field(page, "@side"), side)
    fill(page, EVENT, values)
    seq = last_seq(page) + 1
    page.click("#record-service")
    expect(page.locator("#event-result")).to_contain_text(f"Stored event {seq}.")
    expect(page.locator(f'#record-audit h4[data-seq="{seq}"]')).to_contain_text(values["purpose"])
    expect(page.locator("#record-audit .proof")).to_contain_text("By the service: commitment")
    return open_ledger(store).lines(game, after=seq - 1, upto=seq)[0]


def click_map(page: Page, x: float, y: float) -> None:
    """Click the scribe's map at a point of its own coordinates."""
    page.locator("#record-map").scroll_into_view_if_needed()
    at = page.evaluate("""([x, y]) => {
        const plot = document.querySelector('#record-map .js-plotly-plot');
        const xa = plot._fullLayout.xaxis, ya = plot._fullLayout.yaxis, box = plot.getBoundingClientRect();
        return [box.left + xa._offset + xa.l2p(x), box.top + ya._offset + ya.l2p(y)];
    }""", [x, y])
    page.mouse.click(*at)


def pick_on_map(page: Page, event_type: str, side: str, name: str, at: tuple[float, float], shown: str) -> None:
    """Start an event's form and fill its location field with a click on the map."""
    choose(page, page.locator("#event-type"), event_type)
    choose(page, field(page, "@side"), side)
    expect(field(page, name)).to_be_visible()
    for attempt in range(6):   # a click while the map is still being drawn again is lost: click again
        page.wait_for_selector("#record-map .js-plotly-plot .main-svg")
        click_map(page, *at)
        try:
            expect(field(page, name)).to_have_value(shown, timeout=10_000)
            return
        except AssertionError:
            continue
    expect(field(page, name)).to_have_value(shown)


def flagged(page: Page, seq: int, verdict: str, rule: str) -> None:
    """The auditor's finding on the stored event, shown at once with its citation."""
    row = page.locator(f"#record-audit tr.app-{verdict}").filter(has_text=rule)
    expect(row.first).to_be_visible()
    expect(row.first.locator(".citation")).not_to_be_empty()
    expect(page.locator(f'#record-events li.flagged[data-seq="{seq}"]')).to_be_visible()


def correct_at_table(page: Page, moved: int, rule: str, side: str, move: dict[str, str]) -> None:
    """A move the auditor flags, corrected on the scribe page: the event to correct and its claim
    are the auditor's, the correction (the move as it should have been) is built with the form,
    and the dispute and the ruling are stored together."""
    expect(page.locator("#record-fix-about")).to_contain_text(f"{moved} · T1")
    expect(page.locator("#record-fix-claim")).to_have_value(re.compile(re.escape(rule)))
    choose(page, page.locator("#fix-type"), "UnitMoved")
    choose(page, field(page, "@side", FIX), side)
    fill(page, FIX, move)
    page.click("#fix-add")
    expect(page.locator("#fix-list")).to_contain_text(move["unit"])
    page.click("#record-fix-submit")
    expect(page.locator("#record-fix-result")).to_contain_text("and ruled (overturned)")
    expect(page.locator(f'#record-audit h4[data-seq="{moved + 2}"]')).to_contain_text("Ruling on dispute")


def export_and_audit(server, token: str, game: str, tmp_path) -> dict[str, Any]:
    """GET export, then `umpire verify` and `umpire audit --format json` of the file."""
    exported = httpx.get(f"{server.url}/api/games/{game}/export", headers={"Authorization": f"Bearer {token}"})
    assert exported.status_code == 200
    path = tmp_path / f"{game}.jsonl"
    path.write_bytes(exported.content)
    runner = CliRunner()
    verified = runner.invoke(cli, ["verify", str(path)])
    assert verified.exit_code == 0, verified.output
    audited = runner.invoke(cli, ["audit", str(path), "--format", "json"])
    report = json.loads(audited.stdout)
    report["exit"] = audited.exit_code
    report["lines"] = [json.loads(line) for line in exported.text.splitlines()]
    return report


def mistakes(report: dict[str, Any]) -> set[tuple[int, str, str]]:
    """The findings that make `umpire audit` fail (exit 1): violations, mismatches, missing rolls."""
    return {(f["seq"], f["rule"], f["verdict"]) for f in report["findings"]
            if f["verdict"] in ("violation", "mismatch", "missing-roll")}


def test_an_infernal_machines_game_is_recorded_on_the_scribe_page(browser, scribe_server, empty_store, admin,
                                                                  tmp_path):
    page = open_scribe(browser, scribe_server, admin, {"width": 1300, "height": 1000})
    start_game(page, "scribe-im", "Infernal Machines (Landships! 1915-1933)", "IM.", {
        "scenario": "scribe test", "date": "1917-04",
        "sides[0].@key": "british", "sides[0].nation": "british", "sides[0].bloc": "allied",
        "sides[1].@key": "german", "sides[1].nation": "german", "sides[1].bloc": "central"})
    next_event(page, "MapDefined", {"maps": "1"})
    # a hex picked on the map: 1:1203 (odd-q, flat-topped: column 12 at x 18, row 3 at y -3·√3)
    pick_on_map(page, "UnitDeployed", "british", "location", (18.0, -3 * 3 ** 0.5), "1:1203")
    next_event(page, "UnitDeployed", {"unit": "b-1", "class": "infantry-platoon"})
    next_event(page, "TurnStarted", {"turn": "1"})
    next_event(page, "PhaseStarted", {"phase": "first-foot-movement", "active": "british"})
    # IM, Spotting: a spot follows its d10 (IM.SPOT.ROLL), here rolled by the service
    roll = service_roll(page, empty_store, "scribe-im", {"purpose": "IM.SPOT.ROLL", "die": "d10", "subject": "b-1"},
                        "british")
    next_event(page, "Spotted", {"spotter": "b-1", "target": "1:1206", "spotted": "yes"}, side="british", enter=True)
    # the mistake: a path that skips a hex (IM.CORE.PATH.ADJACENT)
    moved = next_event(page, "UnitMoved", {"unit": "b-1", "path": "1:1203 1:1205"}, side="british")
    flagged(page, moved, "violation", "IM.CORE.PATH.ADJACENT")
    # corrected at the table: a dispute and the referee's ruling, whose correction is the move as made
    correct_at_table(page, moved, "IM.CORE.PATH.ADJACENT", "british", {"unit": "b-1", "path": "1:1203 1:1204"})
    done(page)

    report = export_and_audit(scribe_server, admin, "scribe-im", tmp_path)
    assert [line["type"] for line in report["lines"]] == [
        "GameStarted", "MapDefined", "UnitDeployed", "TurnStarted", "PhaseStarted", "DieRolled", "Spotted",
        "UnitMoved", "DisputeRaised", "RulingIssued"]
    assert report["lines"][roll["seq"] - 1]["data"]["source"] == "service"
    assert report["lines"][roll["seq"]]["data"] == {"spotter": "b-1", "target": "1:1206", "spotted": True}
    ruling = report["lines"][moved + 1]["data"]
    assert ruling["corrections"] == [{"type": "UnitMoved", "side": "british",
                                      "data": {"unit": "b-1", "path": ["1:1203", "1:1204"]}}]
    # IM, Movement: a unit moves from hex to adjacent hex; the spot has the roll it needs
    assert report["exit"] == 1 and mistakes(report) == {(moved, "IM.CORE.PATH.ADJACENT", "violation")}


def keyboard_choose(page: Page, dropdown, option: str) -> None:
    """A dropdown with the keyboard alone: Enter opens it; with nothing chosen yet, typing filters
    and Enter takes the first; with a choice made, the arrows move from it and Enter takes one."""
    dropdown.focus()
    page.keyboard.press("Enter")
    focused = "(() => { const a = document.activeElement; const o = a.closest('[role=option]');"\
              " return o ? o.innerText.trim() : a.tagName; })()"
    # the list opens after a frame or two: wait until the focus has moved into it
    page.wait_for_function(f"{focused} !== 'BUTTON'")
    if page.evaluate(focused) == "INPUT":
        page.keyboard.type(option)
        expect(page.get_by_role("option").first).to_have_text(option)  # the list is filtered
    else:   # down the list from the choice made, then up if the option lies above it
        key = "ArrowDown"
        for _ in range(120):
            here = page.evaluate(focused)
            if here == option:
                break
            page.keyboard.press(key)
            try:   # the focus moves a frame after the key: wait for it to leave `here`
                page.wait_for_function(f"{focused} !== {json.dumps(here)}", timeout=2_000)
            except PlaywrightTimeout:   # it stays at the end of the list: the option is above
                key = "ArrowUp"
    page.keyboard.press("Enter")
    expect(dropdown).to_contain_text(option)
    expect(dropdown).to_be_focused()   # the list closed, the focus back on its button


def test_an_avbcw_game_is_recorded_on_the_scribe_page_with_the_keyboard_too(browser, scribe_server, empty_store,
                                                                            admin, tmp_path):
    page = open_scribe(browser, scribe_server, admin, {"width": 1300, "height": 1000})
    start_game(page, "scribe-avbcw", "Dux Bellorum conversion for A Very British Civil War (tabletop, inches)",
               "avbcw-", {"scenario": "scribe test", "date": "1938-05",
                          "sides[0].@key": "royalist", "sides[0].nation": "anglican-league", "sides[0].bloc": "other",
                          "sides[0].role": "aggressor", "sides[1].@key": "socialist",
                          "sides[1].nation": "chopwell-soviet", "sides[1].bloc": "other", "sides[1].role": "repeller"})
    next_event(page, "TableDefined", {"width": "48", "depth": "48"})
    # a point picked on the table, to 0.1"
    pick_on_map(page, "UnitDeployed", "royalist", "position", (24.02, 7.98), "24, 8")
    next_event(page, "UnitDeployed", {"unit": "r-inf", "facing": "0", "footprint.w": "5", "footprint.d": "2"})
    # bad input: the log's refusal beside the field it names, nothing stored
    before = last_seq(page)
    choose(page, page.locator("#event-type"), "UnitDeployed")
    choose(page, field(page, "@side"), "socialist")
    fill(page, EVENT, {"unit": "s-mil", "position": "24, 60", "facing": "180", "footprint.w": "5", "footprint.d": "2"})
    page.click("#event-submit")
    expect(error(page, "position")).to_contain_text("off the table")
    assert last_seq(page) == before
    fill(page, EVENT, {"position": "24, 22"})
    field(page, "footprint.d").press("Enter")  # Enter in a field records the event
    expect(page.locator("#event-result")).to_contain_text(f"Stored event {before + 1}.")
    next_event(page, "TurnStarted", {"turn": "1"})
    # the keyboard alone: the event type, its phase, then the Record button
    keyboard_choose(page, page.locator("#event-type"), "PhaseStarted")
    keyboard_choose(page, field(page, "phase"), "missile-fire")
    for tab in range(6):   # Tab through the form's remaining fields to its Record button
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.id") == "event-submit":
            break
    expect(page.locator("#event-submit")).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.locator("#event-result")).to_contain_text(f"Stored event {before + 3}.")
    next_event(page, "ShotFired", {"attack": "a-1", "shooter": "r-inf", "target": "s-mil", "rating": "soft",
                                   "dice": "6", "range": "13"}, side="royalist")
    roll = service_roll(page, empty_store, "scribe-avbcw", {"purpose": "DB.SHOOT", "die": "6d6", "subject": "a-1"},
                        "royalist")
    ones = roll["data"]["results"].count(1)
    # AVBCW.AMMO.LOW: "more '1's' than successful hits" is low on ammunition: as many hits as 1s is not
    next_event(page, "ShotResolved", {"attack": "a-1", "hits": str(ones), "ones": str(ones)}, side="royalist")
    next_event(page, "PhaseStarted", {"phase": "move"})
    # the mistake: the unit that shot moves (AVBCW.MOVE.NOSHOOT), its path started where it stands
    choose(page, page.locator("#event-type"), "UnitMoved")
    choose(page, field(page, "@side"), "royalist")
    choose(page, field(page, "unit"), "r-inf")
    for attempt in range(4):   # a click lost while the map is drawn again leaves the path empty
        click_map(page, 24.0, 12.0)
        try:
            expect(field(page, "path")).not_to_have_value("", timeout=5_000)
            break
        except AssertionError:
            continue
    expect(field(page, "path")).to_have_value("24, 8\n24, 12")
    moved = next_event(page, "UnitMoved", {})
    flagged(page, moved, "violation", "AVBCW.MOVE.NOSHOOT")
    correct_at_table(page, moved, "AVBCW.MOVE.NOSHOOT", "royalist", {"unit": "r-inf", "path": "24, 12\n24, 8"})
    done(page)

    report = export_and_audit(scribe_server, admin, "scribe-avbcw", tmp_path)
    assert [line["type"] for line in report["lines"]][-3:] == ["UnitMoved", "DisputeRaised", "RulingIssued"]
    assert report["lines"][roll["seq"] - 1]["data"]["source"] == "service"
    assert report["lines"][1]["data"] == {"width": 48, "depth": 48, "features": []}
    # the move after shooting, and the Bravery test it lacks ("3. Move units (... Test Bravery for each unit)")
    assert report["exit"] == 1
    assert mistakes(report) == {(moved, "AVBCW.MOVE.NOSHOOT", "violation"), (moved, "AVBCW.TURN", "violation")}, \
        report["findings"]


def test_a_mogdonazia_game_is_recorded_on_a_phone_and_corrected_on_the_disputes_page(browser, scribe_server,
                                                                                     empty_store, admin, tmp_path):
    page = open_scribe(browser, scribe_server, admin, PHONE)
    start_game(page, "scribe-mog", "Landships of Mogdonazia, for The Sword and The Flame (tabletop, inches)", "mog-",
               {"scenario": "scribe test", "date": "1890-06",
                "sides[0].@key": "mogdonazia", "sides[0].nation": "mogdonazia", "sides[0].bloc": "other",
                "sides[1].@key": "rebels", "sides[1].nation": "rebels", "sides[1].bloc": "other"})
    next_event(page, "TableDefined", {"width": "72", "depth": "48"})
    next_event(page, "DeckDefined", {"deck": "main", "cards": "standard-52"})
    pick_on_map(page, "UnitDeployed", "mogdonazia", "position", (10.0, 24.0), "10, 24")
    next_event(page, "UnitDeployed", {"unit": "m-1", "facing": "90", "class": "figures", "type": "egyptian-infantry",
                                      "figures": "20", "footprint.w": "10", "footprint.d": "2"})
    next_event(page, "TurnStarted", {"turn": "1"})
    next_event(page, "PhaseStarted", {"phase": "movement"})
    # one screen wide, large targets
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert page.locator("#event-submit").bounding_box()["height"] >= 44
    roll = service_roll(page, empty_store, "scribe-mog", {"purpose": "TSATF.MOVE", "die": "2d6", "subject": "m-1"},
                        "mogdonazia")
    card = {"deck": "main", "card": "AS", "for": "TSATF.ACTIVATION", "subject": "mogdonazia"}
    next_event(page, "CardDrawn", card, side="mogdonazia")
    # the mistake: a card drawn again while out of the deck (game-log-tabletop.md, Cards: a violation of <for>.DECK)
    drawn = next_event(page, "CardDrawn", {**card, "subject": "rebels"}, side="rebels")
    flagged(page, drawn, "violation", "TSATF.ACTIVATION.DECK")
    # corrected on the Disputes page, its correction built with the same form
    page.get_by_role("link", name="disputes").click()
    choose(page, page.locator("#dispute-about"), re.compile(rf"^{drawn} · T1 movement"))
    page.fill("#dispute-claim", "the ace of spades was drawn already")
    page.click("#dispute-raise")
    expect(page.locator("#dispute-raise-result")).to_contain_text("raised")
    choose(page, page.locator("#ruling-dispute"), re.compile("the ace of spades"))
    page.get_by_label("overturned").check()
    choose(page, page.locator("#ruling-fix-type"), "CardDrawn")
    choose(page, field(page, "@side", "ruling-fix"), "rebels")
    fill(page, "ruling-fix", {**card, "card": "KS", "subject": "rebels"})
    field(page, "subject", "ruling-fix").press("Enter")  # Enter in a correction's field adds it
    expect(page.locator("#ruling-fix-list")).to_contain_text("KS")
    page.click("#ruling-issue")
    expect(page.locator("#ruling-result")).to_contain_text("Ruling on")
    done(page)

    report = export_and_audit(scribe_server, admin, "scribe-mog", tmp_path)
    assert report["lines"][roll["seq"] - 1]["data"]["source"] == "service"
    assert report["lines"][-1]["data"]["corrections"] == [
        {"type": "CardDrawn", "side": "rebels", "data": {**card, "card": "KS", "subject": "rebels"}}]
    assert report["exit"] == 1 and mistakes(report) == {(drawn, "TSATF.ACTIVATION.DECK", "violation")}
