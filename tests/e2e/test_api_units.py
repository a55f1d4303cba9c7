"""GET /api/games/{game}/units/{unit} and /elements/{element}: an aggregate's present state and
its history, read from its own stored events, on both stores."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from api.deps import services_for
from tests.conftest import SPEC
from tests.e2e.api_helpers import issue

CASES = Path(__file__).resolve().parents[1] / "acceptance" / "cases"
UNIT_CHANGES = {"UnitDeployed": "deployed", "UnitMoved": "moved", "UnitStatusChanged": "status-changed"}


def imported(client, db: str, path: Path) -> list[dict]:
    """Import a log through the API; its lines as objects."""
    text = path.read_text(encoding="utf-8")
    assert client.post("/api/import", content=text.encode(), headers=issue(db, "admin")).status_code == 201
    return [json.loads(t) for t in text.splitlines() if t.strip()]


def test_a_unit_shows_where_it_stands_and_one_entry_per_line_that_changed_it(client, api_db):
    lines = imported(client, api_db, SPEC / "examples" / "resistance-turns.jsonl")
    game, mine = lines[0]["game"], [l for l in lines if l["type"] in UNIT_CHANGES and l["data"]["unit"] == "g-1"]
    answer = client.get(f"/api/games/{game}/units/g-1", headers=issue(api_db, "viewer"))
    assert answer.status_code == 200, answer.text
    unit = answer.json()
    assert [(e["seq"], e["change"]) for e in unit["history"]] == [(l["seq"], UNIT_CHANGES[l["type"]]) for l in mine]
    deployed = mine[0]["data"]
    assert (unit["side"], unit["class"], unit["position"]) == (mine[0]["side"], deployed["class"], None)
    moves = [l["data"]["path"][-1] for l in mine if l["type"] == "UnitMoved"]
    assert unit["location"] == (moves[-1] if moves else deployed["location"])
    assert unit["statuses"] == [l["data"]["status"] for l in mine if l["type"] == "UnitStatusChanged"]
    assert (unit["deployed_seq"], unit["last_seq"]) == (mine[0]["seq"], mine[-1]["seq"])


def test_a_tabletop_unit_has_a_position_in_inches_and_its_path(client, api_db):
    lines = imported(client, api_db, SPEC / "examples-tabletop" / "avbcw-example.jsonl")
    move = [l for l in lines if l["type"] == "UnitMoved" and l["data"]["unit"] == "s-car"][-1]
    unit = client.get("/api/games/avbcw-example/units/s-car", headers=issue(api_db, "viewer")).json()
    assert (unit["location"], unit["position"]) == (None, move["data"]["path"][-1])
    assert unit["history"][-1] == {"seq": move["seq"], "change": "moved", "path": move["data"]["path"],
                                   "at": move["data"]["path"][-1], "status": None,
                                   "mode": move["data"].get("mode", "normal")}


def test_an_element_that_spent_beyond_its_points_is_shown_overspent(client, api_db):
    # rules-catalogue.md, IM.ART.AMMOCON.COST: the cap is the auditor's to judge; the element keeps the count.
    lines = imported(client, api_db, CASES / "ammo-points-over-cap.jsonl")
    budget = next(l["data"]["artillery_points"] for l in lines if l["type"] == "ArtilleryElementAssigned")
    spends = [l for l in lines if l["type"] == "ArtilleryPointsSpent"]
    answer = client.get("/api/games/ammo-points-over-cap/elements/obm-1", headers=issue(api_db, "viewer"))
    assert answer.status_code == 200, answer.text
    obm, total = answer.json(), sum(l["data"]["points"] for l in spends)
    assert (obm["points_spent"], obm["points_left"], obm["overspent"]) == (total, budget - total, True)
    assert (obm["eliminated"], obm["eliminated_seq"]) == (False, None)
    running = [sum(l["data"]["points"] for l in spends[:i + 1]) for i in range(len(spends))]
    assert [(e["seq"], e["points_spent"], e["points_left"]) for e in obm["history"][1:]] == \
           [(l["seq"], r, budget - r) for l, r in zip(spends, running)]


def test_an_eliminated_element_names_the_line_that_eliminated_it(client, api_db):
    lines = imported(client, api_db, CASES / "counter-battery-natural-two-eliminates.jsonl")
    gone = next(l for l in lines if l["type"] == "ArtilleryElementEliminated")
    game, element = gone["game"], gone["data"]["element"]
    obm = client.get(f"/api/games/{game}/elements/{element}", headers=issue(api_db, "viewer")).json()
    assert (obm["eliminated"], obm["eliminated_seq"]) == (True, gone["seq"])
    assert obm["history"][-1]["change"] == "eliminated"


def test_the_read_never_reads_the_games_log(client, api_db, monkeypatch):
    imported(client, api_db, SPEC / "examples" / "first-turn-barrage.jsonl")
    ledger = services_for(api_db).ledger

    def refuse(*args, **kwargs):
        raise AssertionError("the unit read went through the game's log")

    monkeypatch.setattr(ledger, "lines", refuse)
    monkeypatch.setattr(ledger, "iter_lines", refuse)
    viewer = issue(api_db, "viewer")
    assert client.get("/api/games/first-turn-barrage/units/g-1", headers=viewer).status_code == 200
    assert client.get("/api/games/first-turn-barrage/elements/obm-1", headers=viewer).status_code == 200


@pytest.mark.parametrize("path,kind", [
    ("/api/games/nope/units/g-1", "unknown-game"),
    ("/api/games/first-turn-barrage/units/nobody", "unknown-unit"),
    ("/api/games/first-turn-barrage/elements/nothing", "unknown-element"),
    ("/api/games/first-turn-barrage/units/obm-1", "unknown-unit"),      # an element is not a unit
    ("/api/games/first-turn-barrage/elements/g-1", "unknown-element"),  # nor a unit an element
])
def test_an_unknown_game_unit_or_element_is_404(client, api_db, path, kind):
    imported(client, api_db, SPEC / "examples" / "first-turn-barrage.jsonl")
    answer = client.get(path, headers=issue(api_db, "viewer"))
    assert answer.status_code == 404 and answer.json()["type"].endswith("/" + kind), answer.text


def test_a_token_of_another_game_is_403_and_no_token_401(client, api_db):
    imported(client, api_db, SPEC / "examples" / "first-turn-barrage.jsonl")
    other = issue(api_db, "viewer", game="another-game")
    for path in ("/api/games/first-turn-barrage/units/g-1", "/api/games/first-turn-barrage/elements/obm-1"):
        assert client.get(path, headers=other).status_code == 403
        assert client.get(path).status_code == 401
        assert client.get(path, headers=issue(api_db, "viewer", game="first-turn-barrage")).status_code == 200


@pytest.mark.parametrize("case", ["ammo-points-over-cap", "counter-battery-natural-two-eliminates"])
def test_the_aggregates_agree_with_the_board_of_the_same_game(client, api_db, case):
    # Two folds of one log: the board (GET /state) from the game's lines, the reads from the aggregates.
    lines = imported(client, api_db, CASES / f"{case}.jsonl")
    viewer, game = issue(api_db, "viewer"), lines[0]["game"]
    board = client.get(f"/api/games/{game}/state", headers=viewer).json()
    assert board["elements"] and board["units"]
    for name, shown in board["elements"].items():
        read = client.get(f"/api/games/{game}/elements/{name}", headers=viewer).json()
        assert {k: read[k] for k in shown} == shown
    for name, shown in board["units"].items():
        read = client.get(f"/api/games/{game}/units/{name}", headers=viewer).json()
        assert (read["side"], read["class"], read["location"]) == (shown["side"], shown["class"], shown["location"])
