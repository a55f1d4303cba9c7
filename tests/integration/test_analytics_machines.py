"""Infernal Machines' machines in the analytics on SQLite and PostgreSQL: the acceptance logs of the
machines and the Cambrai demo game taken by the projection, answered by the CLI and the API as JSON and
CSV, and the same after a rebuild."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from projections.analytics import MACHINE_QUERIES, AnalyticsProjection, to_csv
from tests.integration.test_analytics import store  # noqa: F401 (the fixture)
from tests.integration.test_analytics_tabletop import umpire

ROOT = Path(__file__).resolve().parents[2]
CASES = ROOT / "tests" / "acceptance" / "cases_im_machines"
LOGS = [CASES / f"{name}.jsonl" for name in ("tank-breakdown-even", "cv29-breakdown-modifier", "fascine-sequence",
                                             "blast-anti-tank-phase", "tank-hit-not-destroyed")]
LOGS.append(ROOT / "fixtures" / "games" / "cambrai-1917-flesquieres.jsonl")


@pytest.fixture
def games(ledger):
    for path in LOGS:
        ledger.import_lines(path.read_text(encoding="utf-8").splitlines())
    return LOGS


def answers(ledger, store, game=None) -> dict[str, list]:
    return {kind: query(ledger, store, game)["rows"] for kind, query in MACHINE_QUERIES.items()}


def test_rows_of_the_acceptance_logs(ledger, store, games):
    rows = answers(ledger, store)
    kinds = {r["type"]: r for r in rows["vehicle-breakdowns"]}
    # IM, Tank Breakdowns: the Mark IV broke down and its second die was even (4): "the next turn only".
    mk4 = kinds["Mark IV male"]
    assert (mk4["checks"], mk4["breakdowns"], mk4["second_dice"], mk4["even"], mk4["expected_even"]) == (1, 1, 1, 1, 0.5)
    # CV 29: "breakdown modifier of +1"; the games name the `none` pack: no Landships! table, no expected count.
    assert (kinds["Italian CV 29 Tankette"]["checks"], kinds["Italian CV 29 Tankette"]["modifier"],
            kinds["Italian CV 29 Tankette"]["expected"]) == (2, [1], None)
    (fascines,) = [r for r in rows["fascines"] if r["drop_rolls"]]
    # EC-38: a jam (2), an unjam (4), a drop (3) into 5:0504, where b-tank2 crosses.
    assert (fascines["game"], fascines["dropped"], fascines["jammed"], fascines["unjammed"], fascines["crossed_by"]) == (
        "fascine-sequence", 1, 1, 1, ["b-tank2"])
    # "any 'hit' on a tank caused by an anti-tank weapon simply destroys it"; the hit that destroyed nothing
    # in tank-hit-not-destroyed is no loss.
    assert [(r["game"], r["unit"], r["cause"]) for r in rows["vehicle-losses"]] == [
        ("blast-anti-tank-phase", "b-tank", "anti-tank")]
    assert rows["losses-by-cause"] == [{"type": "Mark IV female", "class": "tank", "tank": True, "cause": "anti-tank",
                                        "losses": 1, "games": 1}]
    projection = AnalyticsProjection(ledger, store)
    projection.rebuild(page=7)
    assert answers(ledger, store) == rows and projection.problems() == []


def test_cli_and_api_json_and_csv(ledger, store, db_url, games):
    from fastapi.testclient import TestClient

    from api.app import create_app
    from api.deps import services_for
    expected = answers(ledger, store)
    cli_json = umpire("analytics", "fascines", "--db", db_url, "--game", "fascine-sequence")
    cli_csv = umpire("analytics", "vehicle-breakdowns", "--db", db_url, "--format", "csv")
    assert (cli_json.exit_code, cli_csv.exit_code) == (0, 0), cli_json.output + cli_csv.output
    assert json.loads(cli_json.output)["rows"] == answers(ledger, store, "fascine-sequence")["fascines"]
    assert cli_csv.output == to_csv("vehicle-breakdowns", expected["vehicle-breakdowns"])
    assert cli_csv.output.splitlines()[0].startswith("type,class,checks,breakdowns,unchecked,share,modifier,expected")
    client = TestClient(create_app(db_url))
    viewer = {"Authorization": f"Bearer {services_for(db_url).tokens.issue('viewer')[0]}"}
    for kind in MACHINE_QUERIES:
        answer = client.get(f"/api/analytics/{kind}", headers=viewer)
        assert answer.status_code == 200 and answer.json() == json.loads(json.dumps({"rows": expected[kind], "lag": 0}))
        csv = client.get(f"/api/analytics/{kind}", params={"format": "csv"}, headers=viewer)
        assert csv.headers["content-type"].startswith("text/csv") and csv.text == to_csv(kind, expected[kind])
    assert client.get("/api/analytics/vehicle-losses", params={"game": "nowhere"}, headers=viewer).status_code == 404
