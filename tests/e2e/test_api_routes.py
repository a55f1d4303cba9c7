"""The HTTP API through the TestClient, on SQLite and on PostgreSQL: recording, reading,
rights, conflicts, idempotency, disputes and rulings, service dice."""
from __future__ import annotations

import json

from typer.testing import CliRunner

from api import cli
from tests.builders import LogBuilder
from tests.conftest import example_lines
from tests.e2e.api_helpers import issue, next_event, small_game

cli._load_command_modules()
RUNNER = CliRunner()


def umpire(*args: str) -> str:
    result = RUNNER.invoke(cli.app, list(args))
    assert result.exit_code in (0, 1), result.output
    return result.stdout


def create(client, db, log: LogBuilder) -> dict:
    answer = client.post(f"/api/games/{log.game}/events", json={"events": log.lines}, headers=issue(db, "admin"))
    assert answer.status_code == 201, answer.text
    return answer.json()


def test_an_admin_creates_a_game_and_a_player_continues_it(client, api_db):
    log = small_game()
    created = create(client, api_db, log)
    assert {k: v for k, v in created.items() if k != "head"} == {"game": "g-1", "appended": 6, "first_seq": 1,
                                                                 "last_seq": 6, "status": "created"}
    british = issue(api_db, "player", "g-1", "british")
    answer = client.post("/api/games/g-1/events", json={"events": [next_event("g-1", 7, "british")]}, headers=british)
    assert answer.status_code == 201 and answer.json()["last_seq"] == 7
    page = client.get("/api/games/g-1/events", headers=british).json()
    assert [e["seq"] for e in page["events"]] == list(range(1, 8)) and page["next"] is None


def test_without_a_token_401_and_without_the_right_403(client, api_db):
    log = small_game()
    assert client.get("/api/games").status_code == 401
    bad = client.get("/api/games", headers={"Authorization": "Bearer nope"})
    assert bad.status_code == 401 and bad.headers["content-type"] == "application/problem+json"
    # only an admin may create a game
    for role in ("referee", "viewer"):
        assert client.post("/api/games/g-1/events", json={"events": log.lines},
                           headers=issue(api_db, role)).status_code == 403
    create(client, api_db, log)
    british = issue(api_db, "player", "g-1", "british")
    german_event = next_event("g-1", 7, "german")
    refused = client.post("/api/games/g-1/events", json={"events": [german_event]}, headers=british)
    assert refused.status_code == 403 and refused.json()["field"] == "side"
    # a viewer reads but does not write; a token of another game reaches nothing of this one
    viewer = issue(api_db, "viewer")
    assert client.get("/api/games/g-1/events", headers=viewer).status_code == 200
    assert client.post("/api/games/g-1/events", json={"events": [next_event("g-1", 7)]},
                       headers=viewer).status_code == 403
    other = issue(api_db, "player", "g-2", "british")
    assert client.get("/api/games/g-1/events", headers=other).status_code == 403
    # a referee appends any side's events
    referee = issue(api_db, "referee")
    assert client.post("/api/games/g-1/events", json={"events": [german_event]}, headers=referee).status_code == 201


def test_a_revoked_token_is_refused(client, api_db):
    headers = issue(api_db, "viewer")
    assert client.get("/api/games", headers=headers).status_code == 200
    token = headers["Authorization"].split()[1]
    assert "revoked token" in umpire("token", "revoke", token, "--db", api_db)
    assert client.get("/api/games", headers=headers).status_code == 401


def test_a_stale_batch_is_refused_with_409_and_the_last_seq(client, api_db):
    create(client, api_db, small_game())
    admin = issue(api_db, "admin")
    answer = client.post("/api/games/g-1/events", json={"events": [next_event("g-1", 5)]}, headers=admin)
    assert answer.status_code == 409
    assert answer.json()["last_seq"] == 6 and answer.json()["type"].endswith("seq-conflict")


def test_a_batch_with_a_bad_event_stores_nothing_and_names_line_and_field(client, api_db):
    create(client, api_db, small_game())
    bad = next_event("g-1", 8)
    bad["data"]["die"] = "d7"
    answer = client.post("/api/games/g-1/events", json={"events": [next_event("g-1", 7), bad]},
                         headers=issue(api_db, "admin"))
    assert answer.status_code == 422
    problem = answer.json()
    assert problem["line"] == 2 and problem["field"] == "data (DieRolled).die"
    assert client.get("/api/games/g-1/events", headers=issue(api_db, "viewer")).json()["events"][-1]["seq"] == 6


def test_malformed_bodies_are_422_problems(client, api_db):
    admin = issue(api_db, "admin")
    for body in ({"events": "x"}, {"nope": []}, {"events": ["{not json"]}, {"events": []}, {"events": [1]}):
        answer = client.post("/api/games/g-1/events", json=body, headers=admin)
        assert answer.status_code in (404, 422), (body, answer.text)
        assert set(answer.json()) >= {"type", "title", "detail"}


def test_an_unknown_game_is_404(client, api_db):
    viewer = issue(api_db, "viewer")
    for path in ("events", "export", "state", "audit", "disputes", "dice"):
        assert client.get(f"/api/games/nope/{path}", headers=viewer).status_code == 404


def test_idempotency_key_same_body_same_answer_other_body_422(client, api_db):
    create(client, api_db, small_game())
    british = issue(api_db, "player", "g-1", "british")
    key = {**british, "Idempotency-Key": "k-1"}
    body = {"events": [next_event("g-1", 7, "british")]}
    first = client.post("/api/games/g-1/events", json=body, headers=key)
    again = client.post("/api/games/g-1/events", json=body, headers=key)
    assert first.status_code == again.status_code == 201 and first.json() == again.json()
    other = client.post("/api/games/g-1/events", json={"events": [next_event("g-1", 8, "british")]}, headers=key)
    assert other.status_code == 422 and other.json()["type"].endswith("idempotency-key-reused")
    assert len(client.get("/api/games/g-1/events", headers=british).json()["events"]) == 7
    # a stored batch retried under a new key (its first answer lost) is recognised, not stored twice
    retry = client.post("/api/games/g-1/events", json=body, headers={**british, "Idempotency-Key": "k-2"})
    assert retry.status_code == 201 and retry.json() == first.json()
    # a service roll retried with its key is rolled once
    roll = {"purpose": "IM.SPOT.ROLL", "die": "d10", "subject": "b-fo"}
    rolled = [client.post("/api/games/g-1/rolls", json=roll, headers={**british, "Idempotency-Key": "r-1"})
              for _ in range(2)]
    assert rolled[0].json() == rolled[1].json()
    assert len(client.get("/api/games/g-1/events", headers=british).json()["events"]) == 8


def test_events_are_paged(client, api_db):
    create(client, api_db, small_game())
    viewer = issue(api_db, "viewer")
    page = client.get("/api/games/g-1/events?from=2&limit=3", headers=viewer).json()
    assert [e["seq"] for e in page["events"]] == [2, 3, 4] and page["next"] == 5
    last = client.get("/api/games/g-1/events?from=5&limit=3", headers=viewer).json()
    assert [e["seq"] for e in last["events"]] == [5, 6] and last["next"] is None


def test_import_export_state_and_audit_are_those_of_the_cli(client, api_db, tmp_path):
    text = "\n".join(example_lines("first-turn-barrage")) + "\n"
    admin = issue(api_db, "admin")
    imported = client.post("/api/import", content=text.encode(),
                           headers={**admin, "Content-Type": "application/x-ndjson"})
    assert imported.status_code == 201 and imported.json()["status"] == "created"
    again = client.post("/api/import", content=text.encode(), headers={**admin, "Content-Type": "text/plain"})
    assert again.status_code == 200 and again.json()["status"] == "unchanged"
    game, viewer = "first-turn-barrage", issue(api_db, "viewer")
    export = client.get(f"/api/games/{game}/export", headers=viewer)
    out = tmp_path / "out.jsonl"
    umpire("export", game, "--db", api_db, "-o", str(out))
    assert export.content == out.read_bytes() and export.content == text.encode()
    for query, args in (("", []), ("?at=12", ["--at", "12"]), ("?turn=1&phase=barrage", ["--turn", "1", "--phase", "barrage"])):
        state = client.get(f"/api/games/{game}/state{query}", headers=viewer)
        assert state.status_code == 200
        board = state.json()  # the CLI's JSON, and how far behind a worker is (none runs here)
        assert board.pop("lag") == 0
        assert board == json.loads(umpire("state", game, "--db", api_db, "--format", "json", *args))
    audit = client.get(f"/api/games/{game}/audit", headers=viewer).json()
    assert audit.pop("lag") == 0
    assert audit == json.loads(umpire("audit", game, "--db", api_db, "--format", "json"))
    assert client.get("/api/games", headers=viewer).json()[0]["game"] == game
    assert client.get(f"/api/games/{game}/state?at=1&turn=1", headers=viewer).status_code == 422
    assert client.get(f"/api/games/{game}/state?at=999", headers=viewer).status_code == 422
    assert client.get(f"/api/games/{game}/state?turn=9", headers=viewer).status_code == 404
    # importing is an admin's; a bad file is 422 naming its line
    assert client.post("/api/import", content=text.encode(), headers=issue(api_db, "referee")).status_code == 403
    bad = client.post("/api/import", content=b'{"v":1}\n', headers={**admin, "Content-Type": "text/plain"})
    assert bad.status_code == 422 and bad.json()["line"] == 1


def test_disputes_show_what_bears_on_the_event_and_rulings_answer_them(client, api_db):
    log = small_game()
    log.add("DieRolled", {"purpose": "IM.SPOT.ROLL", "die": "d10", "result": 4, "subject": "b-fo"}, side="british")
    log.add("UnitMoved", {"unit": "b-fo", "path": ["1:1203", "1:1204"]}, side="british")
    create(client, api_db, log)
    german = issue(api_db, "player", "g-1", "german")
    raised = client.post("/api/games/g-1/disputes", json={"about": 8, "claim": "moved too far"}, headers=german)
    assert raised.status_code == 201, raised.text
    event = raised.json()["event"]
    assert (event["seq"], event["side"], event["type"], event["turn"], event["phase"]) == \
        (9, "german", "DisputeRaised", 1, "barrage")
    dispute = event["data"]["dispute"]
    # a player may not rule
    ruling = {"dispute": dispute, "decision": "overturned", "rule": "IM.MOVE", "note": "one hex back",
              "corrections": [{"type": "UnitMoved", "side": "british",
                               "data": {"unit": "b-fo", "path": ["1:1204", "1:1203"]}}]}
    assert client.post("/api/games/g-1/rulings", json=ruling, headers=german).status_code == 403
    referee = issue(api_db, "referee")
    assert client.post("/api/games/g-1/rulings", json={**ruling, "dispute": "nope"}, headers=referee).status_code == 404
    ruled = client.post("/api/games/g-1/rulings", json=ruling, headers=referee)
    assert ruled.status_code == 201 and ruled.json()["event"]["data"]["corrections"] == ruling["corrections"]
    [view] = client.get("/api/games/g-1/disputes", headers=issue(api_db, "viewer")).json()["disputes"]
    assert view["about"] == 8 and view["status"] == "ruled" and view["event"]["type"] == "UnitMoved"
    assert [r["seq"] for r in view["rulings"]] == [10]
    assert [d["seq"] for d in view["dice"]] == [7]  # the roll about b-fo
    assert view["board"]["before"]["units"]["b-fo"]["location"] == "1:1203"
    assert view["board"]["after"]["units"]["b-fo"]["location"] == "1:1204"
    assert "g-1" not in view["board"]["after"]["units"]  # only what the disputed event names
    assert all(a["seq"] == 8 or 8 in a["related"] for a in view["applications"])
    # a dispute about the roll carries the rule applications that judged it
    client.post("/api/games/g-1/disputes", json={"about": 7, "claim": "cocked die", "dispute": "d-roll"}, headers=german)
    views = client.get("/api/games/g-1/disputes", headers=issue(api_db, "viewer")).json()["disputes"]
    roll_view = next(v for v in views if v["dispute"] == "d-roll")
    assert roll_view["status"] == "open" and roll_view["rulings"] == []
    assert ("IM.CORE.DICE", "ok") in {(a["rule"], a["verdict"]) for a in roll_view["applications"]}
    assert [d["seq"] for d in roll_view["dice"]] == [7]
    again = client.post("/api/games/g-1/disputes", json={"about": 7, "claim": "x", "dispute": "d-roll"}, headers=german)
    assert again.status_code == 409
    # a dispute must be about an earlier event
    later = client.post("/api/games/g-1/disputes", json={"about": 99, "claim": "x"}, headers=german)
    assert later.status_code == 422 and later.json()["field"] == "data.about"
    # a house rule may choose a reading for the game (docs/game-log-extensions.md); no other ruling may
    house = {"dispute": "d-roll", "decision": "house-rule", "interpretations": ["im-gas-duration=two-turns"]}
    wrong = client.post("/api/games/g-1/rulings", json={**house, "decision": "upheld"}, headers=referee)
    assert wrong.status_code == 422 and "house-rule" in wrong.text
    ruled = client.post("/api/games/g-1/rulings", json=house, headers=referee)
    assert ruled.status_code == 201 and ruled.json()["event"]["data"]["interpretations"] == house["interpretations"]


def test_service_dice_verify_after_the_reveal_and_a_changed_roll_fails(client, api_db, tmp_path):
    create(client, api_db, small_game())
    viewer, british = issue(api_db, "viewer"), issue(api_db, "player", "g-1", "british")
    commitment = client.get("/api/games/g-1/dice", headers=viewer).json()
    assert commitment["revealed"] is None and len(commitment["commitment"]) == 64
    rolls = [client.post("/api/games/g-1/rolls", json={"purpose": "IM.SPOT.ROLL", "die": die, "subject": "b-fo"},
                         headers=british) for die in ("d10", "d6", "2d6")]
    assert [r.status_code for r in rolls] == [201, 201, 201]
    events = [r.json()["event"] for r in rolls]
    assert all(e["data"]["source"] == "service" and e["side"] == "british" for e in events)
    assert all(e["data"]["commitment"] == commitment["commitment"] for e in events)
    assert client.post("/api/games/g-1/rolls", json={"purpose": "p", "die": "d7"}, headers=british).status_code == 422
    assert client.post("/api/games/g-1/dice/reveal", headers=british).status_code == 403
    exported = tmp_path / "g-1.jsonl"
    exported.write_bytes(client.get("/api/games/g-1/export", headers=viewer).content)
    # before the reveal there is nothing to recompute from
    assert "ok:" in umpire("verify", str(exported), "--db", api_db)
    revealed = client.post("/api/games/g-1/dice/reveal", headers=issue(api_db, "referee")).json()
    assert revealed["revealed"] and revealed["commitment"] == commitment["commitment"]
    assert client.post("/api/games/g-1/rolls", json={"purpose": "p", "die": "d6"}, headers=british).status_code == 409
    assert "ok:" in umpire("verify", str(exported), "--db", api_db)
    seed_file = tmp_path / "seed.json"
    seed_file.write_text(json.dumps(revealed))
    assert "3 service rolls match" in umpire("verify-dice", str(exported), "--seed", str(seed_file))
    # change one service roll's result (and re-chain, so that only the dice can tell)
    lines = [json.loads(t) for t in exported.read_text().splitlines()]
    target = next(l for l in lines if l["type"] == "DieRolled" and l["data"]["die"] == "d10")
    target["data"]["result"] = target["data"]["result"] % 10 + 1
    from domain.log import chain
    tampered = tmp_path / "tampered.jsonl"
    tampered.write_text("".join(t + "\n" for t in chain({k: v for k, v in l.items() if k != "prev"} for l in lines)))
    result = RUNNER.invoke(cli.app, ["verify-dice", str(tampered), "--seed", str(seed_file)])
    assert result.exit_code == 1 and f"seq {target['seq']}" in result.stdout
    # `umpire verify --seed` recomputes the service rolls too, with a store that does not hold the game
    other_store = str(tmp_path / "x.db")
    assert RUNNER.invoke(cli.app, ["token", "issue", "--role", "viewer", "--db", other_store]).exit_code == 0
    result = RUNNER.invoke(cli.app, ["verify", str(tampered), "--seed", str(seed_file), "--db", other_store])
    assert result.exit_code == 1 and f"seq {target['seq']}" in result.stdout
    result = RUNNER.invoke(cli.app, ["verify", str(exported), "--seed", str(seed_file), "--db", other_store])
    assert result.exit_code == 0, result.stdout


def test_table_dice_stay_allowed(client, api_db):
    create(client, api_db, small_game())
    roll = next_event("g-1", 7, "british")
    roll["data"]["source"] = "table"
    assert client.post("/api/games/g-1/events", json={"events": [roll]},
                       headers=issue(api_db, "player", "g-1", "british")).status_code == 201


def test_the_token_cli_prints_the_token_last(api_db):
    result = RUNNER.invoke(cli.app, ["token", "issue", "--role", "player", "--game", "g-1", "--side", "british",
                                     "--db", api_db])
    assert result.exit_code == 0
    token = result.stdout.strip().splitlines()[-1]
    from api.deps import services_for
    principal = services_for(api_db).tokens.lookup(token)
    assert (principal.role, principal.game, principal.side) == ("player", "g-1", "british")
    assert RUNNER.invoke(cli.app, ["token", "issue", "--role", "king", "--db", api_db]).exit_code == 2


def test_the_dashboard_is_served_at_the_root_and_the_api_under_api(client):
    # dashboard.app provides create_dash: create_app mounts it at / after the /api routes
    page = client.get("/")
    assert page.status_code == 200 and "text/html" in page.headers["content-type"]
    assert client.get("/api/health").json()["status"] == "ok"
    assert client.get("/api/openapi.json").json()["info"]["title"] == "Umpire"
    missing = client.get("/api/nothing-here")
    assert missing.status_code == 404 and missing.headers["content-type"] == "application/problem+json"


def test_umpire_reveal_publishes_the_seed_and_the_verify_hook_recomputes_rolls(client, api_db):
    create(client, api_db, small_game())
    british = issue(api_db, "player", "g-1", "british")
    rolled = client.post("/api/games/g-1/rolls", json={"purpose": "IM.SPOT.ROLL", "die": "d10"}, headers=british)
    assert rolled.status_code == 201
    from api.commands.dice import service_dice
    texts = client.get("/api/games/g-1/export", headers=british).text.splitlines()
    assert list(service_dice(texts, api_db)) == []  # not revealed yet: nothing to recompute from
    seed = umpire("reveal", "g-1", "--db", api_db).strip().splitlines()[-1]
    assert client.get("/api/games/g-1/dice", headers=british).json()["revealed"] == seed
    assert list(service_dice(texts, api_db)) == []
    lines = [json.loads(t) for t in texts]
    lines[-1]["data"]["result"] = lines[-1]["data"]["result"] % 10 + 1
    problems = list(service_dice([json.dumps(l) for l in lines], api_db))
    assert len(problems) == 1 and problems[0].startswith("seq 7:")
