"""Service cards through the HTTP API (SQLite and PostgreSQL): the service shuffles a deck and
deals a card for a player of the side that draws it, with the same commit-reveal proof as its
dice (game-log-tabletop.md, Cards: "A card dealt by the service adds "source": "service" and the
verifiable-dice proof fields, its commitment given at DeckDefined / DeckShuffled"); after the
reveal `umpire verify-dice` recomputes every card and names a changed one."""
from __future__ import annotations

import json

from typer.testing import CliRunner

from api import cli
from domain.log import chain
from tests.conftest import SPEC
from tests.e2e.api_helpers import issue

cli._load_command_modules()
RUNNER = CliRunner()
GAME = "mog-example"
# the page's Mogdonazia example up to its first turn's shooting phase (seq 1-15: its deck is `main`)
SETUP = [json.loads(l) for l in (SPEC / "examples-tabletop" / "mog-example.jsonl").read_text().splitlines()][:15]


def created(client, db) -> None:
    lines = [{k: v for k, v in line.items() if k != "prev"} for line in SETUP]
    answer = client.post(f"/api/games/{GAME}/events", json={"events": lines}, headers=issue(db, "admin"))
    assert answer.status_code == 201, answer.text


def deal(client, headers, **body):
    return client.post(f"/api/games/{GAME}/cards", json={"deck": "main", "for": "MOG.FIRE.CARD",
                                                         "subject": "a-1", **body}, headers=headers)


def test_the_service_shuffles_and_deals_for_the_drawing_side_and_cards_verify_after_the_reveal(
        client, api_db, tmp_path):
    created(client, api_db)
    rebels, viewer = issue(api_db, "player", GAME, "rebels"), issue(api_db, "viewer")
    commitment = client.get(f"/api/games/{GAME}/dice", headers=viewer).json()["commitment"]
    # no service shuffle yet: the deck was defined at the table
    assert deal(client, rebels).status_code == 409
    shuffled = client.post(f"/api/games/{GAME}/decks/main/shuffle", json={"returned": "all"}, headers=rebels)
    assert shuffled.status_code == 201, shuffled.text
    shuffle = shuffled.json()["event"]
    assert shuffle["type"] == "DeckShuffled" and shuffle["side"] == "rebels"
    assert shuffle["data"]["source"] == "service" and shuffle["data"]["commitment"] == commitment
    cards = [deal(client, rebels, meaning=None) for _ in range(2)]
    assert [c.status_code for c in cards] == [201, 201]
    events = [c.json()["event"] for c in cards]
    assert all(e["type"] == "CardDrawn" and e["side"] == "rebels" and e["data"]["source"] == "service"
               and e["data"]["shuffle"] == shuffle["seq"] for e in events)
    assert [e["data"]["position"] for e in events] == [0, 1] and events[0]["data"]["card"] != events[1]["data"]["card"]
    # authority as for dice: a player draws for their own side; nobody posts a service card as an event
    assert deal(client, rebels, side="mogdonazia").status_code == 403
    assert deal(client, viewer).status_code == 403
    forged = {**{k: v for k, v in events[0].items() if k not in ("by", "at", "prev")}, "seq": events[1]["seq"] + 1}
    posted = client.post(f"/api/games/{GAME}/events", json={"events": [forged]}, headers=rebels)
    assert posted.status_code == 403 and posted.json()["field"] == "data.source"
    assert deal(client, rebels, deck="spare").status_code == 404

    exported = tmp_path / "g.jsonl"
    exported.write_bytes(client.get(f"/api/games/{GAME}/export", headers=viewer).content)
    revealed = client.post(f"/api/games/{GAME}/dice/reveal", headers=issue(api_db, "referee")).json()
    assert deal(client, rebels).status_code == 409   # the seed is out: no more secret cards
    seed_file = tmp_path / "seed.json"
    seed_file.write_text(json.dumps(revealed))
    result = RUNNER.invoke(cli.app, ["verify-dice", str(exported), "--seed", str(seed_file)])
    assert result.exit_code == 0 and "and 2 service cards" in result.stdout, result.stdout

    # change the second card (and re-chain, so that only the proof can tell)
    lines = [json.loads(t) for t in exported.read_text().splitlines()]
    target = next(l for l in lines if l["seq"] == events[1]["seq"])
    target["data"]["card"] = "2C" if target["data"]["card"] != "2C" else "3C"
    tampered = tmp_path / "tampered.jsonl"
    tampered.write_text("".join(t + "\n" for t in chain({k: v for k, v in l.items() if k != "prev"} for l in lines)))
    result = RUNNER.invoke(cli.app, ["verify-dice", str(tampered), "--seed", str(seed_file)])
    assert result.exit_code == 1 and f"seq {events[1]['seq']}:" in result.stdout, result.stdout
    # `umpire verify` with the seed recomputes the cards too (with a store that does not hold the game)
    other_store = str(tmp_path / "x.db")
    assert RUNNER.invoke(cli.app, ["token", "issue", "--role", "viewer", "--db", other_store]).exit_code == 0
    result = RUNNER.invoke(cli.app, ["verify", str(tampered), "--seed", str(seed_file), "--db", other_store])
    assert result.exit_code == 1 and f"seq {events[1]['seq']}" in result.stdout
