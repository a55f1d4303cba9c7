"""Who the dashboard serves: a real `umpire serve` over a store of two games, asked as nobody, as
a viewer bound to one game, with a revoked token, and with `--public-read`. The Dash requests are
the browser's own (`/_dash-update-component`), sent with httpx; one browser test walks the sign-in."""
from __future__ import annotations

import re
from typing import Iterator

import httpx
import pytest
from playwright.sync_api import expect

from api.cli_app import open_ledger
from api.deps import services_for
from dashboard import ids
from tests.conftest import EXAMPLES
from tests.e2e.api_helpers import Server
from tests.e2e.test_dashboard_browser import browser, running, sign_in, stored, token_cookie  # noqa: F401

# A: the bound token's game; B: another one, the only one with artillery rows for the analytics charts
SEEN, HIDDEN = "first-turn-barrage", "resistance-turns"


@pytest.fixture(scope="module")
def store(tmp_path_factory) -> Iterator[str]:
    yield from stored(tmp_path_factory, "dashboard-auth", [EXAMPLES / f"{game}.jsonl" for game in (SEEN, HIDDEN)])


@pytest.fixture(scope="module")
def private(store) -> Iterator[Server]:
    yield from running(store)


@pytest.fixture(scope="module")
def public(store) -> Iterator[Server]:
    yield from running(store, "--public-read")


def token(store: str, role: str, game: str | None = None, side: str | None = None) -> str:
    return services_for(store).tokens.issue(role, game, side)[0]


def callback(server: Server, outputs: list[tuple[str, str]], inputs: list[tuple[str, str, object]],
             state: list[tuple[str, str, object]] = (), cookie: str | None = None) -> httpx.Response:
    """POST /_dash-update-component as the browser sends it."""
    names = [f"{i}.{p}" for i, p in outputs]
    body = {"output": names[0] if len(names) == 1 else ".." + "...".join(names) + "..",
            "outputs": [{"id": i, "property": p} for i, p in outputs],
            "inputs": [{"id": i, "property": p, "value": v} for i, p, v in inputs],
            "state": [{"id": i, "property": p, "value": v} for i, p, v in state],
            "changedPropIds": [f"{inputs[0][0]}.{inputs[0][1]}"]}
    cookies = {"umpire_token": cookie} if cookie else None
    return httpx.post(f"{server.url}/_dash-update-component", json=body, cookies=cookies, timeout=30)


def page_content(server: Server, path: str, cookie: str | None = None) -> httpx.Response:
    """What Dash's page router answers for `path` (the games list at "/")."""
    return callback(server, [("_pages_content", "children"), ("_pages_store", "data")],
                    [("_pages_location", "pathname", path), ("_pages_location", "search", "")], cookie=cookie)


def replay_step(server: Server, game: str, cookie: str | None = None) -> httpx.Response:
    """The replay's step callback, asked for event 2 of `game`."""
    return callback(server, [("replay-map", "figure"), ("replay-position", "children"),
                             ("replay-event-text", "children"), ("replay-rules", "children")],
                    [("replay-seq", "data", {"seq": 2, "ruled": False}), ("replay-findings-only", "value", [])],
                    [("replay-game", "data", {"game": game, "last": 50})], cookie=cookie)


def charts(server: Server, cookie: str) -> httpx.Response:
    """The analytics charts' callback, unfiltered (the games' ids are the charts' hover labels)."""
    return callback(server, [(chart, "figure") for chart in ids.CHARTS + ids.MACHINE_CHARTS],
                    [("an-scenario", "value", []), ("an-side", "value", []), ("an-year", "value", [])],
                    cookie=cookie)


def test_without_a_token_the_dashboard_serves_no_game(private):
    for path in ("/", f"/replay/{SEEN}"):
        answer = page_content(private, path)
        assert answer.status_code == 401
        assert SEEN not in answer.text and HIDDEN not in answer.text
    assert replay_step(private, SEEN).status_code == 401
    assert httpx.get(f"{private.url}/_dash-layout").status_code == 401
    page = httpx.get(f"{private.url}/replay/{SEEN}?seq=3")
    assert page.status_code == 302
    assert page.headers["location"] == f"/sign-in?next=%2Freplay%2F{SEEN}%3Fseq%3D3"
    sign_in_page = httpx.get(f"{private.url}/sign-in")
    assert sign_in_page.status_code == 200 and 'name="token"' in sign_in_page.text
    assert SEEN not in sign_in_page.text and HIDDEN not in sign_in_page.text


def test_an_unknown_or_revoked_token_is_nobody(private, store):
    assert page_content(private, "/", cookie="umpire_nothere_secret").status_code == 401
    viewer = token(store, "viewer")
    assert page_content(private, "/", cookie=viewer).status_code == 200
    services_for(store).tokens.revoke(viewer)
    answer = page_content(private, "/", cookie=viewer)
    assert answer.status_code == 401 and SEEN not in answer.text


def test_a_token_bound_to_one_game_reads_that_game_only(private, store):
    bound = token(store, "viewer", SEEN)
    games = page_content(private, "/", cookie=bound)
    assert games.status_code == 200
    assert SEEN in games.text and HIDDEN not in games.text

    for path in (f"/replay/{HIDDEN}", f"/disputes/{HIDDEN}"):
        refused = page_content(private, path, cookie=bound).text
        assert f"Game '{HIDDEN}' is not available to this token." in refused
        assert "replay-map" not in refused and "dispute-list" not in refused
    seen = replay_step(private, SEEN, cookie=bound).json()["response"]
    assert seen["replay-position"]["children"].startswith("event 2 of")
    hidden = replay_step(private, HIDDEN, cookie=bound).json()["response"]
    assert hidden == {"replay-position": {"children": "this game is not available to this token"}}

    analytics, everyone = charts(private, bound), charts(private, token(store, "viewer"))
    assert analytics.status_code == everyone.status_code == 200
    assert HIDDEN not in analytics.text and HIDDEN in everyone.text


def test_public_read_serves_every_game_to_anyone_but_writes_need_a_token(public, store):
    games = page_content(public, "/")
    assert games.status_code == 200 and SEEN in games.text and HIDDEN in games.text
    assert "Public read: anyone who can reach this server can read every game." in \
        httpx.get(f"{public.url}/_dash-layout").text
    before = len(open_ledger(store).lines(SEEN))
    raised = callback(public, [("dispute-raise-result", "children"), ("dispute-refresh", "data")],
                      [("dispute-raise", "n_clicks", 1)],
                      [("dispute-about", "value", 2), ("dispute-claim", "value", "not so"),
                       ("dispute-game", "data", {"game": SEEN}), ("dispute-refresh", "data", 0)])
    assert raised.status_code == 200
    assert "sign in with a player token to do this" in raised.text
    assert len(open_ledger(store).lines(SEEN)) == before


def test_the_browser_signs_in_sees_its_game_only_and_signs_out(browser, private, store):  # noqa: F811
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    page = context.new_page()
    page.base = private.url
    page.goto(f"{private.url}/")
    expect(page).to_have_url(re.compile(r"/sign-in$"))
    page.fill("#token", "umpire_wrong_token")
    page.click("#sign-in-submit")
    expect(page.locator("#sign-in-error")).to_have_text("unknown or revoked token")

    sign_in(page, token(store, "viewer", SEEN))
    rows = page.locator("#games-table .game-row")
    expect(rows).to_have_count(1)
    expect(rows).to_contain_text(SEEN)
    expect(page.locator("#who")).to_contain_text(f"viewer of game {SEEN}")
    assert [c for c in context.cookies() if c["name"] == "umpire_token"][0]["httpOnly"]
    page.goto(f"{private.url}/replay/{HIDDEN}")
    expect(page.locator(".missing")).to_contain_text(f"Game '{HIDDEN}' is not available to this token.")

    page.click("#sign-out")
    expect(page).to_have_url(re.compile(r"/sign-in$"))
    page.goto(f"{private.url}/replay/{SEEN}")
    expect(page).to_have_url(re.compile(r"/sign-in\?next="))
    context.close()


def test_the_public_page_says_it_is_public(browser, public, store):  # noqa: F811
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    context.add_cookies([token_cookie(public.url, "umpire_revoked_or_never_issued")])
    page = context.new_page()
    page.goto(f"{public.url}/")
    expect(page.locator("#public-banner")).to_have_text(
        "Public read: anyone who can reach this server can read every game.")
    expect(page.locator("#games-table .game-row")).to_have_count(2)
    expect(page.locator("#who")).to_have_text("not signed in")
    context.close()
