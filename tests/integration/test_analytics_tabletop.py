"""The tabletop analytics on SQLite and PostgreSQL: the demo games' and the spec examples' rows as
their logs and the rulebooks give them, taken once, the same after a rebuild, and answered by the
CLI and the API as JSON and CSV."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from projections.analytics import (QUERIES, TABLETOP_QUERIES, VERSION, META,
                                   AnalyticsProjection, to_csv)
from tests.analytics_helpers import resistance_game
from tests.integration.test_analytics import store, store_lines  # noqa: F401 (store: the fixture)

ROOT = Path(__file__).resolve().parents[2]
SPEC = ROOT.parent / "shared" / "spec" / "examples-tabletop"
GAMES = {"avbcw-derwent-1938": ROOT / "fixtures/games/avbcw-derwent-1938.jsonl",
         "mog-1890-kessarine-road": ROOT / "fixtures/games/mog-1890-kessarine-road.jsonl",
         "avbcw-example": SPEC / "avbcw-example.jsonl", "mog-example": SPEC / "mog-example.jsonl"}


@pytest.fixture
def games(ledger):
    for path in GAMES.values():
        ledger.import_lines(path.read_text(encoding="utf-8").splitlines())
    return GAMES


def answers(ledger, store, game=None) -> dict[str, list]:
    return {kind: query(ledger, store, game)["rows"] for kind, query in TABLETOP_QUERIES.items()}


def lines_of(game: str) -> list[dict]:
    return [json.loads(line) for line in GAMES[game].read_text(encoding="utf-8").splitlines()]


def test_avbcw_rows_follow_the_demo_game(ledger, store, games):
    rows = answers(ledger, store, "avbcw-derwent-1938")
    log = lines_of("avbcw-derwent-1938")
    # AVBCW, Low on ammo: every AmmoStateChanged low or exhausted the game records is counted once.
    recorded = [line for line in log if line["type"] == "AmmoStateChanged" and line["data"]["state"] != "normal"]
    assert sum(r["recorded_low"] for r in rows["avbcw-low-ammo"]) == len(recorded)
    assert sum(r["attacks"] for r in rows["avbcw-low-ammo"]) == sum(1 for line in log if line["type"] == "ShotResolved")
    # "more '1's' than successful hits": the text's verdict agrees with what the players recorded here.
    assert sum(r["low_by_text"] for r in rows["avbcw-low-ammo"]) == len(recorded)
    soon = {r["unit"]: r for r in rows["avbcw-first-low"]}
    assert (soon["s-mil"]["first_low_turn"], soon["s-mil"]["exhausted_turn"]) == (1, 3)
    assert (soon["r-lmg"]["first_low_turn"], soon["r-lmg"]["exhausted_turn"]) == (4, 6)
    # "return all unused LPs to players": the points placed and the points returned, per side.
    placed = sum(line["data"]["points"] for line in log if line["type"] == "LeadershipPointsPlaced")
    assert sum(r["points"] for r in rows["avbcw-leadership"] if r["event"] == "placed") == placed
    # "remains suppressed until it succeeds a BRV test to move": s-irr suppressed in turn 2, free in turn 3.
    assert [(r["unit"], r["from_turn"], r["to_turn"], r["ended_by"]) for r in rows["avbcw-suppression"]] == [
        ("s-irr", 2, 3, "unsuppressed"), ("s-mil", 3, 4, "unsuppressed")]


def test_mog_rows_follow_the_demo_game_and_the_example(ledger, store, games):
    rows = answers(ledger, store)
    tests = {(r["game"], r["terrain"]): r for r in rows["mog-breakdowns"]}
    # MOG, A.2 "On road 6": five road tests of l-1, none broke down; the text expects 5/6 of one.
    road = tests[("mog-1890-kessarine-road", "road")]
    assert (road["rolls"], road["successes"], road["odds"], road["expected"]) == (5, 0, 0.1667, 0.8333)
    # The tabletop page's example tests off road ("Off road 5-6").
    assert tests[("mog-example", "off-road")]["odds"] == 0.3333
    by_card = {(r["card"], r["outcome"]): r for r in rows["mog-criticals"]}
    # D.2, small arms: "Ace card- Criticals": the ace of hearts on l-1 brought the chart's 3 (gears hit).
    assert by_card[("AH", "critical")]["critical_results"] == [3]
    assert by_card[("7C", "none")]["draws"] == 1
    assert rows["mog-lost-turns"] == []   # nothing broke down and no repair in these games


def test_taken_once_and_the_same_after_a_rebuild(ledger, store, games):
    projection = AnalyticsProjection(ledger, store)
    projection.catch_up(page=7)
    before = answers(ledger, store)
    assert projection.catch_up() == 0 and answers(ledger, store) == before
    assert all(before[kind] for kind in ("avbcw-low-ammo", "avbcw-leadership", "mog-breakdowns", "mog-criticals"))
    projection.rebuild(page=1000)
    assert answers(ledger, store) == before
    assert projection.problems() == []


def test_a_store_taken_by_the_older_analytics_is_taken_again(ledger, store, games):
    store_lines(ledger, resistance_game())
    projection = AnalyticsProjection(ledger, store)
    projection.catch_up()
    im = {kind: query(ledger, store)["rows"] for kind, query in QUERIES.items()}
    tabletop = answers(ledger, store)
    with store.transaction() as cur:   # as the analytics before the tabletop rows left it
        cur.execute("DELETE FROM umpire_an_rows")
        cur.execute(store.q("DELETE FROM umpire_kv WHERE space = ?"), (META,))
    assert projection.position() > 0  # the rows are gone, the tracking position is not
    assert answers(ledger, store) == tabletop
    assert {kind: query(ledger, store)["rows"] for kind, query in QUERIES.items()} == im
    assert store.kv_get(META, "version") == VERSION


def umpire(*args: str):
    from api.cli import _load_command_modules
    from api.cli_app import app
    _load_command_modules()
    return CliRunner().invoke(app, list(args))


def test_cli_json_and_csv(ledger, store, db_url, games):
    first = umpire("analytics", "avbcw-first-low", "--db", db_url, "--game", "avbcw-derwent-1938")
    csv = umpire("analytics", "mog-breakdowns", "--db", db_url, "--format", "csv")
    unknown = umpire("analytics", "mog-criticals", "--db", db_url, "--game", "nowhere")
    assert (first.exit_code, csv.exit_code) == (0, 0), first.output + csv.output
    assert json.loads(first.output)["rows"] == answers(ledger, store, "avbcw-derwent-1938")["avbcw-first-low"]
    assert csv.output == to_csv("mog-breakdowns", answers(ledger, store)["mog-breakdowns"])
    assert csv.output.splitlines()[0] == "game,unit,vehicle,test,terrain,rolls,successes,share,odds,expected"
    assert unknown.exit_code == 2 and "no game 'nowhere'" in unknown.output


def test_api_json_and_csv(ledger, store, db_url, games):
    from fastapi.testclient import TestClient

    from api.app import create_app
    from api.deps import services_for
    client = TestClient(create_app(db_url))
    tokens = services_for(db_url).tokens
    viewer = {"Authorization": f"Bearer {tokens.issue('viewer')[0]}"}
    bound = {"Authorization": f"Bearer {tokens.issue('viewer', 'mog-example')[0]}"}
    expected = answers(ledger, store)
    for kind in TABLETOP_QUERIES:
        answer = client.get(f"/api/analytics/{kind}", headers=viewer)
        assert answer.status_code == 200 and answer.json() == json.loads(json.dumps({"rows": expected[kind], "lag": 0}))
    csv = client.get("/api/analytics/avbcw-suppression", params={"format": "csv"}, headers=viewer)
    assert csv.headers["content-type"].startswith("text/csv")
    assert csv.text == to_csv("avbcw-suppression", expected["avbcw-suppression"])
    # A token bound to one game sees that game only.
    assert {r["game"] for r in client.get("/api/analytics/mog-breakdowns", headers=bound).json()["rows"]} == \
        {"mog-example"}
    assert client.get("/api/analytics/mog-breakdowns", params={"game": "avbcw-example"},
                      headers=bound).status_code == 403
    assert client.get("/api/analytics/avbcw-supply", params={"format": "xml"}, headers=viewer).status_code == 422
    assert client.get("/api/analytics/avbcw-supply").status_code == 401
