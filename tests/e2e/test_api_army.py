"""POST /api/army/check: the army check of `umpire army check` over the API (issue 13: "the army
check work[s] from CLI, API and dashboard")."""
from __future__ import annotations

from tests.e2e.api_helpers import issue
from tests.integration.test_army_cli import LEGAL


def test_a_list_is_checked_with_its_errors_and_words(client, api_db):
    answer = client.post("/api/army/check", json={"army": LEGAL}, headers=issue(api_db, "viewer"))
    assert answer.status_code == 200, answer.text
    assert answer.json()["legal"] is True and answer.json()["costs"] == {"r-inf": 6}
    # "Bayonets @ 1 point": listed at 5, the text gives 6
    cheap = {**LEGAL, "units": [{**LEGAL["units"][0], "pts": 5}], "total": 5}
    answer = client.post("/api/army/check", json={"army": cheap}, headers=issue(api_db, "viewer")).json()
    assert answer["legal"] is False
    [error] = answer["errors"]
    assert (error["unit"], error["rule"], error["count"], error["limit"]) == ("r-inf", "AVBCW.UNIT.STATS", 5, 6)
    assert "Bayonets @ 1 point" in error["words"]


def test_not_an_army_list_is_a_422_naming_the_field(client, api_db):
    broken = {**LEGAL, "units": [{k: v for k, v in LEGAL["units"][0].items() if k != "figures"}]}
    answer = client.post("/api/army/check", json={"army": broken}, headers=issue(api_db, "viewer"))
    assert answer.status_code == 422 and answer.json()["field"] == "army.units.0"
    assert client.post("/api/army/check", json={"army": LEGAL}).status_code == 401
