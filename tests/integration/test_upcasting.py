"""Schema evolution (docs/schema-evolution.md): Unit.Moved is at class version 2 (it keeps the
move's `mode`). A store written by version 1, kept as rows in fixtures/stores/ledger-v1, reads
as version 2 through the library's upcasting on both stores; an imported log (game-log.md,
format version 1) is stored as version 2; and old games export to the same bytes as before."""
from __future__ import annotations

import hashlib
import json
from pathlib import Path
from uuid import UUID

import pytest
from eventsourcing.persistence import StoredEvent
from typer.testing import CliRunner

from api.cli import app
from api.settings import ledger_env
from domain.application import Ledger
from domain.model import Unit
from domain.model.base import history
from domain.model.ids import unit_uuid
from domain.transcoder import OrjsonTranscoder
from tests.conftest import ROOT

V1 = ROOT / "fixtures" / "stores" / "ledger-v1"
MANIFEST = json.loads((V1 / "manifest.json").read_text(encoding="utf-8"))
MOVED_TOPIC = "domain.model.unit:Unit.Moved"
CHANGED_TOPIC = "domain.model.unit:Unit.Changed"


def v1_rows(name: str) -> list[StoredEvent]:
    rows = [json.loads(text) for text in (V1 / name).read_text(encoding="utf-8").splitlines()]
    return [StoredEvent(UUID(r["originator_id"]), r["originator_version"], r["topic"], r["state"].encode("utf-8"))
            for r in rows]


@pytest.fixture
def v1_store(db_url):
    """A fresh store holding the rows version 1 wrote, put in through the library's recorders."""
    ledger = Ledger(ledger_env(db_url))
    ledger.recorder.insert_events(v1_rows("stored_events.jsonl"))
    ledger.snapshots.recorder.insert_events(v1_rows("stored_snapshots.jsonl"))
    yield ledger
    ledger.close()


def log_lines(game: str) -> list[dict]:
    path = ROOT / MANIFEST["games"][game]["log"]
    return [json.loads(text) for text in path.read_text(encoding="utf-8").splitlines()]


def moves_of(game: str) -> dict[str, list[dict]]:
    """Each unit's UnitMoved lines in the game's log."""
    out: dict[str, list[dict]] = {}
    for line in log_lines(game):
        if line["type"] == "UnitMoved":
            out.setdefault(line["data"]["unit"], []).append(line)
    return out


def test_the_fixture_was_written_by_version_1():
    # Not a test of the code: a guard that the rows are the old stored form (no class_version).
    moved = [r for r in v1_rows("stored_events.jsonl") if r.topic == MOVED_TOPIC]
    assert len(moved) == 33
    assert all("class_version" not in json.loads(r.state) and "mode" not in json.loads(r.state) for r in moved)


@pytest.mark.parametrize("game", sorted(MANIFEST["games"]))
def test_stored_version_1_moves_read_as_version_2(v1_store, game):
    for unit, lines in moves_of(game).items():
        events = list(v1_store.events.get(unit_uuid(game, unit)))
        moved = [e for e in events if isinstance(e, Unit.Moved)]
        assert [(e.seq, e.path) for e in moved] == [(l["seq"], l["data"]["path"]) for l in lines]
        # version 1 did not keep the mode: upcast to None, "not recorded"
        assert [e.mode for e in moved] == [None] * len(lines)
        folded, entries = history(events)
        assert folded.location == lines[-1]["data"]["path"][-1]
        assert [e["mode"] for e in entries if e["change"] == "moved"] == [None] * len(lines)
        assert v1_store.repository.get(unit_uuid(game, unit)).seqs == folded.seqs


@pytest.mark.parametrize("game", sorted(MANIFEST["games"]))
def test_a_game_stored_by_version_1_exports_the_same_bytes(v1_store, game):
    text = "".join(line + "\n" for line in v1_store.export(game)).encode("utf-8")
    assert hashlib.sha256(text).hexdigest() == MANIFEST["games"][game]["export_sha256"]
    assert text.count(b"\n") == MANIFEST["games"][game]["lines"]


def test_a_game_stored_by_version_1_takes_new_moves_at_version_2(v1_store):
    # game-log-tabletop.md, UnitMoved: `mode`? fall-back (AVBCW.MELEE.FALLBACK).
    game = "avbcw-derwent-1938"
    last = log_lines(game)[-1]
    unit = "s-mil"
    at = moves_of(game)[unit][-1]["data"]["path"][-1]
    move = {"v": 1, "game": game, "seq": last["seq"] + 1, "turn": last["turn"], "phase": last["phase"],
            "side": "socialist", "type": "UnitMoved",
            "data": {"unit": unit, "mode": "fall-back", "path": [at, {"x": at["x"], "y": at["y"] + 1.0}]}}
    assert v1_store.append(game, [move]).last_seq == move["seq"]
    rows = v1_store.recorder.select_events(unit_uuid(game, unit))
    assert json.loads(rows[-1].state)["class_version"] == 2
    _, entries = history(v1_store.events.get(unit_uuid(game, unit)))
    modes = [e["mode"] for e in entries if e["change"] == "moved"]
    assert modes == [None] * len(moves_of(game)[unit]) + ["fall-back"]


@pytest.mark.parametrize("game", sorted(MANIFEST["games"]))
def test_an_imported_log_is_stored_with_each_moves_mode(ledger, game):
    # A file is one batch: a unit it changes several times has one Unit.Changed holding each
    # move with its mode; a unit it moves once, a Moved at version 2.
    path = ROOT / MANIFEST["games"][game]["log"]
    ledger.import_lines(path.read_text(encoding="utf-8").splitlines())
    for unit, lines in moves_of(game).items():
        states = {r.topic: json.loads(r.state) for r in ledger.recorder.select_events(unit_uuid(game, unit))}
        if MOVED_TOPIC in states:
            assert states[MOVED_TOPIC]["class_version"] == 2 and len(lines) == 1
        else:
            assert [c["mode"] for c in states[CHANGED_TOPIC]["changes"] if "path" in c] == \
                   [l["data"].get("mode", "normal") for l in lines]
        _, entries = history(ledger.events.get(unit_uuid(game, unit)))
        # game-log.md, Units: a UnitMoved without a mode is a normal move
        assert [e["mode"] for e in entries if e["change"] == "moved"] == \
               [l["data"].get("mode", "normal") for l in lines]
    exported = "".join(line + "\n" for line in ledger.export(game)).encode("utf-8")
    assert hashlib.sha256(exported).hexdigest() == MANIFEST["games"][game]["export_sha256"]


def test_a_version_1_state_upcasts_through_the_mapper():
    from eventsourcing.persistence import DatetimeAsISO, Mapper, UUIDAsHex
    transcoder = OrjsonTranscoder()
    for transcoding in (UUIDAsHex(), DatetimeAsISO()):
        transcoder.register(transcoding)
    stored = next(r for r in v1_rows("stored_events.jsonl") if r.topic == MOVED_TOPIC)
    event = Mapper(transcoder).to_domain_event(stored)
    assert type(event) is Unit.Moved and event.mode is None
    assert event.path == json.loads(stored.state)["path"]


def test_a_logical_backup_of_a_version_1_store_restores_every_move_with_its_mode(v1_store, db_url, tmp_path):
    # docs/backup.md: a logical restore imports each game's log again, so its moves are stored at
    # version 2 from the log's own lines; the games export to the same bytes as version 1 wrote.
    backup, restored = tmp_path / "v1.backup", str(tmp_path / "restored.db")
    for args in (["backup", "--db", db_url, "-o", backup, "--format", "logical"],
                 ["restore", backup, "--db", restored]):
        result = CliRunner().invoke(app, [str(a) for a in args])
        assert result.exit_code == 0, result.output
    ledger = Ledger(ledger_env(restored))
    try:
        for game in MANIFEST["games"]:
            exported = "".join(line + "\n" for line in ledger.export(game)).encode("utf-8")
            assert hashlib.sha256(exported).hexdigest() == MANIFEST["games"][game]["export_sha256"]
            for unit, lines in moves_of(game).items():
                _, entries = history(ledger.events.get(unit_uuid(game, unit)))
                assert [e["mode"] for e in entries if e["change"] == "moved"] == \
                       [l["data"].get("mode", "normal") for l in lines]
    finally:
        ledger.close()
