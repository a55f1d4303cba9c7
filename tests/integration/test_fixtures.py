"""The demo games of fixtures/games/: each verifies, imports and comes back byte for byte from the
store; the clean ones audit with exit status 0 (no violation, mismatch or missing roll). The game
played with mistakes (its findings, dispute and ruling) is tested in test_demo.py."""
from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from api.cli import app
from tests.conftest import FIXTURE_GAMES

runner = CliRunner()
GAMES = sorted(FIXTURE_GAMES.glob("*.jsonl"))
WITH_MISTAKES = "cambrai-1917-flesquieres"
CLEAN = [p for p in GAMES if p.stem != WITH_MISTAKES]
FAILING = {"violation", "mismatch", "missing-roll"}


def umpire(*args):
    return runner.invoke(app, [str(a) for a in args])


def game_id(path):
    return json.loads(path.read_text(encoding="utf-8").splitlines()[0])["game"]


def test_there_are_at_least_two_clean_demo_games_with_both_table_packs():
    # fixtures/games/README.md: one clean game on the "sample" pack, one on "none"
    packs = {json.loads(p.read_text().splitlines()[0])["data"]["tables"] for p in CLEAN}
    assert len(CLEAN) >= 2 and {"sample", "none"} <= packs
    assert WITH_MISTAKES in {p.stem for p in GAMES}


@pytest.mark.parametrize("path", GAMES, ids=lambda p: p.stem)
def test_fixture_verifies(path, tmp_path):
    db = tmp_path / "fx.db"
    assert umpire("import", path, "--db", db).exit_code == 0
    result = umpire("verify", path, "--db", db)
    assert result.exit_code == 0 and "chain intact" in result.output, result.output


@pytest.mark.parametrize("path", GAMES, ids=lambda p: p.stem)
def test_fixture_imports_and_exports_byte_for_byte(path, tmp_path):
    db, out = tmp_path / "fx.db", tmp_path / "out.jsonl"
    assert umpire("import", path, "--db", db).exit_code == 0
    result = umpire("export", game_id(path), "--db", db, "-o", out)
    assert result.exit_code == 0, result.output
    assert out.read_bytes() == path.read_bytes()


@pytest.mark.parametrize("path", CLEAN, ids=lambda p: p.stem)
def test_fixture_audits_clean(path):
    result = umpire("audit", path, "--format", "json")
    report = json.loads(result.output)
    failing = [f for f in report["findings"] if f["verdict"] in FAILING]
    assert failing == [] and result.exit_code == 0
    # the Infernal Machines games exercise the whole barrage procedure (game-log.md, Off-map artillery)
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    if lines[0]["data"]["ruleset"] != "infernal-machines":
        return
    kinds = {line["type"] for line in lines}
    assert {"HexObserved", "BarrageDeclared", "CommunicationTested", "FireOrderChecked", "ScatterTested",
            "BarrageResolved", "BarrageCancelled", "Spotted", "SmallArmsFired", "UnitMoved"} <= kinds


MOGDONAZIA = FIXTURE_GAMES / "mog-1890-kessarine-road.jsonl"


def test_the_mogdonazia_demo_game_has_its_machines_five_turns_and_a_ruled_dispute():
    # fixtures/games/README.md, Landships of Mogdonazia: a landship, an airship and a PA against a TSATF force
    lines = [json.loads(line) for line in MOGDONAZIA.read_text().splitlines()]
    kinds = {l["data"]["kind"] for l in lines if l["type"] == "VehicleBuilt"}
    assert {"landship", "airship", "powered-armour"} <= kinds
    assert max(l["turn"] for l in lines) >= 5
    assert [l["type"] for l in lines if l["type"] in ("DisputeRaised", "RulingIssued")] == ["DisputeRaised",
                                                                                           "RulingIssued"]
    # the disputed line is the ace against the airship, which the text does not settle (`mog-air-cards`)
    report = json.loads(umpire("audit", MOGDONAZIA, "--format", "json").output)
    disputed = next(l for l in lines if l["type"] == "DisputeRaised")["data"]["about"]
    assert [(f["seq"], f["verdict"]) for f in report["findings"] if f["verdict"] == "ambiguous"] == \
        [(disputed, "ambiguous")]
