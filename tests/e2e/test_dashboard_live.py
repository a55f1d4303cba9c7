"""Following a game live on the dashboard: a real `umpire serve`, one browser context records
through the API while another watches the replay page and the games list update within a couple
of seconds, without a reload and without the browser polling. And who may open the dashboard's
feeds (the sign-in cookie, or anyone on a public store)."""
from __future__ import annotations

from typing import Iterator

import plotly.graph_objects as go
import pytest
from dash import no_update
from playwright.sync_api import Page, expect

from api.app import create_app
from api.deps import close_services, services_for
from dashboard.data import data_for
from dashboard.pages.replay import game_store, grown_outputs
from tests.e2e.api_helpers import Server, issue, next_event, small_game
from tests.e2e.test_api_stream import call_and_leave
from tests.e2e.test_dashboard_browser import browser, running, token_cookie  # noqa: F401

GAME, NEW_GAME = "live-1", "live-2"
SOON = 2_000  # ms: within a second of the append, with room for a loaded machine


@pytest.fixture(scope="module")
def store(tmp_path_factory) -> Iterator[str]:
    db = str(tmp_path_factory.mktemp("dashboard-live") / "umpire.db")
    services_for(db)
    yield db
    close_services(db)


@pytest.fixture(scope="module")
def server(store) -> Iterator[Server]:
    yield from running(store)


def watcher(browser, server: Server, store: str, path: str, shown: str) -> Page:  # noqa: F811
    """A page of its own browser context, signed in with a viewer token, at `path` once `shown` is
    drawn; its window is marked, so that a reload would show."""
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    context.add_cookies([token_cookie(server.url, services_for(store).tokens.issue("viewer")[0])])
    page = context.new_page()
    page.goto(server.url + path)
    page.wait_for_selector(shown)
    page.evaluate("window.notReloaded = true")
    return page


@pytest.mark.browser
def test_the_replay_and_the_games_list_follow_appends_made_in_another_browser(browser, server, store):  # noqa: F811
    admin = issue(store, "admin")
    recorder_context = browser.new_context()
    recorder = recorder_context.request
    created = recorder.post(f"{server.url}/api/games/{GAME}/events", headers=admin,
                            data={"events": small_game(GAME).lines})
    assert created.status == 201
    board = "#replay-map .js-plotly-plot .main-svg"
    at_last = watcher(browser, server, store, f"/replay/{GAME}", board)
    earlier = watcher(browser, server, store, f"/replay/{GAME}?seq=2", board)
    games = watcher(browser, server, store, "/", "#games-table")
    expect(at_last.locator("#replay-position")).to_contain_text("event 6 of 6")
    expect(earlier.locator("#replay-position")).to_contain_text("event 2 of 6")
    row = games.locator("#games-table .game-row").filter(has_text=GAME)
    expect(row.locator("td").nth(4)).to_have_text("6")
    assert recorder.post(f"{server.url}/api/games/{GAME}/events", headers=admin,
                         data={"events": [next_event(GAME, 7)]}).status == 201
    # the viewer at the last event follows to the new one; the other stays where it was
    expect(at_last.locator("#replay-position")).to_contain_text("event 7 of 7", timeout=SOON)
    expect(at_last.locator("#replay-events .event-row.current")).to_have_attribute("data-seq", "7")
    expect(at_last.locator("#replay-summary")).to_contain_text("7 events")
    expect(at_last).to_have_url(f"{server.url}/replay/{GAME}?seq=7")
    expect(earlier.locator("#replay-position")).to_contain_text("event 2 of 7", timeout=SOON)
    expect(earlier.locator('#replay-events .event-row[data-seq="7"]')).to_be_visible()
    expect(row.locator("td").nth(4)).to_have_text("7", timeout=SOON)

    # a game started meanwhile appears in the list
    assert recorder.post(f"{server.url}/api/games/{NEW_GAME}/events", headers=admin,
                         data={"events": small_game(NEW_GAME).lines[:1]}).status == 201
    expect(games.locator("#games-table .game-row").filter(has_text=NEW_GAME)).to_have_count(1, timeout=SOON)

    # no reload, and no loop asking the server: once the pages are drawn, they send nothing
    requests: list[str] = []
    for page in (at_last, earlier, games):
        assert page.evaluate("window.notReloaded") is True
        page.on("request", lambda r: requests.append(r.url))
    at_last.wait_for_timeout(1_500)
    assert requests == []
    for page in (at_last, earlier, games):
        page.context.close()
    recorder_context.close()


# -- the feeds' doors ----------------------------------------------------------------------------------
def opening(app, path: str, cookie: str | None = None) -> tuple[int, dict[str, str], bytes]:
    """The answer's status, headers and first bytes (a stream is left after them)."""
    headers = ((b"cookie", f"umpire_token={cookie}".encode()),) if cookie else ()
    return call_and_leave(app, path, headers=headers)


@pytest.fixture
def small_store(tmp_path) -> Iterator[str]:
    db = str(tmp_path / "umpire.db")
    services_for(db).ledger.append(GAME, small_game(GAME).lines)
    yield db
    close_services(db)


def test_a_feed_reads_as_the_dashboard_does(small_store):
    private, public = create_app(small_store), create_app(small_store, public_read=True)
    viewer, elsewhere = (services_for(small_store).tokens.issue("viewer", game)[0] for game in (None, "other"))
    status, headers, body = opening(private, f"/live/games/{GAME}", viewer)
    assert (status, headers["content-type"].split(";")[0]) == (200, "text/event-stream")
    assert body.startswith(b"retry: 1000\n\n")
    assert opening(private, f"/live/games/{GAME}")[0] == 401               # nobody signed in
    assert opening(private, f"/live/games/{GAME}", "umpire_revoked")[0] == 401
    assert opening(private, f"/live/games/{GAME}", elsewhere)[0] == 403    # a token of another game
    assert opening(private, "/live/games/no-such-game", viewer)[0] == 404
    assert opening(private, "/live/games")[0] == 401
    assert opening(public, f"/live/games/{GAME}")[0] == 200                # --public-read: anyone
    assert opening(public, "/live/games")[0] == 200


# -- what the replay page changes when its game grew -------------------------------------------------
def test_a_grown_game_moves_the_viewer_at_the_end_and_keeps_the_others_in_place(small_store):
    data = data_for(small_store)
    before = game_store(data, data.view(GAME))
    services_for(small_store).ledger.append(GAME, [next_event(GAME, 7)])
    grown = data.view(GAME)
    store, seq, last, _, slider, _, rows, position, _, summary, _, figure = grown_outputs(
        data, grown, before, {"seq": 6, "ruled": False})
    assert (store["last"], seq, last, slider, position) == (7, {"seq": 7, "ruled": False}, 7, 7, no_update)
    assert 'class="event-row current" data-seq="7"' in rows and summary.endswith("7 events")
    assert figure is no_update              # a roll changes no terrain: the step redraws the units only
    kept = grown_outputs(data, grown, before, {"seq": 2, "ruled": False})
    assert (kept[1], kept[4], kept[7]) == (no_update, no_update, "event 2 of 7 · turn 0 · setup")


def test_a_grown_game_redraws_the_whole_board_when_its_terrain_changed(tmp_path):
    db = str(tmp_path / "umpire.db")
    lines = small_game(GAME).lines
    services_for(db).ledger.append(GAME, lines[:1])          # GameStarted: no map yet
    data = data_for(db)
    before = game_store(data, data.view(GAME))
    services_for(db).ledger.append(GAME, lines[1:])          # the map and the units
    outputs = grown_outputs(data, data.view(GAME), before, {"seq": 1, "ruled": False})
    assert outputs[0]["board"] != before["board"]
    assert isinstance(outputs[-1], go.Figure) and outputs[1] == {"seq": 6, "ruled": False}
    close_services(db)
