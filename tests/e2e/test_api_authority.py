"""Authority inside events posted to the API (SQLite and PostgreSQL): a player records only
the player's own side (and the neutral turn and phase events), `by` and `at` are the service's,
and a service roll is made only by the roll route."""
from __future__ import annotations

import hashlib
import json
from datetime import datetime, timedelta, timezone

from tests.e2e.api_helpers import issue, next_event, small_game

EVENTS = "/api/games/g-1/events"


def create(client, db: str) -> None:
    answer = client.post(EVENTS, json={"events": small_game().lines}, headers=issue(db, "admin"))
    assert answer.status_code == 201, answer.text


def export(client, db: str) -> bytes:
    return client.get("/api/games/g-1/export", headers=issue(db, "viewer")).content


def event(seq: int, kind: str, data: dict, side=None, **extra) -> dict:
    return {"v": 1, "game": "g-1", "seq": seq, "turn": 1, "phase": "barrage", "side": side,
            "type": kind, "data": data, **extra}


def eliminate(seq: int, side) -> dict:
    return event(seq, "UnitStatusChanged", {"unit": "g-1", "status": "eliminated"}, side)


def test_a_player_may_not_eliminate_an_enemy_unit_with_a_neutral_event(client, api_db):
    create(client, api_db)
    british = issue(api_db, "player", "g-1", "british")
    before = export(client, api_db)
    refused = client.post(EVENTS, json={"events": [eliminate(7, None)]}, headers=british)
    assert refused.status_code == 403, refused.text
    assert (refused.json()["line"], refused.json()["field"]) == (1, "side")
    assert export(client, api_db) == before
    board = client.get("/api/games/g-1/state", headers=british).json()
    assert board["units"]["g-1"]["status"] != "eliminated"


def test_a_neutral_event_naming_a_unit_carries_no_players_authority(client, api_db):
    create(client, api_db)
    british = issue(api_db, "player", "g-1", "british")
    sneaky = event(7, "PhaseStarted", {"phase": "barrage", "active": "british", "unit": "g-1"}, None)
    refused = client.post(EVENTS, json={"events": [sneaky]}, headers=british)
    assert refused.status_code == 403 and refused.json()["field"] == "data.unit"


def test_a_players_own_side_may_record_illegal_play_for_the_auditor_to_judge(client, api_db):
    create(client, api_db)
    british = issue(api_db, "player", "g-1", "british")
    answer = client.post(EVENTS, json={"events": [eliminate(7, "british")]}, headers=british)
    assert answer.status_code == 201, answer.text
    # turns and phases are neutral: a player records them with side null
    neutral = [event(8, "PhaseStarted", {"phase": "air-combat", "active": "british"}, None)]
    neutral[0]["phase"] = "air-combat"
    assert client.post(EVENTS, json={"events": neutral}, headers=british).status_code == 201


def test_a_player_names_its_own_side_inside_the_data_too(client, api_db):
    create(client, api_db)
    british = issue(api_db, "player", "g-1", "british")
    declared = event(7, "ArtilleryMissionSet", {"side": "german", "mission": "gas"}, "british")
    refused = client.post(EVENTS, json={"events": [declared]}, headers=british)
    assert refused.status_code == 403 and refused.json()["field"] == "data.side"


def test_a_player_without_a_side_records_only_neutral_events(client, api_db):
    create(client, api_db)
    sideless = issue(api_db, "player", "g-1")
    refused = client.post(EVENTS, json={"events": [next_event("g-1", 7)]}, headers=sideless)
    assert refused.status_code == 403 and refused.json()["field"] == "side"


def test_by_and_at_are_the_services_and_a_claimed_recorder_is_refused(client, api_db):
    create(client, api_db)
    british = issue(api_db, "player", "g-1", "british")
    forged = client.post(EVENTS, json={"events": [next_event("g-1", 7, "british") | {"by": "referee:x"}]},
                         headers=british)
    assert forged.status_code == 422 and (forged.json()["line"], forged.json()["field"]) == (1, "by")
    sent_at = "1999-01-01T00:00:00Z"
    start = datetime.now(timezone.utc).replace(microsecond=0)
    answer = client.post(EVENTS, json={"events": [next_event("g-1", 7, "british") | {"at": sent_at}]},
                         headers=british)
    assert answer.status_code == 201, answer.text
    stored = client.get("/api/games/g-1/events?from=7", headers=british).json()["events"][0]
    assert stored["by"] == "player:british"
    stamped = datetime.strptime(stored["at"], "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=timezone.utc)
    assert start <= stamped <= datetime.now(timezone.utc) + timedelta(seconds=1)
    # nor may a dispute posted as an event claim another raiser
    claim = {"dispute": "d-1", "about": 7, "by": "referee:x", "claim": "c"}
    refused = client.post(EVENTS, json={"events": [event(8, "DisputeRaised", claim, "british")]}, headers=british)
    assert refused.status_code == 422 and refused.json()["field"] == "data.by"
    # a referee's events are stamped the same way
    referee = issue(api_db, "referee")
    assert client.post(EVENTS, json={"events": [next_event("g-1", 8, "german")]}, headers=referee).status_code == 201
    assert client.get("/api/games/g-1/events?from=8", headers=referee).json()["events"][0]["by"].startswith("referee:")


def test_an_admins_import_keeps_the_logs_own_by_and_at(client, api_db):
    log = small_game()
    for line in log.lines:
        line.update(by="alice", at="1917-04-09T05:30:00Z")
    text = "".join(json.dumps(line) + "\n" for line in log.lines).encode()
    admin = issue(api_db, "admin")
    answer = client.post("/api/import", content=text, headers={**admin, "Content-Type": "application/x-ndjson"})
    assert answer.status_code == 201, answer.text
    stored = client.get("/api/games/g-1/events", headers=admin).json()["events"]
    assert {(line["by"], line["at"]) for line in stored} == {("alice", "1917-04-09T05:30:00Z")}


def test_the_answer_gives_the_stored_head_and_a_client_continues_the_chain(client, api_db):
    log = small_game()
    admin = issue(api_db, "admin")
    created = client.post(EVENTS, json={"events": log.lines}, headers=admin).json()
    exported = export(client, api_db).splitlines()
    assert created["head"] == hashlib.sha256(exported[-1]).hexdigest()
    british = issue(api_db, "player", "g-1", "british")
    # the first event's prev is the stored head; the service stamps the batch and answers the new head
    batch = [next_event("g-1", 7, "british") | {"prev": created["head"]}, next_event("g-1", 8, "british")]
    # the lines after it are stamped by the service: a client cannot know their hashes
    refused = client.post(EVENTS, json={"events": [batch[0], batch[1] | {"prev": created["head"]}]}, headers=british)
    assert refused.status_code == 422 and (refused.json()["line"], refused.json()["field"]) == (2, "prev")
    answer = client.post(EVENTS, json={"events": batch}, headers=british)
    assert answer.status_code == 201, answer.text
    assert answer.json()["head"] == hashlib.sha256(export(client, api_db).splitlines()[-1]).hexdigest()
    wrong = next_event("g-1", 9, "british") | {"prev": created["head"]}
    refused = client.post(EVENTS, json={"events": [wrong]}, headers=british)
    assert refused.status_code == 422 and refused.json()["field"] == "prev"
    follow = next_event("g-1", 9, "british") | {"prev": answer.json()["head"]}
    assert client.post(EVENTS, json={"events": [follow]}, headers=british).status_code == 201


def test_a_retried_batch_is_recognised_after_stamping(client, api_db):
    create(client, api_db)
    british = issue(api_db, "player", "g-1", "british")
    body = {"events": [next_event("g-1", 7, "british"), next_event("g-1", 8, "british")]}
    first = client.post(EVENTS, json=body, headers={**british, "Idempotency-Key": "a"})
    assert first.status_code == 201
    # its answer lost: the same batch under a new key is recognised, not a 409, not stored twice
    retry = client.post(EVENTS, json=body, headers={**british, "Idempotency-Key": "b"})
    assert retry.status_code == 201 and retry.json() == first.json()
    assert client.get("/api/games/g-1/events", headers=british).json()["events"][-1]["seq"] == 8
    # the same lines from another recorder are not this batch: the game moved on
    referee = issue(api_db, "referee")
    assert client.post(EVENTS, json=body, headers={**referee, "Idempotency-Key": "c"}).status_code == 409


def test_a_service_roll_is_made_only_by_the_roll_route(client, api_db):
    create(client, api_db)
    british = issue(api_db, "player", "g-1", "british")
    rolled = client.post("/api/games/g-1/rolls", json={"purpose": "IM.SPOT.ROLL", "die": "d10"}, headers=british)
    assert rolled.status_code == 201
    copy = dict(rolled.json()["event"])
    for key in ("by", "at"):
        copy.pop(key)
    copy["seq"], copy["data"] = 8, {**copy["data"], "result": copy["data"]["result"] % 10 + 1}
    before = export(client, api_db)
    for role in (british, issue(api_db, "referee"), issue(api_db, "admin")):
        refused = client.post(EVENTS, json={"events": [copy]}, headers=role)
        assert refused.status_code == 403 and refused.json()["field"] == "data.source", refused.text
    assert export(client, api_db) == before
